// Lists a tool answers a slice of: the cursor that says where the next slice starts (with the filters it belongs to),
// and reading `limit` records from there across the service's pages.
import type { ApiRecord, Page } from '../api/model/record.js';
import { PER_PAGE_VALUES, type PerPage } from '../api/list-params.js';
import { argumentError, integerArg, stringArg } from './arguments.js';
import { cutValue, fitted, jsonBytes, MAX_TEXT_BYTES } from './results.js';
import { silenceNotes } from './tools/silences.js';
import type { ListSilences } from '../api/list-silences.js';

/** Where a list goes on: the filters it was asked with, the page, how many records of it were already answered, the page size. */
export interface ListPosition<Filters> {
  filters: Filters;
  page: number;
  skip: number;
  perPage: PerPage;
}

export interface ListSlice {
  records: ApiRecord[];
  /** Where each record sits (its page, and how many of that page come before it): where to go on when cut before it. */
  at: { page: number; skip: number }[];
  /** Where the next slice starts; undefined at the end of the list. */
  next: { page: number; skip: number } | undefined;
  /** How many records the list has in all, when the service says. */
  total?: number;
}

/** The page size for slices of `limit`: the smallest the service offers that holds one, so most slices are one request. */
export function pageSizeFor(limit: number): PerPage {
  return PER_PAGE_VALUES.find((size) => size >= limit) ?? PER_PAGE_VALUES[PER_PAGE_VALUES.length - 1]!;
}

/** An opaque cursor: the position, as base64url of its JSON, tagged with the tool it belongs to. */
export function encodeCursor<Filters>(tool: string, position: ListPosition<Filters>): string {
  return Buffer.from(JSON.stringify({ t: tool, ...position })).toString('base64url');
}

/** The position a cursor holds; a usage error naming `cursor` for anything else (another tool's, a damaged one). */
export function decodeCursor<Filters>(tool: string, cursor: string): ListPosition<Filters> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const position = value as { t?: unknown; filters?: unknown; page?: unknown; skip?: unknown; perPage?: unknown } | undefined;
  if (
    typeof position !== 'object' ||
    position === null ||
    position.t !== tool ||
    typeof position.filters !== 'object' ||
    position.filters === null ||
    Array.isArray(position.filters) ||
    !Number.isSafeInteger(position.page) ||
    (position.page as number) < 1 ||
    !Number.isSafeInteger(position.skip) ||
    (position.skip as number) < 0 ||
    !PER_PAGE_VALUES.includes(position.perPage as PerPage)
  ) {
    throw argumentError('cursor', `not a cursor of ${tool}`, `give the next_cursor of the last ${tool} answer as it is`);
  }
  return { filters: position.filters as Filters, page: position.page as number, skip: position.skip as number, perPage: position.perPage as PerPage };
}

/**
 * Filters given beside a cursor must be the cursor's: the cursor goes on with the list it was made for, and a filter
 * that silently did nothing would mislead.
 */
export function checkSameFilters<Filters extends object>(position: ListPosition<Filters>, given: Partial<Filters>): void {
  const kept = position.filters as Record<string, unknown>;
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined && kept[name] !== value) {
      throw argumentError(
        name,
        `differs from the cursor's (${JSON.stringify(kept[name] ?? null)}): a cursor goes on with the list it was made for`,
        'give the cursor alone, or leave the cursor out to start a new list',
      );
    }
  }
}

/** Where a call starts: page 1 with the filters given, or the cursor it brings back (given the same filters again). */
export function startingPosition<Filters extends object>(tool: string, cursor: string | undefined, given: Filters, limit: number): ListPosition<Filters> {
  if (cursor === undefined) return { filters: given, page: 1, skip: 0, perPage: pageSizeFor(limit) };
  const position = decodeCursor<Filters>(tool, cursor);
  // Only the tool's own filters, as text: a cursor edited by hand is refused, not sent on.
  const known = Object.keys(given);
  for (const [name, value] of Object.entries(position.filters as Record<string, unknown>)) {
    if (!known.includes(name) || (value !== undefined && value !== null && typeof value !== 'string')) {
      throw argumentError('cursor', `not a cursor of ${tool}`, `give the next_cursor of the last ${tool} answer as it is`);
    }
  }
  checkSameFilters(position, given);
  return position;
}

/**
 * Up to `limit` records from `position`, reading the pages `pages(startPage)` yields one after the other (no page
 * fetched ahead that the slice does not need); `onRecord` sees each record answered.
 */
export async function readSlice(
  pages: (startPage: number) => AsyncGenerator<Page>,
  position: { page: number; skip: number },
  limit: number,
  onRecord?: (record: ApiRecord) => void,
): Promise<ListSlice> {
  const records: ApiRecord[] = [];
  const at: ListSlice['at'] = [];
  let total: number | undefined;
  let skip = position.skip;
  for await (const page of pages(position.page)) {
    total ??= page.total;
    const rest = page.records.slice(skip);
    const room = limit - records.length;
    for (const [index, record] of rest.slice(0, room).entries()) {
      onRecord?.(record);
      records.push(record);
      at.push({ page: page.page, skip: skip + index });
    }
    if (rest.length > room) return { records, at, next: { page: page.page, skip: skip + room }, total };
    skip = 0;
    if (records.length === limit)
      return { records, at, next: page.nextPage === undefined || page.nextPage <= page.page ? undefined : { page: page.nextPage, skip: 0 }, total };
  }
  return { records, at, next: undefined, total };
}

/**
 * A slice as a tool answers it: its rows (as many as fit the size budget), the total when known, and while rows
 * remain a next_cursor and how to use it; `notes` say what the service ignored.
 */
export function sliceAnswer<Filters>(
  tool: string,
  noun: string,
  position: ListPosition<Filters>,
  slice: ListSlice,
  rows: readonly unknown[],
  notes: string[],
): unknown {
  // A row too large to share an answer is cut (its long values shortened): one row always fits, and the list moves on.
  const shown = rows.map((row) => (jsonBytes(row) > MAX_ROW_BYTES ? cutRow(row) : row));
  return fitted(shown, (kept, left) => {
    // Cut to fit: the next slice starts at the first row left out, where the service really put it (a service that
    // ignores paging sends pages of its own size).
    const next = left > 0 ? slice.at[shown.length - left] : slice.next;
    const cursor = next === undefined ? undefined : encodeCursor(tool, { ...position, ...next });
    return {
      rows: kept,
      ...(slice.total === undefined ? {} : { total: slice.total }),
      ...(cursor === undefined ? {} : { next_cursor: cursor, more: `more ${noun}: call ${tool} with {"cursor": "${cursor}"}` }),
      ...(notes.length > 0 ? { notes } : {}),
    };
  });
}

/** A row's JSON larger than this is cut (cutRow): four such rows still fit one answer. */
const MAX_ROW_BYTES = Math.floor(MAX_TEXT_BYTES / 4);

/** A row with each value longer than 1,000 characters of JSON shortened (cutValue). */
function cutRow(row: unknown): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return cutValue(row, 1_000);
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, cutValue(value, 1_000)]));
}

/**
 * A list tool's answer: `limit` rows from `position` on, read with `pages`, each record shown as `row`, and what the
 * service ignored (its `silences`) said once.
 */
export async function listAnswer<Filters>(
  tool: string,
  noun: string,
  position: ListPosition<Filters>,
  limit: number,
  pages: (startPage: number) => AsyncGenerator<Page>,
  silences: ListSilences,
  row: (record: ApiRecord) => unknown,
): Promise<{ value: unknown }> {
  const slice = await readSlice(pages, position, limit, (record) => silences.see(record));
  return { value: sliceAnswer(tool, noun, position, slice, slice.records.map(row), silenceNotes(silences, 'rows as received')) };
}

/** The two arguments every list tool ends with: how many rows, and the cursor of the last answer. */
export const PAGING_ARGS = [
  integerArg('limit', 'rows to answer', { min: 1, max: 200, default: 50 }),
  stringArg('cursor', 'next_cursor of the last answer: the rows after it, with its filters'),
] as const;

/** How a list tool reads its list, for the filters a position holds: the pages from a start page, and what the service may silently not do. */
export interface ListReading {
  pages: (startPage: number) => AsyncGenerator<Page>;
  silences: ListSilences;
}

/**
 * A list tool's answer: the position the cursor holds (or the first, for the filters `given`), the list read from there
 * (`read` turns the position's filters into the request, as the verb's plan does), `limit` rows, and the next cursor.
 */
export function pagedAnswer<Filters extends object>(
  tool: string,
  noun: string,
  args: { limit?: number; cursor?: string },
  given: Filters,
  read: (filters: Filters, perPage: PerPage) => ListReading,
  row: (record: ApiRecord) => unknown,
): Promise<{ value: unknown }> {
  const limit = args.limit ?? 50;
  const position = startingPosition(tool, args.cursor, given, limit);
  const { pages, silences } = read(position.filters, position.perPage);
  return listAnswer(tool, noun, position, limit, pages, silences, row);
}
