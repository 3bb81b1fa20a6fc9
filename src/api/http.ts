// One place that sends requests: headers, bodies, timeouts, the retry policy, and turning answers into typed errors.
import { decodeBody, errorForStatus, serviceMessage } from './decode.js';
import { describeNetworkFailure } from './network-failure.js';
import type { Dispatcher } from 'undici';
import { createSender, proxyConfigured, proxyFromEnv, type ProxySettings, type Sender } from './transport.js';
import {
  InterruptedError,
  NetworkError,
  RateLimitError,
  RsapiError,
  ServerError,
  UsageError,
  type RequestInfo,
} from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  /** The largest body read from the service; a larger one is cut off (exit 8), never retried. Default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Observes each attempt, for --verbose. Never given the key. */
  onTrace?: (event: TraceEvent) => void;
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
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body (204). */
  body: unknown;
  /** A DELETE whose earlier attempt may have arrived, answered 404 on retry: it is gone, by us. */
  goneAfterRetry?: boolean;
}

/** A failure the caller may want to act on before the policy retries (used by create's look-up). */
export function isAmbiguousFailure(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.neverSent;
  return error instanceof ServerError && error.status !== undefined && RETRY_STATUSES.has(error.status);
}

const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
/** A page of 100 reports is tens of kilobytes; a body past this is not an answer of this API. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The longest wait a Retry-After header may impose, unless the client says otherwise. */
export const MAX_RETRY_AFTER_MS = 60_000;
const IDEMPOTENT = new Set<HttpMethod>(['GET', 'PUT', 'PATCH', 'DELETE']);

export class HttpClient {
  readonly options: HttpClientOptions;
  private sender: Promise<Sender> | undefined;
  /** Service clock minus ours, from the last answer's Date header (1 s resolution, truncated). */
  private clockOffsetMs: number | undefined;

  constructor(options: HttpClientOptions) {
    this.options = options;
  }

  /** Sends a request under the retry policy of the contract; throws a typed error from errors.ts. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const retries = req.retries ?? this.options.retries;
    let ambiguousSeen = false;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const url = this.url(req);
      let response: RawResponse;
      try {
        response = await this.send(req, url);
      } catch (error) {
        const failure = this.classify(error, req);
        const retryable = failure instanceof NetworkError && (IDEMPOTENT.has(req.method) || failure.neverSent);
        if (retryable && attempt <= retries) {
          if (!failure.neverSent) ambiguousSeen = true;
          const wait = this.backoff(attempt, undefined);
          this.trace(req, url, attempt, started, { error: failure.message, retryInMs: wait });
          await this.sleep(wait);
          continue;
        }
        this.trace(req, url, attempt, started, { error: failure.message });
        throw failure;
      }
      // Outside the try: each answer is traced once, not a second time as the typed error interpret() throws.
      if (RETRY_STATUSES.has(response.status) && this.mayRetry(req, response.status, attempt, retries)) {
        // A gateway's 502/504 may hide the service's answer; 503, 408 and 429 say nothing was done.
        if (response.status === 502 || response.status === 504) ambiguousSeen = true;
        const wait = this.backoff(attempt, response.headers['retry-after']);
        this.trace(req, url, attempt, started, { status: response.status, retryInMs: wait });
        await this.sleep(wait);
        continue;
      }
      this.trace(req, url, attempt, started, { status: response.status });
      if (response.status === 404 && req.method === 'DELETE' && ambiguousSeen) {
        return { ...response, body: undefined, goneAfterRetry: true };
      }
      return this.interpret(req, url, response, attempt);
    }
  }

  /**
   * A moment of our clock on the service's clock, as far as its Date headers tell (at most about a
   * second early, never late); undefined before any answer carried a Date.
   */
  toServiceTime(localMs: number): number | undefined {
    return this.clockOffsetMs === undefined ? undefined : localMs + this.clockOffsetMs;
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

  private url(req: HttpRequest): string {
    const query = encodeParams(req.query);
    return `${this.options.baseUrl}${req.path}${query ? `?${query}` : ''}`;
  }

  private mayRetry(req: HttpRequest, status: number, attempt: number, retries: number): boolean {
    if (attempt > retries) return false;
    // A POST answered 429 was refused before anything happened; any other status may hide a created report.
    return IDEMPOTENT.has(req.method) || status === 429;
  }

  private async send(req: HttpRequest, url: string): Promise<RawResponse> {
    const sender = await this.getSender();
    const target = new URL(url);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    let body: string | undefined;
    if (req.form) {
      body = encodeParams(req.form);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
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
  }

  private interpret(req: HttpRequest, url: string, response: RawResponse, attempts: number): HttpResponse {
    const info = HttpClient.describe(req);
    const { status, headers } = response;
    if (status >= 300 && status < 400) {
      const location = typeof headers.location === 'string' ? headers.location : undefined;
      throw new ServerError(`the service answered with a redirect${location ? ` to ${redactQuery(location)}` : ''}, which rsapi does not follow`, info, status, {
        hint: 'check the base URL (https rather than http? the right host and path?); the key is never sent to another address',
      });
    }
    const body = decodeBody(response.text, status, info, contentType(headers));
    if (status >= 200 && status < 300) return { status, headers, body: body.value };
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      throw new RateLimitError(info, retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000), attempts);
    }
    if (status === 408) {
      throw new NetworkError(info, 'timeout', `the service gave up waiting (HTTP 408) after ${attempts} attempt${attempts === 1 ? '' : 's'}`, { host: new URL(url).host });
    }
    throw errorForStatus(status, info, body.value, body.isHtml, serviceMessage(body.value));
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

  private backoff(attempt: number, retryAfter: string | string[] | undefined): number {
    const fromHeader = parseRetryAfter(retryAfter);
    if (fromHeader !== undefined && fromHeader > 0) return Math.min(fromHeader, this.options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS);
    const base = (this.options.retryBaseMs ?? 300) * 2 ** (attempt - 1);
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const signal = this.options.signal;
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private trace(req: HttpRequest, url: string, attempt: number, started: number, extra: Partial<TraceEvent>): void {
    this.options.onTrace?.({ method: req.method, url, attempt, ms: Math.round(performance.now() - started), ...extra });
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
    response.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    received += buffer.length;
    if (received > maxBytes) {
      response.body.destroy();
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
 * One path segment (a report id, a project name), percent-encoded. `.` and `..` would be read as
 * path steps even encoded (…/projects/.. is …/), so they are refused before any request.
 */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new UsageError(`"${value}" cannot name a report or project`);
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

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}

function contentType(headers: Record<string, string | string[] | undefined>): string {
  const value = headers['content-type'];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function redactQuery(location: string): string {
  return location.replace(/\?.*$/, '');
}
