// The one history store: runs, snapshots and references kept through SQL, for SQLite and PostgreSQL alike (sql.ts
// holds the statements and names where the dialects differ; a driver gives the connection).
import { HistoryError, newerSchemaError } from './errors.js';
import { decodeChecks, encodeChecks, failedCount, isNewerReading, readingHash, withChecks } from './snapshot.js';
import { MIGRATIONS, referenceSnapshots, runsStatement, SCHEMA_VERSION, SQL, type SnapshotRow, type SqlConnection, type SqlRow, type SqlValue } from './sql.js';
import type {
  CiContext,
  ExportedRun,
  HeldNames,
  HistoryStore,
  ImportDisagreement,
  ImportResult,
  NewRun,
  PruneOptions,
  PruneResult,
  RunInfo,
  RunQuery,
  Snapshot,
  TrendPoint,
} from './types.js';

/** A run more than this far off the store's clock when added is said to be (its machine's clock is wrong). */
const CLOCK_SKEW_SAID_MS = 5 * 60_000;
/** A run not finished is left alone by prune this long after it was added: it may be recording still. */
const STILL_RECORDING_MS = 24 * 60 * 60_000;
/** Thrown inside a dry run's transaction to roll it back. */
const DRY_RUN = Symbol('dry run');

export class SqlHistoryStore implements HistoryStore {
  readonly kind: 'sqlite' | 'postgres';

  private constructor(
    private readonly db: SqlConnection,
    readonly where: string,
  ) {
    this.kind = db.dialect.name;
  }

  /**
   * The store on an open connection, its schema brought up to date in one transaction (or refused: newer, not ours).
   * `readOnly`: only checked (a newer schema refused), never migrated.
   */
  static async open(db: SqlConnection, where: string, options: { readOnly?: boolean } = {}): Promise<SqlHistoryStore> {
    try {
      if (options.readOnly) {
        const version = await schemaVersion(db, where);
        if (version > SCHEMA_VERSION) throw newerSchema(where, version);
      } else await migrateHistory(db, where);
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
    return new SqlHistoryStore(db, where);
  }

  /** Whether the database is not yet a history of this schema (empty, older), which a reader cannot read unmigrated. */
  static async isOlderSchema(db: SqlConnection): Promise<boolean> {
    return !(await hasSchemaTable(db)) || Number((await db.run(SQL.schemaVersion)).rows[0]?.version ?? 0) < SCHEMA_VERSION;
  }

  async startRun(run: NewRun): Promise<number> {
    const { rows } = await this.db.run(SQL.startRun(this.db.dialect), [run.started, run.command, run.selection, run.origin, run.shard ?? null, ciText(run.ci)]);
    return Number(rows[0]?.id);
  }

  /**
   * Adds the snapshots a run read, in one transaction. SQLite first finds the readings it holds under the same key
   * (origin, report id, generated_at) and compares their stored text (score, label, checks) with the new reading's: a
   * re-read references the one that is the same by id, and only a reading it does not hold is written (a snapshot's
   * place, its URL's identity and project, is worked out only then). Asked inside the transaction, the answer still
   * holds when the references are written (a prune cannot come in between). PostgreSQL: asking would cost a round
   * trip; its one statement a page does the same comparison itself.
   */
  async addSnapshots(runId: number, snapshots: readonly Snapshot[]): Promise<void> {
    if (snapshots.length === 0) return;
    if (this.db.dialect.name !== 'sqlite') {
      const rows = dedupe(snapshots).map(snapshotRow);
      const write = () => this.db.dialect.writeSnapshots(this.db, runId, rows);
      // One statement is atomic by itself: PostgreSQL writes a page in one round trip, no BEGIN and COMMIT around it.
      await (rows.length <= this.db.dialect.rowsInOneStatement ? write() : this.db.transaction(write));
      return;
    }
    await this.db.transaction(async () => {
      const unique = dedupe(snapshots);
      const stored = await this.storedReadings(unique);
      const ids: number[] = [];
      const fresh: Snapshot[] = [];
      for (const snapshot of unique) {
        const same = stored.get(snapshotKey(snapshot))?.find((held) => sameReading(held, snapshot));
        if (same === undefined) fresh.push(snapshot);
        else ids.push(same.id);
      }
      await referenceSnapshots(this.db, runId, ids);
      if (fresh.length > 0) await this.db.dialect.writeSnapshots(this.db, runId, fresh.map(snapshotRow));
    });
  }

  /** The readings the store holds under the snapshots' keys, by snapshotKey, oldest first. */
  private storedReadings(snapshots: readonly Snapshot[]): Promise<Map<string, StoredReading[]>> {
    return this.heldUnderKeys(snapshots, SQL.knownSnapshots, (row) => ({
      id: Number(row.id),
      score: numberOf(row.score),
      label: textOf(row.label),
      checksText: textOf(row.checks),
    }));
  }

  /**
   * What the store holds under the snapshots' keys (origin, report id, generated_at; one each, as dedupe leaves them),
   * by snapshotKey, oldest first: `statement` asked for 1,000 keys at a time, each row as `read` takes it.
   */
  private async heldUnderKeys<T>(snapshots: readonly Snapshot[], statement: (count: number) => string, read: (row: SqlRow) => T): Promise<Map<string, T[]>> {
    const stored = new Map<string, T[]>();
    for (let start = 0; start < snapshots.length; start += 1_000) {
      const chunk = snapshots.slice(start, start + 1_000);
      const { rows } = await this.db.run(
        statement(chunk.length),
        chunk.flatMap((snapshot) => [snapshot.origin, snapshot.reportId, snapshot.generatedAt]),
      );
      for (const row of rows) {
        const key = snapshotKey({ origin: String(row.origin), reportId: String(row.report_id), generatedAt: String(row.generated_at) });
        const held = stored.get(key);
        if (held) held.push(read(row));
        else stored.set(key, [read(row)]);
      }
    }
    return stored;
  }

  async finishRun(runId: number, end: { finished: string; exitCode: number; complete: boolean }): Promise<void> {
    await this.db.run(SQL.finishRun, [end.finished, end.exitCode, end.complete ? 1 : 0, runId]);
  }

  async runs(query: RunQuery = {}): Promise<RunInfo[]> {
    const { sql, params } = runsStatement(query);
    return (await this.db.run(sql, params)).rows.map(runOf);
  }

  async run(id: number): Promise<RunInfo | undefined> {
    const { rows } = await this.db.run(SQL.run, [id]);
    return rows[0] ? runOf(rows[0]) : undefined;
  }

  async snapshotsOf(runId: number, options: { sorted?: boolean } = {}): Promise<Snapshot[]> {
    const sql = options.sorted === false ? SQL.snapshotsOfUnsorted : SQL.snapshotsOf;
    return (await this.db.run(sql, [runId])).rows.map(snapshotOfRow);
  }

  /** The snapshots a run references, by identity, one at a time: a run of 100,000 reports is never held whole. */
  async *eachSnapshotOf(runId: number): AsyncIterable<Snapshot> {
    for await (const row of this.db.each(SQL.snapshotsOf, [runId])) yield snapshotOfRow(row);
  }

  async trendOfUrl(identity: string, options: { since?: string; check?: string; origin?: string }): Promise<TrendPoint[]> {
    const { rows } =
      options.origin === undefined
        ? await this.db.run(SQL.trendOfUrl, [identity, options.since ?? ''])
        : await this.db.run(SQL.trendOfUrlOn, [identity, options.since ?? '', options.origin]);
    // One reading a run: of two reports of the URL (a duplicate on phpRank), the one a diff compares.
    const byRun = new Map<number, SqlRow>();
    const reading = (row: SqlRow) => ({ generatedAt: String(row.generated_at), reportId: String(row.report_id) });
    for (const row of rows) {
      const held = byRun.get(Number(row.run));
      if (isNewerReading(reading(row), held && reading(held))) byRun.set(Number(row.run), row);
    }
    return [...byRun.values()].map((row) => {
      const checksText = textOf(row.checks);
      const point: TrendPoint = {
        run: Number(row.run),
        started: String(row.started),
        origin: String(row.origin),
        generatedAt: textOf(row.generated_at),
        score: numberOf(row.score),
        failed: failedCount(checksText),
      };
      if (options.check !== undefined) point.passed = decodeChecks(checksText)?.find((check) => check.id === options.check)?.passed;
      return point;
    });
  }

  async snapshotsOfProject(project: string, options: { since?: string; origin?: string }) {
    const params: SqlValue[] = [project, options.since ?? ''];
    if (options.origin !== undefined) params.push(options.origin);
    const { rows } = await this.db.run(SQL.snapshotsOfProject(options.origin !== undefined), params);
    return rows.map((row) => ({ run: Number(row.run), started: String(row.started), snapshot: snapshotOfRow(row) }));
  }

  async prune(options: PruneOptions): Promise<PruneResult> {
    const dayAgo = new Date((options.now ?? Date.now()) - STILL_RECORDING_MS).toISOString();
    const work = async (): Promise<PruneResult> => {
      if (options.before === undefined && options.keepRuns === undefined) return { runs: [], snapshots: 0 };
      const params: SqlValue[] = [dayAgo];
      if (options.before !== undefined) params.push(options.before);
      if (options.keepRuns !== undefined) params.push(Math.trunc(options.keepRuns));
      const sql = SQL.pruneRuns({ before: options.before !== undefined, keeping: options.keepRuns !== undefined });
      const runs = (await this.db.run(sql, params)).rows.map(runOf);
      const ids = runs.map((run) => run.id);
      for (let start = 0; start < ids.length; start += 1_000) {
        const chunk = ids.slice(start, start + 1_000);
        await this.db.run(SQL.pruneRefsOf(chunk.length), chunk);
        await this.db.run(SQL.pruneRunsOf(chunk.length), chunk);
      }
      const snapshots = (await this.db.run(SQL.pruneSnapshots)).changes;
      return { runs, snapshots };
    };
    if (!options.dryRun) return this.db.transaction(work);
    // A dry run removes the same inside its transaction, counts, and rolls back: the counts are the real prune's.
    let result: PruneResult | undefined;
    await this.db
      .transaction(async () => {
        result = await work();
        throw DRY_RUN;
      })
      .catch((error: unknown) => {
        if (error !== DRY_RUN) throw error;
      });
    return result as PruneResult;
  }

  async importRun({ run, snapshots }: ExportedRun): Promise<ImportResult> {
    const started = isoTime(run.started);
    return this.db.transaction(async () => {
      // The same run imported twice (a history moved back and forth) is one run, its start written either way.
      const forms = [...new Set([started, started.replace(/\.000Z$/, 'Z'), run.started])];
      const same = await this.db.run(SQL.sameRun(forms.length), [...forms, run.origin, run.command, run.selection]);
      if (same.rows[0]) return { id: Number(same.rows[0].id), added: false, disagreements: [] };
      const { held, fresh, disagreements } = await this.sortImported(dedupe(snapshots));
      const { rows } = await this.db.run(SQL.importRun, [
        started,
        // Its place among the runs: when its own store recorded it (an export of an older rsapi: its start).
        isoTime(run.recorded ?? run.started),
        run.finished ?? null,
        run.command,
        run.selection,
        run.origin,
        run.exitCode ?? null,
        run.shard ?? null,
        ciText(run.ci),
        run.complete ? 1 : 0,
      ]);
      const id = Number(rows[0]?.id);
      await referenceSnapshots(this.db, id, held);
      if (fresh.length > 0) await this.db.dialect.writeSnapshots(this.db, id, fresh.map(snapshotRow));
      return { id, added: true, disagreements };
    });
  }

  /**
   * The imported snapshots sorted against what the store holds under their keys (origin, report id, generated_at):
   * one held with the same contents is referenced; one held with other contents too (the oldest, which earlier runs
   * read, is kept as it is, and the caller is told); one not held is written.
   */
  private async sortImported(snapshots: readonly Snapshot[]): Promise<{ held: number[]; fresh: Snapshot[]; disagreements: ImportDisagreement[] }> {
    const held: number[] = [];
    const fresh: Snapshot[] = [];
    const disagreements: ImportDisagreement[] = [];
    // A chunk at a time: the stored snapshots of a run of 100,000 are never held whole.
    for (let start = 0; start < snapshots.length; start += 1_000) {
      const chunk = snapshots.slice(start, start + 1_000);
      const stored = await this.heldUnderKeys(chunk, SQL.storedSnapshots, (row) => ({ id: Number(row.id), snapshot: snapshotOfRow(row) }));
      for (const snapshot of chunk) {
        const readings = stored.get(snapshotKey(snapshot));
        const oldest = readings?.[0];
        if (!readings || !oldest) {
          fresh.push(snapshot);
          continue;
        }
        const same = readings.find((reading) => differingFields(reading.snapshot, snapshot).length === 0);
        if (same) {
          held.push(same.id);
          continue;
        }
        held.push(oldest.id);
        disagreements.push({ stored: oldest.snapshot, imported: snapshot, fields: differingFields(oldest.snapshot, snapshot) });
      }
    }
    return { held, fresh, disagreements };
  }

  async heldNames(): Promise<HeldNames> {
    const column = async (sql: string) => (await this.db.run(sql)).rows.map((row) => String(Object.values(row)[0]));
    const checks = new Set<string>();
    for (const text of await column(HELD_NAMES_SQL.checks)) for (const check of decodeChecks(text) ?? []) checks.add(check.id);
    return { identities: await column(HELD_NAMES_SQL.identities), projects: await column(HELD_NAMES_SQL.projects), checks: [...checks] };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/**
 * heldNames' statements, the same in both dialects: every URL and project read, and the checks of the newest readings
 * (a service's reports carry the same checks; 20 readings cover a page whose fetch failed).
 */
const HELD_NAMES_SQL = {
  identities: 'SELECT DISTINCT identity FROM history_snapshots',
  projects: 'SELECT DISTINCT project FROM history_snapshots WHERE project IS NOT NULL',
  checks: 'SELECT checks FROM history_snapshots WHERE checks IS NOT NULL ORDER BY id DESC LIMIT 20',
};

/**
 * Brings the schema to SCHEMA_VERSION in one transaction; a newer one, or a database of someone else's, is left
 * untouched. Exported for a connection the store does not own (a job's lock: postgres.ts's JobLock).
 */
export async function migrateHistory(db: SqlConnection, where: string): Promise<void> {
  const version = await schemaVersion(db, where);
  if (version > SCHEMA_VERSION) throw newerSchema(where, version);
  if (version === SCHEMA_VERSION) return;
  await db.transaction(async () => {
    if (db.dialect.unlimitedStatements) await db.run(db.dialect.unlimitedStatements);
    if (db.dialect.migrationLock) await db.run(db.dialect.migrationLock);
    // Another writer may have migrated while this one waited for the lock.
    if (!(await hasSchemaTable(db))) {
      await db.run(SQL.createSchemaTable);
      await db.run(SQL.startSchema);
    }
    const now = await schemaVersion(db, where);
    if (now > SCHEMA_VERSION) throw newerSchema(where, now);
    for (let step = now; step < SCHEMA_VERSION; step++) {
      for (const statement of (MIGRATIONS[step] as (typeof MIGRATIONS)[number])(db.dialect)) await db.run(statement);
    }
    await db.run(SQL.setSchemaVersion, [SCHEMA_VERSION]);
  });
}

/** 0 for a database without the history's tables (and nothing else, for SQLite). */
async function hasSchemaTable(db: SqlConnection): Promise<boolean> {
  return Number((await db.run(db.dialect.schemaTableExists)).rows[0]?.n ?? 0) > 0;
}

async function schemaVersion(db: SqlConnection, where: string): Promise<number> {
  if (!(await hasSchemaTable(db))) {
    if (!db.dialect.anyTable || Number((await db.run(db.dialect.anyTable)).rows[0]?.n ?? 0) === 0) return 0;
    // Looked at again after the other tables: a history another writer makes at this moment shows up all at once.
    if (!(await hasSchemaTable(db))) {
      throw new HistoryError(`${where} is a database but not an rsapi history; left untouched`, 'not-history', {
        hint: 'give another path with --history or RSAPI_HISTORY',
      });
    }
  }
  return Number((await db.run(SQL.schemaVersion)).rows[0]?.version ?? 0);
}

function newerSchema(where: string, version: number): HistoryError {
  return newerSchemaError(where, version, SCHEMA_VERSION);
}

function dedupe(snapshots: readonly Snapshot[]): Snapshot[] {
  const byKey = new Map<string, Snapshot>();
  for (const snapshot of snapshots) byKey.set(snapshotKey(snapshot), snapshot);
  return [...byKey.values()];
}

/** What makes a snapshot one: the service (origin), the report's id and its generated_at. */
function snapshotKey(snapshot: Pick<Snapshot, 'origin' | 'reportId' | 'generatedAt'>): string {
  return `${snapshot.origin}\n${snapshot.reportId}\n${snapshot.generatedAt}`;
}

/** What a reading is compared by, as stored: its score, its label and its checks' text. */
interface StoredReading {
  id: number;
  score: number | undefined;
  label: string | undefined;
  checksText: string | undefined;
}

/** Whether the store's reading is the snapshot's: the same score, label and checks text (nothing hashed for it). */
function sameReading(held: StoredReading, snapshot: Snapshot): boolean {
  return held.score === snapshot.score && held.label === snapshot.label && held.checksText === checksTextOf(snapshot);
}

function checksTextOf(snapshot: Snapshot): string | undefined {
  return snapshot.checksText ?? (snapshot.checks === undefined ? undefined : encodeChecks(snapshot.checks));
}

function snapshotRow(snapshot: Snapshot): SnapshotRow {
  const checks = checksTextOf(snapshot) ?? null;
  const score = snapshot.score ?? null;
  const label = snapshot.label ?? null;
  return [
    snapshot.origin,
    snapshot.identity,
    snapshot.reportId,
    snapshot.project ?? null,
    score,
    label,
    snapshot.generatedAt,
    checks,
    readingHash(score, label, checks),
  ];
}

function snapshotOfRow(row: SqlRow): Snapshot {
  // The checks are decoded when first read: a diff of two 10,000-report runs compares most of them as text.
  return withChecks(
    {
      origin: String(row.origin),
      identity: String(row.identity),
      reportId: String(row.report_id),
      project: textOf(row.project),
      score: numberOf(row.score),
      label: textOf(row.label),
      generatedAt: String(row.generated_at),
    },
    textOf(row.checks),
  );
}

function runOf(row: SqlRow): RunInfo {
  const started = String(row.started);
  const recorded = String(row.recorded ?? started);
  const skew = Date.parse(started) - Date.parse(recorded);
  return {
    id: Number(row.id),
    started,
    recorded,
    clockSkewMs: Number.isFinite(skew) && Math.abs(skew) > CLOCK_SKEW_SAID_MS ? skew : undefined,
    finished: textOf(row.finished),
    command: String(row.command),
    selection: String(row.selection),
    origin: String(row.origin),
    exitCode: numberOf(row.exit_code),
    shard: textOf(row.shard),
    ci: ciOf(textOf(row.ci)),
    complete: Number(row.complete) === 1,
    reports: Number(row.reports ?? 0),
  };
}

function ciText(ci: CiContext | undefined): string | null {
  return ci === undefined ? null : JSON.stringify(ci);
}

function ciOf(text: string | undefined): CiContext | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as CiContext;
  } catch {
    return undefined;
  }
}

/** The fields of a snapshot that `imported` gives otherwise than `stored`. */
function differingFields(stored: Snapshot, imported: Snapshot): string[] {
  const fields: string[] = [];
  if (stored.identity !== imported.identity) fields.push('identity');
  if ((stored.project ?? null) !== (imported.project ?? null)) fields.push('project');
  if ((stored.score ?? null) !== (imported.score ?? null)) fields.push('score');
  if ((stored.label ?? null) !== (imported.label ?? null)) fields.push('label');
  if ((checksTextOf(stored) ?? null) !== (checksTextOf(imported) ?? null)) fields.push('checks');
  return fields;
}

/** An ISO time as the store writes it, with milliseconds: `…T09:00:00Z` is `…T09:00:00.000Z`. */
function isoTime(text: string): string {
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}

function textOf(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function numberOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
