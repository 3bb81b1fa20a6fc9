// --record and --history on the commands that read reports (src/cli/reading/recording.ts): what a run records, where,
// and that a history that cannot be used costs the run only its exit code (11), never its output.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', seed: 12 });
const scratch = scratchMaker('rsapi-record-');

function rows(path: string, sql: string): Record<string, unknown>[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('recording a run', () => {
  it('reports list --all --record keeps a complete run and one snapshot per report; a second run adds only references', async () => {
    const { env } = await mock();
    const path = join(scratch(), 'h.db');
    for (let i = 0; i < 2; i++) {
      const result = await runInProcess({ argv: ['reports', 'list', '--all', '--record', '--history', path, '--json'], env });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(12);
    }
    expect(rows(path, 'SELECT command, complete, exit_code, selection FROM history_runs')).toEqual([
      { command: 'reports list', complete: 1, exit_code: 0, selection: '{"all":true}' },
      { command: 'reports list', complete: 1, exit_code: 0, selection: '{"all":true}' },
    ]);
    expect(rows(path, 'SELECT COUNT(*) AS n FROM history_snapshots')).toEqual([{ n: 12 }]);
    expect(rows(path, 'SELECT COUNT(*) AS n FROM history_run_snapshots')).toEqual([{ n: 24 }]);
  });

  it('without --record nothing is recorded; RSAPI_RECORD=1 and `config set record true` record into the default file', async () => {
    const fixture = await mock();
    const data = scratch();
    const env = { ...fixture.env, XDG_DATA_HOME: data };
    const path = join(data, 'rsapi', 'history.db');
    expect((await runInProcess({ argv: ['reports', 'show', '1'], env })).code).toBe(0);
    expect(() => readFileSync(path)).toThrow();
    expect((await runInProcess({ argv: ['reports', 'show', '1'], env: { ...env, RSAPI_RECORD: '1' } })).code).toBe(0);
    expect((await runInProcess({ argv: ['config', 'set', 'record', 'true'], env })).code).toBe(0);
    expect((await runInProcess({ argv: ['reports', 'stats'], env })).code).toBe(0);
    expect(rows(path, 'SELECT command FROM history_runs ORDER BY id')).toEqual([{ command: 'reports show' }, { command: 'reports stats' }]);
    // RSAPI_RECORD=0 wins over the setting; a value that is neither is exit 2 before any request.
    expect((await runInProcess({ argv: ['reports', 'stats'], env: { ...env, RSAPI_RECORD: 'false' } })).code).toBe(0);
    expect(rows(path, 'SELECT command FROM history_runs')).toHaveLength(2);
    const requests = fixture.server.requests.length;
    const typo = await runInProcess({ argv: ['reports', 'stats'], env: { ...env, RSAPI_RECORD: 'yes' } });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^rsapi: RSAPI_RECORD=yes is not 1, true, 0 or false/);
    expect(fixture.server.requests.length).toBe(requests);
  });

  it('the CI context of a GitHub Actions job is recorded with the run', async () => {
    const fixture = await mock();
    const path = join(scratch(), 'h.db');
    const env = {
      ...fixture.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: 'abc123',
      GITHUB_REF_NAME: 'main',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_RUN_ID: '9',
    };
    expect((await runInProcess({ argv: ['reports', 'list', '--record', '--history', path], env })).code).toBe(0);
    const [run] = rows(path, 'SELECT ci FROM history_runs');
    expect(JSON.parse(String(run?.ci))).toEqual({ provider: 'github', commit: 'abc123', branch: 'main', job: 'https://github.com/o/r/actions/runs/9' });
  });
});

describe('history settings and help', () => {
  it('config set history keeps a URL whose password config list and get show masked; help exit-codes documents 11', async () => {
    const { env } = await mock();
    expect((await runInProcess({ argv: ['config', 'set', 'history', 'postgres://team:t0psecret@db.example.com/seo'], env })).code).toBe(0);
    const list = await runInProcess({ argv: ['config', 'list', '--json'], env });
    expect(JSON.parse(list.stdout).history).toBe('postgres://team:***@db.example.com/seo');
    expect((await runInProcess({ argv: ['config', 'get', 'history'], env })).stdout).not.toContain('t0psecret');
    expect((await runInProcess({ argv: ['help', 'exit-codes'], env })).stdout).toMatch(/11 +the output printed, but the history/);
  });

  it('a history path stored or given with a leading ~ is under HOME, as a shell would have it', async () => {
    const { env } = await mock();
    const home = scratch();
    const withHome = { ...env, HOME: home, RSAPI_CONFIG_DIR: join(home, 'config') };
    expect((await runInProcess({ argv: ['config', 'set', 'history', '~/seo/history.db'], env: withHome })).code).toBe(0);
    expect((await runInProcess({ argv: ['reports', 'list', '--record'], env: withHome })).code).toBe(0);
    expect((await runInProcess({ argv: ['reports', 'list', '--record', '--history=~/other.db'], env: withHome })).code).toBe(0);
    expect(rows(join(home, 'seo', 'history.db'), 'SELECT id FROM history_runs')).toHaveLength(1);
    expect(rows(join(home, 'other.db'), 'SELECT id FROM history_runs')).toHaveLength(1);
  });

  it('a password given in the query (?password=, once or twice) is masked by config list and get too', async () => {
    const { env } = await mock();
    const url = 'postgres://team@db.example.com/seo?sslmode=disable&password=hunter2&PASSWORD=hunter3';
    expect((await runInProcess({ argv: ['config', 'set', 'history', url], env })).code).toBe(0);
    const list = await runInProcess({ argv: ['config', 'list', '--json'], env });
    expect(JSON.parse(list.stdout).history).toBe('postgres://team@db.example.com/seo?sslmode=disable&password=***&PASSWORD=***');
    for (const argv of [
      ['config', 'list'],
      ['config', 'get', 'history'],
    ]) {
      const shown = await runInProcess({ argv, env });
      expect(shown.stdout + shown.stderr).not.toMatch(/hunter/);
    }
  });
});

describe('a history that cannot be used', () => {
  const cases = [
    {
      name: 'a file that is not SQLite',
      history: () => {
        const path = join(scratch(), 'notes.txt');
        writeFileSync(path, 'my notes, not a database\n');
        return path;
      },
      said: /is not a SQLite file; left untouched/,
    },
    { name: 'a malformed URL', history: () => 'postgres://u:s3cretpass@host:notaport/db', said: /is malformed/ },
    { name: 'a database server that is down', history: () => 'postgres://u:s3cretpass@127.0.0.1:1/db', said: /cannot be reached/ },
    { name: 'a URL of another database', history: () => 'mysql://u:s3cretpass@127.0.0.1/db', said: /neither a file path nor a postgres/ },
  ];
  it.each(cases)('$name: the reports print, one line says why, exit 11, and the password is never shown', async ({ history, said }) => {
    const { env } = await mock();
    const where = history();
    const before = where.includes('://') ? undefined : readFileSync(where);
    const result = await runInProcess({ argv: ['reports', 'list', '--record', '--history', where, '--json', '--verbose'], env });
    expect(result.code).toBe(11);
    expect(JSON.parse(result.stdout)).toHaveLength(10);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('rsapi: history:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(said);
    expect(result.stderr).not.toContain('s3cretpass');
    if (before) expect(readFileSync(where).equals(before)).toBe(true);
  });

  it.each(cases)(
    '$name under --baseline last (--max-drop): the reports print, one line says the baseline is not compared, exit 11',
    async ({ history, said }) => {
      const { env } = await mock();
      const where = history();
      const result = await runInProcess({ argv: ['reports', 'list', '--baseline', 'last', '--max-drop', '5', '--history', where, '--json'], env });
      expect(result.code).toBe(11);
      // A gate reads every page: all the reports, as without the history.
      const all = await runInProcess({ argv: ['reports', 'list', '--all', '--json'], env });
      expect(result.stdout).toBe(all.stdout);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('rsapi: history:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(said);
      expect(lines[0]).toMatch(/; --baseline last is not compared/);
      expect(result.stderr).not.toContain('s3cretpass');
    },
  );

  it('a read-only directory: exit 11 after the output', async () => {
    const { env } = await mock();
    // Root writes through a directory's mode: for root, sysfs is a directory no one may create a file in.
    const root = process.getuid?.() === 0;
    const dir = root ? '/sys' : join(scratch(), 'ro');
    if (!root) {
      mkdirSync(dir);
      chmodSync(dir, 0o500);
    }
    const result = await runInProcess({ argv: ['reports', 'list', '--record', '--history', join(dir, 'rsapi-history.db'), '--json'], env });
    if (!root) chmodSync(dir, 0o700);
    expect(result.code).toBe(11);
    expect(JSON.parse(result.stdout)).toHaveLength(10);
    expect(result.stderr).toMatch(/rsapi: history: the history .* cannot be written/);
  });

  it('a gate that failed keeps its exit 10 when the history fails too', async () => {
    const { env } = await mock();
    const result = await runInProcess({ argv: ['reports', 'list', '--record', '--history', 'postgres://u@127.0.0.1:1/db', '--fail-on', 'good'], env });
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/rsapi: history: .*cannot be reached/);
  });
});

describe('jobs', () => {
  it('a create from URL arguments keeps the selection key runs recorded before jobs had names', async () => {
    const { createJob } = await import('../../../src/cli/reading/recording.js');
    // The key as stored by the last version: a hash of the identities, their count, and the share.
    expect(createJob({ urls: ['https://a.example/x', 'https://b.example/'] }, ['https://a.example/x', 'https://b.example/'])).toEqual({
      input: createHash('sha256').update('a.example/x\nb.example').digest('hex').slice(0, 16),
      urls: 2,
      shard: undefined,
    });
    // A sitemap or a file is its job by name: a page more or less keeps it.
    expect(createJob({ urls: [], fromSitemap: ['https://a.example/'], include: ['a.example/blog/**'] }, ['https://a.example/1'])).toEqual(
      createJob({ urls: [], fromSitemap: ['https://a.example/'], include: ['a.example/blog/**'] }, ['https://a.example/1', 'https://a.example/2']),
    );
  });

  it('--baseline last without --record and no earlier run: exit 4, naming the job and the way to start its history', async () => {
    const { env, server } = await mock();
    const path = join(scratch(), 'h.db');
    const first = await runInProcess({ argv: ['reports', 'list', '--all', '--baseline', 'last', '--history', path, '--json'], env });
    expect(first.code).toBe(4);
    expect(first.stderr).toContain('no earlier run of this job');
    expect(first.stderr).toContain('hint: run the same command with --record: its first run starts the job');
    expect(server.requests).toHaveLength(0);
  });

  it('--job names the job across commands and inputs; a run that read nothing is never the baseline', async () => {
    const { env } = await mock();
    const dir = scratch();
    const path = join(dir, 'h.db');
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const job = ['--job', 'weekly', '--record', '--history', path, '--baseline', 'last', '--fail-on-new-failures'];
    const week1 = await runInProcess({ argv: ['reports', 'list', '--all', ...job, '-q'], env });
    expect(week1.code, week1.stderr).toBe(0);
    expect(week1.stderr).toContain(`rsapi: first run of job weekly: nothing compared; this run starts its history in ${path}`);
    // An empty input: the gate over nothing fails (it passed, exit 0, before), and the run reads no report.
    const week2 = await runInProcess({ argv: ['reports', 'create', '--from-file', empty, ...job, '-q'], env });
    expect(week2.code, week2.stderr).toBe(10);
    expect(week2.stderr).toContain(`rsapi: gate failed: ${empty} holds no URL: a gate over nothing proves nothing`);
    const week3 = await runInProcess({ argv: ['reports', 'list', '--all', ...job, '-q'], env: { ...env, RSAPI_JOB: 'ignored when --job is given' } });
    expect(week3.code, week3.stderr).toBe(0);
    expect(rows(path, 'SELECT id, selection, complete FROM history_runs ORDER BY id')).toEqual([
      { id: 1, selection: '{"job":"weekly"}', complete: 1 },
      { id: 2, selection: '{"job":"weekly"}', complete: 1 },
      { id: 3, selection: '{"job":"weekly"}', complete: 1 },
    ]);
    expect(week3.stderr).toContain('run 1 of the history');
    // Another job's run in between: history diff --job and trend --job keep to the job's runs that read reports.
    expect((await runInProcess({ argv: ['reports', 'list', '--all', '--record', '--history', path, '--job', 'other', '-q'], env })).code).toBe(0);
    const diff = await runInProcess({ argv: ['history', 'diff', '--job', 'weekly', '--history', path, '--json'], env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ from: { id: 1 }, to: { id: 3 } });
    const identity = (JSON.parse((await runInProcess({ argv: ['reports', 'list', '--limit', '1', '--json'], env })).stdout) as { url: string }[])[0]?.url;
    const trend = await runInProcess({ argv: ['history', 'trend', identity as string, '--job', 'weekly', '--history', path, '--json'], env });
    expect(trend.code, trend.stderr).toBe(0);
    expect((JSON.parse(trend.stdout) as { run: number }[]).map((point) => point.run)).toEqual([1, 3]);
    // --allow-empty lets the empty week pass.
    const allowed = await runInProcess({ argv: ['reports', 'create', '--from-file', empty, ...job, '--allow-empty', '-q'], env });
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it('a first run says so on stderr, as a ::warning on GitHub Actions, and in the summary and JUnit; a verdict, not "no gate set"', async () => {
    const { env } = await mock();
    const dir = scratch();
    const path = join(dir, 'h.db');
    const [summary, junit] = [join(dir, 'summary.md'), join(dir, 'junit.xml')];
    const argv = ['reports', 'list', '--all', '--job', 'weekly', '--record', '--history', path, '--baseline', 'last', '--fail-on-new-failures', '-q'];
    const first = await runInProcess({ argv: [...argv, '--summary', summary, '--junit', junit], env: { ...env, GITHUB_ACTIONS: 'true' } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`rsapi: first run of job weekly: nothing compared; this run starts its history in ${path}`);
    expect(first.stderr).toContain(`::warning title=rsapi::first run of job weekly: nothing compared; this run starts its history in ${path}`);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('**Verdict: passed.**\n\n- first run of job weekly: nothing compared\n');
    expect(text).not.toContain('no gate set');
    expect(readFileSync(junit, 'utf8')).toContain('<property name="baseline" value="first run of job weekly: nothing compared"/>');
    // The next run compares, and says nothing of a first run; its verdict counts the URLs it compared.
    writeFileSync(summary, '');
    const second = await runInProcess({ argv: [...argv, '--summary', summary], env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('first run');
    expect(second.stderr).toContain('since run 1 of the history');
    expect(readFileSync(summary, 'utf8')).toContain('- checks against the baseline passed: 0 newly failing of 12 URLs compared (--fail-on-new-failures)');
  });

  it('--require-baseline: no earlier run of the job is exit 4 before any report is read, naming the job and the history', async () => {
    const { env, server } = await mock();
    const dir = scratch();
    const path = join(dir, 'h.db');
    const argv = ['reports', 'list', '--all', '--job', 'weekly', '--record', '--history', path, '--baseline', 'last', '--require-baseline', '-q'];
    const none = await runInProcess({ argv, env });
    expect(none.code).toBe(4);
    expect(none.stderr).toContain(`rsapi: no earlier run of job weekly to compare with: no history at ${path} (--require-baseline)`);
    expect(none.stderr).toContain('hint: if the job ran before, its history was lost');
    expect(server.requests).toHaveLength(0);
    // A history holding another job's run: still none of this one's.
    expect((await runInProcess({ argv: ['reports', 'list', '--all', '--job', 'other', '--record', '--history', path, '-q'], env })).code).toBe(0);
    const requests = server.requests.length;
    const other = await runInProcess({ argv, env });
    expect(other.code).toBe(4);
    expect(other.stderr).toContain(`rsapi: no earlier run of job weekly to compare with: none in ${path} on ${env.RSAPI_BASE_URL}`);
    expect(server.requests).toHaveLength(requests);
    expect(rows(path, 'SELECT selection FROM history_runs')).toEqual([{ selection: '{"job":"other"}' }]);
    // Once the job has a run, it compares.
    expect((await runInProcess({ argv: argv.filter((word) => word !== '--require-baseline'), env })).code).toBe(0);
    const compared = await runInProcess({ argv, env });
    expect(compared.code, compared.stderr).toBe(0);
    // Without --baseline it has nothing to require: exit 2 before any request.
    const alone = await runInProcess({ argv: ['reports', 'list', '--require-baseline'], env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--require-baseline needs --baseline');
  });

  it('RSAPI_JOB names the job; a blank or control-character name is exit 2 before any request', async () => {
    const { env, server } = await mock();
    const path = join(scratch(), 'h.db');
    const named = await runInProcess({ argv: ['reports', 'list', '--all', '--record', '--history', path, '-q'], env: { ...env, RSAPI_JOB: 'nightly' } });
    expect(named.code, named.stderr).toBe(0);
    expect(rows(path, 'SELECT selection FROM history_runs')).toEqual([{ selection: '{"job":"nightly"}' }]);
    const requests = server.requests.length;
    const bad = await runInProcess({ argv: ['reports', 'list', '--record', '--history', path, '--job', 'a\u0007b'], env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("a job's name is 1 to 200 printable characters");
    expect(server.requests).toHaveLength(requests);
  });
});

describe('the history plan (planHistory): refused before any request, under --dry-run too', () => {
  it.each([
    { name: 'a bad --job', argv: ['--job', 'a\u0001b'], env: {}, says: /^rsapi: --job "a\\u0001b": a job's name is 1 to 200 printable characters$/m },
    { name: 'a bad RSAPI_JOB', argv: [], env: { RSAPI_JOB: 'x\u202ey' }, says: /^rsapi: RSAPI_JOB "x\\u202ey": a job's name/m },
    { name: 'a bad RSAPI_RECORD', argv: [], env: { RSAPI_RECORD: 'yes' }, says: /^rsapi: RSAPI_RECORD=yes is not 1, true, 0 or false$/m },
  ])('$name: exit 2, and neither the sitemap nor the service is asked anything', async ({ argv, env, says }) => {
    const { startRawServer } = await import('../../helpers/raw-server.js');
    const site = await startRawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>');
    });
    const fixture = await mock();
    try {
      for (const dryRun of [[], ['--dry-run']]) {
        const create = ['reports', 'create', '--from-sitemap', `${site.url}/sitemap.xml`, '--allow-host', 'a.example', ...dryRun, ...argv];
        const result = await runInProcess({ argv: create, env: { ...fixture.env, ...env } });
        expect([result.code, result.stderr], create.join(' ')).toEqual([2, expect.stringMatching(says)]);
      }
      const listed = await runInProcess({ argv: ['reports', 'list', '--all', ...argv], env: { ...fixture.env, ...env } });
      expect([listed.code, listed.stderr]).toEqual([2, expect.stringMatching(says)]);
      expect(site.requests).toEqual([]);
      expect(fixture.server.requests).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
