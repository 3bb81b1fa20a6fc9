// Per-check results against a baseline, as the CI files word them: per URL, the checks that passed then and fail now
// (new failures) and the reverse (fixed), which the one comparison (src/judge/compare.ts) finds.
import { failedChecks, reportChecks, type CheckOutcome } from '../../api/model/checks.js';
import type { ApiRecord } from '../../api/model/record.js';
import { namedCheck } from '../verdicts/check-gate.js';

/** One URL's checks that changed since the baseline, most important first. */
export interface CheckChange {
  url: string;
  /** The report of this run. */
  record: ApiRecord;
  /** Passed in the baseline, failed now. */
  newFailures: string[];
  /** Failed in the baseline, passed now. */
  fixed: string[];
}

/** Whether any report of the file carries per-check results: without, only scores and results are compared. */
export function recordsHaveChecks(records: Iterable<ApiRecord>): boolean {
  for (const record of records) if (reportChecks(record) !== undefined) return true;
  return false;
}

const idOf = (check: CheckOutcome) => check.id;

/** `Meta description (meta_description), Title (title)`: names people read with the ids flags take. */
export function describeChecks(ids: readonly string[]): string {
  return ids.map(namedCheck).join(', ');
}

/** How many new failures and fixes, and on how many URLs. */
export function countChanges(changes: readonly CheckChange[]): { newFailures: number; fixed: number; urlsWithNewFailures: number } {
  let newFailures = 0;
  let fixed = 0;
  let urlsWithNewFailures = 0;
  for (const change of changes) {
    newFailures += change.newFailures.length;
    fixed += change.fixed.length;
    if (change.newFailures.length > 0) urlsWithNewFailures++;
  }
  return { newFailures, fixed, urlsWithNewFailures };
}

/** A report's checks as CI files state them: how many passed, the failed ones, and what changed since the baseline. */
export function reportCheckLines(record: ApiRecord, change: CheckChange | undefined): string[] {
  const outcomes = reportChecks(record);
  if (outcomes === undefined) return [];
  const failed = failedChecks(outcomes);
  const lines = [`checks: ${outcomes.length - failed.length} of ${outcomes.length} passed`];
  if (failed.length > 0) lines.push(`failed checks: ${describeChecks(failed.map(idOf))}`);
  if (change && change.newFailures.length > 0) lines.push(`new failures since the baseline: ${describeChecks(change.newFailures)}`);
  if (change && change.fixed.length > 0) lines.push(`fixed since the baseline: ${describeChecks(change.fixed)}`);
  return lines;
}
