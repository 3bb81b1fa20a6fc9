// `rsapi reports stats`: reads every matching report and shows counts per result, score figures and a histogram.
import { Option } from '@commander-js/extra-typings';
import { renderDocument, type OutputDocument } from '../../../output/index.js';
import type { StatsOutput } from '../../../output/stats/stats.js';
import { UsageError } from '../../runtime/errors.js';
import { ExitCode, type ExitCodeValue } from '../../runtime/exit-codes.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { addReportFilterOptions, filterParams } from '../../flags/report-filters.js';
import { addStatsFileOptions, planCiFiles, type CiPlan } from '../../report-files/reporter.js';
import { ofLast, PageReader } from '../../reading/page-reader.js';
import { reportListSilences } from '../../../api/list-silences.js';
import { plural } from '../../../plural.js';
import { addVerdictOptions, checkVerdictFlags, verdictFiles } from '../../verdicts/options.js';
import { addHistoryOptions, openRun, planHistory, type RecordPlan } from '../../reading/recording.js';
import type { GateSetup } from '../../verdicts/gates.js';
import type { ReportListParams } from '../../../api/reports.js';

export function declareStats(reports: ParentCommand) {
  const command = reports.command('stats').description('Counts per result, score min/median/mean/max and a histogram of every matching report');
  const declared = addStatsFileOptions(addReportFilterOptions(command))
    .addOption(new Option('--by <group>', 'one row per project').choices(['project'] as const))
    .option('--checks', 'per check: how many reports fail it and what share, most important and most failed first');
  return addHistoryOptions(addVerdictOptions(declared));
}

export type ReportsStatsOptions = OptionsOf<ReturnType<typeof declareStats>>;

export function registerStats(reports: ParentCommand, invocation: Invocation): void {
  const command = declareStats(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports stats
  $ rsapi reports stats --project example.com
  $ rsapi reports stats --by project
  $ rsapi reports stats --by project -o csv > stats.csv
  $ rsapi reports stats --search /blog --json
  $ rsapi reports stats --checks                    # what to fix first across the site
  $ rsapi reports stats --checks --by project -o csv
  $ rsapi reports stats --html stats.html
  $ rsapi reports stats --assert rsapi.config.json  # exit 10 when an error rule fails

Reads every matching report, 100 a request. On a terminal: counts, score figures and a histogram
of 10-point buckets drawn with block characters; -o json|ndjson|csv|tsv for machines.
--checks counts the per-check results instead (phpRank's \`results\`): per check, the reports
that fail it. A service that sends no per-check results ends with exit 8.`,
  );
  handle(invocation, command, { plan: planReportsStats, run: runReportsStats });
}

/** What `reports stats` will do, decided before anything is sent. */
export interface ReportsStatsPlan {
  params: ReportListParams;
  /** --checks: the per-check results counted instead of the scores. */
  checks: boolean;
  byProject: boolean;
  gate: GateSetup;
  /** --summary and --html (undefined: neither asked). */
  ci: CiPlan | undefined;
  record: RecordPlan;
}

/** Every check of `reports stats` that needs no network, once, and what the run will do. */
export function planReportsStats(ctx: CommandContext, opts: ReportsStatsOptions): ReportsStatsPlan {
  if (ctx.globals.quiet) throw new UsageError('-q prints identifiers, and stats has none', { hint: 'leave out -q, or use `rsapi reports list -q`' });
  if (ctx.globals.fields) throw new UsageError('--fields does not apply to reports stats', { hint: 'use -o json or -o csv and pick the figures there' });
  ctx.checkOutputFlags();
  const { project, search, result, allowEmpty, codequality } = opts;
  const ci = planCiFiles({ html: opts.html, summary: opts.summary }, { project, search, result }, verdictFiles(opts, ctx.io.env));
  const { assertions } = checkVerdictFlags(ctx, opts);
  const filters = filterParams(opts);
  return {
    params: { ...filters, perPage: 100 },
    checks: opts.checks === true,
    byProject: opts.by === 'project',
    gate: { assertions, allowEmpty, codequality, selection: { project, search } },
    ci,
    record: { history: planHistory(ctx, opts), run: { command: 'reports stats', selection: { ...filters } } },
  };
}

/** Reads every matching report and writes the counts, score figures and histogram. */
export async function runReportsStats(ctx: CommandContext, plan: ReportsStatsPlan) {
  const { params, gate } = plan;
  const collector = plan.checks ? await checkStats(plan.byProject) : await scoreStats(plan.byProject);
  const { history, ci } = await openRun(ctx, plan.record, plan.ci);
  const reader = new PageReader(ctx, 'report', { ci, gate, silences: reportListSilences(params), recorder: history.recorder });
  return history.finishing(() => readStats(ctx, reader, collector, params));
}

/** The pages read into the collector, and its document written; the gate's and the files' exit code. */
async function readStats(ctx: CommandContext, reader: PageReader, collector: StatsView, params: ReportListParams): Promise<ExitCodeValue> {
  await reader.read(ctx.client().reports.pages(params, { all: true }), {
    record: (record) => collector.add(record),
    progress: (page, read) => `reading reports: page ${page.page}${ofLast(page)}, ${read}${page.total !== undefined ? ` of ${page.total}` : ''} reports`,
  });
  reader.warnSilences('counted as received');
  const read = reader.count;
  if (read > 0 && collector.missing) {
    ctx.note(`rsapi: the service sent no per-check results (\`results\`) with its ${plural(read, 'report')}; --checks has nothing to count`);
    return ExitCode.server;
  }
  if (read === 0 && ctx.io.stderrIsTTY) ctx.note('no reports found');
  // Notes about the output (columns left out) follow it on the screen.
  const notices: string[] = [];
  const output = { ...ctx.outputOptions('report'), notice: (line: string) => void notices.push(line) };
  const shown = await renderDocument(output.format, collector.document(output), { terminal: output.terminal });
  if (shown !== '') ctx.io.stdout.write(shown);
  for (const line of notices) ctx.note(line);
  return reader.finish();
}

/** What stats collects and writes: the scores (the default) or, with --checks, the per-check results. */
interface StatsView {
  add(record: Record<string, unknown>): void;
  /** Reports were read but none had what this view counts. */
  readonly missing: boolean;
  /** What was collected, for the format registry to render. */
  document(output: StatsOutput): OutputDocument;
}

async function scoreStats(byProject: boolean): Promise<StatsView> {
  const [{ StatsCollector }, { statsDocument }] = await Promise.all([
    import('../../../output/stats/report-stats.js'),
    import('../../../output/stats/stats.js'),
  ]);
  const collector = new StatsCollector(byProject);
  return {
    add: (record) => collector.add(record),
    missing: false,
    document: (output) => statsDocument(collector.total(), byProject ? collector.perProject() : undefined, output),
  };
}

async function checkStats(byProject: boolean): Promise<StatsView> {
  const { CheckStatsCollector, checkStatsDocument } = await import('../../../output/stats/check-stats.js');
  const collector = new CheckStatsCollector(byProject);
  return {
    add: (record) => collector.add(record),
    get missing() {
      return !collector.sawChecks;
    },
    document: (output) => checkStatsDocument(collector.total(), byProject ? collector.perProject() : undefined, output),
  };
}
