// A verb's named run function called directly: a context on the test terminal and typed options, no commander, no argv.
import { Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandContext } from '../../../src/cli/runtime/context.js';
import { createInvocation } from '../../../src/cli/runtime/invocation.js';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { handle } from '../../../src/cli/runtime/handler.js';
import { planReportsList, runReportsList, type ReportsListOptions } from '../../../src/cli/commands/reports/list.js';
import { planReportsShow, runReportsShow } from '../../../src/cli/commands/reports/show.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { testTerminal } from '../../helpers/run.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock({ seed: 30 });
});
afterAll(async () => {
  await mock.close();
});

/** Calls `run` with a context built as the handler builds it, on the test terminal; returns what it wrote. */
async function withContext(run: (ctx: CommandContext) => Promise<number | void>) {
  const { terminal, stdout, stderr, cleanup } = testTerminal({ env: mock.env });
  const ctx = new CommandContext(createInvocation({ terminal, signal: new AbortController().signal }), { color: false, json: true });
  const before = mock.server.requests.length;
  try {
    const code = (await run(ctx)) ?? ExitCode.ok;
    return { code, stdout: stdout.text, stderr: stderr.text, requests: mock.server.requests.slice(before) };
  } finally {
    await ctx.close();
    cleanup();
  }
}

const reportsListRun = async (ctx: CommandContext, opts: ReportsListOptions) => runReportsList(ctx, planReportsList(ctx, opts));

describe('named run functions', () => {
  it('reports list (plan, run) sends the typed options as list parameters and prints the records', async () => {
    const options: ReportsListOptions = { result: 'bad', sortBy: 'score', sort: 'asc', perPage: 10, limit: 3 };
    const { code, stdout, requests } = await withContext((ctx) => reportsListRun(ctx, options));
    expect(code).toBe(ExitCode.ok);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.query).toMatchObject({ result: 'bad', sort_by: 'score', sort: 'asc', per_page: '10' });
    const records = JSON.parse(stdout) as { result: string; score: number }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(3);
    for (const record of records) expect(record.result).toBe('bad');
    expect(records.map((r) => r.score)).toEqual([...records.map((r) => r.score)].sort((a, b) => a - b));
  });

  it('reports list (plan, run) with a gate reads every page and returns the gate exit code', async () => {
    const { code, requests } = await withContext((ctx) => reportsListRun(ctx, { failOn: 'bad', perPage: 10 }));
    expect(code).toBe(ExitCode.gate);
    expect(requests.length).toBeGreaterThan(1);
  });

  it('reports show (plan, run) fetches the one report its options name', async () => {
    const { code, stdout, requests } = await withContext(async (ctx) => runReportsShow(ctx, planReportsShow(ctx, { id: '1' })));
    expect(code).toBe(ExitCode.ok);
    expect(requests.map((r) => r.path)).toEqual([expect.stringMatching(/\/reports\/1$/)]);
    expect(JSON.parse(stdout)).toMatchObject({ id: 1 });
  });
});

describe('handle', () => {
  it("a run the process exits after (main's) does not wait for its connections to close; an in-process run does", async () => {
    // Connections whose close never ends: only the in-process run waits for it.
    const close = vi.spyOn(CommandContext.prototype, 'close').mockReturnValue(new Promise<void>(() => undefined));
    try {
      for (const exitsAfterRun of [true, false]) {
        const { terminal, cleanup } = testTerminal({ env: mock.env });
        const command = new Command('run');
        handle(createInvocation({ terminal, signal: new AbortController().signal, exitsAfterRun }), command, async () => ExitCode.ok);
        const ended = command.parseAsync([], { from: 'user' }).then(() => 'ended');
        const waited = new Promise((resolve) => setTimeout(resolve, 200, 'still closing'));
        expect(await Promise.race([ended, waited])).toBe(exitsAfterRun ? 'ended' : 'still closing');
        cleanup();
      }
      expect(close).toHaveBeenCalledTimes(2);
    } finally {
      close.mockRestore();
    }
  });
});
