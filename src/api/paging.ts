// Paging as async iterators: page by page, or record by record, stopping at the end or at a limit.
import type { ApiRecord, Page } from './decode.js';
import { ServerError } from './errors.js';
import { stringifyJson } from './json.js';

export interface PagingOptions {
  /** First page to fetch (1-based). */
  startPage?: number;
  /** Stop after this many records; no page past the one that reaches it is fetched. */
  limit?: number;
  /** Follow next pages; when false only the start page is fetched. */
  all?: boolean;
}

export type PageFetcher = (page: number) => Promise<Page>;

/** Yields pages; the last one is cut to the limit. */
export async function* iteratePages(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<Page> {
  const limit = options.limit ?? Infinity;
  let pageNumber: number | undefined = options.startPage ?? 1;
  let seen = 0;
  let previous: string | undefined;
  while (pageNumber !== undefined && seen < limit) {
    const page = await fetchPage(pageNumber);
    // A service that ignores `page` sends the same records again: following it would never end.
    const fingerprint = stringifyJson(page.records);
    if (previous !== undefined && page.records.length > 0 && fingerprint === previous) {
      throw new ServerError('the service sent the same records as for the page before; it seems not to support paging', page.request, undefined, {
        hint: 'use --per-page 100 without --all, or `rsapi api GET …` to see what it answers',
      });
    }
    previous = fingerprint;
    const records = page.records.slice(0, limit - seen);
    seen += records.length;
    yield { ...page, records };
    if (!options.all && options.limit === undefined) return;
    // The list ends at an empty page, or where the next page does not move past the one asked for.
    const next = page.nextPage;
    pageNumber = page.records.length === 0 || next === undefined || next <= pageNumber ? undefined : next;
  }
}

/** Yields records across pages. */
export async function* iterateRecords(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<ApiRecord> {
  for await (const page of iteratePages(fetchPage, options)) yield* page.records;
}
