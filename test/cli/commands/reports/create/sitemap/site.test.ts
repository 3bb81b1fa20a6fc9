// A hostile site's sitemaps against the built binary and the mock: entries that are no page URL, pages and sitemaps on
// other hosts (the metadata address, loopback on another port), robots.txt naming such sitemaps, a 10 KB URL; and the
// site rule and the internal-address guard on their own.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedHost, isInternalAddress, isOnSite, refuseInternalAddress, siteRuleOf } from '../../../../../../src/cli/commands/reports/create/sitemap/site.js';
import { runCli } from '../../../../../helpers/cli.js';
import { mockPerTest } from '../../../../../helpers/mock.js';
import { startRawServer, type RawServer } from '../../../../../helpers/raw-server.js';
import { scratchMaker } from '../../../../../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });
const scratch = scratchMaker('rsapi-hostile-site-');
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const urlset = (locs: readonly string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;
const sitemapIndex = (locs: readonly string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;

/** A loopback server answering each path from `routes` (a function of its own origin), 404 otherwise; it counts requests. */
async function serve(routes: (origin: string) => Record<string, string>): Promise<RawServer> {
  const server: RawServer = await startRawServer((request, response) => {
    const body = routes(server.url)[request.url];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/xml' });
    response.end(body ?? '');
  });
  servers.push(server);
  return server;
}

/** The URLs the mock was asked to create reports for. */
const created = (fixture: Awaited<ReturnType<typeof mock>>) =>
  fixture.server.requests.filter((request) => request.method === 'POST').map((request) => String(request.form.url));

/** Another loopback server: a host no sitemap of the site may lead to. Nothing may reach it. */
const OFF_SITE = (other: RawServer) => [
  'http://169.254.169.254/latest/meta-data/',
  `http://localhost:${other.port}/`,
  `${other.url}/admin`,
  'http://internal.corp.local/',
];

const LONG_URL_LENGTH = 10 * 1024;

describe('a hostile sitemap, run as a process', () => {
  it('audit: invalid entries (javascript:, file:, a 10 KB URL) skipped and counted, other hosts left out in one line; only the site is created', async () => {
    const fixture = await mock();
    const other = await serve(() => ({}));
    const pages = (origin: string) => Array.from({ length: 40 }, (_, i) => `${origin}/page/${i + 1}`);
    const long = (origin: string) => `${origin}/${'x'.repeat(LONG_URL_LENGTH)}`;
    const site = await serve((origin) => ({
      '/sitemap.xml': urlset([...pages(origin), 'javascript:alert(1)', 'file:///etc/passwd', long(origin), ...OFF_SITE(other)]),
    }));
    const home = scratch();
    const config = join(home, 'rsapi.config.json');
    writeFileSync(config, JSON.stringify({ audit: { sitemaps: [`${site.url}/sitemap.xml`], history: join(home, 'history.db') } }));
    const run = await runCli(['audit', '--config', config], { env: fixture.env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(created(fixture).sort()).toEqual(pages(site.url).sort());
    expect(run.stderr).toContain('rsapi: skipping 3 invalid URLs:');
    expect(run.stderr).toContain(`is longer than 8192 characters`);
    const offSite = run.stderr.split('\n').filter((line) => line.includes('other hosts'));
    expect(offSite).toEqual([
      `rsapi: warning: skipping 4 page URLs on other hosts than the sitemap's site (169.254.169.254, localhost:${other.port}, 127.0.0.1:${other.port}, ...); --allow-host HOST admits one`,
    ]);
    expect(other.requests).toEqual([]);
    expect(site.requests.map((request) => request.url)).toEqual(['/sitemap.xml']);
    // Never journaled: the journal beside the history holds no URL that long.
    const journals = readdirSync(home)
      .filter((name) => name.startsWith('history.db.audit-') && name.endsWith('.journal'))
      .map((name) => readFileSync(join(home, name), 'utf8'));
    expect(journals.length).toBe(1);
    expect(journals[0]).toContain('/page/40');
    expect(journals[0]).not.toContain('x'.repeat(8192));
  }, 90_000);

  it('more than 10% of the entries invalid: audit exits 2 and creates nothing', async () => {
    const fixture = await mock();
    const site = await serve((origin) => ({
      '/sitemap.xml': urlset([
        ...Array.from({ length: 8 }, (_, i) => `${origin}/p/${i}`),
        'javascript:alert(1)',
        'file:///etc/passwd',
        `${origin}/${'y'.repeat(LONG_URL_LENGTH)}`,
      ]),
    }));
    const home = scratch();
    const config = join(home, 'rsapi.config.json');
    writeFileSync(config, JSON.stringify({ audit: { sitemaps: [`${site.url}/sitemap.xml`], history: join(home, 'history.db') } }));
    const run = await runCli(['audit', '--config', config], { env: fixture.env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("rsapi: 3 of the sitemaps' 11 entries are not URLs a service would accept, more than 10% of them; nothing was sent");
    expect(created(fixture)).toEqual([]);
  });

  it("an index's children on the metadata address and loopback's other ports are never fetched; the site's own child is", async () => {
    const fixture = await mock();
    const other = await serve((origin) => ({ '/sitemap.xml': urlset([`${origin}/stolen`]) }));
    const site = await serve((origin) => ({
      '/index.xml': sitemapIndex([
        'http://169.254.169.254/latest/sitemap.xml',
        `http://localhost:${other.port}/sitemap.xml`,
        `${other.url}/sitemap.xml`,
        `${origin}/pages.xml`,
      ]),
      '/pages.xml': urlset([`${origin}/a`, `${origin}/b`]),
    }));
    const run = await runCli(['reports', 'create', '--from-sitemap', `${site.url}/index.xml`, '-q'], { env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    expect(other.requests).toEqual([]);
    expect(site.requests.map((request) => request.url)).toEqual(['/index.xml', '/pages.xml']);
    expect(created(fixture).sort()).toEqual([`${site.url}/a`, `${site.url}/b`]);
    expect(run.stderr).toContain(
      `rsapi: warning: skipping 3 sitemaps on other hosts than the sitemap's site (169.254.169.254, localhost:${other.port}, 127.0.0.1:${other.port}); --allow-host HOST admits one`,
    );

    // --allow-host lets one in: its sitemap is read and its page created; the others stay out.
    const allowed = await runCli(['reports', 'create', '--from-sitemap', `${site.url}/index.xml`, '--allow-host', `127.0.0.1:${other.port}`, '-q'], {
      env: fixture.env,
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(other.requests.map((request) => request.url)).toEqual(['/sitemap.xml']);
    expect(created(fixture)).toContain(`${other.url}/stolen`);
    expect(allowed.stderr).toContain('skipping 2 sitemaps on other hosts');
  });

  it("an index's child that is no http(s) URL is skipped with --skip-invalid (as audit does), and stops the run without", async () => {
    const fixture = await mock();
    const site = await serve((origin) => ({
      '/index.xml': sitemapIndex(['javascript:alert(1)', `${origin}/pages.xml`]),
      '/pages.xml': urlset([`${origin}/a`]),
    }));
    const argv = ['reports', 'create', '--from-sitemap', `${site.url}/index.xml`, '-q'];
    const stopped = await runCli(argv, { env: fixture.env });
    expect(stopped.code).toBe(8);
    expect(created(fixture)).toEqual([]);
    const run = await runCli([...argv, '--skip-invalid'], { env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`rsapi: warning: skipping the sitemap javascript:alert(1) (--skip-invalid): the sitemap index ${site.url}/index.xml lists`);
    expect(run.stderr).toContain('rsapi: 1 URL from 2 sitemaps (1 sitemap skipped)');
    expect(created(fixture)).toEqual([`${site.url}/a`]);
  });

  it("robots.txt's Sitemap: lines on other hosts are never fetched", async () => {
    const fixture = await mock();
    const other = await serve((origin) => ({ '/sitemap.xml': urlset([`${origin}/stolen`]) }));
    const site = await serve((origin) => ({
      '/robots.txt': [
        'User-agent: *',
        'Sitemap: http://169.254.169.254/latest/sitemap.xml',
        `Sitemap: http://localhost:${other.port}/sitemap.xml`,
        `Sitemap: ${other.url}/sitemap.xml`,
        `Sitemap: ${origin}/pages.xml`,
      ].join('\n'),
      '/pages.xml': urlset([`${origin}/home`]),
    }));
    const run = await runCli(['reports', 'create', '--from-sitemap', `${site.url}/`, '-q'], { env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    expect(other.requests).toEqual([]);
    expect(site.requests.map((request) => request.url)).toEqual(['/robots.txt', '/pages.xml']);
    expect(created(fixture)).toEqual([`${site.url}/home`]);
    expect(run.stderr).toContain(`rsapi: ${site.url}/robots.txt names 1 sitemap`);
    expect(run.stderr).toContain('skipping 3 sitemaps on other hosts');
  });

  it('--allow-host that is no host is a usage error before anything is fetched', async () => {
    const fixture = await mock();
    const site = await serve(() => ({}));
    const run = await runCli(['reports', 'create', '--from-sitemap', `${site.url}/sitemap.xml`, '--allow-host', 'https://cdn.example.com/x'], {
      env: fixture.env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-host "https://cdn.example.com/x" is not a host');
    expect(site.requests).toEqual([]);
  });
});

describe('the site rule', () => {
  it('a site is its host (port included) and its www. twin, and the hosts allowed (by name on any port, or host:port)', () => {
    const rule = siteRuleOf('https://example.com/sitemap.xml', ['cdn.example.net', 'localhost:8080']);
    const on = (url: string) => isOnSite(new URL(url), rule);
    expect(on('https://example.com/a')).toBe(true);
    expect(on('http://www.example.com/a')).toBe(true);
    expect(on('https://cdn.example.net:8443/a')).toBe(true);
    expect(on('http://localhost:8080/')).toBe(true);
    expect(on('http://localhost:8081/')).toBe(false);
    expect(on('https://example.com:8443/a')).toBe(false);
    expect(on('https://shop.example.com/a')).toBe(false);
    expect(on('http://169.254.169.254/')).toBe(false);
    expect(isOnSite(new URL('https://example.com/'), siteRuleOf('https://www.example.com/', []))).toBe(true);
  });

  it.each([
    ['cdn.example.com', 'cdn.example.com'],
    ['Localhost:8080', 'localhost:8080'],
    ['[::1]:8080', '[::1]:8080'],
    ['10.0.0.5', '10.0.0.5'],
  ])('--allow-host %s is %s', (value, host) => {
    expect(allowedHost(value)).toBe(host);
  });

  it.each(['https://cdn.example.com', 'cdn.example.com/path', 'user@cdn.example.com', 'a b', 'cdn.example.com?x'])('--allow-host %s is refused', (value) => {
    expect(() => allowedHost(value)).toThrow('is not a host');
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['169.254.169.254', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['2606:4700::1', false],
    ['::ffff:8.8.8.8', false],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it('a host not given that is or resolves to an internal address is refused; the hosts given are not looked at', async () => {
    const rule = siteRuleOf('https://example.com/', ['intranet.example.org']);
    const resolved: string[] = [];
    const resolve = async (host: string) => {
      resolved.push(host);
      return host === 'www.example.com' ? ['93.184.216.34', '10.0.0.7'] : ['93.184.216.34'];
    };
    await expect(refuseInternalAddress(new URL('https://www.example.com/sitemap.xml'), rule, resolve)).rejects.toThrow(
      'the sitemap https://www.example.com/sitemap.xml is on www.example.com (10.0.0.7), a loopback, link-local or private address',
    );
    await expect(refuseInternalAddress(new URL('http://[::1]:9000/s.xml'), rule, resolve)).rejects.toThrow('is on [::1]:9000, a loopback');
    await expect(refuseInternalAddress(new URL('https://cdn.example.net/s.xml'), rule, resolve)).resolves.toBeUndefined();
    await expect(refuseInternalAddress(new URL('https://example.com/s.xml'), rule, resolve)).resolves.toBeUndefined();
    await expect(refuseInternalAddress(new URL('https://intranet.example.org/s.xml'), rule, resolve)).resolves.toBeUndefined();
    expect(resolved).toEqual(['www.example.com', 'cdn.example.net']);
  });
});
