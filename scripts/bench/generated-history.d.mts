import type { HistoryStore, Snapshot } from '../../src/history/types.js';

export declare const CHECK_IDS: readonly string[];
export declare function recordGeneratedHistory(
  store: HistoryStore,
  snapshotOf: (record: Record<string, unknown>, origin: string) => Snapshot | undefined,
  options?: { pages?: number; weeks?: number; flip?: number; seed?: number },
): Promise<number>;
