// `rsapi reports list`: filters, sorting and paging mapped to GET /reports.
import { Option } from '@commander-js/extra-typings';
import { REPORT_SORT_FIELDS, type ReportListParams } from '../../../api/reports.js';
import { addCiOptions, checkCiFlags, CiReporter } from '../../report-files/reporter.js';
import type { CommandContext } from '../../runtime/context.js';
import { printPages } from '../../reading/listing.js';
import { reportListSilences } from '../../../api/list-silences.js';
import { addGateOptions, addPagingOptions, addSortOption, collectCheckIds, pagingOptions } from '../../flags/verb-options.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { addReportFilterOptions, filterParams } from '../../flags/report-filters.js';
import { addVerdictOptions, checkVerdictFlags, verdictFiles } from '../../verdicts/options.js';
import type { AssertionSet } from '../../verdicts/rules.js';
import { UsageError } from '../../runtime/errors.js';
import { addHistoryOptions, startRecording } from '../../reading/recording.js';

export function declareList(reports: ParentCommand) {
  const command = reports.command('list').alias('ls').description('List reports, one page at a time (or all of them with --all)');
  const filtered = addReportFilterOptions(command)
    .addOption(new Option('--sort-by <field>', 'sort field').choices(REPORT_SORT_FIELDS))
    .option('--failing-check <id>', 'only reports that fail this check (repeatable; filtered here, so every page is read)', collectCheckIds)
    .option('--passing-check <id>', 'only reports that pass this check (repeatable; filtered here, so every page is read)', collectCheckIds)
    .option('--per-check', 'with -o csv, tsv or ndjson: one row per report and check (id, url, check, importance, passed, value)');
  return addHistoryOptions(addVerdictOptions(addCiOptions(addGateOptions(addPagingOptions(addSortOption(filtered))))));
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
  $ rsapi reports list --all --fail-on bad --min-score 60     # CI gate
  $ rsapi reports list --project example.com --assert         # the rules of rsapi.config.json
  $ rsapi reports list --failing-check title --failing-check meta_description -o csv
  $ rsapi reports list --project example.com -o csv --per-check > checks.csv`,
  );
  handle(invocation, command, (ctx, opts) => reportsListRun(ctx, opts));
}

/** Every check of `reports list` that needs no network: before anything is sent. Returns the assertions file read. */
export function validateReportsList(ctx: CommandContext, opts: ReportsListOptions): { assertions?: AssertionSet } {
  ctx.checkOutputFlags();
  checkCiFlags(opts, verdictFiles(opts, ctx.io.env));
  if (opts.perCheck) {
    const format = ctx.format();
    if (format !== 'csv' && format !== 'tsv' && format !== 'ndjson') {
      throw new UsageError(`--per-check writes one row per report and check, which -o ${format} does not take`, { hint: 'give -o csv, -o tsv or -o ndjson' });
    }
    if (ctx.globals.fields) throw new UsageError('--per-check has columns of its own (id, url, check, importance, passed, value); leave out --fields');
  }
  if ((opts.failingCheck ?? opts.passingCheck) !== undefined && opts.page !== undefined) {
    throw new UsageError('--failing-check and --passing-check read every page (phpRank cannot filter by check); leave out --page', {
      hint: 'use --limit N for the first N matching reports',
    });
  }
  return checkVerdictFlags(ctx, opts);
}

/** Lists the matching reports; with a gate or a baseline, all of them (unless --page or --limit says otherwise). */
export async function reportsListRun(ctx: CommandContext, opts: ReportsListOptions) {
  const { assertions } = validateReportsList(ctx, opts);
  const params: ReportListParams = { ...filterParams(opts), sortBy: opts.sortBy, sort: opts.sort, perPage: opts.perPage };
  const paging = pagingOptions(opts);
  // A gate judges every report that matches: without --page or --limit it reads all pages, as --all does.
  // So does a baseline comparison: a page of it would show the rest of the baseline as vanished.
  const gated =
    opts.failOn !== undefined ||
    opts.minScore !== undefined ||
    opts.failOnCheck !== undefined ||
    opts.failOnImportance !== undefined ||
    assertions !== undefined ||
    opts.baseline !== undefined;
  if (gated && opts.page === undefined && opts.limit === undefined) paging.all = true;
  const ci = await CiReporter.prepare('reports list', opts);
  const silences = reportListSilences(params);
  // The job: the filters; a part of them (a page, a size, an order) is another set of reports.
  const part = paging.all ? { limit: opts.limit } : { page: opts.page, limit: opts.limit, perPage: opts.perPage, sortBy: opts.sortBy, sort: opts.sort };
  await startRecording(ctx, opts, { command: 'reports list', selection: { ...filterParams(opts), ...part, all: paging.all } }, ci);
  const gate = { ...opts, assertions, selection: { project: opts.project, search: opts.search } };
  const filter = opts.failingCheck || opts.passingCheck ? { failing: opts.failingCheck ?? [], passing: opts.passingCheck ?? [] } : undefined;
  if (!filter && !opts.perCheck) return printPages(ctx, 'report', ctx.client().reports.pages(params, paging), { gate, ci, paging, silences });
  // The check filter and --per-check only: a plain list does not load them.
  const { printByChecks } = await import('../../reading/check-filter.js');
  return printByChecks(ctx, (asked) => ctx.client().reports.pages(params, asked), { filter, perCheck: opts.perCheck === true, gate, ci, paging, silences });
}
