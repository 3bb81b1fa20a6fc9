// `rsapi history export`: every run with its snapshots, one JSON object a line (ndjson), oldest first: what
// `history import` reads into another history (a local one into a team's PostgreSQL, and back).
import { stringifyJson } from '../../../api/http/json.js';
import { batched } from '../../../output/index.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { addHistoryLocationOption, durationParser, openHistoryOf, sinceOf } from './shared.js';

function declareExport(history: ParentCommand) {
  const command = history
    .command('export')
    .description('Write every run and its snapshots as ndjson (one run a line), for `history import`')
    .option('--since <duration>', 'only runs started within this time (90d, 2w)', durationParser('--since'));
  return addHistoryLocationOption(command);
}

export type HistoryExportOptions = OptionsOf<ReturnType<typeof declareExport>>;

export function registerExport(history: ParentCommand, invocation: Invocation): void {
  const command = declareExport(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history export > history.ndjson
  $ rsapi history export | rsapi history import - --history postgres://ci@db.example.com/rsapi`,
  );
  handle(invocation, command, { plan: planHistoryExport, run: runHistoryExport });
}

/** What `history export` writes: the runs of this history (started within a duration, or all), oldest first. */
export interface HistoryExportPlan {
  history: { history?: string };
  since?: number;
}

/** `history export` checks nothing before the history is opened: it writes ndjson, whatever the output flags. */
export function planHistoryExport(_ctx: CommandContext, opts: HistoryExportOptions): HistoryExportPlan {
  return { history: { history: opts.history }, since: opts.since };
}

export async function runHistoryExport(ctx: CommandContext, plan: HistoryExportPlan) {
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  try {
    const runs = (await store.runs({ since: sinceOf(plan.since) })).reverse();
    for (const run of runs) {
      // The line `{"run":…,"snapshots":[…]}` written as its snapshots are read: a run is never held whole.
      const out = batched(ctx.io.stdout);
      out.write(`{"run":${stringifyJson(run)},"snapshots":[`);
      let separator = '';
      for await (const snapshot of store.eachSnapshotOf(run.id)) {
        out.write(separator + stringifyJson(snapshot));
        separator = ',';
      }
      out.write(']}\n');
      out.flush();
    }
  } finally {
    await store.close();
  }
}
