// The shapes of a history: a run, a report's snapshot, and the one interface both stores (SQLite, PostgreSQL) serve.

/** A run as recorded: what ran, where, and how it ended. */
export interface RunInfo {
  id: number;
  /** ISO timestamps. */
  started: string;
  finished: string | undefined;
  /** `reports list`, `reports create`, ... */
  command: string;
  /** The command's filters or input, as one key: runs with the same key read the same selection. */
  selection: string;
  /** The service's origin (scheme, host, port). */
  origin: string;
  exitCode: number | undefined;
  /** `2/4` for a share of a sharded create. */
  shard: string | undefined;
  /** Commit, branch, job URL of the CI job, when there was one. */
  ci: CiContext | undefined;
  /** The command ran to its end: a run killed or interrupted part-way stays incomplete. */
  complete: boolean;
  /** Reports referenced by the run. */
  reports: number;
}

export interface CiContext {
  provider: 'github' | 'gitlab';
  commit?: string;
  branch?: string;
  job?: string;
}

/** What a new run is told when it starts. */
export type NewRun = Pick<RunInfo, 'started' | 'command' | 'selection' | 'origin' | 'shard' | 'ci'>;

/** One check of a snapshot: passed or not, and a short hash of its value (the value itself is not kept). */
export interface CheckState {
  id: string;
  passed: boolean;
  hash: string;
}

/** A report as read once: no values, no whole record. Same origin, report id and generated_at: the same snapshot. */
export interface Snapshot {
  origin: string;
  /** The cleaned URL (reportIdentity). */
  identity: string;
  reportId: string;
  project: string | undefined;
  score: number | undefined;
  label: string | undefined;
  generatedAt: string;
  checks: readonly CheckState[] | undefined;
  /** The checks as stored (encodeChecks), when read from a store: compared as text before anything is decoded. */
  checksText?: string;
}

/** A point of a trend: one run's reading of a URL (or a project's average). */
export interface TrendPoint {
  run: number;
  started: string;
  generatedAt: string | undefined;
  score: number | undefined;
  failed: number | undefined;
  /** --check: whether that check passed. */
  passed?: boolean | undefined;
  /** Project trends: how many reports the point averages. */
  reports?: number;
}

export interface RunQuery {
  command?: string;
  selection?: string;
  origin?: string;
  /** Only runs started at or after this ISO time. */
  since?: string;
  /** Only runs started before this run (at the same moment: with a lower id). */
  before?: Pick<RunInfo, 'started' | 'id'>;
  completeOnly?: boolean;
  /** Only runs that referenced at least one report. */
  readReports?: boolean;
  /** Newest first (by start, then id: an imported run takes its place in time), at most this many. */
  limit?: number;
}

/** One line of `history export`: a run with its snapshots, or a bare snapshot row. */
export interface ExportedRun {
  run: RunInfo;
  snapshots: Snapshot[];
}

/** A history, wherever it lives. Every method is one transaction. */
export interface HistoryStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, as may be shown (a URL's password left out). */
  readonly where: string;
  startRun(run: NewRun): Promise<number>;
  /**
   * Adds the snapshots a run read, in one transaction: a report it holds already (same origin, id and generated_at: an
   * unchanged re-read) adds only the run's reference.
   */
  addSnapshots(runId: number, snapshots: readonly Snapshot[]): Promise<void>;
  finishRun(runId: number, end: { finished: string; exitCode: number; complete: boolean }): Promise<void>;
  /** Newest first. */
  runs(query?: RunQuery): Promise<RunInfo[]>;
  run(id: number): Promise<RunInfo | undefined>;
  /**
   * The snapshots a run references, by identity; with `sorted: false` in no set order, for a caller that keys them by
   * URL itself (sorting 10,000 rows with their checks costs SQLite 50 ms).
   */
  snapshotsOf(runId: number, options?: { sorted?: boolean }): Promise<Snapshot[]>;
  /** The same as snapshotsOf's sorted list, one snapshot at a time (nothing kept). */
  eachSnapshotOf(runId: number): AsyncIterable<Snapshot>;
  /** A URL's (identity's) readings over time, oldest first. */
  trendOfUrl(identity: string, options: { since?: string; check?: string }): Promise<TrendPoint[]>;
  /** A project's readings: every snapshot of its reports with the run that read it, oldest first. */
  snapshotsOfProject(project: string, options: { since?: string }): Promise<{ run: number; started: string; snapshot: Snapshot }[]>;
  /** Removes runs (older than `before`, or all but the newest `keepRuns`) and the snapshots no run references. */
  prune(options: { before?: string; keepRuns?: number }): Promise<{ runs: number; snapshots: number }>;
  /** Adds a run exported from another history as a new run: its id here, and whether it was added or there already. */
  importRun(exported: ExportedRun): Promise<{ id: number; added: boolean }>;
  close(): Promise<void>;
}
