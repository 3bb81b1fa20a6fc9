// What the floors under `--record` share (record-floor.mjs, reread-floor.mjs): a history file opened with node:sqlite
// alone as the CLI's store opens it (its pragmas), the placeholders of a multi-row statement, and the run's references
// written as the store writes them.
import { DatabaseSync } from 'node:sqlite';

/** The file at `path`, opened as src/history/sqlite.ts opens a history to write it. */
export function openAsTheStore(path) {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 50');
  // An index made on the fly for a join (every reading of a floor is dated the same) is never faster.
  db.exec('PRAGMA automatic_index = OFF');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA temp_store = MEMORY');
  return db;
}

/** `count` rows of `row` (`(?, ?)`), a comma apart: a VALUES list or an INSERT's rows. */
export function values(count, row) {
  return Array.from({ length: count }, () => row).join(', ');
}

/** The run's references to the snapshots `ids` (one it has already kept) and its count of reports, as the store writes them. */
export function referenceSnapshots(db, runId, ids) {
  const referenced = db
    .prepare(
      `INSERT INTO history_run_snapshots (run_id, snapshot_id) SELECT ?, id FROM history_snapshots WHERE id IN (${values(ids.length, '?')})
         ON CONFLICT DO NOTHING`,
    )
    .run(runId, ...ids).changes;
  db.prepare('UPDATE history_runs SET reports = reports + ? WHERE id = ?').run(referenced, runId);
}
