#!/usr/bin/env node
// The history's budgets (issue 25), printed as JSON rows for scripts/bench.mjs (or read alone):
//   - a job's baseline (its last complete run that read reports) among 100 runs as among 1: an index, not a scan;
//   - the size of a new snapshot and of an unchanged re-read, over 10,000 reports x 10 runs through the store's own
//     write path (and the file's size after 10 and 100 runs);
//   - over 1,000,000 snapshots (10,000 URLs x 100 runs, each a new audit): `history trend URL`'s query time and the
//     whole command against `--version` (beside its floor: node:sqlite and the same query alone, and the CLI's own
//     start, `config path`), and `history diff` of two 10,000-report runs.
//
//   node scripts/bench/history.mjs [--urls 10000] [--runs 100] [--node PATH]
//   node scripts/bench/history.mjs --write-big PATH   (only the 1,000,000 snapshots, into PATH; prints the trend's URL)
import { CHECK_IDS } from './generated-history.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importTs } from './import-ts.mjs';
import { recordGeneratedHistory } from './generated-history.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    urls: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '100' },
    node: { type: 'string' },
    'write-big': { type: 'string' },
  },
});
const URLS = Number(opts.urls);
const RUNS = Number(opts.runs);
const NODE = opts.node ?? process.execPath;
const work = mkdtempSync(join(tmpdir(), 'rsapi-bench-history-'));

try {
  // The store as the CLI builds it, bundled for this script (src/ is TypeScript).
  const { openHistory, historyLocation, snapshotOf, SQL } = await importTs(join(ROOT, 'scripts', 'bench', 'history-store.ts'), work, 'store');
  const CHECKS = CHECK_IDS;
  const origin = 'https://rank.example.com';
  const report = (i, run, drift) => ({
    id: i + 1,
    url: `site-${i % 50}.example.com/page/${i}`,
    project: `site-${i % 50}.example.com`,
    result: 40 + ((i * 7 + (drift ? run : 0)) % 60),
    generated_at: drift ? new Date(Date.UTC(2026, 0, 1) + run * 86_400_000).toISOString() : '2026-01-01T00:00:00.000000Z',
    results: Object.fromEntries(
      CHECKS.map((id, c) => [id, { passed: (i + c + (drift ? run : 0)) % 5 !== 0, importance: 'medium', value: `${id}-${(i + c) % 7}` }]),
    ),
  });
  const recordRuns = async (path, runs, drift) => {
    const store = await openHistory(historyLocation(path));
    for (let run = 0; run < runs; run++) {
      const id = await store.startRun({
        started: new Date(Date.UTC(2026, 0, 1) + run * 60_000).toISOString(),
        command: 'reports list',
        selection: '{"all":true}',
        origin,
      });
      for (let page = 0; page < URLS; page += 100) {
        const snapshots = [];
        for (let i = page; i < Math.min(page + 100, URLS); i++) snapshots.push(snapshotOf(report(i, run, drift), origin));
        await store.addSnapshots(id, snapshots);
      }
      await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete: true });
    }
    await store.close();
  };
  const checkpoint = async (path) => {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    return statSync(path).size;
  };

  const target = report(4321 % URLS, 0, false).url;
  if (opts['write-big']) {
    // For scripts/bench.mjs's trend case: made once into its cache, then timed on every Node.
    await recordRuns(opts['write-big'], RUNS, true);
    await checkpoint(opts['write-big']);
    process.stdout.write(`${target}\n`);
    rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
  // Sizes: 10 runs over the same, unchanged reports.
  const sizes = join(work, 'sizes.db');
  await recordRuns(sizes, 10, false);
  const sizeAfter10 = await checkpoint(sizes);
  const empty = await (async () => {
    const path = join(work, 'empty.db');
    const store = await openHistory(historyLocation(path));
    await store.close();
    return checkpoint(path);
  })();
  const one = join(work, 'one.db');
  await recordRuns(one, 1, false);
  const sizeAfter1 = await checkpoint(one);
  const newSnapshot = (sizeAfter1 - empty) / URLS;
  const reRead = (sizeAfter10 - sizeAfter1) / (9 * URLS);
  emit({ name: 'new snapshot (36 checks), bytes of the SQLite file', budget: '<= 2 KB', subject: `${Math.round(newSnapshot)} B`, ok: newSnapshot <= 2048 });
  emit({ name: 'unchanged report re-read, bytes of the SQLite file', budget: '<= 100 B', subject: `${Math.round(reRead)} B`, ok: reRead <= 100 });
  emit({ name: `SQLite file after 10 runs of ${URLS} unchanged reports`, budget: '-', subject: `${(sizeAfter10 / 1e6).toFixed(1)} MB`, ok: true });

  // 1,000,000 snapshots: every run a new audit of every URL.
  const big = join(work, 'big.db');
  const started = performance.now();
  await recordRuns(big, RUNS, true);
  const writeSeconds = (performance.now() - started) / 1000;
  const bigSize = await checkpoint(big);
  emit({
    name: `SQLite file after ${RUNS} runs of ${URLS} re-audited reports (${URLS * RUNS} snapshots)`,
    budget: '-',
    subject: `${(bigSize / 1e6).toFixed(0)} MB, written in ${writeSeconds.toFixed(0)} s`,
    ok: true,
  });
  const store = await openHistory(historyLocation(big));
  const queryMs = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await store.trendOfUrl(target, {});
    queryMs.push(performance.now() - t);
  }
  // A job's baseline (`--baseline last`): its last complete run that read reports, among RUNS runs of URLS pages and
  // among one (the sizes' file has 10): an index lookup costs the same in both (issue 35's budget).
  const baselineQuery = { command: 'reports list', selection: '{"all":true}', origin, completeOnly: true, readReports: true, limit: 1 };
  const baselineMs = async (reader) => {
    for (let i = 0; i < 20; i++) await reader.runs(baselineQuery);
    const t = performance.now();
    for (let i = 0; i < 500; i++) await reader.runs(baselineQuery);
    return (performance.now() - t) / 500;
  };
  const among = await baselineMs(store);
  const fewStore = await openHistory(historyLocation(one), { readOnly: true });
  const amongOne = await baselineMs(fewStore);
  await fewStore.close();
  emit({
    name: `a job's baseline among ${RUNS} runs of ${URLS} pages / among 1`,
    budget: '<= 1.5x',
    reference: `${amongOne.toFixed(3)} ms`,
    subject: `${among.toFixed(3)} ms`,
    ratio: among / amongOne,
    ok: among / amongOne <= 1.5,
  });
  await store.close();
  const query = median(queryMs);
  emit({ name: `history trend URL: query time over ${URLS * RUNS} snapshots`, budget: '<= 100 ms', subject: `${query.toFixed(1)} ms`, ok: query <= 100 });
  const cli = (...args) => timed([join(ROOT, 'bin', 'rsapi'), ...args]);
  const version = median(Array.from({ length: 7 }, () => cli('--version')));
  const trend = median(Array.from({ length: 7 }, () => cli('history', 'trend', target, '--history', big, '-o', 'json')));
  // A command's time against --version's, and the two floors under it: shown, not judged.
  const againstVersion = (name, ms, budget) =>
    emit({
      name,
      budget: budget === undefined ? '-' : `<= ${budget}x`,
      reference: `${version.toFixed(0)} ms`,
      subject: `${ms.toFixed(0)} ms`,
      ratio: ms / version,
      ok: budget === undefined || ms / version <= budget,
    });
  // Its budget is now 1.3x `config path` (issue 37: one argument parser, no second start path), measured in
  // scripts/bench.mjs's `trend` case; against --version it is shown, not judged.
  againstVersion('`history trend URL` / `--version`', trend);
  // What the budget leaves: Node with node:sqlite and the same statement alone, no rsapi code (trend-floor.mjs).
  const floor = median(
    Array.from({ length: 7 }, () => timed([join(ROOT, 'scripts', 'bench', 'trend-floor.mjs'), big, target], { RSAPI_BENCH_SQL: SQL.trendOfUrl })),
  );
  againstVersion('its floor: node:sqlite and the same query, no rsapi code / `--version`', floor);
  // The lightest command that reads the settings and prints, with no database: what the CLI's own start costs.
  againstVersion("`config path` (the CLI's start, no database) / `--version`", median(Array.from({ length: 7 }, () => cli('config', 'path'))));
  const diff = median(Array.from({ length: 3 }, () => cli('history', 'diff', '--history', big, '-o', 'json')));
  emit({ name: `\`history diff\` of two ${URLS}-report runs`, budget: '<= 1 s', subject: `${(diff / 1000).toFixed(2)} s`, ok: diff <= 1000 });

  // Issue 45: the generated history (26 weekly runs of 2,000 pages, 2% of checks flipping a week), bytes a page a week.
  const generated = join(work, 'generated.db');
  const generatedStore = await openHistory(historyLocation(generated));
  await recordGeneratedHistory(generatedStore, snapshotOf, { pages: 2_000, weeks: 26, flip: 0.02 });
  await generatedStore.close();
  const perPageWeek = (await vacuumed(generated)) / (2_000 * 26);
  emit({
    name: 'generated history: 26 weekly runs of 2,000 pages, 2% flipping, bytes a page a week (VACUUM)',
    budget: '<= 200 B',
    subject: `${perPageWeek.toFixed(0)} B`,
    ok: perPageWeek <= 200,
  });

  // Issue 45: `history diff` of two 100,000-report runs (2% of checks flipping between them), time and peak RSS.
  const twoRuns = join(work, 'two-runs.db');
  const twoStore = await openHistory(historyLocation(twoRuns));
  await recordGeneratedHistory(twoStore, snapshotOf, { pages: 100_000, weeks: 2, flip: 0.02 });
  await twoStore.close();
  const rssFile = join(work, 'diff-rss.txt');
  const diffRss = { NODE_OPTIONS: `--require ${join(ROOT, 'scripts', 'bench', 'max-rss.cjs')}`, RSAPI_BENCH_RSS_FILE: rssFile };
  const bigDiff = median(Array.from({ length: 3 }, () => timed([join(ROOT, 'bin', 'rsapi'), 'history', 'diff', '--history', twoRuns, '-o', 'json'], diffRss)));
  const peakMb = Math.max(...readFileSync(rssFile, 'utf8').trim().split('\n').map(Number)) / 1024;
  emit({
    name: '`history diff` of two 100,000-report runs: time and peak RSS',
    budget: '<= 3 s, <= 300 MB',
    subject: `${(bigDiff / 1000).toFixed(2)} s, ${peakMb.toFixed(0)} MB`,
    ok: bigDiff <= 3000 && peakMb <= 300,
  });

  // Issue 45: eight `history_diff` calls at once to a real `rsapi mcp` over stdio, on the same history, two at a time
  // (src/mcp/server.ts HISTORY_CALLS_AT_ONCE): every one answered with the diff, the server still answering after; each
  // answer within the 64 KB a result may take (src/mcp/results.ts); answered as each is done, so the first by half the
  // time of the last (four turns of two: about a quarter), and a ping sent a second after the calls within a second;
  // the server's peak RSS over all eight within one CLI diff's budget, 300 MB.
  const mcp = await mcpDiffsAtOnce(twoRuns, 8, 100_000);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const mcpOk = {
    answered: mcp.answered === 8 && mcp.up,
    bounded: mcp.answerBytes > 0 && mcp.answerBytes <= 64 * 1024,
    early: mcp.firstMs > 0 && mcp.firstMs <= mcp.ms / 2,
    ping: mcp.pingMs !== undefined && mcp.pingMs <= 1000,
    rss: mcp.peakMb !== undefined && mcp.peakMb <= 300,
  };
  emit({
    name: 'MCP: eight `history_diff` calls at once over two 100,000-report runs',
    budget: 'all answered, the server up, each answer <= 64 KB, the first by half the last, a ping within 1 s, <= 300 MB',
    subject:
      `${mcp.answered} of 8 answered in ${seconds(mcp.ms)} (the first at ${seconds(mcp.firstMs)}), each at most ${(mcp.answerBytes / 1024).toFixed(1)} KB, ` +
      `a ping answered in ${mcp.pingMs === undefined ? 'no time (none)' : `${Math.round(mcp.pingMs)} ms`}, ` +
      `${mcp.up ? 'the server up' : 'the server not answering'}, peak RSS ${mcp.peakMb === undefined ? 'unknown' : `${mcp.peakMb.toFixed(0)} MB`}` +
      `${mcp.problem ? `: ${mcp.problem}` : ''}`,
    ok: Object.values(mcpOk).every(Boolean) && mcp.problem === undefined,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** A SQLite file's size once its WAL is written back and its free pages dropped. */
async function vacuumed(path) {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(path);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.close();
  return statSync(path).size;
}

/**
 * `calls` history_diff calls at once (the default: the newest run against the one before) to `rsapi mcp` on `history`,
 * as an MCP client sends them: how many were answered with a diff of `pages` pages, the time until the first and the
 * last answer, the largest answer as sent (its JSON-RPC line) in bytes, how long a ping sent a second after the calls
 * waited for its answer, whether the server answered a request after them, and its peak RSS. A crash, an error answer
 * or a timeout is said in `problem`, not thrown: the row shows it. The server is killed if it is still running at the end.
 */
async function mcpDiffsAtOnce(history, calls, pages) {
  const rssFile = join(work, 'mcp-rss.txt');
  const server = startMcp(history, rssFile);
  const rpc = jsonRpcLines(server);
  const outcome = { answered: 0, ms: 0, firstMs: 0, answerBytes: 0, pingMs: undefined, up: false, peakMb: undefined, problem: undefined };
  const note = (problem) => {
    outcome.problem ??= problem;
  };
  try {
    const hello = await rpc.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rsapi-bench', version: '0' } });
    if (!hello.result) throw new Error(`initialize: ${JSON.stringify(hello.error)}`);
    rpc.notify('notifications/initialized');
    const started = performance.now();
    const diffs = rpc.requests(Array.from({ length: calls }, () => ({ method: 'tools/call', params: { name: 'history_diff', arguments: {} } })));
    // A request sent while the calls run and wait: answered at once by a server that gives its event loop a turn.
    const pinging = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const sent = performance.now();
      try {
        const pong = await rpc.request('ping', {});
        if (pong.result) outcome.pingMs = performance.now() - sent;
        else note(`ping: ${JSON.stringify(pong.error)}`);
      } catch (error) {
        note(`ping: ${error.message}`);
      }
    })();
    const settled = await Promise.allSettled(
      diffs.map((diff) =>
        diff.then((answer) => {
          outcome.firstMs ||= performance.now() - started;
          return answer;
        }),
      ),
    );
    outcome.ms = performance.now() - started;
    await pinging;
    const texts = new Set();
    for (const answer of settled) {
      const wrong = answer.status === 'rejected' ? answer.reason.message : notADiff(answer.value, pages);
      if (wrong !== undefined) note(wrong);
      else {
        outcome.answered++;
        texts.add(answer.value.result.content[0].text);
        // The line as the server wrote it: compact JSON of the same message.
        outcome.answerBytes = Math.max(outcome.answerBytes, Buffer.byteLength(JSON.stringify(answer.value)));
      }
    }
    // The same call on the same history: the same answer, eight times.
    if (texts.size > 1) note(`${texts.size} different answers to the same call`);
    const after = await rpc.request('tools/list', {});
    outcome.up = after.result?.tools?.some((tool) => tool.name === 'history_diff') === true;
    if (!outcome.up) note(`tools/list after the calls: ${JSON.stringify(after.error ?? after.result).slice(0, 200)}`);
    server.stdin.end();
    const { code, signal } = await rpc.exited;
    if (code !== 0) note(`rsapi mcp exited with ${signal ?? `code ${code}`} once stdin closed: ${rpc.stderrTail()}`);
    if (existsSync(rssFile)) outcome.peakMb = Number(readFileSync(rssFile, 'utf8').trim()) / 1024;
  } catch (error) {
    note(error.message);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await rpc.exited;
    }
  }
  return outcome;
}

/**
 * `rsapi mcp` on `history` as an MCP client starts it, with a service it never reaches and config and data dirs of its
 * own under `work`; its peak RSS is written to `rssFile` when it exits (max-rss.cjs).
 */
function startMcp(history, rssFile) {
  const home = mkdtempSync(join(work, 'mcp-'));
  return spawn(NODE, [join(ROOT, 'bin', 'rsapi'), 'mcp'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      RSAPI_HISTORY: history,
      RSAPI_BASE_URL: 'http://127.0.0.1:1',
      RSAPI_API_KEY: 'bench-unused-key-0123456789',
      RSAPI_CONFIG_DIR: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      NODE_OPTIONS: `--require ${join(ROOT, 'scripts', 'bench', 'max-rss.cjs')}`,
      RSAPI_BENCH_RSS_FILE: rssFile,
    },
  });
}

/**
 * JSON-RPC with a child over its stdin and stdout, a message a line (as src/mcp/stdio.ts reads and writes them): each
 * request resolves with the answer of its id; one still waiting fails when the child exits, or after `ms`.
 */
function jsonRpcLines(child, ms = 300_000) {
  const waiting = new Map();
  let lastId = 0;
  let stderr = '';
  const stderrTail = () => stderr.trim().split('\n').slice(-3).join(' | ');
  const fail = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr = (stderr + text).slice(-4_000);
  });
  const take = (line) => {
    if (line.trim() === '') return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      fail(new Error(`a line on stdout that is not JSON: ${line.slice(0, 200)}`));
      return;
    }
    waiting.get(message.id)?.resolve(message);
    waiting.delete(message.id);
  };
  // A line's pieces are joined once, at its newline: an answer of megabytes comes in many chunks.
  let pieces = [];
  child.stdout.setEncoding('utf8').on('data', (text) => {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, newline));
      take(pieces.join(''));
      pieces = [];
      start = newline + 1;
    }
    pieces.push(text.slice(start));
  });
  // EPIPE once the child is gone: its exit says why.
  child.stdin.on('error', () => {});
  child.on('error', fail);
  const exited = new Promise((resolve) =>
    child.once('close', (code, signal) => {
      fail(new Error(`rsapi mcp exited with ${signal ?? `code ${code}`}: ${stderrTail()}`));
      resolve({ code, signal });
    }),
  );
  const write = (messages) => child.stdin.write(messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join(''));
  /** Sends every request in one write (at once, as a client with several calls under way does); their answers, in order. */
  const requests = (list) => {
    const ids = list.map(() => ++lastId);
    const answers = ids.map(
      (id) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            waiting.delete(id);
            reject(new Error(`no answer to request ${id} within ${ms / 1000} s`));
          }, ms);
          const done = (settle) => (value) => {
            clearTimeout(timer);
            settle(value);
          };
          waiting.set(id, { resolve: done(resolve), reject: done(reject) });
        }),
    );
    write(list.map((message, i) => ({ id: ids[i], ...message })));
    return answers;
  };
  return {
    requests,
    request: (method, params) => requests([{ method, params }])[0],
    notify: (method) => write([{ method }]),
    exited,
    stderrTail,
  };
}

/**
 * Why an answer to history_diff is not a diff of two runs of `pages` pages that names changed pages; undefined when it
 * is. The pages are named in `changes` or, when those are cut to fit, in the verdict's newly failing and regressions.
 */
function notADiff(answer, pages) {
  if (answer.error) return `error answer ${answer.error.code}: ${answer.error.message}`;
  const text = answer.result?.content?.[0]?.text ?? '';
  if (answer.result?.isError) return `tool error: ${text.slice(0, 300)}`;
  let diff;
  try {
    diff = JSON.parse(text);
  } catch {
    return `an answer that is not JSON: ${text.slice(0, 200)}`;
  }
  if (diff.verdict?.compared !== pages) return `a diff that compared ${diff.verdict?.compared} pages, not ${pages}`;
  const named = [...(diff.changes ?? []), ...(diff.verdict.newly_failing ?? []), ...(diff.verdict.regressions ?? [])];
  if (!(diff.totals?.changed_pages > 0 && named.length > 0 && named.every((page) => typeof page.url === 'string'))) return 'a diff that names no changed page';
  return undefined;
}

function timed(args, env = {}) {
  const t = performance.now();
  const result = spawnSync(NODE, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RSAPI_CONFIG_DIR: join(work, 'config'), RSAPI_HISTORY: '', ...env },
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  return performance.now() - t;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function emit(row) {
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
