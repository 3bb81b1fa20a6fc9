// `rsapi history runs`: one row per recorded run (id, started, command, service, reports, complete, exit), newest first.
import type { RunInfo } from '../../../history/types.js';
import { alignedTable } from '../../../output/sparkline.js';
import { formatLocalDateTime } from '../../../output/table/dates.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { integerParser } from '../../flags/options.js';
import { addHistoryLocationOption, checkDocumentFlags, describeSelection, durationParser, openHistoryOf, sinceOf, writeDocument } from './shared.js';

export function declareRuns(history: ParentCommand) {
  const command = history
    .command('runs')
    .description('List the recorded runs, newest first')
    .option('--since <duration>', 'only runs started within this time (90d, 12h, 2w)', durationParser('--since'))
    .option('--limit <n>', 'at most this many runs', integerParser('--limit', 1));
  return addHistoryLocationOption(command);
}

export type HistoryRunsOptions = OptionsOf<ReturnType<typeof declareRuns>>;

export function registerRuns(history: ParentCommand, invocation: Invocation): void {
  const command = declareRuns(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history runs
  $ rsapi history runs --since 7d --json
  $ rsapi history runs --history postgres://ci@db.example.com/rsapi --limit 20`,
  );
  handle(invocation, command, { plan: planHistoryRuns, run: runHistoryRuns });
}

/** What `history runs` will read: where, since when (a duration), how many. */
export interface HistoryRunsPlan {
  history: { history?: string };
  since?: number;
  limit?: number;
}

export function planHistoryRuns(ctx: CommandContext, opts: HistoryRunsOptions): HistoryRunsPlan {
  checkDocumentFlags(ctx, 'runs');
  return { history: { history: opts.history }, since: opts.since, limit: opts.limit };
}

export async function runHistoryRuns(ctx: CommandContext, plan: HistoryRunsPlan) {
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  try {
    const runs = await store.runs({ since: sinceOf(plan.since), limit: plan.limit });
    await writeDocument(ctx, runsDocument(runs));
  } finally {
    await store.close();
  }
}

const COLUMNS = ['id', 'started', 'command', 'service', 'reports', 'complete', 'exit', 'shard'] as const;

export function runsDocument(runs: readonly RunInfo[]) {
  const value = runs.map((run) => ({
    id: run.id,
    started: run.started,
    finished: run.finished ?? null,
    command: run.command,
    selection: JSON.parse(run.selection) as unknown,
    service: run.origin,
    shard: run.shard ?? null,
    reports: run.reports,
    complete: run.complete,
    exit: run.exitCode ?? null,
    ci: run.ci ?? null,
  }));
  // csv and tsv keep the stored selection and shares as they are (scripts read them); the table shows them as people read them.
  const rows = runs.map((run) => [
    String(run.id),
    run.started,
    run.selection === '{}' ? run.command : `${run.command} ${run.selection}`,
    run.origin,
    String(run.reports),
    run.complete ? 'yes' : 'no',
    run.exitCode === undefined ? '' : String(run.exitCode),
    run.shard ?? '',
  ]);
  return {
    value,
    lines: value,
    rows: { columns: COLUMNS, rows },
    text: (width?: number) => (runs.length === 0 ? 'no runs recorded\n' : runsText(runs, width)),
  };
}

/**
 * The runs for people: the start in local time to the minute (`11-27 22:33`; the year too when the runs span more than
 * one), the job as the verb and the flags that select it (`list --all --project example.com`), and the service once above the table when every run read the same one.
 */
function runsText(runs: readonly RunInfo[], width?: number): string {
  const started = runs.map((run) => formatLocalDateTime(new Date(run.started)));
  const oneYear = new Set(started.map((start) => start.slice(0, 4))).size === 1;
  const services = new Set(runs.map((run) => run.origin));
  // A merged run's shares (`3/3`), a share recorded on its own (`share 2/3`): a column only when a run has them.
  const sharded = runs.some((run) => run.shard !== undefined);
  const columns = ['id', 'started', 'job', ...(services.size > 1 ? ['service'] : []), ...(sharded ? ['shards'] : []), 'reports', 'complete', 'exit'];
  const rows = runs.map((run, index) => [
    String(run.id),
    (started[index] ?? '').slice(oneYear ? 5 : 0, 16),
    // Every recorded `reports` verb is one of rsapi reports' (list, create …): the noun only takes the room of the flags.
    describeSelection(run.command.replace(/^reports /, ''), run.selection),
    ...(services.size > 1 ? [run.origin] : []),
    ...(sharded ? [sharesText(run.shard)] : []),
    String(run.reports),
    run.complete ? 'yes' : 'no',
    run.exitCode === undefined ? '' : String(run.exitCode),
  ]);
  const heading = services.size === 1 ? `on ${runs[0]?.origin}\n` : '';
  return `${heading}${alignedTable(columns, rows, width)}`;
}

/** `3/3` for a merged run (stored `merged 3/3`: the shares joined, of how many), `share 2/3` for a share run on its own. */
function sharesText(shard: string | undefined): string {
  if (shard === undefined) return '';
  return shard.startsWith('merged ') ? shard.slice('merged '.length) : `share ${shard}`;
}
