// One budget for a run's sitemaps, against the built binary and the mock: the sitemaps read (robots.txt's lines and an
// index's children before any is fetched), the page URLs kept, and the time spent; past each, one line and exit 2.
import { afterEach, describe, expect, it } from 'vitest';
import { SitemapBudget, DEFAULT_SITEMAP_LIMITS } from '../../../../../../src/cli/commands/reports/create/sitemap/budget.js';
import { readSitemap } from '../../../../../../src/cli/commands/reports/create/sitemap/read.js';
import { runCli } from '../../../../../helpers/cli.js';
import { mockPerTest } from '../../../../../helpers/mock.js';
import { startRawServer, type RawServer } from '../../../../../helpers/raw-server.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const urlset = (locs: readonly string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;
const sitemapIndex = (locs: readonly string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;

/** A site whose robots.txt names `robots` sitemaps (s0.xml ...), each listing one page; index.xml lists `index` of them; big.xml 11 pages. */
async function site(robots: number, index = 0): Promise<RawServer> {
  const server: RawServer = await startRawServer((request, response) => {
    const origin = server.url;
    const path = request.url;
    let body: string | undefined;
    if (path === '/robots.txt') body = Array.from({ length: robots }, (_, i) => `Sitemap: ${origin}/s${i}.xml`).join('\n');
    else if (path === '/index.xml') body = sitemapIndex(Array.from({ length: index }, (_, i) => `${origin}/s${i}.xml`));
    else if (path === '/big.xml') body = urlset(Array.from({ length: 11 }, (_, i) => `${origin}/big/${i}`));
    else if (/^\/s\d+\.xml$/.test(path)) body = urlset([`${origin}/page${path.replace('.xml', '')}`]);
    response.writeHead(body === undefined ? 404 : 200).end(body ?? '');
  });
  servers.push(server);
  return server;
}

describe('the sitemap budget, run as a process', () => {
  it('robots.txt naming 1,001 sitemaps: exit 2 before any is fetched (the default, 1,000 a run)', async () => {
    const fixture = await mock();
    const server = await site(1_001);
    const run = await runCli(['reports', 'create', '--from-sitemap', `${server.url}/`, '--dry-run'], { env: fixture.env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`rsapi: ${server.url}/robots.txt leads past 1000 sitemaps, the most one run reads`);
    expect(run.stderr).toContain('hint: raise it with --max-sitemaps N');
    expect(server.requests.map((request) => request.url)).toEqual(['/robots.txt']);
  });

  it('--max-sitemaps bounds robots.txt lines and an index over the whole run, and raises the limit', async () => {
    const fixture = await mock();
    const server = await site(4, 4);
    const robots = await runCli(['reports', 'create', '--from-sitemap', `${server.url}/`, '--max-sitemaps', '3', '--dry-run'], { env: fixture.env });
    expect(robots.code, robots.stderr).toBe(2);
    expect(robots.stderr).toContain('robots.txt leads past 3 sitemaps');
    // The index and its 4: five in all; a second source shares the budget.
    const index = ['reports', 'create', '--from-sitemap', `${server.url}/s9.xml`, '--from-sitemap', `${server.url}/index.xml`, '--dry-run', '-q'];
    const past = await runCli([...index, '--max-sitemaps', '5'], { env: fixture.env });
    expect(past.code, past.stderr).toBe(2);
    expect(past.stderr).toContain(`rsapi: the sitemap index ${server.url}/index.xml leads past 5 sitemaps`);
    const raised = await runCli([...index, '--max-sitemaps', '6'], { env: fixture.env });
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stderr).toContain('rsapi: 5 URLs from 6 sitemaps');
    expect(fixture.server.requests).toEqual([]);
  });

  it('--max-sitemap-urls bounds the page URLs kept', async () => {
    const fixture = await mock();
    const server = await site(0);
    const argv = ['reports', 'create', '--from-sitemap', `${server.url}/big.xml`, '--dry-run', '-q'];
    const past = await runCli([...argv, '--max-sitemap-urls', '10'], { env: fixture.env });
    expect(past.code, past.stderr).toBe(2);
    expect(past.stderr).toContain(`rsapi: ${server.url}/big.xml url 11 is past 10 page URLs, the most one run reads from sitemaps`);
    const raised = await runCli([...argv, '--max-sitemap-urls', '11'], { env: fixture.env });
    expect(raised.code, raised.stderr).toBe(0);
  });

  it('--max-sitemap-time takes a duration; anything else is a usage error', async () => {
    const run = await runCli(['reports', 'create', '--from-sitemap', 'http://127.0.0.1:9/', '--max-sitemap-time', '10']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-sitemap-time must be a duration such as 30m or 2h');
  });
});

describe('the time spent reading sitemaps', () => {
  it('a site that never answers ends the read when the time is up, as a usage error naming the limit', async () => {
    const stalled = await startRawServer(() => {});
    servers.push(stalled);
    const budget = new SitemapBudget({ ...DEFAULT_SITEMAP_LIMITS, timeMs: 200 });
    const started = Date.now();
    await expect(readSitemap(`${stalled.url}/sitemap.xml`, { proxy: {}, timeoutMs: 30_000, budget })).rejects.toThrow(
      'reading the sitemaps took more than 0.2 s, the most one run spends on them',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a budget whose time is up refuses the next sitemap before fetching it', async () => {
    const server = await site(0);
    const budget = new SitemapBudget({ ...DEFAULT_SITEMAP_LIMITS, timeMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(readSitemap(`${server.url}/big.xml`, { proxy: {}, timeoutMs: 5_000, budget })).rejects.toThrow('reading the sitemaps took more than');
    expect(server.requests).toEqual([]);
  });
});
