// The history verbs' text on a terminal of a set width (diff-text.ts, runs.ts, trend.ts): URLs cut in the middle or a
// block per URL with its checks whole, the heading broken at words, runs as local minutes and flags, trend's scales.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawServer, type RawServer } from '../../../helpers/raw-server.js';
import { runInProcess } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/cli.js';

const dir = tempDir('rsapi-history-text-');
const CHECKS = ['title', 'meta_description', 'https_encryption', 'http2', 'content_length', 'image_keywords', 'structured_data', 'plaintext_email'];
const PAGES = ['contact-2', 'about-2', 'products/widget', 'careers'];

/** Two readings of four pages of one site: the second fails five checks more on each, and drops a few points. */
function week(index: number) {
  return PAGES.map((path, n) => ({
    id: n + 1,
    url: `https://shop.example.org/${path}`,
    project: 'shop.example.org',
    result: 80 - index * (n + 2),
    generated_at: `2026-01-0${1 + index * 7}T10:00:00.000000Z`,
    results: Object.fromEntries(CHECKS.map((id, c) => [id, { passed: index === 0 || c > 4, importance: 'high', value: `${id}:${index}` }])),
  }));
}

let server: RawServer;
let current = 0;
let history: string;
const env = () => ({ RSAPI_BASE_URL: `${server.url}/api/v1`, RSAPI_API_KEY: 'test-key-1234567890', TZ: 'UTC' });
const rsapi = (argv: string[], columns?: number) =>
  runInProcess({ argv: [...argv, '--history', history], env: env(), tty: columns === undefined ? false : { stdout: true }, columns });

beforeAll(async () => {
  server = await startRawServer((_request, response) => {
    const data = week(current);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data, meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length }, status: 200 }));
  });
  history = join(dir.path, 'history.db');
  for (const index of [0, 1]) {
    current = index;
    expect((await rsapi(['reports', 'list', '--all', '--project', 'shop.example.org', '--record', '--json'])).code).toBe(0);
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

describe('history diff on a terminal', () => {
  it.each([80, 40])('at %i columns: every URL told apart, every newly failing check shown, no line wider, the heading broken at words', async (columns) => {
    const { code, stdout } = await rsapi(['history', 'diff'], columns);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
    // The heading's words whole: joined back at its break, it is the heading.
    expect(stdout.slice(0, stdout.indexOf('\n\n')).replace(/\n/g, ' ')).toContain(
      'runs 1 → 2 (reports list --all --project shop.example.org on http://127.0.0.1:',
    );
    for (const path of PAGES) expect(lines.some((line) => line.includes(path.split('/').at(-1) as string))).toBe(true);
    const shown = stdout.replace(/\n {4}/g, ' ');
    for (const check of CHECKS.slice(0, 5)) expect(shown.split(check).length - 1, check).toBe(PAGES.length);
    expect(stdout).not.toMatch(/\bchanged\b/);
  });

  it('whole (--wide), it is the table of every column as before', async () => {
    const { stdout } = await rsapi(['history', 'diff', '--wide'], 80);
    expect(stdout).toMatch(/^url +status +score +new_failures +fixed$/m);
    expect(stdout).toMatch(/^shop\.example\.org\/\S+ +changed +\d/m);
  });
});

describe('history runs on a terminal', () => {
  it('shows the start to the minute in local time, the job as flags, the one service above the table', async () => {
    const { stdout } = await rsapi(['history', 'runs'], 80);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^id +started +job +reports +complete +exit$/);
    expect(lines[2]).toMatch(/^2 +\d\d-\d\d \d\d:\d\d +list --all --project shop\.example\.org +4 +yes +0$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('csv keeps the stored selection and the ISO start', async () => {
    const { stdout } = await rsapi(['history', 'runs', '-o', 'csv']);
    expect(stdout).toMatch(/^2,\d{4}-\d\d-\d\dT[\d:.]+Z,"reports list {""all"":true,""project"":""shop.example.org""}",http:/m);
  });
});

describe('history trend on a terminal', () => {
  it('each sparkline says its scale: the score out of 100, the failed checks from their fewest to their most', async () => {
    const { stdout } = await rsapi(['history', 'trend', '--project', 'shop.example.org'], 80);
    expect(stdout).toMatch(/^score +\S+ 80 → 76\.5 {2}\(scale 0–100\)$/m);
    // Per page (four pages, five more failing each): a site that grows does not look worse for it.
    expect(stdout).toMatch(/^failed\/page +\S+ 0 → 5 {2}\(scale 0–5\)$/m);
    expect(stdout).toMatch(/^run +started +reports +score +failed\/page +failed$/m);
  });
});

describe('npm run demo', () => {
  it('asks for the history diff and trend as tables: its output is a pipe, where they would be headerless tsv', async () => {
    const demo = await import('node:fs').then((fs) => fs.readFileSync(new URL('../../../../scripts/demo.mjs', import.meta.url), 'utf8'));
    expect(demo).toContain("['history', 'diff', '-o', 'table']");
    expect(demo).toMatch(/\['history', 'trend', [^\]]*'-o', 'table'\]/);
  });
});
