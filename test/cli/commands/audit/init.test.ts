// `rsapi audit --init`: the job named for the site (port and folder too), every odd URL or path refused before
// anything is written, a $schema that resolves wherever rsapi is installed, and a warning when the history holds the
// job with another site's pages.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planStarter, schemaReference, siteJob } from '../../../../src/cli/commands/audit/init.js';
import { UsageError } from '../../../../src/cli/runtime/errors.js';
import { mockPerTest } from '../../../helpers/mock.js';
import { runInProcess } from '../../../helpers/run.js';
import { scratchMaker } from '../../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-init-');
const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

describe('planStarter and siteJob', () => {
  it.each([
    ['https://www.example.com/', 'example.com'],
    ['https://example.com/sitemap.xml', 'example.com'],
    // Two sitemaps of one host were one job: the second site compared itself with the first's pages.
    ['https://www.example.com/blog/sitemap.xml', 'example.com/blog'],
    ['https://www.example.com/shop/sitemap.xml', 'example.com/shop'],
    ['https://example.com/shop/', 'example.com/shop'],
    ['http://localhost:8080/', 'localhost:8080'],
    ['https://example.com:443/a/b/sitemap.xml', 'example.com/a/b'],
  ])('%s is the job %s by default', (site, job) => {
    expect(siteJob(site)).toBe(job);
  });

  it.each([
    { name: 'a URL with a space', site: 'http://a b/', path: () => 'x.json', want: '--init "http://a b/" holds a space' },
    { name: 'a URL that does not parse', site: 'http://[::1', path: () => 'x.json', want: '--init "http://[::1" is not a valid URL' },
    { name: 'a URL with a control character', site: 'http://a.example/\u0001', path: () => 'x.json', want: 'holds a control character' },
    { name: 'no URL', site: 'example.com', path: () => 'x.json', want: '--init "example.com" is not an http(s) URL' },
    {
      name: 'a missing folder',
      site: 'https://example.com/',
      path: () => join(scratch(), 'none', 'rsapi.config.json'),
      want: /^cannot write .*none\/rsapi\.config\.json: there is no folder .*none$/,
    },
    {
      name: 'a dangling symbolic link',
      site: 'https://example.com/',
      path: () => {
        const link = join(scratch(), 'rsapi.config.json');
        symlinkSync(join(scratch(), 'nowhere.json'), link);
        return link;
      },
      want: /rsapi\.config\.json exists \(a symbolic link\); rsapi audit --init writes a new file only$/,
    },
  ])('refuses $name as a usage error before writing', ({ site, path, want }) => {
    let error: unknown;
    try {
      planStarter(path(), site);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    if (typeof want === 'string') expect((error as Error).message).toContain(want);
    else expect((error as Error).message).toMatch(want);
  });

  it('names the schema relative to the config from a project install, and by its file URL from any other', () => {
    const project = join(scratch(), 'project');
    const schema = join(project, 'node_modules', 'rsapi', 'schema', 'rsapi.config.schema.json');
    expect(schemaReference(join(project, 'rsapi.config.json'), schema)).toBe('./node_modules/rsapi/schema/rsapi.config.schema.json');
    expect(schemaReference(join(project, 'sites', 'shop.json'), schema)).toBe('../node_modules/rsapi/schema/rsapi.config.schema.json');
    // A global install, seen from a cron folder: the absolute file, not ./node_modules (nothing there).
    const global = '/usr/lib/node_modules/rsapi/schema/rsapi.config.schema.json';
    expect(schemaReference(join(scratch(), 'cron', 'rsapi.config.json'), global)).toBe('file:///usr/lib/node_modules/rsapi/schema/rsapi.config.schema.json');
  });

  it("the planned $schema resolves, from this checkout's place, to the schema it ships", () => {
    const path = join(scratch(), 'rsapi.config.json');
    const { schema } = planStarter(path, 'https://example.com/');
    const file = fileURLToPath(new URL(schema, pathToFileURL(path)));
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(new URL('../../../../schema/rsapi.config.schema.json', import.meta.url), 'utf8'));
  });
});

describe('writeStarter', () => {
  it("warns when the history holds the job with pages of another site, and not when they are the site's", async () => {
    const fixture = await mock();
    const home = scratch();
    const env = { ...fixture.env, HOME: home, RSAPI_HISTORY: join(home, 'history.db') };
    const record = (url: string) => runInProcess({ argv: ['reports', 'create', url, '--record', '--job', 'example.com/shop', '-q'], env });
    expect((await record('https://example.com/shop/a')).code).toBe(0);
    const same = await runInProcess({ argv: ['audit', '--init', 'https://example.com/shop/sitemap.xml', '--config', join(home, 'same.json')], env });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).not.toContain('warning');
    expect((await record('https://other.example/x')).code).toBe(0);
    const other = await runInProcess({ argv: ['audit', '--init', 'https://example.com/shop/sitemap.xml', '--config', join(home, 'other.json')], env });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(
      /rsapi: warning: the history already holds job "example\.com\/shop" with pages of another site \(other\.example\/x, run 2\); .*give the file another "job"/,
    );
  });
});
