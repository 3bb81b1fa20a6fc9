// Table-driven command tests: one row = argv, terminal, env and stdin in; exit code, stdout, stderr and requests out.
import { expect } from 'vitest';
import type { Clock } from '../../src/api/http/clock.js';
import type { MockOptions, RecordedRequest } from '../../src/mock/server.js';
import { startMock, type MockFixture } from './mock.js';
import { runInProcess, type InProcessOptions, type InProcessResult } from './run.js';

/** What a stream must hold: exactly this text, a pattern, every pattern of a list, or a check of your own. */
export type WantText = string | RegExp | RegExp[] | ((text: string) => void);

/**
 * A request the mock must have received: `'GET /reports'` (method and path under /api/v1, any query), or an
 * object whose given fields must match (`{ method: 'PATCH', path: '/reports/7', form: { privacy: '1' } }`).
 */
export type WantRequest = string | { method?: string; path?: string; query?: Record<string, string>; form?: Record<string, string> };

/**
 * One row of a command table, in the style of gh's tests. Each row runs in-process against its own fresh loopback
 * mock (`mock` options), whose RSAPI_BASE_URL, RSAPI_API_KEY and temp RSAPI_CONFIG_DIR come before `env`.
 */
export interface CommandCase {
  name: string;
  argv: string[];
  tty?: InProcessOptions['tty'];
  env?: Record<string, string | undefined>;
  stdin?: string;
  columns?: number;
  mock?: MockOptions;
  /**
   * The run's clock, shared with the row's mock (its throttle window, latency and store delay): a VirtualClock
   * (virtual-clock.ts) makes a row that waits for a window or an audit cost no real time. Default: the run waits on a
   * FakeClock (every wait over at once) and the mock keeps real time.
   */
  clock?: Clock;
  /** Runs before the command, with the row's mock (seed settings, use up a rate limit...). */
  setup?: (mock: MockFixture) => Promise<void> | void;
  wantCode: number;
  wantStdout?: WantText;
  wantStderr?: WantText;
  /** Every request the command made, in order; `[]` asserts it made none. Unchecked when not given. */
  wantRequests?: WantRequest[];
}

export interface CaseResult extends InProcessResult {
  /** The requests the command made (not those of `setup`). */
  requests: RecordedRequest[];
}

/** Runs one row and asserts everything it names; returns the result for any further checks. */
export async function runCase(row: CommandCase): Promise<CaseResult> {
  const mock = await startMock(row.clock ? { ...row.mock, clock: row.clock } : row.mock);
  try {
    await row.setup?.(mock);
    const before = mock.server.requests.length;
    const result = await runInProcess({
      argv: row.argv,
      tty: row.tty,
      env: { ...mock.env, ...row.env },
      stdin: row.stdin,
      columns: row.columns,
      clock: row.clock,
    });
    const requests = mock.server.requests.slice(before);
    const context = `rsapi ${row.argv.join(' ')}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
    expect(result.code, context).toBe(row.wantCode);
    if (row.wantStdout !== undefined) expectText(result.stdout, row.wantStdout, `stdout of ${context}`);
    if (row.wantStderr !== undefined) expectText(result.stderr, row.wantStderr, `stderr of ${context}`);
    if (row.wantRequests !== undefined) {
      expect(requests.map(describeRequest), context).toEqual(row.wantRequests.map(expectedRequest));
    }
    return { ...result, requests };
  } finally {
    await mock.close();
  }
}

export function expectText(text: string, want: WantText, message?: string): void {
  if (typeof want === 'string') expect(text, message).toBe(want);
  else if (want instanceof RegExp) expect(text, message).toMatch(want);
  else if (Array.isArray(want)) for (const pattern of want) expect(text, message).toMatch(pattern);
  else want(text);
}

interface RequestShape {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

function describeRequest(request: RecordedRequest): RequestShape {
  return { method: request.method, path: request.path.replace(/^\/api\/v1(?=\/|$)/, ''), query: request.query, form: request.form };
}

function expectedRequest(want: WantRequest): unknown {
  if (typeof want === 'string') {
    const [method, path] = want.split(' ');
    return expect.objectContaining({ method, path });
  }
  return expect.objectContaining({
    ...(want.method !== undefined && { method: want.method }),
    ...(want.path !== undefined && { path: want.path }),
    ...(want.query !== undefined && { query: expect.objectContaining(want.query) }),
    ...(want.form !== undefined && { form: expect.objectContaining(want.form) }),
  });
}
