// `reports create --existing refresh|skip`: the reports the service already holds for the run's URLs (same identity), read once per project.
import type { ApiClient } from '../../../../api/client.js';
import { toNumber, type ApiRecord } from '../../../../api/model/record.js';
import type { CreateResult } from '../../../../api/reports.js';
import { reportIdentity, reportProject } from '../../../../api/model/report-url.js';

/** What to do for a URL that already has a report: create another (the default, as before), re-audit it, or leave it. */
export const EXISTING_MODES = ['new', 'refresh', 'skip'] as const;
export type ExistingMode = (typeof EXISTING_MODES)[number];

/** A create's outcome, or what became of a report that was already there (`--existing`). */
export type BulkCreateResult = CreateResult & { existing?: 'refreshed' | 'kept' };

/**
 * The newest report of each URL's identity the service holds, read project by project (`--project`, every page): one
 * listing per site rather than one search per URL, which a sitemap of thousands would need. Each is kept as `keep`
 * makes it, told its identity when it is the newest seen so far (whole by default); a refresh needs only its id and
 * URL, so a listing of 50,000 reports of 36 checks is not held for the run.
 */
export async function existingReports(
  client: ApiClient,
  urls: readonly string[],
  keep: (identity: string, record: ApiRecord) => ApiRecord = (_identity, record) => record,
): Promise<Map<string, ApiRecord>> {
  const wanted = new Set(urls.map(reportIdentity));
  const found = new Map<string, ApiRecord>();
  for (const project of new Set(urls.map(reportProject))) {
    for await (const page of client.reports.pages({ project }, { all: true })) {
      for (const record of page.records) {
        if (typeof record.url !== 'string') continue;
        const identity = reportIdentity(record.url);
        const had = found.get(identity);
        if (!wanted.has(identity) || (had !== undefined && (toNumber(record.id) ?? 0) <= (toNumber(had.id) ?? 0))) continue;
        found.set(identity, keep(identity, record));
      }
    }
  }
  return found;
}

/** A report as a refresh needs it: its id and URL. */
export function idAndUrl(record: ApiRecord): ApiRecord {
  return { id: record.id, url: record.url };
}

/** For a URL with a report already: re-audit it (`update` with results=1) or keep it as it is; undefined when it has none. */
export async function useExisting(
  client: ApiClient,
  mode: ExistingMode,
  existing: ReadonlyMap<string, ApiRecord>,
  url: string,
): Promise<BulkCreateResult | undefined> {
  const report = mode === 'new' ? undefined : existing.get(reportIdentity(url));
  if (report === undefined) return undefined;
  if (mode === 'skip') return { report, recovered: false, attempts: 0, existing: 'kept' };
  const updated = await client.reports.update(String(report.id), { refresh: true });
  return { report: updated.report, recovered: false, attempts: 1, existing: 'refreshed' };
}
