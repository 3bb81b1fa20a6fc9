#!/usr/bin/env node
// The screenshot of `rsapi history html` in docs/history.md (docs/history-html.png), made, not drawn: a weekly job's
// history written through the store (scripts/bench/history-html-data.ts: 26 weeks of 200 pages), the page written by
// the built CLI, opened in Debian's Chromium (RSAPI_CHROMIUM names another) at 1280 px, its top shot.
//
//   npm run build && node scripts/history-screenshot.mjs [--out docs/history-html.png] [--dark]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { importTs } from './bench/import-ts.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: { out: { type: 'string', default: join(ROOT, 'docs', 'history-html.png') }, dark: { type: 'boolean', default: false } },
});
const CHROMIUM = process.env.RSAPI_CHROMIUM || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
if (!CHROMIUM) throw new Error('no Chromium (apt-get install chromium, or set RSAPI_CHROMIUM)');
const work = mkdtempSync(join(tmpdir(), 'rsapi-history-shot-'));
try {
  const { writeWeeklyHistory } = await importTs(join(ROOT, 'scripts', 'bench', 'history-html-data.ts'), work, 'data');
  const history = join(work, 'history.db');
  await writeWeeklyHistory(history, { runs: 26, pages: 200 });
  const file = join(work, 'index.html');
  const written = spawnSync(process.execPath, [join(ROOT, 'bin', 'rsapi'), 'history', 'html', file, '--history', history], { encoding: 'utf8' });
  if (written.status !== 0) throw new Error(`rsapi history html exited ${written.status}: ${written.stderr}`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme: opts.dark ? 'dark' : 'light', deviceScaleFactor: 1 });
    const page = await context.newPage();
    // Two runs compared and a page followed, as a link to the page would open it.
    await page.goto(`${pathToFileURL(file).href}#job=site&run=26&from=22`);
    await page.waitForSelector('html.scripted', { state: 'attached' });
    await page.screenshot({ path: opts.out, clip: { x: 0, y: 0, width: 1280, height: 1000 } });
  } finally {
    await browser.close();
  }
  console.log(`${opts.out}: ${Math.round(statSync(opts.out).size / 1000)} kB`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
