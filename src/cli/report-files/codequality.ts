// `--codequality FILE`: GitLab's Code Quality report (the Code Climate JSON subset GitLab reads), one finding per
// failing check, score or result per URL, each with a fingerprint that stays the same from run to run.
import { createHash } from 'node:crypto';
import { reportIdentity } from '../../api/model/report-url.js';
import type { Finding, UrlVerdict } from '../verdicts/judge.js';

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
    const path = reportIdentity(verdict.url);
    for (const finding of verdict.findings) {
      issues.push({
        description: `${path}: ${finding.text}`,
        check_name: `rsapi/${finding.subject}`,
        fingerprint: createHash('sha256').update(`rsapi\n${path}\n${finding.subject}`).digest('hex').slice(0, 32),
        severity: severityOf(finding),
        location: { path, lines: { begin: 1 } },
      });
    }
  }
  return issues;
}

/** error: by the check's importance (high critical, medium major, low minor), score and result major; warn: info. */
function severityOf(finding: Finding): CodeQualityIssue['severity'] {
  if (finding.severity === 'warn') return 'info';
  if (finding.importance === 'high') return 'critical';
  if (finding.importance === 'low') return 'minor';
  return 'major';
}

export function renderCodeQuality(verdicts: readonly UrlVerdict[]): string {
  return `${JSON.stringify(codeQualityIssues(verdicts), null, 2)}\n`;
}
