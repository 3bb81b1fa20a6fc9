#!/usr/bin/env node
// The floor under `--record` into a new SQLite history: node:sqlite alone writing 10,000 readings and the run's
// references to them into a history the CLI made (its schema, indexes and pragmas), in the compact form the store
// writes (migration 5: a page per report, its content once, the snapshot as page + generated_at + content), with the
// look-up of the pages the store makes first, 500 a transaction (fewer commits than the store's 50 ms groups make),
// and none of rsapi's code. Prints the milliseconds the writes took, not the process: scripts/bench.mjs adds them to the
// plain `--all` run, which gives the least ratio a first recording could reach if reading, encoding and the collector
// cost nothing.
//
//   node scripts/bench/record-floor.mjs FILE     (FILE: a history with one run and no snapshot yet)
import { openAsTheStore, referenceSnapshots, values } from './floor-db.mjs';

const [path] = process.argv.slice(2);
const db = openAsTheStore(path);
const runId = db.prepare('SELECT MAX(id) AS id FROM history_runs').get().id;
const ORIGIN = 'http://127.0.0.1:40000';
// A phpRank report's reading: 36 checks, their ids a check set stored once, each reading's states a sign and an
// 8-digit hash of the value a check (the store's full reading).
const ids = Array.from({ length: 36 }, (_, i) => `check_${i}`).join(' ');
const setId = db.prepare('INSERT INTO history_check_sets (ids) VALUES (?) RETURNING id').get(ids).id;
const states = (i) =>
  Array.from({ length: 36 }, (_, c) => `${(i + c) % 3 ? '+' : '-'}${(((i + 1) * (c + 7) * 2654435761) >>> 0).toString(16).padStart(8, '0')}`).join('');
const readings = Array.from({ length: 10_000 }, (_, i) => ({
  reportId: String(i + 1),
  identity: `floor${i % 7}.example.com/page-${(i * 7919) % 10_000}`,
  project: `floor${i % 7}.example.com`,
  score: i % 100,
  label: i % 3 ? 'decent' : 'bad',
  states: states(i),
}));
const PER = 500;
const started = performance.now();
for (let start = 0; start < readings.length; start += PER) {
  const chunk = readings.slice(start, start + PER);
  db.exec('BEGIN IMMEDIATE');
  // The pages held already (none in a new file), then the pages, contents and snapshots added.
  db.prepare(`SELECT p.id FROM (VALUES ${values(chunk.length, '(?, ?)')}) k JOIN history_pages p ON p.origin = k.column1 AND p.report_id = k.column2`).all(
    ...chunk.flatMap((reading) => [ORIGIN, reading.reportId]),
  );
  const pages = db
    .prepare(`INSERT INTO history_pages (origin, report_id, identity, project) VALUES ${values(chunk.length, '(?, ?, ?, ?)')} RETURNING id`)
    .all(...chunk.flatMap((reading) => [ORIGIN, reading.reportId, reading.identity, reading.project]))
    .map((row) => row.id);
  const contents = db
    .prepare(`INSERT INTO history_contents (page_id, base, check_set, score, label, checks) VALUES ${values(chunk.length, '(?, ?, ?, ?, ?, ?)')} RETURNING id`)
    .all(...chunk.flatMap((reading, index) => [pages[index], null, setId, reading.score, reading.label, reading.states]))
    .map((row) => row.id);
  const snapshots = db
    .prepare(`INSERT INTO history_snapshots (page_id, generated_at, content_id) VALUES ${values(chunk.length, '(?, ?, ?)')} RETURNING id`)
    .all(...chunk.flatMap((_, index) => [pages[index], '2026-11-28 09:00:00', contents[index]]))
    .map((row) => row.id);
  referenceSnapshots(db, runId, snapshots);
  db.exec('COMMIT');
}
process.stdout.write(`${(performance.now() - started).toFixed(1)}\n`);
db.close();
