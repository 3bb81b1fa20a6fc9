// `rsapi history runs`: one row per recorded run (id, started, command, service, reports, complete, exit), newest first.
import type { RunInfo } from '../../../history/types.js';
import { alignedTable } from '../../../output/sparkline.js';
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
  handle(invocation, command, (ctx, opts) => historyRunsRun(ctx, opts));
}

export function validateHistoryRuns(ctx: CommandContext): void {
  checkDocumentFlags(ctx, 'runs');
}

export async function historyRunsRun(ctx: CommandContext, opts: HistoryRunsOptions) {
  validateHistoryRuns(ctx);
  const store = await openHistoryOf(ctx, opts, { readOnly: true });
  try {
    const runs = await store.runs({ since: sinceOf(opts.since), limit: opts.limit });
    await writeDocument(ctx, runsDocument(runs));
  } finally {
    await store.close();
  }
}

const COLUMNS = ['id', 'started', 'command', 'service', 'reports', 'complete', 'exit'] as const;

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
  const rows = runs.map((run) => [
    String(run.id),
    run.started,
    describeSelection(run.command, run.selection),
    run.origin,
    String(run.reports),
    run.complete ? 'yes' : 'no',
    run.exitCode === undefined ? '' : String(run.exitCode),
  ]);
  return {
    value,
    lines: value,
    rows: { columns: COLUMNS, rows },
    text: (width?: number) => (runs.length === 0 ? 'no runs recorded\n' : alignedTable(COLUMNS, rows, width)),
  };
}
