// The retry policy in one place: which outcomes of which methods are tried again, how long to wait, and which leave a create in doubt.
import { systemClock, type Clock } from './clock.js';
import { InterruptedError, NetworkError, RateLimitError, ServerError } from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How an attempt ended, as far as retrying cares: an answer with a status, or no answer at all. */
export type AttemptOutcome = { type: 'answer'; status: number; retryAfter?: string | string[] } | { type: 'network'; neverSent: boolean };

/**
 * What an unanswered create may have left at the service:
 * - `none`: nothing was done (never sent, refused before work: 429, 501, 505), or the answer is plain (422, ...);
 * - `ended`: the service's handling is over (it answered 500/502/503/408), but it may have stored the report
 *   first: one look-up that finds nothing proves it did not;
 * - `running`: the handling may still be under way (our timeout, a reset after sending, a gateway's 504 or
 *   Cloudflare's 520-524, any 5xx not known to mean "not processed"), or it surely stored the report (a 2xx whose
 *   body could not be read): a look-up that finds nothing proves nothing yet.
 */
export type CreateDoubt = 'none' | 'ended' | 'running';

export { systemClock, type Clock };

/** Methods that may be sent again after any retryable outcome: doing them twice does what doing them once does. */
const IDEMPOTENT = new Set<HttpMethod>(['GET', 'PUT', 'PATCH', 'DELETE']);
/** Answers worth another attempt of an idempotent request. */
const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
/**
 * A POST is sent again blindly only when it surely did nothing: it never left (connection refused, DNS),
 * or the service refused it before any work (429). Kept apart from RETRY_STATUSES on purpose: adding a
 * status there never makes a create be sent twice.
 */
const POST_NOTHING_DONE_STATUSES = new Set([429]);
/** Answers after which a create's handling is over but may have stored the report. */
const CREATE_ENDED_STATUSES = new Set([408, 500, 502, 503]);
/**
 * The 5xx answers known to mean the request was not processed: the method or the HTTP version is not served.
 * Every other 5xx (504, 507, Cloudflare's 520-524: "a timeout occurred" while the origin works on) may hide a
 * stored report, or one still being made.
 */
const CREATE_NOT_PROCESSED_5XX = new Set([501, 505]);

export const DEFAULT_RETRY_BASE_MS = 300;
/** Backoff never grows past this, whatever the attempt. */
export const MAX_BACKOFF_MS = 8_000;
/** The longest wait a Retry-After header may impose, unless the client says otherwise. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryPolicyOptions {
  /** Retries after the first attempt (so at most retries + 1 attempts). */
  retries: number;
  /** First backoff delay; doubles each retry, with jitter. */
  baseMs?: number;
  maxRetryAfterMs?: number;
  clock?: Clock;
}

export class RetryPolicy {
  readonly retries: number;
  readonly clock: Clock;
  private readonly baseMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(options: RetryPolicyOptions) {
    this.retries = options.retries;
    this.baseMs = options.baseMs ?? DEFAULT_RETRY_BASE_MS;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
    this.clock = options.clock ?? systemClock;
  }

  /** Whether `method` is sent again after `outcome` of attempt number `attempt` (1-based). */
  shouldRetry(method: HttpMethod, outcome: AttemptOutcome, attempt: number, retries = this.retries): boolean {
    if (attempt > retries) return false;
    if (method === 'POST') return outcome.type === 'network' ? outcome.neverSent : POST_NOTHING_DONE_STATUSES.has(outcome.status);
    if (!IDEMPOTENT.has(method)) return false;
    return outcome.type === 'network' || RETRY_STATUSES.has(outcome.status);
  }

  /**
   * A create whose handling ended (`ended`) and that a look-up then showed not stored is, from there on,
   * like a request that did nothing: it is sent again on the outcomes an idempotent request would be.
   */
  mayResendCreate(outcome: AttemptOutcome, attempt: number): boolean {
    return this.shouldRetry('PUT', outcome, attempt);
  }

  /** How long to wait after attempt number `attempt` before the next: Retry-After (capped), else exponential backoff with jitter. */
  delayMs(attempt: number, outcome: AttemptOutcome): number {
    const fromHeader = outcome.type === 'answer' ? parseRetryAfter(outcome.retryAfter, this.clock.now()) : undefined;
    if (fromHeader !== undefined && fromHeader > 0) return Math.min(fromHeader, this.maxRetryAfterMs);
    const base = Math.min(this.baseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    return Math.round(base / 2 + this.clock.random() * (base / 2));
  }

  /** Whether a request may have reached the service although no usable answer came back (a retried DELETE's 404 then means "gone"). */
  static mayHaveArrived(outcome: AttemptOutcome): boolean {
    return outcome.type === 'network' ? !outcome.neverSent : outcome.status === 502 || outcome.status === 504;
  }

  /** What a create that ended this way may have left at the service (see CreateDoubt). */
  static createDoubt(outcome: AttemptOutcome | undefined): CreateDoubt {
    if (outcome === undefined) return 'none';
    if (outcome.type === 'network') return outcome.neverSent ? 'none' : 'running';
    // A 2xx reaches here only when its body could not be read: the report exists, so it is looked for, never sent again.
    if (outcome.status >= 200 && outcome.status < 300) return 'running';
    if (CREATE_ENDED_STATUSES.has(outcome.status)) return 'ended';
    if (outcome.status >= 500 && outcome.status < 600) return CREATE_NOT_PROCESSED_5XX.has(outcome.status) ? 'none' : 'running';
    return 'none';
  }

  /**
   * How long a create left `running` is watched for before it is called unsettled: as long again as the
   * client was willing to wait for its answer (the create timeout), at least a few seconds.
   */
  static settleWindowMs(createTimeoutMs: number): number {
    return Math.max(createTimeoutMs, MIN_SETTLE_WINDOW_MS);
  }

  /** The waits between settle look-ups: a tenth of the create timeout at first, doubling, at most half of it. */
  static settleDelayMs(lookUp: number, createTimeoutMs: number): number {
    const first = Math.min(Math.max(createTimeoutMs / 10, 100), 2_000);
    return Math.round(Math.min(first * 2 ** (lookUp - 1), Math.max(createTimeoutMs / 2, first)));
  }
}

const MIN_SETTLE_WINDOW_MS = 3_000;

/** The outcome a typed error stands for, if it is the end of an attempt (not a usage error, not Ctrl-C). */
export function outcomeOfError(error: unknown): AttemptOutcome | undefined {
  if (error instanceof InterruptedError) return undefined;
  if (error instanceof NetworkError)
    return error.status === undefined ? { type: 'network', neverSent: error.neverSent } : { type: 'answer', status: error.status };
  if (error instanceof RateLimitError) return { type: 'answer', status: 429 };
  if (error instanceof ServerError && error.status !== undefined) return { type: 'answer', status: error.status };
  return undefined;
}

/**
 * The wait a refusal (429) asks for, as a Retry-After value: its Retry-After, else Laravel's X-RateLimit-Reset (the
 * window's end in epoch seconds), taken against the answer's own Date so that the two clocks never mix.
 */
export function retryAfterOf(headers: Record<string, string | string[] | undefined>, now = Date.now()): string | string[] | undefined {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) return retryAfter;
  const reset = Array.isArray(headers['x-ratelimit-reset']) ? headers['x-ratelimit-reset'][0] : headers['x-ratelimit-reset'];
  if (reset === undefined || !/^\s*\d+\s*$/.test(reset)) return undefined;
  const date = typeof headers.date === 'string' ? Date.parse(headers.date) : NaN;
  const seconds = Number(reset) - (Number.isNaN(date) ? now : date) / 1000;
  return String(Math.max(0, Math.ceil(seconds)));
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
