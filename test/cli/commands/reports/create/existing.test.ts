// The weekly job: `reports create --existing new|refresh|skip`, a site root's sitemaps from robots.txt, and --include/--exclude/--max-urls.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';
import { scratchMaker } from '../../../../helpers/scratch.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const scratch = scratchMaker('rsapi-existing-');

async function phpRank(): Promise<MockFixture & { methods: () => string[] }> {
  const fixture = await startMock({ flavor: 'phprank', seed: 3, rateLimit: 10_000 });
  closers.push(() => fixture.close());
  return { ...fixture, methods: () => fixture.server.requests.map((request) => request.method) };
}

/** A site on loopback: robots.txt naming a sitemap (or none), the sitemap listing `pages`. */
async function site(pages: string[], robots = true): Promise<{ origin: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url === '/robots.txt' && robots) return response.end(`User-agent: *\nDisallow: /admin\nSitemap: ${origin}/sitemaps/pages.xml\n`);
    if (request.url === (robots ? '/sitemaps/pages.xml' : '/sitemap.xml')) {
      const urls = pages.map((page) => `<url><loc>${origin}${page}</loc></url>`).join('');
      return response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe('--existing', () => {
  it('new (the default): a URL that has a report gets a second one, as before', async () => {
    const mock = await phpRank();
    const url = `https://${mock.server.reports()[0]!.url}`;
    const before = mock.server.reports().length;
    const run = await runInProcess({ argv: ['reports', 'create', url, '-o', 'json'], env: mock.env });
    expect(run.code).toBe(0);
    expect(mock.server.reports()).toHaveLength(before + 1);
  });

  it('--dry-run says what each mode would do: skip or re-audit a URL with a report, create the rest; only reads are sent', async () => {
    const mock = await phpRank();
    const had = mock.server.reports()[0]!;
    const urls = [`https://www.${had.url}`, 'https://new-page.example/x', 'https://left-out.example/y'];
    for (const [mode, row] of [
      ['skip', `${new URL(urls[0]!).href}\tskip\thas report ${had.id} (--existing skip)`],
      ['refresh', `${new URL(urls[0]!).href}\trefresh\thas report ${had.id}: re-audited (--existing refresh)`],
    ] as const) {
      const run = await runInProcess({
        argv: ['reports', 'create', ...urls, '--existing', mode, '--exclude', 'left-out.example/**', '--dry-run'],
        env: mock.env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split('\n')).toEqual([
        row,
        'https://new-page.example/x\tcreate\t',
        'https://left-out.example/y\tskip\tleft out by --include, --exclude or --max-urls',
        '',
      ]);
    }
    expect(new Set(mock.methods())).toEqual(new Set(['GET']));
  });

  it('skip: the report there is printed as it is; nothing is sent but the listing of its project', async () => {
    const mock = await phpRank();
    const had = mock.server.reports()[0]!;
    const run = await runInProcess({
      argv: ['reports', 'create', `https://www.${had.url}`, 'https://new-page.example/x', '--existing', 'skip', '-o', 'json'],
      env: mock.env,
    });
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { id: number }[];
    expect(printed[0]!.id).toBe(had.id);
    expect(mock.methods().filter((method) => method === 'POST')).toHaveLength(1);
    expect(run.stderr).toContain('created 1, kept 1 (had a report: --existing skip), failed 0');
  });

  it('refresh: the report there is re-audited (PATCH with results=1), none created', async () => {
    const mock = await phpRank();
    const had = mock.server.reports()[1]!;
    const before = mock.server.reports().length;
    const run = await runInProcess({ argv: ['reports', 'create', `https://${had.url}`, '--existing', 'refresh', '-o', 'json'], env: mock.env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: had.id });
    const patches = mock.server.requests.filter((request) => request.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatchObject({ path: `/api/v1/reports/${had.id}`, form: { results: '1' } });
    expect(mock.server.reports()).toHaveLength(before);
  });

  it('a bad mode is a usage error before anything is sent', async () => {
    const mock = await phpRank();
    const run = await runInProcess({ argv: ['reports', 'create', 'https://example.com/', '--existing', 'update'], env: mock.env });
    expect(run.code).toBe(2);
    expect(mock.server.requests).toHaveLength(0);
  });
});

describe('the weekly job: a site root, its sitemaps from robots.txt, --existing refresh', () => {
  it('run twice: the first creates one report a page, the second re-audits them and creates none', async () => {
    const mock = await phpRank();
    const pages = ['/', '/pricing', '/blog/a', '/blog/draft'];
    const { origin, asked } = await site(pages);
    const before = mock.server.reports().length;
    const argv = ['reports', 'create', '--from-sitemap', `${origin}/`, '--existing', 'refresh', '--exclude', '**/draft', '-o', 'json'];
    const first = await runInProcess({ argv, env: mock.env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${origin}/robots.txt names 1 sitemap`);
    expect(first.stderr).toContain('rsapi: 3 URLs selected; left out 1 URL by --include/--exclude');
    expect(asked).toEqual(['/robots.txt', '/sitemaps/pages.xml']);
    expect(mock.server.reports()).toHaveLength(before + 3);
    const second = await runInProcess({ argv, env: mock.env });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('created 0, refreshed 3 (had a report: re-audited), failed 0');
    expect(mock.server.reports()).toHaveLength(before + 3);
  });

  it('a site whose robots.txt names no sitemap: /sitemap.xml is read', async () => {
    const mock = await phpRank();
    const { origin } = await site(['/a'], false);
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', origin, '--dry-run'], env: mock.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${origin}/robots.txt names no sitemap; reading ${origin}/sitemap.xml`);
    expect(mock.server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});

describe('--include, --exclude, --max-urls', () => {
  it('send the matching URLs, in input order, at most N of them', async () => {
    const mock = await phpRank();
    const file = join(scratch(), 'urls.txt');
    const urls = [
      'https://www.example.com/blog/1',
      'https://example.com/about',
      'https://example.com/blog/2',
      'https://example.com/blog/2/draft',
      'https://example.com/blog/3',
    ];
    writeFileSync(file, `${urls.join('\n')}\n`);
    const run = await runInProcess({
      argv: ['reports', 'create', '--from-file', file, '--include', 'example.com/blog/**', '--exclude', '**/draft', '--max-urls', '2', '-o', 'json'],
      env: mock.env,
    });
    expect(run.code).toBe(0);
    const sent = mock.server.requests.filter((request) => request.method === 'POST').map((request) => request.form.url);
    expect(sent).toEqual(['https://www.example.com/blog/1', 'https://example.com/blog/2']);
    expect(run.stderr).toContain('rsapi: 2 URLs selected; left out 2 URLs by --include/--exclude and 1 URL past --max-urls 2');
  });

  it('a glob with a space is a usage error before anything is read or sent', async () => {
    const mock = await phpRank();
    const run = await runInProcess({ argv: ['reports', 'create', 'https://example.com/', '--include', 'example.com/a b'], env: mock.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--include "example.com\/a b" is not a glob over URLs/);
    expect(mock.server.requests).toHaveLength(0);
  });
});
