// The figures of the HTML report, worked out from the run record: counts, histogram, projects, lowest scores,
// checks failed most, what changed since the baseline, and the compact rows the page's table is built from.
import type { ApiRecord } from '../../api/decode.js';
import { failedChecks, checkName, reportChecks, type Importance } from '../../api/checks.js';
import { RESULTS, readReport, type ReportResult } from '../../api/report-model.js';
import { newestByUrl, type Baseline, type BaselineComparison } from './baseline.js';
import { showInvisible } from './escape.js';
import { pageHref } from './html-markup.js';
import { projectOf, type CiRun, type ErrorCase, type ReportCase, type SkippedCase } from './run-record.js';

/** How many lowest scores, regressions, new check failures, new and vanished URLs and projects are listed. */
export const HTML_LIMITS = { lowest: 10, regressions: 100, urls: 200, projects: 100 } as const;

/** A report as the summaries show it. */
export interface ReportView {
  id: string;
  url: string;
  project: string | undefined;
  label: ReportResult | undefined;
  score: number | undefined;
  /** Milliseconds since the epoch, when the service said when it was generated. */
  generated: number | undefined;
}

export interface ProjectFigures {
  name: string;
  reports: number;
  average: number | undefined;
  bad: number;
}

export interface CheckFigures {
  id: string;
  name: string;
  importance: Importance | undefined;
  failed: number;
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
  regressions: RegressionView[];
  /** URLs whose checks failed now but passed in the baseline, with those checks' names. */
  newCheckFailures: { url: string; checks: string[] }[];
}

export interface HtmlModel {
  reports: ReportView[];
  counts: Record<ReportResult | 'none', number>;
  errors: ErrorCase[];
  skipped: SkippedCase[];
  /** Reports per 10-point bucket: 0-9, 10-19, … 90-100. */
  histogram: number[];
  scores: { count: number; mean: number | undefined; median: number | undefined };
  projects: ProjectFigures[];
  lowest: ReportView[];
  /** Undefined when no report carries per-check results. */
  checks: { reports: number; failed: CheckFigures[] } | undefined;
  baseline: BaselineView | undefined;
}

export function buildModel(run: CiRun, baseline: Baseline | undefined): HtmlModel {
  const reportCases = run.cases.filter((c): c is ReportCase => c.kind === 'report');
  const reports = reportCases.map((c) => viewOf(c.record, c.url));
  const scored = reports.flatMap((r) => (r.score === undefined ? [] : [r.score]));
  return {
    reports,
    counts: countResults(reports),
    errors: run.cases.filter((c): c is ErrorCase => c.kind === 'error'),
    skipped: run.cases.filter((c): c is SkippedCase => c.kind === 'skipped'),
    histogram: histogramOf(scored),
    scores: { count: scored.length, mean: mean(scored), median: median(scored) },
    projects: projectFigures(reports),
    lowest: reports
      .filter((r) => r.score !== undefined)
      .sort((a, b) => a.score! - b.score! || compareText(a.url, b.url))
      .slice(0, HTML_LIMITS.lowest),
    checks: checkFigures(reportCases.map((c) => c.record)),
    baseline: run.baseline && baseline ? baselineView(run.baseline, baseline, reportCases) : undefined,
  };
}

export function viewOf(record: ApiRecord, url: string): ReportView {
  const { label, score } = readReport(record);
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : '';
  return { id, url, project: projectOf(record), label, score, generated: timestampOf(record.generated_at) };
}

/** Laravel's `2026-11-20T09:14:03.000000Z`, or `2026-11-20 09:14:03` (taken as UTC). */
function timestampOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function countResults(reports: ReportView[]): HtmlModel['counts'] {
  const counts = { good: 0, decent: 0, bad: 0, none: 0 };
  for (const report of reports) counts[report.label ?? 'none']++;
  return counts;
}

function histogramOf(scores: number[]): number[] {
  const buckets = Array.from({ length: 10 }, () => 0);
  for (const score of scores) buckets[Math.min(9, Math.max(0, Math.floor(score / 10)))]!++;
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

/** Failed checks counted over the reports that carry checks; most failed first. */
function checkFigures(records: ApiRecord[]): HtmlModel['checks'] {
  const failed = new Map<string, CheckFigures>();
  let withChecks = 0;
  for (const record of records) {
    const outcomes = reportChecks(record);
    if (outcomes === undefined) continue;
    withChecks++;
    for (const check of failedChecks(outcomes)) {
      const figures = failed.get(check.id) ?? { id: check.id, name: checkName(check.id), importance: check.importance, failed: 0 };
      figures.failed++;
      failed.set(check.id, figures);
    }
  }
  if (withChecks === 0) return undefined;
  const rank = { high: 0, medium: 1, low: 2 } as const;
  const order = (c: CheckFigures) => (c.importance === undefined ? 3 : rank[c.importance]);
  return { reports: withChecks, failed: [...failed.values()].sort((a, b) => b.failed - a.failed || order(a) - order(b) || compareText(a.id, b.id)) };
}

function baselineView(comparison: BaselineComparison, baseline: Baseline, reportCases: ReportCase[]): BaselineView {
  const regressions = comparison.regressions.map((regression) => {
    const before = viewOf(regression.before.record, regression.before.url);
    const now = viewOf(regression.now.record, regression.now.url);
    return { url: regression.url, before, now, changes: changesOf(before, now) };
  });
  const newCheckFailures: BaselineView['newCheckFailures'] = [];
  for (const [key, now] of newestByUrl(reportCases.map((c) => c.record))) {
    const before = baseline.byUrl.get(key);
    if (!before) continue;
    const passedBefore = new Set((reportChecks(before.record) ?? []).filter((c) => c.passed).map((c) => c.id));
    const newlyFailed = failedChecks(reportChecks(now.record) ?? []).filter((c) => passedBefore.has(c.id));
    if (newlyFailed.length > 0) newCheckFailures.push({ url: now.url, checks: newlyFailed.map((c) => checkName(c.id)) });
  }
  newCheckFailures.sort((a, b) => b.checks.length - a.checks.length || compareText(a.url, b.url));
  return { comparison, regressions, newCheckFailures };
}

function changesOf(before: ReportView, now: ReportView): string[] {
  const changes: string[] = [];
  if (before.score !== undefined && now.score === undefined) changes.push(`score ${formatNumber(before.score)} → none`);
  else if (before.score !== undefined && now.score !== undefined && now.score !== before.score) {
    changes.push(`score ${formatNumber(before.score)} → ${formatNumber(now.score)} (${signed(now.score - before.score)})`);
  }
  const rank = (label: ReportResult | undefined) => (label === undefined ? RESULTS.length : RESULTS.indexOf(label));
  if (before.label !== undefined && rank(now.label) > rank(before.label)) changes.push(`result ${before.label} → ${now.label ?? 'none'}`);
  return changes;
}

/** A score or average as people read it: one decimal at most. */
export function formatNumber(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function signed(value: number): string {
  const text = formatNumber(Math.abs(value));
  return value < 0 ? `−${text}` : `+${text}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One table row as the page's script reads it, kept small for 10,000 reports:
 * [id, url shown, link (0: none, 1: the URL itself, or the href), project index, result index (-1: none), score, generated ms].
 */
export type RowData = [string, string, 0 | 1 | string, number, number, number | null, number | null];

export interface TableData {
  projects: string[];
  results: readonly string[];
  rows: RowData[];
}

/** Every report for the page's table: text shown with its invisible characters escaped, as the rest of the page. */
export function tableData(reports: ReportView[]): TableData {
  const projects: string[] = [];
  const projectIndex = new Map<string, number>();
  const shown = (text: string) => showInvisible(text, { keepNewlines: false });
  const rows = reports.map((report): RowData => {
    const project = shown(report.project ?? '');
    let index = projectIndex.get(project);
    if (index === undefined) {
      index = projects.push(project) - 1;
      projectIndex.set(project, index);
    }
    const text = shown(report.url);
    const href = pageHref(report.url);
    const link = href === undefined ? 0 : href === text ? 1 : href;
    const result = report.label === undefined ? -1 : RESULTS.indexOf(report.label);
    return [shown(report.id), text, link, index, result, report.score ?? null, report.generated ?? null];
  });
  return { projects, results: RESULTS, rows };
}
