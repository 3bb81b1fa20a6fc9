// `rsapi reports delete`: reports deleted by id, after a confirmation on a terminal (or --yes), or looked up with --dry-run.
import { planDeletion, deleteEach, type DeletionPlan, type ItemDescription } from '../../deleting/deletion.js';
import { RsapiError } from '../../../api/errors.js';
import { runPool } from '../../bulk/pool.js';
import { ExitCode, exitCodeOf } from '../../runtime/exit-codes.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { integerParser, MAX_CONCURRENCY } from '../../flags/options.js';
import { checkReportId } from './ids.js';

function declareDelete(reports: ParentCommand) {
  return reports
    .command('delete')
    .alias('rm')
    .description('Delete reports (asks first on a terminal; scripts pass --yes)')
    .argument('<ids...>', 'report ids; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking')
    .option(
      '--dry-run',
      'look each report up (reads only) and print what the real run would do: delete or not found; delete nothing. ' +
        'Exits as the real run would: 4 if one is not found',
    )
    .option('--concurrency <n>', `deletes in flight at once (1 to ${MAX_CONCURRENCY}, default 1)`, integerParser('--concurrency', 1, MAX_CONCURRENCY));
}

export type ReportsDeleteOptions = OptionsOf<ReturnType<typeof declareDelete>> & { ids: string[] };

export function registerDelete(reports: ParentCommand, invocation: Invocation): void {
  const command = declareDelete(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports delete 42
  $ rsapi reports delete 42 43 44 --yes
  $ rsapi reports list --result bad -q --all | rsapi reports delete - --dry-run
  $ rsapi reports delete 42 43 --dry-run --json
  $ rsapi reports list --result bad -q --all | rsapi reports delete - --yes

A declined confirmation deletes nothing and exits 2 (as gh does for a cancelled command).
- on a terminal: type the ids, one a line, end with Ctrl-D; the question is then asked on the terminal.
No ids typed at a terminal is a usage error (exit 2); an empty pipe to - deletes nothing and exits 0.
--dry-run reads each report (GET) and exits as the real run would: 0, or 4 when one is not found;
it prints id, action (delete or not-found) and url in the chosen format, or with -q the ids that would go.`,
  );
  handle(invocation, command, { plan: (ctx, opts, [ids]) => planReportsDelete(ctx, { ...opts, ids }), run: runReportsDelete });
}

/** Every check of `reports delete` that needs no network, before stdin (`-`) is read or anything sent: what it will delete, and how. */
export function planReportsDelete(ctx: CommandContext, opts: ReportsDeleteOptions): DeletionPlan {
  ctx.checkOutputFlags();
  return planDeletion(ctx.io, opts, opts.ids, checkReportId);
}

/** Deletes each report, after a confirmation on a terminal (or --yes). */
export async function runReportsDelete(ctx: CommandContext, plan: DeletionPlan) {
  const client = ctx.client();
  return deleteEach(ctx, {
    ...plan,
    noun: 'report',
    checkItem: checkReportId,
    remove: (id) => client.reports.delete(id),
    dryRunColumns: ['url'],
    describe: (ids, purpose) => describeReports(ctx, ids, purpose, plan.concurrency),
  });
}

/** More reports than this in one confirmation: no look-ups (their ids are asked about); a dry run looks up every one. */
const CONFIRM_LOOK_UPS = 10;
/** Reports looked up at once when --concurrency does not say. */
const LOOK_UPS_AT_ONCE = 4;

/**
 * Each report read once (GET), for its URL and whether it exists. A report not found is said so (its delete would
 * exit 4); any other failure ends a dry run (it cannot tell what the real run would do) and only leaves a
 * confirmation without the URL.
 */
async function describeReports(
  ctx: CommandContext,
  ids: string[],
  purpose: 'confirm' | 'dry-run',
  concurrency: number | undefined,
): Promise<Map<string, ItemDescription>> {
  const described = new Map<string, ItemDescription>();
  if (purpose === 'confirm' && ids.length > CONFIRM_LOOK_UPS) return described;
  const client = ctx.client();
  await runPool(ids, { concurrency: concurrency ?? LOOK_UPS_AT_ONCE, stop: ctx.noNewRequests }, async (id) => {
    try {
      const record = await client.reports.show(id);
      const url = typeof record.url === 'string' ? record.url : undefined;
      described.set(id, {
        title: url ? `report ${id} (${url})` : `report ${id}`,
        label: url ? `${id} ${url}` : id,
        lines: [],
        found: true,
        fields: { url: record.url ?? null, project: record.project ?? null },
      });
    } catch (error) {
      const notFound = error instanceof RsapiError && exitCodeOf(error) === ExitCode.notFound;
      if (notFound)
        described.set(id, { title: `report ${id} (not found)`, label: `${id} (not found)`, lines: [], found: false, fields: { url: null, project: null } });
      else if (purpose === 'dry-run' || !(error instanceof RsapiError) || exitCodeOf(error) === ExitCode.interrupted) throw error;
    }
  });
  return described;
}
