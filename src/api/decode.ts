// Tolerant decoding of the service's answers: JSON or not, record wrapped in `data` or bare, every list shape.
import { ApiError, AuthError, NotFoundError, ServerError, ValidationError, type RequestInfo } from './errors.js';
import { JsonTooDeepError, parseJson } from './json.js';

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

interface DecodedBody {
  value: unknown;
  isHtml: boolean;
}

/**
 * Parses a body. A success must be JSON (or empty); an error status may carry anything, and a
 * non-JSON error body is kept as undefined with a note of whether it was HTML.
 */
export function decodeBody(text: string, status: number, request: RequestInfo, contentType: string): DecodedBody {
  if (text.trim() === '') return { value: undefined, isHtml: false };
  try {
    return { value: parseJson(text), isHtml: false };
  } catch (cause) {
    if (cause instanceof JsonTooDeepError) {
      if (status >= 400) return { value: undefined, isHtml: false };
      throw new ServerError(`the service answered with ${cause.message}, more than any answer of this API`, request, status, {
        cause,
        hint: 'check the base URL: it should point at the API (…/api/v1) of a Webpage Report Service',
      });
    }
    const isHtml = /html/i.test(contentType) || /^\s*</.test(text);
    if (status >= 400) return { value: undefined, isHtml };
    throw new ServerError(
      isHtml ? 'the service answered with an HTML page instead of JSON' : 'the service answered with a body that is not valid JSON (truncated?)',
      request,
      status,
      { cause, hint: 'check the base URL: it should point at the API (…/api/v1), not a web page, login page or proxy' },
    );
  }
}

/** A service's message longer than this is cut (a hostile or broken one could send megabytes). */
export const MAX_SERVICE_MESSAGE = 1_000;

/** The `message` of a Laravel error body, if any, cut to MAX_SERVICE_MESSAGE characters. */
export function serviceMessage(body: unknown): string | undefined {
  if (isObject(body) && typeof body.message === 'string' && body.message.trim() !== '') return shortened(body.message.trim());
  return undefined;
}

function shortened(text: string): string {
  return text.length <= MAX_SERVICE_MESSAGE ? text : `${text.slice(0, MAX_SERVICE_MESSAGE)}… (${text.length - MAX_SERVICE_MESSAGE} more characters)`;
}

/** Maps an error status (other than 3xx, 408 and 429, which the HTTP client handles) to its typed error. */
export function errorForStatus(status: number, request: RequestInfo, body: unknown, isHtml: boolean, message: string | undefined): ApiError {
  if (status === 401 || status === 403) return new AuthError(request, status, message);
  if (status === 404) return new NotFoundError(request, message, notFoundHint(request.path, message));
  if (status === 422 || status === 400) return new ValidationError(request, status, message, fieldErrors(body));
  const htmlHint = isHtml ? 'the service answered with HTML, not JSON: check the base URL' : undefined;
  if (status >= 500) {
    return new ServerError(message ? `server error: ${message}` : 'server error', request, status, { serviceMessage: message, hint: htmlHint });
  }
  // Every other 4xx (405, 409, 413, 418...): the service refused the request as sent.
  return new ApiError(message ? `request refused: ${message}` : 'request refused', request, status, {
    serviceMessage: message,
    hint: htmlHint,
  });
}

/** A missing route means a wrong base URL, not a wrong id. */
function notFoundHint(_path: string, message: string | undefined): string | undefined {
  if (message && /route .* could not be found/i.test(message)) return 'the service has no such route: check the base URL (…/api/v1)';
  return undefined;
}

function fieldErrors(body: unknown): Record<string, string[]> {
  const errors = isObject(body) ? body.errors : undefined;
  const fields: Record<string, string[]> = {};
  if (!isObject(errors)) return fields;
  for (const [field, messages] of Object.entries(errors)) {
    fields[shortened(field)] = (Array.isArray(messages) ? messages.map(String) : [String(messages)]).map(shortened);
  }
  return fields;
}

/** One record, wrapped in `data` or bare. */
export function decodeRecord(body: unknown, request: RequestInfo): ApiRecord {
  // `data` holding an object is the envelope; a body with `data` but no id of its own (null, a list,
  // a string) is not one record. A bare record may have a `data` field of its own.
  const record = isObject(body) && (isObject(body.data) || ('data' in body && !('id' in body))) ? body.data : body;
  if (!isObject(record)) throw new ServerError('the service answered without the expected record', request, undefined);
  return record;
}

/**
 * A list page: a length-aware page, a simple page, or a bare array. `perPage` is what was asked for
 * (or the service's default), used to guess whether a bare array has a next page.
 */
export function decodePage(body: unknown, page: number, perPage: number, request: RequestInfo): Page {
  if (Array.isArray(body)) {
    // Fewer than asked for: the last page. More: the service does not page at all, and this is the whole list.
    const records = body.filter(isObject);
    return { records, page, nextPage: records.length === perPage ? page + 1 : undefined, bare: true, request };
  }
  if (!isObject(body) || !Array.isArray(body.data)) {
    throw new ServerError('the service answered without the expected list', request, undefined);
  }
  const records = body.data.filter(isObject);
  const meta = isObject(body.meta) ? body.meta : body;
  const links = isObject(body.links) ? body.links : undefined;
  const current = toInteger(meta.current_page) ?? page;
  const lastPage = toInteger(meta.last_page);
  const total = toInteger(meta.total);
  let nextPage: number | undefined;
  if (links && 'next' in links) {
    nextPage = links.next ? (pageFromLink(links.next) ?? current + 1) : undefined;
  } else if (typeof body.next_page_url === 'string' || body.next_page_url === null) {
    nextPage = body.next_page_url ? (pageFromLink(body.next_page_url) ?? current + 1) : undefined;
  } else if (lastPage !== undefined) {
    nextPage = current < lastPage ? current + 1 : undefined;
  } else {
    nextPage = records.length >= perPage ? current + 1 : undefined;
  }
  return { records, page: current, nextPage, total, lastPage, request };
}

/** The page number in a `links.next` URL. Only the number is used: the URL itself may name another host. */
function pageFromLink(link: unknown): number | undefined {
  if (typeof link !== 'string') return undefined;
  const match = /[?&]page=(\d+)/.exec(link);
  return match ? Number(match[1]) : undefined;
}

/** Numbers may arrive as strings; anything else is undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function toInteger(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
