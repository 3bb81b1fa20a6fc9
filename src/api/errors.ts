// Every failure the client can meet, typed where it arises, with its status and context; no exit codes and no CLI
// words here: src/cli/runtime/exit-codes.ts alone turns an error into an exit code and a hint.
import { plural } from '../plural.js';
import { RsapiError } from '../errors.js';

export interface RequestInfo {
  method: string;
  /** Path under the base URL, with query string; never carries the key. */
  path: string;
}

export { RsapiError };

/** A value given to the client that it refuses before any request: a bad base URL, a path that leaves it, an empty id. */
export class InvalidRequestError extends RsapiError {}

/** A request the service answered with an error status, or an answer that is not what a client can use. */
export class ApiError extends RsapiError {
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  /** The service's own message, when its body had one. */
  readonly serviceMessage: string | undefined;
  /** The answer as it came (status, headers, parsed JSON body), set by the HTTP client; `rsapi api` prints it. */
  response?: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown; text?: string };

  constructor(what: string, request: RequestInfo, status: number | undefined, options?: { cause?: unknown; hint?: string; serviceMessage?: string }) {
    const statusText = status === undefined ? '' : ` (HTTP ${status}, ${request.method} ${request.path})`;
    const where = status === undefined ? ` (${request.method} ${request.path})` : statusText;
    super(`${what}${where}`, options);
    this.status = status;
    this.method = request.method;
    this.path = request.path;
    this.serviceMessage = options?.serviceMessage;
  }
}

/** The resource and id of a path naming one record (`/reports/12?x=1` -> reports, 12); undefined for a list or other route. */
export function recordOf(path: string): { resource: 'reports' | 'projects'; id: string } | undefined {
  const match = /^\/(reports|projects)\/([^/?]+)\/?(?:\?|$)/.exec(path);
  return match ? { resource: match[1] as 'reports' | 'projects', id: match[2] ?? '' } : undefined;
}

/**
 * Why the service refused, as far as the status and the request tell (never its message, which is translated):
 * - `key`: the key itself (401, or a redirect to the login page);
 * - `plan`: a 403 on a read of a list: the key is known but the account or its plan has no API access (phpRank
 *   answers every call so then);
 * - `record`: a 403 on one record: phpRank answers so for a report that does not exist as for one of another account;
 * - `action`: a 403 on anything else.
 */
export type Refusal = 'key' | 'plan' | 'record' | 'action';

/** 401 or 403 (or a redirect to a login page: the key was refused). */
export class AuthError extends ApiError {
  readonly refusal: Refusal;

  constructor(request: RequestInfo, status: number, serviceMessage?: string, options: { refusal?: Refusal; what?: string } = {}) {
    const refusal = options.refusal ?? refusalOf(request, status);
    super(withServiceMessage(options.what ?? refusalWhat(refusal, request), serviceMessage), request, status, { serviceMessage });
    this.refusal = refusal;
  }
}

function refusalOf(request: RequestInfo, status: number): Refusal {
  if (status !== 403) return 'key';
  if (recordOf(request.path)) return 'record';
  return request.method === 'GET' ? 'plan' : 'action';
}

function refusalWhat(refusal: Refusal, request: RequestInfo): string {
  if (refusal === 'key') return 'authentication refused';
  if (refusal === 'record') return `no such ${recordOf(request.path)?.resource === 'projects' ? 'project' : 'report'}, or not yours`;
  return 'permission refused';
}

/**
 * A 403 on one record, settled by a look-up of it (GET): `exists` false when that answered 404 (phpRank refuses an
 * update of a report that does not exist with 403), true when it found the record (the key may read it, not change it).
 */
export class HiddenRecordError extends AuthError {
  readonly exists: boolean;

  constructor(refused: AuthError, exists: boolean, lookUp: RequestInfo) {
    const record = recordOf(refused.path);
    const noun = record?.resource === 'projects' ? 'project' : 'report';
    const what = exists
      ? `permission refused: ${noun} ${record?.id ?? ''} exists (${lookUp.method} ${lookUp.path} found it), but the service refuses this to the key`
      : `no such ${noun}, or not yours: ${lookUp.method} ${lookUp.path} answers 404, so it does not exist`;
    super({ method: refused.method, path: refused.path }, refused.status ?? 403, exists ? refused.serviceMessage : undefined, { refusal: 'record', what });
    this.exists = exists;
  }
}

/** 404. `routeMissing`: the answer says the route, not a record, is missing (a list, an empty Laravel message): the base URL is wrong. */
export class NotFoundError extends ApiError {
  readonly routeMissing: boolean;

  constructor(request: RequestInfo, serviceMessage?: string, options: { routeMissing?: boolean } = {}) {
    super(withServiceMessage('not found', serviceMessage), request, 404, { serviceMessage });
    this.routeMissing = options.routeMissing ?? recordOf(request.path) === undefined;
  }
}

/** 422 or 400: the service rejected one or more fields. */
export class ValidationError extends ApiError {
  /** Field name to its messages, as the service sent them. */
  readonly fields: Record<string, string[]>;

  constructor(request: RequestInfo, status: number, serviceMessage: string | undefined, fields: Record<string, string[]>) {
    super(withServiceMessage('the service rejected the request', serviceMessage), request, status, {
      serviceMessage,
    });
    this.fields = fields;
  }
}

/** 429 after every retry. */
export class RateLimitError extends ApiError {
  readonly retryAfterSeconds: number | undefined;

  constructor(request: RequestInfo, retryAfterSeconds: number | undefined, attempts: number) {
    super(`still rate limited after ${plural(attempts, 'attempt')}`, request, 429);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Connection refused or reset, DNS failure, timeout: no usable answer arrived. */
export class NetworkError extends ApiError {
  /** What went wrong, in a word: 'refused', 'dns', 'timeout', 'reset', 'other'. */
  readonly kind: NetworkFailureKind;
  /** True when the request surely never reached the service (safe to resend a POST). */
  readonly neverSent: boolean;

  constructor(request: RequestInfo, kind: NetworkFailureKind, detail: string, options: { cause?: unknown; host?: string; neverSent?: boolean }) {
    super(`${networkWhat(kind, options.host)}: ${detail}`, request, undefined, { cause: options.cause });
    this.kind = kind;
    this.neverSent = options.neverSent ?? (kind === 'refused' || kind === 'dns');
  }
}
export type NetworkFailureKind = 'refused' | 'dns' | 'timeout' | 'reset' | 'other';

/** A failure that says the service is out of reach (connections refused, host unknown), after the client's retries. */
export function serviceUnreachable(error: unknown): error is NetworkError {
  return error instanceof NetworkError && (error.kind === 'refused' || error.kind === 'dns');
}

/**
 * A look-up's failure that says the service does not serve reads either, after the client's retries: out of reach
 * (serviceUnreachable), or a server fault (5xx: a service answering 503 to everything).
 */
export function serviceFailing(error: unknown): error is NetworkError | ServerError {
  return serviceUnreachable(error) || (error instanceof ServerError && error.status !== undefined && error.status >= 500);
}

/** The user pressed Ctrl-C (or the run was otherwise aborted) while a request was under way. */
export class InterruptedError extends RsapiError {
  constructor() {
    super('interrupted');
  }
}

/** 5xx, a redirect, or a body that is not the JSON expected. */
export class ServerError extends ApiError {
  constructor(what: string, request: RequestInfo, status: number | undefined, options?: { cause?: unknown; hint?: string; serviceMessage?: string }) {
    super(what, request, status, options);
  }
}

/** A list whose pages repeat: the service seems to ignore `page`, so following the pages would never end. */
export class PagingUnsupportedError extends ServerError {
  constructor(request: RequestInfo) {
    super('the service sent the same records as for an earlier page; it seems not to support paging', request, undefined);
  }
}

function withServiceMessage(what: string, serviceMessage: string | undefined): string {
  return serviceMessage ? `${what}: ${serviceMessage}` : what;
}

function networkWhat(kind: NetworkFailureKind, host: string | undefined): string {
  const target = host ? ` ${host}` : '';
  switch (kind) {
    case 'refused':
      return `could not connect to${target || ' the service'}`;
    case 'dns':
      return `could not resolve${target || ' the host'}`;
    case 'timeout':
      return 'request timed out';
    case 'reset':
      return 'connection lost';
    default:
      return 'network failure';
  }
}

/**
 * A create whose answer was lost while the service may still have been working on it, and whose report did
 * not show up while rsapi watched: it may exist, or appear later. It is never sent again by this run.
 */
export class UnsettledCreateError extends ApiError {
  /** The report may exist: a resume looks it up before sending it. */
  readonly maybeCreated = true;
  /** The page whose report is in doubt. */
  readonly url: string;
  /**
   * Set when the watch for the report ended because the service went out of reach, or still failed every read at its
   * end (the look-up's failure, serviceFailing): a bulk run starts no new URL after it.
   */
  readonly serviceGone: NetworkError | ServerError | undefined;
  /** Why rsapi could not tell, alone (`the service answered 503 and no report showed up within 3 s`). */
  readonly why: string;

  constructor(url: string, why: string, options: { cause?: unknown; serviceGone?: NetworkError | ServerError } = {}) {
    super(
      `${why}; the report for ${url} may still be created (the service may still be auditing the page), so it was not sent again`,
      { method: 'POST', path: '/reports' },
      undefined,
      {
        cause: options.cause,
      },
    );
    this.url = url;
    this.why = why;
    this.serviceGone = options.serviceGone;
  }
}
