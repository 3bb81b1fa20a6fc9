// refresh_reports: `reports update --refresh` for each id: the service audits the page again, replacing its results.
import { declareUpdate } from '../../cli/commands/reports/update.js';
import { runPool } from '../../cli/bulk/pool.js';
import { listArg, positionalArg } from '../arguments.js';
import { argumentOf, declared, flagOf } from '../declarations.js';
import { reportRow } from '../report-rows.js';
import { errorLines, fitted } from '../results.js';
import { defineTool } from '../tool.js';

const update = declared(declareUpdate);
/** Re-audits in one call: each takes seconds at the service. */
const MAX_IDS = 25;

export const refreshReports = defineTool({
  name: 'refresh_reports',
  description: `For each report id: ${flagOf(update, '--refresh')?.description ?? 'audit the page again'}. The old results are replaced.`,
  args: [listArg('ids', 'report ids', positionalArg(argumentOf(update, 'id'), 'id'), { min: 1, max: MAX_IDS, tooMany: 'split them over several calls' })],
  writes: true,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(call, args) {
    const ids = [...new Set(args.ids ?? [])];
    const client = call.ctx.client();
    const outcomes = new Map<string, Record<string, unknown>>();
    const { started } = await runPool(ids, { concurrency: 2, stop: call.ctx.noNewRequests }, async (id) => {
      try {
        const { report, reaudited } = await client.reports.update(id, { refresh: true });
        outcomes.set(id, { ...reportRow(report), generated_at: report.generated_at ?? null, ...(reaudited === false ? { reaudited: false } : {}) });
      } catch (error) {
        outcomes.set(id, { id, error: errorLines(error).join('\n') });
      }
    });
    const rows = ids.filter((id) => outcomes.has(id)).map((id) => outcomes.get(id));
    const failed = rows.filter((row) => row && 'error' in row).length;
    return {
      value: fitted(rows, (kept, left) => ({
        refreshed: rows.length - failed,
        failed,
        reports: kept,
        ...(started < ids.length ? { not_started: ids.slice(started) } : {}),
        ...(left > 0 ? { more: `${left} more reports refreshed; get_report shows each` } : {}),
        ...(rows.some((row) => row?.reaudited === false)
          ? { note: 'reaudited false: the generated_at of the report did not change; the service did not audit it again' }
          : {}),
      })),
      isError: failed > 0 || started < ids.length,
    };
  },
});
