// `rsapi history prune --keep D | --keep-runs N`: removes older runs and the snapshots no remaining run references.
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { integerParser } from '../../flags/options.js';
import { addHistoryLocationOption, checkDocumentFlags, countsDocument, durationParser, openHistoryOf, sinceOf, writeDocument } from './shared.js';

function declarePrune(history: ParentCommand) {
  const command = history
    .command('prune')
    .description('Remove older runs, and the snapshots no remaining run references')
    .option('--keep <duration>', 'keep the runs started within this time (90d, 2w)', durationParser('--keep'))
    .option('--keep-runs <n>', 'keep the newest N runs', integerParser('--keep-runs', 1));
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
  $ rsapi history prune --keep-runs 100`,
  );
  handle(invocation, command, (ctx, opts) => historyPruneRun(ctx, opts));
}

export function validateHistoryPrune(ctx: CommandContext, opts: HistoryPruneOptions): void {
  if (opts.keep === undefined && opts.keepRuns === undefined) throw new UsageError('say what to keep: --keep 90d or --keep-runs N');
  checkDocumentFlags(ctx, 'prune');
}

export async function historyPruneRun(ctx: CommandContext, opts: HistoryPruneOptions) {
  validateHistoryPrune(ctx, opts);
  const store = await openHistoryOf(ctx, opts);
  try {
    const removed = await store.prune({ before: sinceOf(opts.keep), keepRuns: opts.keepRuns });
    await writeDocument(
      ctx,
      countsDocument(
        { removed_runs: removed.runs, removed_snapshots: removed.snapshots },
        `removed ${removed.runs} runs and ${removed.snapshots} snapshots no kept run referenced\n`,
      ),
    );
  } finally {
    await store.close();
  }
}
