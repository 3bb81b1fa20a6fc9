// The retry policy over loopback: what is retried, how long it waits, how often, and how POST and DELETE stay safe.
import { exitCodeOf } from '../../../src/cli/runtime/exit-codes.js';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CreateLedger } from '../../../src/api/create/ledger.js';
import { InterruptedError, NetworkError, NotFoundError, RateLimitError, ServerError, type TraceEvent } from '../../../src/api/index.js';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { parseRetryAfter } from '../../../src/api/http/http.js';
import { retryAfterOf } from '../../../src/api/http/retry-policy.js';
import { startMockServer, type MockServer } from '../../../src/mock/server.js';
import { refusedPort, sendJson, startRawServer, type RawServer, type SeenRequest } from '../../helpers/raw-server.js';
import { ClientPool, rejectionOf, timed } from '../../helpers/clients.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const pool = new ClientPool();
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await pool.closeAll();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function raw(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handler);
  closers.push(() => server.close());
  return server;
}

async function mock(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer({ port: 0, seed: 12, ...options });
  closers.push(() => server.close());
  return server;
}

const REPORT = { id: 12, url: 'https://example.com/', result: 'good', score: 90 };

function methods(requests: SeenRequest[]): string[] {
  return requests.map((request) => request.method);
}

/** A report record as a service would send it right after creating it. */
function fresh(url: string, id = 500): Record<string, unknown> {
  return { id, url, created_at: new Date().toISOString() };
}

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1500);
    expect(parseRetryAfter(['2', '9'])).toBe(2000);
  });

  it('reads an HTTP date as the time until then, never negative', () => {
    const inTen = parseRetryAfter(new Date(Date.now() + 10_000).toUTCString());
    expect(inTen).toBeGreaterThan(8_000);
    expect(inTen).toBeLessThanOrEqual(10_000);
    expect(parseRetryAfter(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
  });

  it.each([[undefined], [''], ['soon']])('ignores %j', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});

describe('retryAfterOf (the wait a 429 asks for)', () => {
  const date = 'Tue, 24 Nov 2026 10:00:00 GMT';
  const at = Date.parse(date) / 1000;
  it.each([
    ['Retry-After first', { 'retry-after': '7', 'x-ratelimit-reset': String(at + 30), date }, '7'],
    ["else X-RateLimit-Reset, against the answer's own Date", { 'x-ratelimit-reset': String(at + 30), date }, '30'],
    ['a reset already past is no wait', { 'x-ratelimit-reset': String(at - 5), date }, '0'],
    ['neither', { date }, undefined],
    ['a reset that is not a number', { 'x-ratelimit-reset': 'soon', date }, undefined],
  ])('%s', (_name, headers, wanted) => {
    expect(retryAfterOf(headers)).toBe(wanted);
  });

  it('without a Date, the reset is taken against our clock', () => {
    const now = 1_800_000_000_000;
    expect(retryAfterOf({ 'x-ratelimit-reset': String(now / 1000 + 12) }, now)).toBe('12');
  });
});

describe('retries of reads and updates', () => {
  it('429 then success honours Retry-After in seconds', async () => {
    const server = await raw((_req, res, index) =>
      index === 1 ? sendJson(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '1' }) : sendJson(res, 200, { data: [REPORT] }),
    );
    const clock = new FakeClock();
    const client = pool.create(server.url, { clock });
    const page = await client.reports.list();
    expect(page.records).toEqual([REPORT]);
    expect(server.requests).toHaveLength(2);
    // One wait, of the second asked for (not the 10 ms backoff), on the clock: no real second passes.
    expect(clock.sleeps).toEqual([1_000]);
  });

  it('429 then success honours Retry-After as an HTTP date', async () => {
    const clock = new FakeClock(0.5, Date.now());
    const server = await raw((_req, res, index) =>
      index === 1
        ? sendJson(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': new Date(clock.now() + 2_000).toUTCString() })
        : sendJson(res, 200, { data: REPORT }),
    );
    const client = pool.create(server.url, { clock });
    const report = await client.reports.show('12');
    expect(report).toEqual(REPORT);
    expect(server.requests).toHaveLength(2);
    // The date has whole seconds, so the one wait, taken against the clock, is between one and two seconds.
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(1_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(2_000);
  });

  it("onAnswer tells every attempt's status, retries included, until it is let go of", async () => {
    const server = await raw((_req, res, index) => (index <= 2 ? sendJson(res, 503, {}) : sendJson(res, 200, { data: [] })));
    const client = pool.create(server.url, { clock: new FakeClock() });
    const statuses: number[] = [];
    const letGo = client.http.onAnswer((status) => statuses.push(status));
    await client.reports.list();
    expect(statuses).toEqual([503, 503, 200]);
    letGo();
    await client.reports.list();
    expect(statuses).toHaveLength(3);
  });

  it('caps a long Retry-After at maxRetryAfterMs', async () => {
    const traces: TraceEvent[] = [];
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, 429, {}, { 'Retry-After': '3600' }) : sendJson(res, 200, { data: [] })));
    const client = pool.create(server.url, { maxRetryAfterMs: 50, onTrace: (event) => traces.push(event) });
    const { ms } = await timed(() => client.reports.list());
    expect(traces[0]).toMatchObject({ attempt: 1, status: 429, retryInMs: 50 });
    expect(ms).toBeGreaterThanOrEqual(45);
    expect(ms).toBeLessThan(1_000);
  });

  it.each([
    ['GET', 503],
    ['GET', 502],
    ['GET', 504],
    ['GET', 408],
    ['PATCH', 503],
    ['PUT', 502],
    ['DELETE', 503],
  ] as const)('%s answered %i is retried, then succeeds', async (method, status) => {
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, status, { message: 'busy' }) : sendJson(res, 200, { data: REPORT })));
    const client = pool.create(server.url);
    const response = await client.raw(method, '/reports/12', method === 'GET' || method === 'DELETE' ? {} : { privacy: 1 });
    expect(response.status).toBe(200);
    expect(methods(server.requests)).toEqual([method, method]);
    if (method !== 'GET' && method !== 'DELETE') expect(server.requests.map((request) => request.body)).toEqual(['privacy=1', 'privacy=1']);
  });

  it('a reset GET is retried, then succeeds', async () => {
    const server = await raw((_req, res, index) => (index === 1 ? res.socket?.destroy() : sendJson(res, 200, { data: REPORT })));
    const client = pool.create(server.url);
    expect(await client.reports.show('12')).toEqual(REPORT);
    expect(server.requests).toHaveLength(2);
  });

  it('a GET that timed out is retried, then succeeds', async () => {
    const server = await raw((_req, res, index) => {
      if (index > 1) sendJson(res, 200, { data: REPORT });
    });
    // 600 ms: the answered retry must not time out too on a loaded machine (it did at 150 ms).
    const client = pool.create(server.url, { timeoutMs: 600 });
    expect(await client.reports.show('12')).toEqual(REPORT);
    expect(server.requests).toHaveLength(2);
  });

  it('a request answered, or refused by the service, leaves no timer behind: a process ends when its work does', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const server = await raw((req, res) => (req.url?.includes('/404') ? sendJson(res, 404, { message: 'gone' }) : sendJson(res, 200, { data: REPORT })));
    // A timeout far beyond the test's: a timer left running would be seen here.
    const client = pool.create(server.url, { timeoutMs: 600_000, retries: 0 });
    const before = timers();
    expect(await client.reports.show('12')).toEqual(REPORT);
    await expect(client.reports.show('404')).rejects.toBeInstanceOf(NotFoundError);
    expect(timers()).toBe(before);
  });

  it.each([0, 1, 2, 4])('stops after retries + 1 attempts (retries %i)', async (retries) => {
    const server = await raw((_req, res) => sendJson(res, 503, { message: 'Service Unavailable' }));
    const client = pool.create(server.url, { retries });
    await expect(client.reports.list()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(retries + 1);
  });

  it('a 429 that persists stops after retries + 1 attempts with RateLimitError', async () => {
    const server = await raw((_req, res) => sendJson(res, 429, {}, { 'Retry-After': '0' }));
    const client = pool.create(server.url, { retries: 1 });
    const error = await rejectionOf(client.reports.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(exitCodeOf(error)).toBe(ExitCode.rateLimited);
    expect(server.requests).toHaveLength(2);
  });

  it('a per-client retries count of 0 makes one attempt on a reset', async () => {
    const server = await raw((_req, res) => res.socket?.destroy());
    const client = pool.create(server.url, { retries: 0 });
    await expect(client.reports.list()).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it('backs off exponentially with jitter when no Retry-After is given', async () => {
    const traces: TraceEvent[] = [];
    const server = await raw((_req, res) => sendJson(res, 503, {}));
    const client = pool.create(server.url, { retries: 3, retryBaseMs: 40, onTrace: (event) => traces.push(event) });
    await expect(client.reports.list()).rejects.toBeInstanceOf(ServerError);
    const waits = traces.map((event) => event.retryInMs);
    expect(waits).toHaveLength(4);
    expect(waits[0]).toBeGreaterThanOrEqual(20);
    expect(waits[0]).toBeLessThanOrEqual(40);
    expect(waits[1]).toBeGreaterThanOrEqual(40);
    expect(waits[1]).toBeLessThanOrEqual(80);
    expect(waits[2]).toBeGreaterThanOrEqual(80);
    expect(waits[2]).toBeLessThanOrEqual(160);
    expect(waits[3]).toBeUndefined();
    expect(traces.map((event) => event.attempt)).toEqual([1, 2, 3, 4]);
    expect(traces.map((event) => event.status)).toEqual([503, 503, 503, 503]);
  });

  it('traces an error answer once', async () => {
    const traces: TraceEvent[] = [];
    const server = await raw((_req, res) => sendJson(res, 404, { message: 'Resource not found.' }));
    const client = pool.create(server.url, { onTrace: (event) => traces.push(event) });
    await expect(client.reports.show('1')).rejects.toBeInstanceOf(NotFoundError);
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ method: 'GET', attempt: 1, status: 404 });
  });

  it('traces each attempt without the key', async () => {
    const traces: TraceEvent[] = [];
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, 503, {}) : sendJson(res, 200, { data: [] })));
    const client = pool.create(server.url, { apiKey: 'secret-key-zzz', onTrace: (event) => traces.push(event) });
    await client.reports.list({ perPage: 25 });
    expect(traces).toHaveLength(2);
    expect(traces[0]).toMatchObject({ method: 'GET', url: `${server.url}/api/v1/reports?per_page=25`, attempt: 1, status: 503 });
    expect(traces[1]).toMatchObject({ attempt: 2, status: 200 });
    expect(JSON.stringify(traces)).not.toContain('secret-key-zzz');
  });
});

describe('POST (create) is never sent twice for one report', () => {
  it('after a 503 once the report was stored (mock failAfterCreate): recovered by the look-up, one report', async () => {
    const server = await mock({ failAfterCreate: 1 });
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const url = 'https://fail-after-create.example.com/page';
    const result = await client.reports.create({ url, privacy: 1 });
    expect(result.recovered).toBe(true);
    expect(result.attempts).toBe(1);
    expect(result.report).toMatchObject({ url, privacy: 1 });
    expect(server.reports().filter((report) => report.url === url)).toHaveLength(1);
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
    // Searched by its identity (no scheme, no www.), a substring of every form the service may store it in.
    expect(server.requests[1]?.query).toMatchObject({ search: 'fail-after-create.example.com/page', search_by: 'url', sort_by: 'id', sort: 'desc' });
  });

  it('after the socket was dropped once the report was stored (mock dropAfterCreate): recovered, one report', async () => {
    const server = await mock({ dropAfterCreate: 1 });
    const client = pool.create(server.url, { apiKey: server.apiKey });
    const url = 'https://drop-after-create.example.com/';
    const result = await client.reports.create({ url });
    expect(result.recovered).toBe(true);
    expect(result.report).toMatchObject({ url });
    expect(server.reports().filter((report) => report.url === url)).toHaveLength(1);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('after a timeout once the report was stored: recovered, one POST', async () => {
    const stored: Record<string, unknown>[] = [];
    const server = await raw((req, res) => {
      if (req.method === 'POST') {
        stored.push(fresh(new URLSearchParams(req.body).get('url') ?? ''));
        return; // stored, but never answers
      }
      sendJson(res, 200, { data: stored, links: { next: null } });
    });
    const client = pool.create(server.url, { createTimeoutMs: 150, timeoutMs: 2_000 });
    const result = await client.reports.create({ url: 'https://slow.example.com/' });
    expect(result).toMatchObject({ recovered: true, report: { url: 'https://slow.example.com/' } });
    expect(methods(server.requests)).toEqual(['POST', 'GET']);
  });

  it('after a 503 where the look-up finds nothing: sent again, not recovered', async () => {
    const server = await raw((req, res) => {
      const posts = server.requests.filter((request) => request.method === 'POST').length;
      if (req.method === 'GET') return sendJson(res, 200, { data: [], links: { next: null } });
      if (posts === 1) return sendJson(res, 503, { message: 'Service Unavailable' });
      sendJson(res, 201, { data: fresh('https://retry.example.com/') });
    });
    const client = pool.create(server.url);
    const result = await client.reports.create({ url: 'https://retry.example.com/' });
    expect(result).toMatchObject({ recovered: false, attempts: 2, report: { url: 'https://retry.example.com/' } });
    // Looked up by identity, then among the reports created since (a redirected page's): nothing, so sent again.
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET', 'POST']);
    expect(server.requests[0]?.body).toBe(server.requests[3]?.body);
  });

  it('the look-up ignores an older report of the same URL and reports of other URLs', async () => {
    const url = 'https://again.example.com/';
    const older = { id: 1, url, created_at: '2020-01-01T00:00:00.000000Z' };
    const longer = fresh(`${url}more`, 2);
    const server = await raw((req, res) => {
      if (req.method === 'GET') return sendJson(res, 200, { data: [longer, older], links: { next: null } });
      const posts = server.requests.filter((request) => request.method === 'POST').length;
      if (posts === 1) return sendJson(res, 502, {});
      sendJson(res, 201, { data: fresh(url, 3) });
    });
    const client = pool.create(server.url);
    // …/more is another URL of the run that took its report: that one is not taken for a redirected page's.
    const result = await client.reports.create({ url }, { ledger: new CreateLedger([url, `${url}more`], [{ url: `${url}more`, id: 2 }]) });
    expect(result).toMatchObject({ recovered: false, attempts: 2, report: { id: 3 } });
  });

  it('the look-up ignores a report of the same URL made seconds before, on the service clock (Date header)', async () => {
    const url = 'https://deploy.example.com/';
    // The service's clock runs an hour ahead of ours; its earlier report is 10 s older than our request.
    const serviceNow = () => new Date(Date.now() + 3_600_000);
    const earlier = { id: 7, url, created_at: new Date(serviceNow().getTime() - 10_000).toISOString() };
    const server = await raw((req, res) => {
      res.setHeader('Date', serviceNow().toUTCString());
      if (req.method === 'GET') return sendJson(res, 200, { data: [earlier], links: { next: null } });
      const posts = server.requests.filter((request) => request.method === 'POST').length;
      if (posts === 1) return sendJson(res, 503, { message: 'Service Unavailable' });
      sendJson(res, 201, { data: { id: 8, url, created_at: serviceNow().toISOString() } });
    });
    const client = pool.create(server.url);
    const result = await client.reports.create({ url });
    expect(result).toMatchObject({ recovered: false, attempts: 2, report: { id: 8 } });
    expect(methods(server.requests)).toEqual(['POST', 'GET', 'GET', 'POST']);
  });

  it('the look-up takes a report made just after the request, on a service clock behind ours', async () => {
    const url = 'https://behind.example.com/';
    const serviceNow = () => new Date(Date.now() - 3_600_000);
    const server = await raw((req, res) => {
      res.setHeader('Date', serviceNow().toUTCString());
      if (req.method === 'GET') return sendJson(res, 200, { data: [{ id: 9, url, created_at: serviceNow().toISOString() }], links: { next: null } });
      sendJson(res, 502, {});
    });
    const client = pool.create(server.url);
    const result = await client.reports.create({ url });
    expect(result).toMatchObject({ recovered: true, report: { id: 9 } });
    expect(methods(server.requests)).toEqual(['POST', 'GET']);
  });

  // Lost answers with nothing found, 500s, and answers that may leave the service still working: create-settle.test.ts.

  it('a 422 on POST is neither retried nor looked up', async () => {
    const server = await mock();
    const client = pool.create(server.url, { apiKey: server.apiKey });
    expect(exitCodeOf(await client.reports.create({ url: 'ftp://nope' }).catch((error: unknown) => error))).toBe(ExitCode.validation);
    expect(server.requests.map((request) => request.method)).toEqual(['POST']);
  });

  it('429 on POST is retried blindly (mock rateLimit): no look-up, one report', async () => {
    const server = await mock({ rateLimit: 1, rateLimitWindowMs: 150 });
    const client = pool.create(server.url, { apiKey: server.apiKey, maxRetryAfterMs: 250 });
    await client.reports.list(); // uses up the window
    const url = 'https://rate-limited.example.com/';
    const result = await client.reports.create({ url });
    expect(result).toMatchObject({ recovered: false, attempts: 1, report: { url } });
    expect(server.requests.map((request) => [request.method, request.status])).toEqual([
      ['GET', 200],
      ['POST', 429],
      ['POST', 201],
    ]);
    expect(server.reports().filter((report) => report.url === url)).toHaveLength(1);
  });

  it('a POST whose connection was refused is sent again once the service is up', async () => {
    const port = await refusedPort();
    const received: string[] = [];
    const late = createServer((req, res: ServerResponse) => {
      received.push(req.method ?? '');
      req.resume();
      req.on('end', () => sendJson(res, 201, { data: fresh('https://late.example.com/') }));
    });
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          late.closeAllConnections();
          late.close(() => resolve());
          if (!late.listening) resolve();
        }),
    );
    let listening: Promise<void> | undefined;
    const client = pool.create(`http://127.0.0.1:${port}`, {
      retryBaseMs: 400,
      onTrace: (event) => {
        if (event.attempt === 1 && event.error !== undefined) {
          listening = new Promise((resolve) => late.listen(port, '127.0.0.1', () => resolve()));
        }
      },
    });
    const result = await client.reports.create({ url: 'https://late.example.com/' });
    await listening;
    expect(result).toMatchObject({ recovered: false, report: { url: 'https://late.example.com/' } });
    expect(received).toEqual(['POST']);
  });
});

describe('DELETE', () => {
  it('whose first answer was lost, then 404: a success with goneAfterRetry', async () => {
    let deleted = false;
    const server = await raw((_req, res) => {
      if (!deleted) {
        deleted = true;
        res.socket?.destroy();
        return;
      }
      sendJson(res, 404, { message: 'No query results for model [App\\Models\\Report] 12.' });
    });
    const client = pool.create(server.url);
    expect(await client.reports.delete('12')).toEqual({ goneAfterRetry: true });
    expect(methods(server.requests)).toEqual(['DELETE', 'DELETE']);
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/reports/12', '/api/v1/reports/12']);
  });

  it('of a project whose first answer was a 504, then 404: a success with goneAfterRetry', async () => {
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, 504, {}) : sendJson(res, 404, { message: 'Resource not found.' })));
    const client = pool.create(server.url);
    expect(await client.projects.delete('a b')).toEqual({ goneAfterRetry: true });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/projects/a%20b', '/api/v1/projects/a%20b']);
  });

  it('answered 404 on its first attempt: NotFoundError', async () => {
    const server = await raw((_req, res) => sendJson(res, 404, { message: 'Resource not found.' }));
    const client = pool.create(server.url);
    await expect(client.reports.delete('12')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(1);
  });

  it('refused with 429, then 404: NotFoundError (a 429 deleted nothing)', async () => {
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, 429, {}, { 'Retry-After': '0' }) : sendJson(res, 404, {})));
    const client = pool.create(server.url);
    await expect(client.reports.delete('12')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it('answered 503, then 404: NotFoundError (a 503 is an answer, not a lost one)', async () => {
    const server = await raw((_req, res, index) => (index === 1 ? sendJson(res, 503, { message: 'Service Unavailable' }) : sendJson(res, 404, {})));
    const client = pool.create(server.url);
    await expect(client.reports.delete('99999')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it('a GET that meets 404 after a lost answer is still NotFoundError', async () => {
    const server = await raw((_req, res, index) => (index === 1 ? res.socket?.destroy() : sendJson(res, 404, {})));
    const client = pool.create(server.url);
    await expect(client.reports.show('12')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it('204 and an empty 200 are successes; so is a small JSON body', async () => {
    const server = await raw((_req, res, index) => {
      if (index === 1) {
        res.writeHead(204);
        return res.end();
      }
      if (index === 2) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '0' });
        return res.end();
      }
      sendJson(res, 200, { id: 12, object: 'report', deleted: true });
    });
    const client = pool.create(server.url);
    expect(await client.reports.delete('10')).toEqual({ goneAfterRetry: false });
    expect(await client.reports.delete('11')).toEqual({ goneAfterRetry: false });
    expect(await client.reports.delete('12')).toEqual({ goneAfterRetry: false });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/reports/10', '/api/v1/reports/11', '/api/v1/reports/12']);
  });
});

describe('the AbortSignal', () => {
  it('aborting mid-request gives InterruptedError (exit 130), promptly', async () => {
    const server = await raw(() => {
      // never answers
    });
    const controller = new AbortController();
    // No retries: the interruption must be recognised as such, not merely stopped by the retry wait.
    const client = pool.create(server.url, { signal: controller.signal, timeoutMs: 5_000, retries: 0 });
    setTimeout(() => controller.abort(), 100);
    const { ms, value: error } = await timed(() => rejectionOf(client.reports.list()));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error)).toBe(ExitCode.interrupted);
    expect(server.requests).toHaveLength(1);
    expect(ms).toBeLessThan(2_000);
  });

  it('aborting during a retry wait gives InterruptedError without another attempt', async () => {
    const server = await raw((_req, res) => sendJson(res, 503, {}, { 'Retry-After': '30' }));
    const controller = new AbortController();
    const client = pool.create(server.url, { signal: controller.signal });
    setTimeout(() => controller.abort(), 150);
    const { ms, value: error } = await timed(() => rejectionOf(client.reports.list()));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(1);
    expect(ms).toBeLessThan(2_000);
  });

  it('aborting a create mid-request neither looks up nor retries', async () => {
    const server = await raw((req, res) => {
      if (req.method === 'GET') sendJson(res, 200, []);
    });
    const controller = new AbortController();
    const client = pool.create(server.url, { signal: controller.signal, retries: 0 });
    setTimeout(() => controller.abort(), 100);
    const error = await rejectionOf(client.reports.create({ url: 'https://abort.example.com/' }));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(methods(server.requests)).toEqual(['POST']);
  });

  it('an already aborted signal sends nothing', async () => {
    const server = await raw((_req, res) => sendJson(res, 200, []));
    const controller = new AbortController();
    controller.abort();
    const client = pool.create(server.url, { signal: controller.signal });
    await expect(client.reports.list()).rejects.toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(0);
  });
});
