// The PostgreSQL driver of the history: the `pg` client, loaded only when a postgres:// URL is given, one connection
// a run; a server down, a refused password or a missing database said as what it is (the URL's password never shown).
// And a job's lock and journal kept in the history, where every runner of the job meets them (JobLock): the lock an
// advisory lock of a connection held for the run (it dies with the session, so a killed runner frees it), its holder
// named in a row beside it, the journal a table of lines. SQLite's stay files beside the history (journal.ts).
import { hostname } from 'node:os';
import type { Client } from 'pg';
import { HistoryError } from './errors.js';
import type { HistoryLocation } from './location.js';
import { migrateHistory } from './sql-store.js';
import { JOB_SQL, POSTGRES, type SqlConnection, type SqlRow, type SqlValue } from './sql.js';

const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long one statement may take on the server (statement_timeout): a history that does not answer is given up
 * rather than holding the run. Migrations lift it for their own transaction (POSTGRES.unlimitedStatements).
 */
export const STATEMENT_TIMEOUT_MS = 10_000;

export async function openPostgres(
  url: string,
  shown: string,
  options: { notice?: (line: string) => void; statementTimeoutMs?: number } = {},
): Promise<SqlConnection> {
  const pg = (await import('pg')).default;
  const timeout = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const client = quietly(
    () =>
      new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // A connection a firewall or NAT dropped in silence is found out, not waited on.
        keepAlive: true,
        statement_timeout: timeout,
      }),
    options.notice,
  );
  // A server that goes away between statements emits 'error' on the client: the next statement fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw postgresProblem(shown, error);
  }
  return new PostgresConnection(client, shown);
}

/**
 * `make()`, with the warnings the pg library prints through process.emitWarning meanwhile (pg-connection-string's
 * multi-line SECURITY WARNING for `?sslmode=require`) kept from the terminal: the one said, in rsapi's words, to
 * `notice`. Any other warning passes, and emitWarning is given back at once.
 */
function quietly<T>(make: () => T, notice: ((line: string) => void) | undefined): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    if (/SSL modes? .*(prefer|require|verify-ca)/i.test(message)) {
      notice?.(
        "rsapi: note: the history URL's sslmode=require (or prefer, verify-ca) is taken as verify-full by the pg library: the server's certificate must be valid for its host name",
      );
      return;
    }
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function postgresProblem(shown: string, error: unknown): HistoryError {
  if (error instanceof HistoryError) return error;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '28P01' || code === '28000')
    return new HistoryError(`the history database ${shown} refused the login (${message})`, 'refused', {
      cause: error,
      hint: 'check the user and password in the history URL',
    });
  // Invalid parameter value (a `?options=-c statement_timeout=abc` in the URL): the server was reached, and said no.
  if (code === '22023')
    return new HistoryError(`the history database ${shown} refused a connection parameter (${message})`, 'bad-parameter', {
      cause: error,
      hint: 'check the parameters in the history URL (after ?)',
    });
  if (code === '57014')
    return new HistoryError(`the history database ${shown} did not answer a statement within its time limit (${message})`, 'unreachable', { cause: error });
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT' || code === 'ECONNRESET' || /timeout/i.test(message))
    return new HistoryError(`the history database ${shown} cannot be reached (${code ?? message})`, 'unreachable', { cause: error });
  if (code === '3D000') return new HistoryError(`the history database ${shown} does not exist (${message})`, 'unreachable', { cause: error });
  return new HistoryError(`the history database ${shown}: ${message}`, 'failed', { cause: error });
}

class PostgresConnection implements SqlConnection {
  readonly dialect = POSTGRES;

  /** The query before: one at a time on the connection (pg's own queue for a second query is deprecated, gone in pg 9). */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly shown: string,
  ) {}

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ rows: SqlRow[]; changes: number }> {
    const query = this.previous.then(() => this.client.query(POSTGRES.placeholders(sql), params as SqlValue[]));
    this.previous = query.catch(() => undefined);
    try {
      const result = await query;
      return { rows: result.rows as SqlRow[], changes: result.rowCount ?? 0 };
    } catch (error) {
      throw postgresProblem(this.shown, error);
    }
  }

  /** pg without a cursor reads a query's rows whole; they are handed out one at a time all the same. */
  async *each(sql: string, params: readonly SqlValue[] = []): AsyncIterable<SqlRow> {
    yield* (await this.run(sql, params)).rows;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run(POSTGRES.begin);
    try {
      const result = await work();
      await this.run('COMMIT');
      return result;
    } catch (error) {
      await this.run('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}

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
/** How often, and how many times, a runner asks again for the name of a holder that has not written it yet (2 s in all). */
const NAMING_RETRY_MS = 50;
const NAMING_TRIES = 40;

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
    const db = await openPostgres(location.url, location.shown, { notice: options.notice });
    try {
      await migrateHistory(db, location.shown, options.notice);
      const deadline = Date.now() + options.waitMs;
      let waiting = false;
      let unnamed = 0;
      for (;;) {
        const { rows } = await db.run(JOB_SQL.tryLock, [job.key]);
        if (rows[0]?.held === true) {
          await db.run(JOB_SQL.nameHolder, [job.key, job.name, hostname(), process.pid]);
          return { held: new JobLock(db, job.key) };
        }
        const holder = await holderOf(db, job.key);
        // A runner that took the lock a moment ago names itself in the next: asked again for a while, so it is named.
        if (holder === undefined && unnamed++ < NAMING_TRIES) {
          await sleep(NAMING_RETRY_MS, options.signal);
          continue;
        }
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

  /** The journal's rows, in the order written (a row may hold several lines, one write's). */
  async lines(): Promise<string[]> {
    const { rows } = await this.db.run(JOB_SQL.journalLines, [this.key]);
    return rows.map((row) => String(row.line));
  }

  /** Adds a write of the journal (a line, or several joined by newlines) as one row; in the history when this resolves. */
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
