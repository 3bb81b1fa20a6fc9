// Which runs the history store (src/history/sql-store.ts) finds, on SQLite and PostgreSQL alike: ordered as the store
// recorded them (never a machine's clock), a job's baseline (complete, read reports) by an index, what prune leaves
// (never a run still recording; N complete runs per job), what an import keeps, and one service's trend.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf } from '../../../src/history/snapshot.js';
import { runsStatement } from '../../../src/history/sql.js';
import type { HistoryStore, NewRun, Snapshot } from '../../../src/history/types.js';
import { postgresPerFile } from '../../helpers/postgres.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-history-runs-');
const DAY = 86_400_000;

/** A service of this test alone: on PostgreSQL the tests of a file share one database. */
const service = () => `http://127.0.0.${2 + Math.floor(Math.random() * 250)}:${1_000 + Math.floor(Math.random() * 60_000)}`;

function page(origin: string, id: number, url: string, generatedAt = '2026-01-01T00:00:00Z', score = 80): Snapshot {
  return snapshotOf(
    { id, url, project: url.split('/')[0], result: score, generated_at: generatedAt, results: { title: { passed: score > 50, value: `t${score}` } } },
    origin,
  ) as Snapshot;
}

function newRun(origin: string, started = new Date().toISOString(), selection = '{}'): NewRun {
  return { started, command: 'reports list', selection, origin, shard: undefined, ci: undefined };
}

async function record(store: HistoryStore, run: NewRun, pages: Snapshot[], end: { complete?: boolean; finished?: boolean } = {}): Promise<number> {
  const id = await store.startRun(run);
  if (pages.length > 0) await store.addSnapshots(id, pages);
  if (end.finished !== false) await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete: end.complete ?? true });
  return id;
}

const pg = postgresPerFile();

const STORES = [
  { name: 'sqlite', open: () => openHistory(historyLocation(join(scratch(), 'history.db'))), skip: false },
  { name: 'postgres', open: () => openHistory(historyLocation(pg.url())), skip: pg.missing !== undefined },
];

describe.each(STORES)('the runs of a history on $name', ({ open, skip }) => {
  it.skipIf(skip)('orders runs as the store recorded them: a machine a day ahead does not make its run the last; its skew is told', async () => {
    const store = await open();
    try {
      const origin = service();
      const ahead = await record(store, newRun(origin, new Date(Date.now() + DAY).toISOString()), [page(origin, 1, 'a.example.com')]);
      const later = await record(store, newRun(origin), [page(origin, 1, 'a.example.com')]);
      const runs = await store.runs({ origin });
      expect(runs.map((run) => run.id)).toEqual([later, ahead]);
      expect(runs[1]?.clockSkewMs).toBeGreaterThan(DAY - 60_000);
      expect(runs[0]?.clockSkewMs).toBeUndefined();
      expect((await store.runs({ origin, before: runs[0] })).map((run) => run.id)).toEqual([ahead]);
      expect((await store.trendOfUrl('a.example.com', { origin })).map((point) => point.run)).toEqual([ahead, later]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('an imported run takes the place its own store gave it; its start with or without milliseconds is one run', async () => {
    const store = await open();
    try {
      const origin = service();
      const now = await record(store, newRun(origin), [page(origin, 1, 'b.example.com')]);
      const run = { ...newRun(origin, '2025-06-01T09:00:00Z'), finished: '2025-06-01T09:01:00Z', exitCode: 0, complete: true, id: 1, reports: 1 };
      const imported = await store.importRun({
        run: { ...run, recorded: '2025-06-01T09:00:05Z' },
        snapshots: [page(origin, 2, 'b.example.com', '2025-06-01T08:00:00Z')],
      });
      expect(imported.added).toBe(true);
      expect((await store.runs({ origin })).map((r) => r.id)).toEqual([now, imported.id]);
      expect(await store.run(imported.id)).toMatchObject({ started: '2025-06-01T09:00:00.000Z', recorded: '2025-06-01T09:00:05.000Z', reports: 1 });
      const again = await store.importRun({ run: { ...run, started: '2025-06-01T09:00:00.000Z' }, snapshots: [] });
      expect(again).toMatchObject({ id: imported.id, added: false });
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)("a job's baseline is its last complete run that read reports: a later run that read none is passed over", async () => {
    const store = await open();
    try {
      const origin = service();
      const read = await record(store, newRun(origin), [page(origin, 1, 'c.example.com'), page(origin, 2, 'c.example.com/x')]);
      await store.addSnapshots(read, [page(origin, 1, 'c.example.com')]);
      await record(store, newRun(origin), []);
      await record(store, newRun(origin), [page(origin, 3, 'c.example.com/y')], { complete: false });
      const query = { command: 'reports list', selection: '{}', origin, completeOnly: true, readReports: true, limit: 1 };
      const [baseline] = await store.runs(query);
      expect(baseline).toMatchObject({ id: read, reports: 2 });
      expect((await store.runs({ ...query, readReports: undefined }))[0]?.reports).toBe(0);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('prune never removes a run still recording, keeps N complete runs per job, and a dry run removes nothing', async () => {
    const store = await open();
    try {
      const origin = service();
      const job = (selection: string, complete = true) => record(store, newRun(origin, undefined, selection), [page(origin, 9, 'd.example.com')], { complete });
      const a1 = await job('{"a":1}');
      const a2 = await job('{"a":1}');
      const killed = await job('{"a":1}', false);
      const b1 = await job('{"b":1}');
      const recording = await record(store, newRun(origin, undefined, '{"a":1}'), [page(origin, 9, 'd.example.com')], { finished: false });
      const dry = await store.prune({ keepRuns: 1, dryRun: true });
      const mine = (ids: number[]) => ids.filter((id) => [a1, a2, killed, b1, recording].includes(id)).sort((x, y) => x - y);
      expect(mine(dry.runs.map((run) => run.id))).toEqual([a1, killed]);
      expect(await store.run(a1)).toBeDefined();
      const pruned = await store.prune({ keepRuns: 1 });
      expect(mine(pruned.runs.map((run) => run.id))).toEqual([a1, killed]);
      // The run still recording goes on writing: its references are not refused.
      await store.addSnapshots(recording, [page(origin, 10, 'd.example.com/more')]);
      expect((await store.runs({ origin })).map((run) => run.id)).toEqual([recording, b1, a2]);
      // A day later, a run never finished is no longer one still recording.
      const later = await store.prune({ keepRuns: 1, now: Date.now() + 2 * DAY });
      expect(mine(later.runs.map((run) => run.id))).toEqual([recording]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('an import that disagrees with a stored snapshot keeps the stored one and says which fields differ', async () => {
    const store = await open();
    try {
      const origin = service();
      const earlier = await record(store, newRun(origin), [page(origin, 5, 'e.example.com/old', '2026-01-01T00:00:00Z', 70)]);
      const other = page(origin, 5, 'e.example.com/renamed', '2026-01-01T00:00:00Z', 40);
      const run = { ...newRun(origin, '2025-01-01T00:00:00.000Z'), finished: undefined, exitCode: 0, complete: true, id: 1, reports: 1 };
      const result = await store.importRun({ run, snapshots: [other] });
      expect(result.disagreements.map((d) => d.fields)).toEqual([['identity', 'score', 'label', 'checks']]);
      expect((await store.snapshotsOf(earlier))[0]).toMatchObject({ identity: 'e.example.com/old', score: 70 });
      expect((await store.snapshotsOf(result.id))[0]).toMatchObject({ identity: 'e.example.com/old', score: 70 });
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('a trend on one service leaves the same URL on another service out', async () => {
    const store = await open();
    try {
      const [staging, production] = [service(), service()];
      await record(store, newRun(staging), [page(staging, 1, 'f.example.com', '2026-01-01T00:00:00Z', 30)]);
      await record(store, newRun(production), [page(production, 1, 'f.example.com', '2026-01-01T00:00:00Z', 90)]);
      const url = 'f.example.com';
      expect((await store.trendOfUrl(url, { origin: production })).map((point) => point.score)).toEqual([90]);
      expect((await store.trendOfUrl(url, {})).map((point) => [point.origin, point.score])).toEqual([
        [staging, 30],
        [production, 90],
      ]);
      expect((await store.snapshotsOfProject(url, { origin: staging })).map((row) => row.snapshot.score)).toEqual([30]);
    } finally {
      await store.close();
    }
  });
});

describe('a job baseline on SQLite', () => {
  it('is found through history_runs_baseline, not by scanning the runs or counting their references', async () => {
    const path = join(scratch(), 'history.db');
    (await openHistory(historyLocation(path))).close();
    const { sql, params } = runsStatement({ command: 'reports list', selection: '{}', origin: 'http://x', completeOnly: true, readReports: true, limit: 1 });
    const db = new DatabaseSync(path);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    db.close();
    expect(plan.join('\n')).toMatch(/SEARCH r USING INDEX history_runs_baseline/);
    expect(plan.join('\n')).not.toMatch(/SCAN|history_run_snapshots|TEMP B-TREE/);
  });
});
