// `rsapi audit` in-process against the phpRank mock: --init's file, flags over the file, its JSON answer, mistakes
// before any request, and the journal kept beside the history per job; and its plan (argv -> plan, no server).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../../helpers/mock.js';
import { startRawServer } from '../../../helpers/raw-server.js';
import { runInProcess } from '../../../helpers/run.js';
import { scratchMaker } from '../../../helpers/scratch.js';
import { planOf } from '../../../helpers/plan.js';
import { planAudit } from '../../../../src/cli/commands/audit/audit.js';

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
    expect(JSON.parse(readFileSync(config, 'utf8')).audit).toMatchObject({ job: 'shop.example.org', sitemaps: ['https://shop.example.org/'] });
    const again = await runInProcess({ argv: ['audit', '--init', 'https://shop.example.org/', '--config', config], env: { HOME: home } });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists; rsapi audit --init writes a new file only');
  });

  it('records under its job, compares with its last run, answers --json, and flags override the file', async () => {
    const { fixture, home, rsapi } = await setup({ job: 'shop', urls: ['https://shop.example.org/a', 'https://shop.example.org/b'], failOnNewFailures: true });
    const first = await rsapi('--json');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ job: 'shop', exitCode: 0, pages: 2, run: 1, baseline: undefined, new: [], vanished: [], files: [] });
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
    // The journal lives beside the history, one per job, and the run that ended says so.
    const journals = readdirSync(join(home, 'data', 'rsapi', 'audit'));
    expect(journals).toEqual([expect.stringMatching(/^shop-[0-9a-f]{12}\.journal$/)]);
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

  it('a bad --max-drop is exit 2 in the words reports create uses, before any request', async () => {
    const { fixture, rsapi } = await setup({ urls: ['https://shop.example.org/a'] });
    const result = await rsapi('--max-drop', 'lots');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-drop must be a number of points, 0 or more, not "lots"');
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a missing file says how to write one', async () => {
    const home = scratch();
    mkdirSync(join(home, 'x'));
    const result = await runInProcess({ argv: ['audit', '--config', join(home, 'x', 'none.json')], env: { HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('rsapi audit --init https://example.com/');
  });
});

describe('rsapi audit: argv -> plan', () => {
  it("the file and the flags over it become one create: refresh, record, the job's last run, its journal beside the history", async () => {
    const home = scratch();
    const config = join(home, 'site.json');
    writeFileSync(config, JSON.stringify({ audit: { sitemaps: ['https://www.shop.example.org/sitemap.xml'], maxDrop: 5, html: 'week.html' } }));
    const env = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123', HOME: home, XDG_DATA_HOME: join(home, 'data') };
    const planned = await planOf(['audit', '--config', config, '--exclude', 'shop.example.org/tag/**', '--json'], planAudit, env);
    if ('init' in planned) throw new Error('planned --init');
    planned.create.journal?.lock?.release();
    expect(planned).toMatchObject({ job: 'shop.example.org', files: ['week.html'], json: true });
    expect(planned.create).toMatchObject({
      command: 'audit',
      source: { fromSitemap: ['https://www.shop.example.org/sitemap.xml'] },
      existing: 'refresh',
      record: { history: { record: true, job: 'shop.example.org' } },
      ci: { baseline: 'last', maxDrop: 5, html: 'week.html', historyBaseline: { kind: 'last' } },
      journal: { ends: true },
    });
    expect(planned.create.selection.exclude).toHaveLength(1);
    expect(planned.create.journal?.path).toMatch(/audit\/shop\.example\.org-[0-9a-f]{12}\.journal$/);
  });

  it('--init is planned alone; other output flags are refused by the plan', async () => {
    expect(await planOf(['audit', '--init', 'https://example.com/'], planAudit)).toEqual({ init: { path: 'rsapi.config.json', site: 'https://example.com/' } });
    await expect(planOf(['audit', '-o', 'csv'], planAudit)).rejects.toThrow(/other output flags do not apply/);
  });
});
