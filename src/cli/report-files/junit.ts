// `--junit PATH`: the run as JUnit XML, as the test-report views of GitHub (JUnit actions), GitLab, Jenkins and Azure read it.
import { stringifyJson } from '../../api/http/json.js';
import { formatScore, readReport } from '../../api/model/report-model.js';
import { reportIdentity } from '../../api/model/report-url.js';
import { shardText } from '../bulk/shard.js';
import { baselineVerdict, describeChange } from './baseline.js';
import { reportCheckLines } from './check-changes.js';
import { xmlAttribute as attr, xmlText as text } from '../../output/escape.js';
import {
  caseFailures as failuresOf,
  emptyVerdict,
  firstRunLine,
  lostHistoryLine,
  missingShareLines,
  projectOf,
  type CiCase,
  type CiRun,
  type ReportCase,
} from './run-record.js';

/**
 * One <testsuites> holding one <testsuite> (the command), one <testcase> per report: name the report's identity (the
 * URL as the service stores it: one name in both dialects, from run to run, whatever URL was sent), classname
 * the project. A report failing the gate or the baseline is a <failure>; a URL that could not be created an
 * <error>; a URL not sent (journal, Ctrl-C) <skipped>. Result and score go to the case's <system-out>.
 */
export function renderJunit(run: CiRun): string {
  // Pages gone since the baseline are listed as skipped cases: shown in the test views, never failed on their own.
  const vanished = (run.baseline?.vanished ?? []).map((url) => vanishedCase(url, run.baseline?.path ?? 'the baseline'));
  const counts = { tests: run.cases.length + vanished.length, failures: 0, errors: 0, skipped: vanished.length };
  for (const c of run.cases) {
    if (c.kind === 'error') counts.errors++;
    else if (c.kind === 'skipped') counts.skipped++;
    else if (failuresOf(c, run).length > 0) counts.failures++;
  }
  const verdict = runVerdictCase(run, counts.failures + counts.errors);
  if (verdict.length > 0) {
    counts.tests++;
    counts.failures++;
  }
  const { tests, failures, errors, skipped } = counts;
  // Looked up once a case: a run of 50,000 new pages would otherwise search the list 50,000 times.
  const newUrls = new Set(run.baseline?.newUrls);
  const countAttrs = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(run.seconds)}"`;
  const timestamp = run.startedAt.toISOString().slice(0, 19);
  const suiteName = `rsapi ${run.command}${run.share ? ` (share ${run.share.index} of ${run.share.count})` : ''}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="rsapi" ${countAttrs}>`,
    `  <testsuite name="${attr(suiteName)}" ${countAttrs} timestamp="${timestamp}">`,
    ...properties(run),
    ...run.cases.map((c) => testcase(c, run, newUrls)),
    ...vanished,
    ...verdict,
    '  </testsuite>',
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}

/**
 * A run that failed with no report to show it (a gate over no report, assertions no rule of which matched, a baseline
 * that compared nothing): one failed case says why, or a test view would show green for a red job.
 */
function runVerdictCase(run: CiRun, failedCases: number): string[] {
  if (failedCases > 0) return [];
  const reasons = [run.gate.failed ? run.gate.verdict : undefined, run.baseline?.failed ? baselineVerdict(run.baseline).replace(/^rsapi: /, '') : undefined];
  const failed = reasons.filter((reason) => reason !== undefined);
  // An empty input fails every gate alike: one reason, naming it.
  const said = run.empty?.failed ? [emptyVerdict(run.empty)] : failed;
  if (said.length === 0) return [];
  return [
    `    <testcase name="${attr(`rsapi ${run.command}: the verdict`)}" classname="rsapi" time="0">`,
    `      <failure message="${attr(said.join('; '))}" type="gate">${text(said.join('\n'))}</failure>`,
    '    </testcase>',
  ];
}

function vanishedCase(url: string, since: string): string {
  return [
    `    <testcase name="${attr(reportIdentity(url))}" classname="${attr(hostOf(url.includes('://') ? url : `https://${url}`))}" time="0">`,
    `      <skipped message="${attr(`vanished since ${since}: not in this run`)}"/>`,
    '    </testcase>',
  ].join('\n');
}

function properties(run: CiRun): string[] {
  const props: [string, string][] = [];
  if (run.share) props.push(['shard', shardText(run.share)], ['shard.urls', `${run.share.urls} of ${run.share.of}`]);
  if (run.empty !== undefined) props.push(['input', run.empty.why]);
  if (run.missingShares && run.missingShares.length > 0) props.push(['shards.missing', missingShareLines(run.missingShares).join('; ')]);
  if (run.gate.active) props.push(['gate', run.gate.verdict]);
  if (run.firstRun) {
    props.push(['baseline', firstRunLine(run.firstRun)]);
    const lost = lostHistoryLine(run.firstRun);
    if (lost !== undefined) props.push(['baseline.warning', lost]);
  }
  if (run.baseline) {
    props.push(['baseline', run.baseline.path]);
    props.push(['baseline.new', String(run.baseline.newUrls.length)], ['baseline.vanished', String(run.baseline.vanished.length)]);
  }
  if (props.length === 0) return [];
  return ['    <properties>', ...props.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`), '    </properties>'];
}

function testcase(c: CiCase, run: CiRun, newUrls: ReadonlySet<string>): string {
  const open = (classname: string, time?: number) =>
    `    <testcase name="${attr(reportIdentity(c.url))}" classname="${attr(classname)}"${time === undefined ? ' time="0"' : ` time="${seconds(time)}"`}>`;
  if (c.kind === 'skipped') return [open(hostOf(c.url)), `      <skipped message="${attr(c.reason)}"/>`, '    </testcase>'].join('\n');
  if (c.kind === 'error') {
    const body = c.hint ? `${c.message}\nhint: ${c.hint}` : c.message;
    return [
      open(hostOf(c.url), c.seconds),
      `      <error message="${attr(c.message)}" type="exit ${c.exitCode}">${text(body)}</error>`,
      '    </testcase>',
    ].join('\n');
  }
  const failures = failuresOf(c, run);
  const lines = [open(projectOf(c.record) ?? hostOf(c.url), c.seconds)];
  const isNew = newUrls.has(String(c.record.url));
  if (failures.length > 0) {
    lines.push(
      `      <failure message="${attr(failures.join('; '))}" type="${c.gateFailures.length > 0 ? 'gate' : 'baseline'}">${text(failures.join('\n'))}</failure>`,
    );
  }
  const out = systemOut(c);
  lines.push(`      <system-out>${text(isNew ? `${out}\nbaseline: new since ${run.baseline?.path}` : out)}</system-out>`, '    </testcase>');
  return lines.join('\n');
}

function systemOut(c: ReportCase): string {
  const { record } = c;
  const { label, score } = readReport(record);
  // A result the model cannot read (neither a label nor a number) is shown as sent rather than hidden.
  const lines = [`result: ${label ?? show(record.result)}`, `score: ${score === undefined ? show(record.score) : formatScore(score)}`];
  for (const field of ['id', 'project', 'generated_at'])
    if (record[field] !== undefined && record[field] !== null) lines.push(`${field}: ${show(record[field])}`);
  if (c.regression) lines.push(`baseline: ${describeChange(c.regression)}`);
  lines.push(...reportCheckLines(record, c.checkChange));
  return lines.join('\n');
}

function show(value: unknown): string {
  if (value === undefined || value === null) return 'none';
  return typeof value === 'string' ? value : stringifyJson(value);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'rsapi';
  }
}

function seconds(value: number): string {
  return Math.max(0, value).toFixed(3);
}
