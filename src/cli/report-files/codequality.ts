// `--codequality FILE`: GitLab's Code Quality report (the Code Climate JSON subset GitLab reads), one finding per
// failing check, score or result per URL, each with a fingerprint that stays the same from run to run.
import { createHash } from 'node:crypto';
import { reportIdentity } from '../../api/model/report-url.js';
import type { Finding, UrlVerdict } from '../verdicts/judge.js';
import { describeChange, type BaselineComparison, type Regression } from './baseline.js';
import type { ComparisonGate, ComparisonVerdict } from '../../judge/verdict.js';
import { namedCheck } from '../verdicts/check-gate.js';

/** One issue as GitLab reads it. */
export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  location: { path: string; lines: { begin: number } };
}

/**
 * The issues of the judged URLs: the path is the page's identity (`example.com/pricing`), line 1. The fingerprint is
 * a hash of the identity and the subject (never of the value), so a check that keeps failing is one issue across runs
 * and GitLab shows only new and fixed ones in a merge request.
 */
export function codeQualityIssues(verdicts: readonly UrlVerdict[]): CodeQualityIssue[] {
  const issues: CodeQualityIssue[] = [];
  for (const verdict of verdicts) {
    for (const finding of verdict.findings) issues.push(issue(verdict.url, finding.subject, finding.text, severityOf(finding)));
  }
  return issues;
}

function issue(url: string, subject: string, text: string, severity: CodeQualityIssue['severity']): CodeQualityIssue {
  const path = reportIdentity(url);
  return {
    description: `${path}: ${text}`,
    check_name: `rsapi/${subject}`,
    fingerprint: createHash('sha256').update(`rsapi\n${path}\n${subject}`).digest('hex').slice(0, 32),
    severity,
    location: { path, lines: { begin: 1 } },
  };
}

/**
 * What a baseline gate failed on, as issues: per URL, each check newly failing (--fail-on-new-failures), the per-check
 * results gone, and a fall past --max-drop. Their subjects (`since-baseline/title`) keep them apart from the same
 * check failing by a rule, so each has a fingerprint of its own, stable from run to run.
 */
export function baselineIssues(comparison: BaselineComparison | undefined): CodeQualityIssue[] {
  if (!comparison) return [];
  const issues: CodeQualityIssue[] = [];
  if (comparison.maxDrop !== undefined) {
    for (const regression of comparison.regressions) {
      issues.push(
        issue(regression.url, 'since-baseline/score', `${describeChange(regression)} since ${comparison.path} (--max-drop ${comparison.maxDrop})`, 'major'),
      );
    }
  }
  issues.push(...newFailureIssues(comparison.verdict, comparison.failOnNewFailures, comparison.path));
  return issues;
}

/**
 * A comparison's verdict (src/judge) as issues, for a face that has no baseline file (history diff): each check newly
 * failing, and each page fallen past --max-drop, against `source` (`run 12`). The subjects are a baseline's, so a
 * finding keeps its fingerprint whichever face states it.
 */
export function comparisonIssues(verdict: ComparisonVerdict, gate: ComparisonGate, source: string): CodeQualityIssue[] {
  const issues: CodeQualityIssue[] = [];
  if (gate.maxDrop !== undefined) {
    for (const page of verdict.regressions) {
      const then = page.before ?? { score: undefined, label: undefined };
      const now = page.after ?? { score: undefined, label: undefined };
      const regression = { before: { score: then.score, result: then.label }, now: { score: now.score, result: now.label }, ...page.change.reading };
      const text = `${describeChange(regression as unknown as Regression)} since ${source} (--max-drop ${gate.maxDrop})`;
      issues.push(issue(page.url, 'since-baseline/score', text, 'major'));
    }
  }
  issues.push(...newFailureIssues(verdict, gate.failOnNewFailures === true, source));
  return issues;
}

/** Each check newly failing (a page that lost its checks: each it passed), with --fail-on-new-failures. */
function newFailureIssues(verdict: ComparisonVerdict, failOnNewFailures: boolean, source: string): CodeQualityIssue[] {
  if (!failOnNewFailures || verdict.checksUnjudged) return [];
  return verdict.newlyFailing.flatMap((page) =>
    page.change.newFailures.map((id) =>
      issue(
        page.url,
        `since-baseline/${id}`,
        page.change.checksLost
          ? `${namedCheck(id)}: no per-check results now; it passed in ${source} (--fail-on-new-failures)`
          : `${namedCheck(id)} fails now; it passed in ${source} (--fail-on-new-failures)`,
        'major',
      ),
    ),
  );
}

/** error: by the check's importance (high critical, medium major, low minor), score and result major; warn: info. */
function severityOf(finding: Finding): CodeQualityIssue['severity'] {
  if (finding.severity === 'warn') return 'info';
  if (finding.importance === 'high') return 'critical';
  if (finding.importance === 'low') return 'minor';
  return 'major';
}

/**
 * `runFailure`: why the run failed with no URL to show it (a gate over nothing: `the sitemap listed no page: ...`), as
 * one issue of the run, so that GitLab's widget is not empty for a failed job.
 */
export function renderCodeQuality(
  verdicts: readonly UrlVerdict[],
  comparison?: BaselineComparison,
  runFailure?: string,
  moreIssues: readonly CodeQualityIssue[] = [],
): string {
  const run = runFailure === undefined ? [] : [runIssue(runFailure)];
  return `${JSON.stringify([...run, ...codeQualityIssues(verdicts), ...baselineIssues(comparison), ...moreIssues], null, 2)}\n`;
}

/** The run's own issue: its path `rsapi` (no page), its fingerprint the same from run to run. */
function runIssue(text: string): CodeQualityIssue {
  return {
    description: text,
    check_name: 'rsapi/run',
    fingerprint: createHash('sha256').update('rsapi\nrun').digest('hex').slice(0, 32),
    severity: 'major',
    location: { path: 'rsapi', lines: { begin: 1 } },
  };
}
