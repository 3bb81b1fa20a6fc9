// Fetching one sitemap over http(s) as a plain client: never the API key, redirects only within the host, size capped, gzip undone.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { describeNetworkFailure } from '../../../../../api/http/network-failure.js';
import type { Sender } from '../../../../../api/http/transport.js';
import { USER_AGENT } from '../../../../../version.js';
import { BadSitemapError, SitemapUnreachableError, UsageError } from '../../../../runtime/errors.js';
import { refuseInternalAddress, type SiteRule } from './site.js';

/** The protocol's cap for one sitemap file, uncompressed; also the most bytes read off the wire for one. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  /** A pool of its own: the API client's pool and headers never serve the site being audited. */
  sender: Sender;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
  /** The hosts the user gave: another host on a loopback, link-local or private address is not fetched (site.ts). */
  site?: SiteRule;
}

const gunzipAsync = promisify(gunzip);

/**
 * GETs a sitemap with only User-Agent and Accept headers (no Authorization, no cookie), following at most
 * MAX_REDIRECTS redirects, each to the same scheme-agnostic host, and returns its text, gunzipped when it is gzip.
 * With `site`, a host the user did not give is never fetched at an internal address.
 */
export async function fetchSitemap(url: string, options: FetchOptions): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES;
  let target = new URL(url);
  const host = target.host;
  for (let redirects = 0; ; redirects++) {
    if (options.site) await refuseInternalAddress(target, options.site);
    const response = await send(target, options);
    if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location !== undefined) {
      await response.body.dump().catch(() => {});
      const location = new URL(String(response.headers.location), target);
      if (location.host !== host || (location.protocol !== 'http:' && location.protocol !== 'https:')) {
        throw new BadSitemapError(
          `the sitemap ${target.href} redirects to ${location.origin}, another host; rsapi follows a sitemap's redirects only within ${host}`,
        );
      }
      if (redirects >= MAX_REDIRECTS) throw new BadSitemapError(`the sitemap ${url} redirects more than ${MAX_REDIRECTS} times`);
      target = location;
      continue;
    }
    if (response.statusCode !== 200) {
      await response.body.dump().catch(() => {});
      throw new BadSitemapError(`the sitemap ${target.href} answered HTTP ${response.statusCode}`, {
        hint: response.statusCode === 404 ? 'check the sitemap URL (often /sitemap.xml; robots.txt names it)' : undefined,
      });
    }
    const bytes = await readCapped(response.body, maxBytes, target.href);
    return decode(bytes, maxBytes, target.href);
  }
}

async function send(target: URL, options: FetchOptions) {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    return await options.sender.request({
      origin: target.origin,
      path: target.pathname + target.search,
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' },
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (error) {
    const { detail } = describeNetworkFailure(error);
    throw new SitemapUnreachableError(`cannot fetch the sitemap ${target.href}: ${detail}`, { cause: error });
  }
}

async function readCapped(body: AsyncIterable<Uint8Array>, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new BadSitemapError(`the sitemap ${url} is larger than ${maxBytes} bytes, the protocol's limit`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof BadSitemapError) throw error;
    throw new SitemapUnreachableError(`cannot fetch the sitemap ${url}: ${describeNetworkFailure(error).detail}`, { cause: error });
  }
  return Buffer.concat(chunks);
}

/**
 * Gzip is known by its magic bytes (a `.xml.gz` file, or Content-Encoding: gzip), and undone with the same cap.
 * `local`: a file the user named, whose faults are usage errors (exit 2); else an answer's (exit 8).
 */
export async function decode(bytes: Buffer, maxBytes: number, where: string, local = false): Promise<string> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return (await gunzipAsync(bytes, { maxOutputLength: maxBytes })).toString('utf8');
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
    const message = tooLarge ? `the sitemap ${where} unpacks to more than ${maxBytes} bytes, the protocol's limit` : `the sitemap ${where} is not valid gzip`;
    throw local ? new UsageError(message) : new BadSitemapError(message, { cause: error });
  }
}
