// All the history's SQL, in one place: the numbered schema migrations, the queries both stores share, and the few
// places where SQLite and PostgreSQL differ, each named in the Dialect (placeholders, types, transactions, the upsert
// of a page of snapshots, how to ask whether a table exists, how a unique key is changed).

import type { RunQuery } from './types.js';

/** A value bound to a statement: both drivers take these as they are. */
export type SqlValue = string | number | null;

export type SqlRow = Record<string, unknown>;

/** One open database, whichever it is: what the store needs of a driver. */
export interface SqlConnection {
  readonly dialect: Dialect;
  /** One statement written with `?` placeholders (the dialect rewrites them); its rows and how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ rows: SqlRow[]; changes: number }>;
  /** A query's rows one at a time, for a caller that writes each out and keeps none (SQLite reads them as they go). */
  each(sql: string, params?: readonly SqlValue[]): AsyncIterable<SqlRow>;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The differences between the two dialects, each named once. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Placeholders: SQLite takes `?`; PostgreSQL numbers them `$1, $2, ...`. */
  placeholders(sql: string): string;
  /** Types: an id that numbers itself, and a floating-point number. Booleans are INTEGER 0/1 in both. */
  readonly types: { id: string; real: string };
  /** The store's clock as an ISO time with milliseconds (`2026-01-31T09:00:00.000Z`): what orders the runs. */
  readonly now: string;
  /** A column holding an ISO time, written as `now` writes it (a text such as `…T09:00:00Z` is the same instant). */
  isoTime(column: string): string;
  /** A transaction that writes: SQLite takes the write lock at once (so the busy timeout applies); PostgreSQL's plain BEGIN. */
  readonly begin: string;
  /** Whether the schema's version table exists: each asks its own catalogue. */
  readonly schemaTableExists: string;
  /** Whether the database holds any table at all (SQLite: a file of someone else's is never written to). */
  readonly anyTable: string | undefined;
  /** Serialises migrations of several writers meeting an empty database (PostgreSQL: an advisory lock; SQLite's BEGIN IMMEDIATE does it). */
  readonly migrationLock: string | undefined;
  /** Lifts the time limit of one statement for the migration's transaction (PostgreSQL's statement_timeout; a backfill may be long). */
  readonly unlimitedStatements: string | undefined;
  /**
   * Migration 3: history_snapshots' unique key takes the reading's content. PostgreSQL swaps the constraint; SQLite
   * cannot alter one in place, so it rebuilds the table, and history_run_snapshots with it (a table referenced by a
   * foreign key cannot be dropped from under its references).
   */
  readonly keyReadingsByContent: readonly string[];
  /**
   * Upserts: a page of snapshots and the run's references to them, counted on the run's row (history_runs.reports).
   * SQLite is given only readings it does not hold (the store has looked them up in the same transaction): it inserts
   * them, their ids returned, then references those (it has no data-modifying WITH). PostgreSQL does the whole page in
   * one statement (one round trip): a reading it holds already (same key, score, label and checks text) is referenced,
   * any other inserted, a row inserted meanwhile by another writer returning its id through DO UPDATE.
   */
  writeSnapshots(connection: SqlConnection, runId: number, rows: readonly SnapshotRow[]): Promise<void>;
  /** Up to how many rows writeSnapshots is one statement, atomic with no transaction around it (SQLite: none, it takes two). */
  readonly rowsInOneStatement: number;
  /**
   * Migration 4: where a job's lock and journal live. PostgreSQL, shared by runners that keep nothing, holds them in
   * tables (JOB_SQL); SQLite has none: its journal and lock are files beside it, carried with it.
   */
  readonly jobTables: readonly string[];
}

/** A snapshot as written: the columns of history_snapshots, in WRITTEN_COLUMNS' order. */
export type SnapshotRow = readonly [
  origin: string,
  identity: string,
  reportId: string,
  project: string | null,
  score: number | null,
  label: string | null,
  generatedAt: string,
  checks: string | null,
  /** readingHash of score, label and checks: what tells two readings under one key apart in the unique key. */
  content: string,
];

const SNAPSHOT_COLUMNS = 'origin, identity, report_id, project, score, label, generated_at, checks';
const WRITTEN_COLUMNS = `${SNAPSHOT_COLUMNS}, content`;
const WRITTEN_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** The same, read from history_snapshots aliased `s` beside history_runs `r` (which has an origin too). */
const SNAPSHOT_COLUMNS_OF_S = SNAPSHOT_COLUMNS.split(', ')
  .map((column) => `s.${column}`)
  .join(', ');
/**
 * A report's reading as the service dated it. phpRank's generated_at has whole seconds, so two readings of one report
 * within a second (a refresh right after a create) share it: a stored reading is found by this key and its content.
 */
const SNAPSHOT_KEY = 'origin, report_id, generated_at';
const READING_KEY = `${SNAPSHOT_KEY}, content`;

/**
 * The numbered migrations: version N is reached by MIGRATIONS[N - 1], all pending ones run in one transaction (with
 * the version table itself, made at version 0 when the database has none).
 */
export const MIGRATIONS: readonly ((dialect: Dialect) => readonly string[])[] = [
  ({ types }) => [
    `CREATE TABLE history_runs (id ${types.id}, started TEXT NOT NULL, finished TEXT, command TEXT NOT NULL, selection TEXT NOT NULL,
      origin TEXT NOT NULL, exit_code INTEGER, shard TEXT, ci TEXT, complete INTEGER NOT NULL DEFAULT 0)`,
    'CREATE INDEX history_runs_selection ON history_runs (origin, selection, id)',
    `CREATE TABLE history_snapshots (id ${types.id}, origin TEXT NOT NULL, identity TEXT NOT NULL, report_id TEXT NOT NULL, project TEXT,
      score ${types.real}, label TEXT, generated_at TEXT NOT NULL, checks TEXT, UNIQUE (${SNAPSHOT_KEY}))`,
    'CREATE INDEX history_snapshots_identity ON history_snapshots (identity)',
    'CREATE INDEX history_snapshots_project ON history_snapshots (project)',
    `CREATE TABLE history_run_snapshots (run_id INTEGER NOT NULL REFERENCES history_runs (id), snapshot_id INTEGER NOT NULL REFERENCES history_snapshots (id),
      PRIMARY KEY (run_id, snapshot_id))`,
    'CREATE INDEX history_run_snapshots_snapshot ON history_run_snapshots (snapshot_id)',
  ],
  // 2: runs ordered as the store recorded them (issue 35: a CI runner a day ahead made its run the "last" of every later
  // one). `recorded` is the store's clock when the run was added (an import: the time its own store recorded it), so
  // an imported run takes its place in time, not after everything; runs recorded before this step keep their start
  // (one in the future brought back to now). `reports` is counted as references are added, so "the last run that
  // read reports" is an index lookup (history_runs_baseline), not a count of every run's references.
  ({ now, isoTime }) => [
    'ALTER TABLE history_runs ADD COLUMN recorded TEXT',
    'ALTER TABLE history_runs ADD COLUMN reports INTEGER NOT NULL DEFAULT 0',
    'UPDATE history_runs SET reports = (SELECT COUNT(*) FROM history_run_snapshots rs WHERE rs.run_id = history_runs.id)',
    `UPDATE history_runs SET recorded = ${isoTime('started')}`,
    `UPDATE history_runs SET recorded = ${now} WHERE recorded > ${now}`,
    'DROP INDEX history_runs_selection',
    'CREATE INDEX history_runs_recorded ON history_runs (recorded, id)',
    'CREATE INDEX history_runs_job ON history_runs (origin, command, selection, recorded, id)',
    'CREATE INDEX history_runs_baseline ON history_runs (origin, command, selection, recorded, id) WHERE complete = 1 AND reports > 0',
  ],
  // 3: a second reading of a report within the second of the first (issue 35) is a snapshot of its own: the unique key
  // takes `content`, a short hash of score, label and checks. The snapshots stored before keep '' there: a reading is
  // found by its key and compared as stored text, never by this hash, which only keeps one reading from being stored
  // twice (two writers at once on PostgreSQL).
  ({ keyReadingsByContent }) => keyReadingsByContent,
  // 4: a job's lock and journal in a shared history (issue 40): two runners of one job on one PostgreSQL history each
  // created every page, their journals and locks in their own machines' folders. SQLite's stay files beside it.
  ({ jobTables }) => jobTables,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

const RUN_COLUMNS = 'r.id, r.started, r.recorded, r.finished, r.command, r.selection, r.origin, r.exit_code, r.shard, r.ci, r.complete, r.reports';

/** What prune never touches: a run not finished that was added within the last day (it may be recording still). */
const STILL_RECORDING = '(r.finished IS NULL AND r.recorded >= ?)';

/** The statements both dialects share (placeholders written `?`). */
export const SQL = {
  schemaVersion: 'SELECT version FROM history_schema',
  createSchemaTable: 'CREATE TABLE history_schema (version INTEGER NOT NULL)',
  startSchema: 'INSERT INTO history_schema (version) VALUES (0)',
  setSchemaVersion: 'UPDATE history_schema SET version = ?',
  startRun: ({ now }: Dialect) =>
    `INSERT INTO history_runs (started, recorded, command, selection, origin, shard, ci, complete) VALUES (?, ${now}, ?, ?, ?, ?, ?, 0) RETURNING id`,
  importRun:
    'INSERT INTO history_runs (started, recorded, finished, command, selection, origin, exit_code, shard, ci, complete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
  /** A run already there: its start written in any of the forms given (with milliseconds or without), one instant. */
  sameRun: (forms: number) =>
    `SELECT id FROM history_runs WHERE started IN (${Array.from({ length: forms }, () => '?').join(', ')}) AND origin = ? AND command = ? AND selection = ?`,
  /** The run's count of the reports it references, raised by the references a page added. */
  countReports: 'UPDATE history_runs SET reports = reports + ? WHERE id = ?',
  finishRun: 'UPDATE history_runs SET finished = ?, exit_code = ?, complete = ? WHERE id = ?',
  run: `SELECT ${RUN_COLUMNS} FROM history_runs r WHERE r.id = ?`,
  /** Filters are appended by runsQuery. */
  runs: `SELECT ${RUN_COLUMNS} FROM history_runs r`,
  snapshotsOf: `SELECT ${SNAPSHOT_COLUMNS_OF_S} FROM history_snapshots s JOIN history_run_snapshots rs ON rs.snapshot_id = s.id
    WHERE rs.run_id = ? ORDER BY s.identity, s.report_id`,
  snapshotsOfUnsorted: `SELECT ${SNAPSHOT_COLUMNS_OF_S} FROM history_snapshots s JOIN history_run_snapshots rs ON rs.snapshot_id = s.id
    WHERE rs.run_id = ?`,
  /** A URL's readings on every service: (identity, since). */
  trendOfUrl: `SELECT r.id AS run, r.started, s.origin, s.generated_at, s.report_id, s.score, s.checks FROM history_snapshots s
    JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE s.identity = ? AND r.recorded >= ? ORDER BY r.recorded, r.id`,
  /** The same on one service: (identity, since, origin). */
  trendOfUrlOn: `SELECT r.id AS run, r.started, s.origin, s.generated_at, s.report_id, s.score, s.checks FROM history_snapshots s
    JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE s.identity = ? AND r.recorded >= ? AND s.origin = ? ORDER BY r.recorded, r.id`,
  /** A project's snapshots: (project, since), and with `origin` one service's alone. */
  snapshotsOfProject: (origin: boolean) => `SELECT r.id AS run, r.started, ${SNAPSHOT_COLUMNS_OF_S} FROM history_snapshots s
    JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE s.project = ? AND r.recorded >= ?${origin ? ' AND s.origin = ?' : ''} ORDER BY r.recorded, r.id, s.identity`,
  /** The readings stored under N (origin, report id, generated_at) keys: id and content, oldest first. */
  knownSnapshots: (count: number) =>
    `SELECT s.id, s.origin, s.report_id, s.generated_at, s.score, s.label, s.checks FROM (VALUES ${Array.from({ length: count }, () => '(?, ?, ?)').join(', ')}) k
     JOIN history_snapshots s ON s.origin = k.column1 AND s.report_id = k.column2 AND s.generated_at = k.column3 ORDER BY s.id`,
  /** The snapshots stored under N (origin, report id, generated_at) keys, whole, with their ids, oldest first: what an import is compared with. */
  storedSnapshots: (count: number) =>
    `SELECT s.id, ${SNAPSHOT_COLUMNS_OF_S} FROM (VALUES ${Array.from({ length: count }, () => '(?, ?, ?)').join(', ')}) k
     JOIN history_snapshots s ON s.origin = k.column1 AND s.report_id = k.column2 AND s.generated_at = k.column3 ORDER BY s.id`,
  /** The run's references to N snapshots it holds, by id (a reference it has already is kept). */
  referenceSnapshots: (count: number) =>
    `INSERT INTO history_run_snapshots (run_id, snapshot_id) SELECT ?, id FROM history_snapshots WHERE id IN (${Array.from({ length: count }, () => '?').join(', ')})
     ON CONFLICT DO NOTHING`,
  /**
   * The runs a prune removes: recorded before a time, or (with `keeping`) all but each job's newest N complete runs (a
   * job: the same service, command and selection; killed runs never push a complete one out). Parameters: the start
   * of the day that protects a run still recording, then `before` and N as asked.
   */
  pruneRuns: ({ before, keeping }: { before: boolean; keeping: boolean }) => {
    const gone = [
      ...(before ? ['r.recorded < ?'] : []),
      ...(keeping
        ? [
            `r.id NOT IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY origin, command, selection ORDER BY recorded DESC, id DESC) AS n
               FROM history_runs WHERE complete = 1) k WHERE k.n <= ?)`,
          ]
        : []),
    ];
    return `SELECT ${RUN_COLUMNS} FROM history_runs r WHERE NOT ${STILL_RECORDING} AND (${gone.join(' OR ')}) ORDER BY r.recorded DESC, r.id DESC`;
  },
  pruneRefsOf: (count: number) => `DELETE FROM history_run_snapshots WHERE run_id IN (${Array.from({ length: count }, () => '?').join(', ')})`,
  pruneRunsOf: (count: number) => `DELETE FROM history_runs WHERE id IN (${Array.from({ length: count }, () => '?').join(', ')})`,
  pruneSnapshots: 'DELETE FROM history_snapshots WHERE NOT EXISTS (SELECT 1 FROM history_run_snapshots rs WHERE rs.snapshot_id = history_snapshots.id)',
} as const;

/** The runs a query asks for, newest first as the store recorded them: the statement and its parameters. */
export function runsStatement(query: RunQuery): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (clause: string, value: SqlValue) => {
    where.push(clause);
    params.push(value);
  };
  if (query.command !== undefined) add('r.command = ?', query.command);
  if (query.selection !== undefined) add('r.selection = ?', query.selection);
  if (query.origin !== undefined) add('r.origin = ?', query.origin);
  if (query.since !== undefined) add('r.recorded >= ?', query.since);
  if (query.before !== undefined) {
    where.push('(r.recorded < ? OR (r.recorded = ? AND r.id < ?))');
    params.push(query.before.recorded, query.before.recorded, query.before.id);
  }
  // Written as history_runs_baseline's own condition, so that both stores find a job's baseline through that index.
  if (query.completeOnly) where.push('r.complete = 1');
  if (query.readReports) where.push('r.reports > 0');
  const limit = query.limit === undefined ? '' : ` LIMIT ${Math.trunc(query.limit)}`;
  return { sql: `${SQL.runs}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.recorded DESC, r.id DESC${limit}`, params };
}

export const SQLITE: Dialect = {
  name: 'sqlite',
  placeholders: (sql) => sql,
  types: { id: 'INTEGER PRIMARY KEY AUTOINCREMENT', real: 'REAL' },
  now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  isoTime: (column) => `COALESCE(strftime('%Y-%m-%dT%H:%M:%fZ', ${column}), ${column})`,
  begin: 'BEGIN IMMEDIATE',
  schemaTableExists: "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'history_schema'",
  anyTable: "SELECT COUNT(*) AS n FROM sqlite_master WHERE type IN ('table', 'view')",
  migrationLock: undefined,
  unlimitedStatements: undefined,
  keyReadingsByContent: [
    `CREATE TABLE history_snapshots_keyed (id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, identity TEXT NOT NULL, report_id TEXT NOT NULL,
      project TEXT, score REAL, label TEXT, generated_at TEXT NOT NULL, checks TEXT, content TEXT NOT NULL DEFAULT '', UNIQUE (${READING_KEY}))`,
    `INSERT INTO history_snapshots_keyed (id, ${SNAPSHOT_COLUMNS}) SELECT id, ${SNAPSHOT_COLUMNS} FROM history_snapshots`,
    `CREATE TABLE history_run_snapshots_keyed (run_id INTEGER NOT NULL REFERENCES history_runs (id),
      snapshot_id INTEGER NOT NULL REFERENCES history_snapshots_keyed (id), PRIMARY KEY (run_id, snapshot_id))`,
    'INSERT INTO history_run_snapshots_keyed (run_id, snapshot_id) SELECT run_id, snapshot_id FROM history_run_snapshots',
    // The references first: a table still referenced cannot be dropped while foreign keys are enforced (and a
    // transaction cannot turn them off). Renaming the new snapshots' table rewrites the references' REFERENCES.
    'DROP TABLE history_run_snapshots',
    'DROP TABLE history_snapshots',
    'ALTER TABLE history_snapshots_keyed RENAME TO history_snapshots',
    'ALTER TABLE history_run_snapshots_keyed RENAME TO history_run_snapshots',
    'CREATE INDEX history_snapshots_identity ON history_snapshots (identity)',
    'CREATE INDEX history_snapshots_project ON history_snapshots (project)',
    'CREATE INDEX history_run_snapshots_snapshot ON history_run_snapshots (snapshot_id)',
  ],
  rowsInOneStatement: 0,
  jobTables: [],
  async writeSnapshots(connection, runId, rows) {
    for (let start = 0; start < rows.length; start += SQLITE_ROWS_A_STATEMENT) {
      const chunk = rows.slice(start, start + SQLITE_ROWS_A_STATEMENT);
      // A conflict is the same content hash under the key: that row's id is returned (the no-op update), as PostgreSQL's.
      const { rows: added } = await connection.run(
        `INSERT INTO history_snapshots (${WRITTEN_COLUMNS}) VALUES ${chunk.map(() => WRITTEN_ROW).join(', ')}
           ON CONFLICT (${READING_KEY}) DO UPDATE SET identity = history_snapshots.identity RETURNING id`,
        chunk.flat(),
      );
      await referenceSnapshots(
        connection,
        runId,
        added.map((row) => Number(row.id)),
      );
    }
  },
};

/** The run's references to snapshots by id (one it has already is kept), counted on the run's row. */
export async function referenceSnapshots(connection: SqlConnection, runId: number, ids: readonly number[]): Promise<void> {
  let referenced = 0;
  for (let start = 0; start < ids.length; start += SQLITE_ROWS_A_STATEMENT) {
    const chunk = ids.slice(start, start + SQLITE_ROWS_A_STATEMENT);
    referenced += (await connection.run(SQL.referenceSnapshots(chunk.length), [runId, ...chunk])).changes;
  }
  if (referenced > 0) await connection.run(SQL.countReports, [referenced, runId]);
}

/** SQLite binds up to 32,766 parameters a statement: a page of snapshots is one or two statements. */
const SQLITE_ROWS_A_STATEMENT = 1_000;

/** PostgreSQL binds at most 65,535 parameters a statement: pages of snapshots are cut to this many rows. */
const PG_ROWS_A_STATEMENT = 1_000;

export const POSTGRES: Dialect = {
  name: 'postgres',
  placeholders: (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  },
  types: { id: 'SERIAL PRIMARY KEY', real: 'DOUBLE PRECISION' },
  now: `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  isoTime: (column) => `to_char(${column}::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  begin: 'BEGIN',
  schemaTableExists: "SELECT COUNT(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'history_schema'",
  anyTable: undefined,
  // Four CI shards meeting an empty database at once: one migrates, the others wait and find it done.
  migrationLock: 'SELECT pg_advisory_xact_lock(7263418)',
  unlimitedStatements: 'SET LOCAL statement_timeout = 0',
  keyReadingsByContent: [
    "ALTER TABLE history_snapshots ADD COLUMN content TEXT NOT NULL DEFAULT ''",
    // The name PostgreSQL gave migration 1's UNIQUE (table, columns, `key`).
    'ALTER TABLE history_snapshots DROP CONSTRAINT history_snapshots_origin_report_id_generated_at_key',
    `ALTER TABLE history_snapshots ADD CONSTRAINT history_snapshots_reading UNIQUE (${READING_KEY})`,
  ],
  rowsInOneStatement: PG_ROWS_A_STATEMENT,
  jobTables: [
    // Who holds a job's lock (the lock itself is an advisory lock of the holder's session: JOB_SQL.tryLock).
    `CREATE TABLE history_job_holders (job_key TEXT PRIMARY KEY, job TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
      session INTEGER NOT NULL, since TEXT NOT NULL)`,
    // A job's journal, a line a row, in the order written (journal.ts reads them as a file's lines).
    'CREATE TABLE history_journal (id BIGSERIAL PRIMARY KEY, job_key TEXT NOT NULL, line TEXT NOT NULL)',
    'CREATE INDEX history_journal_job ON history_journal (job_key, id)',
  ],
  async writeSnapshots(connection, runId, rows) {
    for (let start = 0; start < rows.length; start += PG_ROWS_A_STATEMENT) {
      const chunk = rows.slice(start, start + PG_ROWS_A_STATEMENT);
      // Typed in the first row: a VALUES list in a WITH takes its types from there (text otherwise).
      const values = chunk.map((_, index) => (index === 0 ? '(?, ?, ?, ?, ?::double precision, ?, ?, ?, ?)' : WRITTEN_ROW)).join(', ');
      const sameKey = 'h.origin = p.origin AND h.report_id = p.report_id AND h.generated_at = p.generated_at';
      // A reading held already (its key and stored text; a snapshot of before migration 3 has no content hash) is
      // referenced as it is; any other is inserted. The references added are counted on the run's row.
      await connection.run(
        `WITH page (${WRITTEN_COLUMNS}) AS (VALUES ${values}),
         held AS (SELECT DISTINCT ON (p.origin, p.report_id, p.generated_at) h.id, p.origin, p.report_id, p.generated_at FROM page p
           JOIN history_snapshots h ON ${sameKey} AND h.score IS NOT DISTINCT FROM p.score AND h.label IS NOT DISTINCT FROM p.label
             AND h.checks IS NOT DISTINCT FROM p.checks
           ORDER BY p.origin, p.report_id, p.generated_at, h.id),
         added AS (INSERT INTO history_snapshots (${WRITTEN_COLUMNS}) SELECT ${WRITTEN_COLUMNS} FROM page p WHERE NOT EXISTS (SELECT 1 FROM held h WHERE ${sameKey})
           ON CONFLICT (${READING_KEY}) DO UPDATE SET identity = history_snapshots.identity RETURNING id),
         refs AS (INSERT INTO history_run_snapshots (run_id, snapshot_id) SELECT ?::integer, id FROM held UNION ALL SELECT ?::integer, id FROM added ON CONFLICT DO NOTHING RETURNING 1)
         UPDATE history_runs SET reports = reports + (SELECT COUNT(*) FROM refs) WHERE id = ?`,
        [...chunk.flat(), runId, runId, runId],
      );
    }
  },
};

/**
 * A job's lock and journal in a PostgreSQL history (job-lock.ts): an advisory lock of the session on a number made
 * from the job's key and the schema (two histories in one database never share a lock), the holder named beside it.
 */
const JOB_LOCK_NUMBER = "hashtextextended('rsapi job ' || COALESCE(current_schema(), '') || ' ' || ?, 0)";

export const JOB_SQL = {
  /** Takes the job's lock unless another session holds it, at once (no wait): (key) -> held. */
  tryLock: `SELECT pg_try_advisory_lock(${JOB_LOCK_NUMBER}) AS held`,
  unlock: `SELECT pg_advisory_unlock(${JOB_LOCK_NUMBER})`,
  /** This session holds the job's lock now: (key, job, host, pid). */
  nameHolder: `INSERT INTO history_job_holders (job_key, job, host, pid, session, since) VALUES (?, ?, ?, ?, pg_backend_pid(), ${POSTGRES.now})
    ON CONFLICT (job_key) DO UPDATE SET job = EXCLUDED.job, host = EXCLUDED.host, pid = EXCLUDED.pid, session = EXCLUDED.session, since = EXCLUDED.since`,
  /**
   * Who holds the job's lock: its row, if the session it names holds the lock (a row of a killed run, or one not yet
   * rewritten by the session that just took the lock, names no one): (key, key).
   */
  holder: `SELECT h.host, h.pid, h.since FROM history_job_holders h WHERE h.job_key = ? AND EXISTS (SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.pid = h.session AND l.objsubid = 1
      AND ((l.classid::bigint << 32) | l.objid::bigint) = ${JOB_LOCK_NUMBER})`,
  /** The job's released lock names no one: (key, pid). */
  forgetHolder: 'DELETE FROM history_job_holders WHERE job_key = ? AND session = pg_backend_pid() AND pid = ?',
  journalLines: 'SELECT line FROM history_journal WHERE job_key = ? ORDER BY id',
  appendLine: 'INSERT INTO history_journal (job_key, line) VALUES (?, ?)',
  clearJournal: 'DELETE FROM history_journal WHERE job_key = ?',
} as const;
