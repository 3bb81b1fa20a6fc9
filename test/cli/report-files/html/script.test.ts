// The HTML report in a real headless Chromium, made through the real CLI (in-process) against the mock and a hostile
// service: no request when opened, the run's counts and rows, sorting, filtering, hostile text inert.
// (10,000 reports opening within 1 s is timed alone, after the rest of the suite: script.timed.test.ts.)
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkName, failedChecks, reportChecks } from '../../../../src/api/model/checks.js';
import { readReport } from '../../../../src/api/model/report-model.js';
import { browserUnavailable, chromiumPerDescribe, seriousViolations, type Page } from '../../../helpers/browser.js';
import { tempDir } from '../../../helpers/cli.js';
import { startHostileServer } from '../../../helpers/hostile-server.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { runInProcess } from '../../../helpers/run.js';
import { reportIdentity } from '../../../../src/api/model/report-url.js';
import { renderHtml } from '../../../../src/cli/report-files/html/page.js';
import type { CiRun } from '../../../../src/cli/report-files/run-record.js';
import { phprankReport, startReportServer } from '../../../helpers/phprank-checks.js';

/** The projects' tables' host names, each with whether a line of it starts after a character other than a dot or a hyphen (broken inside a label). */
const PROJECT_HOSTS = `[...document.querySelectorAll('section[aria-labelledby=projects-title] tbody th, section[aria-labelledby=history-title] > .table-wrap tbody th')]
      .map((cell) => { const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT); const chars = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) for (let at = 0; at < node.length; at++) chars.push([node, at]);
        const range = document.createRange(); const tops = chars.map(([node, at]) => { range.setStart(node, at); range.setEnd(node, at + 1); return Math.round(range.getBoundingClientRect().top); });
        const name = cell.textContent; return { name, broken: tops.some((top, index) => index > 0 && top > tops[index - 1] && !/[.-]/.test(name[index - 1])) }; })`;
/** The trend lines not wholly inside their cell, or past the screen's edge in a table that does not scroll sideways. */
const CLIPPED_TRENDS = `[...document.querySelectorAll('section[aria-labelledby=history-title] tbody td svg.spark, #reports td.trend svg')]
      .filter((svg) => { const box = svg.getBoundingClientRect(); const cell = svg.closest('td').getBoundingClientRect(); const wrap = svg.closest('.table-wrap');
        return box.left < cell.left - 0.5 || box.right > cell.right + 0.5 || (box.right > innerWidth + 0.5 && wrap.scrollWidth <= wrap.clientWidth); })
      .map((svg) => svg.getAttribute('aria-label'))`;

const unavailable = await browserUnavailable();
const dir = tempDir('rsapi-html-browser-');
/** Set RSAPI_HTML_SHOTS to a folder to keep the screenshots (the temp dir goes at the end). */
const keepShots = process.env.RSAPI_HTML_SHOTS;

describe.skipIf(unavailable !== undefined)('the HTML report in headless Chromium', () => {
  /** Opens a file with every request other than the file itself aborted and recorded. */
  const { open } = chromiumPerDescribe();
  afterAll(() => dir.cleanup());

  async function screenshot(page: Page, name: string): Promise<string> {
    const path = join(dir.path, name);
    await page.screenshot({ path });
    if (keepShots) {
      mkdirSync(keepShots, { recursive: true });
      copyFileSync(path, join(keepShots, name));
    }
    return path;
  }

  const rowsOf = (page: Page) => page.locator('#reports tbody tr');
  const column = (page: Page, index: number) => page.locator(`#reports tbody tr td:nth-child(${index})`).allTextContents();

  describe('a reports list run against the mock, with a gate and a baseline', () => {
    let mock: MockFixture;
    let file: string;
    let run: { code: number; stderr: string };
    let expected: Record<string, number>;

    beforeAll(async () => {
      mock = await startMock();
      const records = mock.server.reports();
      expected = { good: 0, decent: 0, bad: 0 };
      for (const record of records) expected[readReport({ ...record }).label!]!++;
      // The baseline: three URLs scored higher then, one URL is new now, one is gone.
      const baseline = records.slice(1).map((record, index) => (index < 3 ? { ...record, score: Number(record.score) + 20, result: 'good' } : record));
      baseline.push({ ...records[5]!, id: 999, url: 'https://example.com/retired' });
      writeFileSync(join(dir.path, 'base.json'), JSON.stringify(baseline));
      file = join(dir.path, 'list.html');
      run = await runInProcess({
        argv: ['reports', 'list', '--all', '--fail-on', 'bad', '--baseline', join(dir.path, 'base.json'), '--html', file, '-q'],
        env: mock.env,
      });
    });
    afterAll(async () => {
      await mock?.close();
    });

    it('opens with no request of any kind, no script error, and shows the verdict, the counts and one row per report', async () => {
      expect(run.code).toBe(10);
      const { page, requests, errors } = await open(file);
      const readyMs = await page.evaluate<number>(`performance.getEntriesByName('rsapi-table-ready')[0].startTime`);
      console.info(`HTML report of 63 reports: ${(statSync(file).size / 1e3).toFixed(0)} kB, table ready ${Math.round(readyMs)} ms after navigation`);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(errors).toEqual([]);
      expect(await page.locator('.verdict p').textContent()).toBe('Failed (exit 10)');
      expect(await page.locator('.verdict li').allTextContents()).toEqual([`gate failed: ${expected.bad} of 63 reports are bad (--fail-on bad)`]);
      const cards = await page.locator('.cards li').allTextContents();
      expect(cards).toEqual([
        expect.stringMatching(new RegExp(`^${expected.good}good`)),
        expect.stringMatching(new RegExp(`^${expected.decent}decent`)),
        expect.stringMatching(new RegExp(`^${expected.bad}bad`)),
        expect.stringMatching(/^\d+(\.\d)?average scoremedian \d+(\.\d)?$/),
      ]);
      expect(await rowsOf(page).count()).toBe(63);
      expect(await page.locator('#table-status').textContent()).toBe('All 63 reports.');
      const histogram = await page.locator('details table tbody td').allTextContents();
      expect(histogram.map(Number).reduce((a, b) => a + b, 0)).toBe(63);
      expect(await page.locator('#baseline-title + p').textContent()).toContain('3 of 62 reports regressed; 1 new, 1 vanished');
      expect(await page.locator('section[aria-labelledby=baseline-title] tbody tr').count()).toBe(3);
      // Times in the reader's zone, UTC on hover.
      expect(await page.locator('#reports tbody time').nth(0).getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      const light = await screenshot(page, 'report-top-1280x800.png');
      expect(statSync(light).size).toBeGreaterThan(10_000);
      const dark = await open(file, { colorScheme: 'dark' });
      const background = await dark.page.evaluate<string>(`getComputedStyle(document.body).backgroundColor`);
      expect(background).toBe('rgb(13, 17, 23)');
      // axe-core (contrast, names, roles, ARIA): no serious or critical violation, light and dark.
      expect(await seriousViolations(page)).toEqual([]);
      expect(await seriousViolations(dark.page)).toEqual([]);
      await screenshot(dark.page, 'report-top-1280x800-dark.png');
    });

    it('sorts by score from the keyboard, ascending then descending, and says so in aria-sort', async () => {
      const { page } = await open(file);
      const scoreHeader = page.locator('#reports thead th').nth(4);
      await scoreHeader.locator('button').focus();
      await page.keyboard.press('Enter');
      expect(await scoreHeader.getAttribute('aria-sort')).toBe('ascending');
      const ascending = (await column(page, 5)).map(Number);
      expect(ascending).toHaveLength(63);
      expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
      expect(ascending[0]).toBeLessThan(ascending[62]!);
      await page.keyboard.press('Enter');
      expect(await scoreHeader.getAttribute('aria-sort')).toBe('descending');
      const descending = (await column(page, 5)).map(Number);
      expect(descending).toEqual([...ascending].reverse());
    });

    it('filtering by bad leaves only the bad reports; text narrows it further', async () => {
      const { page } = await open(file);
      await page.locator('#filter-result').selectOption('bad');
      const results = await column(page, 4);
      expect(results).toHaveLength(expected.bad!);
      expect(new Set(results)).toEqual(new Set(['bad']));
      expect(await page.locator('#table-status').textContent()).toBe(`${expected.bad} of 63 reports match.`);
      await page.locator('#filter-text').fill('shop.example.org');
      const projects = await column(page, 3);
      expect(projects.length).toBeGreaterThan(0);
      expect(projects.length).toBeLessThan(expected.bad!);
      expect(new Set(projects)).toEqual(new Set(['shop.example.org']));
      expect(new Set(await column(page, 4))).toEqual(new Set(['bad']));
    });
  });

  it('a phpRank run: labels from its numeric results, the checks failed most, cleaned URLs linked over https', async () => {
    const mock = await startMock({ flavor: 'phprank', rateLimit: 1000 });
    try {
      const listed = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: mock.env });
      const records = JSON.parse(listed.stdout) as Record<string, unknown>[];
      expect(records.length).toBeGreaterThan(0);
      const bad = records.filter((record) => readReport(record).label === 'bad').length;
      const failing = new Map<string, number>();
      for (const record of records)
        for (const check of failedChecks(reportChecks(record) ?? [])) failing.set(checkName(check.id), (failing.get(checkName(check.id)) ?? 0) + 1);
      const most = Math.max(...failing.values());
      const file = join(dir.path, 'phprank.html');
      const run = await runInProcess({ argv: ['reports', 'stats', '--html', file], env: mock.env });
      expect(run.code).toBe(0);
      const { page, requests, errors } = await open(file);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(errors).toEqual([]);
      expect(await page.locator('.cards li').nth(2).textContent()).toMatch(new RegExp(`^${bad}bad`));
      expect(await rowsOf(page).count()).toBe(records.length);
      const checkRows = page.locator('section[aria-labelledby=checks-title] tbody tr');
      expect(await checkRows.count()).toBe(failing.size);
      const first = (await checkRows.nth(0).textContent())!;
      expect(first).toContain(`${most} (`);
      expect(failing.get(first.slice(0, first.indexOf(first.match(/(high|medium|low|–)/)![0])))).toBe(most);
      const link = page.locator('#reports tbody td.url a').nth(0);
      const shown = (await link.textContent())!;
      expect(shown).not.toMatch(/^https?:/);
      expect(await link.getAttribute('href')).toBe(new URL(`https://${shown}`).href);
    } finally {
      await mock.close();
    }
  });

  it('with a history: "Over time" per project, "Changed since the last run" (checks first), a trend line per URL; none and no file made without one', async () => {
    const mock = await startMock({ flavor: 'phprank', rateLimit: 0, drift: 0.3 });
    try {
      const history = join(dir.path, 'page-history.db');
      const env = { ...mock.env, RSAPI_HISTORY: history };
      const list = (...more: string[]) => runInProcess({ argv: ['reports', 'list', '--project', 'example.com', '--all', '-q', ...more], env });
      // No history yet: the page has no history section, and reading it made no file.
      const before = join(dir.path, 'before-history.html');
      expect((await list('--html', before)).code).toBe(0);
      expect(existsSync(history)).toBe(false);
      expect(readFileSync(before, 'utf8')).not.toContain('id="history-title"');
      // Two recorded weeks, every report re-audited (the mock drifts) after each; the third run writes the page.
      for (let week = 0; week < 2; week++) {
        const recorded = await list('--record');
        expect(recorded.code, recorded.stderr).toBe(0);
        for (const id of recorded.stdout.trim().split('\n'))
          expect((await runInProcess({ argv: ['reports', 'update', id, '--refresh', '-q'], env })).code).toBe(0);
      }
      const file = join(dir.path, 'history.html');
      const run = await list('--record', '--html', file);
      expect(run.code, run.stderr).toBe(0);
      const { page, requests, errors } = await open(file);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(errors).toEqual([]);
      expect(await page.locator('#history-title').textContent()).toBe('Over time');
      const projectLine = await page.locator('section[aria-labelledby=history-title] svg.spark').getAttribute('aria-label');
      expect(projectLine).toMatch(/^Average score of example\.com over 2 earlier runs and now: [\d.]+, [\d.]+, [\d.]+$/);
      // The project's "now" is the Projects section's average.
      const average = (await page.locator('section[aria-labelledby=projects-title] tbody td').nth(1).textContent())!.trim();
      expect(projectLine!.split(', ').at(-1)).toBe(average);
      expect(await page.locator('#baseline-title').textContent()).toBe('Changed since the last run');
      const changed = await page.evaluate<string[]>(
        `[...document.querySelectorAll('section[aria-labelledby=baseline-title] caption')].map((caption) => caption.textContent)`,
      );
      expect(changed[0]).toMatch(/^Checks that changed since the last run on \d+ URLs?: listed, not judged/);
      expect(await page.locator('#reports thead th').nth(6).textContent()).toBe('trend');
      // A line per URL: its two earlier scores and now, the last its score cell's.
      const rows = await page.evaluate<{ label: string | null; score: string }[]>(
        `[...document.querySelectorAll('#reports tbody tr')].map((tr) => ({ label: tr.querySelector('td.trend svg')?.getAttribute('aria-label') ?? null, score: tr.cells[4].textContent }))`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.label).toMatch(/^Scores in 2 earlier runs and now: \d+, \d+, \d+$/);
        expect(row.label!.split(', ').at(-1)).toBe(String(Math.round(Number(row.score))));
      }
      expect(await page.locator('#reports td.trend svg polyline').count()).toBe(rows.length);
      await screenshot(page, 'history.png');
    } finally {
      await mock.close();
    }
  });

  it('per page: a failing row is marked and opens to its failed checks; "failing only"; the id links to the service; a 5,000-character URL does not widen the page', async () => {
    const long = `example.com/${'very-long-path-segment/'.repeat(220)}end`;
    const records = [
      phprankReport(41, 'example.com/pricing', ['title', 'meta_description', 'http2']),
      phprankReport(42, 'example.com/about', ['favicon']),
      phprankReport(43, long, ['meta_description']),
    ];
    const server = await startReportServer(records);
    try {
      const rules = join(dir.path, 'rsapi.config.json');
      writeFileSync(rules, JSON.stringify({ assert: [{ match: '**', checks: { meta_description: 'error' } }] }));
      const file = join(dir.path, 'per-page.html');
      const run = await runInProcess({ argv: ['reports', 'list', '--assert', rules, '--html', file, '-q'], env: { ...server.env, GITHUB_SHA: 'abc1234' } });
      expect(run.code, run.stderr).toBe(10);
      const { page, errors, requests } = await open(file);
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(await page.locator('dl.ran').textContent()).toBe(`Service${server.url}Commitabc1234`);
      // No horizontal scroll, however long the URL: it wraps.
      expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
      const longLink = page.locator('#reports tbody tr', { hasText: 'very-long' }).locator('td.url a');
      expect(await longLink.getAttribute('title')).toBe(long);
      expect(await page.evaluate(`document.querySelector('#reports td.url a[title]').getBoundingClientRect().height < 100`)).toBe(true);
      const pricing = page.locator('#reports tbody tr', { hasText: 'example.com/pricing' });
      expect(await pricing.getAttribute('class')).toBe('failing');
      expect(await page.locator('#reports tbody tr', { hasText: 'example.com/about' }).getAttribute('class')).toBeNull();
      expect(await pricing.locator('td.id a').getAttribute('href')).toBe(`${server.url}/reports/41`);
      expect(await pricing.locator('td.url a').getAttribute('href')).toBe('https://example.com/pricing');
      // Enter on the row's button opens it: why it fails, then the failed checks in the words of reports show.
      await pricing.locator('button.open').focus();
      await page.keyboard.press('Enter');
      expect(await pricing.locator('button.open').getAttribute('aria-expanded')).toBe('true');
      const detail = page.locator('#reports tbody tr.detail');
      expect(await detail.locator('ul.why li').allTextContents()).toEqual([`meta_description: missing (${rules}:1)`]);
      expect(await detail.locator('p').textContent()).toBe('checks: 33 of 36 passed');
      expect(await detail.locator('ul.checks li').allTextContents()).toEqual([
        'high Meta description — missing',
        'high Title: Welcome to the very long and repetitive home page title of our company website — too long (max 60)',
        'medium HTTP/2 — failed',
      ]);
      await screenshot(page, 'opened-row.png');
      // A click (on its score) closes it again.
      await pricing.locator('td.num').nth(0).click();
      expect(await detail.count()).toBe(0);
      await page.locator('#filter-failing').check();
      expect(await page.locator('#table-status').textContent()).toBe('2 of 3 reports match.');
      expect(await rowsOf(page).count()).toBe(2);
    } finally {
      await server.close();
    }
  });

  describe('on a phone (390 px) and a desktop (1280 px), with and without a history', () => {
    let mock: MockFixture;
    const files = { plain: join(dir.path, 'phone-plain.html'), history: join(dir.path, 'phone-history.html') };
    beforeAll(async () => {
      mock = await startMock({ flavor: 'phprank', rateLimit: 0, drift: 0.3 });
      const env = { ...mock.env, RSAPI_HISTORY: join(dir.path, 'phone-history.db') };
      const list = (...more: string[]) => runInProcess({ argv: ['reports', 'list', '--all', '-q', ...more], env });
      expect((await list('--html', files.plain)).code).toBe(0);
      expect((await list('--record')).code).toBe(0);
      const run = await list('--record', '--html', files.history);
      expect(run.code, run.stderr).toBe(0);
    });
    afterAll(async () => {
      await mock?.close();
    });
    const overflow = (page: Page) =>
      page.evaluate<{ scrollWidth: number; innerWidth: number; wider: string[] }>(
        `({ scrollWidth: document.documentElement.scrollWidth, innerWidth, wider: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('.visually-hidden')).slice(0, 5).map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent ?? '').slice(0, 40)) })`,
      );

    for (const kind of ['plain', 'history'] as const)
      it(`${kind === 'plain' ? 'without' : 'with'} a history: nothing is wider than 390 px, an opened row's detail included, which wraps within the screen`, async () => {
        const { page, errors } = await open(files[kind], { width: 390 });
        expect(errors).toEqual([]);
        expect(await page.locator('.cards li').count()).toBe(4);
        const closed = await overflow(page);
        expect(closed.wider).toEqual([]);
        expect(closed.scrollWidth).toBeLessThanOrEqual(closed.innerWidth);
        await screenshot(page, `phone-${kind}-390.png`);
        await rowsOf(page).nth(0).locator('button.open').click();
        const detail = page.locator('#reports tbody tr.detail td');
        expect(await detail.count()).toBe(1);
        const opened = await overflow(page);
        expect(opened.wider).toEqual([]);
        expect(opened.scrollWidth).toBeLessThanOrEqual(opened.innerWidth);
        expect(await detail.locator('ul.checks li').count()).toBeGreaterThan(0);
        expect(await page.evaluate<number>(`document.querySelector('#reports tr.detail td').getBoundingClientRect().right`)).toBeLessThanOrEqual(390);
        await screenshot(page, `phone-${kind}-390-opened.png`);
        const desktop = await open(files[kind], { width: 1280 });
        const wide = await overflow(desktop.page);
        expect(wide.scrollWidth).toBeLessThanOrEqual(wide.innerWidth);
        await screenshot(desktop.page, `phone-${kind}-1280.png`);
      });
  });

  it("a history with missing weeks: a week alone between two gaps is a dot, in the URLs' lines and the projects'; 12 runs of 8 long-named projects fit 390 px", async () => {
    // Twelve earlier weekly runs; the first URL was not read in weeks 1, 3 and 10, so weeks 0, 2 and 11 stand alone.
    const runs = Array.from({ length: 12 }, (_, week) => ({ id: week + 1, started: new Date(Date.UTC(2026, 8, 1 + 7 * week)).toISOString() }));
    const gappy = [40, null, 50, null, 55, 60, 62, 64, 66, 68, null, 70];
    const projects = Array.from({ length: 8 }, (_, index) => `project-${index}.a-rather-long-subdomain.example.com`);
    const records = projects.map((project, index) => ({ id: index + 1, url: `https://${project}/page`, project, result: 'decent', score: 72 }));
    const scoresOf = (index: number) => (index === 0 ? gappy : gappy.map((score) => score ?? 50));
    const scores = new Map(records.map((record, index) => [reportIdentity(record.url), scoresOf(index)]));
    const run: CiRun = {
      command: 'reports list',
      startedAt: new Date('2026-11-24T09:00:00Z'),
      seconds: 1,
      cases: records.map((record) => ({ kind: 'report' as const, url: record.url, record, gateFailures: [] })),
      gate: { active: false, failed: false, verdict: 'gate passed' },
      history: { runs, last: { path: 'run 12', byUrl: new Map() }, scores, projects: new Map(projects.map((project, index) => [project, scoresOf(index)])) },
    };
    const file = join(dir.path, 'gaps.html');
    writeFileSync(file, renderHtml(run, 0));
    const { page, errors } = await open(file, { width: 390 });
    expect(errors).toEqual([]);
    const first = page.locator('#reports tbody tr', { hasText: 'project-0.' }).locator('td.trend svg');
    expect(await first.getAttribute('aria-label')).toBe('Scores in 12 earlier runs and now: 40, –, 50, –, 55, 60, 62, 64, 66, 68, –, 70, 72');
    // Weeks 0 and 2 are dots of their own; 4-9 and 11-now are lines; now has the last point's dot.
    expect(await first.locator('polyline').count()).toBe(2);
    expect(await first.locator('circle.lone').count()).toBe(2);
    expect(await first.locator('circle:not(.lone)').count()).toBe(1);
    const projectLine = page.locator('section[aria-labelledby=history-title] tbody tr').nth(0).locator('svg.spark');
    expect(await projectLine.locator('circle.lone').count()).toBe(2);
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    await page.evaluate(`document.querySelector('section[aria-labelledby=history-title] details').open = true`);
    expect(await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).length`)).toBe(0);
    await page.evaluate(`document.getElementById('history-title').scrollIntoView()`);
    await screenshot(page, 'gaps-390-over-time.png');
    await page.evaluate(`document.getElementById('reports').scrollIntoView()`);
    await screenshot(page, 'gaps-390-table.png');
  });

  it('at 390 px the projects\' tables break a host name between its labels only, never inside one ("qa4shop.te st"), and show every trend line whole', async () => {
    const runs = Array.from({ length: 6 }, (_, week) => ({ id: week + 1, started: new Date(Date.UTC(2026, 8, 1 + 7 * week)).toISOString() }));
    const projects = ['qa4shop.test', 'www.qa4shop-staging.example.com', 'blog.example.org', 'shop.example.net'];
    const records = projects.map((project, index) => ({ id: index + 1, url: `https://${project}/`, project, result: 'decent', score: 70 + index }));
    const averages = [60, 62, 64, 61, 66, 68];
    const run: CiRun = {
      command: 'reports list',
      startedAt: new Date('2026-10-13T09:00:00Z'),
      seconds: 1,
      cases: records.map((record) => ({ kind: 'report' as const, url: record.url, record, gateFailures: [] })),
      gate: { active: false, failed: false, verdict: 'gate passed' },
      history: {
        runs,
        last: { path: 'run 6', byUrl: new Map() },
        scores: new Map(records.map((record) => [reportIdentity(record.url), averages])),
        projects: new Map(projects.map((project) => [project, averages])),
      },
    };
    const file = join(dir.path, 'hosts.html');
    writeFileSync(file, renderHtml(run, 0));
    const { page, errors } = await open(file, { width: 390 });
    expect(errors).toEqual([]);
    await page.evaluate(`document.getElementById('projects-title').scrollIntoView()`);
    await screenshot(page, 'hosts-390-projects.png');
    await page.evaluate(`document.getElementById('history-title').scrollIntoView()`);
    await screenshot(page, 'hosts-390-over-time.png');
    const hosts = await page.evaluate<{ name: string; broken: boolean }[]>(PROJECT_HOSTS);
    expect(hosts.map((host) => host.name).sort()).toEqual([...projects, ...projects].sort());
    const broken = hosts.filter((host) => host.broken).map((host) => host.name);
    expect(broken).toEqual([]);
    const clipped = await page.evaluate<string[]>(CLIPPED_TRENDS);
    expect(clipped).toEqual([]);
    expect(await page.locator('#reports td.trend svg').count()).toBe(4);
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
  });

  it('a hostile URL, project and error message from the service show as text, and no script of theirs runs', async () => {
    const payload = `</script><script>window.pwned=1</script>"><img src=x onerror="window.pwned=2;alert(2)">`;
    const hostile = {
      id: 7,
      url: `https://evil.test/${payload}\u202egnp.exe`,
      project: `javascript:window.pwned=3//${payload}`,
      result: 'bad',
      score: 3,
      generated_at: '2026-11-20T09:14:03.000000Z',
      // A check id this client does not know is shown as it came: as text.
      results: { [`x${payload}`]: { passed: false, importance: 'high' }, title: { passed: true, importance: 'high' } },
    };
    const sneaky = { ...hostile, id: 8, url: 'javascript:window.pwned=4;alert(4)', score: 4 };
    const server = await startHostileServer((request) => {
      if (request.method !== 'POST') return { status: 404, json: { message: 'not here' } };
      if (request.body.includes('a.test')) return { status: 201, json: { data: hostile } };
      if (request.body.includes('b.test')) return { status: 201, json: { data: sneaky } };
      return { status: 422, json: { message: `refused ${payload} \u202eexe.txt` } };
    });
    try {
      const file = join(dir.path, 'hostile.html');
      const result = await runInProcess({
        argv: [
          'reports',
          'create',
          'https://a.test/',
          'https://b.test/',
          'https://c.test/',
          '--html',
          file,
          '-q',
          '--base-url',
          server.url,
          '--api-key',
          'k-hostile-1',
        ],
      });
      expect(result.code).not.toBe(0);
      const source = readFileSync(file, 'utf8');
      expect(source).not.toContain('window.pwned=1</script>');
      expect(source).not.toMatch(/<img/i);
      expect(source).not.toContain('\u202e');
      const { page, requests, dialogs } = await open(file);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(dialogs).toEqual([]);
      expect(await page.evaluate<unknown>('window.pwned')).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      const hrefs = await page.evaluate<string[]>(`[...document.querySelectorAll('a[href]')].map((a) => a.href)`);
      expect(hrefs.length).toBeGreaterThan(0);
      for (const href of hrefs) expect(href).toMatch(/^https?:\/\//);
      const text = await page.evaluate<string>('document.body.innerText');
      expect(text).toContain(`https://evil.test/${payload}\\u202egnp.exe`);
      expect(text).toContain('javascript:window.pwned=4;alert(4)');
      expect(text).toContain(`refused ${payload} \\u202eexe.txt`);
      expect(await page.locator('.message').count()).toBe(1);
      expect(await page.locator('section[aria-labelledby=checks-title] tbody th').allTextContents()).toEqual([`x${payload}`]);
    } finally {
      await server.close();
    }
  });
});
