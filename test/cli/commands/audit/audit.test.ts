// `rsapi audit` in-process against the phpRank mock: --init's file, flags over the file, its JSON answer and -q, mistakes
// before any request, and the journal kept beside the history per job, service and history, its lock taken over from a
// reused pid; and its plan (argv -> plan, no server). A killed, interrupted or overlapping audit: test/e2e/audit-process.test.ts.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mockPerTest } from '../../../helpers/mock.js';
import { sendJson, sendText, startRawServer } from '../../../helpers/raw-server.js';
import { runInProcess } from '../../../helpers/run.js';
import { scratchMaker } from '../../../helpers/scratch.js';
import { planOf } from '../../../helpers/plan.js';
import { planAudit } from '../../../../src/cli/commands/audit/audit.js';
import { startFailingFront } from '../../../helpers/failing-front.js';

const scratch = scratchMaker('rsapi-audit-');
const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

async function setup(audit: Record<string, unknown>) {
  const fixture = await mock();
  const home = scratch();
  const config = join(home, 'site.json');
  writeFileSync(config, JSON.stringify({ audit }, null, 2));
  const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
  const rsapi = (...argv: string[]) => runInProcess({ argv: ['audit', '--config', config, ...argv], env });
  return { fixture, home, config, env, rsapi };
}

describe('rsapi audit', () => {
  it('--init writes a starter file and never overwrites one', async () => {
    const home = scratch();
    const config = join(home, 'rsapi.config.json');
    const first = await runInProcess({ argv: ['audit', '--init', 'https://shop.example.org/', '--config', config], env: { HOME: home } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`wrote ${config}`);
    const written = JSON.parse(readFileSync(config, 'utf8'));
    expect(written.audit).toMatchObject({ job: 'shop.example.org', sitemaps: ['https://shop.example.org/'] });
    // ./node_modules/rsapi/... pointed nowhere outside a project that installed rsapi: the schema is found where it is.
    expect(existsSync(new URL(written.$schema, pathToFileURL(config)))).toBe(true);
    const again = await runInProcess({ argv: ['audit', '--init', 'https://shop.example.org/', '--config', config], env: { HOME: home } });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists; rsapi audit --init writes a new file only');
  });

  it('records under its job, compares with its last run, answers --json, and flags override the file', async () => {
    const { fixture, home, rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'], failOnNewFailures: true });
    const first = await rsapi('--json');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      job: 'shop',
      exitCode: 0,
      pages: 2,
      input: 2,
      notAudited: [],
      interrupted: false,
      run: 1,
      new: [],
      vanished: [],
      comparedEarlier: [],
      newlyFailing: [],
      regressions: [],
      files: [],
    });
    const html = join(home, 'week.html');
    const second = await rsapi('--json', '--html', html, '--exclude', 'shop.example.org/b');
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ job: 'shop', pages: 1, run: 2, baseline: 1, new: [], vanished: ['shop.example.org/b'], files: [html] });
    expect(existsSync(html)).toBe(true);
    // --existing refresh by default: one report per page, refreshed, never a second.
    const stored = fixture.server.reports().map((report) => report.url);
    for (const page of ['shop.example.org/a', 'shop.example.org/b']) expect(stored.filter((url) => url === page)).toHaveLength(1);
    // Recorded as the audit it was, under its named job: `reports create --job shop` would share its history.
    const runs = await runInProcess({
      argv: ['history', 'runs', '--json', '--history', join(home, 'data', 'rsapi', 'history.db')],
      env: { ...fixture.env, HOME: home },
    });
    expect((JSON.parse(runs.stdout) as { command: string; selection: unknown }[]).map((run) => [run.command, run.selection])).toEqual([
      ['audit', { job: 'shop' }],
      ['audit', { job: 'shop' }],
    ]);
    // The journal lives beside the history file, one per job, service and history.
    const journals = readdirSync(join(home, 'data', 'rsapi')).filter((name) => name.includes('.journal'));
    expect(journals).toEqual([expect.stringMatching(/^history\.db\.audit-shop-[0-9a-f]{12}\.journal$/)]);
  });

  it('-q prints the run id alone, as -q prints identifiers elsewhere', async () => {
    const { rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a'] });
    const first = await rsapi('-q');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('1\n');
    expect((await rsapi('-q')).stdout).toBe('2\n');
    const both = await rsapi('-q', '--json');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --json or -q, not both');
  });

  it('--json says why a run failed: the pages newly failing with their checks, and the regressions', async () => {
    // Every re-audit flips every check: what passed fails now, and the pages that passed most fall.
    const fixture = await mock({ drift: 1 });
    const home = scratch();
    const config = join(home, 'site.json');
    const urls = ['https://shop.example.org/', 'https://shop.example.org/a', 'https://shop.example.org/b'];
    writeFileSync(config, JSON.stringify({ audit: { job: 'shop', urls, failOnNewFailures: true } }));
    const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
    expect((await runInProcess({ argv: ['audit', '--config', config], env })).code).toBe(0);
    const second = await runInProcess({ argv: ['audit', '--config', config, '--json'], env });
    expect(second.code).toBe(10);
    const result = JSON.parse(second.stdout) as {
      exitCode: number;
      newlyFailing: { url: string; checks: string[] }[];
      regressions: { url: string; drop?: number }[];
    };
    expect(result.exitCode).toBe(10);
    expect(result.newlyFailing.length).toBeGreaterThan(0);
    for (const page of result.newlyFailing) {
      expect(urls.map((url) => url.replace('https://', '').replace(/\/$/, ''))).toContain(page.url);
      expect(page.checks.length).toBeGreaterThan(0);
      expect(page.checks.every((check) => typeof check === 'string' && check !== '')).toBe(true);
    }
    expect(result.regressions.length).toBeGreaterThan(0);
    expect(result.regressions[0]).toMatchObject({ url: expect.any(String), before: { score: expect.any(Number) }, now: { score: expect.any(Number) } });
  });

  it('a page that could not be audited in the baseline run is compared with its last reading before it, never new: its regression fails the gate', async () => {
    const pages = ['https://shop.example.org/a', 'https://shop.example.org/b', 'https://shop.example.org/c', 'https://shop.example.org/d'];
    const { fixture, env, rsapi } = await setup({ job: 'shop', urls: pages, maxDrop: 5 });
    // A gateway in front of the mock: this week's refreshes of `failing` pages are refused, this week's `lowered` pages score 20.
    const week = { failing: new Set<string>(), lowered: new Set<string>() };
    const idOf = (page: string) => String(fixture.server.reports().find((report) => `https://${report.url}` === page)?.id);
    const lower = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(lower);
      if (typeof value !== 'object' || value === null) return value;
      const object = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, lower(inner)]));
      return week.lowered.has(`https://${String(object.url)}`) ? { ...object, result: 20 } : object;
    };
    const front = await startRawServer(async (request, response) => {
      const refreshOf = /\/reports\/(\d+)$/.exec(request.url.split('?')[0] ?? '')?.[1];
      if (request.method !== 'GET' && refreshOf !== undefined && [...week.failing].some((page) => idOf(page) === refreshOf)) {
        return sendJson(response, 422, { message: 'The given data was invalid.', errors: { url: ['The page could not be fetched.'] } });
      }
      const answer = await fetch(`${fixture.server.url}${request.url}`, {
        method: request.method,
        headers: {
          authorization: String(request.headers.authorization),
          accept: 'application/json',
          'content-type': String(request.headers['content-type'] ?? ''),
        },
        body: request.method === 'GET' ? undefined : request.body,
      });
      const text = await answer.text();
      const json = answer.headers.get('content-type')?.includes('json') && text !== '' ? JSON.stringify(lower(JSON.parse(text))) : text;
      sendText(response, answer.status, json, answer.headers.get('content-type') ?? 'application/json');
    });
    onTestFinished(() => front.close());
    Object.assign(env, { RSAPI_BASE_URL: front.url });

    const first = await rsapi('--json');
    expect(first.code, first.stderr).toBe(0);
    // Week 2: b and c cannot be audited; the run ends 5 and is recorded complete, holding a and d alone.
    week.failing = new Set([pages[1]!, pages[2]!]);
    const second = await rsapi('--json');
    expect(second.code, second.stderr).toBe(5);
    expect(JSON.parse(second.stdout)).toMatchObject({ run: 2, baseline: 1, pages: 2 });
    // Week 3: b is audited again and fell from its week-1 score to 20.
    week.failing = new Set();
    week.lowered = new Set([pages[1]!]);
    const third = await rsapi('--json');
    expect(third.code, third.stderr).toBe(10);
    const result = JSON.parse(third.stdout) as {
      baseline: number;
      new: string[];
      comparedEarlier: { url: string; run: number }[];
      regressions: { url: string; now: { score: number } }[];
    };
    expect(result.baseline).toBe(2);
    expect(result.new).toEqual([]);
    expect(result.comparedEarlier).toEqual([
      { url: 'shop.example.org/b', run: 1 },
      { url: 'shop.example.org/c', run: 1 },
    ]);
    expect(result.regressions).toEqual([expect.objectContaining({ url: 'shop.example.org/b', now: { score: 20, result: 'bad' } })]);
    expect(third.stderr).toContain("rsapi:   compared earlier: shop.example.org/b with run 1's reading: it could not be audited in run 2");
    expect(third.stderr).toContain("rsapi:   compared earlier: shop.example.org/c with run 1's reading: it could not be audited in run 2");
    expect(third.stderr).not.toMatch(/rsapi: {3}new: /);
  });

  it("a history that cannot be read for the job's last run says what failed, never 'no earlier run to compare with'", async () => {
    const { home, rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'] });
    const first = await rsapi();
    expect(first.code, first.stderr).toBe(0);
    // The history damaged since: its schema's page overwritten, as a disk that failed leaves it.
    const history = join(home, 'data', 'rsapi', 'history.db');
    const bytes = readFileSync(history);
    bytes.fill(0x41, 100, 4096);
    writeFileSync(history, bytes);
    const second = await rsapi();
    expect(second.code, second.stderr).toBe(11);
    const line = second.stdout.split('\n')[0];
    expect(line).toMatch(new RegExp(`^audit shop: 2 pages audited \\(not recorded\\); not compared with the job's last run: the history ${history}`));
    expect(second.stdout).not.toContain('no earlier run');
  });

  it("keeps a journal for each service: an audit of the same job on another service never takes the first one's pages for done", async () => {
    const production = await mock();
    const staging = await mock();
    const home = scratch();
    const config = join(home, 'site.json');
    writeFileSync(config, JSON.stringify({ audit: { job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'] } }));
    const run = (fixture: typeof production) =>
      runInProcess({ argv: ['audit', '--config', config, '--json'], env: { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') } });
    // A production run's journal as a killed run leaves it: both pages created, the run not ended.
    expect((await run(production)).code).toBe(0);
    const [journal] = readdirSync(join(home, 'data', 'rsapi')).filter((name) => name.endsWith('.journal'));
    const path = join(home, 'data', 'rsapi', journal as string);
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !line.includes('"ended"'))
        .join('\n'),
    );
    const onStaging = await run(staging);
    expect(onStaging.code, onStaging.stderr).toBe(0);
    expect(JSON.parse(onStaging.stdout)).toMatchObject({ pages: 2, input: 2, notAudited: [] });
    expect(onStaging.stderr).not.toContain('already created');
    expect(staging.server.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
  });

  it.skipIf(process.platform !== 'linux')('a lock whose pid is now another process (its start time differs) is taken over, saying so in one line', async () => {
    const { rsapi, home } = await setup({ job: 'shop', urls: ['https://shop.example.org/a'] });
    expect((await rsapi()).code).toBe(0);
    const [journal] = readdirSync(join(home, 'data', 'rsapi')).filter((name) => name.endsWith('.journal'));
    const lockPath = join(home, 'data', 'rsapi', `${journal}.lock`);
    // A live process of another start time holds the pid the lock names: a pid reused since the lock was taken.
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    onTestFinished(() => void other.kill());
    const since = new Date(Date.now() - 2 * 86_400_000).toISOString();
    writeFileSync(lockPath, `${other.pid}\nsome-token\nhost ${hostname()}\nstart 1\nsince ${since}\n`);
    const result = await rsapi();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `rsapi: took over the lock ${lockPath} of pid ${other.pid} on host ${hostname()} since ${since} (2 d ago): pid ${other.pid} is another process now`,
    );
    expect(existsSync(lockPath)).toBe(false);
  });

  it('prints what it did as lines: pages, run, baseline, how many new and vanished (named once, on stderr), files', async () => {
    const { rsapi, config } = await setup({ urls: ['https://shop.example.org/a'] });
    expect((await rsapi()).code).toBe(0);
    writeFileSync(config, JSON.stringify({ audit: { urls: ['https://shop.example.org/b'] } }));
    const second = await rsapi();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      ['audit shop.example.org: 1 page audited, recorded as run 2, compared with run 1', 'pages: 1 new, 1 vanished since run 1', ''].join('\n'),
    );
    const named = `${second.stdout}${second.stderr}`;
    expect(named.match(/new: shop\.example\.org\/b/g)).toHaveLength(1);
    expect(named.match(/vanished: shop\.example\.org\/a/g)).toHaveLength(1);
  });

  it('on a terminal of 40 columns its lines break at words, continued two columns in; in a pipe each stays whole', async () => {
    const { rsapi, config, env } = await setup({ job: 'shop', urls: ['https://shop.example.org/a'] });
    expect((await rsapi()).code).toBe(0);
    const week = await runInProcess({ argv: ['audit', '--config', config], env, tty: true, columns: 40 });
    expect(week.code, week.stderr).toBe(0);
    const lines = week.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.filter((line) => line.length > 40)).toEqual([]);
    expect(lines.slice(1).filter((line) => !line.startsWith('  '))).toEqual([]);
    expect(week.stdout.replace(/\n {2}/g, ' ')).toBe('audit shop: 1 page audited, recorded as run 2, compared with run 1\n');
    const piped = await rsapi();
    expect(piped.stdout).toBe('audit shop: 1 page audited, recorded as run 3, compared with run 2\n');
  });

  it('a passing week is a few lines: no journal notice, no zero counts, no flag the user never typed', async () => {
    const { rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'], failOnNewFailures: true });
    const first = await rsapi();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('rsapi: first run of job shop: nothing compared; this run starts its history in ');
    expect(first.stderr).not.toContain('--baseline');
    const week = await rsapi();
    expect(week.code, week.stderr).toBe(0);
    expect(week.stderr).not.toMatch(/journal|skipped 0|--baseline|first run/);
    expect(week.stderr.trim().split('\n')).toEqual([
      'created 0, refreshed 2 (had a report: re-audited), failed 0',
      expect.stringMatching(/^rsapi: baseline passed: 0 checks newly failing since run 1 of the history/),
    ]);
    expect(week.stdout).toBe('audit shop: 2 pages audited, recorded as run 2, compared with run 1\n');
    // -v still tells of the journal started afresh.
    expect((await rsapi('-v')).stderr).toContain('is of a run that ended');
  });

  it('a first run over pages that all had reports warns that the history may have been lost, naming it; requireBaseline makes it exit 4', async () => {
    const { fixture, home, config, rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'] });
    const history = join(home, 'data', 'rsapi', 'history.db');
    const summary = join(home, 'summary.md');
    expect((await rsapi()).code).toBe(0);
    // The runner lost its folders: the service still holds the pages, the history is gone.
    rmSync(join(home, 'data'), { recursive: true });
    const lost = await rsapi('--summary', summary);
    expect(lost.code, lost.stderr).toBe(0);
    expect(lost.stderr).toContain(
      `rsapi: warning: 2 of 2 pages had a report already: if job shop ran before, its history may have been lost (looked for in ${history})`,
    );
    expect(readFileSync(summary, 'utf8')).toContain('- 2 of 2 pages had a report already: if job shop ran before, its history may have been lost');
    // With requireBaseline, the same lost history is exit 4, before any page is audited.
    rmSync(join(home, 'data'), { recursive: true });
    writeFileSync(config, JSON.stringify({ audit: { job: 'shop', urls: ['https://shop.example.org/a'], requireBaseline: true } }));
    const requests = fixture.server.requests.length;
    const required = await rsapi();
    expect(required.code).toBe(4);
    expect(required.stderr).toContain(`rsapi: no earlier run of job shop to compare with: no history at ${history} (--require-baseline)`);
    expect(fixture.server.requests).toHaveLength(requests);
    // A job's very first run: --no-require-baseline over the file's key.
    expect((await rsapi('--no-require-baseline')).code).toBe(0);
    expect((await rsapi()).code).toBe(0);
  });

  it('an empty sitemap fails (exit 10) saying "the sitemap listed no page" on stderr and in every file, whatever the gates', async () => {
    const site = await startRawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>');
    });
    try {
      for (const failOnNewFailures of [true, false]) {
        const { home, rsapi } = await setup({ job: 'shop', sitemaps: [`${site.url}/sitemap.xml`], failOnNewFailures });
        const files = { html: join(home, 'a.html'), summary: join(home, 's.md'), junit: join(home, 'j.xml'), codequality: join(home, 'cq.json') };
        const argv = Object.entries(files).flatMap(([flag, path]) => [`--${flag}`, path]);
        const result = await rsapi(...argv);
        expect(result.code, result.stderr).toBe(10);
        expect(result.stderr).toContain('rsapi: gate failed: the sitemap listed no page: a gate over nothing proves nothing (--allow-empty lets it pass)');
        expect(result.stderr).not.toContain('--from-file');
        const verdict = 'the sitemap listed no page: a gate over nothing proves nothing';
        expect(readFileSync(files.summary, 'utf8')).toContain(`**Verdict: failed** (exit 10).\n\n- ${verdict}`);
        expect(readFileSync(files.html, 'utf8')).toContain(`<li>${verdict}`);
        expect(readFileSync(files.junit, 'utf8')).toContain(`<failure message="${verdict}`);
        expect(JSON.parse(readFileSync(files.codequality, 'utf8'))).toEqual([expect.objectContaining({ description: expect.stringContaining(verdict) })]);
        const allowed = await rsapi('--allow-empty');
        expect(allowed.code, allowed.stderr).toBe(0);
      }
    } finally {
      await site.close();
    }
  });

  it('refuses a mistake in the file before any request, naming the file and line', async () => {
    const { fixture, rsapi } = await setup({ urls: ['https://shop.example.org/a'], maxDorp: 3 });
    const result = await rsapi();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/site\.json:6: unknown key "maxDorp" in "audit"; did you mean "maxDrop"\?/);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a misspelt "assert" beside the section is exit 2 naming it, never a run with every assertion off', async () => {
    const { fixture, config, rsapi } = await setup({});
    writeFileSync(config, JSON.stringify({ audit: { urls: ['https://shop.example.org/a'] }, asserts: [{ minScore: 100 }] }, null, 2));
    const result = await rsapi();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/site\.json:7: unknown key "asserts"; did you mean "assert"\?/);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a history in a folder it cannot write is exit 11 in one line, before any request (was an unexpected error)', async () => {
    const { fixture, home, rsapi } = await setup({ urls: ['https://shop.example.org/a'] });
    // Root writes through a directory's mode: for root, sysfs is a directory no one may create a folder in.
    const root = process.getuid?.() === 0;
    const folder = root ? '/sys' : join(home, 'ro');
    if (!root) {
      mkdirSync(folder);
      chmodSync(folder, 0o500);
    }
    const result = await rsapi('--history', join(folder, 'history.db'));
    if (!root) chmodSync(folder, 0o700);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toMatch(
      /^rsapi: cannot write the audit's journal beside the history in \S+: (permission denied|.*read-only.*|.*not permitted.*); nothing was sent\n/,
    );
    expect(result.stderr).not.toMatch(/unexpected error/);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a bad --max-drop is exit 2 in the words reports create uses, before any request', async () => {
    const { fixture, rsapi } = await setup({ urls: ['https://shop.example.org/a'] });
    const result = await rsapi('--max-drop', 'lots');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-drop must be a number of points, 0 or more, not "lots"');
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a service that starts answering 503 to everything: the breaker stops the audit, exit 8, and says running it again resumes it', async () => {
    const pages = Array.from({ length: 12 }, (_, index) => `https://shop.example.org/p${index + 1}`);
    const { fixture, env, rsapi } = await setup({ job: 'shop', urls: pages });
    // Healthy while the audit reads what the service holds; from its first create on, 503 to everything.
    const front = await startFailingFront(fixture.server.url, (request) => request.method === 'POST');
    onTestFinished(() => front.close());
    Object.assign(env, { RSAPI_BASE_URL: front.url });
    const result = await rsapi();
    expect(result.code, result.stderr).toBe(8);
    const posts = front.requests.filter((request) => request.method === 'POST').length;
    expect(posts).toBeLessThan(pages.length);
    expect(result.stderr).toMatch(/rsapi: the service answered HTTP 503 to \d+ requests in a row over \d+ s: starting no new URL/);
    expect(result.stderr).toContain(`${pages.length - posts} URLs not started, ${posts} unsettled: run \`rsapi audit\` again once it answers: it resumes`);
    expect(result.stderr).not.toMatch(/stopped answering.*--journal/);
  });

  it('a missing file says how to write one', async () => {
    const home = scratch();
    mkdirSync(join(home, 'x'));
    const result = await runInProcess({ argv: ['audit', '--config', join(home, 'x', 'none.json')], env: { HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rsapi audit --init https://example.com/');
  });

  it("the real path's history grows at most 300 bytes a page a week after the first (issue 45: phpRank, --drift 0.02)", async () => {
    const [pages, weeks] = [200, 4];
    const fixture = await mock({ drift: 0.02 });
    const home = scratch();
    const config = join(home, 'site.json');
    const urls = Array.from({ length: pages }, (_, i) => `https://shop.example.org/catalogue/item-${i}`);
    writeFileSync(config, JSON.stringify({ audit: { job: 'shop', urls } }));
    const env = { ...fixture.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const history = join(home, 'data', 'rsapi', 'history.db');
    const sizes: number[] = [];
    for (let week = 0; week < weeks; week++) {
      const result = await runInProcess({ argv: ['audit', '--config', config, '-q'], env });
      expect(result.code, result.stderr).toBe(0);
      sizes.push(vacuumedSize(history));
    }
    const perPageWeek = ((sizes[weeks - 1] as number) - (sizes[0] as number)) / (pages * (weeks - 1));
    console.info(`rsapi audit's history: ${sizes[0]} B after week 1, ${perPageWeek.toFixed(0)} B a page a week after`);
    expect(perPageWeek).toBeGreaterThan(0);
    expect(perPageWeek).toBeLessThanOrEqual(300);
  }, 120_000);
});

/** A SQLite file's bytes once its WAL is written back and its free pages dropped. */
function vacuumedSize(path: string): number {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
  return statSync(path).size;
}

describe('rsapi audit: argv -> plan', () => {
  it("the file and the flags over it become one create: refresh, record, the job's last run, its journal beside the history file", async () => {
    const home = scratch();
    const config = join(home, 'site.json');
    writeFileSync(config, JSON.stringify({ audit: { sitemaps: ['https://www.shop.example.org/sitemap.xml'], maxDrop: 5, html: 'week.html' } }));
    const env = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123', HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const planned = await planOf(['audit', '--config', config, '--exclude', 'shop.example.org/tag/**', '--json'], planAudit, env);
    if ('init' in planned || 'merge' in planned) throw new Error('planned --init or --merge');
    planned.create.journal?.lock?.release();
    expect(planned).toMatchObject({ job: 'shop.example.org', files: ['week.html'], print: 'json' });
    expect(planned.create).toMatchObject({
      command: 'audit',
      source: { fromSitemap: ['https://www.shop.example.org/sitemap.xml'] },
      existing: 'refresh',
      record: { history: { record: true, job: 'shop.example.org' } },
      ci: { baseline: 'last', maxDrop: 5, html: 'week.html', historyBaseline: { kind: 'last' } },
      journal: { ends: true },
    });
    expect(planned.create.selection.exclude).toHaveLength(1);
    expect(planned.create.journal?.path).toBe(join(home, 'data', 'rsapi', `history.db.audit-shop.example.org-${keyOf(planned.create.journal?.path)}.journal`));
  });

  it('a journal for each job, service and history: beside a SQLite history whatever its folder; in a PostgreSQL history itself, for each job and service', async () => {
    const home = scratch();
    const config = join(home, 'site.json');
    writeFileSync(config, JSON.stringify({ audit: { job: 'shop', urls: ['https://shop.example.org/'] } }));
    const planFor = async (env: Record<string, string>, ...argv: string[]) => {
      const planned = await planOf(['audit', '--config', config, ...argv], planAudit, {
        RSAPI_API_KEY: 'plan-key-0123',
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        ...env,
      });
      if ('init' in planned || 'merge' in planned) throw new Error('planned --init or --merge');
      planned.create.journal?.lock?.release();
      return planned;
    };
    const journalOf = async (env: Record<string, string>, ...argv: string[]) => (await planFor(env, ...argv)).create.journal?.path as string;
    const production = await journalOf({ RSAPI_BASE_URL: 'https://rank.example.com' });
    expect(await journalOf({ RSAPI_BASE_URL: 'https://rank.example.com/api/v1/' })).toBe(production);
    expect(await journalOf({ RSAPI_BASE_URL: 'https://staging.rank.example.com' })).not.toBe(production);
    expect(await journalOf({ RSAPI_BASE_URL: 'https://rank.example.com' }, '--job', 'blog')).not.toBe(production);
    // A SQLite history carries its journal: the same key in any folder, so a history moved between runners finds it.
    const carried = await journalOf({ RSAPI_BASE_URL: 'https://rank.example.com' }, '--history', join(home, 'ci', 'weekly.db'));
    expect(carried).toBe(join(home, 'ci', `weekly.db.audit-shop-${keyOf(production)}.journal`));
    // A PostgreSQL history holds the job's lock and journal itself (taken by the run): no file, nothing in the data folder.
    const inHistory = async (env: Record<string, string>, ...argv: string[]) => {
      const planned = await planFor(env, '--history', 'postgres://u:secret@db.example.com/rsapi', ...argv);
      expect(planned.create.journal).toMatchObject({ path: 'of job shop in postgres://u:***@db.example.com/rsapi', lock: undefined, ends: true });
      return planned.inHistory;
    };
    const shared = await inHistory({ RSAPI_BASE_URL: 'https://rank.example.com' });
    expect(shared).toMatchObject({ key: expect.stringMatching(/^shop-[0-9a-f]{12}$/), waitMs: 0, location: { kind: 'postgres' } });
    expect(existsSync(join(home, 'data', 'rsapi', 'audit'))).toBe(false);
    expect((await inHistory({ RSAPI_BASE_URL: 'https://rank.example.com/api/v1/' }))?.key).toBe(shared?.key);
    expect((await inHistory({ RSAPI_BASE_URL: 'https://staging.rank.example.com' }))?.key).not.toBe(shared?.key);
    expect((await inHistory({ RSAPI_BASE_URL: 'https://rank.example.com' }, '--lock-wait', '30m'))?.waitMs).toBe(30 * 60_000);
    // --lock-wait is for a lock in the history: a SQLite history's refuses at once, and says so rather than ignore it.
    await expect(planFor({ RSAPI_BASE_URL: 'https://rank.example.com' }, '--lock-wait', '5m')).rejects.toThrow(
      /--lock-wait waits for a job's lock in a PostgreSQL history/,
    );
  });

  it("the journal's resume window: a day by default, the file's resumeWithin, and --resume-within over it", async () => {
    const home = scratch();
    const config = join(home, 'site.json');
    const env = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123', HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const windowOf = async (audit: Record<string, unknown>, ...flags: string[]) => {
      writeFileSync(config, JSON.stringify({ audit: { urls: ['https://a.example/'], ...audit } }));
      const planned = await planOf(['audit', '--config', config, ...flags], planAudit, env);
      if ('init' in planned || 'merge' in planned) throw new Error('planned --init or --merge');
      planned.create.journal?.lock?.release();
      return planned.create.journal?.resumeWithinMs;
    };
    expect(await windowOf({})).toBe(24 * 3_600_000);
    expect(await windowOf({ resumeWithin: '3d' })).toBe(3 * 24 * 3_600_000);
    expect(await windowOf({ resumeWithin: '3d' }, '--resume-within', '30m')).toBe(30 * 60_000);
  });

  it('skipInvalid is on unless the file turns it off; allowHosts and --allow-host together; the sitemap budget flags', async () => {
    const home = scratch();
    const env = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123', HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const planWith = async (audit: Record<string, unknown>, ...argv: string[]) => {
      const config = join(home, `site-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(config, JSON.stringify({ audit: { sitemaps: ['https://shop.example.org/'], ...audit } }));
      const planned = await planOf(['audit', '--config', config, ...argv], planAudit, env);
      if ('init' in planned || 'merge' in planned) throw new Error('planned --init or --merge');
      planned.create.journal?.lock?.release();
      return planned.create.source;
    };
    expect(await planWith({})).toMatchObject({
      skipInvalid: true,
      allowHosts: [],
      sitemapLimits: { sitemaps: 1_000, urls: 1_000_000, timeMs: 600_000 },
    });
    expect((await planWith({ skipInvalid: false })).skipInvalid).toBe(false);
    const allowing = await planWith(
      { allowHosts: ['CDN.example.net'] },
      '--allow-host',
      'localhost:8080',
      '--max-sitemaps',
      '5000',
      '--max-sitemap-time',
      '1h',
    );
    expect(allowing.allowHosts).toEqual(['cdn.example.net', 'localhost:8080']);
    expect(allowing.sitemapLimits).toMatchObject({ sitemaps: 5_000, timeMs: 3_600_000 });
    await expect(planWith({ allowHosts: ['https://cdn.example.net/'] })).rejects.toThrow('is not a host');
  });

  it('--init is planned alone; other output flags are refused by the plan', async () => {
    expect(await planOf(['audit', '--init', 'https://example.com/blog/sitemap.xml'], planAudit)).toEqual({
      init: { path: 'rsapi.config.json', site: 'https://example.com/blog/sitemap.xml', job: 'example.com/blog', schema: expect.stringMatching(/^file:/) },
    });
    await expect(planOf(['audit', '-o', 'csv'], planAudit)).rejects.toThrow(/other output flags do not apply/);
  });
});

/** The key a journal's name ends with: `…-KEY.journal`. */
function keyOf(path: string | undefined): string | undefined {
  return /-([0-9a-f]{12})\.journal$/.exec(path ?? '')?.[1];
}
