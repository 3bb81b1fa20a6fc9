// history_runs: the recorded runs, newest first (`rsapi history runs`), and what the history tools share: the history
// opened for one call, and a job as the selection its runs were recorded under.
import { declareRuns, runsDocument } from '../../cli/commands/history/runs.js';
import { openHistoryOf, sinceOf } from '../../cli/commands/history/shared.js';
import { selectionKey } from '../../cli/reading/history-place.js';
import type { HistoryStore } from '../../history/types.js';
import type { ToolCall } from '../call-context.js';
import { argumentError, integerArg, optionArg, stringArg } from '../arguments.js';
import { declared, flagOf } from '../declarations.js';
import { fitted } from '../results.js';
import { defineTool } from '../tool.js';
import { nearest } from '../../suggest.js';

const runs = declared(declareRuns);

/** The `job` argument of the history tools. */
export const jobArg = {
  ...stringArg('job', 'only the runs of this job: its name (--job NAME), or a selection as history_runs shows it'),
  flag: '--job',
};

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
  readsHistory: true,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const selection = args.job === undefined ? undefined : jobSelection(args.job);
    const { found, jobs } = await withHistory(call, async (store) => {
      const found = await store.runs({ since: sinceOf(args.since as number | undefined), selection, limit: args.limit });
      // A job that has no run: the names the history does hold, so an agent that guessed it wrong can ask again.
      return { found, jobs: found.length === 0 && args.job !== undefined ? jobNames(await store.runs({ limit: 1_000 })) : undefined };
    });
    const hint = jobs === undefined ? undefined : jobHint(args.job as string, jobs);
    return {
      value: fitted(runsDocument(found).value, (kept, left) => ({
        runs: kept,
        ...(hint ? { hint } : {}),
        ...(left > 0 ? { more: `${left} earlier runs left out; narrow with since or limit` } : {}),
      })),
    };
  },
});

/** The named jobs of these runs (a run recorded with --job NAME carries the selection {"job":"NAME"}), newest first. */
function jobNames(runs: readonly { selection: string }[]): string[] {
  const names = new Set<string>();
  for (const run of runs) {
    const job = (JSON.parse(run.selection) as { job?: unknown }).job;
    if (typeof job === 'string') names.add(job);
  }
  return [...names];
}

/** `no run of the job shop; did you mean shop.example.com? the jobs held: shop.example.com, blog` (at most 20 named). */
function jobHint(job: string, jobs: readonly string[]): string {
  if (jobs.length === 0) return `no run of the job ${job}: the history holds no named job (history_runs without job lists every run)`;
  const near = nearest(job, jobs);
  const listed = jobs.length > 20 ? `${jobs.slice(0, 20).join(', ')}, and ${jobs.length - 20} more` : jobs.join(', ');
  return `no run of the job ${job}${near ? `; did you mean ${near}?` : ''} the jobs held: ${listed}`;
}
