// A history that goes silent while a run records into it (src/history/recorder.ts, the page reader, the run's end): the
// output arrives whole, the history is given up after its bound (exit 11, one line), the run is never marked complete,
// and SIGTERM ends the wait at once. PostgreSQL behind a loopback proxy that stops forwarding but keeps its sockets
// open (a partition); SQLite with another connection holding the write lock.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { BIN, NODE, cleanEnv } from '../helpers/cli.js';
import { mockPerTest } from '../helpers/mock.js';
import { postgresProxy } from '../helpers/pg-proxy.js';
import { postgresPerFile } from '../helpers/postgres.js';
import { runInProcess } from '../helpers/run.js';
import { scratchMaker } from '../helpers/scratch.js';

const mock = mockPerTest({ seed: 300 });
const pg = postgresPerFile();
const scratch = scratchMaker('rsapi-history-stall-');
const LIST = ['reports', 'list', '--all', '--per-page', '10', '--record'];
/** Round trips of a run's start on a history whose schema is made: the schema's version, the migration's check, the run's row. */
const START_ROUND_TRIPS = 3;

interface Spawned {
  /** Resolves with the exit code and what was written, once the process has ended. */
  ended: Promise<{ code: number | null; stdout: string; stderr: string; at: number }>;
  stdout(): string;
  kill(signal: NodeJS.Signals): void;
}

function spawnRsapi(args: string[], env: Record<string, string>): Spawned {
  const child = spawn(NODE, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string; at: number }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, at: performance.now() });
    }),
  );
  return { ended, stdout: () => stdout, kill: (signal) => child.kill(signal) };
}

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(pg.missing !== undefined && !process.env.CI)('a PostgreSQL history that goes silent part-way', () => {
  it('the whole ndjson output arrives, the history is given up after its bound (exit 11, one line), and the run is never complete', async () => {
    const fixture = await mock();
    // The schema is made by a first run, straight to the database.
    expect((await runInProcess({ argv: [...LIST, '--history', pg.url(), '-q'], env: fixture.env })).code).toBe(0);
    const proxy = await postgresProxy(new URL(pg.url()), { silentAfter: START_ROUND_TRIPS + 5 });
    try {
      const started = performance.now();
      const run = spawnRsapi([...LIST, '--history', proxy.url(new URL(pg.url())), '-o', 'ndjson'], { ...fixture.env, RSAPI_HISTORY_TIMEOUT_MS: '1000' });
      const result = await run.ended;
      expect(result.stdout.trim().split('\n')).toHaveLength(300);
      expect(result.code, result.stderr).toBe(11);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(
        /^rsapi: history: the history postgres:\/\/\S+ did not answer within 1 s; run \d+ is recorded incomplete: \d+ pages? kept\n$/,
      );
      expect(result.at - started).toBeLessThan(8_000);
    } finally {
      await proxy.close();
    }
    // The store back: the five pages written before are there, in a run never marked complete.
    const runs = await runInProcess({ argv: ['history', 'runs', '--history', pg.url(), '--json'], env: fixture.env });
    expect(JSON.parse(runs.stdout)).toMatchObject([
      { complete: false, finished: null, reports: 50 },
      { complete: true, reports: 300 },
    ]);
  }, 40_000);

  it('SIGTERM while the run waits for its end to be written ends it within a second (exit 130), -o json whole', async () => {
    const fixture = await mock();
    expect((await runInProcess({ argv: [...LIST, '--history', pg.url(), '-q'], env: fixture.env })).code).toBe(0);
    const proxy = await postgresProxy(new URL(pg.url()), { silentAfter: START_ROUND_TRIPS + 2 });
    try {
      // The default bound (10 s): only the signal can end the wait here.
      const run = spawnRsapi([...LIST, '--history', proxy.url(new URL(pg.url())), '-o', 'json'], fixture.env);
      await until(() => run.stdout().endsWith(']\n'));
      // The reading is over and the output whole: what is left is the wait for the silent store.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = performance.now();
      run.kill('SIGTERM');
      const result = await run.ended;
      expect(result.at - signalled).toBeLessThan(1_000);
      expect(result.code, result.stderr).toBe(130);
      expect(JSON.parse(result.stdout)).toHaveLength(300);
    } finally {
      await proxy.close();
    }
  }, 40_000);
});

describe('a SQLite history whose write lock another connection holds', () => {
  it('past the bound the history is given up: the output arrives whole, exit 11, one line, no run marked complete', async () => {
    const fixture = await mock();
    const path = join(scratch(), 'history.db');
    expect((await runInProcess({ argv: [...LIST, '--history', path, '-q'], env: fixture.env })).code).toBe(0);
    // Another writer, its transaction open for longer than the run (SQLite's own wait for a lock is 10 s).
    const other = new DatabaseSync(path);
    other.exec('BEGIN IMMEDIATE');
    other.exec('UPDATE history_runs SET selection = selection WHERE id = 1');
    let result: Awaited<ReturnType<typeof runInProcess>>;
    const started = performance.now();
    try {
      result = await runInProcess({ argv: [...LIST, '--history', path, '-o', 'ndjson'], env: { ...fixture.env, RSAPI_HISTORY_TIMEOUT_MS: '500' } });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.stdout.trim().split('\n')).toHaveLength(300);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toMatch(/^rsapi: history: the history \S+history\.db did not answer within 500 ms; this run is not recorded\n$/);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM history_runs WHERE complete = 1').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  }, 40_000);
});
