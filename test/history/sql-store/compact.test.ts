// The history's size (issue 45): 26 weekly runs of 2,000 pages, 2% of the checks flipping a week, every page read again
// (a new generated_at) each week: the SQLite file after VACUUM at most 200 bytes a page a week. And PostgreSQL's page
// write, one statement a page (writePageSql), storing the same compact form as SQLite's write path, row for row.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { recordGeneratedHistory } from '../../../scripts/bench/generated-history.mjs';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf } from '../../../src/history/snapshot.js';
import type { SqlConnection } from '../../../src/history/sql.js';
import { openPostgres } from '../../../src/history/postgres.js';
import { openSqlite } from '../../../src/history/sqlite.js';
import { emptyDatabase, postgresPerFile } from '../../helpers/postgres.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-compact-');
const pg = postgresPerFile();

/** The compact tables' rows, in the order of their ids, as text. */
async function compactRows(db: SqlConnection): Promise<string[]> {
  const tables = {
    history_pages: 'id, origin, report_id, identity, project',
    history_check_sets: 'id, ids',
    history_contents: 'id, page_id, base, check_set, score, label, checks',
    history_snapshots: 'id, page_id, generated_at, content_id',
    history_run_snapshots: 'run_id, snapshot_id',
  };
  const rows: string[] = [];
  for (const [table, columns] of Object.entries(tables)) {
    for (const row of (await db.run(`SELECT ${columns} FROM ${table} ORDER BY ${columns.split(', ').slice(0, 2).join(', ')}`)).rows) {
      rows.push(`${table} ${JSON.stringify(Object.values(row).map((value) => (value === null ? null : String(value))))}`);
    }
  }
  return rows;
}

/**
 * Six weeks of 150 pages with 15% flipping (deltas, and full readings again once a page drifts past a third), then
 * the same six weeks read again (each reading held: referenced, not written), and a page with two readings of one
 * report, one with checks that do not split (kept as text) and one with none.
 */
async function recordMixed(where: string): Promise<void> {
  const store = await openHistory(historyLocation(where));
  try {
    await recordGeneratedHistory(store, snapshotOf, { pages: 150, weeks: 6, flip: 0.15 });
    await recordGeneratedHistory(store, snapshotOf, { pages: 150, weeks: 6, flip: 0.15 });
    const run = await store.startRun({
      started: '2026-03-01T06:00:00.000Z',
      command: 'rsapi audit',
      selection: '{"job":"odd"}',
      origin: 'https://rank.example.com',
      shard: undefined,
      ci: undefined,
    });
    const record = (id: number, at: string, results: unknown) => ({ id, url: `odd.example.com/${id}`, score: 50, result: 'decent', generated_at: at, results });
    await store.addSnapshots(
      run,
      [
        record(900, '2026-03-01T06:00:00.000000Z', { title: { passed: true, value: 'a' } }),
        record(901, '2026-03-01T06:00:00.000000Z', undefined),
        record(900, '2026-03-01T06:00:01.000000Z', { title: { passed: false, value: 'b' } }),
      ].map((r) => snapshotOf(r, 'https://rank.example.com') as NonNullable<ReturnType<typeof snapshotOf>>),
    );
    await store.finishRun(run, { finished: '2026-03-01T06:30:00.000Z', exitCode: 0, complete: true });
  } finally {
    await store.close();
  }
}

/** The file's bytes once its WAL is written back and its free pages dropped. */
function vacuumedSize(path: string): number {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.close();
  return statSync(path).size;
}

describe('a compact history', () => {
  it('26 weekly runs of 2,000 pages with 2% of checks flipping take at most 200 bytes a page a week', async () => {
    const path = join(scratch(), 'history.db');
    const store = await openHistory(historyLocation(path));
    const pages = 2_000;
    const weeks = 26;
    try {
      await recordGeneratedHistory(store, snapshotOf, { pages, weeks, flip: 0.02 });
    } finally {
      await store.close();
    }
    const perPageWeek = vacuumedSize(path) / (pages * weeks);
    console.log(`history size: ${perPageWeek.toFixed(0)} B a page a week`);
    expect(perPageWeek).toBeLessThanOrEqual(200);
  }, 120_000);

  it.skipIf(pg.missing !== undefined)(
    "PostgreSQL's one statement a page stores what SQLite's write path stores, row for row",
    async () => {
      const path = join(scratch(), 'history.db');
      await recordMixed(path);
      const url = pg.url();
      await emptyDatabase(url);
      await recordMixed(url);
      const [sqlite, postgresDb] = [await openSqlite(path), await openPostgres(url, 'test')];
      try {
        const [onSqlite, onPostgres] = [await compactRows(sqlite), await compactRows(postgresDb)];
        expect(onSqlite.filter((row) => /^history_contents .*,null,null,"50"/.test(row)).length).toBeGreaterThan(0);
        expect(onSqlite.some((row) => /^history_contents \["\d+","\d+","\d+",null/.test(row))).toBe(true);
        expect(onPostgres).toEqual(onSqlite);
      } finally {
        await Promise.all([sqlite.close(), postgresDb.close()]);
      }
    },
    120_000,
  );
});
