// `rsapi history show RUN`: the reports a recorded run read, as a list shows them (id, url, project, result, score,
// generated_at, failed checks).
import { HistoryNotFoundError } from '../../../history/errors.js';
import { reportIdValue } from '../../../history/snapshot.js';
import type { Snapshot } from '../../../history/types.js';
import { formatScore } from '../../../api/model/report-model.js';
import { alignedTable } from '../../../output/sparkline.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { formatBuffers, type ItemList } from '../../../output/index.js';
import { keepYoungGenerationSmall, preferSmallHeap } from '../../runtime/heap.js';
import { addHistoryLocationOption, checkDocumentFlags, openHistoryOf, runIdParser, writeItems } from './shared.js';

function declareShow(history: ParentCommand) {
  return addHistoryLocationOption(history.command('show').description('The reports one recorded run read').argument('<run>', 'run id', runIdParser));
}

export type HistoryShowOptions = OptionsOf<ReturnType<typeof declareShow>> & { run: number };

export function registerShow(history: ParentCommand, invocation: Invocation): void {
  const command = declareShow(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history show 12
  $ rsapi history show 12 -o csv > run-12.csv`,
  );
  handle(invocation, command, { plan: (ctx, opts, [run]) => planHistoryShow(ctx, { ...opts, run }), run: runHistoryShow });
}

/** What `history show` will read: which run, and where. */
export interface HistoryShowPlan {
  history: { history?: string };
  run: number;
}

export function planHistoryShow(ctx: CommandContext, opts: HistoryShowOptions): HistoryShowPlan {
  checkDocumentFlags(ctx, 'show');
  return { history: { history: opts.history }, run: opts.run };
}

export async function runHistoryShow(ctx: CommandContext, plan: HistoryShowPlan) {
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  try {
    const run = await store.run(plan.run);
    if (!run) throw new HistoryNotFoundError(`no run ${plan.run} in the history`, { hint: '`rsapi history runs` lists the runs' });
    if (run.clockSkewMs !== undefined) ctx.note(`rsapi: note: ${clockSkewNote(run.id, run.clockSkewMs)}`);
    // Written as read (ndjson, csv, tsv): memory stays flat as for a long list. Kept for the end (json's texts, the
    // table's cells): handed to the old generation at once.
    await (formatBuffers({ format: ctx.format() }) ? keepYoungGenerationSmall() : preferSmallHeap());
    await writeItems(ctx, snapshotList(store.eachSnapshotOf(run.id)));
  } finally {
    await store.close();
  }
}

const COLUMNS = ['id', 'url', 'project', 'result', 'score', 'generated_at', 'failed_checks'] as const;

/** A run's reports as the formats write them, one at a time: a run of 100,000 is never held whole. */
export function snapshotList(snapshots: AsyncIterable<Snapshot>): ItemList<Snapshot, string> {
  return {
    items: snapshots,
    columns: COLUMNS,
    value: (s) => ({
      id: reportIdValue(s.reportId),
      url: s.identity,
      project: s.project ?? null,
      result: s.label ?? null,
      score: s.score ?? null,
      generated_at: s.generatedAt,
      failed_checks: failedIds(s) ?? null,
      checks: s.checks === undefined ? null : Object.fromEntries(s.checks.map((c) => [c.id, { passed: c.passed, hash: c.hash }])),
    }),
    row: (s) => [
      s.reportId,
      s.identity,
      s.project ?? '',
      s.label ?? '',
      s.score === undefined ? '' : formatScore(s.score),
      s.generatedAt,
      failedIds(s)?.join(',') ?? '',
    ],
    text: (rows, width) => (rows.length === 0 ? 'no reports in this run\n' : alignedTable(COLUMNS, rows, width)),
  };
}

/** A run whose start its machine's clock put off the store's: how far, and that the runs are ordered by the store's. */
export function clockSkewNote(id: number, skewMs: number): string {
  const minutes = Math.round(Math.abs(skewMs) / 60_000);
  const amount = minutes >= 120 ? `${Math.round(minutes / 60)} hours` : `${minutes} minutes`;
  return `run ${id} started ${amount} ${skewMs > 0 ? 'ahead of' : 'behind'} the history's clock (its machine's clock was off); runs are ordered as the history recorded them`;
}

/** The ids of the snapshot's failed checks; undefined when it has no per-check results. */
function failedIds(snapshot: Snapshot): string[] | undefined {
  return snapshot.checks?.filter((check) => !check.passed).map((check) => check.id);
}
