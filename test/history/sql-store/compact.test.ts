// The history's size (issue 45): 26 weekly runs of 2,000 pages, 2% of the checks flipping a week, every page read again
// (a new generated_at) each week: the SQLite file after VACUUM at most 200 bytes a page a week.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { recordGeneratedHistory } from '../../../scripts/bench/generated-history.mjs';
import { historyLocation } from '../../../src/history/location.js';
import { openHistory } from '../../../src/history/open.js';
import { snapshotOf } from '../../../src/history/snapshot.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-compact-');

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
});
