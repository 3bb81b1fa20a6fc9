// A URL's or a project's readings over time: score and failed-check count per run, from the history's snapshots.
import { isNewerReading } from './snapshot.js';
import type { Snapshot, TrendPoint } from './types.js';

/**
 * One point per run over many pages (a project's, or a job's): the mean score, and the failed checks per page that has
 * per-check results (with their sum beside it), over the newest reading of each page. Per page, so a site whose
 * sitemap grew from 6 pages to 30 does not look five times worse.
 */
export function projectPoints(rows: readonly { run: number; started: string; snapshot: Snapshot }[], check?: string): TrendPoint[] {
  const runs = new Map<number, { started: string; origin: string; byUrl: Map<string, Snapshot> }>();
  for (const { run, started, snapshot } of rows) {
    let entry = runs.get(run);
    if (!entry) {
      entry = { started, origin: snapshot.origin, byUrl: new Map() };
      runs.set(run, entry);
    }
    if (isNewerReading(snapshot, entry.byUrl.get(snapshot.identity))) entry.byUrl.set(snapshot.identity, snapshot);
  }
  return [...runs].map(([run, { started, origin, byUrl }]) => {
    const snapshots = [...byUrl.values()];
    const scores = snapshots.flatMap((s) => (s.score === undefined ? [] : [s.score]));
    const withChecks = snapshots.filter((s) => s.checks !== undefined);
    const failedTotal = withChecks.reduce((sum, s) => sum + (s.checks ?? []).filter((c) => !c.passed).length, 0);
    const point: TrendPoint = {
      run,
      started,
      origin,
      generatedAt: undefined,
      score: scores.length > 0 ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 10) / 10 : undefined,
      failed: withChecks.length > 0 ? Math.round((failedTotal / withChecks.length) * 10) / 10 : undefined,
      failedTotal: withChecks.length > 0 ? failedTotal : undefined,
      reports: snapshots.length,
    };
    if (check !== undefined) point.passed = snapshots.every((s) => s.checks?.find((c) => c.id === check)?.passed !== false);
    return point;
  });
}
