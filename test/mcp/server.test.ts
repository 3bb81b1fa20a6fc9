// The MCP server's calls (src/mcp/server.ts callTool): the history's tools run a few at once and the rest wait their
// turn, so that eight history_diff calls at once over a big history are all answered in a bounded heap, each answer
// within the size budget; and the server (serveMcp) answers other requests and writes each answer meanwhile.
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { CHECK_IDS } from '../../src/api/model/checks.js';
import { CommandContext } from '../../src/cli/runtime/context.js';
import { createInvocation } from '../../src/cli/runtime/invocation.js';
import { callTool, HISTORY_CALLS_AT_ONCE, offeredTools, serveMcp } from '../../src/mcp/server.js';
import { MAX_RESULT_BYTES } from '../../src/mcp/results.js';
import { historyLocation } from '../../src/history/location.js';
import { openHistory } from '../../src/history/open.js';
import { snapshotOf } from '../../src/history/snapshot.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { scratchMaker } from '../helpers/scratch.js';
import { testTerminal, withContext } from '../helpers/run.js';

const scratch = scratchMaker('rsapi-mcp-server-');
const ORIGIN = 'http://127.0.0.1:1';
const PAGES = 20_000;

/** Page `n` as phpRank reports it in `week`: 36 checks, a few failing, more in week 2 (so the diff has much to say). */
function report(n: number, week: number, pages: number) {
  const results = Object.fromEntries(
    CHECK_IDS.map((id, index) => [id, { passed: (n + index * week) % 7 !== 0, importance: 'medium', value: `${id} of page ${n}` }]),
  );
  return {
    id: week * pages + n,
    url: `big.example/page/${n}`,
    project: 'big.example',
    result: 60 + ((n * week) % 40),
    generated_at: `2026-01-0${week}T00:00:00Z`,
    results,
  };
}

/** A history of two complete runs of the job `big`, each of `pages` reports. */
async function bigHistory(path: string, pages = PAGES): Promise<void> {
  const store = await openHistory(historyLocation(path));
  try {
    for (const week of [1, 2]) {
      const started = `2026-01-0${week}T00:00:00Z`;
      const run = await store.startRun({ command: 'audit', selection: '{"job":"big"}', origin: ORIGIN, started, shard: undefined, ci: undefined });
      for (let from = 0; from < pages; from += 1000) {
        const snapshots = Array.from({ length: Math.min(1000, pages - from) }, (_, i) => snapshotOf(report(from + i, week, pages), ORIGIN)!);
        await store.addSnapshots(run, snapshots);
      }
      await store.finishRun(run, { finished: started, exitCode: 0, complete: true });
    }
  } finally {
    await store.close();
  }
}

describe('callTool', () => {
  it(`eight history_diff calls at once over two runs of ${PAGES} reports: all answered within ${MAX_RESULT_BYTES} bytes, ${HISTORY_CALLS_AT_ONCE} at a time, the heap bounded`, async () => {
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
            callTool(server, tools, 'history_diff', { job: 'big', fail_on_new_failures: true, max_drop: '0' }, new AbortController().signal).then((result) => {
              peak = Math.max(peak, heap());
              return result;
            }),
          ),
        ),
      );
      for (const result of results) {
        expect(result.isError, result.content[0]?.text).toBeFalsy();
        expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
        const answer = JSON.parse(result.content[0]?.text ?? '') as DiffAnswer;
        const { verdict, totals } = answer;
        expect(verdict.compared).toBe(PAGES);
        // Tens of thousands of changes and verdict entries: every list cut to the same length, every count whole.
        expect(totals.changed_pages).toBeGreaterThan(PAGES / 2);
        expect(verdict.counts.newly_failing).toBe(totals.pages_newly_failing);
        expect(verdict.counts.newly_failing + verdict.counts.regressions + verdict.counts.findings).toBeGreaterThan(30_000);
        const kept = answer.changes.length;
        expect(kept).toBeGreaterThan(10);
        expect([verdict.newly_failing.length, verdict.regressions.length, verdict.findings.length]).toEqual([kept, kept, kept]);
        expect(answer.more).toBe(
          `${totals.changed_pages - kept} more changed URLs, ${verdict.counts.newly_failing - kept} more pages newly failing, ` +
            `${verdict.counts.regressions - kept} more regressions and ${verdict.counts.findings - kept} more findings left out; ` +
            'history diff --json in the CLI gives them all',
        );
      }
    } finally {
      clearInterval(sampler);
    }
    const grewMb = (peak - before) / 2 ** 20;
    process.stdout.write(`8 history_diff calls of ${PAGES} reports: the heap grew by ${grewMb.toFixed(0)} MB at most\n`);
    expect(grewMb).toBeLessThan(400);
  }, 240_000);
});

interface DiffAnswer {
  totals: { changed_pages: number; pages_newly_failing: number };
  verdict: {
    compared: number;
    counts: { newly_failing: number; regressions: number; findings: number };
    newly_failing: unknown[];
    regressions: unknown[];
    findings: unknown[];
  };
  changes: unknown[];
  more: string;
}

describe('serveMcp', () => {
  it('answers a ping sent while history calls are queued before they end, and writes each answer before the next queued call ends', async () => {
    const history = join(scratch(), 'history.db');
    await bigHistory(history, 5_000);
    const env = { RSAPI_HISTORY: history, RSAPI_BASE_URL: ORIGIN, RSAPI_API_KEY: 'unused-key-0123456789', RSAPI_CONFIG_DIR: scratch() };
    // What happened, in order: a call's end (its --verbose line), an answer as the client reads it. A client reads
    // only when the server's event loop turns (a pipe's bytes go out on a turn of it): so does this one.
    const events: string[] = [];
    const answers: { id: number; result?: { isError?: boolean } }[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        setImmediate(() => {
          const answer = JSON.parse(String(chunk)) as { id: number; result?: { isError?: boolean } };
          answers.push(answer);
          events.push(`answer ${answer.id}`);
          done();
        });
      },
    });
    const stderr = { write: (text: string) => void (text.startsWith('< history_diff: ok') && events.push('call ended')) };
    const stdin = new PassThrough();
    const { terminal, cleanup } = testTerminal({ env });
    const invocation = createInvocation({ terminal: { ...terminal, stdin, stdout, stderr }, signal: new AbortController().signal, clock: new FakeClock() });
    const server = new CommandContext(invocation, { color: false, verbose: true });
    const send = (...messages: object[]) => stdin.write(messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join(''));
    try {
      const serving = serveMcp(server, { allowWrite: false });
      const calls = [1, 2, 3, 4].map((id) => ({ id, method: 'tools/call', params: { name: 'history_diff', arguments: { job: 'big' } } }));
      send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } }, ...calls);
      // Sent once the calls are under way (two running, two waiting their turn), on the loop's next turn.
      await new Promise((resolve) => setImmediate(resolve));
      send({ id: 5, method: 'ping' });
      await vi.waitFor(() => expect(answers).toHaveLength(6), { timeout: 60_000, interval: 20 });
      stdin.end();
      await serving;
      for (const answer of answers) expect(answer.result?.isError, JSON.stringify(answer).slice(0, 300)).toBeFalsy();
      expect(events.filter((event) => event === 'call ended')).toHaveLength(4);
      // The ping, before any history call ended (each walks its runs over several turns of the event loop).
      expect(events.indexOf('answer 5')).toBeLessThan(events.indexOf('call ended'));
      // The first two calls' answers, read before the third call (started as the first ended) ended.
      const thirdEnded = events.indexOf('call ended', events.indexOf('call ended', events.indexOf('call ended') + 1) + 1);
      const firstAnswers = events.filter((event) => /^answer [1-4]$/.test(event)).slice(0, 2);
      for (const answer of firstAnswers) expect(events.indexOf(answer), events.join(', ')).toBeLessThan(thirdEnded);
    } finally {
      cleanup();
    }
  }, 60_000);
});
