// Paging as async iterators: page by page, or record by record, stopping at the end or at a limit.
import type { ApiRecord, Page } from './decode.js';

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
  while (pageNumber !== undefined && seen < limit) {
    const page = await fetchPage(pageNumber);
    const records = page.records.slice(0, limit - seen);
    seen += records.length;
    yield { ...page, records };
    if (!options.all && options.limit === undefined) return;
    // A page with no records ends the list even if the service claims a next one (avoids looping forever).
    pageNumber = page.records.length === 0 || page.nextPage === undefined || page.nextPage <= page.page ? undefined : page.nextPage;
  }
}

/** Yields records across pages. */
export async function* iterateRecords(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<ApiRecord> {
  for await (const page of iteratePages(fetchPage, options)) yield* page.records;
}
