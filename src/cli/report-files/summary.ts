// `--summary PATH`: the run as Markdown for $GITHUB_STEP_SUMMARY: counts, lowest scores, regressions, the verdict.
import { plural } from '../../plural.js';
import { formatScore, readReport, RESULTS, type ReportResult } from '../../api/model/report-model.js';
import { cappedLines } from '../../output/capped-list.js';
import type { CheckStats } from '../../output/stats/check-stats.js';
import { baselineVerdict, describeChange, type BaselineComparison } from './baseline.js';
import { countChanges, describeChecks } from './check-changes.js';
import { markdownText as md } from '../../output/escape.js';
import { checkStatsOf } from './run-checks.js';
import { emptyVerdict, firstRunLine, lostHistoryLine, missingShareLines, type CiRun, type ErrorCase, type ReportCase } from './run-record.js';
import { describeShare } from '../bulk/shard.js';

/** How many lowest scores are shown. */
export const LOWEST_SHOWN = 10;
/** Longer lists (errors, regressions, new and vanished URLs) stop here, saying how many more there are. */
export const LIST_CAP = 50;
/** How many checks the "most failed checks" table shows. */
export const CHECKS_SHOWN = 10;

/** The Markdown for one run; `exitCode` is the run's own, which the verdict states; `checks`: its per-check counts. */
export function renderSummary(run: CiRun, exitCode: number, checks: CheckStats = checkStatsOf(run)): string {
  const reports = run.cases.filter((c): c is ReportCase => c.kind === 'report');
  const errors = run.cases.filter((c): c is ErrorCase => c.kind === 'error');
  const skipped = run.cases.length - reports.length - errors.length;
  const blocks: string[][] = [[`### rsapi ${run.command}`]];
  if (run.share) blocks.push([`${capitalise(describeShare(run.share))}.`]);
  blocks.push(countTable(reports, errors.length, skipped));
  if (errors.length > 0) blocks.push(errorTable(errors));
  const lowest = lowestScores(reports);
  if (lowest.length > 0) blocks.push(lowest);
  const failed = mostFailedChecks(checks);
  if (failed.length > 0) blocks.push(failed);
  if (run.baseline) blocks.push(...baselineBlocks(run.baseline));
  blocks.push(verdict(run, exitCode, errors.length));
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n\n`;
}

function countTable(reports: ReportCase[], errors: number, skipped: number): string[] {
  const counts = new Map<ReportResult, number>(RESULTS.map((result) => [result, 0]));
  let unknown = 0;
  for (const { record } of reports) {
    const { label } = readReport(record);
    if (label !== undefined) counts.set(label, (counts.get(label) ?? 0) + 1);
    else unknown++;
  }
  const rows = [...counts].map(([result, count]) => `| ${result} | ${count} |`);
  if (unknown > 0) rows.push(`| no known result | ${unknown} |`);
  if (errors > 0) rows.push(`| not created | ${errors} |`);
  if (skipped > 0) rows.push(`| skipped | ${skipped} |`);
  return ['| result | reports |', '| --- | ---: |', ...rows];
}

function errorTable(errors: ErrorCase[]): string[] {
  return [
    `**Not created: ${errors.length}**`,
    '',
    '| URL | error |',
    '| --- | --- |',
    ...capped(errors, (e) => `| ${md(e.url)} | ${md(e.message)} (exit ${e.exitCode}) |`),
  ];
}

function lowestScores(reports: ReportCase[]): string[] {
  const scored = reports
    .map((c) => ({ c, ...readReport(c.record) }))
    .filter((entry): entry is typeof entry & { score: number } => entry.score !== undefined)
    .sort((a, b) => a.score - b.score || (a.c.url < b.c.url ? -1 : a.c.url > b.c.url ? 1 : 0))
    .slice(0, LOWEST_SHOWN);
  if (scored.length === 0) return [];
  return [
    `**Lowest scores**`,
    '',
    '| score | result | URL |',
    '| ---: | --- | --- |',
    ...scored.map(({ c, score, label }) => `| ${formatScore(score)} | ${label ?? 'none'} | ${md(c.url)} |`),
  ];
}

function baselineBlocks(comparison: BaselineComparison): string[][] {
  const { regressions, compared, maxDrop } = comparison;
  const rule = maxDrop === undefined ? 'any fall, not a gate' : `--max-drop ${maxDrop}`;
  const blocks: string[][] = [[`**Against the baseline** ${md(comparison.path)} (${rule}): ${regressions.length} of ${plural(compared, 'report')} regressed.`]];
  if (regressions.length > 0) {
    blocks.push([
      '| URL | before | now | change |',
      '| --- | --- | --- | --- |',
      ...capped(regressions, (r) => `| ${md(r.url)} | ${standing(r.before)} | ${standing(r.now)} | ${md(describeChange(r))} |`),
    ]);
  }
  const lists: string[] = [];
  if (comparison.newUrls.length > 0) lists.push(`- New since the baseline (${comparison.newUrls.length}): ${cappedInline(comparison.newUrls)}`);
  if (comparison.vanished.length > 0) lists.push(`- Vanished since the baseline (${comparison.vanished.length}): ${cappedInline(comparison.vanished)}`);
  if (lists.length > 0) blocks.push(lists);
  const changed = comparison.checkChanges;
  if (changed.length > 0) {
    const { newFailures, fixed } = countChanges(changed);
    const rule = comparison.failOnNewFailures ? '--fail-on-new-failures' : 'listed, not a gate without --fail-on-new-failures';
    blocks.push([
      `**Checks against the baseline** (${rule}): ${newFailures} newly failing, ${fixed} fixed.`,
      '',
      '| URL | new failures | fixed |',
      '| --- | --- | --- |',
      ...capped(changed, (c) => `| ${md(c.url)} | ${md(describeChecks(c.newFailures)) || 'none'} | ${md(describeChecks(c.fixed)) || 'none'} |`),
    ]);
  }
  return blocks;
}

/** The checks failed by the most reports, most important first: the site's to-do list. Nothing without per-check results. */
function mostFailedChecks(stats: CheckStats): string[] {
  if (stats.withChecks === 0) return [];
  const failing = stats.checks.filter((count) => count.failed > 0);
  const heading = `**Most failed checks** (of ${plural(stats.withChecks, 'report')} with per-check results)`;
  if (failing.length === 0) return [heading, '', 'Every check passed on every report.'];
  const rows = cappedLines(
    failing,
    CHECKS_SHOWN,
    (count) => `| ${md(describeChecks([count.check]))} | ${count.importance ?? 'not given'} | ${count.failed} | ${Math.round(count.share * 100)}% |`,
    (rest) => `| ${rest} | | | |`,
  );
  return [heading, '', '| check | importance | reports failing | share |', '| --- | --- | ---: | ---: |', ...rows];
}

function standing(s: { score?: number; result?: string }): string {
  return md(`${s.score === undefined ? 'no score' : formatScore(s.score)} ${s.result ?? 'no result'}`);
}

function verdict(run: CiRun, exitCode: number, errors: number): string[] {
  const lines = [exitCode === 0 ? '**Verdict: passed.**' : `**Verdict: failed** (exit ${exitCode}).`];
  return [...lines, '', ...verdictReasons(run, errors).map((reason) => `- ${md(reason)}`)];
}

/**
 * Why the run passed or failed, one line a gate (the HTML page states them too); `errors`: URLs not created. A run
 * whose input was empty has one reason, whatever its gates; a first run says it compared nothing.
 */
export function verdictReasons(run: CiRun, errors: number): string[] {
  if (run.empty !== undefined) return [emptyVerdict(run.empty)];
  // A merge recorded without every share: the run is incomplete, whatever else it says.
  const reasons: string[] = missingShareLines(run.missingShares).map((line) => `${line}: this run is incomplete (--allow-partial), never a baseline`);
  if (run.firstRun) {
    reasons.push(firstRunLine(run.firstRun));
    const lost = lostHistoryLine(run.firstRun);
    if (lost !== undefined) reasons.push(lost);
  }
  if (run.gate.active) reasons.push(run.gate.verdict);
  if (run.baseline?.empty) reasons.push(baselineVerdict(run.baseline).replace(/^rsapi: /, ''));
  else if (run.baseline?.maxDrop !== undefined) {
    const { regressions, maxDrop } = run.baseline;
    const worst = regressions[0] ? `; worst: ${regressions[0].url} ${describeChange(regressions[0])}` : '';
    reasons.push(`baseline ${run.baseline.failed ? 'failed' : 'passed'}: ${regressions.length} regressed (--max-drop ${maxDrop})${worst}`);
  }
  if (run.baseline?.failOnNewFailures && !run.baseline.empty) {
    const { newFailures, urlsWithNewFailures } = countChanges(run.baseline.checkChanges);
    const lost = run.baseline.lostChecks.length;
    const outcome = run.baseline.checksUnjudged ? 'not judged (no per-check results)' : newFailures > 0 || lost > 0 ? 'failed' : 'passed';
    const without = lost > 0 ? `, ${plural(lost, 'report')} with no per-check results now` : '';
    const on = newFailures > 0 ? `on ${plural(urlsWithNewFailures, 'URL')}` : `of ${plural(run.baseline.compared, 'URL')} compared`;
    reasons.push(`checks against the baseline ${outcome}: ${newFailures} newly failing ${on}${without} (--fail-on-new-failures)`);
  }
  if (errors > 0) reasons.push(`${plural(errors, 'URL')} could not be created`);
  if (reasons.length === 0) reasons.push('no gate set (--fail-on, --min-score, --baseline with --max-drop)');
  return reasons;
}

/** Table rows of two columns, the rest counted in the last. */
function capped<T>(items: T[], line: (item: T) => string): string[] {
  return cappedLines(items, LIST_CAP, line, (rest) => `| ${rest} | |`);
}

function cappedInline(urls: string[]): string {
  return cappedLines(urls, LIST_CAP, md, (rest) => rest).join(', ');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
