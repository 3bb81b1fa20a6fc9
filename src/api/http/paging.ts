// Paging as async iterators: page by page, or record by record, in order, a few pages fetched at a time, stopping at the end or at a limit.
import type { ApiRecord, Page } from '../model/record.js';
import { PagingUnsupportedError } from '../errors.js';
import { stringifyJson } from './json.js';
import { PER_PAGE_VALUES } from '../list-params.js';

export interface PagingOptions {
  /** First page to fetch (1-based). */
  startPage?: number;
  /** Stop after this many records; no page past the one that reaches it is fetched. */
  limit?: number;
  /** Follow next pages; when false only the start page is fetched. */
  all?: boolean;
  /**
   * Pages requested at a time once a page has told how many there are (a length-aware page's last_page);
   * still yielded in order. Default 4; 1 fetches one page after the other.
   */
  concurrency?: number;
}

export const DEFAULT_PAGE_CONCURRENCY = 4;
/** The largest page size the service gives (`per_page=100`). */
export const LARGEST_PAGE = 100;

/** Whether these options follow pages past the first (`all`, or a `limit`). */
export function followsPages(options: PagingOptions): boolean {
  return options.all === true || options.limit !== undefined;
}

/**
 * Following pages without a chosen size asks for a size of our own (the contract): with --limit N, the smallest
 * the service allows that covers N (`--limit 1`: 10 records, not 100, about 300 KB on phpRank); otherwise the largest,
 * the same records in fewer requests. Not from a start page: page 3 means page 3 of the size the user reads pages in
 * (the one given, else the service's default), so `--page 3 --limit 5` is the first 5 records of that page 3, not of
 * page 3 of 100.
 */
export function withPageSize<P extends { perPage?: number }>(params: P, options: PagingOptions): P {
  const sizeIsOurs = followsPages(options) && options.startPage === undefined && params.perPage === undefined;
  if (!sizeIsOurs) return params;
  const limit = options.limit;
  const covering = limit === undefined ? undefined : PER_PAGE_VALUES.find((size) => size >= limit);
  return { ...params, perPage: covering ?? LARGEST_PAGE };
}

export type PageFetcher = (page: number) => Promise<Page>;

/** Yields pages, in order; the last one is cut to the limit. */
export async function* iteratePages(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<Page> {
  const limit = options.limit ?? Infinity;
  const ahead = new PagesAhead(fetchPage, Math.max(1, options.concurrency ?? DEFAULT_PAGE_CONCURRENCY));
  let pageNumber: number | undefined = options.startPage ?? 1;
  let seen = 0;
  let previous: string | undefined;
  let first: string | undefined;
  while (pageNumber !== undefined && seen < limit) {
    const page = await ahead.take(pageNumber);
    // A service that ignores `page` sends the same records again (the page before, or the first page):
    // following it would never end. A bare array that comes again was the whole list: it ends there, each
    // record once. A page that claims to page and repeats itself hides the rest of the list: an error.
    const fingerprint = fingerprintOf(page.records);
    if (page.records.length > 0 && (fingerprint === previous || fingerprint === first)) {
      if (page.bare) return;
      throw new PagingUnsupportedError(page.request);
    }
    previous = fingerprint;
    first ??= fingerprint;
    const records = page.records.slice(0, limit - seen);
    seen += records.length;
    if (!followsPages(options)) {
      yield { ...page, records };
      return;
    }
    // The list ends at an empty page, or where the next page does not move past the one asked for.
    const asked: number = pageNumber;
    const next = page.nextPage;
    const following = page.records.length === 0 || next === undefined || next <= asked ? undefined : next;
    pageNumber = following;
    // When the service told how many pages there are, the next ones are asked for now, while this one is written:
    // up to the last page, and only as many as the limit still needs at this page's size.
    if (following !== undefined && following === asked + 1 && page.lastPage !== undefined && seen < limit) {
      const needed = limit === Infinity ? Infinity : Math.ceil((limit - seen) / page.records.length);
      ahead.prefetch(following, Math.min(page.lastPage, following + needed - 1));
    }
    yield { ...page, records };
  }
}

/** Pages requested ahead of the one being read: at most `concurrency` in flight, each taken once. */
class PagesAhead {
  private readonly pending = new Map<number, Promise<Page>>();

  constructor(
    private readonly fetchPage: PageFetcher,
    private readonly concurrency: number,
  ) {}

  /** The page: the one already requested, or a request now. */
  take(pageNumber: number): Promise<Page> {
    const pending = this.pending.get(pageNumber);
    this.pending.delete(pageNumber);
    return pending ?? this.fetchPage(pageNumber);
  }

  /** Requests pages `from`..`to` that are not yet asked for, keeping at most `concurrency` in flight. */
  prefetch(from: number, to: number): void {
    if (this.concurrency <= 1) return;
    for (let number = from; number <= to && this.pending.size < this.concurrency; number++) {
      if (this.pending.has(number)) continue;
      const request = this.fetchPage(number);
      // Its failure is met when the page is taken; until then it must not count as unhandled.
      request.catch(() => {});
      this.pending.set(number, request);
    }
  }
}

/** Yields records across pages. */
export async function* iterateRecords(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<ApiRecord> {
  for await (const page of iteratePages(fetchPage, options)) yield* page.records;
}

/**
 * Enough of a page to tell it repeats the one before: its size and its first and last records. Records of a list
 * are distinct, so two pages that agree on these are the same page; serialising the whole page each time would
 * double what --all allocates.
 */
function fingerprintOf(records: readonly ApiRecord[]): string {
  return records.length === 0 ? '' : `${records.length}:${stringifyJson(records[0])}:${stringifyJson(records[records.length - 1])}`;
}
