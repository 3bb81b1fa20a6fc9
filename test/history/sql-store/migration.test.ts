// Migration 5 (issue 45): a history of schema 3 or 4 (each snapshot whole, its checks as text; 4 adds a job's lock and
// journal tables on PostgreSQL) converted in place to the compact form, once, with a line saying so; answering as
// before (the answers same-answers.test.ts holds); and a conversion killed part-way leaves the history as it was,
// converted on the next open. On SQLite and PostgreSQL.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../../src/history/postgres.js';
import { readingHash } from '../../../src/history/snapshot.js';
import { JOB_SQL, MIGRATIONS, SCHEMA_VERSION, SQL, type SqlConnection } from '../../../src/history/sql.js';
import { openSqlite } from '../../../src/history/sqlite.js';
import type { Snapshot } from '../../../src/history/types.js';
import { emptyDatabase, postgresPerFile } from '../../helpers/postgres.js';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const ANSWERS = join(import.meta.dirname, 'answers');
const scratch = scratchMaker('rsapi-migration-');
const pg = postgresPerFile();

/** The export the answers were made from (same-answers.test.ts), its lines parsed. */
function exportedRuns(): { run: Record<string, unknown>; snapshots: Snapshot[] }[] {
  const text = readFileSync(join(ANSWERS, 'export.ndjson.txt'), 'utf8').replace(/^exit 0\n/, '');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/**
 * A history of schema 3 (or `version` 4: a job's tables too) written as the rsapi before issue 45 wrote one: its
 * migrations, then each run imported as its importRun did (a snapshot held with the same fields referenced, one held
 * under its key with others: the oldest referenced, any other inserted whole with its content hash).
 */
async function schema3(db: SqlConnection, runs = exportedRuns(), version: 3 | 4 = 3): Promise<void> {
  await db.run(SQL.createSchemaTable);
  await db.run('INSERT INTO history_schema (version) VALUES (?)', [version]);
  for (const migration of MIGRATIONS.slice(0, version)) for (const statement of migration(db.dialect)) await db.run(statement);
  for (const { run, snapshots } of runs) {
    const { rows } = await db.run(SQL.importRun, [
      String(run.started),
      String(run.recorded),
      String(run.finished),
      String(run.command),
      String(run.selection),
      String(run.origin),
      Number(run.exitCode),
      null,
      null,
      run.complete ? 1 : 0,
    ]);
    const runId = Number(rows[0]?.id);
    const byKey = new Map<string, Snapshot>();
    for (const snapshot of snapshots) byKey.set(`${snapshot.origin}\n${snapshot.reportId}\n${snapshot.generatedAt}`, snapshot);
    for (const s of byKey.values()) {
      const fields = [s.identity, s.project ?? null, s.score ?? null, s.label ?? null, s.checksText ?? null];
      const held = (
        await db.run(
          'SELECT id, identity, project, score, label, checks FROM history_snapshots WHERE origin = ? AND report_id = ? AND generated_at = ? ORDER BY id',
          [s.origin, s.reportId, s.generatedAt],
        )
      ).rows;
      const same = held.find((row) => JSON.stringify([row.identity, row.project, row.score, row.label, row.checks]) === JSON.stringify(fields));
      let id = Number((same ?? held[0])?.id);
      if (held.length === 0) {
        const added = await db.run(
          'INSERT INTO history_snapshots (origin, identity, report_id, project, score, label, generated_at, checks, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
          [
            s.origin,
            s.identity,
            s.reportId,
            s.project ?? null,
            s.score ?? null,
            s.label ?? null,
            s.generatedAt,
            s.checksText ?? null,
            readingHash(s.score ?? null, s.label ?? null, s.checksText ?? null),
          ],
        );
        id = Number(added.rows[0]?.id);
      }
      await db.run('INSERT INTO history_run_snapshots (run_id, snapshot_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [runId, id]);
      await db.run(SQL.countReports, [1, runId]);
    }
  }
}

const COMMANDS: readonly [string, string[]][] = [
  ['runs.json', ['runs', '--json']],
  ['show-5.json', ['show', '5', '--json']],
  ['show-5.tsv', ['show', '5', '-o', 'tsv']],
  ['diff-1-6.json', ['diff', '1', '6', '--json']],
  ['diff-last.csv', ['diff', '-o', 'csv']],
  ['trend-url.json', ['trend', 'site-0.example.com/page-3', '--check', 'title', '--service', 'all', '--json']],
  ['trend-project.json', ['trend', '--project', 'site-2.example.com', '--service', 'all', '--json']],
  ['export.ndjson', ['export']],
];

const rsapi = (history: string, ...argv: string[]) => runInProcess({ argv: ['history', ...argv, '--history', history], env: {} });

/** Opens the history of schema 3 through the CLI: converted once, said once, answering as before. */
async function holdMigration(history: string): Promise<void> {
  const first = await rsapi(history, 'runs', '--json');
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toMatch(/^rsapi: note: converting the history .* to its compact form, once \(\d+ snapshots\)\n$/);
  for (const [name, argv] of COMMANDS) {
    const { code, stdout, stderr } = await rsapi(history, ...argv);
    expect(stderr, name).toBe('');
    expect(`exit ${code}\n${stdout}`, name).toBe(readFileSync(join(ANSWERS, `${name}.txt`), 'utf8'));
  }
}

describe('migration 5: a history of schema 3 or 4 made compact in place', () => {
  it('on SQLite: converted once, with a line saying so, and answering byte for byte as before', async () => {
    const path = join(scratch(), 'history.db');
    const db = await openSqlite(path);
    await db.transaction(() => schema3(db));
    await db.close();
    await holdMigration(path);
  });

  it('on SQLite at schema 4 (no job tables there): the same', async () => {
    const path = join(scratch(), 'history.db');
    const db = await openSqlite(path);
    await db.transaction(() => schema3(db, exportedRuns(), 4));
    await db.close();
    await holdMigration(path);
  });

  it.skipIf(pg.missing !== undefined)(
    'on PostgreSQL: the same',
    async () => {
      const url = pg.url();
      await emptyDatabase(url);
      const db = await openPostgres(url, 'test');
      await db.transaction(() => schema3(db));
      await db.close();
      await holdMigration(url);
    },
    60_000,
  );

  it.skipIf(pg.missing !== undefined)(
    'on PostgreSQL at schema 4, a job journal in it: the same, the journal kept',
    async () => {
      const url = pg.url();
      await emptyDatabase(url);
      const db = await openPostgres(url, 'test');
      await db.transaction(async () => {
        await schema3(db, exportedRuns(), 4);
        await db.run(JOB_SQL.appendLine, ['shop-1', '{"kept":true}']);
      });
      await db.close();
      await holdMigration(url);
      const after = await openPostgres(url, 'test');
      try {
        expect((await after.run(JOB_SQL.journalLines, ['shop-1'])).rows).toEqual([{ line: '{"kept":true}' }]);
        expect((await after.run(SQL.schemaVersion)).rows).toEqual([{ version: SCHEMA_VERSION }]);
      } finally {
        await after.close();
      }
    },
    60_000,
  );

  it('killed part-way, the history is left at schema 3 whole, and converted on the next open', async () => {
    const path = join(scratch(), 'history.db');
    const db = await openSqlite(path);
    // 40,000 snapshots (the answers' runs again and again, each week of them a new run): seconds of conversion.
    const runs = exportedRuns();
    const many = Array.from({ length: 300 }, (_, copy) =>
      runs.map(({ run, snapshots }) => ({
        run: { ...run, started: new Date(Date.parse(String(run.started)) + copy * 60_000).toISOString() },
        snapshots: snapshots.map((s) => ({ ...s, reportId: `${copy}-${s.reportId}` })),
      })),
    ).flat();
    await db.transaction(() => schema3(db, many));
    await db.close();
    const count = () => {
      const file = new DatabaseSync(path, { readOnly: true });
      try {
        const version = Number((file.prepare('SELECT version FROM history_schema').get() as { version: number }).version);
        const snapshots = Number((file.prepare('SELECT COUNT(*) AS n FROM history_run_snapshots').get() as { n: number }).n);
        return { version, snapshots };
      } finally {
        file.close();
      }
    };
    const before = count();
    expect(before.version).toBe(3);
    // Killed once the conversion has said it started.
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../../bin/rsapi'), 'history', 'runs', '--history', path], {
      env: { ...process.env, RSAPI_CONFIG_DIR: scratch() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('compact form')) {
          setTimeout(() => child.kill('SIGKILL'), 150);
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(child.signalCode).toBe('SIGKILL');
    expect(count()).toEqual(before);
    const again = await rsapi(path, 'show', '1', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/converting the history/);
    expect(count()).toEqual({ version: SCHEMA_VERSION, snapshots: before.snapshots });
    const shown = JSON.parse(readFileSync(join(ANSWERS, 'show-1.json.txt'), 'utf8').replace(/^exit 0\n/, ''));
    expect(JSON.parse(again.stdout)).toHaveLength(shown.length);
  }, 120_000);
});
