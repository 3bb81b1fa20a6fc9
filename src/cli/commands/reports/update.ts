// `rsapi reports update`: a report's privacy or password changed, or the page audited again (--refresh).
import { UsageError } from '../../runtime/errors.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { printRecord } from '../../reading/listing.js';
import { addPrivacyOptions, checkPasswordFlags, resolvePassword, type PrivacyFlags } from '../../flags/report-flags.js';
import { reportId } from './ids.js';
import { addHistoryOptions, openRunHistory, planHistory, type RecordPlan } from '../../reading/recording.js';

export function declareUpdate(reports: ParentCommand) {
  const command = reports
    .command('update')
    .description("Change a report's privacy or password, or regenerate it with --refresh")
    .argument('<id>', 'report id', reportId)
    .option('--refresh', "audit the page again (sends update=1 and results=1, phpRank's name; says so when generated_at did not move)");
  return addHistoryOptions(addPrivacyOptions(command));
}

export type ReportsUpdateOptions = OptionsOf<ReturnType<typeof declareUpdate>> & { id: string };

export function registerUpdate(reports: ParentCommand, invocation: Invocation): void {
  const command = declareUpdate(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports update 42 --privacy private
  $ rsapi reports update 42 --refresh
  $ rsapi reports update 42 --privacy password --password-file ./page-password.txt`,
  );
  handle(invocation, command, { plan: (ctx, opts, [id]) => planReportsUpdate(ctx, { ...opts, id }), run: runReportsUpdate });
}

/** What `reports update` will do, decided before a password is read or anything sent. */
export interface ReportsUpdatePlan {
  id: string;
  refresh: boolean;
  /** The privacy asked, and where its password comes from. */
  privacy: PrivacyFlags;
  record: RecordPlan;
}

/** Every check of `reports update` that needs no network, once, and what the run will do. */
export function planReportsUpdate(ctx: CommandContext, opts: ReportsUpdateOptions): ReportsUpdatePlan {
  const { id, privacy, passwordStdin, passwordFile } = opts;
  if (privacy === undefined && !opts.refresh && !passwordStdin && passwordFile === undefined) {
    throw new UsageError('nothing to update', { hint: 'give --privacy, --password-stdin/--password-file, or --refresh' });
  }
  ctx.checkOutputFlags();
  checkPasswordFlags(ctx.io, opts, { required: false });
  return {
    id,
    refresh: opts.refresh === true,
    privacy: { privacy, passwordStdin, passwordFile },
    record: { history: planHistory(ctx, opts), run: { command: 'reports update', selection: { id } } },
  };
}

/** Changes a report's privacy or password, or regenerates it. */
export async function runReportsUpdate(ctx: CommandContext, plan: ReportsUpdatePlan) {
  const { id } = plan;
  // Settings resolved before asking for a password, and both before the request.
  const client = ctx.client();
  const password = await resolvePassword(ctx.io, plan.privacy, { secrets: ctx.secrets, signal: ctx.signal });
  const history = await openRunHistory(ctx, plan.record.history, plan.record.run);
  return history.finishing(async () => {
    const { report, reaudited } = await client.reports.update(id, { privacy: plan.privacy.privacy, password, refresh: plan.refresh });
    if (reaudited === false) {
      ctx.note(`rsapi: warning: the service did not audit report ${id} again: its generated_at did not change (${String(report.generated_at)})`);
    }
    const { writeReportWithChecks } = await import('../../../output/check-lines.js');
    history.recorder?.record(report);
    return printRecord(ctx, 'report', report, {}, undefined, (out) => writeReportWithChecks(out, report, ctx.outputOptions('report')));
  });
}
