// `npm run demo`: starts the bundled mock service, runs real rsapi commands against it, stops it; then the same with
// the mock playing phpRank as deployed (numeric scores, per-check results, cleaned URLs, a throttle).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode } from './node-version.cjs';

requireNode('npm run demo', fileURLToPath(new URL('..', import.meta.url)));

const bin = fileURLToPath(new URL('../bin/rsapi', import.meta.url));

/** Starts `rsapi mock-server` with `args` on a free port; answers the child, its base URL and key once it printed them. */
async function startMock(args) {
  const mock = spawn(process.execPath, [bin, 'mock-server', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const banner = await new Promise((resolve, reject) => {
    let text = '';
    mock.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      if (/API key: \S+/.test(text)) resolve(text);
    });
    mock.on('exit', (code) => reject(new Error(`the mock service exited (${code})`)));
  });
  process.stdout.write(banner.replace(/^try:.*\n?/m, ''));
  return { mock, baseUrl: /listening on (\S+)/.exec(banner)[1], apiKey: /API key: (\S+)/.exec(banner)[1] };
}

/** Runs each step against a mock started with `mockArgs`, then stops it. */
async function demo(title, mockArgs, steps) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const configDir = mkdtempSync(join(tmpdir(), 'rsapi-demo-'));
  const { mock, baseUrl, apiKey } = await startMock(mockArgs);
  // The history of the demo's runs lives in its own scratch directory, never the user's.
  const env = { ...process.env, RSAPI_BASE_URL: baseUrl, RSAPI_API_KEY: apiKey, RSAPI_CONFIG_DIR: configDir, RSAPI_HISTORY: join(configDir, 'history.db') };
  try {
    for (const args of steps) {
      process.stdout.write(`\n$ rsapi ${args.join(' ')}\n`);
      const { status } = spawnSync(process.execPath, [bin, ...args], { env, stdio: 'inherit' });
      process.stdout.write(`(exit ${status})\n`);
    }
  } finally {
    const exited = once(mock, 'exit');
    mock.kill('SIGINT');
    await exited;
    rmSync(configDir, { recursive: true, force: true });
  }
}

await demo(
  'the service of the API document (rsapi mock-server)',
  [],
  [
    ['reports', 'list', '--result', 'bad', '-o', 'table'],
    ['reports', 'show', '3', '-o', 'table'],
    ['reports', 'create', 'https://example.com/new-landing-page', '-o', 'table'],
    ['projects', 'list', '-o', 'table'],
    ['reports', 'list', '--project', 'example.com', '--limit', '3', '--fields', 'id,url,score', '-o', 'csv'],
    ['reports', 'list', '--project', 'example.com', '--all', '--fail-on', 'bad', '-q'],
  ],
);

await demo(
  'phpRank as deployed (rsapi mock-server --flavor phprank)',
  ['--flavor', 'phprank'],
  [
    ['reports', 'list', '--limit', '5', '-o', 'table'],
    ['reports', 'create', 'https://www.example.com/old/landing', '--fields', 'id,url,project,result,score', '-o', 'table'],
    ['reports', 'stats', '-o', 'table'],
    ['projects', 'list', '-o', 'table'],
    ['reports', 'list', '--project', 'shop.example.org', '--all', '--fail-on', 'bad', '-q'],
  ],
);

// The HTML pages are kept after the demo to open in a browser, in a folder of this demo's own: a second demo at the
// same time writes its own, never over this one's.
const kept = mkdtempSync(join(tmpdir(), 'rsapi-demo-html-'));
// One HTML page of a phpRank run (--html).
const html = join(kept, 'report.html');
await demo('the run as one HTML page (--html)', ['--flavor', 'phprank'], [['reports', 'stats', '--html', html, '-o', 'table']]);

// Two weeks in a minute: a recorded run, five pages re-audited (the mock's --drift flips some of their checks), a
// second recorded run whose page shows what changed; then the history's own diff and trend.
const week = join(kept, 'weekly.html');
const pages = ['', 'pricing', 'about', 'contact', 'faq'].map((path) => `https://example.com/${path}`);
await demo(
  'a week later: the history (--record, --drift)',
  ['--flavor', 'phprank', '--drift', '0.3'],
  [
    ['reports', 'list', '--project', 'example.com', '--all', '--record', '-q'],
    ['reports', 'create', ...pages, '--existing', 'refresh', '-q'],
    ['reports', 'list', '--project', 'example.com', '--all', '--record', '--html', week, '--fields', 'id,url,score', '-o', 'table'],
    // The demo's output is a pipe: the history's best part is asked for as tables, not headerless tsv.
    ['history', 'diff', '-o', 'table'],
    ['history', 'trend', '--project', 'example.com', '-o', 'table'],
  ],
);
// The weekly job as one command: `rsapi audit` reads its file (here written for five pages; `rsapi audit --init URL`
// writes one for a site's sitemaps), refreshes every page, records the run under its job and compares it with the last.
const audited = join(kept, 'audit.html');
const config = join(mkdtempSync(join(tmpdir(), 'rsapi-demo-audit-')), 'rsapi.config.json');
writeFileSync(config, `${JSON.stringify({ audit: { job: 'example.com weekly', urls: pages, failOnNewFailures: true, html: audited } }, null, 2)}\n`);
await demo(
  'the weekly job in one command (rsapi audit)',
  ['--flavor', 'phprank', '--drift', '0.1'],
  [
    ['audit', '--config', config],
    ['audit', '--config', config],
    ['history', 'runs', '-o', 'table'],
  ],
);
rmSync(join(config, '..'), { recursive: true, force: true });
process.stdout.write(`\nThe HTML reports: ${html}, ${week} and ${audited} with what changed (open them in a browser; they load nothing from the network)\n`);
