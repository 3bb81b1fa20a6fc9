// `rsapi reports list`: filters, sorting and paging mapped to GET /reports.
import { Option } from '@commander-js/extra-typings';
import { REPORT_SORT_FIELDS, type ReportListParams } from '../../../api/reports.js';
import { addCiOptions, checkCiFlags, CiReporter } from '../../ci/reporter.js';
import type { CommandContext } from '../../context.js';
import { printPages } from '../../listing.js';
import { reportListSilences } from '../../../api/list-silences.js';
import { addGateOptions, addPagingOptions, addSortOption, pagingOptions } from '../../verb-options.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../handler.js';
import { addReportFilterOptions, filterParams } from '../../report-filters.js';
import { addHistoryOptions, startRecording } from '../../history-recording.js';

function declareList(reports: ParentCommand) {
  const command = reports.command('list').alias('ls').description('List reports, one page at a time (or all of them with --all)');
  const filtered = addReportFilterOptions(command).addOption(new Option('--sort-by <field>', 'sort field').choices(REPORT_SORT_FIELDS));
  return addHistoryOptions(addCiOptions(addGateOptions(addPagingOptions(addSortOption(filtered)))));
}

export type ReportsListOptions = OptionsOf<ReturnType<typeof declareList>>;

export function registerList(reports: ParentCommand, invocation: Invocation): void {
  const command = declareList(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports list --result bad
  $ rsapi reports list --project example.com --sort-by score --sort asc --all -o csv > scores.csv
  $ rsapi reports list --search /pricing --limit 5 --json
  $ rsapi reports list --project shop.example.org -o csv --fields url,score,failed_checks
  $ rsapi reports list --all --fail-on bad --min-score 60     # CI gate`,
  );
  handle(invocation, command, (ctx, opts) => reportsListRun(ctx, opts));
}

/** Every check of `reports list` that needs no network: before anything is sent. */
export function validateReportsList(ctx: CommandContext, opts: ReportsListOptions): void {
  ctx.checkOutputFlags();
  checkCiFlags(opts);
}

/** Lists the matching reports; with a gate or a baseline, all of them (unless --page or --limit says otherwise). */
export async function reportsListRun(ctx: CommandContext, opts: ReportsListOptions) {
  validateReportsList(ctx, opts);
  const params: ReportListParams = { ...filterParams(opts), sortBy: opts.sortBy, sort: opts.sort, perPage: opts.perPage };
  const paging = pagingOptions(opts);
  // A gate judges every report that matches: without --page or --limit it reads all pages, as --all does.
  // So does a baseline comparison: a page of it would show the rest of the baseline as vanished.
  const gated =
    opts.failOn !== undefined ||
    opts.minScore !== undefined ||
    opts.failOnCheck !== undefined ||
    opts.failOnImportance !== undefined ||
    opts.baseline !== undefined;
  if (gated && opts.page === undefined && opts.limit === undefined) paging.all = true;
  const ci = await CiReporter.prepare('reports list', opts);
  const silences = reportListSilences(params);
  await startRecording(ctx, opts, { command: 'reports list', selection: { ...filterParams(opts), page: opts.page, limit: opts.limit, all: paging.all } }, ci);
  return printPages(ctx, 'report', ctx.client().reports.pages(params, paging), { gate: opts, ci, paging, silences });
}
