// `rsapi reports delete ID...`: confirmed on a terminal, refused without one unless --yes.
import type { Command } from 'commander';
import { deleteEach } from '../../deletion.js';
import { handle } from '../../handler.js';
import { checkReportId } from './ids.js';

export function registerDelete(reports: Command): void {
  const command = reports
    .command('delete')
    .alias('rm')
    .description('Delete reports (asks first on a terminal; scripts pass --yes)')
    .argument('<ids...>', 'report ids; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports delete 42
  $ rsapi reports delete 42 43 44 --yes
  $ rsapi reports list --result bad -q --all | rsapi reports delete - --yes`,
  );
  handle(command, async (ctx, self) => {
    const client = ctx.client();
    return deleteEach(ctx, {
      noun: 'report',
      args: self.args,
      yes: self.opts<{ yes?: boolean }>().yes,
      validate: checkReportId,
      remove: (id) => client.reports.delete(id),
    });
  });
}
