// A job's lock and journal kept in a PostgreSQL history, where every runner of the job meets them: the lock an
// advisory lock of a connection held for the run (it dies with the session, so a killed runner frees it), its holder
// named in a row beside it, and the journal a table of lines. SQLite's stay files beside the history (journal.ts).
import { hostname } from 'node:os';
import type { HistoryLocation } from './location.js';
import { migrateHistory } from './sql-store.js';
import { JOB_SQL, type SqlConnection } from './sql.js';

/** Who holds a job's lock, as its row says. */
export interface JobHolder {
  host: string;
  pid: number;
  /** When it was taken (ISO 8601, the history's clock). */
  since: string;
}

/** The lock, or who holds it (undefined: a runner that took it a moment ago and has not named itself yet). */
export type JobLockAttempt = { held: JobLock } | { holder: JobHolder | undefined };

/** How often a runner waiting for the lock asks again. */
const RETRY_MS = 500;

export class JobLock {
  private released = false;

  private constructor(
    private readonly db: SqlConnection,
    /** The job's key in the history: its name and the service (`shop-3fa2c1b9d0e4`). */
    readonly key: string,
  ) {}

  /**
   * Takes the lock of the job `key` (named `job`) in the history at `location`, on a connection of its own held until
   * release(): at once, or waiting up to `waitMs` for its holder to let go (`onWait` told once who that is). The
   * history's schema is brought up to date first. Answers the lock, or who holds it when the wait ran out.
   */
  static async take(
    location: Extract<HistoryLocation, { kind: 'postgres' }>,
    job: { key: string; name: string },
    options: { waitMs: number; signal?: AbortSignal; onWait?: (holder: JobHolder | undefined) => void; notice?: (line: string) => void },
  ): Promise<JobLockAttempt> {
    const { openPostgres } = await import('./postgres.js');
    const db = await openPostgres(location.url, location.shown, { notice: options.notice });
    try {
      await migrateHistory(db, location.shown);
      const deadline = Date.now() + options.waitMs;
      let waiting = false;
      for (;;) {
        const { rows } = await db.run(JOB_SQL.tryLock, [job.key]);
        if (rows[0]?.held === true) {
          await db.run(JOB_SQL.nameHolder, [job.key, job.name, hostname(), process.pid]);
          return { held: new JobLock(db, job.key) };
        }
        const holder = await holderOf(db, job.key);
        if (Date.now() >= deadline || options.signal?.aborted) {
          await db.close();
          return { holder };
        }
        if (!waiting) options.onWait?.(holder);
        waiting = true;
        await sleep(Math.min(RETRY_MS, deadline - Date.now()), options.signal);
      }
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** The journal's lines, in the order written. */
  async lines(): Promise<string[]> {
    const { rows } = await this.db.run(JOB_SQL.journalLines, [this.key]);
    return rows.map((row) => String(row.line));
  }

  /** Adds one line; in the history when this resolves. */
  async append(line: string): Promise<void> {
    await this.db.run(JOB_SQL.appendLine, [this.key, line]);
  }

  /** Makes the journal hold these lines alone, in one transaction (a kill in between loses none of the old ones). */
  async replace(lines: readonly string[]): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.run(JOB_SQL.clearJournal, [this.key]);
      for (const line of lines) await this.db.run(JOB_SQL.appendLine, [this.key, line]);
    });
  }

  /** Lets go of the lock and its connection; a second call does nothing. A failure is no matter: the session's end frees it. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await this.db.run(JOB_SQL.forgetHolder, [this.key, process.pid]);
      await this.db.run(JOB_SQL.unlock, [this.key]);
    } catch {
      // the connection is gone, and the lock with it
    } finally {
      await this.db.close();
    }
  }
}

async function holderOf(db: SqlConnection, key: string): Promise<JobHolder | undefined> {
  const row = (await db.run(JOB_SQL.holder, [key, key])).rows[0];
  return row === undefined ? undefined : { host: String(row.host), pid: Number(row.pid), since: String(row.since) };
}

/** Waits `ms`, or less when `signal` is aborted (Ctrl-C stops a wait for the lock). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}
