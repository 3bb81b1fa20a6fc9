// The mock's --drift R (src/mock/phprank-audit.ts driftedAudit): each re-audit flips about a share R of a report's
// checks, seeded (the same run gives the same flips), its score and label following; without it nothing changes.
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../helpers/mock.js';
import { runInProcess } from '../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', seed: 20, rateLimit: 0 });

type Report = { result: number; results: Record<string, { passed: boolean }> };

async function reaudits(drift: number | undefined): Promise<{ flipped: number; checks: number; after: Report[] }> {
  const fixture = await mock({ drift });
  let flipped = 0;
  let checks = 0;
  const after: Report[] = [];
  for (let id = 1; id <= 20; id++) {
    const before = JSON.parse((await runInProcess({ argv: ['reports', 'show', String(id), '--json'], env: fixture.env })).stdout) as Report;
    const now = JSON.parse((await runInProcess({ argv: ['reports', 'update', String(id), '--refresh', '--json'], env: fixture.env })).stdout) as Report;
    for (const [check, { passed }] of Object.entries(now.results)) {
      checks++;
      if (before.results[check]?.passed !== passed) flipped++;
    }
    after.push(now);
  }
  return { flipped, checks, after };
}

describe('mock-server --drift', () => {
  it('flips about the share asked of the checks, the same ones each time, and the score follows', async () => {
    const first = await reaudits(0.2);
    expect(first.flipped / first.checks).toBeGreaterThan(0.12);
    expect(first.flipped / first.checks).toBeLessThan(0.28);
    const again = await reaudits(0.2);
    expect(again.after.map((r) => r.results)).toEqual(first.after.map((r) => r.results));
    // phpRank's score: high-importance checks weigh 10, medium 5, low 0; so a report whose checks changed changes score.
    const none = await reaudits(undefined);
    expect(none.flipped).toBe(0);
    expect(first.after.map((r) => r.result)).not.toEqual(none.after.map((r) => r.result));
  });
});
