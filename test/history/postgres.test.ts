// The PostgreSQL driver of the history (src/history/postgres.ts) as the wire sees it: a loopback proxy in front of the
// test database counts the client's round trips (each simple Query or extended-protocol Sync is one), so the budget
// "at most one round trip per page of reports" is held where it is paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { postgresProxy } from '../helpers/pg-proxy.js';
import { postgresUnavailable, startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { runInProcess } from '../helpers/run.js';

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
