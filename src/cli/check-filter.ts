// `reports list --failing-check ID` / `--passing-check ID` (a filter the client applies, since phpRank has none) and
// `--per-check` (one row per report and check, the shape people pivot in a spreadsheet).
import { reportChecks } from '../api/checks.js';
import type { ApiRecord, Page } from '../api/decode.js';
import type { ServiceRecord } from '../output/index.js';
import { parseCheckIds } from './check-gate.js';

/** Repeatable and comma-separated: `--failing-check title --failing-check meta_description,h1`. */
export function collectCheckIds(value: string, previous: string[] | undefined): string[] {
  return [...new Set([...(previous ?? []), ...parseCheckIds(value)])];
}

export interface CheckFilter {
  failing: readonly string[];
  passing: readonly string[];
}

/** Whether a report fails every check of `failing` and passes every one of `passing`; one without checks never matches. */
export function matchesChecks(record: ApiRecord, filter: CheckFilter): boolean {
  const outcomes = reportChecks(record);
  if (outcomes === undefined) return false;
  const passed = new Map(outcomes.map((check) => [check.id, check.passed]));
  return filter.failing.every((id) => passed.get(id) === false) && filter.passing.every((id) => passed.get(id) === true);
}

/**
 * The pages with only the matching reports (all of them without a filter); stops after `limit` matches. `seen` counts
 * what was read and how many carried per-check results, to say so when none did.
 */
export async function* filterPages(
  pages: AsyncIterable<Page>,
  filter: CheckFilter | undefined,
  limit: number | undefined,
  seen: { read: number; withChecks: number },
): AsyncGenerator<Page> {
  let kept = 0;
  for await (const page of pages) {
    const records: ApiRecord[] = [];
    for (const record of page.records) {
      seen.read++;
      if (reportChecks(record) !== undefined) seen.withChecks++;
      if (limit !== undefined && kept >= limit) break;
      if (filter === undefined || matchesChecks(record, filter)) {
        records.push(record);
        kept++;
      }
    }
    yield { ...page, records };
    if (limit !== undefined && kept >= limit) return;
  }
}

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
