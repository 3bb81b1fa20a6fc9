// The bundled mock service over node:http: request recording, injected faults, throttle, auth, then the routes.

import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { systemClock, type Clock } from '../api/clock.js';
import type { MockProject, MockReport } from './data.js';
import { FLAVORS, type MockFlavor } from './flavor.js';
import type { FlavorName } from './flavor-names.js';
import type { Envelope } from './listing.js';
import { FixedWindowRateLimiter } from './rate-limit.js';
import { flattenHeaders, parseFormFields, readBody, splitTarget } from './request-input.js';
import { API_PREFIX, type RouteResponse } from './routes.js';
import { MockStore } from './store.js';

export type { Envelope } from './listing.js';
export type { MockProject, MockReport } from './data.js';
export { FLAVOR_NAMES, type FlavorName } from './flavor-names.js';

export interface MockOptions {
  /** Which service the mock plays: `seed` (the API document's, the default) or `phprank` (the service as deployed). */
  flavor?: FlavorName;
  host?: string;
  port?: number;
  apiKey?: string;
  seed?: number;
  latencyMs?: number;
  failRate?: number;
  rateLimit?: number;
  rateLimitWindowMs?: number;
  envelope?: Envelope;
  dropAfterCreate?: number;
  failAfterCreate?: number;
  stallRate?: number;
  /**
   * A create is stored (and answered) only this long after it arrived, as a service that audits the page first; it
   * is stored even if the client gave up meanwhile.
   */
  storeDelayMs?: number;
  random?: () => number;
  /**
   * The time the throttle's window, the latency and the store delay run on (real by default); a test shares a fake
   * one with the client, so that none of them waits real time.
   */
  clock?: Clock;
  /** phpRank flavor: sent URL -> the final URL it redirects to (the report is stored under the final one, cleaned). */
  redirects?: Record<string, string>;
  /** phpRank flavor: the key's plan has no API access, so every call with a good key is answered 403. */
  planWithoutApi?: boolean;
  /** phpRank flavor: each re-audit flips about this share (0 to 1) of a report's checks, its score following. */
  drift?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  form: Record<string, string>;
  status: number | undefined;
}

export interface MockServer {
  /** The service played, as the banner names it (seed, phpRank). */
  flavor: string;
  url: string;
  baseUrl: string;
  apiKey: string;
  requests: RecordedRequest[];
  reports(): MockReport[];
  projects(): MockProject[];
  options: MockOptions;
  close(): Promise<void>;
}

export const DEFAULT_MOCK_API_KEY = 'mock-key-0123456789abcdef';
export const DEFAULT_SEED_COUNT = 63;
const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;

const SERVICE_UNAVAILABLE: RouteResponse = { status: 503, body: { message: 'Service Unavailable' } };
const TOO_MANY_ATTEMPTS: RouteResponse = { status: 429, body: { message: 'Too Many Attempts.' } };

/** The options with every default filled in; the same object stays mutable for the server's lifetime. */
function withDefaults(options: MockOptions): MockOptions {
  const flavor = FLAVORS[options.flavor ?? 'seed'];
  return {
    flavor: flavor.name,
    host: '127.0.0.1',
    port: 0,
    apiKey: DEFAULT_MOCK_API_KEY,
    seed: DEFAULT_SEED_COUNT,
    latencyMs: 0,
    failRate: 0,
    rateLimit: flavor.defaultRateLimit,
    rateLimitWindowMs: DEFAULT_RATE_LIMIT_WINDOW_MS,
    envelope: 'length-aware',
    dropAfterCreate: 0,
    failAfterCreate: 0,
    stallRate: 0,
    storeDelayMs: 0,
    // An option given as undefined means "the default", not "none".
    ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
  };
}

function hasValidKey(headers: Record<string, string>, apiKey: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/.exec(headers['authorization'] ?? '');
  return match?.[1] === apiKey;
}

function sendAnswer(response: ServerResponse, answer: RouteResponse, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return;
  const { status, body, contentType } = answer;
  if (status === 204 || body === undefined) {
    response.writeHead(status, { 'Cache-Control': 'no-cache, private', ...headers });
    response.end();
    return;
  }
  const text = contentType === undefined ? JSON.stringify(body) : String(body);
  response.writeHead(status, {
    'Content-Type': contentType ?? 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/** One running mock service: its state, and the checks every request passes through in order. */
class MockService {
  readonly requests: RecordedRequest[] = [];
  readonly store: MockStore;
  private readonly limiter = new FixedWindowRateLimiter();
  private readonly shutdown = new AbortController();
  private readonly sockets = new Set<Socket>();
  private readonly flavor: MockFlavor;

  constructor(readonly options: MockOptions) {
    // Every request waiting out a delay listens on it (and stops when its wait ends): dozens at once under a bulk create
    // are no leak, so no MaxListenersExceededWarning on the mock's stderr.
    setMaxListeners(0, this.shutdown.signal);
    this.flavor = FLAVORS[options.flavor ?? 'seed'];
    this.store = new MockStore(options.seed ?? DEFAULT_SEED_COUNT, this.flavor.storePolicy(options));
  }

  get isClosed(): boolean {
    return this.shutdown.signal.aborted;
  }

  track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Ends every pending delay and destroys every socket, stalled or idle keep-alive ones included. */
  abortAll(): void {
    this.shutdown.abort();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private chance(rate: number | undefined): boolean {
    if (rate === undefined || rate <= 0) return false;
    return (this.options.random ?? Math.random)() < rate;
  }

  private reply(response: ServerResponse, record: RecordedRequest, answer: RouteResponse, headers?: Record<string, string>): void {
    record.status = answer.status;
    sendAnswer(response, answer, headers);
  }

  async handle(request: IncomingMessage, response: ServerResponse, fallbackOrigin: string): Promise<void> {
    const { path, query } = splitTarget(request.url ?? '/');
    const headers = flattenHeaders(request);
    const record: RecordedRequest = { method: request.method ?? 'GET', path, query, headers, form: {}, status: undefined };
    this.requests.push(record);
    const body = await readBody(request);
    if (body === undefined) return;
    record.form = parseFormFields(headers['content-type'], body);

    if (!(await this.waitLatency())) return;
    if (this.chance(this.options.stallRate)) return; // never answered; close() destroys the socket
    if (this.chance(this.options.failRate)) return this.reply(response, record, SERVICE_UNAVAILABLE);

    const origin = headers['host'] ? `http://${headers['host']}` : fallbackOrigin;
    const head = { path, headers, origin };
    let limitHeaders: Record<string, string> = {};
    if (this.flavor.isGuarded(head)) {
      const throttle = this.throttle();
      if (throttle !== undefined && !throttle.allowed) return this.reply(response, record, TOO_MANY_ATTEMPTS, throttle.headers);
      limitHeaders = throttle?.headers ?? {};
      const refusal = hasValidKey(headers, this.options.apiKey ?? DEFAULT_MOCK_API_KEY) ? this.flavor.gate(this.options) : this.flavor.refuseKey(head);
      if (refusal !== undefined) return this.reply(response, record, refusal, { ...limitHeaders, ...refusal.headers });
    }

    if (isCreate(record) && !(await this.waitStoreDelay())) return;
    const answer = this.route(record, origin);
    if (answer.createdReport === true && this.chance(this.options.dropAfterCreate)) {
      response.socket?.destroy();
      return;
    }
    if (answer.createdReport === true && this.chance(this.options.failAfterCreate)) {
      return this.reply(response, record, SERVICE_UNAVAILABLE, limitHeaders);
    }
    this.reply(response, record, answer, { ...limitHeaders, ...answer.headers });
  }

  /** Waits the configured latency; false when the server closed meanwhile. */
  private waitLatency(): Promise<boolean> {
    return this.wait(this.options.latencyMs ?? 0);
  }

  /** The audit before a create is stored; false when the server closed meanwhile (nothing is stored then). */
  private waitStoreDelay(): Promise<boolean> {
    return this.wait(this.options.storeDelayMs ?? 0);
  }

  /** Waits `ms` on the mock's clock; false when the server closed meanwhile. */
  private async wait(ms: number): Promise<boolean> {
    if (ms > 0) {
      try {
        await this.clock.sleep(ms, this.shutdown.signal);
      } catch {
        return false;
      }
    }
    return !this.isClosed;
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  private throttle(): ReturnType<FixedWindowRateLimiter['take']> | undefined {
    const limit = this.options.rateLimit ?? 0;
    if (limit <= 0) return undefined;
    return this.limiter.take(limit, this.options.rateLimitWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS, this.clock.now());
  }

  private route(record: RecordedRequest, origin: string): RouteResponse {
    try {
      return this.flavor.dispatch({
        method: record.method,
        path: record.path,
        query: record.query,
        form: record.form,
        origin,
        envelope: this.options.envelope ?? 'length-aware',
        store: this.store,
        now: new Date(),
      });
    } catch {
      return { status: 500, body: { message: 'Server Error' } };
    }
  }
}

function isCreate(record: RecordedRequest): boolean {
  return record.method === 'POST' && record.path.replace(/\/+$/, '') === `${API_PREFIX}/reports`;
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function formatOrigin(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Starts the mock service; rejects with the listen error (e.g. EADDRINUSE) when the port cannot be bound. */
export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const settings = withDefaults(options);
  const service = new MockService(settings);
  let origin = '';
  const server = createServer((request, response) => {
    service.handle(request, response, origin).catch(() => response.destroy());
  });
  server.on('connection', (socket) => service.track(socket));
  const address = await listen(server, settings.host ?? '127.0.0.1', settings.port ?? 0);
  origin = formatOrigin(address);

  let closing: Promise<void> | undefined;
  return {
    flavor: FLAVORS[settings.flavor ?? 'seed'].title,
    url: origin,
    baseUrl: `${origin}${API_PREFIX}`,
    get apiKey(): string {
      return settings.apiKey ?? DEFAULT_MOCK_API_KEY;
    },
    requests: service.requests,
    reports: () => service.store.reports(),
    projects: () => service.store.projects(),
    options: settings,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        service.abortAll();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
