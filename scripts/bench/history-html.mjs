#!/usr/bin/env node
// `rsapi history html`'s budgets (issue 43), printed as JSON rows for scripts/bench.mjs (or read alone), over a weekly
// job's history written through the store (scripts/bench/history-html-data.ts): 52 runs of 5,000 pages (260,000
// snapshots, less the pages published late or gone early). The file's size (<= 12 MB) and the time `history html`
// takes to write it (<= 20 s) on each Node given; its opening (<= 2.5 s) and a URL filter (<= 200 ms) in Chromium,
// when Debian's is installed.
//
//   node scripts/bench/history-html.mjs [--runs 52] [--pages 5000] [--node PATH ...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { importTs } from './import-ts.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '52' },
    pages: { type: 'string', default: '5000' },
    node: { type: 'string', multiple: true },
  },
});
const RUNS = Number(opts.runs);
const PAGES = Number(opts.pages);
const NODES = opts.node ?? [process.execPath];
const CHROMIUM = process.env.RSAPI_CHROMIUM || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
const work = mkdtempSync(join(tmpdir(), 'rsapi-bench-history-html-'));

try {
  const { writeWeeklyHistory } = await importTs(join(ROOT, 'scripts', 'bench', 'history-html-data.ts'), work, 'data');
  const history = join(work, 'history.db');
  const snapshots = await writeWeeklyHistory(history, { runs: RUNS, pages: PAGES });
  const size = `${RUNS} runs of ${PAGES} pages (${snapshots} snapshots)`;
  const file = join(work, 'history.html');
  for (const node of NODES) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    const started = performance.now();
    const result = spawnSync(node, [join(ROOT, 'bin', 'rsapi'), 'history', 'html', file, '--history', history], { encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`history html exited ${result.status}: ${result.stderr}`);
    const mb = statSync(file).size / 1e6;
    emit({ node: version, name: `\`history html\`: the file, ${size}`, budget: '<= 12 MB', subject: `${mb.toFixed(1)} MB`, ok: mb <= 12 });
    emit({ node: version, name: `\`history html\`: written, ${size}`, budget: '<= 20 s', subject: `${seconds.toFixed(1)} s`, ok: seconds <= 20 });
  }
  if (CHROMIUM) for (const row of await inChromium(file, size)) emit(row);
  else process.stderr.write('bench: history html: no Chromium, its opening and filter not measured\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The page opened in Chromium (navigation to the script's ready mark) and a URL glob filter's drawing, each a median of 3. */
async function inChromium(file, size) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const loads = [];
  const filters = [];
  try {
    for (let round = 0; round < 3; round++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html.scripted', { state: 'attached', timeout: 60_000 });
      loads.push(await page.evaluate(`performance.getEntriesByName('rsapi-history-ready')[0].startTime`));
      await page.locator('#filter-url').fill('example.com/blog/**');
      await page.waitForSelector('#status:has-text("kept")', { state: 'attached' });
      filters.push(await page.evaluate(`performance.getEntriesByName('rsapi-history-refresh').at(-1).duration`));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const load = median(loads);
  const filter = median(filters);
  const chromiumVersion = browser.version?.() ?? '';
  return [
    {
      node: `Chromium ${chromiumVersion}`,
      name: `\`history html\`: opened in Chromium, ${size}`,
      budget: '<= 2.5 s',
      subject: `${(load / 1000).toFixed(2)} s`,
      ok: load <= 2500,
    },
    {
      node: `Chromium ${chromiumVersion}`,
      name: `\`history html\`: a URL filter drawn, ${size}`,
      budget: '<= 200 ms',
      subject: `${Math.round(filter)} ms`,
      ok: filter <= 200,
    },
  ];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function emit(row) {
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
