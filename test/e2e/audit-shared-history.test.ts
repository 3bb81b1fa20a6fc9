// `rsapi audit` of one job by two runners (two processes, two HOMEs: two CI machines) on one PostgreSQL history: the
// job's lock and journal are in the history, so the second runner is refused naming the first, or waits for it, and a
// run killed on one runner resumes on the other; no page is ever created twice, and a killed runner's lock is freed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type CliResult } from '../helpers/cli.js';
import { mockPerTest, posts, reportsPerPage, type MockFixture } from '../helpers/mock.js';
import { postgresPerFile } from '../helpers/postgres.js';
import { scratchMaker } from '../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 0 });
const database = postgresPerFile();
const scratch = scratchMaker('rsapi-audit-shared-');
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

const PAGES = Array.from({ length: 30 }, (_, index) => `https://shop.example.org/p/${index + 1}`);
const ONCE_EACH = new Map(PAGES.map((page) => [page.replace('https://', ''), 1]));

/** A CI machine of its own: a home, data and settings folder, and the job's file (job `shop`, the 30 pages). */
function runner(): string {
  const home = scratch();
  mkdirSync(join(home, 'config'));
  writeFileSync(join(home, 'rsapi.config.json'), JSON.stringify({ audit: { job: 'shop', urls: PAGES } }));
  return home;
}

/** `rsapi audit ARGS` on `home`'s machine against `service`, recording into the shared history; its output gathered. */
function startAudit(home: string, service: MockFixture, ...args: string[]) {
  const env = {
    ...service.env,
    RSAPI_CONFIG_DIR: join(home, 'config'),
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    RSAPI_HISTORY: database.url(),
  };
  const { child, done } = startCli(['audit', '--config', join(home, 'rsapi.config.json'), ...args], { cwd: home, env });
  const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
  stops.push(() => {
    clearTimeout(guard);
    child.kill('SIGKILL');
  });
  return { child, done };
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The history's complete runs of the job on `service`, as the history holds them. */
async function completeRuns(service: MockFixture): Promise<number> {
  const client = new pg.Client({ connectionString: database.url() });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT COUNT(*) AS n FROM history_runs WHERE complete = 1 AND selection = '{"job":"shop"}' AND origin LIKE $1`, [
      `%:${new URL(service.server.url).port}%`,
    ]);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

describe.skipIf(database.missing !== undefined && !process.env.CI)('rsapi audit of one job by two runners on one PostgreSQL history', () => {
  it('started at once: one audits every page, the other is refused with exit 2 naming it (host, pid, since); each page is created once', async () => {
    const service = await mock({ latencyMs: 50 });
    const [a, b] = [startAudit(runner(), service, '--concurrency', '4'), startAudit(runner(), service, '--concurrency', '4')];
    const results = await Promise.all([a.done, b.done]);
    const winner = results.findIndex((result) => result.code === 0);
    expect(results.map((result) => result.code).sort(), results.map((result) => result.stderr).join('\n---\n')).toEqual([0, 2]);
    const refused = results[1 - winner] as CliResult;
    const holder = [a, b][winner]?.child.pid;
    expect(refused.stderr).toMatch(
      new RegExp(
        `another \`rsapi audit\` of job shop is running \\(pid ${holder} on host ${hostname()} since \\d{4}-[^)]+ \\(\\d+ s ago\\)\\); ` +
          'its lock is in the history postgres://',
      ),
    );
    expect(refused.stderr).toContain('--lock-wait');
    expect(reportsPerPage(service)).toEqual(ONCE_EACH);
    expect(await completeRuns(service)).toBe(1);
  }, 120_000);

  it('with --lock-wait the second waits for the first, then audits the job again: each page still created once', async () => {
    const service = await mock({ latencyMs: 50 });
    const first = startAudit(runner(), service, '--lock-wait', '5m');
    await until(() => posts(service) > 0);
    const second = startAudit(runner(), service, '--lock-wait', '5m');
    const [one, two] = await Promise.all([first.done, second.done]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toMatch(
      new RegExp(`another \`rsapi audit\` of job shop is running \\(pid ${first.child.pid} on host .*\\): waiting up to 5 minutes for it to end`),
    );
    // The second ran after the first had ended: it refreshed the pages (the audit's --existing refresh), created none.
    const [, runOne] = /recorded as run (\d+)/.exec(one.stdout) ?? [];
    expect(two.stdout.split('\n')[0]).toMatch(new RegExp(`^audit shop: 30 pages audited, recorded as run \\d+, compared with run ${runOne}$`));
    expect(reportsPerPage(service)).toEqual(ONCE_EACH);
  }, 120_000);

  it('killed half-way on runner A, run on runner B (another HOME): the lock is free at once, B resumes from the history, no page twice', async () => {
    const service = await mock({ latencyMs: 100 });
    const killed = startAudit(runner(), service, '--concurrency', '2');
    await until(() => posts(service) >= 8);
    killed.child.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');
    const created = posts(service);
    expect(created).toBeLessThan(PAGES.length);

    // No wait: a lock that outlived its runner would refuse B with exit 2.
    const resumed = await startAudit(runner(), service).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/rsapi: resuming the journal of job shop in postgres:\/\/\S+ of \d+ s ago: skipping \d+ URLs already created/);
    expect(resumed.stdout.split('\n')[0]).toMatch(/^audit shop: 30 pages audited, recorded as run \d+/);
    expect(reportsPerPage(service)).toEqual(ONCE_EACH);

    // The run ended: the next week's audit on runner A starts afresh, skipping nothing.
    const nextWeek = await startAudit(runner(), service).done;
    expect(nextWeek.code, nextWeek.stderr).toBe(0);
    expect(nextWeek.stderr).not.toContain('already created');
    expect(reportsPerPage(service)).toEqual(ONCE_EACH);
  }, 120_000);
});
