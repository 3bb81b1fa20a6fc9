// `rsapi reports update ID`: privacy, password, or a refresh (update=1); nothing to change is a usage error.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { handle } from '../../handler.js';
import { printRecord } from '../../listing.js';
import { addPrivacyOptions, resolvePassword, type PrivacyFlags } from '../../report-flags.js';
import { reportId } from './ids.js';

interface UpdateFlags extends PrivacyFlags {
  refresh?: boolean;
}

export function registerUpdate(reports: Command): void {
  const command = reports
    .command('update')
    .description("Change a report's privacy or password, or regenerate it with --refresh")
    .argument('<id>', 'report id', reportId)
    .option('--refresh', 'regenerate the report (sends update=1)');
  addPrivacyOptions(command);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports update 42 --privacy private
  $ rsapi reports update 42 --refresh
  $ rsapi reports update 42 --privacy password --password-file ./page-password.txt`,
  );
  handle(command, async (ctx, self) => {
    const [id] = self.processedArgs as [string];
    const flags = self.opts<UpdateFlags>();
    if (flags.privacy === undefined && !flags.refresh && !flags.passwordStdin && flags.passwordFile === undefined) {
      throw new UsageError('nothing to update', { hint: 'give --privacy, --password-stdin/--password-file, or --refresh' });
    }
    // Settings and output resolved before asking for a password, and both before the request.
    const client = ctx.client();
    const password = await resolvePassword(ctx.io, flags, { required: false, signal: ctx.signal });
    const report = await client.reports.update(id, { privacy: flags.privacy, password, refresh: flags.refresh });
    return printRecord(ctx, 'report', report);
  });
}
