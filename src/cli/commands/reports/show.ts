// `rsapi reports show ID`: one report, judged by the gates.
import type { Command } from '@commander-js/extra-typings';
import { addCiOptions, CiReporter } from '../../ci/reporter.js';
import type { CommandContext } from '../../context.js';
import { printRecord } from '../../listing.js';
import { addGateOptions } from '../../options.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../handler.js';
import { reportId } from './ids.js';

function declareShow(reports: ParentCommand) {
  const command = reports.command('show').alias('get').alias('view').description('Show one report').argument('<id>', 'report id', reportId);
  return addCiOptions(addGateOptions(command));
}

export type ReportsShowOptions = OptionsOf<ReturnType<typeof declareShow>> & { id: string };

export function registerShow(reports: ParentCommand, invocation: Invocation): void {
  const command = declareShow(reports);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports show 42
  $ rsapi reports show 42 --json
  $ rsapi reports show 42 --fields url,result,score -o tsv
  $ rsapi reports show 42 --min-score 80        # exit 10 below 80
  $ rsapi reports show 42 --fail-on-importance high   # exit 10 if a high-importance check fails

On a terminal the fields are followed by the per-check results (\`checks: 27 of 36 passed\`) and each
failed check in words, most important first; csv and tsv get the failed check ids in a failed_checks column.`,
  );
  handle(invocation, command, (ctx, opts, [id]) => reportsShowRun(ctx, { ...opts, id }));
}

/** Shows one report, judged by the gates. */
export async function reportsShowRun(ctx: CommandContext, opts: ReportsShowOptions) {
  const ci = await CiReporter.prepare('reports show', opts);
  const report = await ctx.client().reports.show(opts.id);
  const { writeReportWithChecks } = await import('../../../output/check-lines.js');
  return printRecord(ctx, 'report', report, opts, ci, (out) => writeReportWithChecks(out, report, ctx.outputOptions('report')));
}
