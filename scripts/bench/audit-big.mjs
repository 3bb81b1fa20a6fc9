#!/usr/bin/env node
// Issue 45's 50,000 pages, printed as JSON rows for scripts/bench.mjs (or read alone): against the phpRank mock with no
// rate limit and a sitemap of N URLs served on loopback, `rsapi audit` twice (week 1 creates, week 2 refreshes and
// compares with week 1), then the same refresh as a bare `reports create --existing refresh`. Each week's peak RSS
// (<= 300 MB), week 2's time against the bare refresh (<= 1.35x), `history diff` of the two runs (<= 2 s), the run's
// --html file (<= 10 MB) and its opening in Chromium (<= 3 s, then a sort and a filter drawn), when Debian's is
// installed. Week 2 and the bare refresh alternate --rounds times (each later week refreshes and compares with the one
// before, as week 2 does): the ratio is of their medians, the peak RSS the most of any. Last, after those timings, a
// week 1 of a second site SIGKILLed at 60% of its pages created, then resumed: every page must have one report, not two.
//
//   node scripts/bench/audit-big.mjs [--pages 50000] [--rounds 3] [--node PATH] [--no-browser] [--no-kill] [--keep] [--profile DIR (a CPU profile a run)]
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'rsapi');
const KEY = 'bench-key-0123456789';
const { values: opts } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    node: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
    'no-kill': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const PAGES = Number(opts.pages);
const ROUNDS = Math.max(1, Number(opts.rounds));
const NODE = opts.node ?? process.execPath;
const CHROMIUM = process.env.RSAPI_CHROMIUM || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
const work = mkdtempSync(join(tmpdir(), 'rsapi-bench-audit-big-'));
const version = spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
const pages = `${PAGES.toLocaleString('en')} pages`;

const site = await serveSitemap(PAGES);
const mock = await startMock();
try {
  const history = join(work, 'audit.db');
  const html = join(work, 'week.html');
  const config = join(work, 'rsapi.config.json');
  writeFileSync(config, JSON.stringify({ audit: { job: 'big', sitemaps: [site.sitemap], history, html, failOnNewFailures: true } }));
  const audit = [NODE, BIN, 'audit', '--config', config, '-q'];
  const week1 = await measured(audit, 'week 1');
  const laterWeeks = [];
  const bares = [];
  for (let round = 0; round < ROUNDS; round++) {
    laterWeeks.push(await measured(audit, `week ${round + 2}`));
    bares.push(await measured([NODE, BIN, 'reports', 'create', '--from-sitemap', site.sitemap, '--existing', 'refresh', '-q'], 'bare refresh'));
  }
  const [week2, bare] = [summed(laterWeeks), summed(bares)];
  const diff = await measured([NODE, BIN, 'history', 'diff', '--job', 'big', '--history', history, '-o', 'json'], 'history diff');
  emit({
    node: version,
    name: `\`rsapi audit\` ${pages}, week 1 (creates): peak RSS`,
    budget: '<= 300 MB',
    subject: `${week1.s} s, ${week1.mb} MB`,
    ok: week1.mb <= 300,
  });
  emit({
    node: version,
    name: `\`rsapi audit\` ${pages}, week 2 (refreshes, compares): peak RSS`,
    budget: '<= 300 MB',
    subject: `${week2.s} s${week2.of}, ${week2.mb} MB${ROUNDS > 1 ? ` (the most of ${ROUNDS})` : ''}`,
    ok: week2.mb <= 300,
  });
  const ratio = week2.ms / bare.ms;
  emit({
    node: version,
    name: `\`rsapi audit\` ${pages}, week 2 / a bare \`reports create --existing refresh\``,
    budget: '<= 1.35x',
    reference: `${bare.s} s${bare.of}, ${bare.mb} MB`,
    subject: `${week2.s} s${week2.of}`,
    ratio,
    ok: ratio <= 1.35,
  });
  emit({
    node: version,
    name: `\`rsapi history diff\` of the two runs of ${pages}`,
    budget: '<= 2 s',
    subject: `${diff.s} s, ${diff.mb} MB`,
    ok: diff.ms <= 2000,
  });
  const mb = statSync(html).size / 1e6;
  emit({ node: version, name: `\`rsapi audit --html\` ${pages}: the file`, budget: '<= 10 MB', subject: `${mb.toFixed(1)} MB`, ok: mb <= 10 });
  if (opts['no-browser']) process.stderr.write('bench: audit: the HTML page not opened (--no-browser)\n');
  else if (CHROMIUM) emit(await inChromium(html));
  else process.stderr.write('bench: audit: no Chromium, the HTML page not opened\n');
  if (opts['no-kill']) process.stderr.write('bench: audit: no kill and resume (--no-kill)\n');
  else emit(await killedAndResumed());
} finally {
  mock.child.kill('SIGTERM');
  site.server.close();
  if (opts.keep) process.stderr.write(`bench: audit: kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}

/** Runs alike as one: the median time, the most peak RSS, and `of`, how many (` (median of 3)`; empty for one). */
function summed(runs) {
  const ms = runs.map((run) => run.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const of = runs.length > 1 ? ` (median of ${runs.length})` : '';
  return { ms, s: (ms / 1000).toFixed(1), of, mb: Math.max(...runs.map((run) => run.mb)) };
}

/** One run with the peak-RSS exit hook preloaded (spawned, not spawnSync: this process serves the sitemap): wall time and peak RSS. */
async function measured(words, what) {
  const rssFile = join(work, 'rss.txt');
  rmSync(rssFile, { force: true });
  const profile = opts.profile ? ` --cpu-prof --cpu-prof-dir ${opts.profile} --cpu-prof-name ${what.replace(/\W+/g, '-')}.cpuprofile` : '';
  const env = { ...mock.env, NODE_OPTIONS: `--require ${join(ROOT, 'scripts', 'bench', 'max-rss.cjs')}${profile}`, RSAPI_BENCH_RSS_FILE: rssFile };
  const started = performance.now();
  const child = spawn(words[0], words.slice(1), { env, cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const status = await new Promise((resolve) => child.once('exit', resolve));
  const ms = performance.now() - started;
  if (status !== 0) throw new Error(`${what}: ${words.join(' ')} exited ${status}: ${stderr}`);
  const mb = Math.round(Number(readFileSync(rssFile, 'utf8').trim()) / 1024);
  process.stderr.write(`bench: audit: ${what}: ${(ms / 1000).toFixed(1)} s, ${mb} MB\n`);
  return { ms, s: (ms / 1000).toFixed(1), mb };
}

/**
 * Issue 45's "a kill at 30,000 pages resumes with no page created twice": a second site (URLs the job above never saw)
 * under a job and history of its own, so that its week 1 must create every page, SIGKILLed once 60% of them are
 * created, run again to the end (it resumes from its journal), then every report on the service counted by URL. A
 * page whose answer the kill lost must be looked up by the resume, not sent again: one report each, none missing.
 */
async function killedAndResumed() {
  const started = performance.now();
  const second = await serveSitemap(PAGES);
  try {
    const dir = join(work, 'kill');
    mkdirSync(dir);
    const config = join(dir, 'rsapi.config.json');
    writeFileSync(config, JSON.stringify({ audit: { job: 'kill', sitemaps: [second.sitemap], history: join(dir, 'audit.db') } }));
    const audit = [NODE, BIN, 'audit', '--config', config, '-q'];
    const killedAt = await killedOnceCreated(audit, dir, Math.ceil(PAGES * 0.6));
    const resume = await measured(audit, 'week 1 resumed');
    const host = new URL(second.sitemap).host;
    const counts = await reportsByUrl(Array.from({ length: PAGES }, (_, index) => `${host}/page/${index}`));
    const twice = counts.filter((count) => count > 1).length;
    const missing = counts.filter((count) => count === 0).length;
    const reports = counts.reduce((sum, count) => sum + count, 0);
    process.stderr.write(`bench: audit: killed, resumed and counted: ${((performance.now() - started) / 1000).toFixed(1)} s in all\n`);
    return {
      node: version,
      name: `\`rsapi audit\` ${pages}, SIGKILLed at ${Math.ceil(PAGES * 0.6).toLocaleString('en')} created, then resumed: reports on the service`,
      // A resumed week is a week: its peak RSS has the same bound.
      budget: 'each page once; the resume <= 300 MB',
      subject: `killed at ${killedAt.toLocaleString('en')} created, resumed in ${resume.s} s, ${resume.mb} MB; ${pages}, ${reports.toLocaleString('en')} reports, ${twice} twice, ${missing} missing`,
      ok: twice === 0 && missing === 0 && resume.mb <= 300,
    };
  } finally {
    second.server.close();
  }
}

/** `words` started, and SIGKILLed once its journal (the one `.journal` file in `dir`, polled every 100 ms) counts `count` created: how many it counted. */
async function killedOnceCreated(words, dir, count) {
  const child = spawn(words[0], words.slice(1), { env: mock.env, cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let status;
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      status = code ?? signal;
      resolve();
    }),
  );
  const created = journalCounter(dir);
  const started = performance.now();
  try {
    while (status === undefined) {
      const now = created();
      if (now >= count) {
        child.kill('SIGKILL');
        await exit;
        process.stderr.write(`bench: audit: week 1 SIGKILLed at ${now} created after ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
        return now;
      }
      await sleep(100);
    }
  } finally {
    // Whatever went wrong here, no audit is left running on the mock.
    if (status === undefined) child.kill('SIGKILL');
  }
  throw new Error(`the audit to kill exited ${status} at ${created()} created, before ${count}: ${stderr}`);
}

/**
 * A counter of the `created` lines of the journal in `dir` (none until the audit made it), reading on from where the
 * last call stopped, and only whole lines: a 50,000-page journal is read once, not every 100 ms.
 */
function journalCounter(dir) {
  let path;
  let offset = 0;
  let created = 0;
  return () => {
    path ??= readdirSync(dir)
      .filter((name) => name.endsWith('.journal'))
      .map((name) => join(dir, name))[0];
    if (path === undefined) return created;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(fstatSync(fd).size - offset);
      const read = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, offset));
      const whole = read.lastIndexOf(0x0a) + 1;
      for (const line of read.subarray(0, whole).toString('utf8').split('\n')) if (line.includes('"status":"created"')) created++;
      offset += whole;
    } finally {
      closeSync(fd);
    }
    return created;
  };
}

/** How many reports the service holds for each of `urls` (as phpRank stores them: no scheme), from `reports list --all`. */
async function reportsByUrl(urls) {
  const counts = new Map(urls.map((url) => [url, 0]));
  const child = spawn(NODE, [BIN, 'reports', 'list', '--all', '--per-page', '100', '-o', 'ndjson'], {
    env: mock.env,
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  for await (const line of createInterface({ input: child.stdout })) {
    const url = JSON.parse(line).url.replace(/^[a-z]+:\/\//i, '');
    if (counts.has(url)) counts.set(url, counts.get(url) + 1);
  }
  const status = await exit;
  if (status !== 0) throw new Error(`reports list --all exited ${status}`);
  return urls.map((url) => counts.get(url));
}

/** The page opened in Chromium (to the script's ready mark), then its table sorted by score and filtered by URL. */
async function inChromium(file) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const loads = [];
    for (let round = 0; round < 3; round++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(pathToFileURL(file).href, { timeout: 60_000 });
      await page.waitForSelector('html.scripted', { state: 'attached', timeout: 60_000 });
      loads.push(performance.now() - started);
      // Still sortable and filterable: a click on the score's header, then a URL filter keeps fewer rows.
      await page.locator('#reports thead th:nth-child(5) button').click();
      await page.waitForSelector('#reports thead th[aria-sort="ascending"]', { state: 'attached' });
      await page.locator('#filter-text').fill('/page/1');
      await page.waitForSelector('#table-status:has-text("match")', { state: 'attached', timeout: 30_000 });
      await context.close();
    }
    const load = loads.sort((a, b) => a - b)[1];
    return {
      node: `Chromium ${browser.version()}`,
      name: `\`rsapi audit --html\` ${pages}: opened in Chromium, then sorted and filtered`,
      budget: '<= 3 s',
      subject: `${(load / 1000).toFixed(2)} s`,
      ok: load <= 3000,
    };
  } finally {
    await browser.close();
  }
}

/** A sitemap of `count` page URLs on a loopback site of its own. */
function serveSitemap(count) {
  const server = createServer((request, response) => {
    if (request.url !== '/sitemap.xml') {
      response.writeHead(404).end();
      return;
    }
    const base = `http://127.0.0.1:${server.address().port}`;
    response.writeHead(200, { 'content-type': 'application/xml' });
    const entries = Array.from({ length: count }, (_, index) => `<url><loc>${base}/page/${index}</loc></url>`);
    response.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, sitemap: `http://127.0.0.1:${server.address().port}/sitemap.xml` }));
  });
}

/** `rsapi mock-server --flavor phprank --rate-limit 0` on a free loopback port. */
function startMock() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mock-server', '--port', '0', '--seed', '0', '--flavor', 'phprank', '--rate-limit', '0', '--api-key', KEY], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: cleanEnv(),
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, env: { ...cleanEnv(), RSAPI_BASE_URL: url, RSAPI_API_KEY: KEY, RSAPI_CONFIG_DIR: join(work, 'config') } });
    });
    child.on('exit', (code) => reject(new Error(`the mock service exited (${code}) before it listened`)));
  });
}

/** The environment minus anything that would change what rsapi or Node does. */
function cleanEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(RSAPI_|NODE_OPTIONS$|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|NO_PROXY$)/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function emit(row) {
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
