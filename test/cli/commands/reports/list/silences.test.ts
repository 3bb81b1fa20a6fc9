// The service's silences said: an order or filter asked for and not honoured gets one warning on stderr (list, gates, stats, projects); the data is still printed as received, except an order of numbers or times over a whole list (--all, a gate), sorted in the client.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { mockPerTest } from '../../../../helpers/mock.js';
import { sendJson, startRawServer, type RawServer } from '../../../../helpers/raw-server.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest();
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const KEY = 'test-key-0123456789';

/** phpRank's answer to any list query, whatever it asked: these reports in id order, as Laravel's paginator sends them. */
function phpRankList(reports: Record<string, unknown>[]) {
  return (res: ServerResponse, page: number, perPage: number) => {
    const slice = reports.slice((page - 1) * perPage, page * perPage);
    const lastPage = Math.max(1, Math.ceil(reports.length / perPage));
    sendJson(res, 200, {
      data: slice,
      links: { first: '/?page=1', last: `/?page=${lastPage}`, prev: null, next: page < lastPage ? `/?page=${page + 1}` : null },
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total: reports.length, from: 1, to: slice.length },
      status: 200,
    });
  };
}

/** A node:http server that answers /reports and /projects as a phpRank that honours no filter and no sort. */
async function deafService(reports: Record<string, unknown>[], projects: Record<string, unknown>[] = [], pageSize?: number): Promise<Record<string, string>> {
  const server = await startRawServer((request, res) => {
    const url = new URL(request.url, 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = pageSize ?? Number(url.searchParams.get('per_page') ?? '10');
    phpRankList(url.pathname.endsWith('/projects') ? projects : reports)(res, page, perPage);
  });
  servers.push(server);
  return { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: KEY };
}

const REPORTS = [
  { id: 3, url: 'example.com/c', result: 91, project: 'example.com' },
  { id: 2, url: 'example.com/b', result: 35, project: 'example.com' },
  { id: 1, url: 'other.example/a', result: 62, project: 'other.example' },
];

function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('rsapi: warning: the service ignored'));
}

describe('against a service that ignores sorts and filters', () => {
  it.each([
    // Asked again as phpRank's sort_by=result, which this service ignores too.
    [
      ['reports', 'list', '--sort-by', 'score', '--sort', 'asc'],
      'rsapi: warning: the service ignored --sort-by score (reports came back in another order); printed as received',
    ],
    [['reports', 'list', '--result', 'bad'], 'rsapi: warning: the service ignored --result bad (2 of 3 reports do not match it); printed as received'],
    [
      ['reports', 'list', '--project', 'example.com', '--all'],
      'rsapi: warning: the service ignored --project example.com (1 of 3 reports do not match it); printed as received',
    ],
    [
      ['reports', 'list', '--search', 'https://www.example.com/'],
      'rsapi: warning: the service ignored --search https://www.example.com/ (1 of 3 reports do not match it); printed as received',
    ],
    [
      ['reports', 'list', '--result', 'good', '--fail-on', 'bad'],
      'rsapi: warning: the service ignored --result good (2 of 3 reports do not match it); printed and judged as received',
    ],
    [
      ['reports', 'stats', '--result', 'decent', '-o', 'json'],
      'rsapi: warning: the service ignored --result decent (2 of 3 reports do not match it); counted as received',
    ],
  ])('%j warns once', async (argv, warning) => {
    const env = await deafService(REPORTS);
    const result = await runInProcess({ argv: [...argv, ...(argv[1] === 'list' ? ['-o', 'ndjson'] : [])], env });
    expect(warnings(result.stderr)).toEqual([warning]);
    // Printed (or counted) as received: every record, in the service's order.
    if (argv[1] === 'list')
      expect(
        result.stdout
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { id: number }).id),
      ).toEqual([3, 2, 1]);
  });

  const many = Array.from({ length: 30 }, (_, index) => ({
    id: 30 - index,
    url: `example.com/${index}`,
    result: 50,
    generated_at: new Date(Date.UTC(2025, 4, 1 + ((index * 7) % 30))).toISOString(),
  }));
  const timesOf = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { generated_at: string }).generated_at);

  it('a page without --all: said once however often the order breaks, printed as received', async () => {
    const env = await deafService(many);
    const result = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'generated_at', '--per-page', '100', '-o', 'ndjson'], env });
    expect(result.code).toBe(0);
    expect(timesOf(result.stdout)).toEqual(many.map((report) => report.generated_at));
    expect(warnings(result.stderr)).toEqual([
      'rsapi: warning: the service ignored --sort-by generated_at (reports came back in another order); printed as received',
    ]);
  });

  it.each([
    { name: '--all', args: ['--all'], sort: 'desc' },
    { name: '--all --sort asc', args: ['--all', '--sort', 'asc'], sort: 'asc' },
    { name: 'a gate (reads every page)', args: ['--min-score', '10'], sort: 'desc' },
  ])('--sort-by generated_at with $name, ignored by the service: sorted in the client across pages, said once', async ({ args, sort }) => {
    const env = await deafService(many);
    const result = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'generated_at', ...args, '--per-page', '10', '-o', 'ndjson'], env });
    expect(result.code).toBe(0);
    const times = timesOf(result.stdout);
    expect(times).toHaveLength(30);
    const sorted = [...times].sort();
    expect(times).toEqual(sort === 'asc' ? sorted : sorted.reverse());
    expect(warnings(result.stderr)).toEqual([]);
    expect(result.stderr.split('\n').filter((line) => line.includes('--sort-by generated_at'))).toEqual([
      'rsapi: the service ignored --sort-by generated_at (reports came back in another order); sorted here, all 30 read',
    ]);
  });

  it('an order broken only where a page meets the next is still seen', async () => {
    // Each page of 2 is in descending score, but page 2 starts higher than page 1 ended (a service's own page size).
    const paged = [
      { id: 4, url: 'a.example', result: 90 },
      { id: 3, url: 'b.example', result: 80 },
      { id: 2, url: 'c.example', result: 85 },
      { id: 1, url: 'd.example', result: 10 },
    ];
    const env = await deafService(paged, [], 2);
    const result = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'desc', '--all', '-o', 'ndjson'], env });
    // Read whole, so put in order here.
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { result: number }).result),
    ).toEqual([90, 85, 80, 10]);
    expect(result.stderr).toContain('rsapi: the service ignored --sort-by score (reports came back in another order); sorted here, all 4 read');
    const firstPage = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'desc', '-o', 'ndjson'], env });
    expect(firstPage.stdout.trim().split('\n')).toHaveLength(2);
    expect(warnings(firstPage.stderr)).toEqual([]);
  });

  it('projects list --sort-by project and --search', async () => {
    const projects = [
      { project: 'b.example', created_at: '2025-05-02T00:00:00.000000Z', reports: 2, result: '120' },
      { project: 'a.example', created_at: '2025-05-01T00:00:00.000000Z', reports: 1, result: '40' },
    ];
    const env = await deafService([], projects);
    const sorted = await runInProcess({ argv: ['projects', 'list', '--sort-by', 'project', '--sort', 'asc', '-o', 'json'], env });
    expect(warnings(sorted.stderr)).toEqual([
      'rsapi: warning: the service ignored --sort-by project (projects came back in another order); printed as received',
    ]);
    const searched = await runInProcess({ argv: ['projects', 'list', '--search', 'a.ex', '-o', 'json'], env });
    expect(warnings(searched.stderr)).toEqual(['rsapi: warning: the service ignored --search a.ex (1 of 2 projects do not match it); printed as received']);
  });
});

describe('against the mock', () => {
  it.each([
    ['seed', ['--sort-by', 'score', '--sort', 'asc', '--result', 'decent', '--search', 'example']],
    ['seed', ['--sort-by', 'generated_at', '--sort', 'desc', '--all']],
    ['phprank', ['--sort-by', 'url', '--sort', 'asc', '--result', 'bad', '--all']],
    ['phprank', ['--sort-by', 'id', '--sort', 'asc']],
  ] as const)('%s flavor, %j: honoured, nothing said', async (flavor, args) => {
    const fixture = await mock({ flavor, seed: 40, rateLimit: 0 });
    const result = await runInProcess({ argv: ['reports', 'list', ...args, '-o', 'ndjson'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).not.toBe('');
    expect(warnings(result.stderr)).toEqual([]);
  });

  // --sort-by score is sent to phpRank as sort_by=result, which it honours (test/api/model/score-sort.test.ts).
  it('phprank flavor ignores --sort-by generated_at: one page printed in its order with the warning; --all sorted here', async () => {
    const fixture = await mock({ flavor: 'phprank', seed: 40, rateLimit: 0 });
    const page = await runInProcess({
      argv: ['reports', 'list', '--sort-by', 'generated_at', '--sort', 'asc', '--per-page', '50', '-o', 'ndjson'],
      env: fixture.env,
    });
    expect(warnings(page.stderr)).toEqual([
      'rsapi: warning: the service ignored --sort-by generated_at (reports came back in another order); printed as received',
    ]);
    const ids = page.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toHaveLength(40);
    // phpRank sorted by id instead, in the direction asked.
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const all = await runInProcess({ argv: ['reports', 'list', '--sort-by', 'generated_at', '--sort', 'asc', '--all', '-o', 'ndjson'], env: fixture.env });
    expect(all.code).toBe(0);
    expect(warnings(all.stderr)).toEqual([]);
    expect(all.stderr).toContain('rsapi: the service ignored --sort-by generated_at (reports came back in another order); sorted here, all 40 read');
    const times = all.stdout
      .trim()
      .split('\n')
      .map((line) => Date.parse((JSON.parse(line) as { generated_at: string }).generated_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
