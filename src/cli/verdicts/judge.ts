// Judging reports against the assertions and the gate flags: per report, what failed (error) or warns, with its value;
// over the run, which URLs failed, worst first, and whether any was judged at all.
import { failedChecks, reportChecks, type Importance } from '../../api/model/checks.js';
import type { ApiRecord } from '../../api/model/record.js';
import { formatScore, readReport, RESULT_RANK } from '../../api/model/report-model.js';
import { reportIdentity } from '../../api/model/report-url.js';
import { describeErrors, describeValue } from '../../output/check-lines.js';
import type { GateOptions } from '../flags/verb-options.js';
import { asksChecks, checkLevel, flagRule, resolveFor, wantedResult, type AssertionSet, type Rule, type Severity, type Source } from './rules.js';

/** One thing a report failed or warns of: `score 41 < 70`, `title: missing`. */
export interface Finding {
  severity: Severity;
  /** `score`, `result`, `checks` (none sent), or the check id. */
  subject: string;
  /** The check's importance, for a check. */
  importance?: Importance;
  /** What failed and its value, in the words of `reports show`. */
  text: string;
  /** The rule or flag that asked: `rsapi.config.json:4`, `--min-score`. */
  source: Source;
  /** A gate flag asked it (the flags' verdict says it in its own words), not the assertions file. */
  byFlag: boolean;
}

/** A report with something to say: its findings, errors first. */
export interface UrlVerdict {
  /** The report's identity (the cleaned URL). */
  url: string;
  id: string | undefined;
  score: number | undefined;
  findings: Finding[];
  /** Whether any finding is an error. */
  failed: boolean;
}

/** What the verdicts need of a verb: its gate flags and the assertions file, when given. */
export interface VerdictSetup {
  gate?: GateOptions;
  assertions?: AssertionSet;
}

/**
 * Judges each report by the file's rules and the gate flags merged per key; keeps the reports with findings. The
 * one entry point for any command that judges reports (reports list, create, stats; history diff).
 */
export class Verdicts {
  /** Reports judged. */
  seen = 0;
  /** Reports that carried per-check results. */
  withChecks = 0;
  /** Per rule of the file, the reports it matched. */
  readonly matched: number[];
  /** Reports a check rule applied to, which carried none. */
  checksMissing = 0;
  readonly judged: UrlVerdict[] = [];
  private readonly rules: readonly Rule[];
  private readonly flags: Rule | undefined;

  constructor(readonly setup: VerdictSetup) {
    this.rules = setup.assertions?.rules ?? [];
    this.matched = this.rules.map(() => 0);
    this.flags = setup.gate ? flagRule(setup.gate) : undefined;
  }

  /** Whether anything is asserted: a flag or a file. */
  get active(): boolean {
    return this.flags !== undefined || this.setup.assertions !== undefined;
  }

  /** Judges one report; returns its findings (errors first), kept when there is one. */
  judge(record: ApiRecord): Finding[] {
    if (!this.active) return [];
    this.seen++;
    // Named as the service stores it (`example.com/pricing`): one form in both dialects, whatever URL was sent.
    const url = typeof record.url === 'string' ? reportIdentity(record.url) : `report ${String(record.id ?? 'unknown')}`;
    const findings = judgeReport(record, this.rules, this.flags, this.matched);
    if (reportChecks(record) !== undefined) this.withChecks++;
    else if (findings.some((f) => f.subject === 'checks')) this.checksMissing++;
    if (findings.length > 0) {
      const { score } = readReport(record);
      const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : undefined;
      this.judged.push({ url, id, score, findings, failed: findings.some((f) => f.severity === 'error') });
    }
    return findings;
  }

  /** The file's rules that matched none of the reports judged. */
  unmatchedRules(): Rule[] {
    return this.rules.filter((_rule, index) => this.matched[index] === 0);
  }

  /** Check rules applied and no report carried per-check results: they could not be judged (the seed dialect). */
  get checksUnjudged(): boolean {
    return this.checksMissing > 0 && this.withChecks === 0;
  }

  /** The reports that failed an error, worst first (lowest score, then most failures, then URL). */
  failures(): UrlVerdict[] {
    return sortWorstFirst(this.judged.filter((v) => v.failed && !this.onlyUnjudged(v)));
  }

  /** The reports that only warn, worst first. */
  warnings(): UrlVerdict[] {
    return sortWorstFirst(this.judged.filter((v) => !v.failed));
  }

  /** A report whose only error is "no per-check results", when no report had any: said once as unjudged instead. */
  private onlyUnjudged(verdict: UrlVerdict): boolean {
    return this.checksUnjudged && verdict.findings.every((f) => f.severity !== 'error' || f.subject === 'checks');
  }
}

/** One report's findings under the rules that match it and the flags: errors first, then by subject as judged. */
export function judgeReport(record: ApiRecord, rules: readonly Rule[], flags: Rule | undefined, matched?: number[]): Finding[] {
  const url = typeof record.url === 'string' ? record.url : '';
  const resolved = resolveFor(url, rules, flags, matched);
  const findings: Finding[] = [];
  const { label, score } = readReport(record);
  if (resolved.minScore !== undefined) {
    const min = resolved.minScore.value;
    const { source, byFlag } = resolved.minScore;
    if (score === undefined) findings.push({ severity: 'error', subject: 'score', text: `score: none (${min} wanted)`, source, byFlag });
    else if (score < min) findings.push({ severity: 'error', subject: 'score', text: `score ${formatScore(score)} < ${min}`, source, byFlag });
  }
  if (resolved.failAtRank !== undefined) {
    const failAt = resolved.failAtRank.value;
    const rank = label === undefined ? undefined : RESULT_RANK.get(label);
    if (rank === undefined || rank >= failAt) {
      const wanted = wantedResult(failAt);
      const shown = label ?? 'none';
      const text = wanted === undefined ? `result ${shown} (--fail-on good)` : `result ${shown}, ${wanted} or better wanted`;
      findings.push({ severity: 'error', subject: 'result', text, source: resolved.failAtRank.source, byFlag: resolved.failAtRank.byFlag });
    }
  }
  const asked = asksChecks(resolved);
  if (asked !== undefined) {
    const outcomes = reportChecks(record);
    if (outcomes === undefined) {
      const byFlag = asked.byFlag;
      findings.push({
        severity: asked.severity,
        subject: 'checks',
        text: 'checks: none sent (no per-check results)',
        source: byFlag ? 'check flags' : 'check rules',
        byFlag,
      });
    } else {
      for (const check of failedChecks(outcomes)) {
        const level = checkLevel(resolved, check.id, check.importance);
        if (level === undefined || level.value === 'off') continue;
        const said = describeErrors(check.errors) || describeValue(check.value) || 'failed';
        const text = `${check.id}: ${said}`;
        findings.push({ severity: level.value, subject: check.id, importance: check.importance, text, source: level.source, byFlag: level.byFlag });
      }
    }
  }
  return [...findings.filter((f) => f.severity === 'error'), ...findings.filter((f) => f.severity === 'warn')];
}

function sortWorstFirst(verdicts: UrlVerdict[]): UrlVerdict[] {
  const score = (v: UrlVerdict) => v.score ?? -1;
  const errors = (v: UrlVerdict) => v.findings.filter((f) => f.severity === 'error').length;
  return verdicts.sort(
    (a, b) => score(a) - score(b) || errors(b) - errors(a) || b.findings.length - a.findings.length || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
  );
}
