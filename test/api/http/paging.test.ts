// Paging to the end, to a limit and from a start page, over every list shape the mock can answer with.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { iteratePages, iterateRecords, ServerError, type ApiRecord, type Page } from '../../../src/api/index.js';
import { startMockServer, type Envelope, type MockServer } from '../../../src/mock/server.js';
import { ClientPool } from '../../helpers/clients.js';
import { withPageSize } from '../../../src/api/http/paging.js';

const pool = new ClientPool();
afterEach(async () => {
  await pool.closeAll();
});

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

function pagesAsked(server: MockServer): (string | undefined)[] {
  return server.requests.map((request) => request.query['page']);
}

/** The seed's ids, newest first: the service's default order. */
function idsDescending(server: MockServer, from = 0, count = Infinity): number[] {
  return server
    .reports()
    .map((report) => report.id)
    .sort((a, b) => b - a)
    .slice(from, from + count);
}

const ENVELOPES: Envelope[] = ['length-aware', 'simple', 'bare'];

describe.each(ENVELOPES)('the %s envelope', (envelope) => {
  let server: MockServer;

  beforeAll(async () => {
    server = await startMockServer({ port: 0, envelope, seed: 63 });
  });
  afterAll(async () => {
    await server.close();
  });

  function client() {
    server.requests.length = 0;
    return pool.create(server.url, { apiKey: server.apiKey });
  }

  it('fetches only the first page unless asked for more', async () => {
    const pages = await collect(client().reports.pages());
    expect(pages).toHaveLength(1);
    expect(pages[0]?.records.map((record) => record.id)).toEqual(idsDescending(server, 0, 10));
    expect(pagesAsked(server)).toEqual([undefined]);
  });

  it('follows the pages to the end with all, each page once', async () => {
    const pages = await collect(client().reports.pages({ perPage: 10 }, { all: true }));
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages.map((page) => page.records.length)).toEqual([10, 10, 10, 10, 10, 10, 3]);
    expect(pages.flatMap((page) => page.records.map((record) => record.id))).toEqual(idsDescending(server));
    // Pages asked for together may reach the service in any order.
    expect(pagesAsked(server).sort()).toEqual(['2', '3', '4', '5', '6', '7', undefined]);
    expect(pages.at(-1)?.nextPage).toBeUndefined();
  });

  it('keeps the list parameters on every page', async () => {
    const pages = await collect(client().reports.pages({ perPage: 25, sort: 'asc' }, { all: true }));
    expect(pages.map((page) => page.records.length)).toEqual([25, 25, 13]);
    for (const request of server.requests) expect(request.query).toMatchObject({ per_page: '25', sort: 'asc' });
    expect(pages[0]?.records[0]?.id).toBe(1);
  });

  it.each([
    [1, 1, [1]],
    [10, 1, [10]],
    [11, 2, [10, 1]],
    [15, 2, [10, 5]],
    [20, 2, [10, 10]],
    [63, 7, [10, 10, 10, 10, 10, 10, 3]],
    [500, 7, [10, 10, 10, 10, 10, 10, 3]],
  ])('limit %i fetches %i page(s) and no page it does not need', async (limit, requests, sizes) => {
    const pages = await collect(client().reports.pages({ perPage: 10 }, { limit }));
    expect(server.requests).toHaveLength(requests);
    expect(pages.map((page) => page.records.length)).toEqual(sizes);
    expect(pages.flatMap((page) => page.records.map((record) => record.id))).toEqual(idsDescending(server, 0, limit));
  });

  it('limit with all still stops at the limit', async () => {
    const api = client();
    const records = await collect(iterateRecords((page) => api.reports.list({}, page), { all: true, limit: 12 }));
    expect(records).toHaveLength(12);
    expect(pagesAsked(server)).toEqual([undefined, '2']);
  });

  it('startPage begins there and follows to the end', async () => {
    const pages = await collect(client().reports.pages({ perPage: 10 }, { startPage: 3, all: true }));
    expect(pagesAsked(server).sort()).toEqual(['3', '4', '5', '6', '7']);
    expect(pages.flatMap((page) => page.records.map((record) => record.id))).toEqual(idsDescending(server, 20));
  });

  it('startPage alone fetches that page only', async () => {
    const pages = await collect(client().reports.pages({}, { startPage: 2 }));
    expect(pagesAsked(server)).toEqual(['2']);
    expect(pages[0]?.records.map((record) => record.id)).toEqual(idsDescending(server, 10, 10));
  });

  it('startPage past the end gives one empty page and stops', async () => {
    const pages = await collect(client().reports.pages({ perPage: 10 }, { startPage: 9, all: true }));
    expect(pagesAsked(server)).toEqual(['9']);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.records).toEqual([]);
  });

  it('asks for the largest page when following all pages without a page size, the smallest covering a limit', async () => {
    const all = await collect(client().reports.pages({}, { all: true }));
    expect(all.flatMap((page) => page.records.map((record) => record.id))).toEqual(idsDescending(server));
    expect(server.requests.map((request) => request.query['per_page'])).toEqual(['100']);
    const limited = await collect(client().reports.pages({}, { limit: 3 }));
    expect(limited.flatMap((page) => page.records)).toHaveLength(3);
    expect(server.requests.map((request) => request.query['per_page'])).toEqual(['10']);
    await collect(client().reports.pages({}, {}));
    expect(server.requests.map((request) => request.query['per_page'])).toEqual([undefined]);
    await collect(client().projects.pages({}, { all: true }));
    expect(server.requests.map((request) => request.query['per_page'])).toEqual(['100']);
  });

  it('pages projects the same way', async () => {
    const pages = await collect(client().projects.pages({ perPage: 10, sortBy: 'project', sort: 'asc' }, { all: true }));
    expect(pages.flatMap((page) => page.records.map((record) => record.project))).toEqual(
      server
        .projects()
        .map((project) => project.project)
        .sort(),
    );
    expect(server.requests.every((request) => request.path === '/api/v1/projects')).toBe(true);
  });
});

describe('a list that is an exact number of pages', () => {
  it.each(ENVELOPES)('%s: ends, with all 60 records and no page twice', async (envelope) => {
    const server = await startMockServer({ port: 0, envelope, seed: 60 });
    try {
      const client = pool.create(server.url, { apiKey: server.apiKey });
      const records = await collect(iterateRecords((page) => client.reports.list({}, page), { all: true }));
      expect(records).toHaveLength(60);
      expect(new Set(records.map((record) => record.id)).size).toBe(60);
      // Only a bare array gives no sign of its end: one empty page more is the price.
      expect(server.requests).toHaveLength(envelope === 'bare' ? 7 : 6);
    } finally {
      await server.close();
    }
  });
});

describe('iteratePages against fetchers that misbehave', () => {
  function fetcher(pages: Record<number, Omit<Page, 'request'>>) {
    const asked: number[] = [];
    const fetch = async (page: number): Promise<Page> => {
      asked.push(page);
      const answer = pages[page];
      if (!answer) throw new Error(`page ${page} was not expected`);
      return { ...answer, request: { method: 'GET', path: `/reports?page=${page}` } };
    };
    return { asked, fetch };
  }
  const rows = (count: number, from = 0): ApiRecord[] => Array.from({ length: count }, (_, index) => ({ id: from + index }));

  it('stops on an empty page even when it claims a next one', async () => {
    const { asked, fetch } = fetcher({ 1: { records: rows(2), page: 1, nextPage: 2 }, 2: { records: [], page: 2, nextPage: 3 } });
    await collect(iteratePages(fetch, { all: true }));
    expect(asked).toEqual([1, 2]);
  });

  it('stops when the next page does not move forward', async () => {
    const { asked, fetch } = fetcher({ 1: { records: rows(2), page: 1, nextPage: 2 }, 2: { records: rows(2, 2), page: 2, nextPage: 2 } });
    await collect(iteratePages(fetch, { all: true }));
    expect(asked).toEqual([1, 2]);
  });

  it('stops when the service says every page is page 1 with a next page 2 (next measured from the page asked)', async () => {
    const { asked, fetch } = fetcher({ 1: { records: rows(2), page: 1, nextPage: 2 }, 2: { records: rows(2, 2), page: 1, nextPage: 2 } });
    await collect(iteratePages(fetch, { all: true }));
    expect(asked).toEqual([1, 2]);
  });

  it('refuses a page that repeats the records of the page before (a service ignoring `page`)', async () => {
    const { asked, fetch } = fetcher({ 1: { records: rows(2), page: 1, nextPage: 2 }, 2: { records: rows(2), page: 2, nextPage: 3 } });
    const error = await collect(iteratePages(fetch, { all: true })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toMatch(/same records.*GET \/reports\?page=2/);
    expect(asked).toEqual([1, 2]);
  });

  it('a limit of 0 fetches nothing', async () => {
    const { asked, fetch } = fetcher({});
    expect(await collect(iteratePages(fetch, { limit: 0 }))).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('stops fetching when the consumer stops reading', async () => {
    const { asked, fetch } = fetcher({ 1: { records: rows(2), page: 1, nextPage: 2 }, 2: { records: rows(2), page: 2, nextPage: 3 } });
    for await (const page of iteratePages(fetch, { all: true })) {
      expect(page.page).toBe(1);
      break;
    }
    expect(asked).toEqual([1]);
  });
});

describe('withPageSize', () => {
  it.each([
    [{}, { all: true }, 100],
    // --limit: the smallest size the service allows that covers it.
    [{}, { limit: 1 }, 10],
    [{}, { limit: 5 }, 10],
    [{}, { limit: 10 }, 10],
    [{}, { limit: 11 }, 25],
    [{}, { limit: 30 }, 50],
    [{}, { limit: 51 }, 100],
    [{}, { limit: 250 }, 100],
    [{}, { all: true, limit: 5 }, 10],
    [{}, {}, undefined],
    [{ perPage: 25 }, { all: true }, 25],
    // A start page is a page of the size the user reads in: the service's default, or the one given.
    [{}, { startPage: 3, limit: 5 }, undefined],
    [{}, { startPage: 2, all: true }, undefined],
    [{ perPage: 50 }, { startPage: 2, limit: 5 }, 50],
  ] as const)('params %j, paging %j: per page %s', (params, paging, perPage) => {
    expect(withPageSize<{ perPage?: number }>({ ...params }, { ...paging }).perPage).toBe(perPage);
  });
});
