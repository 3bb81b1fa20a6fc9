import { UsageError } from '../../runtime/errors.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { printRecord } from '../../reading/listing.js';
import { addPrivacyOptions, checkPasswordFlags, resolvePassword } from '../../flags/report-flags.js';
import { reportId } from './ids.js';
import { addHistoryOptions, openRunHistory } from '../../reading/recording.js';

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
  handle(invocation, command, (ctx, opts, [id]) => reportsUpdateRun(ctx, { ...opts, id }));
}

/** Every check of `reports update` that needs no network: before a password is read or anything sent. */
export function validateReportsUpdate(ctx: CommandContext, opts: ReportsUpdateOptions): void {
  if (opts.privacy === undefined && !opts.refresh && !opts.passwordStdin && opts.passwordFile === undefined) {
    throw new UsageError('nothing to update', { hint: 'give --privacy, --password-stdin/--password-file, or --refresh' });
  }
  ctx.checkOutputFlags();
  checkPasswordFlags(ctx.io, opts, { required: false });
}

/** Changes a report's privacy or password, or regenerates it. */
export async function reportsUpdateRun(ctx: CommandContext, opts: ReportsUpdateOptions) {
  validateReportsUpdate(ctx, opts);
  // Settings resolved before asking for a password, and both before the request.
  const client = ctx.client();
  const password = await resolvePassword(ctx.io, opts, { secrets: ctx.secrets, signal: ctx.signal });
  const history = await openRunHistory(ctx, opts, { command: 'reports update', selection: { id: opts.id } });
  return history.finishing(async () => {
    const { report, reaudited } = await client.reports.update(opts.id, { privacy: opts.privacy, password, refresh: opts.refresh });
    if (reaudited === false) {
      ctx.note(`rsapi: warning: the service did not audit report ${opts.id} again: its generated_at did not change (${String(report.generated_at)})`);
    }
    const { writeReportWithChecks } = await import('../../../output/check-lines.js');
    history.recorder?.record(report);
    return printRecord(ctx, 'report', report, {}, undefined, (out) => writeReportWithChecks(out, report, ctx.outputOptions('report')));
  });
}
