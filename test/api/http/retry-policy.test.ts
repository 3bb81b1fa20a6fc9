// A create whose earlier attempt may still be running at the service is never sent again: the policy, the settle watch, the resume.
import { exitCodeOf } from '../../../src/cli/runtime/exit-codes.js';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, ServerError, UnsettledCreateError } from '../../../src/api/index.js';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { RetryPolicy, type AttemptOutcome } from '../../../src/api/http/retry-policy.js';
import { startMockServer, type MockServer } from '../../../src/mock/server.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { sendJson, startRawServer, type RawHandler, type RawServer, type SeenRequest } from '../../helpers/raw-server.js';
import { ClientPool, rejectionOf, timed } from '../../helpers/clients.js';

const pool = new ClientPool();
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await pool.closeAll();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function raw(handler: RawHandler): Promise<RawServer> {
  const server = await startRawServer(handler);
  closers.push(() => server.close());
  return server;
}

async function mock(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer({ port: 0, seed: 0, ...options });
  closers.push(() => server.close());
  return server;
}

function methods(requests: SeenRequest[]): string[] {
  return requests.map((request) => request.method);
}

const answer = (status: number): AttemptOutcome => ({ type: 'answer', status });
const sent: AttemptOutcome = { type: 'network', neverSent: false };
const neverSent: AttemptOutcome = { type: 'network', neverSent: true };

describe('the retry policy', () => {
  const policy = new RetryPolicy({ retries: 2, clock: new FakeClock() });

  it.each([
    ['GET', answer(503), true],
    ['GET', answer(500), false],
    ['DELETE', sent, true],
    ['PATCH', answer(429), true],
    ['POST', neverSent, true],
    ['POST', answer(429), true],
    ['POST', sent, false],
    ['POST', answer(502), false],
    ['POST', answer(503), false],
    ['POST', answer(504), false],
    ['POST', answer(500), false],
  ] as const)('%s after %j: retried %s', (method, outcome, retried) => {
    expect(policy.shouldRetry(method, outcome, 1)).toBe(retried);
  });

  it('never retries past the retry count', () => {
    expect(policy.shouldRetry('GET', answer(503), 3)).toBe(false);
    expect(policy.shouldRetry('POST', neverSent, 3)).toBe(false);
  });

  it.each([
    [sent, 'running'],
    [answer(504), 'running'],
    [answer(502), 'ended'],
    [answer(503), 'ended'],
    [answer(500), 'ended'],
    [neverSent, 'none'],
    [answer(429), 'none'],
    [answer(422), 'none'],
  ] as const)('a create ended by %j is in doubt: %s', (outcome, doubt) => {
    expect(RetryPolicy.createDoubt(outcome)).toBe(doubt);
  });

  it('waits what Retry-After says (capped), else backs off exponentially with jitter', () => {
    const capped = new RetryPolicy({ retries: 3, baseMs: 100, maxRetryAfterMs: 5_000, clock: new FakeClock(0.5) });
    expect(capped.delayMs(1, { type: 'answer', status: 429, retryAfter: '2' })).toBe(2_000);
    expect(capped.delayMs(1, { type: 'answer', status: 429, retryAfter: '600' })).toBe(5_000);
    expect([1, 2, 3].map((attempt) => capped.delayMs(attempt, sent))).toEqual([75, 150, 300]);
  });

  it('watches a create in doubt as long as its timeout, at least 3 s, with waits growing to half the timeout', () => {
    expect(RetryPolicy.settleWindowMs(120_000)).toBe(120_000);
    expect(RetryPolicy.settleWindowMs(500)).toBe(3_000);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => RetryPolicy.settleDelayMs(n, 120_000))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });
});

describe('create after an answer that may leave the service still working', () => {
  it('times out while the service still audits the page (mock storeDelayMs): watched, found, one POST, one report', async () => {
    const server = await mock({ storeDelayMs: 700 });
    const client = pool.create(server.url, { apiKey: server.apiKey, createTimeoutMs: 200 });
    const url = 'https://slow-audit.example.com/';
    const result = await client.reports.create({ url });
    expect(result).toMatchObject({ recovered: true, report: { url } });
    expect(server.reports().filter((report) => report.url === url)).toHaveLength(1);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(server.requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(1);
  });

  it.each([
    ['a timeout', (res: Parameters<RawHandler>[1]) => void res],
    ['a reset after sending', (res: Parameters<RawHandler>[1]) => res.socket?.destroy()],
    ['a gateway 504', (res: Parameters<RawHandler>[1]) => sendJson(res, 504, { message: 'Gateway Timeout' })],
  ])(
    'after %s whose report never shows up: unsettled (exit 7, 8 for an answer), never sent again, watched for the whole window without real waiting',
    async (name, onPost) => {
      const server = await raw((req, res) => (req.method === 'POST' ? onPost(res) : sendJson(res, 200, { data: [], links: { next: null } })));
      const clock = new FakeClock();
      const client = pool.create(server.url, { createTimeoutMs: 150, retries: 3, clock });
      const { ms, value: error } = await timed(() => rejectionOf(client.reports.create({ url: 'https://never-shows.example.com/' })));
      expect(error).toBeInstanceOf(UnsettledCreateError);
      expect(exitCodeOf(error)).toBe(name === 'a gateway 504' ? ExitCode.server : ExitCode.network);
      expect((error as UnsettledCreateError).maybeCreated).toBe(true);
      expect((error as Error).message).toMatch(/no report showed up within 3 s.*not sent again/);
      expect(methods(server.requests).filter((method) => method === 'POST')).toHaveLength(1);
      expect(methods(server.requests).filter((method) => method === 'GET').length).toBeGreaterThanOrEqual(5);
      expect(clock.slept).toBe(3_000);
      expect(ms).toBeLessThan(2_000);
    },
  );

  it('a report that shows up late in the window is taken: no second POST', async () => {
    let gets = 0;
    const server = await raw((req, res) => {
      if (req.method === 'POST') return; // no answer
      gets++;
      const data = gets >= 4 ? [{ id: 5, url: 'https://late.example.com/', created_at: new Date().toISOString() }] : [];
      sendJson(res, 200, { data, links: { next: null } });
    });
    const client = pool.create(server.url, { createTimeoutMs: 150, clock: new FakeClock() });
    const result = await client.reports.create({ url: 'https://late.example.com/' });
    expect(result).toMatchObject({ recovered: true, report: { id: 5 } });
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET', 'GET', 'GET']);
  });

  it('Ctrl-C (the stop signal) during the watch: unsettled at once, no request after it', async () => {
    const stop = new AbortController();
    const server = await raw((req, res) => {
      if (req.method === 'POST') return;
      if (server.requests.length === 3) stop.abort();
      sendJson(res, 200, { data: [], links: { next: null } });
    });
    const client = pool.create(server.url, { createTimeoutMs: 150, stop: stop.signal, clock: new FakeClock() });
    const error = await rejectionOf(client.reports.create({ url: 'https://stopped.example.com/' }));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as Error).message).toContain('interrupted');
    const seen = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(seen);
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET']);
  });

  it('no retry starts after the stop signal, though the request under way was let finish', async () => {
    const stop = new AbortController();
    const server = await raw((_req, res) => {
      stop.abort();
      sendJson(res, 503, {});
    });
    const client = pool.create(server.url, { stop: stop.signal, retries: 3 });
    await expect(client.reports.list()).rejects.toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("create after an answer that ended the service's work", () => {
  it('503 each time: looked up after each, sent again only after a look-up found nothing, then the 503', async () => {
    const server = await raw((req, res) => (req.method === 'GET' ? sendJson(res, 200, []) : sendJson(res, 503, { message: 'Service Unavailable' })));
    const client = pool.create(server.url, { retries: 2, clock: new FakeClock() });
    const error = await rejectionOf(client.reports.create({ url: 'https://never.example.com/' }));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    // Each look-up: by identity, then the reports created since (a redirected page's would be one of them).
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET', 'POST', 'GET', 'GET', 'POST', 'GET', 'GET']);
  });

  it('a 500: looked up (it may have stored the report before failing), not sent again', async () => {
    const server = await raw((req, res) => (req.method === 'GET' ? sendJson(res, 200, []) : sendJson(res, 500, { message: 'Server Error' })));
    const client = pool.create(server.url);
    const error = await rejectionOf(client.reports.create({ url: 'https://five-hundred.example.com/' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET']);
  });

  it('a look-up that keeps failing after a 503: tried again through the window, then unsettled (exit 8: the service answered), not sent again', async () => {
    const server = await raw((req, res) => (req.method === 'GET' ? sendJson(res, 500, {}) : sendJson(res, 503, {})));
    const clock = new FakeClock();
    const client = pool.create(server.url, { retries: 2, createTimeoutMs: 1_000, clock });
    const error = await rejectionOf(client.reports.create({ url: 'https://blind.example.com/' }));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as Error).message).toMatch(/^the service answered 503 and looking the report up failed/);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
    expect(methods(server.requests).filter((method) => method === 'POST')).toHaveLength(1);
    expect(methods(server.requests).filter((method) => method === 'GET').length).toBeGreaterThan(1);
    expect(clock.slept).toBe(3_000);
  });

  it('a look-up that fails once after a 503, then proves the report absent: sent again, one report', async () => {
    let gets = 0;
    const server = await raw((req, res) => {
      if (req.method === 'GET') return ++gets === 1 ? sendJson(res, 500, {}) : sendJson(res, 200, { data: [], links: { next: null } });
      const posts = server.requests.filter((request) => request.method === 'POST').length;
      return posts === 1 ? sendJson(res, 503, {}) : sendJson(res, 201, { data: { id: 4, url: 'https://blind.example.com/' } });
    });
    const client = pool.create(server.url, { retries: 2, clock: new FakeClock() });
    const result = await client.reports.create({ url: 'https://blind.example.com/' });
    expect(result).toMatchObject({ recovered: false, attempts: 2, report: { id: 4 } });
    // The failed search, then the search by its URL and the reports made since (the page may have redirected).
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET', 'GET', 'POST']);
  });
});

describe('URLs in one normalised form', () => {
  it.each(['https://example.com', 'example.com', 'www.example.com', 'https://www.example.com/'])(
    'sends HTTPS://Example.com as https://example.com/, searches for its identity, and finds it stored as %s',
    async (stored) => {
      const server = await raw((req, res) => {
        if (req.method === 'POST') return sendJson(res, 502, {});
        sendJson(res, 200, { data: [{ id: 3, url: stored, created_at: new Date().toISOString() }], links: { next: null } });
      });
      const client = pool.create(server.url);
      const result = await client.reports.create({ url: 'HTTPS://Example.com' });
      expect(result).toMatchObject({ recovered: true, report: { id: 3 } });
      expect(new URLSearchParams(server.requests[0]?.body).get('url')).toBe('https://example.com/');
      expect(new URL(server.requests[1]?.url ?? '', 'http://x').searchParams.get('search')).toBe('example.com');
    },
  );
});

describe('resuming a URL an earlier run left unsettled', () => {
  it('found by the first look-up: nothing is sent', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const url = 'https://resumed.example.com/';
    const before = Date.now();
    await client.reports.create({ url });
    const result = await client.reports.createUnlessStored({ url }, { sentAt: before, lastSeenAt: before - 60_000 });
    expect(result).toMatchObject({ recovered: true, attempts: 0, report: { url } });
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
  });

  it('absent, its window long over: looked up once, then sent', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey, clock: new FakeClock() });
    const long = Date.now() - 3_600_000;
    const result = await client.reports.createUnlessStored({ url: 'https://gone.example.com/' }, { sentAt: long, lastSeenAt: long });
    expect(result).toMatchObject({ recovered: false });
    expect(server.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('absent, its window not over: watched until then, then sent', async () => {
    const server = await mock();
    const clock = new FakeClock();
    const client = pool.create(server.url, { apiKey: server.apiKey, createTimeoutMs: 1_000, clock });
    const now = Date.now();
    await client.reports.createUnlessStored({ url: 'https://recent.example.com/' }, { sentAt: now - 1_000, lastSeenAt: now });
    expect(clock.slept).toBeGreaterThan(2_500);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(server.requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(1);
  });
});
