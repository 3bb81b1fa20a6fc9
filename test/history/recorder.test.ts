// How a recording run's pages become writes (src/history/recorder.ts): on a SQLite file the pages flushed within
// SQLITE_GATHER_MS are one write (one commit), a page read later is a write of its own, and the run's end writes what
// is left; PostgreSQL writes each page as it comes (one round trip a page, the stall tests count on it).
import { describe, expect, it } from 'vitest';
import { RunRecorder, SQLITE_GATHER_MS, type KeptRun } from '../../src/history/recorder.js';
import type { HistoryStore, Snapshot } from '../../src/history/types.js';

/** A store that only counts: the size of each write, in order. */
function countingStore(kind: 'sqlite' | 'postgres'): { store: HistoryStore; writes: number[] } {
  const writes: number[] = [];
  const store = {
    kind,
    where: 'test',
    startRun: async () => 1,
    addSnapshots: async (_run: number, snapshots: readonly Snapshot[]) => {
      writes.push(snapshots.length);
    },
    finishRun: async () => {},
    close: async () => {},
  } as unknown as HistoryStore;
  return { store, writes };
}

const report = (n: number) => ({ id: n, url: `https://example.com/${n}`, generated_at: '2026-01-01T00:00:00Z', score: 50 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a recorder on `store` and waits for its run's row. */
async function recorderOn(store: HistoryStore): Promise<RunRecorder> {
  const recorder = RunRecorder.start(
    async () => store,
    { started: '2026-01-01T00:00:00.000Z', command: 'reports list', selection: '{}', origin: 'o', shard: undefined, ci: undefined },
    () => {},
  );
  await sleep(10);
  expect(recorder.id).toBe(1);
  return recorder;
}

/** Five pages of ten reports, flushed one after another at once. */
function readPages(recorder: RunRecorder, first = 0): void {
  for (let page = 0; page < 5; page++) {
    for (let n = 0; n < 10; n++) recorder.add(report(first + page * 10 + n));
    recorder.flush();
  }
}

describe('RunRecorder writes', () => {
  it('SQLite: pages flushed within the window are one write; a page after it is a write of its own', async () => {
    const { store, writes } = countingStore('sqlite');
    const recorder = await recorderOn(store);
    readPages(recorder);
    expect(writes).toEqual([]);
    await sleep(SQLITE_GATHER_MS * 2);
    expect(writes).toEqual([50]);
    recorder.add(report(100));
    recorder.flush();
    await sleep(SQLITE_GATHER_MS * 2);
    expect(writes).toEqual([50, 1]);
  });

  it("SQLite: the run's end writes the pages still gathered before its end", async () => {
    const { store, writes } = countingStore('sqlite');
    const recorder = await recorderOn(store);
    readPages(recorder);
    recorder.add(report(100));
    expect(await recorder.finish(0, true, new Date())).toBeUndefined();
    expect(writes).toEqual([51]);
  });

  it('PostgreSQL: each page is a write as it comes', async () => {
    const { store, writes } = countingStore('postgres');
    const recorder = await recorderOn(store);
    readPages(recorder);
    await sleep(10);
    expect(writes).toEqual([10, 10, 10, 10, 10]);
    await recorder.finish(0, true, new Date());
    expect(writes).toEqual([10, 10, 10, 10, 10]);
  });
});

describe('RunRecorder failures', () => {
  it('a store that fails after some pages were written: the failure says the run is kept, incomplete, with those pages', async () => {
    const { store } = countingStore('postgres');
    let writes = 0;
    store.addSnapshots = async () => {
      if (++writes > 2) throw new Error('database or disk is full');
    };
    const failures: [string, KeptRun | undefined][] = [];
    const recorder = RunRecorder.start(
      async () => store,
      { started: '2026-01-01T00:00:00.000Z', command: 'audit', selection: '{}', origin: 'o', shard: undefined, ci: undefined },
      (error, kept) => void failures.push([error.message, kept]),
    );
    readPages(recorder);
    await recorder.finish(0, true, new Date());
    expect(failures).toEqual([['the history failed: database or disk is full', { run: 1, pages: 20 }]]);
  });

  it('a store that cannot start the run: nothing kept', async () => {
    const { store } = countingStore('sqlite');
    store.startRun = async () => {
      throw new Error('database or disk is full');
    };
    const failures: (KeptRun | undefined)[] = [];
    const recorder = RunRecorder.start(
      async () => store,
      { started: '2026-01-01T00:00:00.000Z', command: 'audit', selection: '{}', origin: 'o', shard: undefined, ci: undefined },
      (_error, kept) => void failures.push(kept),
    );
    await recorder.finish(0, true, new Date());
    expect(failures).toEqual([undefined]);
  });
});
