// `rsapi reports show`: one report, by id or the newest of a page, judged by the gates.
import type { ApiRecord } from '../../../api/model/record.js';
import { reportIdentity, reportUrlProblem } from '../../../api/model/report-url.js';
import { toNumber } from '../../../api/model/record.js';
import { addCiOptions, planCiFiles, type CiPlan } from '../../report-files/reporter.js';
import type { CommandContext } from '../../runtime/context.js';
import { NoMatchError, UsageError } from '../../runtime/errors.js';
import { printRecord } from '../../reading/listing.js';
import { addGateOptions } from '../../flags/verb-options.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { reportId } from './ids.js';
import { addHistoryOptions, openRun, planHistory, type RecordPlan } from '../../reading/recording.js';
import type { GateSetup } from '../../verdicts/gates.js';

export function declareShow(reports: ParentCommand) {
  const command = reports
    .command('show')
    .alias('get')
    .alias('view')
    .description('Show one report')
    .argument('[id]', 'report id', reportId)
    .option('--url <url>', 'instead of an id: the newest report of this page (the same page as the service stores it)');
  return addHistoryOptions(addCiOptions(addGateOptions(command)));
}

export type ReportsShowOptions = OptionsOf<ReturnType<typeof declareShow>> & { id?: string };

export function registerShow(reports: ParentCommand, invocation: Invocation): void {
  const command = declareShow(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports show 42
  $ rsapi reports show 42 --json
  $ rsapi reports show --url https://example.com/pricing   # the newest report of that page
  $ rsapi reports show 42 --fields url,result,score -o tsv
  $ rsapi reports show 42 --min-score 80        # exit 10 below 80
  $ rsapi reports show 42 --fail-on-importance high   # exit 10 if a high-importance check fails

On a terminal the fields are followed by the per-check results (\`checks: 27 of 36 passed\`) and each
failed check in words, most important first; csv and tsv get the failed check ids in a failed_checks column.`,
  );
  handle(invocation, command, { plan: (ctx, opts, [id]) => planReportsShow(ctx, { ...opts, id }), run: runReportsShow });
}

/** What `reports show` will do, decided before anything is sent. */
export interface ReportsShowPlan {
  /** The report: by id, or the newest of a page. */
  target: { id: string } | { url: string };
  gate: GateSetup;
  /** The CI files and the baseline (undefined: none asked). */
  ci: CiPlan | undefined;
  record: RecordPlan;
}

/** Every check of `reports show` that needs no network, once, and what the run will do. */
export function planReportsShow(ctx: CommandContext, opts: ReportsShowOptions): ReportsShowPlan {
  const { id, url } = opts;
  if ((id === undefined) === (url === undefined)) {
    throw new UsageError(id === undefined ? 'give a report id or --url URL' : 'give a report id or --url URL, not both');
  }
  const problem = url === undefined ? undefined : reportUrlProblem(url);
  if (problem) throw new UsageError(`--url ${problem}`);
  ctx.checkOutputFlags();
  const { failOn, minScore, failOnCheck, failOnImportance } = opts;
  return {
    target: id !== undefined ? { id } : { url: url as string },
    gate: { failOn, minScore, failOnCheck, failOnImportance },
    ci: planCiFiles(opts, {}),
    record: { history: planHistory(ctx, opts), run: { command: 'reports show', selection: { id, url } } },
  };
}

/** Shows one report (by id, or the newest of a URL), judged by the gates. */
export async function runReportsShow(ctx: CommandContext, plan: ReportsShowPlan) {
  const { history, ci } = await openRun(ctx, plan.record, plan.ci);
  const { target } = plan;
  return history.finishing(async () => {
    const id = 'id' in target ? target.id : String((await newestOfUrl(ctx, target.url)).id);
    const report = await ctx.client().reports.show(id);
    const { writeReportWithChecks } = await import('../../../output/check-lines.js');
    history.recorder?.record(report);
    return printRecord(ctx, 'report', report, plan.gate, ci, (out) => writeReportWithChecks(out, report, ctx.outputOptions('report')));
  });
}

/**
 * The newest report whose URL is this page (reportIdentity: as the service stores it, so `https://www.example.com/`
 * is `example.com`). The search is a substring match (`example.com` finds every page of the site): the matches are
 * compared exactly, newest (highest id) first.
 */
export async function newestOfUrl(ctx: CommandContext, url: string): Promise<ApiRecord> {
  const wanted = reportIdentity(url);
  const params = { search: wanted, searchBy: 'url', sortBy: 'id', sort: 'desc', perPage: 100 } as const;
  for await (const page of ctx.client().reports.pages(params, { all: true, concurrency: 1 })) {
    const matches = page.records.filter(
      (record) => typeof record.url === 'string' && reportIdentity(record.url) === wanted && toNumber(record.id) !== undefined,
    );
    // Sorted newest first; the highest id of the page's matches all the same, should a service sort loosely.
    if (matches.length > 0) return matches.reduce((newest, record) => ((toNumber(record.id) ?? 0) > (toNumber(newest.id) ?? 0) ? record : newest));
  }
  throw new NoMatchError(`no report of ${url}`, {
    hint: `a page that redirects is stored under its final URL; \`rsapi reports list --project '${wanted.split(/[/?]/)[0]}'\` lists the reports of its site`,
  });
}
