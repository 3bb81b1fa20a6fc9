// A report as the tools show it, through the CLI's record model: compact rows for lists, the whole report for get_report.
import type { ApiRecord } from '../api/model/record.js';
import { checkName, failedChecks, reportChecks } from '../api/model/checks.js';
import { readReport } from '../api/model/report-model.js';
import { PRIVACY } from '../api/list-params.js';
import { cutValue } from './results.js';

/** A score to one decimal (phpRank sends 78.57142857142857 after a re-audit). */
function shortScore(score: number | undefined): number | null {
  return score === undefined ? null : Math.round(score * 10) / 10;
}

/**
 * `{id, url, score, result, failed}`: the label and score of either dialect, and the ids of the failed checks, most
 * important first (null when the service sends no per-check results).
 */
export function reportRow(record: ApiRecord): Record<string, unknown> {
  const { label, score } = readReport(record);
  const outcomes = reportChecks(record);
  return {
    id: record.id ?? null,
    url: record.url ?? null,
    score: shortScore(score),
    result: label ?? null,
    failed: outcomes === undefined ? null : failedChecks(outcomes).map((check) => check.id),
  };
}

/** Privacy as the CLI shows it (`public`, `private`, `password`), not phpRank's 0, 1, 2; anything else as sent. */
function privacyLabel(value: unknown): unknown {
  const label = Object.entries(PRIVACY).find(([, code]) => typeof value !== 'object' && String(code) === String(value))?.[0];
  return label ?? value;
}

/**
 * The whole report: its fields as sent (`result` the label, `score` the number, `privacy` the label, as the CLI's tables show them), how
 * many checks passed, and each failed check with its name, importance, value and errors; values longer than
 * `valueChars` characters of JSON are cut (the answer's size budget).
 */
export function reportDetail(record: ApiRecord, valueChars: number): Record<string, unknown> {
  const { label, score } = readReport(record);
  const { results: _results, result: _result, score: _score, ...fields } = record;
  const outcomes = reportChecks(record);
  const detail: Record<string, unknown> = {
    ...fields,
    ...('privacy' in fields ? { privacy: privacyLabel(fields.privacy) } : {}),
    result: label ?? null,
    score: shortScore(score),
  };
  if (outcomes === undefined) return { ...detail, checks: null };
  const failed = failedChecks(outcomes);
  return {
    ...detail,
    checks: { passed: outcomes.length - failed.length, failed: failed.length, total: outcomes.length },
    failed: failed.map((check) => ({
      check: check.id,
      name: checkName(check.id),
      importance: check.importance ?? null,
      value: cutValue(check.value, valueChars) ?? null,
      errors: cutValue(check.errors, valueChars) ?? null,
    })),
    passed: outcomes.filter((check) => check.passed).map((check) => check.id),
  };
}
