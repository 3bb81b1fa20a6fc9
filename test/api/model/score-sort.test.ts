// A list sorted by score in either dialect: `sort_by=score` to the seed API, phpRank's `sort_by=result` once its first answer shows phpRank.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../../src/api/model/record.js';
import { ClientPool } from '../../helpers/clients.js';
import { mockPerTest } from '../../helpers/mock.js';
import { sendJson, startRawServer, type RawServer } from '../../helpers/raw-server.js';
import { runInProcess } from '../../helpers/run.js';

const mock = mockPerTest({ rateLimit: 0 });
const pool = new ClientPool();
const servers: RawServer[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Reports as phpRank 13 sends them: `result` the score, `password` a boolean, microsecond dates. */
const PHPRANK_REPORTS = [61, 35, 91, 78, 12, 50, 99, 3, 64, 80, 27].map((score, index) => ({
  id: index + 1,
  url: `example.com/page-${index + 1}`,
  project: 'example.com',
  result: score,
  privacy: 0,
  password: false,
  generated_at: `2025-05-${String(index + 1).padStart(2, '0')}T10:00:00.000000Z`,
  created_at: `2025-05-${String(index + 1).padStart(2, '0')}T10:00:00.000000Z`,
}));

/**
 * phpRank's list: sorts by `id`, `url` or `result` and silently by id for any other `sort_by`; Laravel's paginator
 * envelope with `links`, `meta` and the extra `status`.
 */
async function phprankServer(reports: readonly Record<string, unknown>[]): Promise<RawServer> {
  const server = await startRawServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    const field = ['id', 'url', 'result'].includes(url.searchParams.get('sort_by') ?? '') ? (url.searchParams.get('sort_by') as string) : 'id';
    const sign = url.searchParams.get('sort') === 'asc' ? 1 : -1;
    const sorted = [...reports].sort((a, b) => sign * ((a[field] as number) < (b[field] as number) ? -1 : (a[field] as number) > (b[field] as number) ? 1 : 0));
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const page = Number(url.searchParams.get('page') ?? '1');
    const lastPage = Math.max(1, Math.ceil(sorted.length / perPage));
    const data = sorted.slice((page - 1) * perPage, page * perPage);
    const link = (n: number) => `http://rank.example.com/api/v1/reports?page=${n}`;
    sendJson(response, 200, {
      data,
      links: { first: link(1), last: link(lastPage), prev: page > 1 ? link(page - 1) : null, next: page < lastPage ? link(page + 1) : null },
      meta: {
        current_page: page,
        from: data.length > 0 ? (page - 1) * perPage + 1 : null,
        last_page: lastPage,
        path: 'http://rank.example.com/api/v1/reports',
        per_page: perPage,
        to: data.length > 0 ? (page - 1) * perPage + data.length : null,
        total: sorted.length,
      },
      status: 200,
    });
  });
  servers.push(server);
  return server;
}

function sortParams(server: RawServer): (string | null)[][] {
  return server.requests.map((request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    return [query.get('sort_by'), query.get('page')];
  });
}

async function records(pages: AsyncIterable<{ records: ApiRecord[] }>): Promise<ApiRecord[]> {
  const all: ApiRecord[] = [];
  for await (const page of pages) all.push(...page.records);
  return all;
}

const scoresOf = (list: readonly ApiRecord[]) => list.map((record) => record.result);

describe('against phpRank (a raw server with its exact bodies)', () => {
  it('the first page is asked again with sort_by=result, and every page after it: the whole list by score', async () => {
    const server = await phprankServer(PHPRANK_REPORTS);
    const client = pool.create(server.url);
    const list = await records(client.reports.pages({ sortBy: 'score', sort: 'asc', perPage: 10 }, { all: true, concurrency: 1 }));
    expect(scoresOf(list)).toEqual(PHPRANK_REPORTS.map((r) => r.result).sort((a, b) => a - b));
    expect(sortParams(server)).toEqual([
      ['score', null],
      ['result', null],
      ['result', '2'],
    ]);
  });

  it('one page: the top scores, not the newest reports in another order', async () => {
    const server = await phprankServer(PHPRANK_REPORTS);
    const client = pool.create(server.url);
    const list = await records(client.reports.pages({ sortBy: 'score', sort: 'desc', perPage: 10 }));
    expect(scoresOf(list)).toEqual([99, 91, 80, 78, 64, 61, 50, 35, 27, 12]);
    // --page 2 is page 2 of the score order.
    const second = await records(client.reports.pages({ sortBy: 'score', sort: 'desc', perPage: 10 }, { startPage: 2 }));
    expect(scoresOf(second)).toEqual([3]);
  });

  it('rsapi reports list --sort-by score: in score order, nothing said on stderr', async () => {
    const server = await phprankServer(PHPRANK_REPORTS);
    const env = { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'test-key-0123456789' };
    const result = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'asc', '--limit', '4', '--fields', 'score'], env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('3\n12\n27\n35\n');
  });

  it('reports.list (one page, as a library caller asks it) is sorted the same way', async () => {
    const server = await phprankServer(PHPRANK_REPORTS);
    const client = pool.create(server.url);
    const page = await client.reports.list({ sortBy: 'score', sort: 'desc', perPage: 10 });
    expect(scoresOf(page.records)).toEqual([99, 91, 80, 78, 64, 61, 50, 35, 27, 12]);
    expect(sortParams(server)).toEqual([
      ['score', null],
      ['result', null],
    ]);
  });

  it('other sorts go as they are, in one request a page', async () => {
    const server = await phprankServer(PHPRANK_REPORTS);
    const client = pool.create(server.url);
    await records(client.reports.pages({ sortBy: 'url', perPage: 10 }, { all: true, concurrency: 1 }));
    expect(sortParams(server)).toEqual([
      ['url', null],
      ['url', '2'],
    ]);
  });

  it('an empty list is asked once', async () => {
    const server = await phprankServer([]);
    const client = pool.create(server.url);
    expect(await records(client.reports.pages({ sortBy: 'score' }, { all: true }))).toEqual([]);
    expect(sortParams(server)).toEqual([['score', null]]);
  });
});

describe('against the phpRank mock', () => {
  it.each(['asc', 'desc'] as const)('--sort-by score --sort %s --all: every report in score order, no warning', async (direction) => {
    const fixture = await mock({ flavor: 'phprank', seed: 40 });
    const result = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'score', '--sort', direction, '--all', '-o', 'json'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const scores = (JSON.parse(result.stdout) as { result: number }[]).map((record) => record.result);
    expect(scores).toHaveLength(40);
    expect(scores).toEqual([...scores].sort((a, b) => (direction === 'asc' ? a - b : b - a)));
    expect(new Set(scores).size).toBeGreaterThan(5);
    const sent = fixture.server.requests.filter((request) => request.path.endsWith('/reports')).map((request) => request.query.sort_by);
    expect(sent).toEqual(['score', 'result']);
  });
});

describe('against the seed API', () => {
  it('sends sort_by=score, once a page, and never result', async () => {
    const fixture = await mock({ seed: 40 });
    const result = await runInProcess({
      argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'asc', '--per-page', '10', '--all', '-o', 'json'],
      env: fixture.env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const scores = (JSON.parse(result.stdout) as { score: number }[]).map((record) => record.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    const sent = fixture.server.requests.filter((request) => request.path.endsWith('/reports')).map((request) => [request.query.sort_by, request.query.page]);
    expect(sent).toEqual([
      ['score', undefined],
      ['score', '2'],
      ['score', '3'],
      ['score', '4'],
    ]);
  });
});
