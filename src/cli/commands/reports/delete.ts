// `rsapi reports delete ID...`: confirmed on a terminal, refused without one unless --yes.
import type { Command } from '@commander-js/extra-typings';
import { deleteEach } from '../../deletion.js';
import type { CommandContext } from '../../context.js';
import { handle, type ParentCommand, type OptionsOf } from '../../handler.js';
import { integerParser, MAX_CONCURRENCY } from '../../options.js';
import { checkReportId } from './ids.js';

function declareDelete(reports: ParentCommand) {
  return reports
    .command('delete')
    .alias('rm')
    .description('Delete reports (asks first on a terminal; scripts pass --yes)')
    .argument('<ids...>', 'report ids; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking')
    .option('--dry-run', 'print what would be deleted, delete nothing (no request is sent)')
    .option('--concurrency <n>', `deletes in flight at once (1 to ${MAX_CONCURRENCY}, default 1)`, integerParser('--concurrency', 1, MAX_CONCURRENCY));
}

export type DeleteOptions = OptionsOf<ReturnType<typeof declareDelete>> & { ids: string[] };

export function registerDelete(reports: ParentCommand): void {
  const command = declareDelete(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports delete 42
  $ rsapi reports delete 42 43 44 --yes
  $ rsapi reports list --result bad -q --all | rsapi reports delete - --dry-run
  $ rsapi reports list --result bad -q --all | rsapi reports delete - --yes

A declined confirmation deletes nothing and exits 2 (as gh does for a cancelled command).`,
  );
  handle(command, (ctx, opts, [ids]) => deleteRun(ctx, { ...opts, ids }));
}

/** Deletes each report, after a confirmation on a terminal (or --yes). */
export async function deleteRun(ctx: CommandContext, opts: DeleteOptions) {
  const client = ctx.client();
  return deleteEach(ctx, {
    noun: 'report',
    args: opts.ids,
    yes: opts.yes,
    dryRun: opts.dryRun,
    concurrency: opts.concurrency,
    validate: checkReportId,
    remove: (id) => client.reports.delete(id),
  });
}
