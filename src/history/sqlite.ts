// The SQLite driver of the history: Node's built-in node:sqlite (no native addon), WAL, a busy timeout, mode 0600; a
// file that is not an rsapi history (not SQLite, or another program's database) is refused before anything is written.
import { closeSync, constants, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { HistoryError, newerSchemaError } from './errors.js';
import { SCHEMA_VERSION, SQL, SQLITE, type SqlConnection, type SqlRow, type SqlValue } from './sql.js';

/** How long a writer waits for another's lock (two runs recording into one file at once). */
const BUSY_TIMEOUT_MS = 10_000;
/**
 * SQLite's own wait for a lock is short and blocks the thread: another writer in this same process (two invocations
 * side by side, an embedding program) could not finish meanwhile. Past it, the wait goes on here, asynchronously.
 */
const SQLITE_BUSY_WAIT_MS = 50;

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * Opens (creating when missing, mode 0600) the SQLite file at `path`. `readOnly`: opened to read alone, changed in
 * nothing (no WAL turned on, nothing made): a history on a read-only mount, or one another user owns, can be read.
 */
export async function openSqlite(path: string, options: { readOnly?: boolean } = {}): Promise<SqlConnection> {
  prepareFile(path, options.readOnly === true);
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync;
  try {
    db = options.readOnly ? openReadOnly(DatabaseSync, path) : new DatabaseSync(path);
    db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
    // Every statement has the index it needs. With no statistics, SQLite chose to build a temporary index over every
    // stored reading for each 1,000 keys a re-read asks about (heldReadings): 15 ms for 100 keys at 50,000 pages,
    // growing with the history, where its own indexes answer in 0.2 ms (test/history/sqlite.test.ts).
    db.exec('PRAGMA automatic_index = OFF');
  } catch (error) {
    throw sqliteProblem(path, error);
  }
  if (options.readOnly) {
    try {
      await waitingOutLocks(() => refuseForeignDatabase(db, path));
      db.exec('PRAGMA temp_store = MEMORY');
    } catch (error) {
      db.close();
      throw sqliteProblem(path, error);
    }
    return new SqliteConnection(db, path);
  }
  try {
    // Another run opening the same new file at once holds its lock while it turns WAL on and makes the tables.
    await waitingOutLocks(() => {
      refuseForeignDatabase(db, path);
      // WAL: readers never wait for the writer, and a run killed part-way loses only what it had not committed.
      db.exec('PRAGMA journal_mode = WAL');
    });
    db.exec('PRAGMA synchronous = NORMAL');
    // A run's snapshots sorted by URL (history show, diff, the HTML's history) are megabytes: sorted in memory, not
    // spilled to a temp file (10,000 reports: 4,400 writes of a temp file, 0.4 s of system time, before).
    db.exec('PRAGMA temp_store = MEMORY');
  } catch (error) {
    db.close();
    throw sqliteProblem(path, error);
  }
  return new SqliteConnection(db, path);
}

/** SQLITE_CANTOPEN: a file (or the shared-memory file WAL reads through) that cannot be opened. */
const SQLITE_CANTOPEN = 14;

/**
 * The file opened to be read alone. A WAL history on a read-only mount cannot have the shared-memory file SQLite reads
 * it through made beside it: nothing can write there either, so it is read as immutable (no locks, no -shm).
 */
function openReadOnly(Database: typeof DatabaseSync, path: string): DatabaseSync {
  const db = new Database(path, { readOnly: true });
  try {
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    if ((((error as { errcode?: number }).errcode ?? 0) & 0xff) !== SQLITE_CANTOPEN) throw error;
    return new Database(`${pathToFileURL(path).href}?immutable=1`, { readOnly: true });
  }
}

/**
 * `step`, tried again while another connection holds the lock it needs, for up to BUSY_TIMEOUT_MS: SQLite's own wait
 * (SQLITE_BUSY_WAIT_MS) blocks the thread, this one yields between tries. Any other failure is thrown at once.
 */
async function waitingOutLocks<T>(step: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await sleep(10 + Math.random() * 40);
    }
  }
}

/**
 * The file exists and holds SQLite's header (or nothing yet), or is made here with mode 0600 in a folder made for it.
 * Anything else is refused before SQLite opens it: SQLite would not write to it, but this says why.
 */
function prepareFile(path: string, readOnly: boolean): void {
  let size: number | undefined;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new HistoryError(`the history ${path} is not a file`, 'not-history');
    size = stat.size;
  } catch (error) {
    if (error instanceof HistoryError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw sqliteProblem(path, error);
  }
  if (size === undefined) {
    if (readOnly) throw new HistoryError(`no history at ${path}`, 'failed');
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      closeSync(openSync(path, constants.O_CREAT | constants.O_WRONLY, 0o600));
    } catch (error) {
      throw sqliteProblem(path, error);
    }
    return;
  }
  if (size === 0) return;
  const header = Buffer.alloc(16);
  let read = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, header, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw sqliteProblem(path, error);
  }
  if (read < 16 || header.toString('latin1') !== SQLITE_HEADER) {
    throw new HistoryError(`the history ${path} is not a SQLite file; left untouched`, 'not-history', {
      hint: 'give another path with --history or RSAPI_HISTORY',
    });
  }
}

/**
 * A SQLite database with tables of its own and none of the history's (someone else's), or a history of a newer schema:
 * refused before WAL is turned on, which would change the file.
 */
function refuseForeignDatabase(db: DatabaseSync, path: string): void {
  const count = (sql: string) => Number((db.prepare(sql).get() as SqlRow | undefined)?.n ?? 0);
  if (count(SQLITE.schemaTableExists) === 0) {
    // Looked at again after the other tables: another run making the history at this moment commits them all at once,
    // so its tables may show up between the two looks ("not an rsapi history" for a history being born).
    if (SQLITE.anyTable && count(SQLITE.anyTable) > 0 && count(SQLITE.schemaTableExists) === 0) {
      throw new HistoryError(`${path} is a database but not an rsapi history; left untouched`, 'not-history', {
        hint: 'give another path with --history or RSAPI_HISTORY',
      });
    }
    return;
  }
  const version = Number((db.prepare(SQL.schemaVersion).get() as SqlRow | undefined)?.version ?? 0);
  if (version > SCHEMA_VERSION) throw newerSchemaError(path, version, SCHEMA_VERSION);
}

/**
 * node:sqlite, with the one warning Node 22 prints on loading it (ExperimentalWarning: SQLite is an experimental
 * feature) silenced: every other warning passes, and emitWarning is given back once the module is loaded.
 */
async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const name = typeof warning === 'string' ? type : warning.name;
    if (name === 'ExperimentalWarning' && /SQLite/i.test(message)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), as node:sqlite reports them. */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: number }).errcode;
  return code === 5 || code === 6 || /database is locked|database table is locked/i.test(error instanceof Error ? error.message : '');
}

/** SQLite's primary result codes that say what is wrong with the file or its disk (node:sqlite's `errcode`, extended). */
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;

export function sqliteProblem(path: string, error: unknown): HistoryError {
  if (error instanceof HistoryError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const errcode = (error as { errcode?: number }).errcode;
  const primary = typeof errcode === 'number' ? errcode & 0xff : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // What was committed before stays in the history (in its -wal file until SQLite can write it back); what failed is not.
  if (primary === SQLITE_FULL || code === 'ENOSPC' || /disk is full|no space left/i.test(message)) {
    return new HistoryError(`the history ${path} cannot be written: the disk is full`, 'disk-full', {
      cause: error,
      hint: `free disk space on the disk that holds ${dirname(path)} (what was written before is kept), or give another path with --history`,
    });
  }
  if (primary === SQLITE_CORRUPT || /malformed/i.test(message)) {
    return new HistoryError(`the history ${path} is damaged (SQLite: ${sqliteWords(error, message)}); left untouched`, 'damaged', {
      cause: error,
      hint: 'restore it from a copy (`history export` of a copy that still reads, then `history import`), or give another path with --history',
    });
  }
  if (primary === SQLITE_NOTADB) {
    return new HistoryError(
      `the history ${path} starts as a SQLite file but SQLite cannot read it: damaged or encrypted (SQLite: ${sqliteWords(error, message)}); left untouched`,
      'damaged',
      {
        cause: error,
        hint: 'restore it from a copy, or give another path with --history',
      },
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || /readonly|read-only|unable to open|disk I\/O/i.test(message)) {
    return new HistoryError(`the history ${path} cannot be written (${code ?? message})`, 'unwritable', {
      cause: error,
      hint: 'give a writable path with --history',
    });
  }
  if (/not a database|file is encrypted/i.test(message)) {
    return new HistoryError(`the history ${path} is not a SQLite file; left untouched`, 'not-history', { cause: error });
  }
  return new HistoryError(`the history ${path}: ${message}`, 'failed', { cause: error });
}

/** SQLite's own words for an error (`database disk image is malformed`), without node:sqlite's wrapping. */
function sqliteWords(error: unknown, message: string): string {
  const words = (error as { errstr?: unknown }).errstr;
  return typeof words === 'string' && words !== '' ? words : message;
}

/** How many prepared statements a connection keeps (its fixed ones, and the sizes of write met most recently). */
const STATEMENTS_KEPT = 64;

class SqliteConnection implements SqlConnection {
  readonly dialect = SQLITE;
  /**
   * The statements prepared, the most recently used last; at most STATEMENTS_KEPT. A write of N rows is a statement of
   * its own for each N (1 to 1,000), and one of hundreds of rows holds a few hundred KB of SQLite's memory: kept
   * without a bound, a 50,000-page audit's history held over 100 MB of them.
   */
  private readonly statements = new Map<string, StatementSync>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
  ) {}

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ rows: SqlRow[]; changes: number }> {
    try {
      // Outside a transaction (its BEGIN IMMEDIATE, or a lone write), a lock held elsewhere is waited out. Inside one
      // the lock is held already: a busy answer there is not going to change by waiting.
      if (this.db.isTransaction) return this.runOnce(sql, params);
      return await waitingOutLocks(() => this.runOnce(sql, params));
    } catch (error) {
      throw sqliteProblem(this.path, error);
    }
  }

  async *each(sql: string, params: readonly SqlValue[] = []): AsyncIterable<SqlRow> {
    // A statement of its own (not the cache's): another statement may run while this one is part-way. Its ORDER BY
    // may spill to a temp file: in memory (temp_store, set at open for speed) the sort of a run of 100,000 reports
    // held all of them, 90 MB, before the first row came out.
    let rows: Iterator<unknown>;
    try {
      this.db.exec('PRAGMA temp_store = FILE');
      rows = this.db.prepare(sql).iterate(...params);
    } catch (error) {
      throw sqliteProblem(this.path, error);
    }
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = rows.next();
        } catch (error) {
          throw sqliteProblem(this.path, error);
        }
        if (next.done) return;
        yield next.value as SqlRow;
      }
    } finally {
      rows.return?.();
      if (this.db.isOpen) this.db.exec('PRAGMA temp_store = MEMORY');
    }
  }

  private runOnce(sql: string, params: readonly SqlValue[]): { rows: SqlRow[]; changes: number } {
    let statement = this.statements.get(sql);
    if (statement) this.statements.delete(sql);
    else statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > STATEMENTS_KEPT) {
      const [oldest, evicted] = this.statements.entries().next().value as [string, StatementSync];
      this.statements.delete(oldest);
      (evicted as { close?: () => void }).close?.();
    }
    if (/^\s*(SELECT|WITH)\b/i.test(sql) || /\bRETURNING\b/i.test(sql)) return { rows: statement.all(...params) as SqlRow[], changes: 0 };
    return { rows: [], changes: Number(statement.run(...params).changes) };
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run(SQLITE.begin);
    try {
      const result = await work();
      await this.run('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}
