// `reports list --failing-check ID` / `--passing-check ID`: a filter the client applies, since phpRank has none, over
// every page; with `--per-check` (src/output/per-check.ts) the rows are a report's checks.
import { reportChecks } from '../../api/model/checks.js';
import type { ApiRecord, Page } from '../../api/model/record.js';
import type { PagingOptions } from '../../api/http/paging.js';
import type { CommandContext } from '../runtime/context.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import { printPages } from './listing.js';

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

/** `--failing-check title --passing-check http2`, as given. */
function describeFilter(filter: CheckFilter): string {
  return [...filter.failing.map((id) => `--failing-check ${id}`), ...filter.passing.map((id) => `--passing-check ${id}`)].join(' ');
}

type PrintOptions = Parameters<typeof printPages>[3];

/**
 * `reports list` with a check filter or --per-check: the filter said once, every page read (--limit counting the
 * matches), the records printed as printPages does; exit 8 when the service sent no per-check results at all.
 */
export async function printByChecks(
  ctx: CommandContext,
  pages: (paging: PagingOptions) => AsyncIterable<Page>,
  options: PrintOptions & { filter: CheckFilter | undefined; perCheck: boolean },
): Promise<ExitCodeValue> {
  const { filter, paging } = options;
  if (filter) {
    const one = filter.failing.length + filter.passing.length === 1;
    ctx.note(`rsapi: ${describeFilter(filter)} ${one ? 'is' : 'are'} applied here, not by the service: reading every page`);
  }
  const seen = { read: 0, withChecks: 0 };
  const asked = filter ? { ...paging, all: true, limit: undefined } : paging;
  const filtered = filterPages(pages(asked), filter, filter ? paging.limit : undefined, seen);
  const code = await printPages(ctx, 'report', filtered, { ...options, paging: filter ? { ...paging, all: true } : paging });
  if (seen.read === 0 || seen.withChecks > 0) return code;
  const what = filter ? describeFilter(filter) : '--per-check';
  ctx.note(`rsapi: the service sent no per-check results (\`results\`) with its reports, so ${what} has nothing to read`);
  return code === ExitCode.ok ? ExitCode.server : code;
}
