// The shapes of a history: a run, a report's snapshot, and the one interface both stores (SQLite, PostgreSQL) serve.

/** A run as recorded: what ran, where, and how it ended. */
export interface RunInfo {
  id: number;
  /** ISO timestamps, by the clock of the machine that ran it: shown, never what orders runs. */
  started: string;
  /**
   * When the store added the run, by the store's clock (an imported run: when its first store added it): what orders
   * the runs, so a machine whose clock is wrong never makes its run the "last" one.
   */
  recorded: string;
  /** started - recorded, when more than 5 minutes: the clock of the machine that ran it was off by this much. */
  clockSkewMs: number | undefined;
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
  /** Reports referenced by the run (kept on the run's row as they are added). */
  reports: number;
}

export interface CiContext {
  provider: 'github' | 'gitlab';
  commit?: string;
  branch?: string;
  job?: string;
}

/** What a new run is told when it starts; `pipeline`: the run is a pipeline's one run (PostgreSQL), joined or closed. */
export type NewRun = Pick<RunInfo, 'started' | 'command' | 'selection' | 'origin' | 'shard' | 'ci'> & { pipeline?: PipelineRole };

/**
 * A run's part in a pipeline's one run (`--record --pipeline KEY --shard I/N` on PostgreSQL): a share that joins it (the
 * run made by the first share to start; its end marks the share, not the run), or the merge that closes it (the run's
 * pages made again from the shares it keeps, its end the run's).
 */
export type PipelineRole =
  | {
      role: 'share';
      key: string;
      /** The whole input before the shard cut, as a part names it. */
      input: { digest: string; urls: number };
      share: number;
      shares: number;
      /** The service's web pages, for the merge's HTML page. */
      service: string | undefined;
    }
  | { role: 'close'; run: number; pipeline: number };

/** How a share of a pipeline ended, written with its URLs: as a run part's lines (parts/part.ts's PartEntry). */
export interface ShareEnd {
  /** Each URL of the share, as a part's line holds it (JSON), and its place in the whole input. */
  entries: readonly { at: number; line: string }[];
}

/** A pipeline's one run as the history holds it: what its shards share, and each share's state and URLs. */
export interface StoredPipeline {
  id: number;
  run: number;
  /** The merge closed it already. */
  closed: boolean;
  pipeline: string;
  command: string;
  selection: string;
  origin: string;
  service: string | undefined;
  input: { digest: string; urls: number };
  shares: number;
  /** Each share that started: `done` (its URLs kept), `failed` (it ended by an error), `running` (or killed). */
  started: { share: number; state: 'running' | 'done' | 'failed'; code: number | undefined; started: string; written: string | undefined; lines: string[] }[];
}

/** A run as an export line gives it: `recorded` is missing from an export of an older rsapi. */
export type ExportedRunInfo = Omit<RunInfo, 'recorded' | 'clockSkewMs'> & { recorded?: string };

/** One check of a snapshot: passed or not, and a short hash of its value (the value itself is not kept). */
export interface CheckState {
  id: string;
  passed: boolean;
  hash: string;
}

/** A reading's place, time and score: what a sparkline reads of a run (eachScoreOf). */
export type ScoreReading = Pick<Snapshot, 'identity' | 'reportId' | 'project' | 'score' | 'generatedAt'>;

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
  /** A reading's checks as splitChecks splits their text, kept so (the recorder's): a store writes them without the text made. */
  readonly checkSplit?: CheckSplit;
}

/** A checks text split as the store keeps it (splitChecks): the check set's ids, one space apart, and each check's state. */
export interface CheckSplit {
  ids: string;
  states: string;
}

/**
 * A report as the recorder keeps it until it is written: what only the record can give (its id, generated_at, URL,
 * project field, score and label as the record model reads them, the checks encoded), so that the record itself is
 * not kept. The rest (the URL's identity, the project from the URL) is worked out only for a reading the store does not
 * hold already.
 */
export type Reading = readonly [
  reportId: string,
  generatedAt: string,
  url: string,
  project: string | null,
  score: number | null,
  label: string | null,
  /** The check set (its ids as encoded, one space apart): null when the checks would not split, or there are none. */
  checkIds: string | null,
  /** With checkIds, each check's state (splitChecks' states); without, the checks text; null for none. */
  checks: string | null,
];

/** A point of a trend: one run's reading of a URL (or a project's average). */
export interface TrendPoint {
  run: number;
  started: string;
  /** The service it was read from (a URL's trend). */
  origin?: string;
  generatedAt: string | undefined;
  score: number | undefined;
  /** A URL's failed checks; over many pages (a project, a job), the failed checks per page with per-check results. */
  failed: number | undefined;
  /** Over many pages: the failed checks summed over them. */
  failedTotal?: number | undefined;
  /** --check: whether that check passed. */
  passed?: boolean | undefined;
  /** Project trends: how many reports the point averages. */
  reports?: number;
}

export interface RunQuery {
  command?: string;
  selection?: string;
  origin?: string;
  /** Only runs the store recorded at or after this ISO time. */
  since?: string;
  /** Only runs recorded before this run (at the same moment: with a lower id). */
  before?: Pick<RunInfo, 'recorded' | 'id'>;
  completeOnly?: boolean;
  /** Only runs that referenced at least one report (a run that read none is never a baseline). */
  readReports?: boolean;
  /** Newest first (as the store recorded them, then id: an imported run takes its place in time), at most this many. */
  limit?: number;
}

export interface PruneOptions {
  /** Removes the runs recorded before this ISO time. */
  before?: string;
  /** Removes all but each job's (service, command, selection) newest N complete runs. */
  keepRuns?: number;
  /** Removes nothing: says what would go. */
  dryRun?: boolean;
  /** The time a run not finished counts from (tests): such a run added within a day before it is never removed. */
  now?: number;
}

export interface PruneResult {
  /** The runs removed (or that would be), newest first. */
  runs: RunInfo[];
  /** The snapshots no kept run references any more. */
  snapshots: number;
}

/** An imported snapshot whose key the store holds with other contents: the stored one is kept. */
export interface ImportDisagreement {
  stored: Snapshot;
  imported: Snapshot;
  /** The fields that differ: identity, project, score, label, checks. */
  fields: string[];
}

export interface ImportResult {
  id: number;
  added: boolean;
  disagreements: ImportDisagreement[];
}

/** One line of `history export`: a run with its snapshots, or a bare snapshot row. */
export interface ExportedRun {
  run: ExportedRunInfo;
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
  /** The run's end; a pipeline's share (startRun's `pipeline`) ends its share instead, its URLs kept with it (`share`). */
  finishRun(runId: number, end: { finished: string; exitCode: number; complete: boolean; share?: ShareEnd }): Promise<void>;
  /** The runs of a pipeline key, with their shares (PostgreSQL; none on SQLite). */
  pipelineRuns(key: string): Promise<StoredPipeline[]>;
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
  /** The same order, each reading's place, time and score alone: no checks read (an HTML page's sparklines of 12 runs). */
  eachScoreOf(runId: number): AsyncIterable<ScoreReading>;
  /**
   * A run's snapshots by identity in code-point order (as JavaScript's `<` compares), read a page of `pageSize` at a
   * time: what a diff walks two runs side by side with, holding neither whole.
   */
  eachSnapshotByIdentity(runId: number, pageSize?: number): AsyncIterable<Snapshot>;
  /** A URL's (identity's) readings over time, oldest first; with `origin`, on that service alone. */
  trendOfUrl(identity: string, options: { since?: string; check?: string; origin?: string }): Promise<TrendPoint[]>;
  /** A project's readings: every snapshot of its reports with the run that read it, oldest first; `origin` as above. */
  snapshotsOfProject(project: string, options: { since?: string; origin?: string }): Promise<{ run: number; started: string; snapshot: Snapshot }[]>;
  /**
   * Removes runs (recorded before `before`, or all but each job's newest `keepRuns` complete ones) and the snapshots no
   * run references. A run not finished that was added within the last day is never removed (it may be recording).
   */
  prune(options: PruneOptions): Promise<PruneResult>;
  /**
   * Adds a run exported from another history as a new run: its id here, whether it was added or there already, and the
   * snapshots the store held already with other contents (kept as stored).
   */
  importRun(exported: ExportedRun): Promise<ImportResult>;
  /** What the history holds readings of, for a did-you-mean: every URL and project, and the checks of its newest readings. */
  heldNames(): Promise<HeldNames>;
  close(): Promise<void>;
}

export interface HeldNames {
  /** The URLs read (reportIdentity). */
  identities: string[];
  projects: string[];
  checks: string[];
}
