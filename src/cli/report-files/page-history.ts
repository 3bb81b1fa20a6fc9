// What the --html page shows of a history: the earlier runs of the same command with the same selection on the same
// service (the runs `--baseline last` compares with), read once when the page is written. From them: the changes
// since the last one, each project's average score run by run, and each URL's scores for its sparkline.
import { isNewerReading, reportIdValue, storedReadingOf, type CheckSigns } from '../../history/snapshot.js';
import { reportIdentity } from '../../api/model/report-url.js';
import { readReport } from '../../api/model/report-model.js';
import { compactReading, sharedCheck } from '../../judge/readings.js';
import type { CheckReading, PageReading } from '../../judge/compare.js';
import type { HistoryStore, RunInfo, RunQuery, ScoreReading, Snapshot } from '../../history/types.js';
import { NewestStandings, standingOfParts, type Baseline, type EarlierStanding, type RunScore, type Standing } from './baseline.js';
import { ExitCode } from '../runtime/exit-codes.js';

/** How many earlier runs the page reads: a quarter of weekly runs. */
export const PAGE_HISTORY_RUNS = 12;

export interface HistoryRun {
  id: number;
  /** ISO time. */
  started: string;
}

export interface PageHistory {
  /** The earlier complete runs read, oldest first; the last is the one the page compares with. */
  runs: HistoryRun[];
  /**
   * The newest of them as a baseline: the page's "changed since the last run" (listed, never a gate); not read for a
   * run that has a baseline of its own (readPageHistory's `last`), whose page lists the changes since that one.
   */
  last?: Baseline;
  /** Per report identity (reportIdentity), its score in each of `runs` (null: not read in that run, or no score). */
  scores: Map<string, (number | null)[]>;
  /** Per project, its average score in each of `runs` (null: none of its reports had a score then). */
  projects: Map<string, (number | null)[]>;
}

/**
 * What readPageHistory is asked: `last` (default true), the newest run read whole as a baseline of the page; `held`, the
 * run's baseline read already (readRunBaseline), whose run's scores are taken from it rather than read again.
 */
export interface PageHistoryOptions {
  last?: boolean;
  held?: Baseline;
}

/**
 * The earlier runs like `same` (command, selection, origin), complete ones only; undefined when there is none. Each run
 * is read row by row: per URL only its scores and project are kept, and the last run as a baseline of standings.
 */
export async function readPageHistory(store: HistoryStore, same: RunQuery, options: PageHistoryOptions = {}): Promise<PageHistory | undefined> {
  const found = await store.runs({ ...same, completeOnly: true, limit: PAGE_HISTORY_RUNS });
  if (found.length === 0) return undefined;
  const runs = found.reverse().map((run) => ({ id: run.id, started: run.started }));
  // Per URL its score in each run, and its project as last read (one string a project's name): of two readings in one
  // run, the newer (NewestOfEach: newestOfEachUrl's rule, a run read as it comes).
  const scores = new Map<string, (number | null)[]>();
  const projectOf = new Map<string, string>();
  const named = interner();
  const lastIndex = options.last === false ? -1 : runs.length - 1;
  const last = new SnapshotStandings();
  const place = (index: number, snapshot: RunScore) => {
    let row = scores.get(snapshot.identity);
    if (row === undefined) {
      row = runs.map(() => null);
      scores.set(snapshot.identity, row);
    }
    row[index] = snapshot.score ?? null;
    projectOf.set(snapshot.identity, named(snapshot.project ?? ''));
  };
  for (const [index, run] of runs.entries()) {
    // The run compared with, read already as the baseline: its scores as they were kept then.
    const kept = options.held?.run === run.id && index !== lastIndex ? options.held.scores : undefined;
    if (kept) {
      for (const score of kept) place(index, score);
      continue;
    }
    // Only the baseline's run is read whole (its checks); of the others, each reading's score and place alone.
    const readings: AsyncIterable<ScoreReading> = index === lastIndex ? baselineFeed(store.eachSnapshotOf(run.id), last) : store.eachScoreOf(run.id);
    const newest = new NewestOfEach();
    for await (const snapshot of readings) if (newest.takes(snapshot)) place(index, snapshot);
  }
  return {
    runs,
    ...(lastIndex < 0 ? {} : { last: baselineOf(runs.at(-1)!.id, last.standings) }),
    scores,
    projects: averagesByProject(scores, projectOf, runs.length),
  };
}

/**
 * A history run's snapshots as a baseline's standings: each fed as NewestStandings.add(snapshotRecord(snapshot)) would
 * feed it, the same standing made straight from the snapshot: no record of 36 check objects in between (a baseline of
 * 50,000 pages made 1.8 million of them).
 */
export class SnapshotStandings {
  readonly standings = new NewestStandings();
  /** Each check set of the stored readings fed, in the order a reading lists its checks. */
  private readonly orders = new Map<number, readonly OrderedCheck[]>();

  add(snapshot: Snapshot): void {
    if (snapshot.identity.trim() === '') return;
    // Its checks read off their stored signs where it has them (SignedReading), decoded only where not.
    let signs: CheckSigns | undefined;
    const key = reportIdentity(snapshot.identity);
    this.standings.addStanding(
      // The stored identity itself where it is one: a key held for each page, flat, not another string built for it.
      key === snapshot.identity ? snapshot.identity : key,
      { generated_at: snapshot.generatedAt, id: reportIdValue(snapshot.reportId) },
      () => {
        signs = storedReadingOf(snapshot)?.signs();
        return signs === undefined ? standingOfSnapshot(snapshot, readChecks(snapshot.checks)) : this.signedStanding(snapshot, signs);
      },
      () => signs !== undefined || snapshot.checks !== undefined,
    );
  }

  /**
   * A snapshot's standing with its checks read off its signs as readChecks reads them: the set's ids put in that order
   * once (by id, one an id, the later place of an id met twice standing), each page's signs read off in it when its
   * checks are asked (no check decoded, sorted or keyed a page).
   */
  private signedStanding(snapshot: Snapshot, { set, ids, signs }: CheckSigns): Standing {
    let order = this.orders.get(set);
    if (order === undefined) {
      const last = new Map<string, number>();
      for (const [place, id] of ids.entries()) last.set(decodeURIComponent(id), place);
      const sorted = [...last.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      order = sorted.map((id) => ({ place: last.get(id) as number, passed: sharedCheck(id, true), failed: sharedCheck(id, false) }));
      this.orders.set(set, order);
    }
    const { label, score } = readReport({ result: snapshot.label, score: snapshot.score });
    return standingOfParts({ ...partsOf(snapshot), result: label, reading: new SignedReading(score, label, order, signs) });
  }
}

/** A check of a check set, in the order readings list them: its place in the set, and its two shared readings. */
interface OrderedCheck {
  place: number;
  passed: CheckReading;
  failed: CheckReading;
}

/**
 * A baseline page's reading as a run holds it beside 50,000 others: its checks kept as the page's signs (`+-+…`) and
 * read off in its check set's order each time they are asked (the judge asks once a page), rather than a list of 36
 * a page (a 50,000-page baseline held 17 MB of them).
 */
class SignedReading implements PageReading {
  constructor(
    readonly score: number | undefined,
    readonly label: string | undefined,
    private readonly order: readonly OrderedCheck[],
    private readonly signs: string,
  ) {}

  get checks(): readonly CheckReading[] | undefined {
    if (this.order.length === 0) return undefined;
    return this.order.map(({ place, passed, failed }) => (this.signs[place] === '+' ? passed : failed));
  }

  /** Whether check `id` passed: its place found in the set's order (sorted by id), its sign read; nothing made. */
  passed(id: string): boolean | undefined {
    let low = 0;
    let high = this.order.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const { place, passed } = this.order[middle] as OrderedCheck;
      if (passed.id === id) return this.signs[place] === '+';
      if (passed.id < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Written as a plain reading is (a regression's earlier reading in JSON): its checks with it. */
  toJSON(): PageReading {
    return { score: this.score, label: this.label, checks: this.checks };
  }
}

/**
 * A snapshot's checks as recordReading reads snapshotRecord's: one a check id (the later state stands, as in the
 * record's `results`, keyed by id), sorted by id, shared with pages alike (compactReading); none for none.
 */
function readChecks(checks: readonly { id: string; passed: boolean }[] | undefined): readonly CheckReading[] | undefined {
  if (checks === undefined || checks.length === 0) return undefined;
  const byId = new Map<string, boolean>();
  for (const check of checks) byId.set(check.id, check.passed);
  const ids = [...byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return compactReading({ score: undefined, label: undefined, checks: ids.map((id) => ({ id, passed: byId.get(id) as boolean })) }).checks;
}

/** standingOf(snapshotRecord(snapshot)), its checks read already (readChecks). */
function standingOfSnapshot(snapshot: Snapshot, checks: readonly CheckReading[] | undefined): Standing {
  const { label, score } = readReport({ result: snapshot.label, score: snapshot.score });
  return standingOfParts({ ...partsOf(snapshot), result: label, reading: { score, label, checks } });
}

/** What a snapshot's standing has of it besides its reading. */
function partsOf(snapshot: Snapshot): { url: string; id: string; project: unknown; generatedAt: unknown } {
  return { url: snapshot.identity, id: snapshot.reportId, project: snapshot.project, generatedAt: snapshot.generatedAt };
}

/** The snapshots of a run, each fed to the standings of `last` on its way. */
async function* baselineFeed(snapshots: AsyncIterable<Snapshot>, last: SnapshotStandings): AsyncIterable<Snapshot> {
  for await (const snapshot of snapshots) {
    last.add(snapshot);
    yield snapshot;
  }
}

/**
 * A recorded run's snapshots as a baseline (`--baseline last|run:ID|since:D`), read row by row: the record of none kept.
 * With `scores` (a run that writes --html), its pages' scores are kept too, as a page history reads them
 * (Baseline.scores): the page does not read the run again (a second week of 50,000 pages: 0.3 s).
 */
export async function readRunBaseline(store: HistoryStore, runId: number, options: { scores?: boolean } = {}): Promise<Baseline> {
  const newest = new SnapshotStandings();
  const taken = new NewestOfEach();
  const scores: RunScore[] = [];
  const named = interner();
  for await (const snapshot of store.eachSnapshotOf(runId)) {
    newest.add(snapshot);
    if (!options.scores || !taken.takes(snapshot)) continue;
    const score = { identity: snapshot.identity, score: snapshot.score, project: snapshot.project === undefined ? undefined : named(snapshot.project) };
    // A newer reading of the page just taken stands in its place, as it does in the page's history.
    if (scores.at(-1)?.identity === score.identity) scores[scores.length - 1] = score;
    else scores.push(score);
  }
  return { ...baselineOf(runId, newest.standings), ...(options.scores ? { scores } : {}) };
}

/** One string held for each text met (a project's name), not one a page: the text as first met. */
function interner(): (text: string) => string {
  const held = new Map<string, string>();
  return (text) => {
    const first = held.get(text);
    if (first !== undefined) return first;
    held.set(text, text);
    return text;
  };
}

/**
 * Which of a run's readings, coming by identity (eachScoreOf, eachSnapshotOf: two of one URL are neighbours), a page's
 * history takes: the first of a URL, then each newer one (isNewerReading). The one held so far is all that tells them
 * apart: a map of the run's URLs for that, kept while the run was read, made 20-40 MB of old garbage a run at 50,000
 * pages, and a 7th week's page history peaked at 340 MB RSS.
 */
class NewestOfEach {
  private held: ScoreReading | undefined;

  takes(reading: ScoreReading): boolean {
    if (this.held?.identity === reading.identity && !isNewerReading(reading, this.held)) return false;
    this.held = reading;
    return true;
  }
}

function baselineOf(runId: number, newest: NewestStandings): Baseline {
  return { path: `run ${runId} of the history`, run: runId, byUrl: newest.byUrl, hasChecks: newest.hasChecks };
}

/** How many runs before a baseline run are read for the pages it could not audit: two months of weekly runs. */
export const EARLIER_RUNS = 8;

/**
 * The pages a baseline run could not audit, each with its newest reading in the EARLIER_RUNS runs of the job before it
 * (`same`, newest first): so that a page whose audit failed the week the baseline was recorded is compared with its
 * last reading, not taken as new next week (its regressions gated). A run does not record the pages it failed, so
 * these are the pages of the earlier runs it did not read, when its exit code says some page failed: a run that ended 0
 * or 10 (a gate) read every page of its input, and a page missing from it was left out of the input (a page removed
 * from the sitemap), which is new when it comes back.
 */
export async function readEarlierReadings(store: HistoryStore, same: RunQuery, run: RunInfo, baseline: Baseline): Promise<Map<string, EarlierStanding>> {
  const earlier = new Map<string, EarlierStanding>();
  if (run.exitCode === ExitCode.ok || run.exitCode === ExitCode.gate) return earlier;
  for (const before of await store.runs({ ...same, before: run, limit: EARLIER_RUNS })) {
    // Read row by row into standings, as the baseline is: no run's records held whole.
    const readings = new SnapshotStandings();
    for await (const snapshot of store.eachSnapshotOf(before.id)) readings.add(snapshot);
    for (const [key, standing] of readings.standings.byUrl)
      if (!baseline.byUrl.has(key) && !earlier.has(key)) earlier.set(key, { ...standing, run: before.id });
  }
  return earlier;
}

/**
 * Each project's mean score per run over its URLs' scores then, as `history trend --project` works it out (worked out
 * from the scores alone: no check of 10,000 reports x 12 runs is decoded for it).
 */
function averagesByProject(
  byUrl: ReadonlyMap<string, readonly (number | null)[]>,
  projectOf: ReadonlyMap<string, string>,
  runs: number,
): Map<string, (number | null)[]> {
  const sums = new Map<string, { total: number[]; count: number[] }>();
  for (const [identity, scores] of byUrl) {
    const project = projectOf.get(identity) ?? '';
    let sum = sums.get(project);
    if (!sum) {
      sum = { total: new Array<number>(runs).fill(0), count: new Array<number>(runs).fill(0) };
      sums.set(project, sum);
    }
    scores.forEach((score, index) => {
      if (score === null) return;
      sum.total[index]! += score;
      sum.count[index]!++;
    });
  }
  const mean = (total: number, count: number) => (count === 0 ? null : Math.round((total / count) * 10) / 10);
  return new Map([...sums].map(([project, { total, count }]) => [project, total.map((value, index) => mean(value, count[index]!))]));
}
