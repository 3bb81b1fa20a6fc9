// The MCP server's calls (src/mcp/server.ts callTool): the history's tools run a few at once and the rest wait their
// turn, so that eight history_diff calls at once over a big history are all answered in a bounded heap.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/api/model/checks.js';
import { callTool, HISTORY_CALLS_AT_ONCE, offeredTools } from '../../src/mcp/server.js';
import { historyLocation } from '../../src/history/location.js';
import { openHistory } from '../../src/history/open.js';
import { snapshotOf } from '../../src/history/snapshot.js';
import { scratchMaker } from '../helpers/scratch.js';
import { withContext } from '../helpers/run.js';

const scratch = scratchMaker('rsapi-mcp-server-');
const ORIGIN = 'http://127.0.0.1:1';
const PAGES = 20_000;

/** Page `n` as phpRank reports it in `week`: 36 checks, a few failing, more in week 2 (so the diff has much to say). */
function report(n: number, week: number) {
  const results = Object.fromEntries(
    CHECK_IDS.map((id, index) => [id, { passed: (n + index * week) % 7 !== 0, importance: 'medium', value: `${id} of page ${n}` }]),
  );
  return {
    id: week * PAGES + n,
    url: `big.example/page/${n}`,
    project: 'big.example',
    result: 60 + ((n * week) % 40),
    generated_at: `2026-01-0${week}T00:00:00Z`,
    results,
  };
}

/** A history of two complete runs of the job `big`, each of PAGES reports. */
async function bigHistory(path: string): Promise<void> {
  const store = await openHistory(historyLocation(path));
  try {
    for (const week of [1, 2]) {
      const started = `2026-01-0${week}T00:00:00Z`;
      const run = await store.startRun({ command: 'audit', selection: '{"job":"big"}', origin: ORIGIN, started, shard: undefined, ci: undefined });
      for (let from = 0; from < PAGES; from += 1000) {
        const snapshots = Array.from({ length: 1000 }, (_, i) => snapshotOf(report(from + i, week), ORIGIN)!);
        await store.addSnapshots(run, snapshots);
      }
      await store.finishRun(run, { finished: started, exitCode: 0, complete: true });
    }
  } finally {
    await store.close();
  }
}

describe('callTool', () => {
  it(`eight history_diff calls at once over two runs of ${PAGES} reports: all answered, ${HISTORY_CALLS_AT_ONCE} at a time, the heap bounded`, async () => {
    const history = join(scratch(), 'history.db');
    await bigHistory(history);
    const env = { RSAPI_HISTORY: history, RSAPI_BASE_URL: ORIGIN, RSAPI_API_KEY: 'unused-key-0123456789', RSAPI_CONFIG_DIR: scratch() };
    const tools = offeredTools({ allowWrite: false });
    const heap = () => process.memoryUsage().heapUsed;
    globalThis.gc?.();
    const before = heap();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, heap());
    }, 5);
    try {
      const results = await withContext(env, (server) =>
        Promise.all(
          Array.from({ length: 8 }, () =>
            callTool(server, tools, 'history_diff', { job: 'big' }, new AbortController().signal).then((result) => {
              peak = Math.max(peak, heap());
              return result;
            }),
          ),
        ),
      );
      for (const result of results) {
        expect(result.isError, result.content[0]?.text).toBeFalsy();
        const answer = JSON.parse(result.content[0]?.text ?? '') as { totals: { changed_pages: number }; verdict: { compared: number } };
        expect(answer.verdict.compared).toBe(PAGES);
        expect(answer.totals.changed_pages).toBeGreaterThan(PAGES / 2);
      }
    } finally {
      clearInterval(sampler);
    }
    const grewMb = (peak - before) / 2 ** 20;
    process.stdout.write(`8 history_diff calls of ${PAGES} reports: the heap grew by ${grewMb.toFixed(0)} MB at most\n`);
    expect(grewMb).toBeLessThan(400);
  }, 240_000);
});
