// `--baseline FILE` and `--max-drop N`: an earlier json or ndjson output of rsapi, compared URL by URL with this run.
// Both sides are read through the record model: a file written from phpRank's json (numeric `result`) compares with a
// seed-dialect run, and the other way round, by label and score.
import { plural } from '../../plural.js';
import type { ApiRecord } from '../../api/model/record.js';
import { isObject, toNumber } from '../../api/model/record.js';
import { UsageError } from '../runtime/errors.js';
import { formatScore, readReport, RESULT_RANK, RESULTS, type ReportResult } from '../../api/model/report-model.js';
import { readUserFile } from '../runtime/files.js';
import { durationMs, MAX_RUN_ID, runIdOf } from '../flags/history-values.js';
import { cappedLines } from '../../output/capped-list.js';
import { runAnnotation, urlAnnotations } from '../verdicts/named-failures.js';
import { reportIdentity } from '../../api/model/report-url.js';
import { timestampOf } from '../../api/model/timestamps.js';
import { regressed } from '../../api/model/regression.js';
import { comparePage } from '../../judge/compare.js';
import { compactReading, recordReading } from '../../judge/readings.js';
import type { PageReading } from '../../judge/compare.js';
import { judgeComparison, type ComparedPage, type ComparisonVerdict } from '../../judge/verdict.js';
import { countChanges, describeChecks, recordsHaveChecks, type CheckChange } from './check-changes.js';

/**
 * What is compared of a report, and what the files show of it: small, for a baseline of 50,000 pages is held for the
 * whole run (its checks are shared between pages alike, its record not kept).
 */
export interface Standing {
  url: string;
  score?: number;
  result?: ReportResult;
  /** The report's id as text ('' when it has none), its project, when it was generated (ms): the HTML page's columns. */
  id: string;
  project?: string;
  generated?: number;
  /** What the judge compares: its score, result and checks, most important first. */
  reading: PageReading;
  /** This run's report, on this run's side of a comparison (a baseline's standings keep none). */
  record?: ApiRecord;
}

export interface Baseline {
  path: string;
  /** By report identity (reportIdentity); the newest report of a URL when the file holds several. */
  byUrl: Map<string, Standing>;
  /** Whether its reports carry per-check results: without, only scores and results are compared. */
  hasChecks?: boolean;
  /** The history run it was read from (--baseline last, run:ID, since:D). */
  run?: number;
  /**
   * Pages the baseline run holds no reading of (their audit failed that week), each with its newest reading in an
   * earlier run of the job (`run`): a page of this run missing from byUrl is compared with it, never taken as new. Never
   * counted as vanished.
   */
  earlier?: Map<string, EarlierStanding>;
  /**
   * The run's pages as the --html page's history reads a run (page-history.ts: each URL's score and project, the newer
   * of a URL read twice), in its order: kept by readRunBaseline, so that the history does not read this run again.
   */
  scores?: readonly RunScore[];
}

/** A page's score and project in one recorded run, as a page's history shows them. */
export interface RunScore {
  identity: string;
  score: number | undefined;
  project: string | undefined;
}

/** A page's newest reading in a run before the baseline run, which could not audit it. */
export type EarlierStanding = Standing & { run: number };

/** A page compared with an earlier run's reading, because the baseline run (`baselineRun`) could not audit it. */
export interface ComparedEarlier {
  url: string;
  /** The run whose reading it was compared with. */
  run: number;
  baselineRun: number | undefined;
}

export interface Regression {
  url: string;
  before: Standing;
  now: Standing;
  /** Points lost (before - now), when both have a score. */
  drop?: number;
  worseResult: boolean;
  /** A score is gone where the baseline had one. */
  lostScore: boolean;
}

export interface BaselineComparison {
  path: string;
  maxDrop?: number;
  /** URLs of this run that the baseline has too. */
  compared: number;
  /** Worst first. Without --max-drop: every fall in score or result, listed but not failed. */
  regressions: Regression[];
  newUrls: string[];
  vanished: string[];
  /** Pages the baseline run could not audit, compared with their reading in an earlier run of the job instead. */
  comparedEarlier: ComparedEarlier[];
  /** With --max-drop, or --fail-on-new-failures (also when it compared nothing: see empty). */
  failed: boolean;
  /** A gate (--max-drop, --fail-on-new-failures) that compared no report, without --allow-empty: it fails. */
  empty: boolean;
  /** Per URL, the checks newly failing or fixed since the baseline (both sides with per-check results). */
  checkChanges: CheckChange[];
  failOnNewFailures: boolean;
  /** The baseline has per-check results. */
  baselineHasChecks: boolean;
  /** --fail-on-new-failures, and none of this run's reports carried per-check results: it cannot be judged (exit 8). */
  checksUnjudged: boolean;
  /**
   * URLs whose report carried per-check results in the baseline and carries none now, while others of the run do: with
   * --fail-on-new-failures each fails, as the check gate fails a report with none (nothing can show it passes).
   */
  lostChecks: string[];
  /** The judge's verdict (src/judge/verdict.ts), which the fields above word: every face reads this one. */
  verdict: ComparisonVerdict;
}

/** `--baseline last|run:ID|since:D`: a run recorded in the history rather than a file. */
export type HistoryBaselineSpec = { kind: 'last' } | { kind: 'run'; id: number } | { kind: 'since'; ms: number; text: string };

/** The history run a --baseline value names, or undefined when it names a file. A bad run id or duration: exit 2. */
export function historyBaselineSpec(value: string): HistoryBaselineSpec | undefined {
  if (value === 'last') return { kind: 'last' };
  const run = /^run:(.*)$/.exec(value);
  if (run) {
    const id = runIdOf(run[1] as string);
    if (id === undefined) throw new UsageError(`--baseline ${value}: a run id is a whole number from 1 to ${MAX_RUN_ID} (\`rsapi history runs\` lists them)`);
    return { kind: 'run', id };
  }
  const since = /^since:(.*)$/.exec(value);
  if (since) {
    const ms = durationMs(since[1] as string);
    if (ms === undefined) throw new UsageError(`--baseline ${value}: give a duration such as since:7d, since:12h or since:2w`);
    return { kind: 'since', ms, text: since[1] as string };
  }
  return undefined;
}

/** Reads and checks the file before any request: a usage error (exit 2) names what is wrong with it. */
export async function loadBaseline(path: string): Promise<Baseline> {
  const text = await readUserFile(path, 'baseline file');
  const records = parseRecords(text, path);
  const byUrl = newestByUrl(records);
  if (records.length > 0 && byUrl.size === 0) throw new UsageError(`the baseline file ${path} holds no report with a url`, { hint: BASELINE_HINT });
  return { path, byUrl, hasChecks: recordsHaveChecks(records) };
}

const BASELINE_HINT = 'give a file written earlier by rsapi with -o json or -o ndjson (reports list, show or create)';

/** A JSON array, one JSON object, a `{ "data": [...] }` envelope, or ndjson (one object a line). */
function parseRecords(text: string, path: string): ApiRecord[] {
  if (text.trim() === '') throw new UsageError(`the baseline file ${path} is empty`, { hint: BASELINE_HINT });
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    return parseNdjson(text, path);
  }
  if (Array.isArray(whole)) return whole.filter(isObject);
  if (isObject(whole) && Array.isArray(whole.data)) return whole.data.filter(isObject);
  if (isObject(whole) && isObject(whole.data)) return [whole.data];
  if (isObject(whole)) return [whole];
  throw new UsageError(`the baseline file ${path} is neither json nor ndjson of reports`, { hint: BASELINE_HINT });
}

function parseNdjson(text: string, path: string): ApiRecord[] {
  const records: ApiRecord[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`the baseline file ${path} is neither json nor ndjson: line ${index + 1} is not JSON`, { hint: BASELINE_HINT });
    }
    if (!isObject(value)) throw new UsageError(`the baseline file ${path}: line ${index + 1} is not a report object`, { hint: BASELINE_HINT });
    records.push(value);
  }
  return records;
}

/** One standing per report identity: the newest report (generated_at, then id) when there are several. */
export function newestByUrl(records: Iterable<ApiRecord>): Map<string, Standing> {
  const newest = new NewestStandings();
  for (const record of records) newest.add(record);
  return newest.byUrl;
}

/** The newest report of each report identity (generated_at, then id), as newestByUrl chooses it: the record itself. */
function newestRecords(records: Iterable<ApiRecord>): Map<string, ApiRecord> {
  const newest = new Map<string, ApiRecord>();
  for (const record of records) {
    const key = recordIdentity(record);
    if (key === undefined) continue;
    const held = newest.get(key);
    if (held === undefined || isNewer(record, { generatedAt: held.generated_at, id: held.id })) newest.set(key, record);
  }
  return newest;
}

/** A record's report identity, what the newest of several is chosen by; undefined for a record with no URL. */
function recordIdentity(record: ApiRecord): string | undefined {
  return typeof record.url !== 'string' || record.url.trim() === '' ? undefined : reportIdentity(record.url);
}

/**
 * The newest standing of each report identity, fed one record at a time (a history run read row by row): the record's
 * generated_at and id are kept beside each for the next to be compared with, not the record.
 */
export class NewestStandings {
  private readonly held = new Map<string, { generatedAt: unknown; id: unknown }>();
  readonly byUrl = new Map<string, Standing>();
  /** Whether some record fed carried per-check results. */
  hasChecks = false;

  add(record: ApiRecord): void {
    const key = recordIdentity(record);
    if (key === undefined) return;
    this.addStanding(
      key,
      record,
      () => standingOf(record, false),
      () => record.results !== undefined,
    );
  }

  /**
   * A standing made by the caller (add's of a record; a history run's snapshot's, page-history.ts) under `key`, its
   * report identity, when newer (`at`: its generated_at and id, as a record has them) than the one held. `hasChecks`
   * is asked only until one has.
   */
  addStanding(key: string, at: { generated_at?: unknown; id?: unknown }, standing: () => Standing, hasChecks: () => boolean): void {
    const held = this.held.get(key);
    if (held && !isNewer(at, held)) return;
    this.held.set(key, { generatedAt: at.generated_at, id: at.id });
    this.byUrl.set(key, standing());
    this.hasChecks ||= hasChecks();
  }
}

function standingOf(record: ApiRecord, keepRecord: boolean): Standing {
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : '';
  const parts = { url: String(record.url), id, project: record.project, generatedAt: record.generated_at };
  const standing = standingOfParts({ ...parts, result: readReport(record).label, reading: compactReading(recordReading(record)) });
  if (keepRecord) standing.record = record;
  return standing;
}

/**
 * A standing of its parts (a record's, standingOf; a history snapshot's, page-history.ts): its score the reading's,
 * its project when it has one, when it was generated when that reads as a time.
 */
export function standingOfParts(parts: {
  url: string;
  id: string;
  project: unknown;
  generatedAt: unknown;
  result: ReportResult | undefined;
  reading: PageReading;
}): Standing {
  const { reading } = parts;
  const standing: Standing = { url: parts.url, score: reading.score, result: parts.result, id: parts.id, reading };
  if (typeof parts.project === 'string' && parts.project !== '') standing.project = parts.project;
  const generated = timestampOf(parts.generatedAt);
  if (generated !== undefined) standing.generated = generated;
  return standing;
}

function rankOf(result: ReportResult | undefined): number | undefined {
  return result === undefined ? undefined : RESULT_RANK.get(result);
}

function isNewer(a: { generated_at?: unknown; id?: unknown }, b: { generatedAt: unknown; id: unknown }): boolean {
  const [ta, tb] = [timestampOf(a.generated_at), timestampOf(b.generatedAt)];
  if (ta !== undefined && tb !== undefined && ta !== tb) return ta > tb;
  return (toNumber(a.id) ?? -Infinity) >= (toNumber(b.id) ?? -Infinity);
}

export interface CompareOptions {
  maxDrop?: number;
  /** Baseline URLs outside this run's scope (another shard's) are not counted as vanished. */
  inScope?: (url: string) => boolean;
  /** --fail-on-new-failures: a check that passed in the baseline and fails now fails the comparison. */
  failOnNewFailures?: boolean;
  /** --allow-empty: a gate that compared no report passes (by default it fails: a gate over nothing proves nothing). */
  allowEmpty?: boolean;
}

export function compareWithBaseline(baseline: Baseline, records: Iterable<ApiRecord>, options: CompareOptions = {}): BaselineComparison {
  // Each page's standing is made as it is compared, and kept only where a list below names the page: a run of 50,000
  // pages held one a page, with its comparison, until the end (80 MB at once).
  const current = newestRecords(records);
  const regressions: Regression[] = [];
  const newUrls: string[] = [];
  const checkChanges: CheckChange[] = [];
  const lostChecks: string[] = [];
  // The pages the verdict lists (judgeComparison: those unchanged may be left out), and the facts of them all.
  const pages: ComparedPage[] = [];
  const facts = { compared: 0, laterHasChecks: recordsHaveChecks(current.values()), earlierHasChecks: false, notJudgedOnChecks: [] as string[] };
  const comparedEarlier: ComparedEarlier[] = [];
  const gate = { maxDrop: options.maxDrop, failOnNewFailures: options.failOnNewFailures, allowEmpty: options.allowEmpty };
  for (const [key, record] of current) {
    const earlier = baseline.byUrl.has(key) ? undefined : baseline.earlier?.get(key);
    const before = baseline.byUrl.get(key) ?? earlier;
    if (!before) {
      newUrls.push(String(record.url));
      continue;
    }
    const now = standingOf(record, true);
    if (earlier) comparedEarlier.push({ url: now.url, run: earlier.run, baselineRun: baseline.run });
    // The one comparison (src/judge): the score and result by the regression rule, the checks new, fixed and lost.
    const [readThen, readNow] = [before.reading, now.reading];
    const change = comparePage(readThen, readNow);
    facts.compared++;
    facts.earlierHasChecks ||= readThen.checks !== undefined;
    if (change.notJudgedOnChecks) facts.notJudgedOnChecks.push(now.url);
    const worse = regressed(change.reading, gate.maxDrop ?? 0);
    if (change.newFailures.length > 0 || worse) pages.push({ url: now.url, change, before: readThen, after: readNow });
    if (change.checksLost) lostChecks.push(now.url);
    else if (change.newFailures.length > 0 || change.fixed.length > 0) {
      checkChanges.push({ url: now.url, record: now.record!, newFailures: change.newFailures, fixed: change.fixed });
    }
    if (worse) regressions.push({ url: now.url, before, now, ...change.reading });
  }
  const vanished = [...baseline.byUrl]
    .filter(([key, standing]) => !current.has(key) && (options.inScope?.(standing.url) ?? true))
    .map(([, standing]) => standing.url);
  regressions.sort(worstFirst);
  checkChanges.sort((a, b) => b.newFailures.length - a.newFailures.length || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const verdict = judgeComparison(pages, facts, gate);
  return {
    path: baseline.path,
    maxDrop: options.maxDrop,
    compared: verdict.compared,
    regressions,
    newUrls: newUrls.sort(),
    vanished: vanished.sort(),
    comparedEarlier: comparedEarlier.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
    failed: verdict.failed,
    empty: verdict.empty,
    checkChanges,
    failOnNewFailures: options.failOnNewFailures === true,
    baselineHasChecks: baseline.hasChecks === true,
    checksUnjudged: verdict.checksUnjudged,
    lostChecks: verdict.checksUnjudged ? [] : lostChecks.sort(),
    verdict,
  };
}

function worstFirst(a: Regression, b: Regression): number {
  const severity = (r: Regression) => (r.lostScore ? Infinity : (r.drop ?? 0));
  const rankDelta = (r: Regression) => (rankOf(r.now.result) ?? RESULTS.length) - (rankOf(r.before.result) ?? 0);
  return severity(b) - severity(a) || rankDelta(b) - rankDelta(a) || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
}

/** `score 92 → 61 (-31), result good → decent` */
export function describeChange(regression: Regression): string {
  return changeParts(regression).join(', ');
}

/**
 * What got worse, one part a change, from the comparison's own flags: `score 92 → 61 (-31)`, `result good → decent`.
 * `minus` signs a fall (the HTML page writes a real minus sign).
 */
export function changeParts(regression: Regression, minus = '-'): string[] {
  const parts: string[] = [];
  const { before, now } = regression;
  if (regression.lostScore) parts.push(`score ${shownScore(before.score)} → none`);
  else if (regression.drop !== undefined && regression.drop !== 0)
    parts.push(`score ${shownScore(before.score)} → ${shownScore(now.score)} (${signed(-regression.drop, minus)})`);
  if (regression.worseResult) parts.push(`result ${before.result} → ${now.result ?? 'none'}`);
  return parts;
}

function shownScore(score: number | undefined): string {
  return score === undefined ? 'none' : formatScore(score);
}

/** `+3`, `-31`, or `0` for a change that rounds to nothing; rounded as a positive score is, whatever the sign. */
function signed(value: number, minus: string): string {
  const shown = formatScore(Math.abs(value));
  return shown === '0' ? shown : `${value < 0 ? minus : '+'}${shown}`;
}

/** How many regressed, new and vanished URLs stderr names, each list then saying how many more there are. */
export const LISTED_ON_STDERR = 20;

/**
 * The lines on stderr: the verdict (how many regressed, how many URLs are new or gone), then every regressed URL with
 * its change, worst first, and the new and vanished URLs: a CI log names each, up to LISTED_ON_STDERR of a kind.
 */
export function baselineReport(comparison: BaselineComparison): string[] {
  return [
    baselineVerdict(comparison),
    ...listed(comparison.regressions, 'regressed', (r) => `${r.url} ${describeChange(r)}`),
    ...listed(
      comparison.checkChanges.filter((c) => c.newFailures.length > 0),
      'new failures',
      (c) => `${c.url}: ${describeChecks(c.newFailures)}`,
    ),
    ...listed(
      comparison.checkChanges.filter((c) => c.fixed.length > 0),
      'fixed',
      (c) => `${c.url}: ${describeChecks(c.fixed)}`,
    ),
    ...listed(comparison.lostChecks, 'no per-check results now', (url) => url),
    ...listed(comparison.comparedEarlier, 'compared earlier', comparedEarlierText),
    ...listed(comparison.newUrls, 'new', (url) => url),
    ...listed(comparison.vanished, 'vanished', (url) => url),
  ];
}

/** `example.com/a with run 3's reading: it could not be audited in run 4`. */
export function comparedEarlierText({ url, run, baselineRun }: ComparedEarlier): string {
  return `${url} with run ${run}'s reading: it could not be audited in ${baselineRun === undefined ? 'the baseline run' : `run ${baselineRun}`}`;
}

/**
 * With GITHUB_ACTIONS=true, a failed comparison as workflow annotations: a URL each that fell (with --max-drop) or
 * newly fails a check (with --fail-on-new-failures), or one for the run when none does (it compared nothing).
 */
export function baselineAnnotations(comparison: BaselineComparison, reportPage: (url: string) => string | undefined = () => undefined): string[] {
  if (!comparison.failed) return [];
  // Each page's annotation links to its report on the service, where it has one (phpRank's web page of the report).
  const linked = (url: string, text: string) => {
    const page = reportPage(url);
    return { url, text: page === undefined ? text : `${text}; report: ${page}` };
  };
  const fell =
    comparison.maxDrop === undefined ? [] : comparison.regressions.map((r) => linked(r.url, `${describeChange(r)} (--max-drop ${comparison.maxDrop})`));
  // The verdict's pages newly failing, a page that came back with no checks among them (each check it passed).
  const newly =
    comparison.failOnNewFailures && !comparison.checksUnjudged
      ? comparison.verdict.newlyFailing.map(({ url, change }) =>
          linked(
            url,
            change.checksLost
              ? `no per-check results now: ${describeChecks(change.newFailures)} passed before (--fail-on-new-failures)`
              : `newly failing: ${describeChecks(change.newFailures)} (--fail-on-new-failures)`,
          ),
        )
      : [];
  const items = [...fell, ...newly];
  return items.length > 0 ? urlAnnotations(items) : [runAnnotation(baselineVerdict(comparison))];
}

/**
 * The verdict line. A gate's line leads with what it was judged on, and when it failed with only what failed; what
 * did not fail (a gate that passed, falls without --max-drop, fixed checks, new and vanished pages) follows `besides:`.
 */
export function baselineVerdict(comparison: BaselineComparison): string {
  const { regressions, compared, maxDrop, path } = comparison;
  const of = `${regressions.length} of ${plural(compared, 'report')}`;
  const judged = `rsapi: baseline ${comparison.failed ? 'failed' : 'passed'}`;
  if (comparison.empty) {
    const news = comparison.newUrls.length > 0 ? ` (${comparison.newUrls.length} new)` : '';
    return `${judged}: no report of this run is in ${path}${news}: a gate over nothing proves nothing (--allow-empty lets it pass)`;
  }
  const checks = comparison.baselineHasChecks ? countChanges(comparison.checkChanges) : undefined;
  const lost = comparison.lostChecks.length > 0 ? ` and ${plural(comparison.lostChecks.length, 'report')} with no per-check results now` : '';
  const newlyFailing =
    checks && `${plural(checks.newFailures, 'check')} newly failing${checks.newFailures > 0 ? ` on ${plural(checks.urlsWithNewFailures, 'URL')}` : ''}`;
  if (maxDrop === undefined && !comparison.failOnNewFailures) return notGateVerdict(comparison, of);
  const gates: { text: string; failed: boolean }[] = [];
  if (maxDrop !== undefined)
    gates.push({ text: `${of} fell by more than ${plural(maxDrop, 'point')} or got a worse result (--max-drop ${maxDrop})`, failed: regressions.length > 0 });
  if (comparison.failOnNewFailures && checks)
    gates.push({ text: `${newlyFailing} since ${path}${lost} (--fail-on-new-failures)`, failed: checks.newFailures > 0 || lost !== '' });
  const besides: string[] = [];
  if (maxDrop === undefined) besides.push(`${of} scored lower or got a worse result (not failed without --max-drop)`);
  if (checks && !comparison.failOnNewFailures) besides.push(`${newlyFailing}${lost} (not failed without --fail-on-new-failures)`);
  if (checks) besides.push(`${checks.fixed} fixed`);
  if (comparison.newUrls.length + comparison.vanished.length > 0)
    besides.push(`${plural(comparison.newUrls.length, 'new page')}, ${comparison.vanished.length} vanished`);
  const failing = gates.filter((gate) => gate.failed);
  const lead = comparison.failed && failing.length > 0 ? failing : gates;
  const rest = [...gates.filter((gate) => !lead.includes(gate)).map((gate) => gate.text), ...besides];
  // --fail-on-new-failures against a baseline without checks judges nothing: the listed figures are the whole line.
  const head = lead.length > 0 ? lead.map((gate) => gate.text) : rest.splice(0, 1);
  return `${judged}: ${head.join('; ')}${rest.length > 0 ? `; besides: ${rest.join(', ')}` : ''}`;
}

/** No gate flag: the falls, the new and vanished pages and the checks, each listed. */
function notGateVerdict(comparison: BaselineComparison, of: string): string {
  const others =
    comparison.newUrls.length + comparison.vanished.length > 0
      ? `; ${comparison.newUrls.length} new, ${comparison.vanished.length} vanished (listed, not failed)`
      : '';
  return `rsapi: baseline: ${of} scored lower or got a worse result than in ${comparison.path} (not a gate without --max-drop)${others}${checksVerdict(comparison)}`;
}

/** `; checks: 3 newly failing on 2 URLs, 1 fixed (listed, ...)`: nothing when neither side has checks. */
function checksVerdict(comparison: BaselineComparison): string {
  if (!comparison.baselineHasChecks) return '';
  const { newFailures, fixed, urlsWithNewFailures } = countChanges(comparison.checkChanges);
  const on = newFailures > 0 ? ` on ${plural(urlsWithNewFailures, 'URL')}` : '';
  const lost = comparison.lostChecks.length;
  const without = lost > 0 ? `, ${plural(lost, 'report')} with no per-check results now` : '';
  return `; checks: ${newFailures} newly failing${on}, ${fixed} fixed${without} (listed, not failed without --fail-on-new-failures)`;
}

function listed<T>(items: readonly T[], kind: string, describe: (item: T) => string): string[] {
  return cappedLines(
    items,
    LISTED_ON_STDERR,
    (item) => `rsapi:   ${kind}: ${describe(item)}`,
    (rest) => `rsapi:   ${rest} ${kind}`,
  );
}
