// The phpRank flavor of the mock over loopback: records, cleaning and redirects, envelopes, errors, lenient lists,
// re-audit, projects, account, key and plan refusals, throttle.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/api/model/checks.js';
import { IMPORTANCE_WEIGHT } from '../../src/mock/phprank-audit.js';
import { startMockServer, type MockOptions, type MockServer } from '../../src/mock/server.js';
import { as, call, seededRandom } from './http.js';
import { GateClock } from '../helpers/gate-clock.js';

interface CheckBody {
  passed: boolean;
  importance: 'high' | 'medium' | 'low';
  value: unknown;
  errors?: Record<string, unknown>;
}

interface PhprankReport {
  id: number;
  url: string;
  project: string;
  result: number;
  results: Record<string, CheckBody>;
  privacy: number | null;
  password: boolean;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

interface PhprankPage<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; last_page: number; per_page: number; total: number };
  status: number;
}

const REPORT_FIELDS = ['id', 'url', 'project', 'result', 'results', 'privacy', 'password', 'generated_at', 'created_at', 'updated_at'];
const LARAVEL_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, flavor: 'phprank', rateLimit: 0, redirects: { 'https://short.example/x': 'https://www.target.example/landing/' } });
});

afterAll(async () => {
  await server.close();
});

/** A server of its own for a test that needs other options; closed when `body` ends. */
async function withServer(options: MockOptions, body: (own: MockServer) => Promise<void>): Promise<void> {
  const own = await startMockServer({ port: 0, flavor: 'phprank', ...options });
  try {
    await body(own);
  } finally {
    await own.close();
  }
}

async function create(url: string, form: Record<string, string> = {}): Promise<PhprankReport> {
  const answer = await call(server, 'POST', '/reports', { form: { url, ...form } });
  expect(answer.status).toBe(201);
  return as<{ data: PhprankReport }>(answer.body).data;
}

async function show(id: number): Promise<PhprankReport> {
  const answer = await call(server, 'GET', `/reports/${id}`);
  expect(answer.status).toBe(200);
  return as<{ data: PhprankReport }>(answer.body).data;
}

async function listPage(query: Record<string, string> = {}): Promise<PhprankPage<PhprankReport>> {
  const answer = await call(server, 'GET', '/reports', { query });
  expect(answer.status).toBe(200);
  return as<PhprankPage<PhprankReport>>(answer.body);
}

function expectedScore(results: Record<string, CheckBody>): number {
  let passed = 0;
  let total = 0;
  for (const check of Object.values(results)) {
    total += IMPORTANCE_WEIGHT[check.importance];
    if (check.passed) passed += IMPORTANCE_WEIGHT[check.importance];
  }
  return (100 * passed) / total;
}

describe('phpRank reports', () => {
  it('sends result as the score, results with the 36 checks, password as a boolean, and no score field', async () => {
    const report = await show(5);
    expect(Object.keys(report)).toEqual(REPORT_FIELDS);
    expect(Number.isInteger(report.result)).toBe(true);
    expect(report.result).toBe(Math.round(expectedScore(report.results)));
    expect(Object.keys(report.results).sort()).toEqual([...CHECK_IDS].sort());
    for (const check of Object.values(report.results)) {
      expect(['high', 'medium', 'low']).toContain(check.importance);
      expect(Object.keys(check)).toEqual(check.passed ? ['passed', 'importance', 'value'] : ['passed', 'importance', 'value', 'errors']);
      if (!check.passed) expect(typeof check.errors).toBe('object');
    }
    expect(typeof report.password).toBe('boolean');
    for (const date of [report.generated_at, report.created_at, report.updated_at]) expect(date).toMatch(LARAVEL_DATE);
  });

  it('gives each check one importance everywhere: title, meta_description, https_encryption, headings and load_time high', async () => {
    const importances = new Map<string, string>();
    for (const report of (await listPage({ per_page: '100' })).data) {
      for (const [id, check] of Object.entries(report.results)) {
        expect(importances.get(id) ?? check.importance).toBe(check.importance);
        importances.set(id, check.importance);
      }
    }
    for (const id of ['title', 'meta_description', 'https_encryption', 'headings', 'load_time']) expect(importances.get(id)).toBe('high');
    expect(new Set(importances.values())).toEqual(new Set(['high', 'medium', 'low']));
  });

  it('fails a check with its errors: a slow page says too_slow, a missing title says missing', async () => {
    const failed = (await listPage({ per_page: '100' })).data.flatMap((report) => Object.entries(report.results).filter(([, check]) => !check.passed));
    expect(failed.find(([id]) => id === 'load_time')?.[1].errors).toEqual({ too_slow: { max: 2 } });
    expect(failed.find(([id]) => id === 'title')?.[1].errors).toEqual({ missing: null });
  });

  it('seeds cleaned URLs, projects without www., and scores spanning good, decent and bad from the first three', async () => {
    const seeded = (await listPage({ per_page: '100', sort: 'asc' })).data;
    expect(seeded).toHaveLength(63);
    expect(seeded[0]).toMatchObject({ id: 1, url: 'example.com', project: 'example.com' });
    expect(seeded.find((report) => report.id === 6)).toMatchObject({ url: 'example.com/pricing', project: 'example.com' });
    for (const report of seeded) expect(report.url).not.toMatch(/^(https?:\/\/|www\.)|^[^/]*\/$/);
    const label = (score: number) => (score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad');
    expect(seeded.slice(0, 3).map((report) => label(report.result))).toEqual(['good', 'decent', 'bad']);
    const failures = new Set(
      seeded.map((report) =>
        Object.keys(report.results)
          .filter((id) => !report.results[id]?.passed)
          .join(),
      ),
    );
    expect(failures.size).toBe(63);
  });

  it('audits a URL the same way every time: the same checks pass for the same stored URL', async () => {
    const first = await create('https://same.example/page');
    const second = await create('http://www.same.example/page');
    expect(second.url).toBe(first.url);
    expect(second.results).toEqual(first.results);
    expect(second.result).toBe(first.result);
  });
});

describe('phpRank create', () => {
  it('answers 201 with the unrounded weighted score, privacy null when not sent, status 200', async () => {
    const answer = await call(server, 'POST', '/reports', { form: { url: 'https://www.fresh.example/' } });
    expect(answer.status).toBe(201);
    const body = as<{ data: PhprankReport; status: number }>(answer.body);
    expect(body.status).toBe(200);
    expect(body.data.privacy).toBeNull();
    expect(body.data.password).toBe(false);
    expect(body.data.result).toBe(expectedScore(body.data.results));
    expect((await show(body.data.id)).result).toBe(Math.round(body.data.result));
    expect((await show(body.data.id)).privacy).toBe(0);
  });

  it('answers the privacy it was sent and says a password is set without showing it', async () => {
    const report = await create('https://private.example/a', { privacy: '2', password: 'hunter2' });
    expect(report).toMatchObject({ privacy: 2, password: true });
    expect(JSON.stringify(report)).not.toContain('hunter2');
  });

  it.each([
    ['https://www.example.com/', 'example.com', 'example.com'],
    ['http://Example.com', 'example.com', 'example.com'],
    ['https://www.example.com/about/', 'example.com/about/', 'example.com'],
    ['https://blog.example.com/post?id=3#top', 'blog.example.com/post?id=3', 'blog.example.com'],
    ['https://www.example.com/old/x', 'example.com/new/x', 'example.com'],
    ['http://example.com/old', 'example.com/new', 'example.com'],
    ['https://www.example.com/older/x', 'example.com/older/x', 'example.com'],
    ['https://short.example/x', 'target.example/landing/', 'target.example'],
  ])('stores %s as %s in project %s', async (sent, stored, project) => {
    const report = await create(sent);
    expect(report).toMatchObject({ url: stored, project });
    expect(server.reports().find((candidate) => candidate.id === report.id)?.url).toBe(stored);
  });

  it.each([
    [{}, { url: ['The url field is required.'] }],
    [{ url: 'example.com' }, { url: ['The url must be a valid URL.'] }],
    [{ url: 'https://example.com/', privacy: '3' }, { privacy: ['The selected privacy is invalid.'] }],
  ])('answers 422 with message as an object of field errors for %j', async (form, messages) => {
    const before = server.reports().length;
    const answer = await call(server, 'POST', '/reports', { form });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ message: messages, status: 422 });
    expect(server.reports()).toHaveLength(before);
  });

  it('stores a slow audit even when the client gave up, and keeps the after-create faults', async () => {
    // The client gives up once the POST (body and all) has arrived; the audit waits on a gate the test opens after that.
    const audit = new GateClock();
    await withServer({ storeDelayMs: 1_500, rateLimit: 0, clock: audit }, async (own) => {
      const giveUp = new AbortController();
      const gaveUp = fetch(`${own.baseUrl}/reports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${own.apiKey}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'url=https%3A%2F%2Fwww.slow.example%2Fold',
        signal: giveUp.signal,
      });
      for (let waited = 0; !own.requests.some((request) => request.form.url !== undefined) && waited < 5_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      giveUp.abort();
      await expect(gaveUp).rejects.toThrow();
      expect(own.reports().some((report) => report.url === 'slow.example/new')).toBe(false);
      audit.open();
      const stored = () => own.reports().filter((report) => report.url === 'slow.example/new');
      for (let waited = 0; stored().length === 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stored()).toHaveLength(1);
    });
    await withServer({ dropAfterCreate: 1, rateLimit: 0, random: seededRandom(1) }, async (own) => {
      await expect(call(own, 'POST', '/reports', { form: { url: 'https://dropped.example/' } })).rejects.toThrow();
      expect(own.reports().filter((report) => report.url === 'dropped.example')).toHaveLength(1);
    });
  });
});

describe('phpRank: a page it cannot fetch', () => {
  it.each([
    ['https://nonexistent.invalid/', 'cURL error 6: Could not resolve host: nonexistent.invalid'],
    ['https://www.shop.invalid/a', 'cURL error 6: Could not resolve host: www.shop.invalid'],
  ])("a host under .invalid: %s is refused with 422 on url carrying cURL's message, nothing stored", async (url, curl) => {
    const before = server.reports().length;
    const answer = await call(server, 'POST', '/reports', { form: { url } });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ message: { url: [`${curl} (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for ${url}`] }, status: 422 });
    expect(server.reports()).toHaveLength(before);
  });

  it('--unreachable HOST: that host and its subdomains are refused with a connect failure; other hosts are audited', async () => {
    await withServer({ rateLimit: 0, unreachable: ['down.example'] }, async (own) => {
      for (const url of ['https://down.example/', 'http://www.down.example/page']) {
        const answer = await call(own, 'POST', '/reports', { form: { url } });
        expect(answer.status).toBe(422);
        const port = url.startsWith('http:') ? 80 : 443;
        expect((answer.body as { message: { url: string[] } }).message.url[0]).toMatch(
          new RegExp(`^cURL error 7: Failed to connect to (www\\.)?down\\.example port ${port} `),
        );
      }
      expect((await call(own, 'POST', '/reports', { form: { url: 'https://notdown.example/' } })).status).toBe(201);
    });
  });
});

describe('phpRank envelopes', () => {
  it('lists in the length-aware paginator with status 200 beside data, links and meta', async () => {
    const page = await listPage({ per_page: '10', page: '2' });
    expect(Object.keys(page)).toEqual(['data', 'links', 'meta', 'status']);
    expect(page.status).toBe(200);
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 10 });
    expect(page.data).toHaveLength(10);
  });

  it('wraps a shown report in data with status 200', async () => {
    const answer = await call(server, 'GET', '/reports/3');
    expect(Object.keys(as<object>(answer.body))).toEqual(['data', 'status']);
    expect(as<{ status: number }>(answer.body).status).toBe(200);
  });

  it('deletes a report answering 200 with id, object report, deleted and status', async () => {
    const report = await create('https://doomed.example/');
    const answer = await call(server, 'DELETE', `/reports/${report.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: report.id, object: 'report', deleted: true, status: 200 });
    expect((await call(server, 'GET', `/reports/${report.id}`)).status).toBe(404);
  });
});

describe('phpRank errors', () => {
  it.each([
    ['GET', '/reports/99999'],
    ['GET', '/reports/abc'],
    ['DELETE', '/reports/99999'],
    ['GET', '/widgets'],
    ['GET', '/reports/1/extra'],
    ['GET', ''],
    ['GET', '/'],
  ])('%s %s answers 404 Resource not found. with status', async (method, path) => {
    const answer = await call(server, method, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Resource not found.', status: 404 });
  });

  it.each(['PUT', 'PATCH', 'POST'])('%s of a report that does not exist answers 403 This action is unauthorized. with no status', async (method) => {
    const answer = await call(server, method, '/reports/99999', { form: { privacy: '1' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: 'This action is unauthorized.' });
  });

  it('answers 401 Unauthenticated. to a wrong key that asks for JSON', async () => {
    const answer = await call(server, 'GET', '/reports', { key: 'wrong' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('redirects a wrong key without Accept: application/json to the HTML login page', async () => {
    const response = await fetch(`${server.baseUrl}/reports`, { headers: { Authorization: 'Bearer wrong' }, redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${server.url}/login`);
    const login = await fetch(`${server.url}/login`);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await login.text()).toContain('<form');
  });

  it('answers 403 on every call, account included, for a plan without API access', async () => {
    await withServer({ planWithoutApi: true, rateLimit: 0 }, async (own) => {
      for (const [method, path] of [
        ['GET', '/reports'],
        ['POST', '/reports'],
        ['GET', '/account'],
        ['DELETE', '/projects/example.com'],
      ] as const) {
        const answer = await call(own, method, path, method === 'POST' ? { form: { url: 'https://example.com/' } } : {});
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: "You don't have access to this feature.", status: 403 });
      }
      expect(own.reports()).toHaveLength(63);
    });
  });
});

describe('phpRank list parameters', () => {
  it.each([
    [{ per_page: '7' }, { per_page: 10 }],
    [{ page: 'x' }, { current_page: 1 }],
    [{ sort: 'sideways' }, { current_page: 1 }],
  ])('never refuses %j: falls back to the default', async (query, meta) => {
    expect((await listPage(query)).meta).toMatchObject(meta);
  });

  it('sorts by id, url or result, and silently by id for score, generated_at or anything else', async () => {
    const ids = (page: PhprankPage<PhprankReport>) => page.data.map((report) => report.id);
    const byId = ids(await listPage({ per_page: '100' }));
    expect(byId).toEqual([...byId].sort((a, b) => b - a));
    for (const ignored of ['score', 'generated_at', 'nonsense']) expect(ids(await listPage({ per_page: '100', sort_by: ignored }))).toEqual(byId);
    const byResult = (await listPage({ per_page: '100', sort_by: 'result', sort: 'asc' })).data.map((report) => report.result);
    expect(byResult).toEqual([...byResult].sort((a, b) => a - b));
    const byUrl = (await listPage({ per_page: '100', sort_by: 'url', sort: 'asc' })).data.map((report) => report.url);
    expect(byUrl).toEqual([...byUrl].sort());
  });

  it.each([
    ['good', (score: number) => score > 79],
    ['decent', (score: number) => score >= 49 && score <= 79],
    ['bad', (score: number) => score < 49],
    ['excellent', (score: number) => score < 49],
  ])('result=%s filters by the thresholds good > 79, decent 49-79, else bad', async (result, inRange) => {
    const page = await listPage({ result, per_page: '100' });
    expect(page.data.length).toBeGreaterThan(0);
    for (const report of page.data) expect(inRange(report.result)).toBe(true);
    const all = (await listPage({ per_page: '100' })).data;
    expect(page.meta.total).toBe(all.filter((report) => inRange(report.result)).length);
  });

  it('searches for the cleaned search text', async () => {
    const page = await listPage({ search: 'https://www.shop.example.org/', per_page: '100' });
    expect(page.data.length).toBeGreaterThan(0);
    for (const report of page.data) expect(report.url).toContain('shop.example.org');
    expect((await listPage({ search: 'https://www.shop.example.org/faq' })).data.map((report) => report.url)).toEqual(['shop.example.org/faq']);
  });
});

describe('phpRank update', () => {
  it('re-runs the audit with results=1: a new generated_at, results recomputed, the score unrounded', async () => {
    const before = await show(7);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await call(server, 'PUT', '/reports/7', { form: { results: '1' } });
    expect(answer.status).toBe(200);
    const after = as<{ data: PhprankReport; status: number }>(answer.body);
    expect(after.status).toBe(200);
    expect(after.data.generated_at > before.generated_at).toBe(true);
    expect(after.data.results).toEqual(before.results);
    expect(after.data.result).toBe(expectedScore(after.data.results));
  });

  it('ignores update=1', async () => {
    const before = await show(8);
    const answer = await call(server, 'PATCH', '/reports/8', { form: { update: '1' } });
    expect(answer.status).toBe(200);
    expect(as<{ data: PhprankReport }>(answer.body).data.generated_at).toBe(before.generated_at);
  });

  it('changes privacy and answers 422 with a message object for a bad one', async () => {
    expect(as<{ data: PhprankReport }>((await call(server, 'POST', '/reports/9', { form: { privacy: '1' } })).body).data.privacy).toBe(1);
    const refused = await call(server, 'PUT', '/reports/9', { form: { privacy: '9' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: { privacy: ['The selected privacy is invalid.'] }, status: 422 });
  });
});

describe('phpRank projects', () => {
  it('groups reports by host: reports counted, result the sum of scores as a string', async () => {
    await withServer({ rateLimit: 0, seed: 12 }, async (own) => {
      const answer = await call(own, 'GET', '/projects', { query: { per_page: '100' } });
      expect(answer.status).toBe(200);
      const page = as<PhprankPage<Record<string, unknown>>>(answer.body);
      expect(page.status).toBe(200);
      const example = page.data.find((row) => row['project'] === 'example.com');
      expect(example && Object.keys(example)).toEqual(['project', 'created_at', 'reports', 'result']);
      const stored = own.reports().filter((report) => report.project === 'example.com');
      expect(example).toEqual({
        project: 'example.com',
        created_at: stored[0]?.created_at,
        reports: stored.length,
        result: String(stored.reduce((sum, report) => sum + report.score, 0)),
      });
    });
  });

  it('deletes every report of a host, answering its id and object report; 404 when it has none', async () => {
    await withServer({ rateLimit: 0, seed: 12 }, async (own) => {
      const answer = await call(own, 'DELETE', '/projects/example.com');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: 'example.com', object: 'report', deleted: true, status: 200 });
      expect(own.reports().some((report) => report.project === 'example.com')).toBe(false);
      const again = await call(own, 'DELETE', '/projects/example.com');
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: 'Resource not found.', status: 404 });
    });
  });
});

describe('phpRank account', () => {
  it('answers the key account with its plan and features', async () => {
    const answer = await call(server, 'GET', '/account');
    expect(answer.status).toBe(200);
    const body = as<{ data: Record<string, unknown>; status: number }>(answer.body);
    expect(body.status).toBe(200);
    expect(Object.keys(body.data)).toEqual(['id', 'name', 'email', 'locale', 'timezone', 'plan', 'default_privacy', 'created_at']);
    expect(body.data['plan']).toMatchObject({ features: { api: true } });
  });
});

describe('phpRank throttle', () => {
  it('allows 60 a minute by default, with X-RateLimit-Limit and -Remaining on every answer, 401 and 404 included', async () => {
    await withServer({ seed: 3 }, async (own) => {
      const first = await call(own, 'GET', '/reports');
      expect(first.headers.get('x-ratelimit-limit')).toBe('60');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
      expect((await call(own, 'GET', '/reports', { key: 'wrong' })).headers.get('x-ratelimit-remaining')).toBe('58');
      expect((await call(own, 'GET', '/reports/999')).headers.get('x-ratelimit-remaining')).toBe('57');
    });
  });

  it('refuses past the limit with 429, Retry-After the time left in the window and X-RateLimit-Reset, creating nothing', async () => {
    await withServer({ seed: 0, rateLimit: 2, rateLimitWindowMs: 30_000 }, async (own) => {
      const opened = Date.now();
      await call(own, 'GET', '/reports');
      await call(own, 'GET', '/reports');
      const refused = await call(own, 'POST', '/reports', { form: { url: 'https://example.com/' } });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      expect(Math.abs(Number(refused.headers.get('x-ratelimit-reset')) - (opened + 30_000) / 1000)).toBeLessThan(2);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(own.reports()).toHaveLength(0);
    });
  });

  it('does not throttle with rateLimit 0', async () => {
    await withServer({ seed: 0, rateLimit: 0 }, async (own) => {
      expect((await call(own, 'GET', '/reports')).headers.get('x-ratelimit-limit')).toBeNull();
    });
  });
});
