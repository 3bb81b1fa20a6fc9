// What --html reads of a history (src/cli/report-files/page-history.ts), on SQLite and PostgreSQL alike: the earlier
// complete runs of the same command, selection and origin, oldest first; each URL's scores and each project's average
// per run; the last run as a baseline.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededInts } from '../../helpers/random.js';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf, snapshotRecord, storedReadingOf } from '../../../src/history/snapshot.js';
import { NewestStandings, type Standing } from '../../../src/cli/report-files/baseline.js';
import type { HistoryStore } from '../../../src/history/types.js';
import { PAGE_HISTORY_RUNS, readPageHistory, readRunBaseline, SnapshotStandings } from '../../../src/cli/report-files/page-history.js';
import type { Snapshot } from '../../../src/history/types.js';
import { postgresPerFile } from '../../helpers/postgres.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-page-history-');
const ORIGIN = 'http://127.0.0.1:1';
const SAME = { command: 'reports list', selection: '{"project":"a.example"}', origin: ORIGIN };

function report(id: number, url: string, score: number, week: number, failing: string[] = []) {
  const results = Object.fromEntries(['title', 'http2'].map((check) => [check, { passed: !failing.includes(check), importance: 'high', value: check }]));
  return { id, url, project: url.split('/')[0], result: score, generated_at: `2026-01-${String(week + 1).padStart(2, '0')}T00:00:00Z`, results };
}

async function record(store: HistoryStore, records: ReturnType<typeof report>[], options: { complete?: boolean; selection?: string } = {}) {
  const run = await store.startRun({
    ...SAME,
    selection: options.selection ?? SAME.selection,
    started: new Date().toISOString(),
    shard: undefined,
    ci: undefined,
  });
  await store.addSnapshots(
    run,
    records.map((r) => snapshotOf(r, ORIGIN)!),
  );
  await store.finishRun(run, { finished: new Date().toISOString(), exitCode: 0, complete: options.complete ?? true });
  return run;
}

const pg = postgresPerFile();

/** A new, empty history on each store (PostgreSQL: a database of the file's own, emptied for each test). */
const STORES = [
  { name: 'SQLite', open: () => openHistory(historyLocation(join(scratch(), 'h.db'))), skip: false },
  {
    name: 'PostgreSQL',
    open: async () => {
      const store = await openHistory(historyLocation(pg.url()));
      await store.prune({ keepRuns: 0 });
      return store;
    },
    skip: pg.missing !== undefined,
  },
];

describe.each(STORES)('readPageHistory on $name', ({ open, skip }) => {
  it.skipIf(skip)('none without an earlier complete run like this one', async () => {
    const store = await open();
    try {
      await record(store, [report(1, 'a.example/x', 50, 0)], { complete: false });
      await record(store, [report(1, 'a.example/x', 50, 0)], { selection: '{"project":"b.example"}' });
      expect(await readPageHistory(store, SAME)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('the runs oldest first; per URL its score in each (null where a run did not read it); per project its average; the last as a baseline; incomplete and other selections left out', async () => {
    const store = await open();
    try {
      const first = await record(store, [report(1, 'a.example/x', 40, 0), report(2, 'a.example/y', 60, 0)]);
      await record(store, [report(1, 'a.example/x', 99, 1)], { complete: false });
      await record(store, [report(1, 'a.example/x', 99, 1)], { selection: '{}' });
      const second = await record(store, [report(1, 'a.example/x', 50, 2, ['title']), report(3, 'b.example/z', 70, 2)]);
      const history = (await readPageHistory(store, SAME))!;
      expect(history.runs.map((run) => run.id)).toEqual([first, second]);
      expect(history.scores.get('a.example/x')).toEqual([40, 50]);
      expect(history.scores.get('a.example/y')).toEqual([60, null]);
      expect(history.scores.get('b.example/z')).toEqual([null, 70]);
      expect(history.projects.get('a.example')).toEqual([50, 50]);
      expect(history.projects.get('b.example')).toEqual([null, 70]);
      expect(history.last?.path).toBe(`run ${second} of the history`);
      expect([...(history.last?.byUrl.keys() ?? [])].sort()).toEqual(['a.example/x', 'b.example/z']);
      expect(history.last?.hasChecks).toBe(true);
      // Read for a run with a baseline of its own: the same scores, and no last run as a baseline.
      const without = (await readPageHistory(store, SAME, { last: false }))!;
      expect(without.last).toBeUndefined();
      expect(without.scores).toEqual(history.scores);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('of two readings of a URL in one run, the newer stands, whichever is read first; its project as last read', async () => {
    const store = await open();
    try {
      // The newer reading has the lower report id: read first (rows come by identity, then report id).
      const older = { ...report(2, 'a.example/x', 40, 0), project: 'old name' };
      await record(store, [report(1, 'a.example/x', 45, 1), older]);
      await record(store, [{ ...report(1, 'a.example/x', 70, 3), project: 'new name' }, report(2, 'a.example/x', 60, 2)]);
      for (const last of [true, false]) {
        const history = (await readPageHistory(store, SAME, { last }))!;
        expect(history.scores.get('a.example/x')).toEqual([45, 70]);
        expect([...history.projects.keys()]).toEqual(['new name']);
      }
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)("a run read already as the baseline is not read again: the same history, that run's scores kept by readRunBaseline", async () => {
    const store = await open();
    try {
      const first = await record(store, [report(1, 'a.example/x', 40, 0), report(2, 'a.example/y', 60, 0)]);
      // Two readings of one URL in the run compared with (the newer read first: the lower report id), a new project.
      const second = await record(store, [
        report(1, 'a.example/x', 45, 1),
        { ...report(2, 'a.example/x', 30, 0), project: 'old name' },
        report(3, 'b.example/z', 70, 1),
      ]);
      const read: number[] = [];
      const counted = new Proxy(store, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key, target);
          if (key === 'eachScoreOf') return (run: number) => (read.push(run), target.eachScoreOf(run));
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const asRead = (await readPageHistory(counted, SAME, { last: false }))!;
      expect(read).toEqual([first, second]);
      read.length = 0;
      const held = (await readPageHistory(counted, SAME, { last: false, held: await readRunBaseline(store, second, { scores: true }) }))!;
      expect(read).toEqual([first]);
      expect(held).toEqual(asRead);
      expect([...held.scores]).toEqual([...asRead.scores]);
      expect([...held.projects]).toEqual([...asRead.projects]);
      expect(held.scores.get('a.example/x')).toEqual([40, 45]);
      // A run that writes no page keeps none.
      expect((await readRunBaseline(store, second)).scores).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)(`reads at most the newest ${PAGE_HISTORY_RUNS} runs`, async () => {
    const store = await open();
    try {
      for (let week = 0; week < PAGE_HISTORY_RUNS + 2; week++) await record(store, [report(1, 'a.example/x', week, week)]);
      const history = (await readPageHistory(store, SAME))!;
      expect(history.runs).toHaveLength(PAGE_HISTORY_RUNS);
      expect(history.scores.get('a.example/x')).toEqual(Array.from({ length: PAGE_HISTORY_RUNS }, (_, index) => index + 2));
    } finally {
      await store.close();
    }
  });
});

/** Standings as the judge reads them: each reading's score, result and checks through its fields (a signed reading keeps its checks as signs). */
function asRead(byUrl: ReadonlyMap<string, Standing>): [string, Standing][] {
  return [...byUrl].map(([key, standing]) => {
    const { score, label, checks } = standing.reading;
    return [key, { ...standing, reading: { score, label, checks } }];
  });
}

describe.each(STORES)('a baseline run read from $name', ({ open, skip }) => {
  it.skipIf(skip)('stands each page as add(snapshotRecord(snapshot)) does: full readings, deltas, contents shared, checks of every shape', async () => {
    const store = await open();
    try {
      const next = seededInts(7);
      const ids = ['title', 'http2', 'charset', '10', '2', 'a b', 'é', 'Z', 'meta', 'h1', 'lang', 'og'];
      const pages = Array.from({ length: 300 }, (_, page) => ({ page, failing: new Set(ids.filter(() => next(3) === 0)) }));
      const runs: number[] = [];
      for (let week = 0; week < 4; week++) {
        const records = pages.map(({ page, failing }) => {
          // A few checks flip each week: later readings are stored as deltas against the page's full one.
          if (next(4) === 0) {
            const id = ids[next(ids.length)] as string;
            if (failing.has(id)) failing.delete(id);
            else failing.add(id);
          }
          const shown = page % 7 === 0 ? ids.slice(0, 3) : ids;
          const results = page % 11 === 0 ? undefined : Object.fromEntries(shown.map((id) => [id, { passed: !failing.has(id), value: `${id}-${page % 3}` }]));
          return {
            id: page + 1,
            url: `${page % 5 === 0 ? 'www.' : ''}a.example/p/${page % 290}`,
            project: 'a.example',
            result: 40 + ((page + week) % 60),
            generated_at: `2026-01-${String(week + 1).padStart(2, '0')}T00:00:0${page % 3}Z`,
            ...(results === undefined ? {} : { results }),
          };
        });
        runs.push(await record(store, records as ReturnType<typeof report>[]));
      }
      let signed = 0;
      let answered = 0;
      for (const run of runs) {
        const direct = new SnapshotStandings();
        const viaRecords = new NewestStandings();
        for await (const snapshot of store.eachSnapshotOf(run)) {
          if (storedReadingOf(snapshot)?.signs() !== undefined) signed++;
          direct.add(snapshot);
          viaRecords.add(snapshotRecord(snapshot));
        }
        expect(asRead(direct.standings.byUrl)).toEqual(asRead(viaRecords.byUrl));
        // Written out (a regression's earlier reading in JSON), each reads as the record's does.
        for (const [key, standing] of direct.standings.byUrl) expect(JSON.stringify(standing)).toBe(JSON.stringify(viaRecords.byUrl.get(key)));
        // A signed reading answers each check by id as the record's list has it, and none it lacks.
        for (const [key, { reading }] of direct.standings.byUrl) {
          if (reading.passed === undefined) continue;
          answered++;
          for (const check of viaRecords.byUrl.get(key)?.reading.checks ?? []) expect(reading.passed(check.id)).toBe(check.passed);
          for (const id of ['no such check', '', 'zzz']) expect(reading.passed(id)).toBeUndefined();
        }
        expect(direct.standings.hasChecks).toBe(viaRecords.hasChecks);
      }
      expect(signed).toBeGreaterThan(1_000);
      expect(answered).toBeGreaterThan(1_000);
    } finally {
      await store.close();
    }
  });
});

describe('a baseline run read straight from its snapshots (SnapshotStandings)', () => {
  it('stands each page as add(snapshotRecord(snapshot)) does, over 2,000 generated snapshots of every shape', () => {
    const next = seededInts(45);
    const ids = ['title', 'charset', 'htst', 'http2', '10', '2', 'a b', 'Z', 'é'];
    const labels = ['good', 'decent', 'bad', undefined, 'odd', '78'];
    const hosts = ['shop.example.org', 'www.shop.example.org', 'www.www.x.test', 'x.test:8080'];
    const snapshots: Snapshot[] = Array.from({ length: 2_000 }, (_, index) => {
      const shape = next(4);
      const checks =
        shape === 0
          ? undefined
          : shape === 1
            ? []
            : Array.from({ length: 1 + next(12) }, () => ({ id: ids[next(ids.length)] as string, passed: next(2) === 0, hash: '0a1b2c3d' }));
      return {
        origin: 'http://127.0.0.1:1',
        identity: `${hosts[next(hosts.length)]}/page/${next(300)}${next(5) === 0 ? '?q=1' : ''}`,
        reportId: String(next(6) === 0 ? `00${index}` : 1 + next(500)),
        project: next(4) === 0 ? undefined : next(3) === 0 ? '' : 'shop',
        score: next(5) === 0 ? undefined : next(1000) / 10,
        label: labels[next(labels.length)],
        generatedAt: next(6) === 0 ? 'not a time' : `2026-11-${String(1 + next(28)).padStart(2, '0')}T09:00:0${next(10)}.000000Z`,
        checksText: undefined,
        checks,
      };
    });
    for (let start = 0; start < snapshots.length; start += 100) {
      const part = snapshots.slice(start, start + 100);
      const viaRecords = new NewestStandings();
      const direct = new SnapshotStandings();
      for (const snapshot of part) {
        viaRecords.add(snapshotRecord(snapshot));
        direct.add(snapshot);
      }
      expect(asRead(direct.standings.byUrl)).toEqual(asRead(viaRecords.byUrl));
      expect(direct.standings.hasChecks).toBe(viaRecords.hasChecks);
    }
  });
});
