// Every failure the client can meet, typed where it arises; src/cli/exit.ts turns them into exit codes.

/** The exit codes of the command contract, one per failure class. */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  validation: 5,
  rateLimited: 6,
  network: 7,
  server: 8,
  gate: 10,
  interrupted: 130,
  /** A bulk run whose stdout went away (EPIPE) before every item was done: 128 + SIGPIPE, as a shell reports it. */
  stdoutClosed: 141,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface RequestInfo {
  method: string;
  /** Path under the base URL, with query string; never carries the key. */
  path: string;
}

/** Base class of every error rsapi raises on purpose; `exitCode` picks the process exit code. */
export class RsapiError extends Error {
  readonly exitCode: ExitCodeValue;
  /** A second line for the user: what to do about it. */
  hint?: string;

  constructor(message: string, exitCode: ExitCodeValue, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = options?.hint;
  }
}

/** Bad flag, argument or value, caught before any request. */
export class UsageError extends RsapiError {
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/** No key configured anywhere: an auth failure that never reached the service. */
export class MissingKeyError extends RsapiError {
  constructor(profile: string) {
    super(`no API key configured for profile "${profile}"`, ExitCode.auth, {
      hint: 'run `rsapi auth login`, or set RSAPI_API_KEY, or pass --api-key',
    });
  }
}

/** A request the service answered with an error status, or an answer that is not what a client can use. */
export class ApiError extends RsapiError {
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  /** The service's own message, when its body had one. */
  readonly serviceMessage: string | undefined;

  constructor(
    what: string,
    exitCode: ExitCodeValue,
    request: RequestInfo,
    status: number | undefined,
    options?: { cause?: unknown; hint?: string; serviceMessage?: string },
  ) {
    const statusText = status === undefined ? '' : ` (HTTP ${status}, ${request.method} ${request.path})`;
    const where = status === undefined ? ` (${request.method} ${request.path})` : statusText;
    super(`${what}${where}`, exitCode, options);
    this.status = status;
    this.method = request.method;
    this.path = request.path;
    this.serviceMessage = options?.serviceMessage;
  }
}

/** 401 or 403. */
export class AuthError extends ApiError {
  constructor(request: RequestInfo, status: number, serviceMessage?: string) {
    const what = status === 403 ? 'permission refused' : 'authentication refused';
    super(withServiceMessage(what, serviceMessage), ExitCode.auth, request, status, {
      serviceMessage,
      hint:
        status === 403
          ? 'the key is valid but lacks the right for this; check the account or plan'
          : 'check the key: `rsapi auth status`, or log in again with `rsapi auth login`',
    });
  }
}

/** 404. */
export class NotFoundError extends ApiError {
  constructor(request: RequestInfo, serviceMessage?: string, hint?: string) {
    super(withServiceMessage('not found', serviceMessage), ExitCode.notFound, request, 404, {
      serviceMessage,
      hint,
    });
  }
}

/** 422 or 400: the service rejected one or more fields. */
export class ValidationError extends ApiError {
  /** Field name to its messages, as the service sent them. */
  readonly fields: Record<string, string[]>;

  constructor(request: RequestInfo, status: number, serviceMessage: string | undefined, fields: Record<string, string[]>) {
    super(withServiceMessage('the service rejected the request', serviceMessage), ExitCode.validation, request, status, {
      serviceMessage,
    });
    this.fields = fields;
  }
}

/** 429 after every retry. */
export class RateLimitError extends ApiError {
  readonly retryAfterSeconds: number | undefined;

  constructor(request: RequestInfo, retryAfterSeconds: number | undefined, attempts: number) {
    super(`still rate limited after ${attempts} attempt${attempts === 1 ? '' : 's'}`, ExitCode.rateLimited, request, 429, {
      hint:
        retryAfterSeconds === undefined
          ? 'wait a moment and try again, or raise --retries'
          : `the service asks to wait ${retryAfterSeconds}s; try again then, or raise --retries`,
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Connection refused or reset, DNS failure, timeout: no usable answer arrived. */
export class NetworkError extends ApiError {
  /** What went wrong, in a word: 'refused', 'dns', 'timeout', 'reset', 'other'. */
  readonly kind: NetworkFailureKind;
  /** True when the request surely never reached the service (safe to resend a POST). */
  readonly neverSent: boolean;

  constructor(
    request: RequestInfo,
    kind: NetworkFailureKind,
    detail: string,
    options: { cause?: unknown; host?: string; neverSent?: boolean },
  ) {
    super(`${networkWhat(kind, options.host)}: ${detail}`, ExitCode.network, request, undefined, {
      cause: options.cause,
      hint:
        kind === 'timeout'
          ? 'the service did not answer in time; raise --timeout or try again'
          : 'check the base URL and that the service is running',
    });
    this.kind = kind;
    this.neverSent = options.neverSent ?? (kind === 'refused' || kind === 'dns');
  }
}
export type NetworkFailureKind = 'refused' | 'dns' | 'timeout' | 'reset' | 'other';

/** The user pressed Ctrl-C (or the run was otherwise aborted) while a request was under way. */
export class InterruptedError extends RsapiError {
  constructor() {
    super('interrupted', ExitCode.interrupted);
  }
}

/** 5xx, a redirect, or a body that is not the JSON expected. */
export class ServerError extends ApiError {
  constructor(what: string, request: RequestInfo, status: number | undefined, options?: { cause?: unknown; hint?: string; serviceMessage?: string }) {
    super(what, ExitCode.server, request, status, options);
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

  constructor(url: string, why: string, options: { cause?: unknown } = {}) {
    super(`${why}; the report for ${url} may still be created (the service may still be auditing the page), so it was not sent again`, ExitCode.network, { method: 'POST', path: '/reports' }, undefined, {
      cause: options.cause,
      hint: `check before creating it again: \`rsapi reports list --search '${url}'\`; a run with --journal looks it up first when resumed`,
    });
  }
}
