// `rsapi history prune --keep D | --keep-runs N [--dry-run]`: removes older runs (never one still recording) and the
// snapshots no remaining run references; a dry run lists what would go.
import type { RunInfo } from '../../../history/types.js';
import { plural } from '../../../plural.js';
import { alignedTable } from '../../../output/sparkline.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { integerParser } from '../../flags/options.js';
import {
  addHistoryLocationOption,
  checkDocumentFlags,
  countsDocument,
  describeSelection,
  durationParser,
  openHistoryOf,
  sinceOf,
  writeDocument,
} from './shared.js';

function declarePrune(history: ParentCommand) {
  const command = history
    .command('prune')
    .description('Remove older runs, and the snapshots no remaining run references')
    .option('--keep <duration>', 'keep the runs recorded within this time (90d, 2w)', durationParser('--keep'))
    .option('--keep-runs <n>', 'keep the newest N complete runs of each job (service, command and selection)', integerParser('--keep-runs', 1))
    .option('--dry-run', 'remove nothing: list the runs that would go');
  return addHistoryLocationOption(command);
}

export type HistoryPruneOptions = OptionsOf<ReturnType<typeof declarePrune>>;

export function registerPrune(history: ParentCommand, invocation: Invocation): void {
  const command = declarePrune(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history prune --keep 90d
  $ rsapi history prune --keep-runs 100
  $ rsapi history prune --keep-runs 10 --dry-run --json

A run not finished that started within the last day is never removed: it may be recording still.`,
  );
  handle(invocation, command, { plan: planHistoryPrune, run: runHistoryPrune });
}

/** What `history prune` will do: where, what it keeps (a duration, a count of complete runs per job), whether it only says so. */
export interface HistoryPrunePlan {
  history: { history?: string };
  keep?: number;
  keepRuns?: number;
  dryRun: boolean;
}

export function planHistoryPrune(ctx: CommandContext, opts: HistoryPruneOptions): HistoryPrunePlan {
  if (opts.keep === undefined && opts.keepRuns === undefined) throw new UsageError('say what to keep: --keep 90d or --keep-runs N');
  checkDocumentFlags(ctx, 'prune');
  return { history: { history: opts.history }, keep: opts.keep, keepRuns: opts.keepRuns, dryRun: opts.dryRun === true };
}

export async function runHistoryPrune(ctx: CommandContext, plan: HistoryPrunePlan) {
  const store = await openHistoryOf(ctx, plan.history);
  try {
    const removed = await store.prune({ before: sinceOf(plan.keep), keepRuns: plan.keepRuns, dryRun: plan.dryRun });
    if (plan.dryRun) {
      await writeDocument(ctx, dryRunDocument(removed.runs));
      ctx.note(
        `dry run: ${plural(removed.runs.length, 'run')} and ${plural(removed.snapshots, 'snapshot')} no kept run references would be removed; nothing was removed`,
      );
      return;
    }
    await writeDocument(
      ctx,
      countsDocument(
        { removed_runs: removed.runs.length, removed_snapshots: removed.snapshots },
        `removed ${removed.runs.length} runs and ${removed.snapshots} snapshots no kept run referenced\n`,
      ),
    );
    // tsv has no header: two bare numbers in a pipe say nothing of what they count.
    if (ctx.format() === 'tsv') ctx.note('rsapi: the two numbers are the runs removed and the snapshots no kept run referenced (-o csv or --json names them)');
  } finally {
    await store.close();
  }
}

const COLUMNS = ['id', 'action', 'started', 'command', 'service', 'reports', 'complete'] as const;

/** The runs a prune would remove, one row each (as `history runs` lists them, with the action a dry run names). */
function dryRunDocument(runs: readonly RunInfo[]) {
  const value = runs.map((run) => ({
    id: run.id,
    action: 'delete',
    started: run.started,
    command: run.command,
    selection: JSON.parse(run.selection) as unknown,
    service: run.origin,
    reports: run.reports,
    complete: run.complete,
  }));
  const rows = runs.map((run) => [
    String(run.id),
    'delete',
    run.started,
    describeSelection(run.command, run.selection),
    run.origin,
    String(run.reports),
    run.complete ? 'yes' : 'no',
  ]);
  return {
    value,
    lines: value,
    rows: { columns: COLUMNS, rows },
    text: (width?: number) => (runs.length === 0 ? 'no run would be removed\n' : alignedTable(COLUMNS, rows, width)),
  };
}
