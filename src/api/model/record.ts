// A record as the service sends it (any JSON object) and a page of them, with the two readings every layer makes of
// the service's loose values: a number that may arrive as a string, and whether a value is a JSON object.
import type { RequestInfo } from '../errors.js';

export type ApiRecord = Record<string, unknown>;

/** One page of a list, whatever envelope it came in. */
export interface Page<T = ApiRecord> {
  records: T[];
  /** The page number this is (1-based). */
  page: number;
  /** The next page's number, or undefined on the last page. */
  nextPage: number | undefined;
  /** Total records and pages, when the service says (length-aware pages only). */
  total?: number;
  lastPage?: number;
  /** A bare JSON array, with no paging information of its own. */
  bare?: boolean;
  /** The request that fetched it, for messages. */
  request: RequestInfo;
}

/** Numbers may arrive as strings; anything else is undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A JSON object (not null, not an array): what a record, an envelope or a nested field must be to be read. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
