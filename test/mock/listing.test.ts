import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.js';
import { as, call, expectFieldRejected, type PageBody, type ReportBody } from './http.js';

interface ProjectBody {
  project: string;
  created_at: string;
  reports_count: number;
}

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 63 });
});

afterEach(() => {
  server.options.envelope = 'length-aware';
});

afterAll(async () => {
  await server.close();
});

async function reportPage(query: Record<string, string>): Promise<PageBody<ReportBody>> {
  const answer = await call(server, 'GET', '/reports', { query });
  expect(answer.status).toBe(200);
  return as<PageBody<ReportBody>>(answer.body);
}

async function allReports(query: Record<string, string>): Promise<ReportBody[]> {
  return (await reportPage({ ...query, per_page: '100' })).data;
}

async function projectPage(query: Record<string, string>): Promise<PageBody<ProjectBody>> {
  const answer = await call(server, 'GET', '/projects', { query });
  expect(answer.status).toBe(200);
  return as<PageBody<ProjectBody>>(answer.body);
}

/** Follows links.next from the first page to the end, as a client would. */
async function followPages<T>(first: PageBody<T>): Promise<PageBody<T>[]> {
  const pages = [first];
  for (let next = first.links.next; next !== null; ) {
    const response = await fetch(next, { headers: { Authorization: `Bearer ${server.apiKey}` } });
    const page = (await response.json()) as PageBody<T>;
    pages.push(page);
    next = page.links.next;
    expect(pages.length).toBeLessThan(20);
  }
  return pages;
}

function isOrdered(values: (string | number)[], direction: 'asc' | 'desc'): boolean {
  return values.every((value, index) => index === 0 || (direction === 'asc' ? values[index - 1]! <= value : values[index - 1]! >= value));
}

describe('GET /reports validation', () => {
  it.each([
    ['search_by', 'title', 'The selected search by is invalid.'],
    ['result', 'great', 'The selected result is invalid.'],
    ['sort_by', 'created_at', 'The selected sort by is invalid.'],
    ['sort', 'up', 'The selected sort is invalid.'],
    ['per_page', '20', 'The selected per page is invalid.'],
    ['per_page', '1000', 'The selected per page is invalid.'],
    ['page', '0', 'The page field must be at least 1.'],
    ['page', '-2', 'The page field must be at least 1.'],
    ['page', 'two', 'The page field must be an integer.'],
    ['page', '1.5', 'The page field must be an integer.'],
  ])('answers 422 for %s=%s', async (field, value, message) => {
    const answer = await call(server, 'GET', '/reports', { query: { [field]: value } });
    expectFieldRejected(answer, field, message);
  });

  it('reports every bad field at once, the first one as the message', async () => {
    const answer = await call(server, 'GET', '/reports', { query: { per_page: '7', sort: 'sideways' } });
    expect(answer.body).toEqual({
      message: 'The selected sort is invalid.',
      errors: { sort: ['The selected sort is invalid.'], per_page: ['The selected per page is invalid.'] },
    });
  });

  it('accepts every allowed value', async () => {
    const queries: Record<string, string>[] = [{ search_by: 'url' }, { per_page: '25' }, { per_page: '50' }, { sort: 'asc' }, { result: 'bad' }, { page: '3' }];
    for (const query of queries) {
      expect((await call(server, 'GET', '/reports', { query })).status).toBe(200);
    }
  });
});

describe('GET /reports filters and sorting', () => {
  it('defaults to 10 per page, newest id first', async () => {
    const page = await reportPage({});
    expect(page.data.map((report) => report.id)).toEqual([63, 62, 61, 60, 59, 58, 57, 56, 55, 54]);
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 10, total: 63, last_page: 7 });
  });

  it('searches URLs case-insensitively', async () => {
    const found = await allReports({ search: 'PRICING', search_by: 'url' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((report) => report.url.toLowerCase().includes('pricing'))).toBe(true);
    expect(found).toHaveLength(server.reports().filter((report) => report.url.includes('pricing')).length);
  });

  it('filters by project', async () => {
    const found = await allReports({ project: 'docs.example.io' });
    expect(found).toHaveLength(server.reports().filter((report) => report.project === 'docs.example.io').length);
    expect(found.every((report) => report.project === 'docs.example.io')).toBe(true);
    expect(await allReports({ project: 'docs.example' })).toEqual([]);
  });

  it.each(['good', 'decent', 'bad'])('filters by result %s', async (result) => {
    const found = await allReports({ result });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((report) => report.result === result)).toBe(true);
    expect(found).toHaveLength(server.reports().filter((report) => report.result === result).length);
  });

  it('combines search, project and result', async () => {
    const found = await allReports({ search: 'about', project: 'example.com', result: 'decent' });
    const expected = server.reports().filter((r) => r.url.includes('about') && r.project === 'example.com' && r.result === 'decent');
    expect(found.map((report) => report.id).sort()).toEqual(expected.map((report) => report.id).sort());
  });

  it.each([
    ['id', 'asc'],
    ['id', 'desc'],
    ['generated_at', 'asc'],
    ['generated_at', 'desc'],
    ['url', 'asc'],
    ['url', 'desc'],
    ['score', 'asc'],
    ['score', 'desc'],
  ] as const)('sorts by %s %s', async (sortBy, sort) => {
    const found = await allReports({ sort_by: sortBy, sort });
    expect(found).toHaveLength(63);
    expect(
      isOrdered(
        found.map((report) => report[sortBy]),
        sort,
      ),
    ).toBe(true);
    const opposite = await allReports({ sort_by: sortBy, sort: sort === 'asc' ? 'desc' : 'asc' });
    expect(opposite.map((report) => report.id)).toEqual(found.map((report) => report.id).reverse());
  });

  it('orders differently by each sort field', async () => {
    const orders = await Promise.all(['id', 'generated_at', 'url', 'score'].map((sortBy) => allReports({ sort_by: sortBy })));
    const signatures = new Set(orders.map((reports) => reports.map((report) => report.id).join(',')));
    expect(signatures.size).toBe(4);
  });
});

describe('paging, length-aware envelope', () => {
  it('walks every page through links.next, ending with next null on the last page', async () => {
    const pages = await followPages(await reportPage({ per_page: '25', result: 'bad' }));
    const total = server.reports().filter((report) => report.result === 'bad').length;
    expect(pages).toHaveLength(Math.ceil(total / 25));
    expect(pages.flatMap((page) => page.data).map((report) => report.id)).toEqual((await allReports({ result: 'bad' })).map((r) => r.id));
    const last = pages.at(-1);
    expect(last?.links.next).toBeNull();
    expect(last?.meta).toMatchObject({ current_page: pages.length, last_page: pages.length, total, to: total });
  });

  it('describes a middle page with meta and absolute links that keep the other parameters', async () => {
    const page = await reportPage({ sort_by: 'score', per_page: '10', page: '3' });
    expect(Object.keys(page)).toEqual(['data', 'links', 'meta']);
    expect(page.meta).toEqual({ current_page: 3, from: 21, last_page: 7, path: `${server.baseUrl}/reports`, per_page: 10, to: 30, total: 63 });
    expect(Object.keys(page.links)).toEqual(['first', 'last', 'prev', 'next']);
    const next = new URL(page.links.next ?? '');
    expect(`${next.origin}${next.pathname}`).toBe(`${server.baseUrl}/reports`);
    expect(Object.fromEntries(next.searchParams)).toEqual({ sort_by: 'score', per_page: '10', page: '4' });
    expect(new URL(page.links.prev ?? '').searchParams.get('page')).toBe('2');
    expect(new URL(page.links.first).searchParams.get('page')).toBe('1');
    expect(new URL(page.links.last ?? '').searchParams.get('page')).toBe('7');
  });

  it('has prev null on the first page and a short last page', async () => {
    expect((await reportPage({})).links.prev).toBeNull();
    const last = await reportPage({ page: '7' });
    expect(last.data).toHaveLength(3);
    expect(last.meta).toMatchObject({ from: 61, to: 63 });
  });

  it('answers a valid empty page past the end', async () => {
    const page = await reportPage({ page: '9' });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 63, last_page: 7 });
    expect(page.links.next).toBeNull();
  });

  it('answers one empty page when nothing matches', async () => {
    const page = await reportPage({ search: 'no-such-page' });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
  });
});

describe('paging, simple envelope', () => {
  it('leaves out total and last_page, and still ends with next null', async () => {
    server.options.envelope = 'simple';
    const first = await reportPage({ per_page: '25' });
    expect(Object.keys(first.links)).toEqual(['first', 'prev', 'next']);
    expect(first.meta).toEqual({ current_page: 1, from: 1, path: `${server.baseUrl}/reports`, per_page: 25, to: 25 });
    const pages = await followPages(first);
    expect(pages.map((page) => page.data.length)).toEqual([25, 25, 13]);
    expect(pages.at(-1)?.links.next).toBeNull();
  });

  it('answers an empty page past the end', async () => {
    server.options.envelope = 'simple';
    const page = await reportPage({ page: '8' });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 8, from: null, to: null });
    expect(page.links.next).toBeNull();
  });

  it('has no next link when the last page is exactly full', async () => {
    const twenty = await startMockServer({ port: 0, seed: 20, envelope: 'simple' });
    try {
      const pages = await Promise.all(['1', '2'].map((page) => call(twenty, 'GET', '/reports', { query: { page } })));
      const [first, second] = pages.map((answer) => as<PageBody<ReportBody>>(answer.body));
      expect(first?.links.next).not.toBeNull();
      expect(second?.data).toHaveLength(10);
      expect(second?.links.next).toBeNull();
    } finally {
      await twenty.close();
    }
  });
});

describe('paging, bare envelope', () => {
  it('answers the page records as a plain array, the same records as the enveloped page', async () => {
    const enveloped = await reportPage({ page: '2', sort_by: 'url' });
    server.options.envelope = 'bare';
    const answer = await call(server, 'GET', '/reports', { query: { page: '2', sort_by: 'url' } });
    expect(Array.isArray(answer.body)).toBe(true);
    expect(answer.body).toEqual(enveloped.data);
    const pastEnd = await call(server, 'GET', '/reports', { query: { page: '100' } });
    expect(pastEnd.body).toEqual([]);
  });

  it('applies to projects too', async () => {
    server.options.envelope = 'bare';
    const answer = await call(server, 'GET', '/projects');
    expect(as<ProjectBody[]>(answer.body)).toHaveLength(5);
  });
});

describe('GET /projects', () => {
  it('lists the seeded projects with their report counts, newest first', async () => {
    const page = await projectPage({});
    expect(page.meta.total).toBe(5);
    for (const project of page.data) {
      expect(project.reports_count).toBe(server.reports().filter((report) => report.project === project.project).length);
    }
    expect(
      isOrdered(
        page.data.map((project) => project.created_at),
        'desc',
      ),
    ).toBe(true);
    expect(Object.keys(page.data[0] ?? {})).toEqual(['project', 'created_at', 'reports_count']);
  });

  it.each([
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['project', 'asc'],
    ['project', 'desc'],
  ] as const)('sorts by %s %s', async (sortBy, sort) => {
    const page = await projectPage({ sort_by: sortBy, sort });
    expect(
      isOrdered(
        page.data.map((project) => project[sortBy]),
        sort,
      ),
    ).toBe(true);
    expect(page.data).toHaveLength(5);
  });

  it('sorts by name differently than by date', async () => {
    const byName = (await projectPage({ sort_by: 'project', sort: 'asc' })).data.map((project) => project.project);
    const byDate = (await projectPage({ sort_by: 'created_at', sort: 'asc' })).data.map((project) => project.project);
    expect(byName).not.toEqual(byDate);
  });

  it('searches names case-insensitively', async () => {
    const page = await projectPage({ search: 'EXAMPLE.ORG', search_by: 'project' });
    expect(page.data.map((project) => project.project)).toEqual(['shop.example.org']);
  });

  it('pages like reports', async () => {
    server.options.envelope = 'length-aware';
    const page = await projectPage({ per_page: '10', page: '2' });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 2, last_page: 1, total: 5, from: null });
    expect(page.links.prev).not.toBeNull();
  });

  it.each([
    ['search_by', 'url', 'The selected search by is invalid.'],
    ['sort_by', 'id', 'The selected sort by is invalid.'],
    ['sort', 'ASC!', 'The selected sort is invalid.'],
    ['per_page', '5', 'The selected per page is invalid.'],
    ['page', '0', 'The page field must be at least 1.'],
  ])('answers 422 for %s=%s', async (field, value, message) => {
    const answer = await call(server, 'GET', '/projects', { query: { [field]: value } });
    expectFieldRejected(answer, field, message);
  });
});

describe('report lists kept between pages', () => {
  it('shows every create, update and delete on the next page asked for', async () => {
    const own = await startMockServer({ port: 0, seed: 30 });
    try {
      const page = async () => as<PageBody<ReportBody>>((await call(own, 'GET', '/reports', { query: { per_page: '10', sort_by: 'id', sort: 'desc' } })).body);
      expect((await page()).data[0]?.id).toBe(30);
      const created = as<{ data: ReportBody }>((await call(own, 'POST', '/reports', { form: { url: 'https://example.com/kept' } })).body).data;
      expect((await page()).data[0]?.id).toBe(created.id);
      await call(own, 'PATCH', `/reports/${created.id}`, { form: { privacy: '1' } });
      expect((await page()).data[0]?.privacy).toBe(1);
      await call(own, 'DELETE', `/reports/${created.id}`);
      expect((await page()).data[0]?.id).toBe(30);
      expect((await page()).meta.total).toBe(30);
    } finally {
      await own.close();
    }
  });
});
