// What decides "absent", "exists" and "unsure" for a create whose answer was lost (src/api/reports.ts lookUp, retry-policy.ts createDoubt).
import { beforeEach, describe, expect, it } from 'vitest';
import { UnsettledCreateError } from '../../src/api/index.js';
import { describeNetworkFailure } from '../../src/api/http/network-failure.js';
import { RetryPolicy } from '../../src/api/http/retry-policy.js';
import { ExitCode, exitCodeOf } from '../../src/cli/runtime/exit-codes.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sendJson, sendText, type RawHandler, type SeenRequest } from '../helpers/raw-server.js';
import { clientsAndRawServers, rejectionOf } from '../helpers/clients.js';

const { pool, raw } = clientsAndRawServers();

const posts = (requests: SeenRequest[]) => requests.filter((request) => request.method === 'POST').length;
const gets = (requests: SeenRequest[]) => requests.filter((request) => request.method === 'GET').length;
const pageOf = (request: SeenRequest) => Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1');

/**
 * A service holding `fresh` reports of a site's pages made after the send (ids 100000 down), newest first, 100 a page,
 * then `tail` (older or the one looked for): a search for the site root matches them all (a substring match).
 */
function siteWithManyNewPages(fresh: number, tail: object[] = []): RawHandler {
  const now = new Date().toISOString();
  return (request, response) => {
    if (request.method === 'POST') return; // the answer is lost
    const page = pageOf(request);
    const at = (index: number) => (index < fresh ? { id: 100_000 - index, url: `example.com/page/${index}`, created_at: now } : tail[index - fresh]);
    const total = fresh + tail.length;
    const data = Array.from({ length: Math.max(0, Math.min(100, total - (page - 1) * 100)) }, (_, offset) => at((page - 1) * 100 + offset));
    const last = Math.ceil(total / 100);
    sendJson(response, 200, { data, links: { next: page < last ? `/api/v1/reports?page=${page + 1}` : null }, meta: { current_page: page, last_page: last } });
  };
}

describe('a look-up crowded out by newer reports of the site (a site root matches every page)', () => {
  it('finds the report under 1,050 newer pages: it reads newest first down to the reports older than the send, past the old cap of 10 pages', async () => {
    const own = { id: 50, url: 'example.com', created_at: new Date().toISOString() };
    const older = { id: 49, url: 'example.com/old', created_at: '2020-01-01T00:00:00Z' };
    const server = await raw(siteWithManyNewPages(1_050, [own, older]));
    const client = pool.create(server.url, { createTimeoutMs: 100, clock: new FakeClock() });
    const earlier = { sentAt: Date.now() - 1_000, lastSeenAt: Date.now() - 1_000, timeoutMs: 100, newestIdBefore: 10 };
    const result = await client.reports.createUnlessStored({ url: 'https://example.com/' }, earlier);
    expect(result).toMatchObject({ recovered: true, report: { id: 50 } });
    expect(posts(server.requests)).toBe(0);
    expect(Math.max(...server.requests.map(pageOf))).toBe(11);
  });

  it('a resume whose look-up reaches its page cap without meeting older reports is unsure: unsettled, never sent again', async () => {
    const server = await raw(siteWithManyNewPages(6_000));
    const client = pool.create(server.url, { createTimeoutMs: 100, clock: new FakeClock() });
    const earlier = { sentAt: Date.now() - 10_000, lastSeenAt: Date.now() - 10_000, timeoutMs: 100 };
    const error = await rejectionOf(client.reports.createUnlessStored({ url: 'https://example.com/' }, earlier));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as Error).message).toMatch(/the look-up read 5000 reports made since it was sent without reaching older ones/);
    expect(posts(server.requests)).toBe(0);
  });
});

describe('a 2xx to a POST is a report that exists', () => {
  const report = { id: 7, url: 'notice.example.com', created_at: '' };
  beforeEach(() => {
    report.created_at = new Date().toISOString();
  });
  const notice =
    '<br />\n<b>Deprecated</b>:  Creation of dynamic property App\\Report::$x is deprecated in <b>/var/www/app/Report.php</b> on line <b>12</b><br />\n';

  it('a PHP notice printed before the JSON: the JSON after it is read, with a warning naming the notice', async () => {
    const server = await raw((request, response) =>
      request.method === 'POST' ? sendText(response, 201, `${notice}${JSON.stringify({ data: report, status: 201 })}`, 'text/html') : undefined,
    );
    const warnings: string[] = [];
    const client = pool.create(server.url, { onWarning: (message) => warnings.push(message) });
    const result = await client.reports.create({ url: 'https://notice.example.com/' });
    expect(result).toMatchObject({ recovered: false, report: { id: 7 } });
    expect(warnings).toEqual([expect.stringMatching(/PHP notice before its JSON \(POST \/reports: "Deprecated: Creation of dynamic property/)]);
    expect(posts(server.requests)).toBe(1);
  });

  it.each([
    ['a body that is not JSON', (response: Parameters<RawHandler>[1]) => sendText(response, 201, '<html>Fatal error</html>', 'text/html')],
    ['a body over the cap', (response: Parameters<RawHandler>[1]) => sendText(response, 201, `{"data": "${'x'.repeat(2_000)}"}`, 'application/json')],
    ['a body with no record', (response: Parameters<RawHandler>[1]) => sendJson(response, 201, { data: null })],
  ])('%s: looked up and found, never sent again', async (_name, answer) => {
    const server = await raw((request, response) =>
      request.method === 'POST' ? answer(response) : sendJson(response, 200, { data: [report], links: { next: null } }),
    );
    const client = pool.create(server.url, { maxBodyBytes: 1_000, clock: new FakeClock() });
    const result = await client.reports.create({ url: 'https://notice.example.com/' });
    expect(result).toMatchObject({ recovered: true, report: { id: 7 } });
    expect(posts(server.requests)).toBe(1);
  });

  it('a 201 that cannot be read and a report that never shows: unsettled (exit 8: the service answered), never sent again', async () => {
    const server = await raw((request, response) =>
      request.method === 'POST' ? sendText(response, 201, 'Deprecated: oops', 'text/plain') : sendJson(response, 200, { data: [], links: { next: null } }),
    );
    const client = pool.create(server.url, { createTimeoutMs: 100, clock: new FakeClock() });
    const error = await rejectionOf(client.reports.create({ url: 'https://notice.example.com/' }));
    expect(error).toBeInstanceOf(UnsettledCreateError);
    expect((error as Error).message).toMatch(/^the service answered 201 with a body rsapi could not read and no report showed up/);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
    expect(posts(server.requests)).toBe(1);
  });
});

describe('5xx answers rsapi does not know to mean "not processed" may hide a report', () => {
  it.each([
    [501, 'none'],
    [505, 'none'],
    [507, 'running'],
    [520, 'running'],
    [522, 'running'],
    [524, 'running'],
  ] as const)('HTTP %i: %s', (status, doubt) => {
    expect(RetryPolicy.createDoubt({ type: 'answer', status })).toBe(doubt);
  });

  it('a 524 while the origin keeps working: watched, found when the origin stores it, one POST', async () => {
    let stored = false;
    const server = await raw((request, response) => {
      if (request.method === 'POST') {
        setTimeout(() => (stored = true), 50);
        return sendText(response, 524, '<html>A timeout occurred</html>', 'text/html');
      }
      const data = stored ? [{ id: 3, url: 'cf.example.com', created_at: new Date().toISOString() }] : [];
      sendJson(response, 200, { data, links: { next: null } });
    });
    const client = pool.create(server.url, { createTimeoutMs: 2_000 });
    const result = await client.reports.create({ url: 'https://cf.example.com/' });
    expect(result).toMatchObject({ recovered: true, report: { id: 3 } });
    expect(posts(server.requests)).toBe(1);
    expect(gets(server.requests)).toBeGreaterThan(1);
  });

  it('a 501 is a plain failure: no look-up, exit 8', async () => {
    const server = await raw((_request, response) => sendJson(response, 501, { message: 'Not Implemented' }));
    const client = pool.create(server.url);
    const error = await rejectionOf(client.reports.create({ url: 'https://cf.example.com/' }));
    expect(error).not.toBeInstanceOf(UnsettledCreateError);
    expect(exitCodeOf(error)).toBe(ExitCode.server);
    expect(server.requests.map((request) => request.method)).toEqual(['POST']);
  });
});

describe('unreachable host or network (ICMP) errors', () => {
  const errno = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });

  it.each(['EHOSTUNREACH', 'ENETUNREACH'])('%s on connect: never sent; on a connected socket (after the request went out): maybe sent', (code) => {
    expect(describeNetworkFailure(errno(code, 'connect')).neverSent).toBe(true);
    expect(describeNetworkFailure(errno(code, 'read')).neverSent).toBe(false);
    expect(describeNetworkFailure(new TypeError('fetch failed', { cause: errno(code, 'write') })).neverSent).toBe(false);
  });
});
