// `rsapi audit` in-process against the phpRank mock: --init's file, flags over the file, its JSON answer, mistakes
// before any request, and the journal kept beside the history per job; and its plan (argv -> plan, no server).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../../helpers/mock.js';
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

  it('prints what it did as lines: pages, run, baseline, new and vanished pages, files', async () => {
    const { rsapi, config } = await setup({ urls: ['https://shop.example.org/a'] });
    expect((await rsapi()).code).toBe(0);
    writeFileSync(config, JSON.stringify({ audit: { urls: ['https://shop.example.org/b'] } }));
    const second = await rsapi();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      [
        'audit shop.example.org: 1 page audited, recorded as run 2, compared with run 1',
        'pages: 1 new, 1 vanished since run 1',
        '  new: shop.example.org/b',
        '  vanished: shop.example.org/a',
        '',
      ].join('\n'),
    );
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
    expect(result.stderr).toMatch(/^rsapi: cannot make the audit's journal folder .*audit beside the history: permission denied; nothing was sent\n/);
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
    expect(await planOf(['audit', '--init', 'https://example.com/blog/sitemap.xml'], planAudit)).toEqual({
      init: { path: 'rsapi.config.json', site: 'https://example.com/blog/sitemap.xml', job: 'example.com/blog', schema: expect.stringMatching(/^file:/) },
    });
    await expect(planOf(['audit', '-o', 'csv'], planAudit)).rejects.toThrow(/other output flags do not apply/);
  });
});
