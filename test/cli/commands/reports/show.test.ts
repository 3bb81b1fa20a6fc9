// reports show --url URL: the newest report of exactly that page (as the service stores it), exit 4 when there is none;
// and its plan (argv -> plan, no server): what it shows, judges and records, and what it refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { planOf } from '../../../helpers/plan.js';
import { planReportsShow } from '../../../../src/cli/commands/reports/show.js';

describe.each(['seed', 'phprank'] as const)('reports show --url (%s flavor)', (flavor) => {
  let mock: MockFixture;
  const ids: Record<string, number> = {};

  async function create(url: string): Promise<number> {
    const result = await runInProcess({ argv: ['reports', 'create', url, '--json'], env: mock.env });
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { id: number }).id;
  }

  beforeAll(async () => {
    mock = await startMock({ flavor, seed: 0, rateLimit: 10_000 });
    ids.first = await create('https://example.com/a');
    ids.deeper = await create('https://example.com/a/b');
    ids.newest = await create('https://www.example.com/a');
    ids.other = await create('https://example.com/ab');
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([
    { name: 'as typed', url: 'https://example.com/a' },
    { name: 'other scheme, www, upper-case host', url: 'http://WWW.Example.com/a' },
    { name: 'with a #fragment', url: 'https://example.com/a#top' },
  ])('$name: the newest of that page only', async ({ url }) => {
    const result = await runInProcess({ argv: ['reports', 'show', '--url', url, '--json'], env: mock.env });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { id: number }).id).toBe(ids.newest);
  });

  it('a page whose URL is a prefix of others is matched exactly', async () => {
    const result = await runInProcess({ argv: ['reports', 'show', '--url', 'https://example.com/a/b', '--jq', '.id'], env: mock.env });
    expect(result.stdout).toBe(`${ids.deeper}\n`);
  });

  it('no report of the page: exit 4, one clear line and a hint', async () => {
    const result = await runInProcess({ argv: ['reports', 'show', '--url', 'https://example.com/nothing'], env: mock.env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rsapi: no report of https:\/\/example\.com\/nothing\nhint: .*rsapi reports list --project 'example\.com'/);
  });
});

describe('reports show: argv -> plan', () => {
  const plan = (...argv: string[]) =>
    planOf(['reports', 'show', ...argv], (ctx, opts: never, [id]: [string | undefined]) => planReportsShow(ctx, { ...(opts as object), id } as never));

  it('by id or by page, the gate and the CI files, and the run as recorded', async () => {
    expect((await plan('42')).target).toEqual({ id: '42' });
    const byPage = await plan('--url', 'https://example.com/a', '--min-score', '80', '--record', '--job', 'pages');
    expect(byPage.target).toEqual({ url: 'https://example.com/a' });
    expect(byPage.gate).toEqual({ failOn: undefined, minScore: 80, failOnCheck: undefined, failOnImportance: undefined });
    expect(byPage.ci).toBeUndefined();
    expect(byPage.record).toEqual({
      history: { record: true, history: undefined, job: 'pages' },
      run: { command: 'reports show', selection: { id: undefined, url: 'https://example.com/a' } },
    });
    expect((await plan('42', '--baseline', 'last', '--max-drop', '0')).ci).toMatchObject({ baseline: 'last', maxDrop: 0, historyBaseline: { kind: 'last' } });
  });

  it.each([
    { name: 'neither id nor --url', argv: [], error: /^give a report id or --url URL$/ },
    { name: 'both', argv: ['1', '--url', 'https://example.com/a'], error: /not both/ },
    { name: 'not a URL', argv: ['--url', 'example.com/a'], error: /--url is not an absolute URL/ },
  ])('refused by the plan, before any request: $name', async ({ argv, error }) => {
    await expect(plan(...argv)).rejects.toThrow(error);
  });
});
