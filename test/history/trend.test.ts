// A trend over many pages (a project's, a job's) counts failed checks per page: issue 46 point 13 saw a project's
// "failed" rise from 77 to 437 as its pages went from 6 to 30, with every page as good as before.
import { describe, expect, it } from 'vitest';
import { projectPoints } from '../../src/history/trend.js';
import type { Snapshot } from '../../src/history/types.js';

function page(run: number, n: number, failing: number, score = 70) {
  const checks = Array.from({ length: 10 }, (_, c) => ({ id: `c${c}`, passed: c >= failing, importance: 'high' }));
  const snapshot = { identity: `example.com/p${n}`, origin: 'https://rank.example.com', score, checks, generatedAt: `2026-0${run}-01T00:00:00Z` };
  return { run, started: `2026-0${run}-01T00:00:00Z`, snapshot: snapshot as unknown as Snapshot };
}

describe('projectPoints', () => {
  it('a site that grows from 6 pages to 30, each failing 3 checks, stays at 3 failed a page (the total says 18 and 90)', () => {
    const rows = [...Array.from({ length: 6 }, (_, n) => page(1, n, 3)), ...Array.from({ length: 30 }, (_, n) => page(2, n, 3))];
    const points = projectPoints(rows);
    expect(points.map((p) => [p.run, p.reports, p.failed, p.failedTotal])).toEqual([
      [1, 6, 3, 18],
      [2, 30, 3, 90],
    ]);
  });

  it('averages over the pages that have per-check results, to one decimal; none: no figure', () => {
    const rows = [page(1, 1, 1), page(1, 2, 2), page(1, 3, 2)];
    expect(projectPoints(rows)[0]).toMatchObject({ failed: 1.7, failedTotal: 5, score: 70 });
    const bare = { ...page(1, 4, 0), snapshot: { ...page(1, 4, 0).snapshot, checks: undefined } as unknown as Snapshot };
    expect(projectPoints([bare])[0]).toMatchObject({ failed: undefined, failedTotal: undefined });
  });
});
