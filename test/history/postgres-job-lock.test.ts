// A job's lock and journal in a PostgreSQL history (src/history/postgres.ts's JobLock), against the real server: one holder at a
// time, named to the others; freed by release and by the end of the holder's session; waited for up to a bound; and
// the journal's lines kept per job, in order.
import { hostname } from 'node:os';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { JobLock, type JobHolder, type JobLockAttempt } from '../../src/history/postgres.js';
import { historyLocation } from '../../src/history/location.js';
import { postgresPerFile } from '../helpers/postgres.js';

const database = postgresPerFile();

function location() {
  const where = historyLocation(database.url());
  if (where.kind !== 'postgres') throw new Error('not a postgres URL');
  return where;
}

async function take(key: string, waitMs = 0, onWait?: (holder: JobHolder | undefined) => void): Promise<JobLockAttempt> {
  const attempt = await JobLock.take(location(), { key, name: 'shop' }, { waitMs, onWait });
  if ('held' in attempt) onTestFinished(() => attempt.held.release());
  return attempt;
}

async function held(key: string): Promise<JobLock> {
  const attempt = await take(key);
  if (!('held' in attempt)) throw new Error(`the lock of ${key} is held by ${JSON.stringify(attempt.holder)}`);
  return attempt.held;
}

/** Runs `sql` on a connection of the test's own. */
async function query(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: database.url() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(database.missing !== undefined && !process.env.CI)("a job's lock in a PostgreSQL history", () => {
  it('is held by one runner at a time: another is refused, told the holder (host, pid, since); release frees it', async () => {
    const first = await held('shop-1');
    const refused = await take('shop-1');
    expect(refused).toEqual({ holder: { host: hostname(), pid: process.pid, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) } });
    // Another job's lock is its own.
    await held('blog-1');
    await first.release();
    expect('held' in (await take('shop-1'))).toBe(true);
  });

  it("dies with its holder's session (a killed runner): the next runner takes it, and the row left behind names no one", async () => {
    await held('shop-2');
    // The holder's connection ends as a killed process's does, without a word.
    const [{ terminated }] = (await query("SELECT pg_terminate_backend(session) AS terminated FROM history_job_holders WHERE job_key = 'shop-2'")) as [
      { terminated: boolean },
    ];
    expect(terminated).toBe(true);
    let next: JobLockAttempt | undefined;
    for (let tries = 0; tries < 50 && !(next && 'held' in next); tries++) {
      next = await take('shop-2');
      if (!('held' in next)) {
        // While the server has not yet ended the session, its row still names it: never a holder that is gone.
        expect(next.holder?.pid).toBe(process.pid);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(next && 'held' in next).toBe(true);
  });

  it('a row whose session does not hold the lock (a runner that took it a moment ago, not yet named) names no one', async () => {
    await held('shop-3');
    await query("UPDATE history_job_holders SET session = -1 WHERE job_key = 'shop-3'");
    expect(await take('shop-3')).toEqual({ holder: undefined });
  });

  it('waits up to its bound for the holder to let go, saying once who it waits for', async () => {
    const first = await held('shop-4');
    const waits: (JobHolder | undefined)[] = [];
    const started = Date.now();
    const waiting = take('shop-4', 60_000, (holder) => waits.push(holder));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await first.release();
    expect('held' in (await waiting)).toBe(true);
    expect(waits).toEqual([expect.objectContaining({ pid: process.pid, host: hostname() })]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    // A bound that runs out: refused, with the holder.
    const bounded = Date.now();
    expect(await take('shop-4', 600)).toMatchObject({ holder: { pid: process.pid } });
    expect(Date.now() - bounded).toBeGreaterThanOrEqual(600);
  });
});

describe.skipIf(database.missing !== undefined && !process.env.CI)("a job's journal in a PostgreSQL history", () => {
  it('keeps lines in the order written, for each job apart; replace leaves the lines given alone', async () => {
    const shop = await held('shop-5');
    const blog = await held('blog-5');
    for (const line of ['{"url":"a"}', '{"url":"b"}', '{"url":"c"}']) await shop.append(line);
    await blog.append('{"url":"x"}');
    expect(await shop.lines()).toEqual(['{"url":"a"}', '{"url":"b"}', '{"url":"c"}']);
    await shop.replace(['{"url":"b"}']);
    expect(await shop.lines()).toEqual(['{"url":"b"}']);
    expect(await blog.lines()).toEqual(['{"url":"x"}']);
    // The next holder of the job, on another connection (another machine), reads what the last one wrote.
    await shop.release();
    expect(await (await held('shop-5')).lines()).toEqual(['{"url":"b"}']);
  });
});
