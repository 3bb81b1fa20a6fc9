// `rsapi reports show ID`: one report, judged by the gates.
import type { Command } from 'commander';
import { addCiOptions, CiReporter, type CiFlags } from '../../ci/reporter.js';
import { printRecord } from '../../listing.js';
import { addGateOptions, type GateOptions } from '../../options.js';
import { handle } from '../../handler.js';
import { reportId } from './ids.js';

export function registerShow(reports: Command): void {
  const command = reports
    .command('show')
    .alias('get')
    .description('Show one report')
    .argument('<id>', 'report id', reportId);
  addGateOptions(command);
  addCiOptions(command);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports show 42
  $ rsapi reports show 42 --json
  $ rsapi reports show 42 --fields url,result,score -o tsv
  $ rsapi reports show 42 --min-score 80        # exit 10 below 80`,
  );
  handle(command, async (ctx, self) => {
    const [id] = self.processedArgs as [string];
    const flags = self.opts<GateOptions & CiFlags>();
    const ci = await CiReporter.prepare('reports show', flags);
    const report = await ctx.client().reports.show(id);
    return printRecord(ctx, 'report', report, flags, ci);
  });
}
