// Tolerant decoding of the service's answers: JSON or not, record wrapped in `data` or bare, every list shape.
import { plural } from '../../plural.js';
import { ApiError, AuthError, NotFoundError, recordOf, ServerError, ValidationError, type RequestInfo } from '../errors.js';
import { JsonTooDeepError, parseJson } from './json.js';
import { isObject, toNumber, type ApiRecord, type Page } from '../model/record.js';

interface DecodedBody {
  value: unknown;
  isHtml: boolean;
  /** A PHP notice printed before a success's JSON (its first line), skipped to read the JSON after it. */
  skippedNotice?: string;
}

/**
 * PHP notices, warnings and deprecations printed before the JSON by a host with display_errors on: as HTML
 * (`<br />\n<b>Deprecated</b>:  ... on line <b>12</b><br />`) or as text (`Deprecated: ... on line 12`), one or more.
 */
const PHP_NOTICES = /^\s*(?:(?:<br\s*\/?>\s*)*(?:<b>)?(?:PHP )?(?:Deprecated|Notice|Warning|Strict Standards)(?:<\/b>)?:[^\n]*?(?:<br\s*\/?>|\n)\s*)+/i;

/** The JSON after leading PHP notices, with the first notice as one line of text; undefined when the text does not start so. */
function afterPhpNotices(text: string): { json: string; notice: string } | undefined {
  const notices = PHP_NOTICES.exec(text);
  if (!notices) return undefined;
  const notice = notices[0]
    .replace(/<[^>]*>/g, '')
    .trim()
    .split('\n')[0]!
    .replace(/\s+/g, ' ');
  return { json: text.slice(notices[0].length), notice: notice.slice(0, 200) };
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
    const notices = status < 300 && !(cause instanceof JsonTooDeepError) ? afterPhpNotices(text) : undefined;
    if (notices) {
      try {
        return { value: parseJson(notices.json), isHtml: false, skippedNotice: notices.notice };
      } catch {
        // Not JSON after the notices either: the answer is what it looked like at first.
      }
    }
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

/**
 * The `message` of an error body as one line, cut to MAX_SERVICE_MESSAGE characters: a string as it is; phpRank's
 * object of field => messages (its 422) as the first `field: message` and how many more; an array or a number as
 * text. Never "[object Object]", never empty.
 */
export function serviceMessage(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const { message } = body;
  if (isObject(message)) return fieldSummary(fieldErrors({ errors: message }));
  const text = flatMessages(message).join('; ');
  return text === '' ? undefined : shortened(text);
}

/** `url: The url must be a valid URL. (and 2 more errors)`, as Laravel sums up its own validation errors. */
function fieldSummary(fields: Record<string, string[]>): string | undefined {
  const all = Object.entries(fields).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`));
  const [first] = all;
  if (first === undefined) return undefined;
  const more = all.length - 1;
  return shortened(more === 0 ? first : `${first} (and ${plural(more, 'more error')})`);
}

/** Every text in a message value, however nested: strings, numbers and booleans as text; null and blank strings dropped. */
function flatMessages(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return [String(value)];
  if (depth > 4 || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap((item) => flatMessages(item, depth + 1));
}

function shortened(text: string): string {
  return text.length <= MAX_SERVICE_MESSAGE ? text : `${text.slice(0, MAX_SERVICE_MESSAGE)}… (${text.length - MAX_SERVICE_MESSAGE} more characters)`;
}

/** Maps an error status (other than 3xx, 408 and 429, which the HTTP client handles) to its typed error. */
export function errorForStatus(status: number, request: RequestInfo, body: unknown, isHtml: boolean, message: string | undefined): ApiError {
  if (status === 401 || status === 403) return new AuthError(request, status, message);
  if (status === 404) return new NotFoundError(request, message, { routeMissing: routeMissing(request, body, message) });
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

/**
 * Whether a 404 means the route is missing (a wrong base URL) rather than a record: on a list or any path that
 * names no record, always (phpRank answers an unknown path with `Resource not found.`); on one record, when the
 * body's `message` is there but empty (Laravel 8's answer for an unknown route) or names a route.
 */
function routeMissing(request: RequestInfo, body: unknown, message: string | undefined): boolean {
  if (recordOf(request.path) === undefined) return true;
  if (isObject(body) && typeof body.message === 'string' && body.message.trim() === '') return true;
  return message !== undefined && /route .* could not be found/i.test(message);
}

/** The rejected fields: Laravel's `errors` object, and phpRank's `message` when it is one (its 422). */
export function fieldErrors(body: unknown): Record<string, string[]> {
  if (!isObject(body)) return {};
  const fields = new Map<string, string[]>();
  for (const source of [body.errors, body.message]) {
    if (!isObject(source)) continue;
    for (const [field, value] of Object.entries(source)) {
      const name = shortened(field);
      const messages = flatMessages(value).map(shortened);
      fields.set(name, [...new Set([...(fields.get(name) ?? []), ...messages])]);
    }
  }
  // fromEntries: a field named __proto__ stays a field.
  return Object.fromEntries(fields);
}

/**
 * The error for a 3xx (never followed). A redirect to a login page, or a 302 that sends an HTML page elsewhere on
 * the same site outside the API, is how Laravel refuses a key when it takes the request for a browser's: exit 3.
 * Any other is a base URL to correct.
 */
export function redirectError(status: number, request: RequestInfo, location: string | undefined, baseUrl: string, isHtml: boolean): ApiError {
  const base = new URL(baseUrl);
  const target = location === undefined ? undefined : parseUrl(location, base);
  const toLogin = target !== undefined && /(^|\/)login\/?$/i.test(target.pathname);
  const offApi = target !== undefined && target.origin === base.origin && !`${target.pathname}/`.startsWith(`${base.pathname}/`);
  if (toLogin || (status === 302 && isHtml && offApi)) {
    return new AuthError(request, status, undefined, {
      refusal: 'key',
      what: `authentication refused: the service sent rsapi to ${target?.pathname ?? 'its login page'} (not followed), as it does with a key it refuses`,
    });
  }
  return new ServerError(
    `the service answered with a redirect${location ? ` to ${redactQuery(location)}` : ''}, which rsapi does not follow`,
    request,
    status,
    {
      hint: 'check the base URL (https rather than http? the right host and path?); the key is never sent to another address',
    },
  );
}

function parseUrl(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function redactQuery(location: string): string {
  return location.replace(/\?.*$/, '');
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

function toInteger(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}
