// Sitemap input of any size, against the built binary: 150,000 URLs over three sitemaps (past the ~125,000 a spread into
// push took before "Maximum call stack size exceeded") are read whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../../helpers/cli.js';
import { mockPerTest } from '../../../../../helpers/mock.js';
import { scratchMaker } from '../../../../../helpers/scratch.js';

const mock = mockPerTest();
const scratch = scratchMaker('rsapi-sitemap-read-');

describe('sitemaps of any size', () => {
  it('150,000 URLs over three sitemaps of 50,000 each: every one read, none sent (--dry-run)', async () => {
    const fixture = await mock();
    const dir = scratch();
    const sitemaps = [0, 1, 2].map((part) => {
      const path = join(dir, `sitemap-${part}.xml`);
      const urls = Array.from({ length: 50_000 }, (_, i) => `<url><loc>https://shop.example/p/${part}/${i}</loc></url>`);
      writeFileSync(path, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`);
      return path;
    });
    const argv = ['reports', 'create', ...sitemaps.flatMap((path) => ['--from-sitemap', path]), '--dry-run', '-o', 'ndjson'];
    const run = await runCli(argv, { env: fixture.env, timeoutMs: 120_000 });
    expect(run.stderr).not.toContain('Maximum call stack size exceeded');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('rsapi: 150000 URLs from 3 sitemaps');
    const rows = run.stdout.trim().split('\n');
    expect(rows).toHaveLength(150_000);
    expect(JSON.parse(rows.at(-1)!)).toMatchObject({ url: 'https://shop.example/p/2/49999', action: 'create' });
    expect(fixture.server.requests).toEqual([]);
  }, 180_000);
});
