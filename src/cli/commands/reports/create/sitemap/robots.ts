// `--from-sitemap https://example.com/`: a site root stands for the sitemaps its robots.txt names (`Sitemap:` lines), else /sitemap.xml.
import type { ProxySettings } from '../../../../../api/http/proxy.js';
import { createSender } from '../../../../../api/http/transport.js';
import { BadSitemapError } from '../../../../runtime/errors.js';
import { plural } from '../../../../../plural.js';
import type { SitemapBudget } from './budget.js';
import { fetchSitemap } from './fetch.js';
import { countOffSite, isOnSite, noOffSite, type OffSite, type SiteRule } from './site.js';

/** robots.txt files are small; Google reads the first 500 KiB of one. */
const MAX_ROBOTS_BYTES = 500 * 1024;

/** Whether `source` is a site's root (`https://example.com` or `.../`), not a sitemap's own URL. */
export function isSiteRoot(source: string): boolean {
  if (!/^https?:\/\//i.test(source)) return false;
  const url = new URL(source);
  return url.pathname === '/' && url.search === '';
}

/**
 * The sitemap URLs of a site, and a line saying where they came from. `Sitemap:` lines off the site are left out and
 * counted; more of them than the budget has left end the run before any is fetched.
 */
export async function sitemapsOfSite(
  root: string,
  options: { proxy: ProxySettings; timeoutMs: number; signal?: AbortSignal; site: SiteRule; budget: SitemapBudget },
): Promise<{ sitemaps: string[]; from: string; offSite: OffSite }> {
  const robots = new URL('/robots.txt', root).href;
  const sender = await createSender(options.proxy);
  const { budget } = options;
  const signal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
  let text: string | undefined;
  try {
    text = await fetchSitemap(robots, { sender, timeoutMs: options.timeoutMs, signal, maxBytes: MAX_ROBOTS_BYTES, site: options.site });
  } catch (error) {
    budget.checkStopped(options.signal);
    // No robots.txt (404, not on the host): the conventional place.
    if (!(error instanceof BadSitemapError)) throw error;
  } finally {
    await sender.close();
  }
  const named: string[] = [];
  const offSite = noOffSite();
  for (const line of text === undefined ? [] : sitemapLines(text, robots)) {
    const url = new URL(line);
    if (isOnSite(url, options.site)) named.push(line);
    else countOffSite(offSite, url, 'sitemaps');
  }
  budget.expect(named.length, robots);
  if (named.length > 0) return { sitemaps: named, from: `${robots} names ${plural(named.length, 'sitemap')}`, offSite };
  const fallback = new URL('/sitemap.xml', root).href;
  return { sitemaps: [fallback], from: `${robots} names no sitemap${offSite.sitemaps > 0 ? ' on the site' : ''}; reading ${fallback}`, offSite };
}

/** The `Sitemap:` lines of a robots.txt (any case, anywhere in the file), as absolute http(s) URLs, each once. */
export function sitemapLines(text: string, robotsUrl: string): string[] {
  const found = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match) continue;
    try {
      const url = new URL(match[1]!, robotsUrl);
      if (url.protocol === 'http:' || url.protocol === 'https:') found.add(url.href);
    } catch {
      // Not a URL: robots.txt is read leniently, as crawlers do.
    }
  }
  return [...found];
}
