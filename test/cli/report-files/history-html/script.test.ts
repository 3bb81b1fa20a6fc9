// `rsapi history html`'s page in a real headless Chromium (src/cli/report-files/history-html/script.ts), over two jobs
// recorded from the drifting phpRank mock (a page published, one deleted): every run and both jobs shown, two runs
// compared as `history diff` lists them, a page's trend as `history trend`, deep links, no request, 390 px.
// axe-core is not among the devDependencies (node_modules has no axe-core): instead of its scan, the page's controls
// are checked for a label and its charts for a name, light and dark.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailable, chromiumPerDescribe, seriousViolations, type Page } from '../../../helpers/browser.js';
import { tempDir } from '../../../helpers/cli.js';
import { DELETED, JOB_PROJECTS, PUBLISHED, recordTwoJobs, type RecordedJobs } from '../../../helpers/history-jobs.js';

const unavailable = await browserUnavailable();
const dir = tempDir('rsapi-history-html-browser-');
/** Set RSAPI_HTML_SHOTS to a folder to keep the screenshots (the temp dir goes at the end). */
const keepShots = process.env.RSAPI_HTML_SHOTS;

interface Change {
  url: string;
  status: string;
  new_failures: string[];
  fixed: string[];
}

// Each test drives a few page loads in Chromium: under a loaded CI machine one took over 30 s, so each has a minute.
describe.skipIf(unavailable !== undefined)('the history page in headless Chromium', { timeout: 60_000 }, () => {
  const { open } = chromiumPerDescribe();
  let recorded: RecordedJobs;
  let file: string;
  let runsOf: Record<string, number[]>;

  async function json<T>(...argv: string[]): Promise<T> {
    const result = await recorded.rsapi(...argv, '--json');
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (!keepShots) return;
    const path = join(dir.path, name);
    await page.screenshot({ path, fullPage: true });
    mkdirSync(keepShots, { recursive: true });
    copyFileSync(path, join(keepShots, name));
  }

  /** Goes to a view by its fragment, as a link would. */
  async function goTo(page: Page, fragment: string): Promise<void> {
    await page.goto(`${pathToFileURL(file).href}#${fragment}`);
  }

  /** The changes table as `history diff --json` lists them (url, status, checks newly failing and fixed). */
  async function shownChanges(page: Page): Promise<Change[]> {
    return page.evaluate<Change[]>(`[...document.querySelectorAll('#changes tbody tr')].map((tr) => {
      const list = (selector) => { const text = tr.querySelector(selector)?.textContent ?? ''; return text === '' ? [] : text.slice(text.indexOf(': ') + 2).split(', '); };
      return { url: tr.querySelector('td .url').textContent, status: tr.dataset.status, new_failures: list('.new-failures'), fixed: list('.fixed') };
    })`);
  }

  beforeAll(async () => {
    recorded = await recordTwoJobs(dir.path);
    const runs = await json<{ id: number; selection: { job: string } }[]>('history', 'runs');
    runsOf = {};
    for (const run of [...runs].reverse()) (runsOf[run.selection.job] ??= []).push(run.id);
    file = join(dir.path, 'history.html');
    const written = await recorded.rsapi('history', 'html', file);
    expect(written.code, written.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await recorded?.close();
    dir.cleanup();
  });

  it('shows both jobs and every run of each, with no request but the file and no script error', async () => {
    const { page, requests, errors } = await open(file);
    expect(await page.locator('#jobs tbody th').allTextContents()).toEqual(['shop', 'blog']);
    for (const job of ['shop', 'blog']) {
      await goTo(page, `job=${job}`);
      expect(await page.evaluate<string>(`document.getElementById('filter-job').value`)).toBe(job);
      const shown = await page.locator('#runs tbody th').allTextContents();
      expect(shown.map(Number)).toEqual([...runsOf[job]!].reverse());
      expect(await page.locator('#compare-to option').count()).toBe(runsOf[job]!.length);
    }
    // Filters, a comparison and a page's trend opened: still nothing asked of any address. On the shop job (the loop
    // left the blog's open), its URL filter drawn before a page is looked for: the filter's redraw, 120 ms after the
    // typing stops, would find no blog page under shop.example.org/** (this raced on a loaded machine).
    await goTo(page, 'job=shop');
    await page.locator('#filter-url').fill(`${JOB_PROJECTS.shop}/**`);
    await page.waitForSelector('#status:has-text("kept")', { state: 'attached' });
    await page.locator('#page-find').fill('pricing');
    await page.locator('#page-matches button').nth(0).click();
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(errors).toEqual([]);
  });

  it('compares two runs chosen from the lists exactly as `history diff A B` lists them, the published and the deleted page too', async () => {
    const { page } = await open(file);
    await goTo(page, 'job=shop');
    const shop = runsOf.shop!;
    for (const [a, b] of [
      [shop[0]!, shop.at(-1)!],
      [shop[1]!, shop[2]!],
      [shop.at(-1)!, shop[0]!],
    ]) {
      await page.locator('#compare-from').selectOption(String(a));
      await page.locator('#compare-to').selectOption(String(b));
      const diff = await json<{ compared: number; changes: Change[] }>('history', 'diff', String(a), String(b));
      expect(await shownChanges(page)).toEqual(diff.changes.map(({ url, status, new_failures, fixed }) => ({ url, status, new_failures, fixed })));
      expect(await page.locator('#compare-summary').textContent()).toContain(`${diff.compared} pages compared`);
    }
    await page.locator('#compare-from').selectOption(String(shop[0]));
    await page.locator('#compare-to').selectOption(String(shop.at(-1)));
    const statuses = Object.fromEntries((await shownChanges(page)).map((change) => [change.url, change.status]));
    expect(statuses[PUBLISHED]).toBe('new');
    expect(statuses[DELETED]).toBe('vanished');
  });

  it("a run's button compares it with the run before it; the runs' counts are that comparison's", async () => {
    const { page } = await open(file);
    await goTo(page, 'job=shop');
    const shop = runsOf.shop!;
    await page.locator(`#run-${shop[3]} button`).click();
    expect(await page.evaluate<string[]>(`[document.getElementById('compare-from').value, document.getElementById('compare-to').value]`)).toEqual([
      String(shop[2]),
      String(shop[3]),
    ]);
    const diff = await json<{ changes: Change[] }>('history', 'diff', String(shop[2]), String(shop[3]));
    const failing = diff.changes.reduce((sum, change) => sum + change.new_failures.length, 0);
    const fixed = diff.changes.reduce((sum, change) => sum + change.fixed.length, 0);
    const cell = await page.locator(`#run-${shop[3]} td.changes`).textContent();
    expect(cell).toMatch(new RegExp(`^${failing} newly failing.* · ${fixed} fixed · 0 new pages · 1 vanished$`));
  });

  it('finds a page by part of its URL and shows its trend as `history trend URL --job NAME` gives it', async () => {
    const { page } = await open(file);
    await goTo(page, 'job=shop');
    await page.locator('#page-find').fill('new-arr');
    expect(await page.locator('#page-matches button').allTextContents()).toEqual([PUBLISHED]);
    await page.locator('#page-find').fill('pricing');
    await page.locator('#page-matches button').nth(0).click();
    const url = `${JOB_PROJECTS.shop}/pricing`;
    expect(await page.locator('#page-url').textContent()).toBe(url);
    const points = await json<{ run: number; score: number; failed: number }[]>('history', 'trend', url, '--job', 'shop');
    const rows = await page.evaluate<string[][]>(
      `[...document.querySelectorAll('#page-runs tbody tr')].map((tr) => [tr.cells[0].textContent, tr.cells[2].firstChild.textContent.trim(), tr.cells[3].textContent])`,
    );
    expect(rows).toEqual(points.map((point) => [String(point.run), String(point.score), String(point.failed)]));
    expect(await page.locator('#chart-page svg').getAttribute('aria-label')).toContain(`over ${points.length} runs`);
  });

  it('keeps the view in the address: a link opens it, a reload keeps it, a filter writes it', async () => {
    const { page } = await open(file);
    const blog = runsOf.blog!;
    const url = `${JOB_PROJECTS.blog}/pricing`;
    const fragment = `job=blog&run=${blog[2]}&from=${blog[0]}&page=${encodeURIComponent(url)}`;
    const view = () =>
      page.evaluate<string[]>(
        `['filter-job', 'compare-from', 'compare-to'].map((id) => document.getElementById(id).value).concat(document.getElementById('page-view').hidden ? '' : document.getElementById('page-url').textContent)`,
      );
    await goTo(page, fragment);
    expect(await view()).toEqual(['blog', String(blog[0]), String(blog[2]), url]);
    await page.evaluate('location.reload()');
    await page.waitForSelector('html.scripted', { state: 'attached' });
    expect(await view()).toEqual(['blog', String(blog[0]), String(blog[2]), url]);
    await page.locator('#filter-url').fill('blog.example.net/*');
    await page.waitForSelector('#status:has-text("kept")', { state: 'attached' });
    expect(await page.evaluate<string>('location.hash')).toContain(`url=${encodeURIComponent('blog.example.net/*')}`);
    expect(await page.locator('#status').textContent()).toBe('blog: 4 runs, 2 of 3 pages kept.');
    await page.evaluate('location.reload()');
    await page.waitForSelector('html.scripted', { state: 'attached' });
    expect(await page.evaluate<string>(`document.getElementById('filter-url').value`)).toBe('blog.example.net/*');
    expect(await page.locator('#status').textContent()).toBe('blog: 4 runs, 2 of 3 pages kept.');
  });

  it('filters by project and URL glob, answering within 200 ms', async () => {
    const { page } = await open(file);
    await goTo(page, 'job=shop');
    await page.locator('#filter-url').fill('**/new-*');
    await page.waitForSelector('#status:has-text("1 of")', { state: 'attached' });
    // The page's own measure of the filter's drawing (the 120 ms it waits for typing to stop aside).
    expect(await page.evaluate<number>(`performance.getEntriesByName('rsapi-history-refresh').at(-1).duration`)).toBeLessThan(200);
    expect(await page.locator('#page-runs').count()).toBe(1);
    const pages = await page.evaluate<string[]>(`[...document.querySelectorAll('#runs tbody td:nth-child(3)')].map((td) => td.textContent)`);
    expect(pages).toEqual(['1', '1', '0', '0']);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: axe finds no serious or critical violation; every control has a label, every chart a name, every table a caption; nothing wider than 390 px`, async () => {
      const { page, errors } = await open(file, { colorScheme, width: 390 });
      await goTo(page, `job=shop&page=${encodeURIComponent(`${JOB_PROJECTS.shop}/pricing`)}`);
      const unnamed = await page.evaluate<string[]>(`[
        ...[...document.querySelectorAll('input, select, button')].filter((e) => !e.labels?.length && !e.getAttribute('aria-label') && !e.textContent.trim()).map((e) => e.outerHTML.slice(0, 80)),
        ...[...document.querySelectorAll('svg')].filter((e) => e.getAttribute('role') !== 'img' || !(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby'))).map((e) => 'svg'),
        ...[...document.querySelectorAll('table')].filter((e) => !e.caption?.textContent.trim()).map((e) => 'table#' + e.id),
      ]`);
      expect(unnamed).toEqual([]);
      const wider = await page.evaluate<string[]>(
        `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('.visually-hidden') && !e.closest('.skip')).slice(0, 5).map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent ?? '').slice(0, 40))`,
      );
      expect(wider).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
      if (colorScheme === 'dark') expect(await page.evaluate<string>(`getComputedStyle(document.body).backgroundColor`)).toBe('rgb(13, 17, 23)');
      // axe-core (contrast, names, roles, ARIA): no serious or critical violation, at 390 px and at 1280.
      expect(await seriousViolations(page)).toEqual([]);
      const wide = await open(file, { colorScheme });
      await goTo(wide.page, `job=shop&run=${runsOf.shop!.at(-1)}&page=${encodeURIComponent(`${JOB_PROJECTS.shop}/pricing`)}`);
      expect(await seriousViolations(wide.page)).toEqual([]);
      expect(errors).toEqual([]);
      await screenshot(page, `history-390-${colorScheme}.png`);
    });
  }
});
