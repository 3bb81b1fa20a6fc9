#!/usr/bin/env node
// The floor under `--record` into a new SQLite history: node:sqlite alone writing 10,000 snapshots and the run's
// references to them into a history the CLI made (its schema, indexes and pragmas), in the statements the store uses,
// 500 a transaction (fewer commits than the store's 50 ms groups make), with none of rsapi's code. Prints the
// milliseconds the writes took, not the process: scripts/bench.mjs adds them to the plain `--all` run, which gives
// the least ratio a first recording could reach if reading, encoding and the collector cost nothing.
//
//   node scripts/bench/record-floor.mjs FILE     (FILE: a history with one run and no snapshot yet)
const [path] = process.argv.slice(2);
const { DatabaseSync } = await import('node:sqlite');
const db = new DatabaseSync(path);
db.exec('PRAGMA busy_timeout = 50');
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = NORMAL');
db.exec('PRAGMA temp_store = MEMORY');
const runId = db.prepare('SELECT MAX(id) AS id FROM history_runs').get().id;
const COLUMNS = 'origin, identity, report_id, project, score, label, generated_at, checks, content';
const KEY = 'origin, report_id, generated_at, content';
// A phpRank report's reading: 36 checks, each an id, a state and an 8-digit hash of its value.
const checks = Array.from({ length: 36 }, (_, i) => `check_${i}${i % 3 ? '+' : '-'}${(i * 2654435761) >>> 0}`.slice(0, 24)).join(' ');
const rows = Array.from({ length: 10_000 }, (_, i) => [
  'http://127.0.0.1:40000',
  `floor${i % 7}.example.com/page-${(i * 7919) % 10_000}`,
  String(i + 1),
  `floor${i % 7}.example.com`,
  i % 100,
  i % 3 ? 'decent' : 'bad',
  '2026-11-28 09:00:00',
  checks,
  ((i * 2654435761) >>> 0).toString(16).padStart(16, '0'),
]);
const PER = 500;
const started = performance.now();
for (let start = 0; start < rows.length; start += PER) {
  const chunk = rows.slice(start, start + PER);
  db.exec('BEGIN IMMEDIATE');
  const ids = db
    .prepare(
      `INSERT INTO history_snapshots (${COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (${KEY}) DO UPDATE SET identity = history_snapshots.identity RETURNING id`,
    )
    .all(...chunk.flat())
    .map((row) => row.id);
  const referenced = db
    .prepare(
      `INSERT INTO history_run_snapshots (run_id, snapshot_id) SELECT ?, id FROM history_snapshots WHERE id IN (${ids.map(() => '?').join(', ')})
         ON CONFLICT DO NOTHING`,
    )
    .run(runId, ...ids).changes;
  db.prepare('UPDATE history_runs SET reports = reports + ? WHERE id = ?').run(referenced, runId);
  db.exec('COMMIT');
}
process.stdout.write(`${(performance.now() - started).toFixed(1)}\n`);
db.close();
