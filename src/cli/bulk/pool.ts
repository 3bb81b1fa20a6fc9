// Bounded concurrency: at most N items in flight, none started once the stop signal is raised.

export interface PoolOptions {
  /** At most this many items in flight at once (>= 1). */
  concurrency: number;
  /** Once aborted, no further item is started; items under way run to their end. */
  stop?: AbortSignal;
}

export interface PoolOutcome {
  /** How many items were started (the rest were not, because of `stop`). */
  started: number;
}

/**
 * Runs `work` over the items, in input order, with at most `concurrency` at a time. `work` should
 * handle its own failures; if one throws anyway, nothing more is started and the first such error
 * is rethrown once the items under way have ended.
 */
export async function runPool<T>(items: readonly T[], options: PoolOptions, work: (item: T, index: number) => Promise<void>): Promise<PoolOutcome> {
  let next = 0;
  let crash: { error: unknown } | undefined;
  const mayStart = () => next < items.length && !options.stop?.aborted && crash === undefined;
  const worker = async (): Promise<void> => {
    while (mayStart()) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        crash ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency, items.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  if (crash) throw crash.error;
  return { started: next };
}
