// reports show --url URL: the newest report of exactly that page (as the service stores it), exit 4 when there is none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';

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

  it.each([
    { name: 'neither id nor --url', argv: ['reports', 'show'], error: /give a report id or --url URL/ },
    { name: 'both', argv: ['reports', 'show', '1', '--url', 'https://example.com/a'], error: /not both/ },
    { name: 'not a URL', argv: ['reports', 'show', '--url', 'example.com/a'], error: /--url is not an absolute URL/ },
  ])('refused before any request: $name', async ({ argv, error }) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv, env: mock.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(error);
    expect(mock.server.requests.length).toBe(before);
  });
});
