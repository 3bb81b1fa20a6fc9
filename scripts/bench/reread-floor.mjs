#!/usr/bin/env node
// The floor under `--record` re-reading 10,000 reports the history holds already (nothing re-audited, every reading
// the same): node:sqlite alone, on the file record-floor.mjs wrote, looking up each report's reading under its key
// (origin, report id, generated_at) with the content a re-read is compared with, then writing the new run's references
// to them, 1,000 keys a transaction (as the store's 50 ms groups come at this pace), with none of rsapi's code and
// nothing compared. Prints the milliseconds the statements took, not the process: scripts/bench.mjs adds them to the
// plain `--all` run, which gives the least ratio a re-read could reach if reading, encoding and comparing cost nothing.
//
//   node scripts/bench/reread-floor.mjs FILE     (FILE: record-floor.mjs's history, with a newer run holding nothing)
import { openAsTheStore, referenceSnapshots, values } from './floor-db.mjs';

const [path] = process.argv.slice(2);
const db = openAsTheStore(path);
const runId = db.prepare('SELECT MAX(id) AS id FROM history_runs').get().id;
const keys = db
  .prepare('SELECT p.origin, p.report_id, s.generated_at FROM history_snapshots s JOIN history_pages p ON p.id = s.page_id ORDER BY p.report_id')
  .all()
  .map((row) => [row.origin, row.report_id, row.generated_at]);
const PER = 1_000;
const started = performance.now();
for (let start = 0; start < keys.length; start += PER) {
  const chunk = keys.slice(start, start + PER);
  db.exec('BEGIN IMMEDIATE');
  const held = db
    .prepare(
      `SELECT k.column4 AS at, s.id AS snapshot_id, s.content_id, c.score, c.label, c.checks, c.check_set, c.base, b.checks AS base_checks,
         b.check_set AS base_set FROM (VALUES ${values(chunk.length, '(?, ?, ?, ?)')}) k
       JOIN history_pages p ON p.origin = k.column1 AND p.report_id = k.column2 JOIN history_snapshots s ON s.page_id = p.id AND s.generated_at = k.column3
       JOIN history_contents c ON c.id = s.content_id LEFT JOIN history_contents b ON b.id = c.base ORDER BY s.id`,
    )
    .all(...chunk.flatMap((key, at) => [...key, at]));
  const ids = held.map((row) => row.snapshot_id);
  referenceSnapshots(db, runId, ids);
  db.exec('COMMIT');
}
process.stdout.write(`${(performance.now() - started).toFixed(1)}\n`);
db.close();
