// A gate on `reports list` judges every matching report: all pages unless --page or --limit, and says how many it judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';

let mock: MockFixture;
/** Scores of the seeded reports, best first: what `--sort-by score --sort desc` pages through. */
let scores: number[];

beforeAll(async () => {
  mock = await startMock({ seed: 63 });
  scores = mock.server
    .reports()
    .map((report) => report.score)
    .sort((a, b) => b - a);
});
afterAll(async () => {
  await mock.close();
});

function pagesAsked(from: number): string[] {
  return mock.server.requests.slice(from).map((request) => request.query.page ?? '1');
}

describe('gate on reports list', () => {
  it('fails on page 3 of 7: every page is read, the records printed, the verdict counts all 63', async () => {
    // The lowest score of page 2 (index 19) passes; page 3 holds lower ones.
    const threshold = scores[19]!;
    const below = scores.filter((score) => score < threshold).length;
    expect(scores.slice(20, 30).some((score) => score < threshold)).toBe(true);
    const before = mock.server.requests.length;
    const result = await runInProcess({
      argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'desc', '--per-page', '10', '--min-score', String(threshold), '-q'],
      env: mock.env,
    });
    expect(result.code).toBe(10);
    expect(result.stderr).toContain(`rsapi: gate failed: ${below} of 63 reports score below ${threshold}`);
    expect(result.stdout.trim().split('\n')).toHaveLength(63);
    // Pages asked for together may reach the service in any order.
    expect(pagesAsked(before).sort()).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('with --page, only that page is judged (and page 1 is sent when given)', async () => {
    const threshold = scores[19]!;
    const before = mock.server.requests.length;
    const result = await runInProcess({
      argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'desc', '--page', '1', '--min-score', String(threshold), '-q'],
      env: mock.env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`rsapi: gate passed: 0 of 10 reports score below ${threshold}`);
    expect(mock.server.requests.slice(before).map((request) => request.query.page)).toEqual(['1']);
  });

  it('with --limit, only that many are judged', async () => {
    const result = await runInProcess({
      argv: ['reports', 'list', '--sort-by', 'score', '--sort', 'desc', '--limit', '15', '--fail-on', 'bad', '-q'],
      env: mock.env,
    });
    expect(result.stderr).toMatch(/gate (passed|failed): \d+ of 15 reports/);
  });
});
