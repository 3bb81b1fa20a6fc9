// All the history's SQL, in one place: the numbered schema migrations, the queries both stores share, and the few
// places where SQLite and PostgreSQL differ, each named in the Dialect (placeholders, types, transactions, the upsert
// of a page of snapshots, how to ask whether a table exists, how a unique key is changed).

import { DELTA_PART, MOST_PLACES, STATE } from './snapshot.js';
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
  /** SQLite keeps the references in their primary key alone (WITHOUT ROWID); PostgreSQL's tables are heaps anyway. */
  readonly withoutRowid: string;
  /**
   * Serialises writers of one history for a page's transaction (PostgreSQL: an advisory lock; SQLite's BEGIN IMMEDIATE
   * does it): a page's readings are compared with the page's stored ones before they are written.
   */
  readonly writeLock: string | undefined;
  /** Migration 5 keeps the snapshots' ids: PostgreSQL's sequence is moved past them (SQLite's AUTOINCREMENT follows). */
  readonly afterKeptIds: readonly string[];
  /** An ORDER BY of text by its code points, as JavaScript's `<` compares (PostgreSQL sorts by its locale otherwise). */
  readonly binaryOrder: string;
  /**
   * Whether a page of readings is written in one statement (writePageSql: PostgreSQL, where each statement is a round
   * trip) rather than looked up and written in several in a transaction (SQLite, which has no data-modifying WITH).
   */
  readonly pageInOneStatement: boolean;
  /**
   * Migration 4: where a job's lock and journal live. PostgreSQL, shared by runners that keep nothing, holds them in
   * tables (JOB_SQL); SQLite has none: its journal and lock are files beside it, carried with it.
   */
  readonly jobTables: readonly string[];
  /**
   * Migration 6: a pipeline's one run, which its shards record into (`--record --pipeline KEY --shard I/N`) and
   * `history merge --pipeline KEY` closes (PIPELINE_SQL). PostgreSQL alone: SQLite's shards write run parts.
   */
  readonly pipelineTables: readonly string[];
}

/** Migration 1's snapshot columns (migrations 3 and 5 copy them). */
const SNAPSHOT_COLUMNS = 'origin, identity, report_id, project, score, label, generated_at, checks';
/**
 * A report's reading as the service dated it. phpRank's generated_at has whole seconds, so two readings of one report
 * within a second (a refresh right after a create) share it: a stored reading is found by this key and its content.
 */
const SNAPSHOT_KEY = 'origin, report_id, generated_at';
const READING_KEY = `${SNAPSHOT_KEY}, content`;

/**
 * Where migration 5 converts the snapshots of before into their compact form (sql-store.ts does it, in batches): a
 * step of JavaScript among its statements.
 */
export const COMPACT_SNAPSHOTS = '-- compact the snapshots';

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
  // 6: a pipeline's shards recording into one run of a shared history (issue 40): the run of a pipeline (its key, job,
  // service, input and number of shares: the first shard to start makes it), each share's state, and the URLs each
  // share did (a part's lines, its reports whole), which the merge judges and then removes.
  ({ pipelineTables }) => pipelineTables,
  // 5: a compact history (issue 45). A report's place (service, id, URL, project) is a page, stored once; a reading's
  // content (score, label, checks) is stored once for every snapshot that read it, its checks as states against the
  // page's check set (the ids, stored once) or as what differs from the page's last full reading; a snapshot is its
  // page, its generated_at and its content. The snapshots of before are converted in batches (COMPACT_SNAPSHOTS) and
  // keep their ids, so the runs' references are copied as they are.
  ({ types, withoutRowid, afterKeptIds }) => [
    `CREATE TABLE history_pages (id ${types.id}, origin TEXT NOT NULL, report_id TEXT NOT NULL, identity TEXT NOT NULL, project TEXT)`,
    `CREATE TABLE history_check_sets (id ${types.id}, ids TEXT NOT NULL)`,
    `CREATE TABLE history_contents (id ${types.id}, page_id INTEGER NOT NULL, base INTEGER, check_set INTEGER, score ${types.real}, label TEXT, checks TEXT)`,
    `CREATE TABLE history_readings (id ${types.id}, page_id INTEGER NOT NULL, generated_at TEXT NOT NULL, content_id INTEGER NOT NULL)`,
    'CREATE INDEX history_pages_report ON history_pages (origin, report_id)',
    'CREATE INDEX history_contents_page ON history_contents (page_id)',
    COMPACT_SNAPSHOTS,
    'CREATE INDEX history_pages_identity ON history_pages (identity)',
    'CREATE INDEX history_pages_project ON history_pages (project)',
    `CREATE TABLE history_run_readings (run_id INTEGER NOT NULL REFERENCES history_runs (id), snapshot_id INTEGER NOT NULL REFERENCES history_readings (id),
      PRIMARY KEY (run_id, snapshot_id))${withoutRowid}`,
    'INSERT INTO history_run_readings (run_id, snapshot_id) SELECT run_id, snapshot_id FROM history_run_snapshots',
    'DROP TABLE history_run_snapshots',
    'DROP TABLE history_snapshots',
    'ALTER TABLE history_readings RENAME TO history_snapshots',
    'ALTER TABLE history_run_readings RENAME TO history_run_snapshots',
    'CREATE INDEX history_snapshots_reading ON history_snapshots (page_id, generated_at)',
    'CREATE INDEX history_run_snapshots_snapshot ON history_run_snapshots (snapshot_id)',
    ...afterKeptIds,
  ],
];

/** Migration 3's snapshots, read by migration 5 a batch at a time in the order of their ids: (after id, how many). */
export const OLD_SNAPSHOTS = `SELECT id, ${SNAPSHOT_COLUMNS} FROM history_snapshots WHERE id > ? ORDER BY id LIMIT ?`;

/** A reading's content beside a snapshot `s`: its score, label and checks, and the full reading a delta is against. */
const CONTENT_COLUMNS = 's.content_id, c.score, c.label, c.checks, c.check_set, c.base, b.checks AS base_checks, b.check_set AS base_set';
const CONTENT_JOIN = 'JOIN history_contents c ON c.id = s.content_id LEFT JOIN history_contents b ON b.id = c.base';
/** A snapshot whole: its page's place, its generated_at (as stored) and its content. */
const SNAPSHOT_OF_S = `p.origin, p.identity, p.report_id, p.project, s.generated_at, ${CONTENT_COLUMNS}`;
const SNAPSHOT_JOIN = `JOIN history_pages p ON p.id = s.page_id ${CONTENT_JOIN}`;
const placeholders = (count: number, row: string) => Array.from({ length: count }, () => row).join(', ');

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
  snapshotsOf: `SELECT ${SNAPSHOT_OF_S} FROM history_run_snapshots rs JOIN history_snapshots s ON s.id = rs.snapshot_id ${SNAPSHOT_JOIN}
    WHERE rs.run_id = ? ORDER BY p.identity, p.report_id, s.id`,
  /** snapshotsOf's rows, each its place, time and score alone (no content's checks read). */
  scoresOf: `SELECT p.identity, p.report_id, p.project, s.generated_at, c.score FROM history_run_snapshots rs
    JOIN history_snapshots s ON s.id = rs.snapshot_id JOIN history_pages p ON p.id = s.page_id JOIN history_contents c ON c.id = s.content_id
    WHERE rs.run_id = ? ORDER BY p.identity, p.report_id, s.id`,
  snapshotsOfUnsorted: `SELECT ${SNAPSHOT_OF_S} FROM history_run_snapshots rs JOIN history_snapshots s ON s.id = rs.snapshot_id ${SNAPSHOT_JOIN}
    WHERE rs.run_id = ?`,
  /**
   * A run's snapshots by identity in code-point order, a page at a time after a place (identity, report id, snapshot
   * id): (run, identity, identity, report id, identity, report id, id, how many).
   */
  snapshotsInOrder: ({ binaryOrder }: Dialect) => {
    const identity = `p.identity${binaryOrder}`;
    const reportId = `p.report_id${binaryOrder}`;
    return `SELECT s.id AS snapshot_id, ${SNAPSHOT_OF_S} FROM history_run_snapshots rs JOIN history_snapshots s ON s.id = rs.snapshot_id ${SNAPSHOT_JOIN}
    WHERE rs.run_id = ? AND (${identity} > ? OR (${identity} = ? AND (${reportId} > ? OR (${reportId} = ? AND s.id > ?))))
    ORDER BY ${identity}, ${reportId}, s.id LIMIT ?`;
  },
  /** A URL's readings on every service: (identity, since). */
  trendOfUrl: `SELECT r.id AS run, r.started, ${SNAPSHOT_OF_S} FROM history_pages p JOIN history_snapshots s ON s.page_id = p.id ${CONTENT_JOIN}
    JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE p.identity = ? AND r.recorded >= ? ORDER BY r.recorded, r.id`,
  /** The same on one service: (identity, since, origin). */
  trendOfUrlOn: `SELECT r.id AS run, r.started, ${SNAPSHOT_OF_S} FROM history_pages p JOIN history_snapshots s ON s.page_id = p.id ${CONTENT_JOIN}
    JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE p.identity = ? AND r.recorded >= ? AND p.origin = ? ORDER BY r.recorded, r.id`,
  /** A project's snapshots: (project, since), and with `origin` one service's alone. */
  snapshotsOfProject: (origin: boolean) => `SELECT r.id AS run, r.started, ${SNAPSHOT_OF_S} FROM history_pages p JOIN history_snapshots s ON s.page_id = p.id
    ${CONTENT_JOIN} JOIN history_run_snapshots rs ON rs.snapshot_id = s.id JOIN history_runs r ON r.id = rs.run_id
    WHERE p.project = ? AND r.recorded >= ?${origin ? ' AND p.origin = ?' : ''} ORDER BY r.recorded, r.id, p.identity`,
  /** The snapshots stored under N (origin, report id, generated_at as stored) keys, whole, with their ids, oldest first. */
  storedSnapshots: (count: number) =>
    `SELECT s.id AS snapshot_id, s.page_id, ${SNAPSHOT_OF_S} FROM (VALUES ${placeholders(count, '(?, ?, ?)')}) k
     JOIN history_pages p ON p.origin = k.column1 AND p.report_id = k.column2 JOIN history_snapshots s ON s.page_id = p.id AND s.generated_at = k.column3
     ${CONTENT_JOIN} ORDER BY s.id`,
  /**
   * The content rows held under N (origin, report id, generated_at as stored, the key's place) keys: each with its
   * key's place (`at`), not the key (a re-read compares 10,000 of them), and its snapshot's id; oldest first.
   */
  heldReadings: (count: number) =>
    `SELECT k.column4 AS at, s.id AS snapshot_id, ${CONTENT_COLUMNS} FROM (VALUES ${placeholders(count, '(?, ?, ?, ?)')}) k
     JOIN history_pages p ON p.origin = k.column1 AND p.report_id = k.column2 JOIN history_snapshots s ON s.page_id = p.id AND s.generated_at = k.column3
     ${CONTENT_JOIN} ORDER BY s.id`,
  /** The pages of N (origin, report id) keys: a report's place, one a URL and project it was read under. */
  pagesOf: (count: number) =>
    `SELECT p.id, p.origin, p.report_id, p.identity, p.project FROM (VALUES ${placeholders(count, '(?, ?)')}) k
     JOIN history_pages p ON p.origin = k.column1 AND p.report_id = k.column2 ORDER BY p.id`,
  /** The newest content of each of N pages, with the full reading a delta is against. */
  newestContents: (count: number) =>
    `SELECT c.page_id, c.id AS content_id, c.score, c.label, c.checks, c.check_set, c.base, b.checks AS base_checks, b.check_set AS base_set
     FROM history_contents c LEFT JOIN history_contents b ON b.id = c.base
     WHERE c.id IN (SELECT MAX(id) FROM history_contents WHERE page_id IN (${placeholders(count, '?')}) GROUP BY page_id)`,
  addPages: (count: number) => `INSERT INTO history_pages (origin, report_id, identity, project) VALUES ${placeholders(count, '(?, ?, ?, ?)')} RETURNING id`,
  addContents: (count: number) =>
    `INSERT INTO history_contents (page_id, base, check_set, score, label, checks) VALUES ${placeholders(count, '(?, ?, ?, ?, ?, ?)')} RETURNING id`,
  addSnapshots: (count: number) => `INSERT INTO history_snapshots (page_id, generated_at, content_id) VALUES ${placeholders(count, '(?, ?, ?)')} RETURNING id`,
  /** Migration 5: the snapshots of before, keeping their ids. */
  keepSnapshots: (count: number) => `INSERT INTO history_readings (id, page_id, generated_at, content_id) VALUES ${placeholders(count, '(?, ?, ?, ?)')}`,
  checkSets: 'SELECT id, ids FROM history_check_sets',
  addCheckSet: 'INSERT INTO history_check_sets (ids) VALUES (?) RETURNING id',
  /** The newest readings' contents (heldNames' checks). */
  newestChecks: `SELECT c.checks, c.check_set, c.base, b.checks AS base_checks, b.check_set AS base_set FROM history_contents c
    LEFT JOIN history_contents b ON b.id = c.base WHERE c.checks IS NOT NULL ORDER BY c.id DESC LIMIT 20`,
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
  /** The contents no snapshot reads, but for a full reading a kept delta is against; then the pages with none left. */
  pruneContents: `DELETE FROM history_contents WHERE id NOT IN (SELECT content_id FROM history_snapshots)
    AND id NOT IN (SELECT base FROM history_contents WHERE base IS NOT NULL)`,
  prunePages: 'DELETE FROM history_pages WHERE id NOT IN (SELECT page_id FROM history_contents)',
} as const;

/**
 * deltaOf (snapshot.ts) in SQL: what differs in `states` from the full reading `base`, each differing check's place (2
 * base-36 digits) and state; NULL when either is NULL, their lengths differ, or past a third of the reading.
 */
function deltaSql(base: string, states: string): string {
  const digits = "'0123456789abcdefghijklmnopqrstuvwxyz'";
  const state = (of: string) => `substr(${of}, i * ${STATE} + 1, ${STATE})`;
  return `(SELECT CASE WHEN ${base} IS NULL OR ${states} IS NULL OR length(${base}) <> length(${states}) OR length(${states}) > ${STATE * MOST_PLACES}
      OR COUNT(*) > length(${states}) / ${3 * DELTA_PART} THEN NULL
    ELSE COALESCE(string_agg(substr(${digits}, i / 36 + 1, 1) || substr(${digits}, i % 36 + 1, 1) || ${state(states)}, '' ORDER BY i), '') END
    FROM generate_series(0, length(${states}) / ${STATE} - 1) i WHERE ${state(states)} <> ${state(base)})`;
}

/** Whether a content `c` (its full reading's check set `cs`) holds the checks of a new reading `w` (text, ids, states). */
function sameChecksSql(c: string, cs: string, delta: string): string {
  return `((w.text IS NULL AND ${c}.checks IS NULL)
      OR (${c}.base IS NULL AND ${c}.check_set IS NULL AND ${c}.checks = w.text)
      OR (${c}.base IS NULL AND ${c}.check_set IS NOT NULL AND ${cs}.ids = w.ids AND ${c}.checks = w.states)
      OR (${c}.base IS NOT NULL AND ${cs}.ids = w.ids AND ${c}.checks = ${delta}))`;
}

/** A new reading as PostgreSQL's page write takes it: PAGE_WRITE_COLUMNS in order. */
export type PageWriteRow = readonly [
  at: number,
  origin: string,
  reportId: string,
  identity: string,
  project: string | null,
  score: number | null,
  label: string | null,
  generatedAt: string,
  /** The checks text as encodeChecks writes it. */
  text: string | null,
  /** splitChecks' check set (the ids) and states, when it splits. */
  ids: string | null,
  states: string | null,
];

const PAGE_WRITE_COLUMNS = 'at, origin, report_id, identity, project, score, label, gen, text, ids, states';
/** Typed in the first row: a VALUES list in a WITH takes its types from there (text otherwise). */
const PAGE_WRITE_FIRST_ROW = '(?::integer, ?::text, ?::text, ?::text, ?::text, ?::double precision, ?::text, ?::text, ?::text, ?::text, ?::text)';
const PAGE_WRITE_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/**
 * PostgreSQL's write of a page of readings in one statement (one round trip), as Readings.write and addSnapshots do it
 * on SQLite in several: N new readings (PageWriteRow, one a report: origin and report id never twice) and then the run
 * (run, run, run). A reading held under its key with the same content is referenced; any other is written: its page
 * found or added, its content the page's newest when the same, else a delta against the page's last full reading,
 * else full (its check set found or added), and a snapshot of it referenced. The references added are counted on the
 * run's row. Rows are added in the readings' order, so their ids are those SQLite's write path gives.
 */
export function writePageSql(count: number): string {
  const rows = Array.from({ length: count }, (_, index) => (index === 0 ? PAGE_WRITE_FIRST_ROW : PAGE_WRITE_ROW)).join(', ');
  return `WITH new (${PAGE_WRITE_COLUMNS}) AS (VALUES ${rows}),
  held AS (SELECT DISTINCT ON (w.at) w.at, s.id FROM new w
    JOIN history_pages p ON p.origin = w.origin AND p.report_id = w.report_id
    JOIN history_snapshots s ON s.page_id = p.id AND s.generated_at = w.gen
    JOIN history_contents c ON c.id = s.content_id LEFT JOIN history_contents b ON b.id = c.base
    LEFT JOIN history_check_sets cs ON cs.id = COALESCE(b.check_set, c.check_set)
    WHERE c.score IS NOT DISTINCT FROM w.score AND c.label IS NOT DISTINCT FROM w.label AND ${sameChecksSql('c', 'cs', deltaSql('b.checks', 'w.states'))}
    ORDER BY w.at, s.id),
  known AS (SELECT w.*, p.id AS page_id, n.id AS newest_id, f.id AS full_id, d.delta,
      CASE WHEN n.id IS NOT NULL AND n.score IS NOT DISTINCT FROM w.score AND n.label IS NOT DISTINCT FROM w.label AND ${sameChecksSql('n', 'fs', 'd.delta')} THEN 'same'
        WHEN w.states IS NULL THEN 'raw' WHEN fs.ids = w.ids AND d.delta IS NOT NULL THEN 'delta' ELSE 'full' END AS kind
    FROM new w
    LEFT JOIN LATERAL (SELECT id FROM history_pages p WHERE p.origin = w.origin AND p.report_id = w.report_id AND p.identity = w.identity
      AND p.project IS NOT DISTINCT FROM w.project ORDER BY id LIMIT 1) p ON true
    LEFT JOIN LATERAL (SELECT * FROM history_contents n WHERE n.page_id = p.id ORDER BY n.id DESC LIMIT 1) n ON true
    LEFT JOIN history_contents f ON f.id = COALESCE(n.base, CASE WHEN n.check_set IS NOT NULL THEN n.id END)
    LEFT JOIN history_check_sets fs ON fs.id = f.check_set
    LEFT JOIN LATERAL (SELECT ${deltaSql('f.checks', 'w.states')} AS delta) d ON true
    WHERE NOT EXISTS (SELECT 1 FROM held h WHERE h.at = w.at)),
  added_pages AS (INSERT INTO history_pages (origin, report_id, identity, project)
    SELECT origin, report_id, identity, project FROM known WHERE page_id IS NULL ORDER BY at RETURNING id, origin, report_id, identity, project),
  placed AS (SELECT k.*, COALESCE(k.page_id, a.id) AS page FROM known k LEFT JOIN added_pages a ON k.page_id IS NULL AND a.origin = k.origin
    AND a.report_id = k.report_id AND a.identity = k.identity AND a.project IS NOT DISTINCT FROM k.project),
  added_sets AS (INSERT INTO history_check_sets (ids) SELECT ids FROM known k WHERE kind = 'full'
    AND NOT EXISTS (SELECT 1 FROM history_check_sets s WHERE s.ids = k.ids) GROUP BY ids ORDER BY MIN(at) RETURNING id, ids),
  sets AS (SELECT MIN(id) AS id, ids FROM (SELECT id, ids FROM history_check_sets WHERE ids IN (SELECT ids FROM known WHERE kind = 'full')
    UNION ALL SELECT id, ids FROM added_sets) s GROUP BY ids),
  added_contents AS (INSERT INTO history_contents (page_id, base, check_set, score, label, checks)
    SELECT p.page, CASE WHEN p.kind = 'delta' THEN p.full_id END, s.id, p.score, p.label,
      CASE p.kind WHEN 'raw' THEN p.text WHEN 'delta' THEN p.delta ELSE p.states END
    FROM placed p LEFT JOIN sets s ON p.kind = 'full' AND s.ids = p.ids WHERE p.kind <> 'same' ORDER BY p.at RETURNING id, page_id),
  added AS (INSERT INTO history_snapshots (page_id, generated_at, content_id)
    SELECT p.page, p.gen, COALESCE(c.id, p.newest_id) FROM placed p LEFT JOIN added_contents c ON c.page_id = p.page ORDER BY p.at RETURNING id),
  refs AS (INSERT INTO history_run_snapshots (run_id, snapshot_id) SELECT ?::integer, id FROM held UNION ALL SELECT ?::integer, id FROM added
    ON CONFLICT DO NOTHING RETURNING 1)
  UPDATE history_runs SET reports = reports + (SELECT COUNT(*) FROM refs) WHERE id = ?`;
}

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
  withoutRowid: ' WITHOUT ROWID',
  writeLock: undefined,
  afterKeptIds: [],
  binaryOrder: '',
  pageInOneStatement: false,
  jobTables: [],
  pipelineTables: [],
};

/** The run's references to snapshots by id (one it has already is kept), counted on the run's row. */
export async function referenceSnapshots(connection: SqlConnection, runId: number, ids: readonly number[]): Promise<void> {
  let referenced = 0;
  for (let start = 0; start < ids.length; start += ROWS_A_STATEMENT) {
    const chunk = ids.slice(start, start + ROWS_A_STATEMENT);
    referenced += (await connection.run(SQL.referenceSnapshots(chunk.length), [runId, ...chunk])).changes;
  }
  if (referenced > 0) await connection.run(SQL.countReports, [referenced, runId]);
}

/** SQLite binds up to 32,766 parameters a statement, PostgreSQL 65,535: rows are written this many a statement. */
export const ROWS_A_STATEMENT = 1_000;

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
  withoutRowid: '',
  // Another key than migrations' lock: a writer never waits for a migration it is part of.
  writeLock: 'SELECT pg_advisory_xact_lock(7263419)',
  afterKeptIds: ["SELECT setval(pg_get_serial_sequence('history_snapshots', 'id'), COALESCE((SELECT MAX(id) FROM history_snapshots), 0) + 1, false)"],
  binaryOrder: ' COLLATE "C"',
  pageInOneStatement: true,
  jobTables: [
    // Who holds a job's lock (the lock itself is an advisory lock of the holder's session: JOB_SQL.tryLock).
    `CREATE TABLE history_job_holders (job_key TEXT PRIMARY KEY, job TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
      session INTEGER NOT NULL, since TEXT NOT NULL)`,
    // A job's journal, a line a row, in the order written (journal.ts reads them as a file's lines).
    'CREATE TABLE history_journal (id BIGSERIAL PRIMARY KEY, job_key TEXT NOT NULL, line TEXT NOT NULL)',
    'CREATE INDEX history_journal_job ON history_journal (job_key, id)',
  ],
  pipelineTables: [
    `CREATE TABLE history_pipelines (id SERIAL PRIMARY KEY, pipeline TEXT NOT NULL, command TEXT NOT NULL, selection TEXT NOT NULL,
      origin TEXT NOT NULL, input TEXT NOT NULL, urls INTEGER NOT NULL, shares INTEGER NOT NULL, service TEXT, run_id INTEGER NOT NULL,
      UNIQUE (pipeline, command, selection, origin, input, shares))`,
    `CREATE TABLE history_pipeline_shares (pipeline_id INTEGER NOT NULL, share INTEGER NOT NULL, state TEXT NOT NULL, code INTEGER,
      started TEXT NOT NULL, written TEXT, PRIMARY KEY (pipeline_id, share))`,
    'CREATE TABLE history_pipeline_entries (pipeline_id INTEGER NOT NULL, share INTEGER NOT NULL, at INTEGER NOT NULL, entry TEXT NOT NULL)',
    'CREATE INDEX history_pipeline_entries_share ON history_pipeline_entries (pipeline_id, share, at)',
  ],
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

/**
 * A pipeline's one run in a PostgreSQL history (migration 6): made by the first of its shards to start, under an
 * advisory lock of the pipeline's key (two shards starting at once make one run, and the unique key holds it so).
 */
export const PIPELINE_SQL = {
  /** Serialises the shards of one pipeline for the moment they join its run: (key). */
  lock: "SELECT pg_advisory_xact_lock(hashtextextended('rsapi pipeline ' || COALESCE(current_schema(), '') || ' ' || ?, 0))",
  /** The pipeline's run of this job, service, input and number of shares: (pipeline, command, selection, origin, input, shares). */
  find: 'SELECT id, run_id FROM history_pipelines WHERE pipeline = ? AND command = ? AND selection = ? AND origin = ? AND input = ? AND shares = ?',
  /** (pipeline, command, selection, origin, input, urls, shares, service, run). */
  add: `INSERT INTO history_pipelines (pipeline, command, selection, origin, input, urls, shares, service, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (pipeline, command, selection, origin, input, shares) DO NOTHING RETURNING id`,
  /** A share starts (again: what an earlier attempt of it did is dropped): (pipeline id, share, started). */
  startShare: `INSERT INTO history_pipeline_shares (pipeline_id, share, state, started) VALUES (?, ?, 'running', ?)
    ON CONFLICT (pipeline_id, share) DO UPDATE SET state = 'running', code = NULL, started = EXCLUDED.started, written = NULL`,
  dropEntries: 'DELETE FROM history_pipeline_entries WHERE pipeline_id = ? AND share = ?',
  addEntries: (count: number) => `INSERT INTO history_pipeline_entries (pipeline_id, share, at, entry) VALUES ${placeholders(count, '(?, ?, ?, ?)')}`,
  /** A share's end: (state, code, written, pipeline id, share). */
  endShare: 'UPDATE history_pipeline_shares SET state = ?, code = ?, written = ? WHERE pipeline_id = ? AND share = ?',
  /** The run shows its shares done so far (`merged 2/3`): (pipeline id, pipeline id). */
  countShares: `UPDATE history_runs SET shard = 'merged ' || (SELECT COUNT(*) FROM history_pipeline_shares WHERE pipeline_id = ? AND state = 'done')
    || '/' || p.shares FROM history_pipelines p WHERE p.id = ? AND history_runs.id = p.run_id`,
  /** Every run of a pipeline key (one, unless its shards disagree on the job, service, input or shares): (pipeline). */
  ofKey: `SELECT p.id, p.pipeline, p.command, p.selection, p.origin, p.input, p.urls, p.shares, p.service, p.run_id, r.finished
    FROM history_pipelines p JOIN history_runs r ON r.id = p.run_id WHERE p.pipeline = ? ORDER BY p.id`,
  sharesOf: 'SELECT share, state, code, started, written FROM history_pipeline_shares WHERE pipeline_id = ? ORDER BY share',
  entriesOf: 'SELECT entry FROM history_pipeline_entries WHERE pipeline_id = ? AND share = ? ORDER BY at',
  /** The merge takes the run over: its references made again from the shares it keeps. (shard, started, run). */
  resetRun: 'UPDATE history_runs SET reports = 0, shard = ?, started = ? WHERE id = ?',
  dropReferences: 'DELETE FROM history_run_snapshots WHERE run_id = ?',
  /** Once merged, the shares' URLs (their reports whole) are no longer kept: (pipeline id). */
  dropAllEntries: 'DELETE FROM history_pipeline_entries WHERE pipeline_id = ?',
} as const;
