// The one history store: runs, snapshots and references kept through SQL, for SQLite and PostgreSQL alike (sql.ts
// holds the statements and names where the dialects differ; a driver gives the connection).
import { HistoryError, newerSchemaError } from './errors.js';
import {
  applyDelta,
  decodeChecks,
  deltaOf,
  encodeChecks,
  failedCount,
  isNewerReading,
  markStored,
  signsOf,
  type CheckSigns,
  joinChecks,
  splitChecks,
  storedTime,
  timeOfStored,
  withChecks,
} from './snapshot.js';
import {
  COMPACT_SNAPSHOTS,
  MIGRATIONS,
  OLD_SNAPSHOTS,
  type PageWriteRow,
  PIPELINE_SQL,
  referenceSnapshots,
  runsStatement,
  SCHEMA_VERSION,
  SQL,
  ROWS_A_STATEMENT,
  type SqlConnection,
  type SqlRow,
  type SqlValue,
  writePageSql,
} from './sql.js';
import type {
  CiContext,
  ExportedRun,
  HeldNames,
  HistoryStore,
  ImportDisagreement,
  ImportResult,
  NewRun,
  PruneOptions,
  PipelineRole,
  PruneResult,
  RunInfo,
  RunQuery,
  ShareEnd,
  ScoreReading,
  Snapshot,
  StoredPipeline,
  TrendPoint,
  CheckSplit,
} from './types.js';

/** A run more than this far off the store's clock when added is said to be (its machine's clock is wrong). */
const CLOCK_SKEW_SAID_MS = 5 * 60_000;
/** A run not finished is left alone by prune this long after it was added: it may be recording still. */
const STILL_RECORDING_MS = 24 * 60 * 60_000;
/** Thrown inside a dry run's transaction to roll it back. */
const DRY_RUN = Symbol('dry run');

export class SqlHistoryStore implements HistoryStore {
  readonly kind: 'sqlite' | 'postgres';

  private readonly readings: Readings;
  /** The pipeline's run this store's run is (startRun's `pipeline`): as a share of it, or its merge. */
  private pipeline: { id: number; share: number | undefined } | undefined;

  private constructor(
    private readonly db: SqlConnection,
    readonly where: string,
  ) {
    this.kind = db.dialect.name;
    this.readings = new Readings(db);
  }

  /**
   * The store on an open connection, its schema brought up to date in one transaction (or refused: newer, not ours).
   * `readOnly`: only checked (a newer schema refused), never migrated.
   */
  static async open(db: SqlConnection, where: string, options: { readOnly?: boolean; notice?: (line: string) => void } = {}): Promise<SqlHistoryStore> {
    try {
      if (options.readOnly) {
        const version = await schemaVersion(db, where);
        if (version > SCHEMA_VERSION) throw newerSchema(where, version);
      } else await migrateHistory(db, where, options.notice);
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
    if (run.pipeline !== undefined) return this.startPipelineRun(run, run.pipeline);
    const { rows } = await this.db.run(SQL.startRun(this.db.dialect), [run.started, run.command, run.selection, run.origin, run.shard ?? null, ciText(run.ci)]);
    return Number(rows[0]?.id);
  }

  /**
   * A share joins its pipeline's one run, made now by the first share to start (under the pipeline's advisory lock, so
   * two shards starting at once make one run), and starts its share afresh (an earlier attempt's URLs dropped). The
   * merge takes the run over: its references dropped, to be made again from the shares it keeps.
   */
  private async startPipelineRun(run: NewRun, pipeline: PipelineRole): Promise<number> {
    if (this.db.dialect.pipelineTables.length === 0) {
      throw new HistoryError(`the history ${this.where} keeps no pipeline's run: a pipeline's shards record into one run only on PostgreSQL`, 'failed');
    }
    return this.db.transaction(async () => {
      if (pipeline.role === 'close') {
        this.pipeline = { id: pipeline.pipeline, share: undefined };
        await this.db.run(PIPELINE_SQL.dropReferences, [pipeline.run]);
        await this.db.run(PIPELINE_SQL.resetRun, [run.shard ?? null, run.started, pipeline.run]);
        return pipeline.run;
      }
      await this.db.run(PIPELINE_SQL.lock, [pipeline.key]);
      const key = [pipeline.key, run.command, run.selection, run.origin, pipeline.input.digest, pipeline.shares];
      let found = (await this.db.run(PIPELINE_SQL.find, key)).rows[0];
      if (found === undefined) {
        const shard = `merged 0/${pipeline.shares}`;
        const made = await this.db.run(SQL.startRun(this.db.dialect), [run.started, run.command, run.selection, run.origin, shard, ciText(run.ci)]);
        const runId = Number(made.rows[0]?.id);
        const { rows } = await this.db.run(PIPELINE_SQL.add, [...key.slice(0, 5), pipeline.input.urls, pipeline.shares, pipeline.service ?? null, runId]);
        found = rows[0] ? { id: rows[0].id, run_id: runId } : (await this.db.run(PIPELINE_SQL.find, key)).rows[0];
      }
      const id = Number(found?.id);
      await this.db.run(PIPELINE_SQL.startShare, [id, pipeline.share, run.started]);
      await this.db.run(PIPELINE_SQL.dropEntries, [id, pipeline.share]);
      this.pipeline = { id, share: pipeline.share };
      return Number(found?.run_id);
    });
  }

  /**
   * Adds the snapshots a run read, in one transaction (PostgreSQL's writers one at a time: writeLock). The readings the
   * store holds under the same key (origin, report id, generated_at) are compared with the new ones (score, label,
   * checks text): a re-read references the one that is the same by id, and only a reading it does not hold is written
   * (a snapshot's place, its URL's identity and project, is worked out only then), its content shared with the page's
   * newest when the same, else a delta against the page's last full reading. Asked inside the transaction, the answer
   * still holds when the references are written (a prune cannot come in between).
   */
  async addSnapshots(runId: number, snapshots: readonly Snapshot[]): Promise<void> {
    if (snapshots.length === 0) return;
    if (this.db.dialect.pageInOneStatement) return this.writePage(runId, dedupe(snapshots));
    await this.writing(async () => {
      const unique = dedupe(snapshots);
      const stored = await this.heldReadings(unique);
      const ids: number[] = [];
      const fresh: Snapshot[] = [];
      // Index loops in the write path: an entries() iterator made an array a snapshot where the code runs cold.
      for (let at = 0; at < unique.length; at++) {
        const snapshot = unique[at] as Snapshot;
        const same = stored.get(at)?.find((row) => this.readings.holdsReading(row, snapshot));
        if (same === undefined) fresh.push(snapshot);
        else ids.push(Number(same.snapshot_id));
      }
      await referenceSnapshots(this.db, runId, ids);
      await referenceSnapshots(this.db, runId, await this.readings.write(fresh));
    });
  }

  /**
   * addSnapshots on PostgreSQL: the same decisions made by the server in one statement a page (writePageSql), so a page
   * costs one round trip; in a transaction only when it takes more than one (a report read twice in the page, or more
   * than ROWS_A_STATEMENT readings). Two writers of one report at the same moment may each store its reading: both
   * answer the same.
   */
  private async writePage(runId: number, snapshots: readonly Snapshot[]): Promise<void> {
    const statements = oneReportEach(snapshots);
    const write = async () => {
      for (const rows of statements) await this.db.run(writePageSql(rows.length), [...rows.flat(), runId, runId, runId]);
    };
    if (statements.length === 1) await write();
    else await this.writing(write);
  }

  /** `work` in a transaction that writes, one writer at a time; the check sets known forgotten when it is rolled back. */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async () => {
        if (this.db.dialect.writeLock) await this.db.run(this.db.dialect.writeLock);
        return work();
      });
    } catch (error) {
      this.readings.forget();
      throw error;
    }
  }

  /**
   * The content rows of the readings the store holds under the snapshots' keys (origin, report id, generated_at), by
   * the snapshot's place in `snapshots`, oldest first, their check sets known: compared as stored
   * (Readings.holdsReading), no snapshot made of them. 1,000 keys asked at a time.
   */
  private async heldReadings(snapshots: readonly Snapshot[]): Promise<Map<number, SqlRow[]>> {
    const held = new Map<number, SqlRow[]>();
    for (let start = 0; start < snapshots.length; start += 1_000) {
      const end = Math.min(start + 1_000, snapshots.length);
      const keys: SqlValue[] = [];
      for (let at = start; at < end; at++) {
        const snapshot = snapshots[at] as Snapshot;
        keys.push(snapshot.origin, snapshot.reportId, storedTime(snapshot.generatedAt), at);
      }
      const { rows } = await this.db.run(SQL.heldReadings(end - start), keys);
      await this.readings.knowSets(rows);
      for (const row of rows) {
        const at = Number(row.at);
        const same = held.get(at);
        if (same) same.push(row);
        else held.set(at, [row]);
      }
    }
    return held;
  }

  /**
   * The snapshots the store holds under the snapshots' keys (origin, report id, generated_at; one each, as dedupe
   * leaves them), whole with their ids, by snapshotKey, oldest first: 1,000 keys asked at a time.
   */
  private async storedSnapshots(snapshots: readonly Snapshot[]): Promise<Map<string, { id: number; snapshot: Snapshot }[]>> {
    const stored = new Map<string, { id: number; snapshot: Snapshot }[]>();
    for (let start = 0; start < snapshots.length; start += 1_000) {
      const chunk = snapshots.slice(start, start + 1_000);
      const { rows } = await this.db.run(
        SQL.storedSnapshots(chunk.length),
        chunk.flatMap((snapshot) => [snapshot.origin, snapshot.reportId, storedTime(snapshot.generatedAt)]),
      );
      const read = await this.readings.snapshotsOf(rows);
      rows.forEach((row, index) => {
        const key = snapshotKey({ origin: String(row.origin), reportId: String(row.report_id), generatedAt: timeOfStored(String(row.generated_at)) });
        const entry = { id: Number(row.snapshot_id), snapshot: read[index] as Snapshot };
        const held = stored.get(key);
        if (held) held.push(entry);
        else stored.set(key, [entry]);
      });
    }
    return stored;
  }

  async finishRun(runId: number, end: { finished: string; exitCode: number; complete: boolean; share?: ShareEnd }): Promise<void> {
    const pipeline = this.pipeline;
    if (pipeline?.share !== undefined) return this.finishShare(pipeline.id, pipeline.share, end);
    if (pipeline === undefined) {
      await this.db.run(SQL.finishRun, [end.finished, end.exitCode, end.complete ? 1 : 0, runId]);
      return;
    }
    // The merge's end: the run's, and the shares' URLs (their reports whole) no longer kept.
    await this.db.transaction(async () => {
      await this.db.run(SQL.finishRun, [end.finished, end.exitCode, end.complete ? 1 : 0, runId]);
      await this.db.run(PIPELINE_SQL.dropAllEntries, [pipeline.id]);
    });
  }

  /** A share's end, in one transaction: its URLs kept for the merge, and its state (done with them, else failed). */
  private async finishShare(id: number, share: number, end: { finished: string; exitCode: number; complete: boolean; share?: ShareEnd }): Promise<void> {
    const entries = end.share?.entries;
    await this.db.transaction(async () => {
      await this.db.run(PIPELINE_SQL.dropEntries, [id, share]);
      for (let start = 0; entries !== undefined && start < entries.length; start += ROWS_A_STATEMENT) {
        const chunk = entries.slice(start, start + ROWS_A_STATEMENT);
        await this.db.run(
          PIPELINE_SQL.addEntries(chunk.length),
          chunk.flatMap((entry) => [id, share, entry.at, entry.line]),
        );
      }
      const state = end.complete && entries !== undefined ? 'done' : 'failed';
      await this.db.run(PIPELINE_SQL.endShare, [state, end.exitCode, end.finished, id, share]);
      await this.db.run(PIPELINE_SQL.countShares, [id, id]);
    });
  }

  async pipelineRuns(key: string): Promise<StoredPipeline[]> {
    if (this.db.dialect.pipelineTables.length === 0) return [];
    const pipelines: StoredPipeline[] = [];
    for (const row of (await this.db.run(PIPELINE_SQL.ofKey, [key])).rows) {
      const id = Number(row.id);
      const started: StoredPipeline['started'] = [];
      for (const share of (await this.db.run(PIPELINE_SQL.sharesOf, [id])).rows) {
        const state = String(share.state) as StoredPipeline['started'][number]['state'];
        const lines = state === 'done' ? (await this.db.run(PIPELINE_SQL.entriesOf, [id, Number(share.share)])).rows.map((entry) => String(entry.entry)) : [];
        started.push({
          share: Number(share.share),
          state,
          code: numberOf(share.code),
          started: String(share.started),
          written: share.written === null ? undefined : String(share.written),
          lines,
        });
      }
      pipelines.push({
        id,
        run: Number(row.run_id),
        closed: row.finished !== null,
        pipeline: String(row.pipeline),
        command: String(row.command),
        selection: String(row.selection),
        origin: String(row.origin),
        service: row.service === null ? undefined : String(row.service),
        input: { digest: String(row.input), urls: Number(row.urls) },
        shares: Number(row.shares),
        started,
      });
    }
    return pipelines;
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
    return this.readings.snapshotsOf((await this.db.run(sql, [runId])).rows);
  }

  /** The snapshots a run references, by identity, one at a time: a run of 100,000 reports is never held whole. */
  async *eachSnapshotOf(runId: number): AsyncIterable<Snapshot> {
    for await (const row of this.db.each(SQL.snapshotsOf, [runId])) yield await this.readings.snapshotOf(row);
  }

  async *eachScoreOf(runId: number): AsyncIterable<ScoreReading> {
    for await (const row of this.db.each(SQL.scoresOf, [runId])) {
      yield new StoredScore(String(row.identity), String(row.report_id), textOf(row.project), numberOf(row.score), String(row.generated_at));
    }
  }

  /**
   * A run's snapshots by identity in code-point order (as JavaScript compares strings), read `pageSize` at a time
   * after the last one read: two runs are walked side by side without either being held whole.
   */
  async *eachSnapshotByIdentity(runId: number, pageSize = 5_000): AsyncIterable<Snapshot> {
    let after: SqlValue[] = ['', '', '', '', 0];
    if (this.db.dialect.name === 'sqlite') {
      // SQLite reads one ordered statement as it goes (its sort spilled to a temp file): a page after a place would
      // sort the whole run again for each page.
      for await (const row of this.db.each(SQL.snapshotsInOrder(this.db.dialect), [runId, ...after, -1])) yield await this.readings.snapshotOf(row);
      return;
    }
    for (;;) {
      const { rows } = await this.db.run(SQL.snapshotsInOrder(this.db.dialect), [runId, ...after, pageSize]);
      yield* await this.readings.snapshotsOf(rows);
      const last = rows[rows.length - 1];
      if (!last || rows.length < pageSize) return;
      const [identity, reportId] = [String(last.identity), String(last.report_id)];
      after = [identity, identity, reportId, reportId, Number(last.snapshot_id)];
    }
  }

  async trendOfUrl(identity: string, options: { since?: string; check?: string; origin?: string }): Promise<TrendPoint[]> {
    const { rows } =
      options.origin === undefined
        ? await this.db.run(SQL.trendOfUrl, [identity, options.since ?? ''])
        : await this.db.run(SQL.trendOfUrlOn, [identity, options.since ?? '', options.origin]);
    // One reading a run: of two reports of the URL (a duplicate on phpRank), the one a diff compares.
    const byRun = new Map<number, SqlRow>();
    const reading = (row: SqlRow) => ({ generatedAt: timeOfStored(String(row.generated_at)), reportId: String(row.report_id) });
    for (const row of rows) {
      const held = byRun.get(Number(row.run));
      if (isNewerReading(reading(row), held && reading(held))) byRun.set(Number(row.run), row);
    }
    const points: TrendPoint[] = [];
    for (const row of byRun.values()) {
      const checksText = await this.readings.checksTextOf(row);
      const point: TrendPoint = {
        run: Number(row.run),
        started: String(row.started),
        origin: String(row.origin),
        generatedAt: timeOfStored(String(row.generated_at)),
        score: numberOf(row.score),
        failed: failedCount(checksText),
      };
      if (options.check !== undefined) point.passed = decodeChecks(checksText)?.find((check) => check.id === options.check)?.passed;
      points.push(point);
    }
    return points;
  }

  async snapshotsOfProject(project: string, options: { since?: string; origin?: string }) {
    const params: SqlValue[] = [project, options.since ?? ''];
    if (options.origin !== undefined) params.push(options.origin);
    const { rows } = await this.db.run(SQL.snapshotsOfProject(options.origin !== undefined), params);
    const snapshots = await this.readings.snapshotsOf(rows);
    return rows.map((row, index) => ({ run: Number(row.run), started: String(row.started), snapshot: snapshots[index] as Snapshot }));
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
      await this.db.run(SQL.pruneContents);
      await this.db.run(SQL.prunePages);
      return { runs, snapshots };
    };
    if (!options.dryRun) return this.writing(work);
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
    return this.writing(async () => {
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
      await referenceSnapshots(this.db, id, await this.readings.write(fresh));
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
      const stored = await this.storedSnapshots(chunk);
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
    for (const row of (await this.db.run(SQL.newestChecks)).rows)
      for (const check of decodeChecks(await this.readings.checksTextOf(row)) ?? []) checks.add(check.id);
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
  identities: 'SELECT DISTINCT identity FROM history_pages',
  projects: 'SELECT DISTINCT project FROM history_pages WHERE project IS NOT NULL',
};

/**
 * Brings the schema to SCHEMA_VERSION in one transaction; a newer one, or a database of someone else's, is left
 * untouched. Exported for a connection the store does not own (a job's lock: postgres.ts's JobLock).
 */
export async function migrateHistory(db: SqlConnection, where: string, notice?: (line: string) => void): Promise<void> {
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
      for (const statement of (MIGRATIONS[step] as (typeof MIGRATIONS)[number])(db.dialect)) {
        if (statement === COMPACT_SNAPSHOTS) await compactSnapshots(db, where, now > 0 ? notice : undefined);
        else await db.run(statement);
      }
    }
    await db.run(SQL.setSchemaVersion, [SCHEMA_VERSION]);
  });
}

/** Snapshots of before converted a batch at a time: a history of millions is never held whole. */
const COMPACTING_BATCH = 5_000;

/**
 * Migration 5's conversion: the snapshots of before written in their compact form, in the order of their ids and
 * keeping them, COMPACTING_BATCH at a time, inside the migration's one transaction (a kill part-way leaves the history
 * as it was, converted again on the next open). An existing history is said to be converted, once.
 */
async function compactSnapshots(db: SqlConnection, where: string, notice: ((line: string) => void) | undefined): Promise<void> {
  const count = Number((await db.run('SELECT COUNT(*) AS n FROM history_snapshots')).rows[0]?.n ?? 0);
  if (count > 0) notice?.(`rsapi: note: converting the history ${where} to its compact form, once (${count} snapshots)`);
  const readings = new Readings(db);
  let after = 0;
  for (;;) {
    const { rows } = await db.run(OLD_SNAPSHOTS, [after, COMPACTING_BATCH]);
    if (rows.length === 0) return;
    const snapshots = rows.map((row): Snapshot => ({ ...readingOfRow(row, String(row.generated_at)), checks: undefined, checksText: textOf(row.checks) }));
    await readings.write(
      snapshots,
      rows.map((row) => Number(row.id)),
    );
    after = Number(rows[rows.length - 1]?.id);
  }
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

/**
 * Readings as writePageSql takes them, cut into statements of at most ROWS_A_STATEMENT in which no report (origin and
 * report id) comes twice: its second reading goes to a later statement, written after the first.
 */
function oneReportEach(snapshots: readonly Snapshot[]): PageWriteRow[][] {
  const statements: PageWriteRow[][] = [];
  /** The statement each report's last reading is in. */
  const lastOf = new Map<string, number>();
  for (const snapshot of snapshots) {
    const report = `${snapshot.origin}\n${snapshot.reportId}`;
    let statement = (lastOf.get(report) ?? -1) + 1;
    while (statement < statements.length && (statements[statement] as PageWriteRow[]).length >= ROWS_A_STATEMENT) statement++;
    lastOf.set(report, statement);
    const rows = statements[statement] ?? [];
    statements[statement] = rows;
    const text = checksTextOf(snapshot);
    const split = splitOf(snapshot);
    rows.push([
      rows.length,
      snapshot.origin,
      snapshot.reportId,
      snapshot.identity,
      snapshot.project ?? null,
      snapshot.score ?? null,
      snapshot.label ?? null,
      storedTime(snapshot.generatedAt),
      text ?? null,
      split?.ids ?? null,
      split?.states ?? null,
    ]);
  }
  return statements;
}

/**
 * A reading's place and score as eachScoreOf gives them, its generated_at made from the stored form when first asked
 * for: a page's history asks only of a URL read twice in one run (a 14th week of 50,000 pages made 600,000 of them,
 * 0.4 s).
 */
class StoredScore implements ScoreReading {
  constructor(
    readonly identity: string,
    readonly reportId: string,
    readonly project: string | undefined,
    readonly score: number | undefined,
    private readonly storedAt: string,
  ) {}

  get generatedAt(): string {
    return timeOfStored(this.storedAt);
  }
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

/** A snapshot row's place and reading but its checks (SNAPSHOT_OF_S's columns, or a migrated table's), `generatedAt` as given. */
function readingOfRow(row: SqlRow, generatedAt: string): Omit<Snapshot, 'checks' | 'checksText'> {
  return {
    origin: String(row.origin),
    identity: String(row.identity),
    reportId: String(row.report_id),
    project: textOf(row.project),
    score: numberOf(row.score),
    label: textOf(row.label),
    generatedAt,
  };
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

// The history's readings in their compact form (issue 45, migration 5): a snapshot read back from its page and its
// content (the checks text rebuilt), and a batch of new readings written as pages, contents (shared with the page's
// newest when the same, else a delta against its last full reading, else full) and snapshots.

/** What the store knows of a snapshot read back beside its fields: its content's id (two alike are the same reading). */

/** A page's newest content, as a new reading of the page is compared with it and written against it. */
interface NewestContent {
  id: number;
  score: number | undefined;
  label: string | undefined;
  /** Whether its checks are a snapshot's, given as splitOf splits them (compared as stored, for one read back: holdsChecks). */
  holds: (snapshot: Snapshot, split: CheckSplit | undefined) => boolean;
  /** The page's last full reading: the one a delta is written against. */
  full: { id: number; set: number; states: string } | undefined;
}

interface PageRow {
  id: number;
  identity: string;
  project: string | undefined;
}

/** The readings of one store: its check sets known (a few), read and written through its connection. */
export class Readings {
  private readonly setIds = new Map<number, string[]>();
  /** Each set's ids as stored, one space apart. */
  private readonly setTexts = new Map<number, string>();
  private readonly setOfIds = new Map<string, number>();

  constructor(private readonly db: SqlConnection) {}

  /** Forgets the check sets known (a transaction that added one was rolled back). */
  forget(): void {
    this.setIds.clear();
    this.setTexts.clear();
    this.setOfIds.clear();
  }

  /** The check sets of content rows known, read when one is not. */
  async knowSets(rows: readonly SqlRow[]): Promise<void> {
    if (rows.some((row) => this.unknownSet(row))) await this.loadSets();
  }

  /**
   * Whether a content row (score, label and its checks: checks, check_set, base, base_checks, base_set; its set known)
   * holds `snapshot`'s reading: the same score, label and checks text (nothing hashed for it), its text never made.
   */
  holdsReading(row: SqlRow, snapshot: Snapshot): boolean {
    return numberOf(row.score) === snapshot.score && textOf(row.label) === snapshot.label && this.holdsChecks(row, snapshot, splitOf(snapshot));
  }

  /**
   * Whether a content row's checks are `snapshot`'s (holdsReading's checks; `split`: splitOf(snapshot)), as
   * textOf(row) === its text would tell: the check set's ids and the states compared, no text made.
   */
  private holdsChecks(row: SqlRow, snapshot: Snapshot, split: CheckSplit | undefined): boolean {
    if (row.checks === null || row.checks === undefined) return split === undefined && checksTextOf(snapshot) === undefined;
    const checks = String(row.checks);
    const delta = row.base !== null && row.base !== undefined;
    const set = delta ? row.base_set : row.check_set;
    // Checks stored as text did not split: a text that splits is never theirs.
    if (set === null || set === undefined) return split === undefined && checks === checksTextOf(snapshot);
    if (split === undefined || this.setTexts.get(Number(set)) !== split.ids) return false;
    return (delta ? applyDelta(String(row.base_checks), checks) : checks) === split.states;
  }

  /** The snapshots of rows read through SNAPSHOT_OF_S (sql.ts), their check sets known first. */
  async snapshotsOf(rows: readonly SqlRow[]): Promise<Snapshot[]> {
    if (rows.some((row) => this.unknownSet(row))) await this.loadSets();
    return rows.map((row) => this.snapshotOfRow(row));
  }

  /** One row's snapshot (snapshotsOf), its checks text rebuilt when first read. */
  async snapshotOf(row: SqlRow): Promise<Snapshot> {
    if (this.unknownSet(row)) await this.loadSets();
    return this.snapshotOfRow(row);
  }

  /** The checks text of a content row (checks, check_set, base, base_checks, base_set), rebuilt. */
  async checksTextOf(row: SqlRow): Promise<string | undefined> {
    if (this.unknownSet(row)) await this.loadSets();
    return this.textOf(row);
  }

  private snapshotOfRow(row: SqlRow): Snapshot {
    let text: string | undefined | null = null;
    const content = { contentId: Number(row.content_id), withChecks: hasChecks(row), signs: () => this.signsOfRow(row) };
    const snapshot = withChecks(readingOfRow(row, timeOfStored(String(row.generated_at))), undefined, () => {
      if (text === null) text = this.textOf(row);
      return text;
    });
    markStored(snapshot, content);
    return snapshot;
  }

  /** A content row's check set and signs (StoredReading.signs); undefined for checks stored as text, or none. */
  private signsOfRow(row: SqlRow): CheckSigns | undefined {
    if (row.checks === null || row.checks === undefined) return undefined;
    const checks = String(row.checks);
    if (row.base !== null && row.base !== undefined) {
      const set = Number(row.base_set);
      return { set, ids: this.idsOf(set), signs: signsOf(applyDelta(String(row.base_checks), checks)) };
    }
    if (row.check_set === null || row.check_set === undefined) return undefined;
    const set = Number(row.check_set);
    return { set, ids: this.idsOf(set), signs: signsOf(checks) };
  }

  private unknownSet(row: SqlRow): boolean {
    const set = row.base === null || row.base === undefined ? row.check_set : row.base_set;
    return set !== null && set !== undefined && !this.setIds.has(Number(set));
  }

  private async loadSets(): Promise<void> {
    for (const row of (await this.db.run(SQL.checkSets)).rows) {
      this.know(Number(row.id), String(row.ids));
    }
  }

  private textOf(row: SqlRow): string | undefined {
    if (row.checks === null || row.checks === undefined) return undefined;
    const checks = String(row.checks);
    if (row.base !== null && row.base !== undefined) return joinChecks(this.idsOf(row.base_set), applyDelta(String(row.base_checks), checks));
    if (row.check_set !== null && row.check_set !== undefined) return joinChecks(this.idsOf(row.check_set), checks);
    return checks;
  }

  private idsOf(set: unknown): string[] {
    const ids = this.setIds.get(Number(set));
    if (!ids) throw new Error(`the history's check set ${String(set)} is missing`);
    return ids;
  }

  /** The id of a check set (its ids, one space apart), added when the store has none. */
  private async setId(ids: string): Promise<number> {
    let id = this.setOfIds.get(ids);
    if (id === undefined) {
      await this.loadSets();
      id = this.setOfIds.get(ids);
    }
    if (id === undefined) {
      id = Number((await this.db.run(SQL.addCheckSet, [ids])).rows[0]?.id);
      this.know(id, ids);
    }
    return id;
  }

  private know(set: number, ids: string): void {
    this.setIds.set(set, ids.split(' '));
    this.setTexts.set(set, ids);
    this.setOfIds.set(ids, set);
  }

  /**
   * Writes readings the store does not hold (each a new snapshot; `keepIds`: migration 5's, with the ids given, into
   * its new table) and returns their snapshot ids in order. Each reading's page (its service, report id, URL and
   * project) is found or added; its content is the page's newest when the same, else a delta against the page's last
   * full reading when small, else full.
   */
  async write(snapshots: readonly Snapshot[], keepIds?: readonly number[]): Promise<number[]> {
    if (snapshots.length === 0) return [];
    const pages = await this.pagesOf(snapshots);
    const newest = await this.newestContents([...new Set(pages)]);
    const contentIds: number[] = new Array(snapshots.length);
    // Contents are added a statement at a time; a page met again in the batch first has its pending one written.
    let pending: { at: number; row: SqlValue[]; page: number; full: boolean; set: number | undefined; split: CheckSplit | undefined }[] = [];
    const flush = async () => {
      for (let start = 0; start < pending.length; start += ROWS_A_STATEMENT) {
        const chunk = pending.slice(start, start + ROWS_A_STATEMENT);
        const { rows } = await this.db.run(
          SQL.addContents(chunk.length),
          chunk.flatMap((item) => item.row),
        );
        chunk.forEach((item, index) => {
          const id = Number(rows[index]?.id);
          contentIds[item.at] = id;
          const before = newest.get(item.page);
          const snapshot = snapshots[item.at] as Snapshot;
          newest.set(item.page, {
            id,
            score: snapshot.score,
            label: snapshot.label,
            holds: (other, split) => sameChecks(snapshot, item.split, other, split),
            full: item.full && item.set !== undefined && item.split !== undefined ? { id, set: item.set, states: item.split.states } : before?.full,
          });
        });
      }
      pending = [];
    };
    const pendingPages = new Set<number>();
    for (let at = 0; at < snapshots.length; at++) {
      const snapshot = snapshots[at] as Snapshot;
      const page = pages[at] as number;
      if (pendingPages.has(page)) {
        await flush();
        pendingPages.clear();
      }
      const split = splitOf(snapshot);
      const held = newest.get(page);
      if (held && held.score === snapshot.score && held.label === snapshot.label && held.holds(snapshot, split)) {
        contentIds[at] = held.id;
        continue;
      }
      const score = snapshot.score ?? null;
      const label = snapshot.label ?? null;
      if (split === undefined) {
        pending.push({ at, page, row: [page, null, null, score, label, checksTextOf(snapshot) ?? null], full: false, set: undefined, split });
      } else {
        const set = await this.setId(split.ids);
        const full = held?.full;
        const delta = full && full.set === set ? deltaOf(full.states, split.states) : undefined;
        if (full && delta !== undefined) pending.push({ at, page, row: [page, full.id, null, score, label, delta], full: false, set, split });
        else pending.push({ at, page, row: [page, null, set, score, label, split.states], full: true, set, split });
      }
      pendingPages.add(page);
    }
    await flush();
    const ids: number[] = [];
    for (let start = 0; start < snapshots.length; start += ROWS_A_STATEMENT) {
      const end = Math.min(start + ROWS_A_STATEMENT, snapshots.length);
      const values: SqlValue[] = [];
      for (let at = start; at < end; at++) {
        if (keepIds) values.push(keepIds[at] as number);
        values.push(pages[at] as number, storedTime((snapshots[at] as Snapshot).generatedAt), contentIds[at] as number);
      }
      if (keepIds) await this.db.run(SQL.keepSnapshots(end - start), values);
      else for (const row of (await this.db.run(SQL.addSnapshots(end - start), values)).rows) ids.push(Number(row.id));
    }
    return keepIds ? [...keepIds] : ids;
  }

  /** Each snapshot's page: the one of its service, report id, URL and project, added when there is none. */
  private async pagesOf(snapshots: readonly Snapshot[]): Promise<number[]> {
    const byKey = new Map<string, PageRow[]>();
    const keys = [...new Set(snapshots.map((snapshot) => `${snapshot.origin}\n${snapshot.reportId}`))];
    for (let start = 0; start < keys.length; start += ROWS_A_STATEMENT) {
      const chunk = keys.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(
        SQL.pagesOf(chunk.length),
        chunk.flatMap((key) => key.split('\n')),
      );
      for (const row of rows) {
        const key = `${String(row.origin)}\n${String(row.report_id)}`;
        const page = { id: Number(row.id), identity: String(row.identity), project: textOf(row.project) };
        const held = byKey.get(key);
        if (held) held.push(page);
        else byKey.set(key, [page]);
      }
    }
    const pages: number[] = new Array(snapshots.length);
    const missing: { at: number[]; snapshot: Snapshot }[] = [];
    const missingByPlace = new Map<string, { at: number[]; snapshot: Snapshot }>();
    for (let at = 0; at < snapshots.length; at++) {
      const snapshot = snapshots[at] as Snapshot;
      const key = `${snapshot.origin}\n${snapshot.reportId}`;
      const page = byKey.get(key)?.find((held) => held.identity === snapshot.identity && held.project === (snapshot.project ?? undefined));
      if (page) {
        pages[at] = page.id;
        continue;
      }
      const place = `${key}\n${snapshot.identity}\n${snapshot.project ?? '\u0000'}`;
      const added = missingByPlace.get(place);
      if (added) added.at.push(at);
      else {
        const entry = { at: [at], snapshot };
        missingByPlace.set(place, entry);
        missing.push(entry);
      }
    }
    for (let start = 0; start < missing.length; start += ROWS_A_STATEMENT) {
      const chunk = missing.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(
        SQL.addPages(chunk.length),
        chunk.flatMap(({ snapshot }) => [snapshot.origin, snapshot.reportId, snapshot.identity, snapshot.project ?? null]),
      );
      chunk.forEach((entry, index) => {
        for (const at of entry.at) pages[at] = Number(rows[index]?.id);
      });
    }
    return pages;
  }

  /** The newest content of each page, by page id. */
  private async newestContents(pages: readonly number[]): Promise<Map<number, NewestContent>> {
    const newest = new Map<number, NewestContent>();
    for (let start = 0; start < pages.length; start += ROWS_A_STATEMENT) {
      const chunk = pages.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(SQL.newestContents(chunk.length), chunk);
      if (rows.some((row) => this.unknownSet(row))) await this.loadSets();
      for (const row of rows) {
        const id = Number(row.content_id);
        const full =
          row.base !== null && row.base !== undefined
            ? { id: Number(row.base), set: Number(row.base_set), states: String(row.base_checks) }
            : row.check_set !== null && row.check_set !== undefined
              ? { id, set: Number(row.check_set), states: String(row.checks) }
              : undefined;
        newest.set(Number(row.page_id), {
          id,
          score: numberOf(row.score),
          label: textOf(row.label),
          holds: (snapshot, split) => this.holdsChecks(row, snapshot, split),
          full,
        });
      }
    }
    return newest;
  }
}

/** A snapshot's checks as encodeChecks writes them (the text it was read with, or its checks encoded). */
export function checksTextOf(snapshot: Snapshot): string | undefined {
  return snapshot.checksText ?? (snapshot.checks === undefined ? undefined : encodeChecks(snapshot.checks));
}

/** splitChecks of a snapshot's checks text: a reading's own split (checkSplit), the text not made; undefined for none, or a text that does not split. */
function splitOf(snapshot: Snapshot): CheckSplit | undefined {
  if (snapshot.checkSplit) return snapshot.checkSplit;
  const text = checksTextOf(snapshot);
  return text === undefined ? undefined : splitChecks(text);
}

/** Whether two snapshots' checks are the same text (their splits, splitOf's, when they split). */
function sameChecks(a: Snapshot, aSplit: CheckSplit | undefined, b: Snapshot, bSplit: CheckSplit | undefined): boolean {
  if (aSplit !== undefined || bSplit !== undefined) return aSplit?.ids === bSplit?.ids && aSplit?.states === bSplit?.states;
  return checksTextOf(a) === checksTextOf(b);
}

function hasChecks(row: SqlRow): boolean {
  return row.checks !== null && row.checks !== undefined && (row.base !== null || row.check_set !== null || String(row.checks) !== '');
}
