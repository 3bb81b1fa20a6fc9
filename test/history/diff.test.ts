// Comparing two runs' snapshots (src/history/diff.ts): checks newly failing and fixed, whether the stored checks line up
// part by part (compared as text) or come in another order (compared by id); score changes, new and vanished URLs.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/random.js';
import { diffSnapshots, newestOfEachUrl } from '../../src/history/diff.js';
import { encodeChecks } from '../../src/history/snapshot.js';
import type { CheckState, Snapshot } from '../../src/history/types.js';

function snapshot(identity: string, score: number, checks: CheckState[], stored: boolean): Snapshot {
  const base = { origin: 'o', identity, reportId: identity, project: undefined, score, label: undefined, generatedAt: '2026-01-01', checks };
  return stored ? { ...base, checksText: encodeChecks(checks) } : base;
}

const check = (id: string, passed: boolean, hash = '00000000'): CheckState => ({ id, passed, hash });

describe.each([true, false])('diffSnapshots (checks stored as text: %s)', (stored) => {
  it('names the checks newly failing and fixed, in either order of the checks', () => {
    const before = [snapshot('a', 90, [check('title', true), check('http2', false), check('odd id+1', true)], stored)];
    const sameOrder = [snapshot('a', 80, [check('title', false, '11111111'), check('http2', true), check('odd id+1', false)], stored)];
    const otherOrder = [snapshot('a', 80, [check('odd id+1', false), check('http2', true), check('title', false)], stored)];
    for (const after of [sameOrder, otherOrder]) {
      const { changes, compared } = diffSnapshots(before, after);
      expect(compared).toBe(1);
      expect(changes).toMatchObject([{ url: 'a', status: 'changed', newFailures: ['odd id+1', 'title'], fixed: ['http2'], scoreChange: -10 }]);
    }
  });

  it('lists new and vanished URLs after the changed ones, and leaves out the unchanged', () => {
    const same = [check('title', true)];
    const { changes } = diffSnapshots(
      [snapshot('kept', 50, same, stored), snapshot('gone', 50, same, stored), snapshot('moved', 50, same, stored)],
      [snapshot('kept', 50, same, stored), snapshot('came', 50, same, stored), snapshot('moved', 55, same, stored)],
    );
    expect(changes.map((c) => [c.url, c.status])).toEqual([
      ['moved', 'changed'],
      ['came', 'new'],
      ['gone', 'vanished'],
    ]);
  });
});

describe('newestOfEachUrl', () => {
  it('keeps the newer reading of a URL read twice, and of two as new the lower report id, in whatever order they come', () => {
    const reading = (reportId: string, generatedAt: string, score: number): Snapshot => ({
      origin: 'o',
      identity: 'a',
      reportId,
      project: undefined,
      score,
      label: undefined,
      generatedAt,
      checks: undefined,
    });
    const snapshots = [reading('7', '2026-01-01', 10), reading('12', '2026-01-02', 20), reading('11', '2026-01-02', 30)];
    for (const order of [snapshots, [...snapshots].reverse(), [snapshots[1]!, snapshots[0]!, snapshots[2]!]]) {
      // '11' < '12' as text, as SQL's ORDER BY report_id sorts them.
      expect(newestOfEachUrl(order).get('a')).toMatchObject({ reportId: '11', score: 30 });
    }
  });
});

// The history's fast path (stored check texts walked part by part) is held equal to the one comparison of the judge
// (src/judge/compare.ts) over many generated pairs: same and other orders, checks added and dropped, lost, none.
describe('diffSnapshots agrees with the judge (comparePage) on every generated pair', () => {
  // A deterministic generator (seededRandom), so a failure names a seed that reproduces it.
  const random = seededRandom;
  const IDS = ['title', 'http2', 'meta_description', 'odd id+1', 'h1', 'alt%20text', 'https_encryption', 'x'];

  function reading(next: () => number, stored: boolean, identity: string): Snapshot {
    const none = next() < 0.1;
    const ids = IDS.filter(() => next() < 0.85);
    if (next() < 0.3) ids.reverse();
    const checks = none ? undefined : ids.map((id) => check(id, next() < 0.7, next() < 0.5 ? '00000000' : '11111111'));
    const score = next() < 0.1 ? undefined : Math.round(next() * 100);
    const label = next() < 0.1 ? undefined : (['good', 'decent', 'bad'][Math.floor(next() * 3)] as string);
    const base = { origin: 'o', identity, reportId: identity, project: undefined, score, label, generatedAt: '2026-01-01', checks };
    return stored && checks !== undefined ? { ...base, checksText: encodeChecks(checks) } : base;
  }

  it('2,000 pairs, stored as text or not', async () => {
    const { comparePage } = await import('../../src/judge/compare.js');
    const { snapshotReading } = await import('../../src/history/diff.js');
    for (let seed = 1; seed <= 2_000; seed++) {
      const next = random(seed);
      const stored = next() < 0.7;
      const then = reading(next, stored, 'p');
      const now = reading(next, stored && next() < 0.9, 'p');
      const { changes, compared } = diffSnapshots([then], [now]);
      expect(compared, `seed ${seed}`).toBe(1);
      const judged = comparePage(snapshotReading(then), snapshotReading(now));
      const found = changes[0] ?? { newFailures: [], fixed: [], checksLost: undefined };
      expect({ newFailures: found.newFailures, fixed: found.fixed, lost: found.checksLost === true }, `seed ${seed}`).toEqual({
        newFailures: [...judged.newFailures].sort(),
        fixed: [...judged.fixed].sort(),
        lost: judged.checksLost,
      });
    }
  });
});
