// The history store (src/history/sql-store.ts) on SQLite and on PostgreSQL alike: runs, snapshots, references, prune,
// import; and SQLite's file rules (mode 0600, WAL, a file of someone else's or of a newer rsapi left byte-identical).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { HistoryError } from '../../../src/history/errors.js';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf, withChecks } from '../../../src/history/snapshot.js';
import { SCHEMA_VERSION } from '../../../src/history/sql.js';
import { sqliteProblem } from '../../../src/history/sqlite.js';
import type { HistoryStore, NewRun, Snapshot } from '../../../src/history/types.js';
import { postgresPerFile } from '../../helpers/postgres.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-history-');
const ORIGIN = 'http://127.0.0.1:1';

function report(id: number, url: string, generatedAt: string, failing: string[] = [], score = 80) {
  const results = Object.fromEntries(
    ['title', 'charset', 'htst', 'http2'].map((check) => [check, { passed: !failing.includes(check), importance: 'high', value: `${check}-value` }]),
  );
  return { id, url, project: url.split('/')[0], result: score, generated_at: generatedAt, results };
}

function newRun(command = 'reports list', selection = '{}'): NewRun {
  return { started: new Date().toISOString(), command, selection, origin: ORIGIN, shard: undefined, ci: undefined };
}

async function record(store: HistoryStore, records: ReturnType<typeof report>[], complete = true): Promise<number> {
  const id = await store.startRun(newRun());
  await store.addSnapshots(
    id,
    records.map((r) => snapshotOf(r, ORIGIN)!),
  );
  await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete });
  return id;
}

const pg = postgresPerFile();
const pgMissing = pg.missing;

/** The snapshot rows of one report id (each on its page: migration 5). */
const SNAPSHOTS_OF_REPORT = 'SELECT COUNT(*) AS n FROM history_snapshots s JOIN history_pages p ON p.id = s.page_id WHERE p.report_id = ?';

/** How many snapshot rows a store holds of one report id, counted in its own database. */
async function sqliteRows(store: HistoryStore, reportId: number): Promise<number> {
  const db = new DatabaseSync(store.where, { readOnly: true });
  try {
    return Number(db.prepare(SNAPSHOTS_OF_REPORT).get(String(reportId))?.n);
  } finally {
    db.close();
  }
}

async function postgresRows(_store: HistoryStore, reportId: number): Promise<number> {
  const { default: pgClient } = await import('pg');
  const client = new pgClient.Client({ connectionString: pg.url() });
  await client.connect();
  try {
    return Number((await client.query(SNAPSHOTS_OF_REPORT.replace('?', '$1'), [String(reportId)])).rows[0]?.n);
  } finally {
    await client.end();
  }
}

const STORES = [
  { name: 'sqlite', open: () => openHistory(historyLocation(join(scratch(), 'history.db'))), rows: sqliteRows },
  { name: 'postgres', open: async () => openHistory(historyLocation(pg.url())), rows: postgresRows, skip: pgMissing !== undefined },
];

describe.each(STORES)('the history store on $name', ({ open, rows, skip }) => {
  it.skipIf(skip)('two readings of one report dated the same second (a refresh right after a create) are two snapshots', async () => {
    const store = await open();
    try {
      // An id of its own: on PostgreSQL the tests share one database, and (origin, id, generated_at) is one report.
      const n = 400_000 + Math.floor(Math.random() * 1_000_000);
      const url = `s-${Math.random()}.example.com/page`;
      const created = report(n, url, '2026-01-01T00:00:00Z', ['title', 'charset'], 40);
      const refreshed = report(n, url, '2026-01-01T00:00:00Z', [], 95);
      const first = await record(store, [created]);
      const second = await record(store, [refreshed]);
      // A value changed alone (same score, same checks passed): another reading all the same.
      const valueOnly = { ...refreshed, results: { ...refreshed.results, title: { passed: true, importance: 'high', value: 'a new title' } } };
      const third = await record(store, [valueOnly]);
      const [one, two, three] = await Promise.all([first, second, third].map((id) => store.snapshotsOf(id)));
      expect(one?.map((s) => [s.score, s.checks?.filter((check) => !check.passed).map((check) => check.id)])).toEqual([[40, ['title', 'charset']]]);
      expect(two?.map((s) => [s.score, s.checks?.filter((check) => !check.passed).map((check) => check.id)])).toEqual([[95, []]]);
      expect(three?.[0]?.checks?.find((check) => check.id === 'title')?.hash).not.toBe(two?.[0]?.checks?.find((check) => check.id === 'title')?.hash);
      expect(await rows(store, n)).toBe(3);
      // Re-read unchanged, each of them: references only, no snapshot row.
      const again = await record(store, [created]);
      const againRefreshed = await record(store, [refreshed]);
      expect(await store.snapshotsOf(again)).toEqual(one);
      expect(await store.snapshotsOf(againRefreshed)).toEqual(two);
      expect(await rows(store, n)).toBe(3);
      expect((await store.trendOfUrl(url, {})).map((point) => point.score)).toEqual([40, 95, 95, 40, 95]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('re-reading the same report (origin, id, generated_at) adds only the run reference, not a snapshot', async () => {
    const store = await open();
    try {
      const a = report(1, `a-${Math.random()}.example.com`, '2026-01-01T00:00:00Z');
      const first = await record(store, [a]);
      const second = await record(store, [a]);
      const changed = await record(store, [{ ...a, generated_at: '2026-01-02T00:00:00Z' }]);
      const [one, two, three] = await Promise.all([first, second, changed].map((id) => store.snapshotsOf(id)));
      expect(one).toEqual(two);
      expect(three?.[0]?.generatedAt).toBe('2026-01-02T00:00:00Z');
      const points = await store.trendOfUrl(a.url, {});
      expect(points.map((point) => point.run)).toEqual([first, second, changed]);
      const runs = await store.runs({ completeOnly: true });
      expect(runs.find((run) => run.id === second)).toMatchObject({ complete: true, reports: 1, exitCode: 0, command: 'reports list' });
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('heldNames gives every URL and project read and the check ids of the newest readings', async () => {
    const store = await open();
    try {
      const host = `h-${Math.random()}.example.com`;
      const n = 2_000_000 + Math.floor(Math.random() * 1_000_000);
      await record(store, [report(n, `${host}/a`, '2026-01-01T00:00:00Z'), report(n + 1, `${host}/b`, '2026-01-01T00:00:00Z')]);
      const held = await store.heldNames();
      expect(held.identities).toEqual(expect.arrayContaining([`${host}/a`, `${host}/b`]));
      expect(held.projects).toContain(host);
      expect(new Set(held.projects).size).toBe(held.projects.length);
      expect(held.checks).toEqual(expect.arrayContaining(['title', 'charset', 'htst', 'http2']));
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('a run never finished stays incomplete; prune keeps what the kept runs reference', async () => {
    const store = await open();
    try {
      const url = `p-${Math.random()}.example.com`;
      // An id of its own: on PostgreSQL the tests share one database, and (origin, id, generated_at) is one report.
      const n = 300_000 + Math.floor(Math.random() * 1_000_000);
      const old = await record(store, [report(n, url, '2026-01-01T00:00:00Z')]);
      const unfinished = await store.startRun(newRun());
      await store.addSnapshots(unfinished, [snapshotOf(report(n, url, '2026-01-02T00:00:00Z'), ORIGIN)!]);
      expect((await store.run(unfinished))?.complete).toBe(false);
      const kept = await record(store, [report(n, url, '2026-01-02T00:00:00Z')]);
      const pruned = await store.prune({ keepRuns: 1 });
      expect(pruned.runs.length).toBeGreaterThanOrEqual(1);
      expect(await store.run(old)).toBeUndefined();
      expect(await store.snapshotsOf(kept)).toHaveLength(1);
      expect((await store.trendOfUrl(url, {})).map((point) => point.generatedAt)).toEqual(['2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('a page with a re-read report, a new one and one listed twice: one reference each, the new one whole', async () => {
    const store = await open();
    try {
      const host = `m-${Math.random()}.example.com`;
      const old = report(1, `${host}/old`, '2026-01-01T00:00:00Z');
      await record(store, [old]);
      const fresh = report(2, `${host}/new`, '2026-01-02T00:00:00Z', ['charset'], 55);
      const id = await record(store, [old, fresh, old]);
      const snapshots = await store.snapshotsOf(id);
      expect(snapshots.map((snapshot) => snapshot.identity)).toEqual([`${host}/new`, `${host}/old`]);
      expect(snapshots[0]).toMatchObject({ reportId: '2', project: host, score: 55, generatedAt: '2026-01-02T00:00:00Z' });
      expect(snapshots[0]?.checks?.filter((check) => !check.passed).map((check) => check.id)).toEqual(['charset']);
      expect((await store.run(id))?.reports).toBe(2);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('a report whose snapshot a prune deleted is snapshotted whole when read again', async () => {
    const store = await open();
    try {
      const host = `d-${Math.random()}.example.com`;
      const page = report(3, `${host}/page`, '2026-01-01T00:00:00Z', ['title'], 61);
      await record(store, [page]);
      await record(store, [report(4, `${host}/other`, '2026-01-01T00:00:00Z')]);
      expect((await store.prune({ keepRuns: 1 })).snapshots).toBeGreaterThanOrEqual(1);
      const again = await record(store, [page]);
      const [snapshot] = await store.snapshotsOf(again);
      expect(snapshot).toMatchObject({ identity: `${host}/page`, project: host, score: 61, label: 'decent' });
      expect(snapshot?.checks?.filter((check) => !check.passed).map((check) => check.id)).toEqual(['title']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)("a run's snapshots one at a time are snapshotsOf's, in its order, and the store answers meanwhile", async () => {
    const store = await open();
    try {
      const host = `e-${Math.random()}.example.com`;
      // Ids of their own: on PostgreSQL the tests share one database, and (origin, id, generated_at) is one report.
      const base = 200_000 + Math.floor(Math.random() * 1_000_000) * 10;
      const id = await record(
        store,
        [5, 3, 9, 1].map((n) => report(base + n, `${host}/page-${n}`, '2026-01-01T00:00:00Z', n === 3 ? ['htst'] : [])),
      );
      const seen = [];
      for await (const snapshot of store.eachSnapshotOf(id)) {
        seen.push(snapshot);
        expect((await store.run(id))?.reports).toBe(4);
      }
      expect(seen).toEqual(await store.snapshotsOf(id));
      expect(seen.map((snapshot) => Number(snapshot.reportId) - base)).toEqual([1, 3, 5, 9]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('a URL with two reports (a duplicate) is one point a run in its trend: the newer reading, as a diff takes it', async () => {
    const store = await open();
    try {
      const url = `dup-${Math.random()}.example.com/x`;
      // Ids of their own: on PostgreSQL the tests share one database, and (origin, id, generated_at) is one report.
      const id = 100_000 + Math.floor(Math.random() * 1_000_000);
      for (const day of ['02', '03']) {
        await record(store, [report(id, url, `2026-01-${day}T00:00:00Z`, [], 70), report(id + 1, url, '2026-01-01T00:00:00Z', ['title'], 40)]);
      }
      const points = await store.trendOfUrl(url, {});
      expect(points.map((point) => [point.score, point.failed])).toEqual([
        [70, 0],
        [70, 0],
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('an exported run imported again is the same run, not a second one', async () => {
    const store = await open();
    try {
      const id = await record(store, [report(7, `i-${Math.random()}.example.com`, '2026-01-01T00:00:00Z', ['title'])]);
      const run = (await store.run(id))!;
      const snapshots = await store.snapshotsOf(id);
      expect(await store.importRun({ run, snapshots })).toEqual({ id, added: false, disagreements: [] });
      expect(snapshots[0]?.checks?.find((check) => check.id === 'title')?.passed).toBe(false);
    } finally {
      await store.close();
    }
  });
});

describe('the SQLite history file', () => {
  it('is made with mode 0600, in WAL, at the schema version', async () => {
    const path = join(scratch(), 'deep', 'history.db');
    const store = await openHistory(historyLocation(path));
    await store.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('SELECT version FROM history_schema').get()).toEqual({ version: SCHEMA_VERSION });
    db.close();
  });

  it('a new file another connection holds locked (a second run making it at once) is waited for, not refused', async () => {
    const path = join(scratch(), 'history.db');
    writeFileSync(path, '', { mode: 0o600 });
    const other = new DatabaseSync(path);
    other.exec('BEGIN EXCLUSIVE');
    other.exec('CREATE TABLE history_schema (version INTEGER NOT NULL)');
    let released = false;
    const release = setTimeout(() => {
      other.exec('ROLLBACK');
      other.close();
      released = true;
    }, 400);
    try {
      const store = await openHistory(historyLocation(path));
      expect(released).toBe(true);
      await record(store, [report(1, 'a.example.com/', '2026-01-01T00:00:00Z')]);
      expect(await store.runs()).toHaveLength(1);
      await store.close();
    } finally {
      clearTimeout(release);
      if (!released) other.close();
    }
  });

  it("a re-read report is compared by its stored reading: its URL's identity and project are not worked out again", async () => {
    const store = await openHistory(historyLocation(join(scratch(), 'history.db')));
    try {
      // The place is asked of the snapshot (a recorder's reading works it out from the URL then): counted there.
      let reads = 0;
      const counted = (generatedAt: string): Snapshot => {
        const snapshot = snapshotOf(report(5, 'example.com/counted', generatedAt), ORIGIN)!;
        return new Proxy(snapshot, {
          get: (target, key) => {
            if (key === 'identity' || key === 'project') reads++;
            return Reflect.get(target, key);
          },
        });
      };
      const recordOne = async (snapshot: Snapshot) => {
        const id = await store.startRun(newRun());
        await store.addSnapshots(id, [snapshot]);
        await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete: true });
      };
      await recordOne(counted('2026-01-01T00:00:00Z'));
      const once = reads;
      expect(once).toBeGreaterThan(0);
      await recordOne(counted('2026-01-01T00:00:00Z'));
      expect(reads).toBe(once);
      await recordOne(counted('2026-01-02T00:00:00Z'));
      expect(reads).toBeGreaterThan(once);
    } finally {
      await store.close();
    }
  });

  it('a re-read of each kind of stored reading (full, a delta, a text of its own, none) adds references only; a changed one, a snapshot', async () => {
    const path = join(scratch(), 'history.db');
    const store = await openHistory(historyLocation(path));
    const rows = () => {
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        return ['history_snapshots', 'history_contents'].map((table) => Number(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n));
      } finally {
        db.close();
      }
    };
    try {
      const full = report(1, 'r.example.com/a', '2026-01-01T00:00:00Z');
      // One of its four checks flipped: stored as a delta against the full reading.
      const delta = report(1, 'r.example.com/a', '2026-01-02T00:00:00Z', ['title']);
      const none = { id: 2, url: 'r.example.com/b', project: 'r.example.com', result: 50, generated_at: '2026-01-01T00:00:00Z' };
      const text = withChecks(
        { origin: ORIGIN, identity: 'r.example.com/c', reportId: '3', project: 'r.example.com', score: 40, label: 'bad', generatedAt: '2026-01-01T00:00:00Z' },
        'a text of its own',
      );
      const snapshots = () => [snapshotOf(delta, ORIGIN)!, snapshotOf(none, ORIGIN)!, text];
      await record(store, [full]);
      const first = await store.startRun(newRun());
      await store.addSnapshots(first, snapshots());
      await store.finishRun(first, { finished: new Date().toISOString(), exitCode: 0, complete: true });
      const before = rows();
      const again = await store.startRun(newRun());
      await store.addSnapshots(again, snapshots());
      await store.finishRun(again, { finished: new Date().toISOString(), exitCode: 0, complete: true });
      expect(rows()).toEqual(before);
      expect(await store.snapshotsOf(again)).toEqual(await store.snapshotsOf(first));
      // The same report and generated_at read with another score is another reading.
      await record(store, [{ ...delta, result: 12 }]);
      expect(rows()[0]).toBe((before[0] as number) + 1);
    } finally {
      await store.close();
    }
  });

  it('a history written before readings were keyed by content (schema 2) is migrated: its snapshots kept, re-read unchanged, read again changed', async () => {
    const path = join(scratch(), 'history.db');
    const older = new DatabaseSync(path);
    // Schema 2 as rsapi wrote it, with one run that read two reports.
    older.exec(`CREATE TABLE history_schema (version INTEGER NOT NULL); INSERT INTO history_schema VALUES (2);
      CREATE TABLE history_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, finished TEXT, command TEXT NOT NULL, selection TEXT NOT NULL,
        origin TEXT NOT NULL, exit_code INTEGER, shard TEXT, ci TEXT, complete INTEGER NOT NULL DEFAULT 0, recorded TEXT, reports INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX history_runs_recorded ON history_runs (recorded, id);
      CREATE INDEX history_runs_job ON history_runs (origin, command, selection, recorded, id);
      CREATE INDEX history_runs_baseline ON history_runs (origin, command, selection, recorded, id) WHERE complete = 1 AND reports > 0;
      CREATE TABLE history_snapshots (id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, identity TEXT NOT NULL, report_id TEXT NOT NULL, project TEXT,
        score REAL, label TEXT, generated_at TEXT NOT NULL, checks TEXT, UNIQUE (origin, report_id, generated_at));
      CREATE INDEX history_snapshots_identity ON history_snapshots (identity);
      CREATE INDEX history_snapshots_project ON history_snapshots (project);
      CREATE TABLE history_run_snapshots (run_id INTEGER NOT NULL REFERENCES history_runs (id), snapshot_id INTEGER NOT NULL REFERENCES history_snapshots (id),
        PRIMARY KEY (run_id, snapshot_id));
      CREATE INDEX history_run_snapshots_snapshot ON history_run_snapshots (snapshot_id);
      INSERT INTO history_runs (started, finished, command, selection, origin, exit_code, complete, recorded, reports)
        VALUES ('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 'reports list', '{}', '${ORIGIN}', 0, 1, '2026-01-01T00:00:00.000Z', 2);`);
    const stored = [report(1, 'a.example.com/', '2026-01-01T00:00:00Z', ['title'], 70), report(2, 'b.example.com/', '2026-01-01T00:00:00Z')];
    const insert = older.prepare(
      'INSERT INTO history_snapshots (origin, identity, report_id, project, score, label, generated_at, checks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of stored) {
      const s = snapshotOf(r, ORIGIN)!;
      const { lastInsertRowid } = insert.run(
        s.origin,
        s.identity,
        s.reportId,
        s.project ?? null,
        s.score ?? null,
        s.label ?? null,
        s.generatedAt,
        s.checksText ?? null,
      );
      older.prepare('INSERT INTO history_run_snapshots (run_id, snapshot_id) VALUES (1, ?)').run(lastInsertRowid);
    }
    older.close();

    const store = await openHistory(historyLocation(path));
    try {
      const before = await store.snapshotsOf(1);
      expect(before.map((s) => [s.reportId, s.score])).toEqual([
        ['1', 70],
        ['2', 80],
      ]);
      // Report 1 re-read unchanged, report 2 read again within the same second with another score.
      const next = await record(store, [stored[0]!, report(2, 'b.example.com/', '2026-01-01T00:00:00Z', ['http2'], 30)]);
      expect((await store.snapshotsOf(next)).map((s) => [s.reportId, s.score])).toEqual([
        ['1', 70],
        ['2', 30],
      ]);
      expect(await store.snapshotsOf(1)).toEqual(before);
      expect(await sqliteRows(store, 1)).toBe(1);
      expect(await sqliteRows(store, 2)).toBe(2);
      // Prune still removes what no run references (the references' foreign keys point at the rebuilt table).
      expect((await store.prune({ keepRuns: 1 })).snapshots).toBe(1);
    } finally {
      await store.close();
    }
    const migrated = new DatabaseSync(path);
    expect(migrated.prepare('SELECT version FROM history_schema').get()).toEqual({ version: SCHEMA_VERSION });
    expect(migrated.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(migrated.prepare('SELECT "table" FROM pragma_foreign_key_list(\'history_run_snapshots\') ORDER BY "table"').all()).toEqual([
      { table: 'history_runs' },
      { table: 'history_snapshots' },
    ]);
    migrated.close();
  });

  it('a new snapshot of a 36-check report takes under 2 KB of the file, an unchanged one re-read under 100 bytes', async () => {
    const path = join(scratch(), 'history.db');
    const results = Object.fromEntries(
      Array.from({ length: 36 }, (_, i) => [`check_number_${i}`, { passed: i % 3 !== 0, importance: 'medium', value: 'x'.repeat(500) }]),
    );
    const reports = Array.from({ length: 500 }, (_, i) => ({
      id: 100_000 + i,
      url: `example.com/some/long/path/to/page-${i}`,
      result: 71.4,
      generated_at: '2026-01-01T00:00:00.000000Z',
      results,
    }));
    const size = async (work: (store: HistoryStore) => Promise<unknown>) => {
      const store = await openHistory(historyLocation(path));
      await work(store);
      await store.close();
      const db = new DatabaseSync(path);
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      db.close();
      return statSync(path).size;
    };
    const empty = await size(async () => {});
    const once = await size(async (store) => record(store, reports as never));
    const twice = await size(async (store) => record(store, reports as never));
    expect((once - empty) / reports.length).toBeLessThan(2048);
    expect((twice - once) / reports.length).toBeLessThan(100);
  });

  it('a history of an older schema (0) is migrated in one transaction: a step that fails leaves none of its tables', async () => {
    const path = join(scratch(), 'history.db');
    const older = new DatabaseSync(path);
    // A table in the way of the migration's last step: the steps before it are rolled back with it.
    older.exec('CREATE TABLE history_schema (version INTEGER NOT NULL); INSERT INTO history_schema VALUES (0); CREATE TABLE history_run_snapshots (x TEXT)');
    older.close();
    const error = await openHistory(historyLocation(path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryError);
    const after = new DatabaseSync(path);
    expect(
      after
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => row.name),
    ).toEqual(['history_run_snapshots', 'history_schema']);
    expect(after.prepare('SELECT version FROM history_schema').get()).toEqual({ version: 0 });
    after.exec('DROP TABLE history_run_snapshots');
    after.close();
    const store = await openHistory(historyLocation(path));
    await store.close();
    const migrated = new DatabaseSync(path);
    expect(migrated.prepare('SELECT version FROM history_schema').get()).toEqual({ version: SCHEMA_VERSION });
    migrated.close();
  });

  const refusals = [
    { name: 'a file that is not SQLite', content: () => Buffer.from('just some notes\n'.repeat(10)) },
    {
      name: "another program's SQLite database",
      content: (path: string) => {
        const db = new DatabaseSync(path);
        db.exec('CREATE TABLE notes (text TEXT)');
        db.close();
        return undefined;
      },
    },
    {
      name: 'a history written by a newer rsapi',
      content: (path: string) => {
        const db = new DatabaseSync(path);
        db.exec(`CREATE TABLE history_schema (version INTEGER NOT NULL); INSERT INTO history_schema VALUES (${SCHEMA_VERSION + 1})`);
        db.close();
        return undefined;
      },
    },
  ];
  it.each(refusals)('$name is refused and left byte-identical', async ({ content }) => {
    const path = join(scratch(), 'history.db');
    const made = content(path);
    if (made) writeFileSync(path, made);
    const before = readFileSync(path);
    const error = await openHistory(historyLocation(path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a read-only directory is refused as unwritable', async () => {
    // Root writes through a directory's mode: for root, sysfs is a directory no one may create a file in.
    const root = process.getuid?.() === 0;
    const dir = root ? '/sys' : join(scratch(), 'ro');
    if (!root) {
      mkdirSync(dir);
      chmodSync(dir, 0o500);
    }
    const error = await openHistory(historyLocation(join(dir, 'rsapi-history.db'))).catch((e: unknown) => e);
    if (!root) chmodSync(dir, 0o700);
    expect((error as HistoryError).problem).toBe('unwritable');
  });
});

describe('the SQLite history file, when the disk or the file fails', () => {
  it('a full disk is said as a full disk, naming disk space', async () => {
    const path = join(scratch(), 'history.db');
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE t (x TEXT); PRAGMA max_page_count = 2');
    const error = (() => {
      try {
        db.exec(`INSERT INTO t VALUES ('${'x'.repeat(20_000)}')`);
      } catch (e) {
        return e;
      }
    })();
    db.close();
    const problem = sqliteProblem(path, error);
    expect(problem.problem).toBe('disk-full');
    expect(problem.message).toMatch(/the disk is full/);
    expect(problem.hint).toMatch(/free disk space/);
  });

  it('a damaged history is said to be damaged, in SQLite’s words, not called "not a SQLite file"', async () => {
    const path = join(scratch(), 'history.db');
    const store = await openHistory(historyLocation(path));
    await store.startRun({ started: new Date().toISOString(), command: 'reports list', selection: '{}', origin: ORIGIN, shard: undefined, ci: undefined });
    await store.close();
    const bytes = readFileSync(path);
    // The schema's page (page 1 after the 100-byte header) overwritten: SQLite finds the file malformed.
    bytes.fill(0x41, 100, 4096);
    writeFileSync(path, bytes);
    const error = (await openHistory(historyLocation(path)).catch((e: unknown) => e)) as HistoryError;
    expect(error.message).toMatch(/is damaged \(SQLite: .*malformed/);
    expect(error.problem).toBe('damaged');
  });

  it('a history on a read-only mount (or of another user) is read, never written', async () => {
    const dir = join(scratch(), 'mounted');
    mkdirSync(dir);
    const path = join(dir, 'history.db');
    const store = await openHistory(historyLocation(path));
    await store.startRun({ started: new Date().toISOString(), command: 'reports list', selection: '{}', origin: ORIGIN, shard: undefined, ci: undefined });
    await store.close();
    const before = readFileSync(path);
    // Root writes through any mode: the folder is bound read-only instead (as a CI cache mounted read-only).
    const root = process.getuid?.() === 0;
    const readOnly = root ? join(scratch(), 'ro') : dir;
    if (root) {
      mkdirSync(readOnly);
      execFileSync('mount', ['--bind', dir, readOnly]);
      execFileSync('mount', ['-o', 'remount,ro,bind', readOnly]);
    } else {
      chmodSync(path, 0o400);
      chmodSync(dir, 0o500);
    }
    try {
      const reader = await openHistory(historyLocation(join(readOnly, 'history.db')), { readOnly: true });
      expect((await reader.runs()).map((run) => run.command)).toEqual(['reports list']);
      await reader.close();
    } finally {
      if (root) execFileSync('umount', [readOnly]);
      else chmodSync(dir, 0o700);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
