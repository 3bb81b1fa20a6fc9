// `rsapi reports delete ID...`: confirmed on a terminal, refused without one unless --yes.
import type { Command } from 'commander';
import { deleteEach } from '../../deletion.js';
import { handle } from '../../handler.js';
import { integerParser, MAX_CONCURRENCY } from '../../options.js';
import { checkReportId } from './ids.js';

export function registerDelete(reports: Command): void {
  const command = reports
    .command('delete')
    .alias('rm')
    .description('Delete reports (asks first on a terminal; scripts pass --yes)')
    .argument('<ids...>', 'report ids; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking')
    .option('--dry-run', 'print what would be deleted, delete nothing (no request is sent)')
    .option('--concurrency <n>', `deletes in flight at once (1 to ${MAX_CONCURRENCY}, default 1)`, integerParser('--concurrency', 1, MAX_CONCURRENCY));
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
  handle(command, async (ctx, self) => {
    const client = ctx.client();
    const flags = self.opts<{ yes?: boolean; dryRun?: boolean; concurrency?: number }>();
    return deleteEach(ctx, {
      noun: 'report',
      args: self.args,
      yes: flags.yes,
      dryRun: flags.dryRun,
      concurrency: flags.concurrency,
      validate: checkReportId,
      remove: (id) => client.reports.delete(id),
    });
  });
}
