// Issue 45's memory budget for a big audit, scaled down to CI time: `rsapi audit` as a process of a sitemap on loopback
// against the phpRank mock with no rate limit, week 1 (creates) and week 2 (refreshes and compares, --html): how much
// each week's peak RSS (scripts/bench/max-rss.cjs) grows with the pages, over a run of a few pages on the same machine
// and Node (what Node and the bundle take at start is not the run's). The bounds hold what a page costs today with room
// for the collector's timing (10,000 pages: week 1 grew 60-71 MB, week 2 85-99 MB; before each report was held once
// and its failed checks as shared texts, 112-133 and 136-149 MB). The 300 MB at 50,000 pages lives in the bench
// (scripts/bench/audit-big.mjs).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { mockPerTest } from '../helpers/mock.js';
import { scratchMaker } from '../helpers/scratch.js';

const MAX_RSS = fileURLToPath(new URL('../../scripts/bench/max-rss.cjs', import.meta.url));
const PAGES = 10_000;
const FEW = 50;
/** What each week's peak RSS may grow by a page: week 1, week 2. */
const BYTES_A_PAGE = [9_000, 12_000] as const;

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 0 });
const scratch = scratchMaker('rsapi-audit-memory-');
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A sitemap of `count` page URLs on a loopback site of its own. */
async function serveSitemap(count: number): Promise<string> {
  const server: Server = createServer((request, response) => {
    if (request.url !== '/sitemap.xml') {
      response.writeHead(404).end();
      return;
    }
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    response.writeHead(200, { 'content-type': 'application/xml' });
    const entries = Array.from({ length: count }, (_, index) => `<url><loc>${base}/page/${index}</loc></url>`);
    response.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`;
}

/** Weeks 1 and 2 of an audit of `pages` pages: each week's peak RSS in MB. */
async function weeks(pages: number): Promise<[number, number]> {
  const service = await mock();
  const dir = scratch();
  const config = join(dir, 'rsapi.config.json');
  const sitemap = await serveSitemap(pages);
  writeFileSync(
    config,
    JSON.stringify({ audit: { job: 'big', sitemaps: [sitemap], history: join(dir, 'audit.db'), html: join(dir, 'week.html'), failOnNewFailures: true } }),
  );
  const rssFile = join(dir, 'rss.txt');
  const env = {
    ...service.env,
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    NODE_OPTIONS: `--require ${MAX_RSS}`,
    RSAPI_BENCH_RSS_FILE: rssFile,
  };
  const peaks: number[] = [];
  for (const week of [1, 2]) {
    rmSync(rssFile, { force: true });
    const result = await runCli(['audit', '--config', config, '--concurrency', '8', '-q'], { env, timeoutMs: 90_000 });
    expect(result.code, `week ${week}: ${result.stderr}`).toBe(0);
    peaks.push(Number(readFileSync(rssFile, 'utf8').trim()) / 1024);
  }
  return [peaks[0] ?? 0, peaks[1] ?? 0];
}

describe("a big audit's memory, scaled down", () => {
  it(`${PAGES.toLocaleString('en')} pages: peak RSS grows by at most 9,000 bytes a page over ${FEW} pages' in week 1, 12,000 in week 2`, async () => {
    const few = await weeks(FEW);
    const many = await weeks(PAGES);
    for (const week of [0, 1] as const) {
      const allowed = ((PAGES - FEW) * BYTES_A_PAGE[week]) / 2 ** 20;
      const grown = (many[week] ?? 0) - (few[week] ?? 0);
      expect
        .soft(grown, `week ${week + 1}: ${Math.round(few[week] ?? 0)} MB at ${FEW} pages, ${Math.round(many[week] ?? 0)} MB at ${PAGES}`)
        .toBeLessThanOrEqual(allowed);
    }
  }, 240_000);
});
