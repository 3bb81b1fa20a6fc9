// The per-check counts of a CI run's reports, which the summary and the HTML page both show: counted once for both.
import { CheckStatsCollector, type CheckStats } from '../../output/stats/check-stats.js';
import type { CiRun } from './run-record.js';

/**
 * The per-check counts of the run's reports (as stats --checks counts them), for the summary and the HTML page: counted
 * once for both. `withChecks` 0: no report carried per-check results.
 */
export function checkStatsOf(run: CiRun): CheckStats {
  const collector = new CheckStatsCollector(false);
  for (const c of run.cases) if (c.kind === 'report') collector.add(c.record);
  return collector.total();
}
