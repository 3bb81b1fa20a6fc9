// A weekly job's history written straight through the store (no CLI, no service), for the budgets of `rsapi history
// html` (issue 43): `runs` weekly runs of about `pages` pages, 36 checks a page, each week a third of the pages
// re-audited (a few checks flipping, the score following), 1% of the pages published late and 1% gone early.
// Read by test/cli/commands/history/html/html.timed.test.ts and by scripts/bench/history-html.mjs.
import { CHECK_IDS } from '../../src/api/model/checks.js';
import { historyLocation } from '../../src/history/location.js';
import { openHistory } from '../../src/history/open.js';
import { encodeChecks } from '../../src/history/snapshot.js';
import type { CheckState, Snapshot } from '../../src/history/types.js';
// A small deterministic generator: the same history on every run.
import { mulberry32 as random } from './seeded.mjs';

/** phpRank's 36 checks, as the service names them (the one list of them, in the record model). */
const CHECKS = CHECK_IDS;

/** Writes the history into the SQLite file `path`; returns how many snapshots its runs reference. */
export async function writeWeeklyHistory(path: string, options: { runs: number; pages: number; origin?: string }): Promise<number> {
  const { runs, pages } = options;
  const origin = options.origin ?? 'https://rank.example.com';
  const next = random(43);
  const store = await openHistory(historyLocation(path));
  // Each page's current reading: failing checks as booleans, its report id and when it was generated.
  const failing = Array.from({ length: pages }, () => CHECKS.map(() => next() < 0.25));
  const generated = new Array<string>(pages).fill('');
  let referenced = 0;
  try {
    const start = Date.parse('2025-01-06T03:00:00.000Z');
    for (let run = 0; run < runs; run++) {
      const started = new Date(start + run * 7 * 86_400_000).toISOString();
      const id = await store.startRun({ started, command: 'audit', selection: '{"job":"site"}', origin, shard: undefined, ci: undefined });
      let batch: Snapshot[] = [];
      for (let page = 0; page < pages; page++) {
        const late = page % 100 === 7 && run < runs / 2;
        const gone = page % 100 === 13 && run >= runs / 2;
        if (late || gone) continue;
        if (generated[page] === '' || next() < 1 / 3) {
          for (let check = 0; check < CHECKS.length; check++) if (next() < 0.04) failing[page]![check] = !failing[page]![check];
          generated[page] = new Date(Date.parse(started) + page * 1000).toISOString();
        }
        const checks: CheckState[] = CHECKS.map((id, check) => ({
          id,
          passed: !failing[page]![check],
          hash: (check * 7919 + page).toString(16).padStart(8, '0').slice(-8),
        }));
        const failed = failing[page]!.filter(Boolean).length;
        const score = Math.max(0, Math.min(100, Math.round((100 - failed * 3.1) * 10) / 10));
        batch.push({
          origin,
          identity: `example.com/${['blog', 'shop', 'docs', 'news'][page % 4]}/page-${page}`,
          reportId: String(100_000 + page),
          project: 'example.com',
          score,
          label: score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad',
          generatedAt: generated[page]!,
          checks,
          checksText: encodeChecks(checks),
        });
        referenced++;
        if (batch.length === 500) {
          await store.addSnapshots(id, batch);
          batch = [];
        }
      }
      if (batch.length > 0) await store.addSnapshots(id, batch);
      await store.finishRun(id, { finished: started, exitCode: 0, complete: true });
    }
  } finally {
    await store.close();
  }
  return referenced;
}
