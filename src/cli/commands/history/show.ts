// `rsapi history show RUN`: the reports a recorded run read, as a list shows them (id, url, project, result, score,
// generated_at, failed checks).
import { HistoryNotFoundError } from '../../../history/errors.js';
import type { Snapshot } from '../../../history/types.js';
import { formatScore } from '../../../api/model/report-model.js';
import { alignedTable } from '../../../output/sparkline.js';
import type { CommandContext } from '../../runtime/context.js';
import { keepYoungGenerationSmall } from '../../runtime/heap.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { addHistoryLocationOption, checkDocumentFlags, openHistoryOf, runIdParser, writeDocument } from './shared.js';

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
  handle(invocation, command, (ctx, opts, [run]) => historyShowRun(ctx, { ...opts, run }));
}

export function validateHistoryShow(ctx: CommandContext): void {
  checkDocumentFlags(ctx, 'show');
}

export async function historyShowRun(ctx: CommandContext, opts: HistoryShowOptions) {
  validateHistoryShow(ctx);
  const store = await openHistoryOf(ctx, opts);
  try {
    const run = await store.run(opts.run);
    if (!run) throw new HistoryNotFoundError(`no run ${opts.run} in the history`, { hint: '`rsapi history runs` lists the runs' });
    await keepYoungGenerationSmall();
    await writeDocument(ctx, snapshotsDocument(await store.snapshotsOf(run.id)));
  } finally {
    await store.close();
  }
}

const COLUMNS = ['id', 'url', 'project', 'result', 'score', 'generated_at', 'failed_checks'] as const;

/** The run's document; its JSON value and its rows are each built only when the format asked for reads them. */
export function snapshotsDocument(snapshots: readonly Snapshot[]) {
  let value: ReturnType<typeof documentValue> | undefined;
  let rows: ReturnType<typeof tableRows> | undefined;
  return {
    get value() {
      value ??= documentValue(snapshots);
      return value;
    },
    get lines() {
      return this.value;
    },
    get rows() {
      rows ??= tableRows(snapshots);
      return { columns: COLUMNS, rows };
    },
    text(width?: number) {
      return snapshots.length === 0 ? 'no reports in this run\n' : alignedTable(COLUMNS, this.rows.rows, width);
    },
  };
}

function documentValue(snapshots: readonly Snapshot[]) {
  return snapshots.map((s) => ({
    id: s.reportId,
    url: s.identity,
    project: s.project ?? null,
    result: s.label ?? null,
    score: s.score ?? null,
    generated_at: s.generatedAt,
    failed_checks: s.checks?.filter((c) => !c.passed).map((c) => c.id) ?? null,
    checks: s.checks === undefined ? null : Object.fromEntries(s.checks.map((c) => [c.id, { passed: c.passed, hash: c.hash }])),
  }));
}

function tableRows(snapshots: readonly Snapshot[]) {
  return snapshots.map((s) => [
    s.reportId,
    s.identity,
    s.project ?? '',
    s.label ?? '',
    s.score === undefined ? '' : formatScore(s.score),
    s.generatedAt,
    s.checks
      ?.filter((c) => !c.passed)
      .map((c) => c.id)
      .join(',') ?? '',
  ]);
}
