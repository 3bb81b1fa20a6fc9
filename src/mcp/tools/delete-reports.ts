// delete_reports: `reports delete --yes` for the ids given (never a filter), at most 100 in one call.
import { declareUpdate } from '../../cli/commands/reports/update.js';
import { runPool } from '../../cli/bulk/pool.js';
import { listArg, positionalArg } from '../arguments.js';
import { argumentOf, declared } from '../declarations.js';
import { errorLines } from '../results.js';
import { defineTool } from '../tool.js';

/** The most reports one call deletes: a mistake costs at most this many, and the answer stays small. */
export const MAX_DELETES = 100;

export const deleteReports = defineTool({
  name: 'delete_reports',
  description: `Delete reports by id (at most ${MAX_DELETES} in one call). This cannot be undone.`,
  args: [
    listArg('ids', 'report ids to delete', positionalArg(argumentOf(declared(declareUpdate), 'id'), 'id'), {
      min: 1,
      max: MAX_DELETES,
      tooMany: `nothing was deleted; give at most ${MAX_DELETES} ids a call`,
    }),
  ],
  writes: true,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(call, args) {
    const ids = [...new Set(args.ids ?? [])];
    const client = call.ctx.client();
    const deleted: string[] = [];
    const failed: { id: string; error: string }[] = [];
    const { started } = await runPool(ids, { concurrency: 4, stop: call.ctx.noNewRequests }, async (id) => {
      try {
        await client.reports.delete(id);
        deleted.push(id);
      } catch (error) {
        failed.push({ id, error: errorLines(error).join('\n') });
      }
    });
    const order = (list: string[]) => ids.filter((id) => list.includes(id));
    return {
      value: {
        deleted: order(deleted),
        ...(failed.length > 0 ? { failed: order(failed.map((entry) => entry.id)).map((id) => failed.find((entry) => entry.id === id)) } : {}),
        ...(started < ids.length ? { not_started: ids.slice(started) } : {}),
      },
      isError: failed.length > 0 || started < ids.length,
    };
  },
});
