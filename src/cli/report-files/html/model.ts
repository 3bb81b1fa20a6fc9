// The figures of the HTML report, worked out from the run record: counts, histogram, projects, lowest scores,
// checks failed most, what changed since the baseline, and the compact rows the page's table is built from.
import type { ApiRecord } from '../../../api/model/record.js';
import { type CheckOutcome, checkName, failedChecks, importanceRank, reportChecks } from '../../../api/model/checks.js';
import { describeErrors, describeValue } from '../../../output/check-lines.js';
import { RESULTS, readReport, type ReportResult } from '../../../api/model/report-model.js';
import { timestampOf } from '../../../api/model/timestamps.js';
import type { CheckCount, CheckStats } from '../../../output/stats/check-stats.js';
import { changeParts, type BaselineComparison, type Standing } from '../baseline.js';
import { jsonForScript, showInvisible } from '../../../output/escape.js';
import { HTML_BUCKETS, htmlBucketOf } from './charts.js';
import { displayUrl, pageHref } from './markup.js';
import { checkStatsOf } from '../run-checks.js';
import { caseFailures, projectOf, type CiRun, type ErrorCase, type ReportCase, type SkippedCase } from '../run-record.js';
import type { HistoryRun, PageHistory } from '../page-history.js';
import { reportIdentity } from '../../../api/model/report-url.js';

/** How many lowest scores, regressions (and check changes), URLs, projects and checks are listed before the rest is cut or folded. */
export const HTML_LIMITS = { lowest: 10, regressions: 100, urls: 200, projects: 100, checks: 12, trendProjects: 8 } as const;

/** A report as the summaries show it. */
export interface ReportView {
  id: string;
  url: string;
  project: string | undefined;
  label: ReportResult | undefined;
  score: number | undefined;
  /** Milliseconds since the epoch, when the service said when it was generated. */
  generated: number | undefined;
  /** Why it fails the run (a gate, an assertion, the baseline); empty when it passes. */
  failures: string[];
  /** The report as the service sent it: its per-check results for the row's detail. */
  record?: ApiRecord;
}

export interface ProjectFigures {
  name: string;
  reports: number;
  average: number | undefined;
  bad: number;
}

export interface RegressionView {
  url: string;
  before: ReportView;
  now: ReportView;
  /** What got worse, in words: `score 92 → 61 (−31)`, `result good → decent`. */
  changes: string[];
}

export interface BaselineView {
  comparison: BaselineComparison;
  /** Set when it compares with the last run of the history, for the page only (no --baseline given). */
  sinceLast?: HistoryRun;
  regressions: RegressionView[];
  /** Per URL, the names of the checks that passed in the baseline and fail now, and of those fixed since. */
  checkChanges: { url: string; newFailures: string[]; fixed: string[] }[];
}

export interface HtmlModel {
  reports: ReportView[];
  counts: Record<ReportResult | 'none', number>;
  errors: ErrorCase[];
  skipped: SkippedCase[];
  /** Reports per bucket of HTML_BUCKETS: 0-9, … 40-48, 49-59, … 90-100. */
  histogram: number[];
  scores: { count: number; mean: number | undefined; median: number | undefined };
  projects: ProjectFigures[];
  lowest: ReportView[];
  /** Undefined when no report carries per-check results; `failed`: the checks some report fails, most failed first. */
  checks: { reports: number; failed: CheckCount[] } | undefined;
  baseline: BaselineView | undefined;
  /** Undefined without a history, or when it holds no earlier run like this one. */
  history: HistoryView | undefined;
}

/** The earlier runs of the history the page shows, and this one. */
export interface HistoryView {
  /** When each earlier run started (ms), oldest first; this run is after them. */
  runs: number[];
  /** This run's projects, most reports first (the first HTML_LIMITS.trendProjects): average score per run, then now. */
  projects: { name: string; averages: (number | null)[] }[];
}

/** `checks`: the run's per-check counts. */
export function buildModel(run: CiRun, checks: CheckStats = checkStatsOf(run)): HtmlModel {
  const reportCases = run.cases.filter((c): c is ReportCase => c.kind === 'report');
  const reports = reportCases.map((c) => ({ ...viewOf(c.record, c.url), failures: caseFailures(c, run), record: c.record }));
  const scored = reports.flatMap((r) => (r.score === undefined ? [] : [r.score]));
  const projects = projectFigures(reports);
  return {
    reports,
    counts: countResults(reports),
    errors: run.cases.filter((c): c is ErrorCase => c.kind === 'error'),
    skipped: run.cases.filter((c): c is SkippedCase => c.kind === 'skipped'),
    histogram: histogramOf(scored),
    scores: { count: scored.length, mean: mean(scored), median: median(scored) },
    projects,
    lowest: reports
      .filter((r) => r.score !== undefined)
      .sort((a, b) => a.score! - b.score! || compareText(a.url, b.url))
      .slice(0, HTML_LIMITS.lowest),
    checks: checkFigures(checks),
    baseline: run.baseline ? baselineView(run.baseline) : sinceLastView(run),
    history: historyView(run, projects),
  };
}

function sinceLastView(run: CiRun): BaselineView | undefined {
  const history = run.history;
  if (!history?.sinceLast) return undefined;
  return { ...baselineView(history.sinceLast), sinceLast: history.runs.at(-1) };
}

function historyView(run: CiRun, projects: ProjectFigures[]): HistoryView | undefined {
  const history = run.history;
  if (!history) return undefined;
  const tenth = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value * 10) / 10);
  return {
    runs: history.runs.map((earlier) => Date.parse(earlier.started)),
    projects: projects.slice(0, HTML_LIMITS.trendProjects).map((project) => ({
      name: project.name,
      averages: [...(history.projects.get(project.name) ?? history.runs.map(() => null)), project.average ?? null].map(tenth),
    })),
  };
}

export function viewOf(record: ApiRecord, url: string): ReportView {
  const { label, score } = readReport(record);
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : '';
  return { id, url, project: projectOf(record), label, score, generated: timestampOf(record.generated_at), failures: [] };
}

/** A standing of a comparison as the summaries show it (as viewOf shows the record it was read from). */
function standingView(standing: Standing): ReportView {
  const { id, url, project, result: label, score, generated } = standing;
  return { id, url, project, label, score, generated, failures: [] };
}

function countResults(reports: ReportView[]): HtmlModel['counts'] {
  const counts = { good: 0, decent: 0, bad: 0, none: 0 };
  for (const report of reports) counts[report.label ?? 'none']++;
  return counts;
}

function histogramOf(scores: number[]): number[] {
  const buckets = HTML_BUCKETS.map(() => 0);
  for (const score of scores) buckets[htmlBucketOf(score)]!++;
  return buckets;
}

function mean(values: number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Most reports first. */
function projectFigures(reports: ReportView[]): ProjectFigures[] {
  const groups = new Map<string, { reports: number; bad: number; scores: number[] }>();
  for (const report of reports) {
    const name = report.project ?? '';
    const group = groups.get(name) ?? { reports: 0, bad: 0, scores: [] };
    group.reports++;
    if (report.label === 'bad') group.bad++;
    if (report.score !== undefined) group.scores.push(report.score);
    groups.set(name, group);
  }
  return [...groups]
    .map(([name, group]) => ({ name, reports: group.reports, average: mean(group.scores), bad: group.bad }))
    .sort((a, b) => b.reports - a.reports || compareText(a.name, b.name));
}

/** The checks failed by some report, counted over the reports that carry checks (as stats --checks counts them). */
function checkFigures(stats: CheckStats): HtmlModel['checks'] {
  if (stats.withChecks === 0) return undefined;
  const failed = stats.checks
    .filter((c) => c.failed > 0)
    .sort((a, b) => b.failed - a.failed || importanceRank(a.importance) - importanceRank(b.importance) || compareText(a.check, b.check));
  return { reports: stats.withChecks, failed };
}

function baselineView(comparison: BaselineComparison): BaselineView {
  const regressions = comparison.regressions.map((regression) => {
    const [before, now] = [standingView(regression.before), standingView(regression.now)];
    return { url: regression.url, before, now, changes: changeParts(regression, '−') };
  });
  const checkChanges = comparison.checkChanges.map((change) => ({
    url: change.url,
    newFailures: change.newFailures.map(checkName),
    fixed: change.fixed.map(checkName),
  }));
  // In the comparison's order: most new failures first, then by URL.
  return { comparison, regressions, checkChanges };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One table row as the page's script reads it, kept small for 50,000 reports (a file under 10 MB):
 * [id, url shown, link (0: none, 1: the URL itself, 2: the URL shown after `https://`, or the href), project index,
 * result index (-1: none), score, generated ms, failing (1: it fails the run), why (indexes into `texts`), the failed
 * checks (indexes into `failed`; 0: no per-check results), checks passed, checks in all, and with a history its trend].
 */
export type RowData = [string, string, 0 | 1 | 2 | string, number, number, number | null, number | null, 0 | 1, number[], number[] | 0, number, number, Trend?];

/** A row's scores in the history's earlier runs, oldest first, then now (whole points; null: none then); 0: no earlier one. */
export type Trend = (number | null)[] | 0;

export interface TableData {
  projects: string[];
  results: readonly string[];
  /** The checks rows name: [id, name in words, importance]. */
  checks: [string, string, string][];
  /** Every text of the rows' details once (a check's value, what was wrong, why a report fails). */
  texts: string[];
  /** Every failed check the rows name, once: [its index into `checks`, its value's and what was wrong's indexes into `texts`]. */
  failed: [number, number, number][];
  /** The service's origin: the id links to `{service}/reports/{id}`, the report's page there. */
  service?: string;
  /** With a history: how many earlier runs each row's trend spans (the table gets a trend column). */
  trendRuns?: number;
  rows: RowData[];
}

/** Every report for the page's table: text shown with its invisible characters escaped, as the rest of the page. */
export function tableData(reports: ReportView[], service?: string, history?: PageHistory): TableData {
  const rows: RowData[] = [];
  return { ...eachRow(reports, (row) => rows.push(row), service, history), rows };
}

/**
 * The table as the page holds it: jsonForScript(tableData(...)), the same text, but each row written out as it is
 * made, so that the rows of 50,000 reports are never held at once (25 MB) beside their JSON.
 */
export function tableJson(reports: ReportView[], service?: string, history?: PageHistory): string {
  const rows: string[] = [];
  const rest = jsonForScript(eachRow(reports, (row) => rows.push(jsonForScript(row)), service, history));
  // `rows` is the object's last key, as tableData puts it.
  return `${rest.slice(0, -1)},"rows":[${rows.join(',')}]}`;
}

/** Each report's row, given to `take` in order, then what the rows name (projects, checks, texts): TableData but its rows. */
function eachRow(reports: ReportView[], take: (row: RowData) => void, service?: string, history?: PageHistory): Omit<TableData, 'rows'> {
  const projects: string[] = [];
  const checks: TableData['checks'] = [];
  const checkIndex = new Map<string, number>();
  const texts: string[] = [];
  const shown = (text: string) => showInvisible(text, { keepNewlines: false });
  // Each look-up below makes nothing when the key is known (50,000 rows meet the same few checks, texts and projects).
  const project = placeIn(projects);
  const text = placeIn(texts);
  const check = ({ id, importance }: CheckOutcome) => {
    let index = checkIndex.get(id);
    if (index === undefined) {
      index = checks.push([shown(id), shown(checkName(id)), importance ?? '']) - 1;
      checkIndex.set(id, index);
    }
    return index;
  };
  // A failed check's value and what was wrong are described once an object: records alike share their entries (checks.ts).
  const described = new Map<unknown, number>();
  const describedText = (of: unknown, describe: (of: unknown) => string) => {
    if (typeof of !== 'object' || of === null) return text(describe(of));
    let index = described.get(of);
    if (index === undefined) {
      index = text(describe(of));
      described.set(of, index);
    }
    return index;
  };
  // Each failure (check, value, wrong) once, by its three indexes.
  const failed: TableData['failed'] = [];
  const failedIndex = new Map<number, Map<number, Map<number, number>>>();
  const failure = (checkAt: number, value: number, wrong: number) => {
    let byValue = failedIndex.get(checkAt);
    if (byValue === undefined) {
      byValue = new Map();
      failedIndex.set(checkAt, byValue);
    }
    let byWrong = byValue.get(value);
    if (byWrong === undefined) {
      byWrong = new Map();
      byValue.set(value, byWrong);
    }
    let index = byWrong.get(wrong);
    if (index === undefined) {
      index = failed.push([checkAt, value, wrong]) - 1;
      byWrong.set(wrong, index);
    }
    return index;
  };
  for (const report of reports) {
    const index = project(shown(report.project ?? ''));
    const urlText = shown(displayUrl(report.url));
    const href = pageHref(report.url);
    const link = href === undefined ? 0 : href === urlText ? 1 : href === `https://${urlText}` ? 2 : href;
    const result = report.label === undefined ? -1 : RESULTS.indexOf(report.label);
    const outcomes = report.record === undefined ? undefined : reportChecks(report.record);
    const detail =
      outcomes === undefined
        ? 0
        : failedChecks(outcomes).map((outcome) =>
            failure(check(outcome), describedText(outcome.value, describeValue), describedText(outcome.errors, describeErrors)),
          );
    const passed = outcomes?.filter((check) => check.passed).length ?? 0;
    const why = report.failures.map((failure) => text(shown(failure)));
    const row: RowData = [
      shown(report.id),
      urlText,
      link,
      index,
      result,
      report.score ?? null,
      report.generated ?? null,
      report.failures.length > 0 ? 1 : 0,
      why,
      detail,
      passed,
      outcomes?.length ?? 0,
    ];
    if (history) row.push(trendOf(history, report));
    take(row);
  }
  const trend = history === undefined ? {} : { trendRuns: history.runs.length };
  return { projects, results: RESULTS, checks, texts, failed, ...(service === undefined ? {} : { service }), ...trend };
}

/** A look-up of a text's place in `list`, added at its end when new. */
function placeIn(list: string[]): (text: string) => number {
  const places = new Map<string, number>();
  return (text) => {
    let place = places.get(text);
    if (place === undefined) {
      place = list.push(text) - 1;
      places.set(text, place);
    }
    return place;
  };
}

function trendOf(history: PageHistory, report: ReportView): Trend {
  const earlier = history.scores.get(reportIdentity(report.url));
  if (!earlier || earlier.every((score) => score === null)) return 0;
  const whole = (score: number | null | undefined) => (score === null || score === undefined ? null : Math.round(score));
  return [...earlier, report.score].map(whole);
}
