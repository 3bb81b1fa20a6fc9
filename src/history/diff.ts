// Two runs compared URL by URL: the checks that newly fail, the fixed ones, score changes, new and vanished URLs; and
// which two runs a plain `history diff` compares (the last two complete runs of one selection on one service).
import { readingChange } from '../api/model/regression.js';
import { reportProject } from '../api/model/report-url.js';
import { comparePage, type PageReading } from '../judge/compare.js';
import { judgeComparison, type ComparisonGate, type ComparisonVerdict } from '../judge/verdict.js';
import { HistoryNotFoundError } from './errors.js';
import { isNewerReading, MINUS, partEnd, SIGN_FROM_END, storedReadingOf } from './snapshot.js';
import type { HistoryStore, RunInfo, RunQuery, Snapshot } from './types.js';

export interface UrlChange {
  url: string;
  status: 'changed' | 'new' | 'vanished';
  scoreBefore: number | undefined;
  scoreAfter: number | undefined;
  labelBefore: string | undefined;
  labelAfter: string | undefined;
  /** after - before, when both have a score. */
  scoreChange: number | undefined;
  newFailures: string[];
  fixed: string[];
  /** It had per-check results in the earlier run and has none now: each check it passed is among newFailures. */
  checksLost?: boolean;
}

export interface RunDiff {
  from: RunInfo;
  to: RunInfo;
  /** New failures first, then fixed checks, then drops, then new and vanished URLs. */
  changes: UrlChange[];
  compared: number;
  /** Pages read in both runs with per-check results in neither: not judged on checks. */
  notJudgedOnChecks: string[];
  /** Whether any page of the later run carries per-check results. */
  laterHasChecks: boolean;
  /** Whether any page read in both carried per-check results in the earlier run. */
  earlierHasChecks: boolean;
}

/** The newest snapshot of each URL of a run (isNewerReading). */
export function newestOfEachUrl(snapshots: readonly Snapshot[]): Map<string, Snapshot> {
  const map = new Map<string, Snapshot>();
  for (const snapshot of snapshots) if (isNewerReading(snapshot, map.get(snapshot.identity))) map.set(snapshot.identity, snapshot);
  return map;
}

export function diffSnapshots(
  before: readonly Snapshot[],
  after: readonly Snapshot[],
): Pick<RunDiff, 'changes' | 'compared' | 'notJudgedOnChecks' | 'laterHasChecks' | 'earlierHasChecks'> {
  const [a, b] = [newestOfEachUrl(before), newestOfEachUrl(after)];
  const walk = new DiffWalk();
  for (const [url, now] of b) walk.page(url, a.get(url), now);
  for (const [url, then] of a) if (!b.has(url)) walk.page(url, then, undefined);
  return walk.result();
}

/** How a diff walks its two runs. */
export interface DiffOptions {
  /**
   * Give the event loop a turn after each this many snapshots read of a run (none by default). SQLite's rows come
   * synchronously, so a walk of two runs of 100,000 reports let no timer and no read in for seconds: the MCP server
   * answered nothing (not a ping, not the calls done before) until every queued diff was done. The CLI takes none:
   * a turn runs V8's incremental marking task, which cost `history diff` of those runs 30 MB of peak RSS and 5%.
   */
  betweenTurns?: number;
}

/**
 * Two runs' snapshots compared as they come, each run's in code-point order of identity (eachSnapshotByIdentity): a
 * URL's readings are met together, so neither run is held whole; only the changes are kept.
 */
export async function diffInOrder(
  before: AsyncIterable<Snapshot>,
  after: AsyncIterable<Snapshot>,
  within: (snapshot: Snapshot) => boolean,
  options: DiffOptions = {},
): Promise<Pick<RunDiff, 'changes' | 'compared' | 'notJudgedOnChecks' | 'laterHasChecks' | 'earlierHasChecks'>> {
  const newest = (snapshots: AsyncIterable<Snapshot>) => newestInOrder(snapshots, within, options.betweenTurns)[Symbol.asyncIterator]();
  const [a, b] = [newest(before), newest(after)];
  const walk = new DiffWalk();
  let [then, now] = await Promise.all([a.next(), b.next()]);
  while (!then.done || !now.done) {
    if (now.done || (!then.done && then.value.identity < now.value.identity)) {
      walk.page(then.value.identity, then.value, undefined);
      then = await a.next();
    } else if (then.done || now.value.identity < then.value.identity) {
      walk.page(now.value.identity, undefined, now.value);
      now = await b.next();
    } else {
      walk.page(now.value.identity, then.value, now.value);
      [then, now] = await Promise.all([a.next(), b.next()]);
    }
  }
  return walk.result();
}

/**
 * The newest snapshot of each URL (isNewerReading) of a run read in order of identity, those `within` alone; with
 * `betweenTurns`, a turn of the event loop after each that many snapshots read (DiffOptions).
 */
async function* newestInOrder(snapshots: AsyncIterable<Snapshot>, within: (snapshot: Snapshot) => boolean, betweenTurns = Infinity): AsyncIterable<Snapshot> {
  let held: Snapshot | undefined;
  let read = 0;
  for await (const snapshot of snapshots) {
    if (++read >= betweenTurns) {
      read = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!within(snapshot)) continue;
    if (held && held.identity !== snapshot.identity) {
      yield held;
      held = undefined;
    }
    if (isNewerReading(snapshot, held)) held = snapshot;
  }
  if (held) yield held;
}

/** The comparison of two runs, a URL at a time: its readings in the earlier run and the later one (either missing). */
class DiffWalk {
  private readonly changes: UrlChange[] = [];
  private readonly notJudgedOnChecks: string[] = [];
  private compared = 0;
  private laterHasChecks = false;
  private earlierHasChecks = false;

  page(url: string, then: Snapshot | undefined, now: Snapshot | undefined): void {
    if (!now) {
      if (then) this.changes.push(change(url, 'vanished', then, undefined));
      return;
    }
    this.laterHasChecks ||= hasChecks(now);
    if (!then) {
      this.changes.push(change(url, 'new', undefined, now));
      return;
    }
    this.compared++;
    this.earlierHasChecks ||= hasChecks(then);
    const { newFailures, fixed, checksLost, notJudged } = checkDelta(then, now);
    if (notJudged) this.notJudgedOnChecks.push(url);
    const entry = { ...change(url, 'changed', then, now), newFailures: newFailures.sort(), fixed: fixed.sort(), ...(checksLost ? { checksLost } : {}) };
    const lostScore = then.score !== undefined && now.score === undefined;
    if (entry.newFailures.length > 0 || entry.fixed.length > 0 || (entry.scoreChange ?? 0) !== 0 || entry.labelBefore !== entry.labelAfter || lostScore) {
      this.changes.push(entry);
    }
  }

  result(): Pick<RunDiff, 'changes' | 'compared' | 'notJudgedOnChecks' | 'laterHasChecks' | 'earlierHasChecks'> {
    const { changes, compared, notJudgedOnChecks, laterHasChecks, earlierHasChecks } = this;
    changes.sort(order);
    return { changes, compared, notJudgedOnChecks: notJudgedOnChecks.sort(), laterHasChecks, earlierHasChecks };
  }
}

/** A snapshot as the judge reads a page (src/judge/compare.ts): its score, result and checks. */
export function snapshotReading(snapshot: Snapshot): PageReading {
  return { score: snapshot.score, label: snapshot.label, checks: hasChecks(snapshot) ? snapshot.checks : undefined };
}

function hasChecks(snapshot: Snapshot): boolean {
  const stored = storedReadingOf(snapshot);
  if (stored) return stored.withChecks;
  return snapshot.checksText !== undefined ? snapshot.checksText !== '' : (snapshot.checks?.length ?? 0) > 0;
}

/**
 * The checks that went from passed to failed and back, as the one comparison (src/judge/compare.ts) finds them. Stored
 * checks of both readings are compared as text first, part by part (a service lists its checks in one order, so most
 * parts are equal and nothing is decoded): a fast path held equal to the judge by a test over generated pairs.
 */
function checkDelta(then: Snapshot, now: Snapshot): { newFailures: string[]; fixed: string[]; checksLost: boolean; notJudged: boolean } {
  // One content of one store: the same reading, its checks unchanged (a pointer compare, nothing rebuilt).
  const [storedThen, storedNow] = [storedReadingOf(then), storedReadingOf(now)];
  if (storedThen && storedNow && storedThen.contentId === storedNow.contentId && storedThen.withChecks) {
    return { newFailures: [], fixed: [], checksLost: false, notJudged: false };
  }
  if (then.checksText && now.checksText) {
    const newFailures: string[] = [];
    const fixed: string[] = [];
    if (then.checksText === now.checksText || alignedDelta(then.checksText, now.checksText, newFailures, fixed)) {
      return { newFailures, fixed, checksLost: false, notJudged: false };
    }
  }
  const change = comparePage(snapshotReading(then), snapshotReading(now));
  return { newFailures: change.newFailures, fixed: change.fixed, checksLost: change.checksLost, notJudged: change.notJudgedOnChecks };
}

/**
 * Walks two stored check texts part by part without cutting them up (a diff of 10,000 reports meets 720,000 parts):
 * parts that are equal are passed over; a part whose id matches and whose sign differs is a new failure or a fix.
 * False when the ids do not line up (the caller then compares by id).
 */
function alignedDelta(a: string, b: string, newFailures: string[], fixed: string[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const endA = partEnd(a, i);
    const endB = partEnd(b, j);
    const idLength = endB - j - SIGN_FROM_END;
    if (endA - i !== endB - j || idLength < 0 || !sameChars(a, i, b, j, idLength)) return false;
    const signA = a.charCodeAt(i + idLength);
    const signB = b.charCodeAt(j + idLength);
    if (signA !== signB) (signB === MINUS ? newFailures : fixed).push(decodeURIComponent(b.slice(j, j + idLength)));
    i = endA + 1;
    j = endB + 1;
  }
  return i >= a.length && j >= b.length;
}

function sameChars(a: string, i: number, b: string, j: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

function change(url: string, status: UrlChange['status'], then: Snapshot | undefined, now: Snapshot | undefined): UrlChange {
  const scoreChange = then?.score !== undefined && now?.score !== undefined ? round(now.score - then.score) : undefined;
  return {
    url,
    status,
    scoreBefore: then?.score,
    scoreAfter: now?.score,
    labelBefore: then?.label,
    labelAfter: now?.label,
    scoreChange,
    newFailures: [],
    fixed: [],
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function order(x: UrlChange, y: UrlChange): number {
  const rank = (c: UrlChange) => (c.status === 'new' ? 1 : c.status === 'vanished' ? 2 : 0);
  return (
    rank(x) - rank(y) ||
    y.newFailures.length - x.newFailures.length ||
    y.fixed.length - x.fixed.length ||
    (x.scoreChange ?? 0) - (y.scoreChange ?? 0) ||
    (x.url < y.url ? -1 : x.url > y.url ? 1 : 0)
  );
}

/**
 * The verdict over two runs, by the one judge (src/judge/verdict.ts): the pages read in both, their readings compared
 * as --baseline compares them, the gate's flags applied. `history diff`, MCP's history_diff and any face reading a
 * RunDiff judge it here.
 */
export function judgeRunDiff(
  diff: Pick<RunDiff, 'changes' | 'compared' | 'notJudgedOnChecks' | 'laterHasChecks' | 'earlierHasChecks'>,
  gate: ComparisonGate,
): ComparisonVerdict {
  const pages = diff.changes
    .filter((change) => change.status === 'changed')
    .map((change) => {
      const then = { score: change.scoreBefore, label: change.labelBefore, checks: undefined };
      const now = { score: change.scoreAfter, label: change.labelAfter, checks: undefined };
      const pageChange = {
        reading: readingChange(then, now),
        newFailures: change.newFailures,
        fixed: change.fixed,
        checksLost: change.checksLost === true,
        notJudgedOnChecks: false,
      };
      return { url: change.url, change: pageChange, before: then, after: now };
    });
  const { compared, laterHasChecks, earlierHasChecks, notJudgedOnChecks } = diff;
  return judgeComparison(pages, { compared, laterHasChecks, earlierHasChecks, notJudgedOnChecks }, gate);
}

/** Only the snapshots of one project (as the history files it: lower case, no www.), or every one. */
export function inProject(project: string | undefined): (snapshot: Snapshot) => boolean {
  return (snapshot) => project === undefined || (snapshot.project ?? reportProject(snapshot.identity)) === project;
}

/**
 * The runs a run is compared with: the complete runs of its job on its service that read at least one report (a run
 * that read none, such as an empty week, is never a baseline). A named job's runs (`--job NAME`: `{"job":"NAME"}`) are
 * one job whichever command recorded them (`rsapi audit`, `reports create --job`); another selection is its command's.
 */
export function sameJob(run: Pick<RunInfo, 'command' | 'selection' | 'origin'>): RunQuery {
  const command = run.selection.startsWith('{"job":') ? undefined : run.command;
  return { command, selection: run.selection, origin: run.origin, completeOnly: true, readReports: true };
}

/** Runs of the same job as `run` (sameJob), newest first in the order the store recorded them. */
export function comparableRuns(store: HistoryStore, run: RunInfo, options: Pick<RunQuery, 'since' | 'before' | 'limit'> = {}): Promise<RunInfo[]> {
  return store.runs({ ...sameJob(run), ...options });
}

/** What narrows a plain diff: a time, a job (its selection key), a project the runs read. */
export interface DiffScope {
  since?: string;
  /** A job's selection key, as stored (`{"job":"weekly"}`). */
  selection?: string;
  project?: string;
}

/**
 * The two runs a diff compares: both given; one given (against the newest comparable run after it); none (the last two
 * complete runs of the newest complete run's job, narrowed to a job or a project when asked, or with `since` the first
 * of them since then).
 */
export async function runsToCompare(store: HistoryStore, ids: { a?: number; b?: number }, scope: DiffScope = {}): Promise<{ from: RunInfo; to: RunInfo }> {
  const known = async (id: number) => {
    const run = await store.run(id);
    if (!run) throw new HistoryNotFoundError(`no run ${id} in the history`, { hint: '`rsapi history runs` lists the runs' });
    return run;
  };
  if (ids.a !== undefined && ids.b !== undefined) return { from: await known(ids.a), to: await known(ids.b) };
  if (ids.a !== undefined) {
    const from = await known(ids.a);
    // Later as the store recorded them, whatever the clocks of the machines that ran them said.
    const later = (await comparableRuns(store, from)).filter((run) => run.recorded > from.recorded || (run.recorded === from.recorded && run.id > from.id));
    if (later.length === 0) throw tooFew(`no complete run of the same job after run ${from.id}`);
    return { from, to: later[0] as RunInfo };
  }
  const { since, selection, project } = scope;
  const read = project === undefined ? undefined : new Set((await store.snapshotsOfProject(project, {})).map((row) => row.run));
  const of = [project === undefined ? '' : ` reading ${project}`, selection === undefined ? '' : ` of the job ${selection}`].join('');
  // Without a project only the newest and the run before it are wanted: counting the reports of every earlier run (what
  // runs() tells of each) took 45 ms over 100 runs of 10,000 reports.
  const newest = (await store.runs({ completeOnly: true, readReports: true, selection, limit: read ? undefined : 1 })).find((run) => read?.has(run.id) ?? true);
  if (!newest) throw tooFew(`no complete run${of}`);
  const earlier = (await comparableRuns(store, newest, { since, before: newest, limit: since === undefined && !read ? 1 : undefined })).filter(
    (run) => read?.has(run.id) ?? true,
  );
  const from = since === undefined ? earlier[0] : earlier[earlier.length - 1];
  if (!from)
    throw tooFew(`only one complete run (${newest.id}) of \`${newest.command}\` ${newest.selection} on ${newest.origin}${of}${since ? ` since ${since}` : ''}`);
  return { from, to: newest };
}

/**
 * The two runs a diff compares (runsToCompare) and what changed between them, both runs walked side by side in order of
 * identity a page at a time (never held whole); `within`: only the snapshots it keeps are compared (MCP's history_diff
 * narrowed to a project). `keepAfter`: the later run's snapshots kept too (`history diff --assert`), else none.
 */
export async function readRunDiff(
  store: HistoryStore,
  ids: { a?: number; b?: number },
  scope: DiffScope,
  within: (snapshot: Snapshot) => boolean = () => true,
  options: DiffOptions & { keepAfter?: boolean } = {},
): Promise<{ diff: RunDiff; after: Snapshot[] }> {
  const { from, to } = await runsToCompare(store, ids, scope);
  const after: Snapshot[] = [];
  const later = store.eachSnapshotByIdentity(to.id);
  const kept = options.keepAfter ? keeping(later, within, after) : later;
  const compared = await diffInOrder(store.eachSnapshotByIdentity(from.id), kept, within, options);
  return { diff: { from, to, ...compared }, after };
}

/** The snapshots as they come, those `within` also kept in `into`. */
async function* keeping(snapshots: AsyncIterable<Snapshot>, within: (snapshot: Snapshot) => boolean, into: Snapshot[]): AsyncIterable<Snapshot> {
  for await (const snapshot of snapshots) {
    if (within(snapshot)) into.push(snapshot);
    yield snapshot;
  }
}

function tooFew(what: string): HistoryNotFoundError {
  return new HistoryNotFoundError(`fewer than two comparable runs to diff: ${what}`, {
    hint: 'record another run of the same job with --record, or name two runs: `rsapi history diff A B` (`rsapi history runs` lists them)',
  });
}
