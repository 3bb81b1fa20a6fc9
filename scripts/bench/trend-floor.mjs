#!/usr/bin/env node
// The floor under `rsapi history trend URL`: a fresh Node that opens the history with node:sqlite as the store does
// (the same pragmas and schema checks), runs the trend's own statement and prints the rows as JSON, with none of
// rsapi's code. scripts/bench/history.mjs times it beside the command and `--version`: what the database alone costs.
//
//   RSAPI_BENCH_SQL='<SQL.trendOfUrl>' node scripts/bench/trend-floor.mjs FILE URL
const [path, url] = process.argv.slice(2);
const { DatabaseSync } = await import('node:sqlite');
const db = new DatabaseSync(path);
db.exec('PRAGMA busy_timeout = 50');
db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'history_schema'").get();
db.prepare('SELECT version FROM history_schema').get();
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = NORMAL');
db.exec('PRAGMA temp_store = MEMORY');
const rows = db.prepare(process.env.RSAPI_BENCH_SQL).all(url, '');
db.close();
if (rows.length === 0) throw new Error(`no snapshot of ${url}`);
process.stdout.write(`${JSON.stringify(rows.map(({ checks, ...row }) => row))}\n`);
