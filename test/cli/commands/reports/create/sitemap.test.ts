// `reports create --from-sitemap`: an index followed to a gzipped sitemap and a redirected one over loopback, never with the key; limits and errors.
import { readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readSitemap } from '../../../../../src/cli/commands/reports/create/sitemap/read.js';
import { DEFAULT_SITEMAP_LIMITS, SitemapBudget } from '../../../../../src/cli/commands/reports/create/sitemap/budget.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { refusedPort, startRawServer, type RawServer } from '../../../../helpers/raw-server.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest({ seed: 0 });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const scratch = scratchMaker('rsapi-sitemap-');

function urlset(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((url) => `  <url><loc>${url.replace(/&/g, '&amp;')}</loc><lastmod>2026-11-01</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;
}

function sitemapIndex(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;
}

const PAGES_A = ['https://site.example/', 'https://site.example/about', 'https://site.example/search?q=a&page=2'];
const PAGES_B = ['https://site.example/blog/1', 'https://site.example/blog/2', 'https://site.example/about'];
/** The pages are on site.example, the sitemaps on loopback: another host, let in. */
const ALLOW = ['--allow-host', 'site.example'];

/** A site: an index, a gzipped sitemap, and a sitemap behind a redirect on the same host. */
async function startSite(routes: Record<string, (response: ServerResponse, site: RawServer) => void> = {}): Promise<RawServer> {
  const site: RawServer = await startRawServer((request, response) => {
    const route = routes[request.url];
    if (route) return route(response, site);
    switch (request.url) {
      case '/sitemap_index.xml':
        response.writeHead(200, { 'content-type': 'application/xml' });
        return response.end(sitemapIndex([`${site.url}/sitemap-a.xml.gz`, `${site.url}/old-sitemap-b.xml`]));
      case '/sitemap-a.xml.gz':
        response.writeHead(200, { 'content-type': 'application/gzip' });
        return response.end(gzipSync(urlset(PAGES_A)));
      case '/old-sitemap-b.xml':
        response.writeHead(301, { location: '/sitemap-b.xml' });
        return response.end();
      case '/sitemap-b.xml':
        response.writeHead(200, { 'content-type': 'text/xml' });
        return response.end(urlset(PAGES_B));
      default:
        response.writeHead(404, { 'content-type': 'text/html' });
        return response.end('<html>not found</html>');
    }
  });
  cleanups.push(() => site.close());
  return site;
}

describe('--from-sitemap', () => {
  it('follows an index to a gzipped and a redirected sitemap, creates each page once, and never sends the key to the site', async () => {
    const fixture = await mock();
    const site = await startSite();
    const run = await runInProcess({
      argv: ['reports', 'create', '--from-sitemap', `${site.url}/sitemap_index.xml`, ...ALLOW, '-o', 'ndjson'],
      env: fixture.env,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('rsapi: 6 URLs from 3 sitemaps');
    const created = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { url: string }).url);
    expect(created.sort()).toEqual([...new Set([...PAGES_A, ...PAGES_B])].sort());
    expect(site.requests.map((request) => request.url)).toEqual(['/sitemap_index.xml', '/sitemap-a.xml.gz', '/old-sitemap-b.xml', '/sitemap-b.xml']);
    for (const request of site.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(fixture.server.apiKey);
      expect(request.headers['user-agent']).toMatch(/^rsapi\//);
    }
    expect(fixture.server.requests.length).toBeGreaterThan(0);
    expect(fixture.server.requests.filter((request) => request.headers.authorization !== `Bearer ${fixture.server.apiKey}`)).toEqual([]);
  });

  it('combines with --shard and --journal: two shares cover the sitemap, a resumed share skips what its journal shows created', async () => {
    const fixture = await mock();
    const site = await startSite();
    const dir = scratch();
    const all: string[] = [];
    for (const index of [1, 2]) {
      const journal = join(dir, `share-${index}.journal`);
      const argv = ['reports', 'create', '--from-sitemap', `${site.url}/sitemap_index.xml`, ...ALLOW, '--shard', `${index}/2`, '--journal', journal, '--json'];
      const first = await runInProcess({ argv, env: fixture.env });
      expect(first.code).toBe(0);
      const urls = (JSON.parse(first.stdout) as { url: string }[]).map((report) => report.url);
      all.push(...urls);
      // As if killed before its last line: a share that did not end is resumed.
      writeFileSync(journal, readFileSync(journal, 'utf8').replace(/[^\n]*"status":"ended"[^\n]*\n$/, ''));
      const again = await runInProcess({ argv, env: fixture.env });
      expect(again.code).toBe(0);
      // Nothing sent again; the share's reports are read back and printed as the run's.
      expect((JSON.parse(again.stdout) as { url: string }[]).map((report) => report.url)).toEqual(urls);
      // Each share has URLs of its own (6 URLs in two shares), and the re-run skips them all.
      expect(urls.length).toBeGreaterThan(0);
      expect(again.stderr).toContain(`skipping ${urls.length} URL`);
    }
    expect(all.sort()).toEqual([...new Set([...PAGES_A, ...PAGES_B])].sort());
  });

  it('reads a local gzipped sitemap file', async () => {
    const fixture = await mock();
    const path = join(scratch(), 'sitemap.xml.gz');
    writeFileSync(path, gzipSync(urlset(PAGES_B)));
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', path, '-q'], env: fixture.env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('a missing child sitemap: with --skip-invalid skipped with a warning naming it and counted in the summary; without, the run stops', async () => {
    const fixture = await mock();
    const site = await startSite({
      '/sitemap_index.xml': (response, own) => {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(sitemapIndex([`${own.url}/gone.xml`, `${own.url}/sitemap-b.xml`]));
      },
    });
    const argv = ['reports', 'create', '--from-sitemap', `${site.url}/sitemap_index.xml`, ...ALLOW, '-o', 'ndjson'];
    const stopped = await runInProcess({ argv, env: fixture.env });
    expect(stopped.code).toBe(8);
    expect(stopped.stderr).toContain(`the sitemap ${site.url}/gone.xml answered HTTP 404`);
    expect(fixture.server.requests).toHaveLength(0);

    const run = await runInProcess({ argv: [...argv, '--skip-invalid'], env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `rsapi: warning: skipping the sitemap ${site.url}/gone.xml (--skip-invalid): the sitemap ${site.url}/gone.xml answered HTTP 404\n`,
    );
    expect(run.stderr).toContain('rsapi: 3 URLs from 2 sitemaps (1 sitemap skipped)');
    expect(run.stderr).toMatch(/^created 3, failed 0, sitemaps skipped 1$/m);
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('a redirect to another host is refused (exit 8) and that host never hears of it', async () => {
    const fixture = await mock();
    const elsewhere = await startSite();
    const site = await startSite({
      '/sitemap.xml': (response) => {
        response.writeHead(302, { location: `${elsewhere.url}/sitemap-b.xml` });
        response.end();
      },
    });
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', `${site.url}/sitemap.xml`], env: fixture.env });
    expect(run.code).toBe(8);
    expect(run.stderr).toContain(`redirects to ${elsewhere.url}, another host; rsapi follows a sitemap's redirects only within 127.0.0.1:${site.port}`);
    expect(elsewhere.requests).toHaveLength(0);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it.each([
    ['a missing file', async () => join(scratch(), 'nope.xml'), 2, /cannot read the sitemap .*nope\.xml: no such file/],
    ['a file that is not XML', async () => writeTo('urls.txt', 'https://a.example/\n'), 2, /urls\.txt is not a readable sitemap/],
    ['an XML file that is not a sitemap', async () => writeTo('feed.xml', '<rss><channel/></rss>'), 2, /its root element is <rss>/],
    [
      'an entity the file defines',
      async () => writeTo('xxe.xml', '<!DOCTYPE urlset [<!ENTITY x "https://evil.example/">]><urlset><url><loc>&x;</loc></url></urlset>'),
      2,
      /not a readable sitemap/,
    ],
    ['a page answering 404', async () => `${(await startSite()).url}/missing.xml`, 8, /answered HTTP 404/],
    ['a refused connection', async () => `http://127.0.0.1:${await refusedPort()}/sitemap.xml`, 7, /cannot fetch the sitemap .*connection refused/],
  ])('%s: a clear error, and no report created', async (_name, source, code, message) => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', await source()], env: fixture.env });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a bad baseline stops the run before the sitemap is fetched', async () => {
    const fixture = await mock();
    const site = await startSite();
    const run = await runInProcess({
      argv: ['reports', 'create', '--from-sitemap', `${site.url}/sitemap_index.xml`, '--baseline', join(scratch(), 'none.json')],
      env: fixture.env,
    });
    expect(run.code).toBe(2);
    expect(site.requests).toHaveLength(0);
  });
});

describe('readSitemap limits', () => {
  it('refuses a body beyond the size cap, a gzip that unpacks beyond it, and an index leading to too many sitemaps', async () => {
    const big = urlset(Array.from({ length: 200 }, (_, i) => `https://site.example/p/${i}`));
    const site = await startSite({
      '/big.xml': (response) => response.end(big),
      '/bomb.xml.gz': (response) => response.end(gzipSync(' '.repeat(200_000) + big)),
      '/many.xml': (response, server) => response.end(sitemapIndex(Array.from({ length: 5 }, (_, i) => `${server.url}/s${i}.xml`))),
    });
    const options = { proxy: {}, timeoutMs: 5_000, maxBytes: 10_000 };
    await expect(readSitemap(`${site.url}/big.xml`, options)).rejects.toThrow(/larger than 10000 bytes/);
    await expect(readSitemap(`${site.url}/bomb.xml.gz`, options)).rejects.toThrow(/unpacks to more than 10000 bytes/);
    const budget = new SitemapBudget({ ...DEFAULT_SITEMAP_LIMITS, sitemaps: 3 });
    await expect(readSitemap(`${site.url}/many.xml`, { ...options, budget })).rejects.toThrow(`the sitemap index ${site.url}/many.xml leads past 3 sitemaps`);
  });
});

function writeTo(name: string, content: string): string {
  const path = join(scratch(), name);
  writeFileSync(path, content);
  return path;
}
