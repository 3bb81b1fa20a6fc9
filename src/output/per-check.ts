// `--per-check`: a report as one row per check (id, url, check, importance, passed, value), the shape people pivot in a
// spreadsheet.
import { reportChecks } from '../api/model/checks.js';
import type { ApiRecord } from '../api/model/record.js';
import type { ServiceRecord } from './types.js';

/** The columns of `--per-check`, in order. */
export const PER_CHECK_FIELDS = ['id', 'url', 'check', 'importance', 'passed', 'value'];

/** One row per check of the report (none for a report without per-check results). */
export function perCheckRows(record: ApiRecord): ServiceRecord[] {
  return (reportChecks(record) ?? []).map((check) => ({
    id: record.id ?? null,
    url: record.url ?? null,
    check: check.id,
    importance: check.importance ?? null,
    passed: check.passed,
    value: check.value ?? null,
  }));
}
