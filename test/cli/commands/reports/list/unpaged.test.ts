// A service that does not page (the whole list as one bare array, whatever `page` says): each record once, exit 0; a looping one still stops.
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../../helpers/run.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { sendJson, startRawServer, type RawServer } from '../../../../helpers/raw-server.js';

const mock = mockPerTest();
const raws: RawServer[] = [];
afterEach(async () => {
  await Promise.all(raws.splice(0).map((server) => server.close()));
});

function ids(stdout: string): string[] {
  return stdout.trim().split('\n').filter(Boolean);
}

describe('a service that does not page (mock --envelope unpaged)', () => {
  it.each([
    ['longer than the page asked for', 63, ['reports', 'list', '--all', '--per-page', '10', '-q'], 1],
    ['exactly the page size: the next page repeats the whole list', 100, ['reports', 'list', '--all', '-q'], 2],
    ['with --limit', 100, ['reports', 'list', '--limit', '150', '-q'], 2],
    ['projects', 63, ['projects', 'list', '--all', '--per-page', '10', '-q'], 1],
  ] as const)('%s: each record once, exit 0', async (_name, seed, args, requests) => {
    const fixture = await mock({ seed, envelope: 'unpaged' });
    const result = await runInProcess({ argv: [...args], env: fixture.env });
    expect(result.code, result.stderr).toBe(0);
    const printed = ids(result.stdout);
    expect(new Set(printed).size).toBe(printed.length);
    const expected = args[0] === 'projects' ? fixture.server.projects().length : seed;
    expect(printed).toHaveLength(expected);
    expect(fixture.server.requests).toHaveLength(requests);
  });

  it('a gate over it judges each report once', async () => {
    const fixture = await mock({ seed: 100, envelope: 'unpaged' });
    const result = await runInProcess({ argv: ['reports', 'list', '--min-score', '0', '-q'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('gate passed: 0 of 100 reports');
  });
});

describe('a service that loops', () => {
  it('pages that claim a next page but repeat the first one: exit 8, not an endless loop', async () => {
    const server = await startRawServer((_req, res) =>
      sendJson(res, 200, { data: [{ id: 1 }, { id: 2 }], links: { next: 'http://127.0.0.1/api/v1/reports?page=99' } }),
    );
    raws.push(server);
    const result = await runInProcess({ argv: ['reports', 'list', '--all', '-q'], env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'k-0123456789' } });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('the same records as for an earlier page');
    expect(server.requests.length).toBeLessThan(5);
  });
});
