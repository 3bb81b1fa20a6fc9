// `rsapi history trend URL | --project P`: score and failed-check count over time, a sparkline on a terminal, the
// points in every other format.
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { originOf } from '../../../api/http/base-url.js';
import { reportIdentity, projectName } from '../../../api/model/report-url.js';
import { formatScore } from '../../../api/model/report-model.js';
import { projectPoints } from '../../../history/trend.js';
import type { HistoryStore, RunInfo, TrendPoint } from '../../../history/types.js';
import { HistoryNotFoundError } from '../../../history/errors.js';
import { alignedTable, sparkline } from '../../../output/sparkline.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { selectionKey } from '../../reading/history-place.js';
import { addHistoryLocationOption, checkDocumentFlags, currentService, durationParser, openHistoryOf, sinceOf, writeDocument } from './shared.js';

export function declareTrend(history: ParentCommand) {
  const command = history
    .command('trend')
    .description("A page's (or a project's, or a job's) score and failed checks over the recorded runs")
    .argument('[url]', 'the page (any form of its URL: https://www.example.com/a is example.com/a)')
    .option('--project <name>', "instead of a URL: the project's mean score and failed checks per page, run by run")
    .option('--since <duration>', 'only runs started within this time (90d, 12h, 2w)', durationParser('--since'))
    .option('--check <id>', 'also whether this check passed, run by run')
    .option('--job <name>', "only the runs of this job (`history runs` shows each run's job); alone: the job's pages, as --project reads a project's")
    .option('--service <origin|all>', "the service read from (default: the configured base URL's); all: every service", serviceParser);
  return addHistoryLocationOption(command);
}

/** `all`, or a service's origin (`https://rank.example.com`; a base URL given whole is taken by its origin). */
function serviceParser(value: string): string {
  if (value === 'all') return value;
  const origin = originOf(value);
  if (origin === undefined) throw new InvalidArgumentError('--service takes a service URL (https://rank.example.com) or all.');
  return origin;
}

export type HistoryTrendOptions = OptionsOf<ReturnType<typeof declareTrend>> & { url?: string };

export function registerTrend(history: ParentCommand, invocation: Invocation): void {
  const command = declareTrend(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history trend https://example.com/pricing
  $ rsapi history trend example.com/pricing --since 90d --check meta_description
  $ rsapi history trend --project example.com --json
  $ rsapi history trend --job weekly                    # the whole site the weekly job audits
  $ rsapi history trend example.com/pricing --job weekly
  $ rsapi history trend example.com/pricing --service all   # staging and production side by side`,
  );
  handle(invocation, command, { plan: (ctx, opts, [url]) => planHistoryTrend(ctx, { ...opts, url }), run: runHistoryTrend });
}

/** What `history trend` will read: a URL or a project, narrowed by time (a duration), check, service and job. */
export interface HistoryTrendPlan {
  history: { history?: string };
  url?: string;
  project?: string;
  since?: number;
  check?: string;
  /** --service: an origin, or `all` (undefined: the service this run talks to). */
  service?: string;
  job?: string;
}

export function planHistoryTrend(ctx: CommandContext, opts: HistoryTrendOptions): HistoryTrendPlan {
  const { url, project, since, check, service, job } = opts;
  if (url !== undefined && project !== undefined) throw new UsageError('give a URL or --project NAME, not both');
  if (url === undefined && project === undefined && job === undefined) throw new UsageError('give a URL, --project NAME or --job NAME');
  checkDocumentFlags(ctx, 'trend');
  return { history: { history: opts.history }, url, project, since, check, service, job };
}

export async function runHistoryTrend(ctx: CommandContext, plan: HistoryTrendPlan) {
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  try {
    const { subject, points } = await readTrend(store, {
      url: plan.url,
      project: plan.project,
      since: sinceOf(plan.since),
      check: plan.check,
      origin: trendOrigin(ctx, plan.service),
      job: plan.job,
      jobSelection: plan.job === undefined ? undefined : selectionKey({ job: plan.job }),
    });
    await writeDocument(ctx, trendDocument(subject, points, plan.check, plan.url === undefined));
  } finally {
    await store.close();
  }
}

/**
 * The one service a trend reads (--service ORIGIN, else the one this run talks to), or undefined for `all`: the same
 * URL on staging and on production is two series, not one.
 */
export function trendOrigin(ctx: CommandContext, service: string | undefined): string | undefined {
  return service === 'all' ? undefined : (service ?? currentService(ctx));
}

/** What a trend reads: a URL or a project, narrowed by time, check, service and job. */
export interface TrendQuery {
  url?: string;
  project?: string;
  /** ISO time on the store's clock. */
  since?: string;
  check?: string;
  /** The one service read; undefined: every one. */
  origin?: string;
  /** --job as given (for messages) and the selection its runs carry. */
  job?: string;
  jobSelection?: string;
}

/**
 * The trend's points, for the CLI and the MCP tool alike. Nothing to show is exit 4, saying which of what was asked
 * matched nothing: never an empty output and exit 0.
 */
export async function readTrend(store: HistoryStore, query: TrendQuery): Promise<{ subject: string; points: TrendPoint[] }> {
  const { since, check, origin } = query;
  const jobRuns = query.jobSelection === undefined ? undefined : await store.runs({ selection: query.jobSelection });
  const ofJob = jobRuns === undefined ? undefined : new Set(jobRuns.map((run) => run.id));
  const inJob = (run: number) => ofJob?.has(run) ?? true;
  if (query.url === undefined && query.project === undefined) return jobTrend(store, query, jobRuns ?? []);
  const subject = query.url !== undefined ? reportIdentity(query.url) : projectName(query.project as string);
  const asked = { subject, project: query.url === undefined, since, origin, job: query.job, jobRuns: ofJob };
  let points: TrendPoint[];
  let checkRead: boolean;
  if (query.url !== undefined) {
    points = (await store.trendOfUrl(subject, { since, check, origin })).filter((point) => inJob(point.run));
    checkRead = points.some((point) => point.passed !== undefined);
  } else {
    const rows = (await store.snapshotsOfProject(subject, { since, origin })).filter((row) => inJob(row.run));
    points = projectPoints(rows, check);
    checkRead = rows.some((row) => row.snapshot.checks?.some((c) => c.id === check));
  }
  if (points.length === 0) throw await (await import('./trend-missing.js')).noReadingError(store, asked);
  if (check !== undefined && !checkRead) throw await (await import('./trend-missing.js')).checkNotReadError(store, asked, check);
  return { subject, points };
}

/** `--job NAME` alone: one point per run of the job (within --since, on the service read), over every page it read. */
async function jobTrend(store: HistoryStore, query: TrendQuery, runs: readonly RunInfo[]): Promise<{ subject: string; points: TrendPoint[] }> {
  const subject = `job ${query.job}`;
  const read = runs.filter((run) => (query.since === undefined || run.recorded >= query.since) && (query.origin === undefined || run.origin === query.origin));
  if (read.length === 0) {
    const what =
      runs.length === 0
        ? 'no run of'
        : `no run${query.since === undefined ? '' : ' within --since'}${query.origin === undefined ? '' : ` from ${query.origin}`} of`;
    throw new HistoryNotFoundError(`${what} the job ${query.job} in the history`, { hint: "`rsapi history runs` shows each run's job" });
  }
  const rows = [];
  for (const run of [...read].sort((a, b) => a.id - b.id)) {
    for (const snapshot of await store.snapshotsOf(run.id)) rows.push({ run: run.id, started: run.started, snapshot });
  }
  const points = projectPoints(rows, query.check);
  if (query.check !== undefined && !rows.some((row) => row.snapshot.checks?.some((c) => c.id === query.check))) {
    throw new HistoryNotFoundError(`no run of the job ${query.job} read the check ${query.check}`, {
      hint: 'rsapi history show RUN --checks lists the checks a run read',
    });
  }
  return { subject, points };
}

export function trendDocument(subject: string, points: readonly TrendPoint[], check: string | undefined, project: boolean) {
  // Readings of several services (--service all) say which each is; one service's need not.
  const mixed = new Set(points.map((p) => p.origin)).size > 1;
  const columns = [
    'run',
    'started',
    ...(mixed ? ['service'] : []),
    project ? 'reports' : 'generated_at',
    'score',
    project ? 'failed/page' : 'failed',
    ...(project ? ['failed'] : []),
    ...(check ? [check] : []),
  ];
  const value = points.map((p) => ({
    run: p.run,
    started: p.started,
    ...(mixed ? { service: p.origin ?? null } : {}),
    ...(project ? { reports: p.reports ?? 0 } : { generated_at: p.generatedAt ?? null }),
    score: p.score ?? null,
    failed: p.failed ?? null,
    ...(project ? { failed_total: p.failedTotal ?? null } : {}),
    ...(check ? { passed: p.passed ?? null } : {}),
  }));
  const rows = points.map((p) => [
    String(p.run),
    p.started,
    ...(mixed ? [p.origin ?? ''] : []),
    project ? String(p.reports ?? 0) : (p.generatedAt ?? ''),
    p.score === undefined ? '' : formatScore(p.score),
    p.failed === undefined ? '' : String(p.failed),
    ...(project ? [p.failedTotal === undefined ? '' : String(p.failedTotal)] : []),
    ...(check ? [p.passed === undefined ? '' : p.passed ? 'passed' : 'failed'] : []),
  ]);
  const text = (width?: number) => {
    if (points.length === 0) return '';
    const scores = points.map((p) => p.score);
    const failed = points.map((p) => p.failed);
    const ends = (values: readonly (number | undefined)[]) => {
      const known = values.filter((v): v is number => v !== undefined);
      return known.length === 0 ? '' : ` ${formatScore(known[0] as number)} → ${formatScore(known[known.length - 1] as number)}`;
    };
    // On a terminal each line keeps to its width: the newest points, after `…` when the older ones do not fit.
    const fitted = (label: string, marks: readonly string[], end = '') => {
      const room = width === undefined ? marks.length : Math.max(2, width - label.length - end.length);
      return `${label}${marks.length > room ? `…${marks.slice(marks.length - room + 1).join('')}` : marks.join('')}${end}`;
    };
    // The two lines have their own scales (a score out of 100; failed checks from their fewest to their most, where two
    // checks more would otherwise look like a cliff beside a score's five points): each line says its own.
    const label = (name: string) => name.padEnd(project ? 13 : 8);
    const knownFailed = failed.filter((v): v is number => v !== undefined);
    const failedScale = knownFailed.length === 0 ? '' : `  (scale ${Math.min(...knownFailed)}–${Math.max(...knownFailed)})`;
    const lines = [
      `${subject}: ${points.length} ${points.length === 1 ? 'run' : 'runs'}${mixed ? `, ${new Set(points.map((p) => p.origin)).size} services` : ''}`,
      fitted(label('score'), [...sparkline(scores, { min: 0, max: 100 })], `${ends(scores)}${scores.some((v) => v !== undefined) ? '  (scale 0–100)' : ''}`),
      fitted(label(project ? 'failed/page' : 'failed'), [...sparkline(failed)], `${ends(failed)}${failedScale}`),
    ];
    if (check)
      lines.push(
        fitted(
          `${check}  `,
          points.map((p) => (p.passed === undefined ? ' ' : p.passed ? '✓' : '✗')),
        ),
      );
    return `${lines.join('\n')}\n\n${alignedTable(columns, rows, width)}`;
  };
  return { value, lines: value, rows: { columns, rows }, text };
}
