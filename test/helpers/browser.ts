// Headless Chromium for the tests of the HTML report: Debian's system browser driven by playwright-core.
// In CI (CI set) a missing browser fails the file; on a developer's machine without one, its tests are skipped, saying why.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

/** The little of playwright-core's API these tests use (typed here: the package is loaded only when present). */
export interface Browser {
  newContext(options?: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark'; reducedMotion?: 'reduce' }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  route(url: string, handler: (route: Route) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export interface Route {
  request(): { url(): string };
  continue(): Promise<void>;
  abort(): Promise<void>;
}

export interface Locator {
  count(): Promise<number>;
  allTextContents(): Promise<string[]>;
  textContent(): Promise<string | null>;
  getAttribute(name: string): Promise<string | null>;
  click(): Promise<void>;
  check(): Promise<void>;
  focus(): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<unknown>;
  nth(index: number): Locator;
  waitFor(options?: { state?: 'attached' | 'visible' }): Promise<void>;
  locator(selector: string): Locator;
}

export interface Page {
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded' }): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string }): Locator;
  waitForSelector(selector: string, options?: { state?: 'attached' | 'visible' }): Promise<unknown>;
  evaluate<T>(body: string): Promise<T>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: { press(key: string): Promise<void> };
  emulateMedia(options: { media?: 'print' | 'screen' }): Promise<void>;
  on(event: 'dialog', listener: (dialog: { dismiss(): Promise<void>; message(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'request', listener: (request: { url(): string }) => void): void;
}

/**
 * Where Debian (and .ci/run) puts Chromium; RSAPI_CHROMIUM names another. Debian's chromium-headless-shell (the same
 * Chromium, built for headless use only: what Playwright itself runs headless) when it is there: it renders these pages
 * alike for about half the CPU of the full browser (4.1 s against 7.5 s for this file's openings, measured), which on
 * a 2-core machine is time the rest of the suite gets back.
 */
export const CHROMIUM =
  process.env.RSAPI_CHROMIUM || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) || '/usr/bin/chromium';

/** True when CI is set (to anything but 0 or false): the browser tests must run there. */
const inCi = process.env.CI !== undefined && !/^(0|false|)$/i.test(process.env.CI);

/** Why the browser tests cannot run here, or undefined when they can. Throws in CI: there they must run. */
export async function browserUnavailable(): Promise<string | undefined> {
  let reason: string | undefined;
  if (!existsSync(CHROMIUM)) reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set RSAPI_CHROMIUM)`;
  else if (!(await loadPlaywright())) reason = 'playwright-core is not installed (npm install)';
  if (reason === undefined) return undefined;
  if (inCi) throw new Error(`the browser tests must run in CI: ${reason}`);
  console.warn(`SKIPPED: the HTML report's browser tests: ${reason}`);
  return reason;
}

interface Playwright {
  chromium: { launch(options: { executablePath: string; headless?: boolean; args?: string[] }): Promise<Browser> };
}

async function loadPlaywright(): Promise<Playwright | undefined> {
  // Named through a variable so the type check does not need the package, which a checkout may not have installed yet.
  const name: string = 'playwright-core';
  try {
    return (await import(name)) as Playwright;
  } catch {
    return undefined;
  }
}

/** One headless Chromium for a whole test file. */
export async function launchChromium(): Promise<Browser> {
  const playwright = await loadPlaywright();
  if (!playwright) throw new Error('playwright-core is not installed');
  return playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** A report opened in a context of its own, with what the page did while it opened. */
export interface Opened {
  page: Page;
  context: BrowserContext;
  /** Every request the page made or tried, the file itself included. */
  requests: string[];
  dialogs: string[];
  errors: string[];
}

/** `width`: the viewport's, in CSS pixels (1280 unless given; below that, a phone's height of 844). */
export interface OpenOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
}

/** Opens a report file in a new context, every request other than the file itself aborted and recorded. */
export async function openReport(browser: Browser, file: string, options: OpenOptions = {}): Promise<Opened> {
  const viewport = options.width === undefined || options.width >= 1280 ? { width: options.width ?? 1280, height: 800 } : { width: options.width, height: 844 };
  const context = await browser.newContext({ viewport, colorScheme: options.colorScheme ?? 'light', reducedMotion: 'reduce' });
  const fileUrl = pathToFileURL(file).href;
  const requests: string[] = [];
  await context.route('**/*', async (route) => {
    if (route.request().url() === fileUrl) await route.continue();
    else await route.abort();
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => void requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => void errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(fileUrl, { waitUntil: 'load' });
  // The page's script marks the document once the table is built. (waitForFunction would evaluate a string in the
  // page, which the page's Content-Security-Policy rightly refuses.)
  await page.waitForSelector('html.scripted', { state: 'attached' });
  return { page, context, requests, dialogs, errors };
}

/**
 * One Chromium for the describe it is called in: launched before its tests, closed after them with every context it
 * opened. `open` opens a report as openReport does.
 */
export function chromiumPerDescribe(): { open(file: string, options?: OpenOptions): Promise<Opened> } {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });
  return {
    async open(file, options = {}) {
      const opened = await openReport(browser!, file, options);
      contexts.push(opened.context);
      return opened;
    },
  };
}

/**
 * axe-core's serious and critical violations on the page as it stands (light or dark, as opened), `id: target` each:
 * axe is evaluated into the page by the browser's own debugging channel (the page's Content-Security-Policy, which
 * allows only its own script, is not asked), and nothing is fetched.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axe);
  return page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.slice(0, 3).map((node) => violation.id + ': ' + node.target.join(' '))))`);
}
