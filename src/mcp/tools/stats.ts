// report_stats and check_stats: `reports stats` and `reports stats --checks` over the matching reports, as their JSON.
import { RsapiError } from '../../errors.js';
import { reportListSilences } from '../../api/list-silences.js';
import { RESULTS, type ReportListParams } from '../../api/reports.js';
import { declareStats } from '../../cli/commands/reports/stats.js';
import type { CommandContext } from '../../cli/runtime/context.js';
import { PageReader } from '../../cli/reading/page-reader.js';
import { filterParams } from '../../cli/flags/report-filters.js';
import { CheckStatsCollector, type CheckStats } from '../../output/stats/check-stats.js';
import { StatsCollector } from '../../output/stats/report-stats.js';
import { statsDocument } from '../../output/stats/stats.js';
import type { ApiRecord } from '../../api/model/record.js';
import { plural } from '../../plural.js';
import { booleanArg, integerArg, optionArg } from '../arguments.js';
import { declared, flagOf } from '../declarations.js';
import { fitted } from '../results.js';
import { defineTool } from '../tool.js';

const stats = declared(declareStats);

const filterArgs = [
  optionArg(flagOf(stats, '--search'), 'search'),
  optionArg(flagOf(stats, '--project'), 'project'),
  optionArg(flagOf(stats, '--result'), 'result', RESULTS),
] as const;
const byProject = booleanArg('by_project', flagOf(stats, '--by')?.description ?? 'one row per project');

/** Reads every matching report (100 a request), each handed to `add`; notes on the call's stderr say what the service ignored. */
async function readMatching(
  ctx: CommandContext,
  filters: Pick<ReportListParams, 'search' | 'project' | 'result'>,
  add: (record: ApiRecord) => void,
): Promise<number> {
  const params = { ...filterParams(filters), perPage: 100 } as const;
  const reader = new PageReader(ctx, 'report', { silences: reportListSilences(params) });
  await reader.read(ctx.client().reports.pages(params, { all: true }), { record: add });
  reader.warnSilences('counted as received');
  return reader.count;
}

export const reportStats = defineTool({
  name: 'report_stats',
  description: `${stats.description()}.`,
  args: [...filterArgs, byProject],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const collector = new StatsCollector(args.by_project === true);
    await readMatching(call.ctx, args, (record) => collector.add(record));
    const figures = (groups?: ReturnType<StatsCollector['perProject']>) => statsDocument(collector.total(), groups, { color: false }).value;
    const notes = call.notes();
    if (!args.by_project) return { value: { ...(figures() as object), ...(notes.length > 0 ? { notes } : {}) } };
    // Projects with the most reports first, as many as fit; the rest are named by count.
    const projects = collector.perProject().sort((a, b) => b.reports - a.reports);
    return {
      value: fitted(projects, (kept, left) => ({
        total: figures(),
        projects: figures(kept.slice()),
        ...(left > 0 ? { more: `${plural(left, 'more project')} with fewer reports: give project to see one` } : {}),
        ...(notes.length > 0 ? { notes } : {}),
      })),
    };
  },
});

export const checkStats = defineTool({
  name: 'check_stats',
  description: `Failed checks across the matching reports, ${flagOf(stats, '--checks')?.description ?? ''}. phpRank only (per-check results).`,
  args: [...filterArgs, byProject, integerArg('limit', 'failed checks to answer per set', { min: 1, max: 36, default: 10 })],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const collector = new CheckStatsCollector(args.by_project === true);
    const read = await readMatching(call.ctx, args, (record) => collector.add(record));
    if (read > 0 && !collector.sawChecks) {
      throw new RsapiError(`the service sent no per-check results (\`results\`) with its ${plural(read, 'report')}; check_stats has nothing to count`, {
        hint: 'report_stats counts results and scores, which every service sends',
      });
    }
    const limit = args.limit ?? 10;
    const notes = call.notes();
    const shown = (set: CheckStats) => {
      const failing = set.checks.filter((check) => check.failed > 0);
      return {
        ...(set.project === undefined ? {} : { project: set.project }),
        reports: set.reports,
        with_checks: set.withChecks,
        checks: failing.slice(0, limit).map((check) => ({ ...check, share: Math.round(check.share * 1000) / 1000 })),
        ...(failing.length > limit ? { more_failing: failing.length - limit } : {}),
        never_failed: set.checks.length - failing.length,
      };
    };
    if (!args.by_project) return { value: { ...shown(collector.total()), ...(notes.length > 0 ? { notes } : {}) } };
    const projects = collector.perProject().sort((a, b) => b.reports - a.reports);
    return {
      value: fitted(projects, (kept, left) => ({
        total: shown(collector.total()),
        projects: kept.map(shown),
        ...(left > 0 ? { more: `${plural(left, 'more project')} with fewer reports: give project to see one` } : {}),
        ...(notes.length > 0 ? { notes } : {}),
      })),
    };
  },
});
