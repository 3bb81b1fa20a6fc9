// history_runs: the recorded runs, newest first (`rsapi history runs`), and what the history tools share: the history
// opened for one call, and a job as the selection its runs were recorded under.
import { declareRuns, runsDocument } from '../../cli/commands/history/runs.js';
import { openHistoryOf, sinceOf } from '../../cli/commands/history/shared.js';
import { selectionKey } from '../../cli/reading/recording.js';
import type { HistoryStore } from '../../history/types.js';
import type { ToolCall } from '../call-context.js';
import { argumentError, integerArg, optionArg, stringArg } from '../arguments.js';
import { declared, flagOf } from '../declarations.js';
import { fitted } from '../results.js';
import { defineTool } from '../tool.js';

const runs = declared(declareRuns);

/** The `job` argument of the history tools. */
export const jobArg = stringArg('job', 'only the runs of this job: its name (--job NAME), or a selection as history_runs shows it');

/** The selection a job's runs carry: a named job's is `{"job":"NAME"}`; a selection given as JSON is taken as it is. */
export function jobSelection(job: string): string {
  if (!job.trim().startsWith('{')) return selectionKey({ job });
  let selection: unknown;
  try {
    selection = JSON.parse(job);
  } catch {
    selection = undefined;
  }
  if (typeof selection !== 'object' || selection === null || Array.isArray(selection)) {
    throw argumentError('job', 'is not a job name nor a selection (a JSON object, as history_runs shows it)');
  }
  return selectionKey(selection as Record<string, unknown>);
}

/** Runs `read` over the history (--history, RSAPI_HISTORY or the profile's), closed after. */
export async function withHistory<T>(call: ToolCall, read: (store: HistoryStore) => Promise<T>): Promise<T> {
  const store = await openHistoryOf(call.ctx, {});
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

export const historyRuns = defineTool({
  name: 'history_runs',
  description: `${runs.description()} (id, started, command, selection, service, reports, complete); the ids history_diff compares.`,
  args: [optionArg(flagOf(runs, '--since'), 'since'), jobArg, integerArg('limit', 'runs to answer', { min: 1, max: 200, default: 20 })],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const selection = args.job === undefined ? undefined : jobSelection(args.job);
    const found = await withHistory(call, (store) => store.runs({ since: sinceOf(args.since as number | undefined), selection, limit: args.limit }));
    return {
      value: fitted(runsDocument(found).value, (kept, left) => ({
        runs: kept,
        ...(left > 0 ? { more: `${left} earlier runs left out; narrow with since or limit` } : {}),
      })),
    };
  },
});
