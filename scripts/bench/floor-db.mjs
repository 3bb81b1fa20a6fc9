// What the floors under `--record` share (record-floor.mjs, reread-floor.mjs): a history file opened with node:sqlite
// alone as the CLI's store opens it (its pragmas), and the placeholders of a multi-row statement.
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
