// The PostgreSQL driver of the history (src/history/postgres.ts) as the wire sees it: a loopback proxy in front of the
// test database counts the client's round trips (each simple Query or extended-protocol Sync is one), so the budget
// "at most one round trip per page of reports" is held where it is paid.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { postgresProxy } from '../helpers/pg-proxy.js';
import { postgresUnavailable, startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { runInProcess } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';
import type { HistoryError } from '../../src/history/errors.js';
import { openPostgres } from '../../src/history/postgres.js';

const pgMissing = postgresUnavailable();

describe.skipIf(pgMissing !== undefined && !process.env.CI)('the history on PostgreSQL, counted on the wire', () => {
  let db: TestDatabase;
  let small: MockFixture;
  let large: MockFixture;

  beforeAll(async () => {
    if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
    db = await startTestDatabase();
    [small, large] = await Promise.all([startMock({ seed: 100, rateLimit: 0 }), startMock({ seed: 500, rateLimit: 0 })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([small?.close(), large?.close()]);
    await db?.close();
  });

  it('recording `reports list --all` costs one round trip per page of reports, and a fixed few for the run', async () => {
    const counter = await postgresProxy(new URL(db.url));
    try {
      const history = counter.url(new URL(db.url));
      const recorded = async (mock: MockFixture) => {
        const before = counter.count();
        const run = await runInProcess({ argv: ['reports', 'list', '--all', '--record', '--history', history, '-q'], env: mock.env });
        expect(run.code, run.stderr).toBe(0);
        return { pages: Math.ceil(run.stdout.trim().split('\n').length / 100), roundTrips: counter.count() - before };
      };
      await recorded(small); // the schema made once, before counting
      const one = await recorded(small);
      const five = await recorded(large);
      console.info(`PostgreSQL round trips: ${one.roundTrips} for ${one.pages} page, ${five.roundTrips} for ${five.pages} pages`);
      expect([one.pages, five.pages]).toEqual([1, 5]);
      expect(five.roundTrips - one.roundTrips).toBe(five.pages - one.pages);
      expect(one.roundTrips).toBeLessThanOrEqual(5);
    } finally {
      await counter.close();
    }
  });
});

describe.skipIf(pgMissing !== undefined && !process.env.CI)("the PostgreSQL connection's settings and words", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
    db = await startTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('each statement is limited to 10 s on the server', async () => {
    const connection = await openPostgres(db.url, 'shown');
    try {
      expect((await connection.run('SHOW statement_timeout')).rows[0]).toEqual({ statement_timeout: '10s' });
    } finally {
      await connection.close();
    }
  });

  it('a parameter the server refuses is said as a bad connection parameter, not as a server out of reach', async () => {
    const url = new URL(db.url);
    url.searchParams.set('options', '-c statement_timeout=soon');
    const error = (await openPostgres(url.href, 'shown').catch((e: unknown) => e)) as HistoryError;
    expect(error.problem).toBe('bad-parameter');
    expect(error.message).toMatch(/^the history database shown refused a connection parameter \(/);
  });

  it("sslmode=require: the pg library's multi-line SECURITY WARNING never reaches the terminal; one line of rsapi's says it", async () => {
    const url = new URL(db.url);
    url.searchParams.set('sslmode', 'require');
    const config = mkdtempSync(join(tmpdir(), 'rsapi-pg-config-'));
    const result = await runCli(['history', 'runs', '--history', url.href], { env: { RSAPI_CONFIG_DIR: config } });
    expect(result.stderr).not.toMatch(/SECURITY WARNING|Warning:/);
    expect(result.stderr.split('\n').filter((line) => /taken as verify-full by the pg library/.test(line))).toHaveLength(1);
  });
});
