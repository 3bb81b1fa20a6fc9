// `reports create --from-sitemap URL|PATH`: the page URLs of a sitemap, a sitemap index followed to its sitemaps, within limits.
import { readFile } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import type { ProxySettings } from '../../../../../api/http/proxy.js';
import { createSender, type Sender } from '../../../../../api/http/transport.js';
import { BadSitemapError, UsageError } from '../../../../runtime/errors.js';
import { fileError } from '../../../../runtime/files.js';
import { SitemapBudget } from './budget.js';
import { decode, fetchSitemap, MAX_SITEMAP_BYTES } from './fetch.js';
import { countOffSite, isOnSite, noOffSite, siteRuleOf, type OffSite, type SiteRule } from './site.js';

/** The protocol's cap on URLs in one sitemap (and on sitemaps in one index). */
export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapUrls {
  /** Page URLs as the sitemaps list them, in order, with where each came from. */
  entries: { where: string; value: string }[];
  /** Sitemaps read, the index included. */
  sitemaps: number;
  /** Sitemaps an index listed that could not be used (missing, no sitemap, no http(s) URL), skipped with `skipInvalid`: each with why. */
  skipped: { url: string; problem: string }[];
  /** Page URLs and child sitemaps on other hosts than the site's, left out. */
  offSite: OffSite;
}

export interface ReadOptions {
  proxy: ProxySettings;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
  /**
   * --skip-invalid: a sitemap an index lists that answers an error (404: missing) or is no sitemap is skipped, not
   * the end of the run. The sitemap named on the command line, a network failure and the limits still end it.
   */
  skipInvalid?: boolean;
  /** The run's budget, shared by every sitemap it reads (by default one of this read's own, at the default limits). */
  budget?: SitemapBudget;
  /**
   * The hosts a sitemap fetched over http(s) may lead to: by default its own site. A local file's pages and sitemaps
   * may be on any host: the user wrote it.
   */
  site?: SiteRule;
}

/**
 * Reads a sitemap from a local file (a bad path or unparseable file: exit 2, as for --from-file) or an http(s)
 * URL (a network failure: exit 7; an answer that is not a sitemap, too large, or a redirect off the host: exit 8).
 * A sitemap index is followed to its sitemaps, each fetched once. No request carries the API key. Page URLs and
 * child sitemaps off the site are left out and counted; past the budget, a usage error (exit 2).
 */
export async function readSitemap(source: string, options: ReadOptions): Promise<SitemapUrls> {
  const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES;
  const budget = options.budget ?? new SitemapBudget();
  const remote = /^https?:\/\//i.test(source);
  const site = remote ? (options.site ?? siteRuleOf(source, [])) : undefined;
  const signal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
  let sender: Sender | undefined;
  const entries: SitemapUrls['entries'] = [];
  const skipped: SitemapUrls['skipped'] = [];
  const offSite = noOffSite();
  /** Whether a URL the sitemap lists is on another host than its site's (counted so); a URL that does not parse is not. */
  const leavesSite = (value: string, kind: 'urls' | 'sitemaps'): boolean => {
    if (site === undefined) return false;
    const url = webUrl(value);
    if (url === undefined || isOnSite(url, site)) return false;
    countOffSite(offSite, url, kind);
    return true;
  };
  const queue = [source];
  const seen = new Set<string>(queue);
  let read = 0;
  /** Sitemaps read and used (not skipped). */
  let used = 0;
  try {
    while (queue.length > 0) {
      const location = queue.shift()!;
      budget.read(location);
      read++;
      const isFile = read === 1 && !remote;
      let parsed: ParsedSitemap;
      try {
        let text: string;
        if (isFile) {
          text = await readLocal(location, maxBytes);
        } else {
          sender ??= await createSender(options.proxy);
          text = await fetchSitemap(location, { sender, timeoutMs: options.timeoutMs, signal, maxBytes, site });
        }
        parsed = parseSitemap(text, location, isFile);
      } catch (error) {
        budget.checkStopped(options.signal);
        if (!(options.skipInvalid === true && location !== source && error instanceof BadSitemapError)) throw error;
        skipped.push({ url: location, problem: error.message });
        continue;
      }
      used++;
      if (parsed.kind === 'urlset') {
        for (const [index, loc] of parsed.locs.entries()) {
          if (leavesSite(loc, 'urls')) continue;
          const where = `${location} url ${index + 1}`;
          budget.keep(where);
          entries.push({ where, value: loc });
        }
        continue;
      }
      for (const child of parsed.locs) {
        if (!/^https?:\/\//i.test(child)) {
          const problem = `the sitemap index ${location} lists ${JSON.stringify(child)}, which is not an http(s) URL`;
          if (options.skipInvalid !== true || isFile) throw fault(isFile, problem);
          skipped.push({ url: child, problem });
          continue;
        }
        if (seen.has(child) || leavesSite(child, 'sitemaps')) continue;
        seen.add(child);
        queue.push(child);
      }
      budget.expect(queue.length, `the sitemap index ${location}`);
    }
  } finally {
    await sender?.close();
  }
  return { entries, sitemaps: used, skipped, offSite };
}

/** An http(s) URL as parsed, or undefined for anything else (left to be judged as input). */
function webUrl(value: string): URL | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

async function readLocal(path: string, maxBytes: number): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw fileError('read the sitemap', path, error);
  }
  if (bytes.byteLength > maxBytes) throw new UsageError(`the sitemap ${path} is larger than ${maxBytes} bytes, the protocol's limit`);
  return decode(bytes, maxBytes, path, true);
}

interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex';
  /** <loc> of each <url> (urlset) or <sitemap> (index), trimmed. */
  locs: string[];
}

/** Strict XML (saxes): no DTD entities expanded, so no entity bomb and no external entity. Prefixes ignored. */
export function parseSitemap(text: string, where: string, local: boolean): ParsedSitemap {
  const parser = new SaxesParser();
  const stack: string[] = [];
  let kind: ParsedSitemap['kind'] | undefined;
  const locs: string[] = [];
  let loc: string | undefined;
  const localName = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (stack.length === 0) {
      if (name !== 'urlset' && name !== 'sitemapindex')
        throw fault(local, `${where} is not a sitemap: its root element is <${tag.name}>, not <urlset> or <sitemapindex>`);
      kind = name;
    }
    stack.push(name);
    if (name === 'loc' && stack.length === 3 && (stack[1] === 'url' || stack[1] === 'sitemap')) loc = '';
  });
  parser.on('text', (chunk) => {
    if (loc !== undefined) loc += chunk;
  });
  parser.on('cdata', (chunk) => {
    if (loc !== undefined) loc += chunk;
  });
  parser.on('closetag', () => {
    const name = stack.pop();
    if (name !== 'loc' || loc === undefined) return;
    if (loc.trim() !== '') locs.push(loc.trim());
    loc = undefined;
    if (locs.length > MAX_URLS_PER_SITEMAP) {
      throw fault(local, `the sitemap ${where} lists more than ${MAX_URLS_PER_SITEMAP} entries, the protocol's limit`);
    }
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof UsageError || error instanceof BadSitemapError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw fault(local, `${where} is not a readable sitemap: ${detail}`);
  }
  if (kind === undefined) throw fault(local, `${where} is not a sitemap: no root element`);
  return { kind, locs };
}

/** A fault of a file the user named is a usage error (exit 2); of a site's answer, a bad sitemap (exit 8). */
function fault(local: boolean, message: string, options?: { hint?: string }): UsageError | BadSitemapError {
  return local ? new UsageError(message, options) : new BadSitemapError(message, options);
}
