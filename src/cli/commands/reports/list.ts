// `rsapi reports list`: filters, sorting and paging mapped to GET /reports.
import { Option } from '@commander-js/extra-typings';
import { REPORT_SORT_FIELDS, type ReportListParams } from '../../../api/reports.js';
import { addCiOptions, planCiFiles, CiReporter, type CiPlan } from '../../report-files/reporter.js';
import type { CommandContext } from '../../runtime/context.js';
import { printPages } from '../../reading/listing.js';
import { reportListSilences } from '../../../api/list-silences.js';
import { addGateOptions, addPagingOptions, addSortOption, collectCheckIds, pagingOptions } from '../../flags/verb-options.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { addReportFilterOptions, filterParams } from '../../flags/report-filters.js';
import { addVerdictOptions, checkVerdictFlags, verdictFiles } from '../../verdicts/options.js';
import type { AssertionSet } from '../../verdicts/rules.js';
import { UsageError } from '../../runtime/errors.js';
import { addHistoryOptions, openRun, planHistory, type RecordPlan } from '../../reading/recording.js';
import type { GateSetup } from '../../verdicts/gates.js';
import type { PagingOptions } from '../../../api/http/paging.js';

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
  handle(invocation, command, { plan: planReportsList, run: runReportsList });
}

/** The checks of `reports list`'s plan that look at several flags: the CI files asked and the assertions file read. */
function checkListFlags(ctx: CommandContext, opts: ReportsListOptions): { ci: CiPlan | undefined; assertions?: AssertionSet } {
  ctx.checkOutputFlags();
  const inputs = { allowEmpty: opts.allowEmpty, project: opts.project, search: opts.search, result: opts.result };
  const ci = planCiFiles(opts, inputs, verdictFiles(opts, ctx.io.env));
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
  return { ci, ...checkVerdictFlags(ctx, opts) };
}

/**
 * What `reports list` will do, decided before anything is sent: the request, the paging, the gate, the CI files, what
 * is recorded. The run takes this, never the commander options; a test asserts on it with no server (argv -> plan).
 */
export interface ReportsListPlan {
  params: ReportListParams;
  paging: PagingOptions & { all: boolean };
  gate: GateSetup;
  /** The CI files and the baseline (undefined: none asked). */
  ci: CiPlan | undefined;
  /** The run as the history records it, and where (recorded only when asked: --record, RSAPI_RECORD, the profile). */
  record: RecordPlan;
  /** --failing-check, --passing-check: filtered here, reading every page. */
  checks: { failing: string[]; passing: string[] } | undefined;
  perCheck: boolean;
}

/** Every check of `reports list` that needs no network, once, and what the run will do. */
export function planReportsList(ctx: CommandContext, opts: ReportsListOptions): ReportsListPlan {
  const { ci, assertions } = checkListFlags(ctx, opts);
  const filters = filterParams(opts);
  const { failOn, minScore, failOnCheck, failOnImportance, allowEmpty, codequality, page, limit, perPage, sortBy, sort } = opts;
  const paging = pagingOptions(opts);
  // A gate judges every report that matches: without --page or --limit it reads all pages, as --all does.
  // So does a baseline comparison: a page of it would show the rest of the baseline as vanished.
  const gated = [failOn, minScore, failOnCheck, failOnImportance, assertions, opts.baseline].some((value) => value !== undefined);
  if (gated && page === undefined && limit === undefined) paging.all = true;
  // The job: the filters; a part of them (a page, a size, an order) is another set of reports.
  const part = paging.all ? { limit } : { page, limit, perPage, sortBy, sort };
  const { failingCheck, passingCheck } = opts;
  return {
    params: { ...filters, sortBy, sort, perPage },
    paging,
    gate: { failOn, minScore, failOnCheck, failOnImportance, assertions, allowEmpty, codequality, selection: { project: opts.project, search: opts.search } },
    ci,
    record: {
      run: { command: 'reports list', selection: { ...filters, ...part, all: paging.all } },
      history: planHistory(ctx, opts),
    },
    checks: failingCheck || passingCheck ? { failing: failingCheck ?? [], passing: passingCheck ?? [] } : undefined,
    perCheck: opts.perCheck === true,
  };
}

/**
 * The plan carried out: the baseline read, the run recorded, the pages read, printed and judged; with a gate or a
 * baseline, all of them (unless --page or --limit says otherwise).
 */
export async function runReportsList(ctx: CommandContext, plan: ReportsListPlan) {
  const { params, paging, gate, checks, perCheck } = plan;
  const baseline = plan.ci && (await CiReporter.readBaselineFile(plan.ci));
  const silences = reportListSilences(params);
  const { history, ci } = await openRun(ctx, plan.record, plan.ci, { baseline });
  const { recorder } = history;
  return history.finishing(async () => {
    if (!checks && !perCheck) return printPages(ctx, 'report', ctx.client().reports.pages(params, paging), { gate, ci, paging, silences, recorder });
    // The check filter and --per-check only: a plain list does not load them.
    const { printByChecks } = await import('../../reading/check-filter.js');
    return printByChecks(ctx, (asked) => ctx.client().reports.pages(params, asked), { filter: checks, perCheck, gate, ci, paging, silences, recorder });
  });
}
