// One place that sends requests: headers, bodies, timeouts, the retry policy, and turning answers into typed errors.
import { plural } from '../../plural.js';
import { decodeBody, errorForStatus, redirectError, serviceMessage } from './decode.js';
import { describeNetworkFailure } from './network-failure.js';
import { parseRetryAfter, retryAfterOf, RetryPolicy, systemClock, type AttemptOutcome, type Clock, type HttpMethod } from './retry-policy.js';
import { RateLimiter, type PaceEvent } from './rate-limiter.js';
import type { Dispatcher } from 'undici';
import { proxyConfigured, proxyFromEnv, type ProxySettings } from './proxy.js';
import { createSender, discardBody, type Sender } from './transport.js';
import { finalPageUrl } from './page-redirects.js';
import { ApiError, InterruptedError, NetworkError, RateLimitError, RsapiError, ServerError, InvalidRequestError, type RequestInfo } from '../errors.js';

export type { HttpMethod } from './retry-policy.js';
export type Params = Record<string, string | number | undefined>;

export interface HttpClientOptions {
  /** Normalised base URL, ending in /api/v1 (see base-url.ts). */
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  /** Per attempt, for reads and other requests. */
  timeoutMs: number;
  /** Retries after the first attempt (so at most retries + 1 attempts). */
  retries: number;
  /** First backoff delay; doubles each retry, with jitter. */
  retryBaseMs?: number;
  /** The longest wait a Retry-After header may impose. */
  maxRetryAfterMs?: number;
  /** Aborts every request under way (Ctrl-C). */
  signal?: AbortSignal;
  /** Once raised, no new attempt starts (retries, look-ups), but requests under way run to their end (bulk Ctrl-C). */
  stop?: AbortSignal;
  /** Time and sleep for backoff and deadlines; tests pass a fake one. */
  clock?: Clock;
  /** The largest body read from the service; a larger one is cut off (exit 8), never retried. Default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Observes each attempt, for --verbose. Never given the key. */
  onTrace?: (event: TraceEvent) => void;
  /** Told when requests wait for the service's rate-limit window to end (once a window). */
  onPace?: (event: PaceEvent) => void;
  /** Told of what the client tolerated in an answer that a person should know (a PHP notice before the JSON). Never given the key. */
  onWarning?: (message: string) => void;
  /**
   * After a create's answer was lost, retrace the page's own redirects from here to learn under which URL the service
   * stored its report (page-redirects.ts). Off by default: it sends requests to the audited page's host.
   */
  followPages?: boolean;
  /** Proxies to use; default: HTTPS_PROXY, HTTP_PROXY and NO_PROXY of the process environment. */
  proxy?: ProxySettings;
}

export interface TraceEvent {
  method: HttpMethod;
  url: string;
  attempt: number;
  status?: number;
  error?: string;
  ms: number;
  /** When a retry follows, how long it waits first. */
  retryInMs?: number;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Path under the base URL, starting with '/'; path segments already encoded. */
  path: string;
  query?: Params;
  form?: Params;
  /** Overrides the client's per-attempt timeout (report creation takes longer). */
  timeoutMs?: number;
  /** Overrides the client's retry count for this request. */
  retries?: number;
  /** More headers (`rsapi api -H`); they never replace the key's Authorization. */
  headers?: Record<string, string>;
  /** A body sent as it is (`rsapi api --input`), instead of the form. */
  body?: { text: string; contentType: string };
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body (204). */
  body: unknown;
  /** A DELETE whose earlier attempt may have arrived, answered 404 on retry: it is gone, by us. */
  goneAfterRetry?: boolean;
}

/** A page of 100 reports is tens of kilobytes; a body past this is not an answer of this API. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-policy.js';

export class HttpClient {
  readonly options: HttpClientOptions;
  private sender: Promise<Sender> | undefined;
  private retryPolicy: RetryPolicy | undefined;
  /** Service clock minus ours, from the last answer's Date header (1 s resolution, truncated). */
  private clockOffsetMs: number | undefined;
  private rateLimiter: RateLimiter | undefined;
  private readonly answerListeners = new Set<(status: number) => void>();

  constructor(options: HttpClientOptions) {
    this.options = options;
  }

  /** Sends a request under the retry policy (retry-policy.ts) and the rate limit (rate-limiter.ts); throws a typed error from errors.ts. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const retries = req.retries ?? this.options.retries;
    let arrivedBefore = false;
    // A 429 is no failure of the request (nothing was done): the first is waited out whatever --retries says.
    let rateLimitWaited = false;
    for (let attempt = 1; ; attempt++) {
      this.checkNotStopped();
      const url = this.url(req);
      const ticket = await this.limiter.acquire(this.stopSignal());
      const started = monotonicMs();
      let response: RawResponse;
      try {
        response = await this.send(req, url);
      } catch (error) {
        this.limiter.failed(ticket);
        const failure = this.classify(error, req);
        const outcome: AttemptOutcome | undefined = failure instanceof NetworkError ? { type: 'network', neverSent: failure.neverSent } : undefined;
        if (outcome && this.policy.shouldRetry(req.method, outcome, attempt, retries)) {
          arrivedBefore ||= RetryPolicy.mayHaveArrived(outcome);
          const wait = this.policy.delayMs(attempt, outcome);
          this.trace(req, url, attempt, started, { error: failure.message, retryInMs: wait });
          await this.pause(wait);
          continue;
        }
        this.trace(req, url, attempt, started, { error: failure.message });
        throw failure;
      }
      for (const listener of this.answerListeners) listener(response.status);
      // Outside the try: each answer is traced once, not a second time as the typed error interpret() throws.
      const retryAfter = retryAfterOf(response.headers);
      const outcome: AttemptOutcome = { type: 'answer', status: response.status, retryAfter };
      const firstRefusal = response.status === 429 && !rateLimitWaited;
      const retrying = firstRefusal || (response.status >= 400 && this.policy.shouldRetry(req.method, outcome, attempt, retries));
      if (response.status === 429) rateLimitWaited = true;
      const wait = retrying || response.status === 429 ? this.policy.delayMs(attempt, outcome) : 0;
      // The service asked us to slow down: every request of this client waits, not only this one, and none is sent
      // before the end of the window as the service said it (a Retry-After past the cap included).
      const serviceWaitMs = parseRetryAfter(retryAfter, this.policy.clock.now());
      if (response.status === 429) this.limiter.refused(ticket, wait, retryAfter !== undefined, response.headers, serviceWaitMs);
      else this.limiter.answered(ticket, response.headers);
      if (retrying) {
        arrivedBefore ||= RetryPolicy.mayHaveArrived(outcome);
        this.trace(req, url, attempt, started, { status: response.status, retryInMs: wait });
        if (response.status === 503) this.limiter.hold(wait);
        await this.pause(wait);
        continue;
      }
      this.trace(req, url, attempt, started, { status: response.status });
      if (response.status === 404 && req.method === 'DELETE' && arrivedBefore) {
        return { ...response, body: undefined, goneAfterRetry: true };
      }
      return this.interpret(req, url, response, attempt);
    }
  }

  /** The retry policy this client sends under (create's look-ups and settling use it too). */
  get policy(): RetryPolicy {
    this.retryPolicy ??= new RetryPolicy({
      retries: this.options.retries,
      baseMs: this.options.retryBaseMs,
      maxRetryAfterMs: this.options.maxRetryAfterMs,
      clock: this.options.clock ?? systemClock,
    });
    return this.retryPolicy;
  }

  /** The one limiter every request of this client goes through (bulk create, pages fetched ahead, deletes, look-ups). */
  get limiter(): RateLimiter {
    this.rateLimiter ??= new RateLimiter(this.policy.clock, this.options.onPace);
    return this.rateLimiter;
  }

  /**
   * Tells `listener` the status of every answer from now on, each attempt's (retries and look-ups included), until the
   * returned function is called: what a bulk run's breaker counts.
   */
  onAnswer(listener: (status: number) => void): () => void {
    this.answerListeners.add(listener);
    return () => this.answerListeners.delete(listener);
  }

  /** Throws InterruptedError when no new request may start (Ctrl-C). */
  checkNotStopped(): void {
    if (this.options.signal?.aborted || this.options.stop?.aborted) throw new InterruptedError();
  }

  /** Waits `ms` on the policy's clock; ends early with InterruptedError on Ctrl-C (either signal), or when `also` is raised. */
  pause(ms: number, also?: AbortSignal): Promise<void> {
    const stop = this.stopSignal();
    return this.policy.clock.sleep(ms, also && stop ? AbortSignal.any([stop, also]) : (also ?? stop));
  }

  /** Raised on Ctrl-C, either signal: what a wait before a new attempt ends on. */
  private stopSignal(): AbortSignal | undefined {
    const { signal, stop } = this.options;
    return signal && stop ? AbortSignal.any([signal, stop]) : (signal ?? stop);
  }

  /**
   * A moment of our clock on the service's clock, as far as its Date headers tell (at most about a
   * second early, never late); undefined before any answer carried a Date.
   */
  toServiceTime(localMs: number): number | undefined {
    return this.clockOffsetMs === undefined ? undefined : localMs + this.clockOffsetMs;
  }

  /**
   * The audited page's final URL after its redirects, with the request timeout per hop (page-redirects.ts); undefined
   * when it cannot be told, or when following pages is off (`followPages`).
   */
  async finalPageUrl(url: string): Promise<string | undefined> {
    if (this.options.followPages !== true) return undefined;
    this.checkNotStopped();
    const probe = { sender: await this.getSender(), userAgent: this.options.userAgent, timeoutMs: this.options.timeoutMs, signal: this.stopSignal() };
    return finalPageUrl(url, probe);
  }

  /** Closes the connection pool; the client is unusable afterwards. */
  async close(): Promise<void> {
    const sender = this.sender;
    this.sender = undefined;
    if (sender) await (await sender).close();
  }

  /** The request's path and query, as shown in messages (relative to the base URL). */
  static describe(req: HttpRequest): RequestInfo {
    const query = encodeParams(req.query);
    return { method: req.method, path: query ? `${req.path}?${query}` : req.path };
  }

  /**
   * The URL as it will be requested (what URL parsing makes of it, so the trace shows what is sent). One
   * that would leave the base path is refused: the key is sent nowhere else on the origin either.
   */
  private url(req: HttpRequest): string {
    const query = encodeParams(req.query);
    const base = new URL(this.options.baseUrl);
    const target = new URL(`${this.options.baseUrl}${req.path}${query ? `?${query}` : ''}`);
    const under = target.origin === base.origin && (target.pathname === base.pathname || target.pathname.startsWith(`${base.pathname}/`));
    if (!under) {
      throw new InvalidRequestError(
        `the path ${JSON.stringify(req.path)} would leave the base URL ${base.pathname}; "." and ".." steps are refused, encoded or not`,
      );
    }
    return target.href;
  }

  private async send(req: HttpRequest, url: string): Promise<RawResponse> {
    const sender = await this.getSender();
    const target = new URL(url);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      ...(req.body ? { 'content-type': req.body.contentType } : {}),
      ...lowerCaseKeys(req.headers),
      authorization: `Bearer ${this.options.apiKey}`,
    };
    let body: string | undefined = req.body?.text;
    if (req.form && !req.body) {
      body = encodeParams(req.form);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    // A timer of the request's own, cleared once its body is read. AbortSignal.timeout's timer lives until it fires or
    // its signal is collected (a weak reference and a finalizer each): 10,000 of them were held at the end of a
    // 50,000-page audit, and each full collection went round again for them.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([timeout.signal, this.options.signal]) : timeout.signal;
    try {
      const response = await sender.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: req.method,
        headers,
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readCapped(response, this.options.maxBodyBytes ?? MAX_BODY_BYTES, HttpClient.describe(req));
      const date = typeof response.headers.date === 'string' ? Date.parse(response.headers.date) : NaN;
      if (!Number.isNaN(date)) this.clockOffsetMs = date - Date.now();
      return { status: response.statusCode, headers: response.headers, text };
    } finally {
      clearTimeout(timer);
    }
  }

  private interpret(req: HttpRequest, url: string, response: RawResponse, attempts: number): HttpResponse {
    const info = HttpClient.describe(req);
    const { status, headers } = response;
    if (status >= 300 && status < 400) {
      const location = typeof headers.location === 'string' ? headers.location : undefined;
      throw redirectError(status, info, location, this.options.baseUrl, /html/i.test(contentType(headers)));
    }
    let body: ReturnType<typeof decodeBody>;
    try {
      body = decodeBody(response.text, status, info, contentType(headers));
    } catch (error) {
      // Not JSON: the text stays on the error, for `rsapi api -i` to show.
      if (error instanceof ApiError) error.response = { status, headers, body: undefined, text: response.text };
      throw error;
    }
    if (body.skippedNotice !== undefined) {
      this.options.onWarning?.(
        `the service printed a PHP notice before its JSON (${info.method} ${info.path}: "${body.skippedNotice}"); ` +
          'rsapi read the JSON after it: turn display_errors off on the service',
      );
    }
    if (status >= 200 && status < 300) return { status, headers, body: body.value };
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(retryAfterOf(headers));
      const limited = new RateLimitError(info, retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000), attempts);
      limited.response = { status, headers, body: body.value };
      throw limited;
    }
    if (status === 408) {
      // The service gave up receiving the request: nothing was done with it.
      throw new NetworkError(info, 'timeout', `the service gave up waiting (HTTP 408) after ${plural(attempts, 'attempt')}`, {
        host: new URL(url).host,
        neverSent: true,
      });
    }
    const error = errorForStatus(status, info, body.value, body.isHtml, serviceMessage(body.value));
    error.response = { status, headers, body: body.value, text: response.text };
    throw error;
  }

  private classify(error: unknown, req: HttpRequest): Error {
    if (error instanceof RsapiError) return error;
    if (this.options.signal?.aborted) return new InterruptedError();
    const info = HttpClient.describe(req);
    const host = new URL(this.options.baseUrl).host;
    const { kind, detail, neverSent } = describeNetworkFailure(error);
    const via = proxyConfigured(this.proxy()) ? ' (through the proxy in HTTPS_PROXY/HTTP_PROXY, unless NO_PROXY exempts it)' : '';
    return new NetworkError(info, kind, `${detail}${via}`, { cause: error, host, neverSent });
  }

  private trace(req: HttpRequest, url: string, attempt: number, started: number, extra: Partial<TraceEvent>): void {
    this.options.onTrace?.({ method: req.method, url, attempt, ms: Math.round(monotonicMs() - started), ...extra });
  }

  private getSender(): Promise<Sender> {
    this.sender ??= createSender(this.proxy());
    return this.sender;
  }

  private proxy(): ProxySettings {
    return this.options.proxy ?? proxyFromEnv(process.env);
  }
}

/**
 * The body as text, read as it streams in and dropped as soon as it passes `maxBytes` (or says in its
 * Content-Length that it will): an oversized answer never sits in memory whole. The error is a
 * ServerError, which the retry policy does not retry: the download is not repeated.
 */
async function readCapped(response: Dispatcher.ResponseData, maxBytes: number, info: RequestInfo): Promise<string> {
  const tooLarge = () =>
    new ServerError(`the service's answer is larger than ${formatBytes(maxBytes)}; rsapi stopped reading it`, info, response.statusCode, {
      hint: 'no answer of this API is that large: check the base URL (…/api/v1) and any proxy in between',
    });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardBody(response);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    received += buffer.length;
    if (received > maxBytes) {
      discardBody(response);
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, received).toString('utf8');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Whether a path (under the base URL, query excluded) could step out of it: a `.` or `..` segment, written
 * out or percent-encoded (`%2e%2e`, `.%2e`, `%2E`, even encoded twice), or a backslash, which URL parsers and
 * servers may read as a slash. Such paths are refused, never normalised: the key goes only under the base path.
 */
export function mayLeaveBasePath(path: string): boolean {
  let decoded = path;
  for (let round = 0; round < 4; round++) {
    if (/\\/.test(decoded)) return true;
    if (decoded.split('/').some((segment) => segment === '.' || segment === '..')) return true;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // A stray % that is not an escape: decode what can be decoded and look again.
      next = decoded.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === decoded) return false;
    decoded = next;
  }
  return true; // encoded more than three times over: nothing honest does that
}

/**
 * One path segment (a report id, a project name), percent-encoded. `.` and `..` would be read as
 * path steps even encoded (…/projects/.. is …/), so they are refused before any request.
 */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new InvalidRequestError(`"${value}" cannot name a report or project`);
  return encodeURIComponent(value);
}

export function encodeParams(params: Params | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.append(key, String(value));
  }
  return search.toString();
}

function contentType(headers: Record<string, string | string[] | undefined>): string {
  const value = headers['content-type'];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Milliseconds on a monotonic clock, for a request's duration. Not `performance.now()`: the first use of the global
 * `performance` loads Node's perf_hooks and its eight modules, about 1 ms of every command's start-up.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
