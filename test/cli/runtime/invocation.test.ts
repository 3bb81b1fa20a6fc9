// One invocation per run: the program takes its clock, secrets and stdout state from it, so runs side by side keep them apart.
import { afterEach, describe, expect, it } from 'vitest';
import { createInvocation } from '../../../src/cli/runtime/invocation.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { sendJson, startRawServer, type RawServer } from '../../helpers/raw-server.js';
import { runInProcess, testTerminal } from '../../helpers/run.js';

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createInvocation', () => {
  it("a run waits on its invocation's clock: a 429 asking for 45 s costs no real time", async () => {
    server = await startRawServer((_request, response, index) =>
      index === 1 ? sendJson(response, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '45' }) : sendJson(response, 200, { answered: index }),
    );
    const clock = new FakeClock();
    const started = performance.now();
    const result = await runInProcess({
      argv: ['api', 'GET', '/reports'],
      env: { RSAPI_BASE_URL: `${server.url}/api/v1`, RSAPI_API_KEY: 'invocation-clock-key-0123' },
      clock,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ answered: 2 });
    expect(clock.sleeps).toContain(45_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("one invocation's stdout going away is not another's", () => {
    const { terminal, cleanup } = testTerminal({});
    try {
      const one = createInvocation({ terminal, signal: new AbortController().signal });
      const two = createInvocation({ terminal, signal: new AbortController().signal });
      const release = two.stdoutState.hold();
      expect(one.stdoutState.reportGone()).toBe(false);
      expect(one.stdoutState.gone.aborted).toBe(true);
      expect(two.stdoutState.gone.aborted).toBe(false);
      expect(two.stdoutState.reportGone()).toBe(true);
      release();
    } finally {
      cleanup();
    }
  });
});
