// The one page loop (src/cli/reading/page-reader.ts) as its consumers use it: list and stats read the same pages and records,
// the gate judges every record read, stats is judged by none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock({ flavor: 'phprank', rateLimit: 0, seed: 230 });
});
afterAll(async () => {
  await mock.close();
});

/** Runs argv against the mock; returns the result and the pages of /reports it asked for. */
async function pagesAsked(argv: string[]) {
  const before = mock.server.requests.length;
  const result = await runInProcess({ argv, env: mock.env });
  const pages = mock.server.requests
    .slice(before)
    .filter((request) => request.path.endsWith('/reports'))
    .map((request) => request.query.page ?? '1');
  return { ...result, pages };
}

describe('the page loop shared by reports list and reports stats', () => {
  it('reads every page in order for both, and both count the same records', async () => {
    const list = await pagesAsked(['reports', 'list', '--all', '--per-page', '100', '-o', 'json']);
    const stats = await pagesAsked(['reports', 'stats', '-o', 'json']);
    expect([list.code, stats.code]).toEqual([0, 0]);
    expect(list.pages).toEqual(['1', '2', '3']);
    expect(stats.pages).toEqual(list.pages);
    const records = JSON.parse(list.stdout) as unknown[];
    expect(records).toHaveLength(230);
    expect((JSON.parse(stats.stdout) as { reports: number }).reports).toBe(records.length);
  });

  it('judges every record read with a gate (list), and none without one (stats)', async () => {
    // Scores are 0 to 100 (--min-score 101 is refused): 100 fails all but the perfect ones, of all 230 read.
    const gated = await pagesAsked(['reports', 'list', '--per-page', '100', '--min-score', '100', '-o', 'json']);
    expect(gated.code).toBe(10);
    expect(gated.stderr).toMatch(/rsapi: gate failed: \d+ of 230 reports score below 100/);
    const stats = await pagesAsked(['reports', 'stats', '-o', 'json']);
    expect(stats.stderr).not.toContain('gate');
  });
});
