// Where an audited page ends after its own redirects, learned as the service learns it (HEAD, else GET with the body unread; at most 10 hops), never with the key.
import { discardBody, type Sender } from './transport.js';

/** phpRank's fetcher follows this many redirects at most; so does rsapi when it retraces them. */
export const MAX_PAGE_REDIRECTS = 10;

export interface PageProbe {
  sender: Sender;
  userAgent: string;
  /** Per hop, as for any request. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The page's final URL after its redirects (the URL itself when it does not redirect), or undefined when rsapi
 * cannot tell: the page is out of reach, answers too slowly, loops, or redirects more than MAX_PAGE_REDIRECTS times.
 * Only the page's own host is asked, with no Authorization header: the key never leaves for the page.
 */
export async function finalPageUrl(url: string, probe: PageProbe): Promise<string | undefined> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return undefined;
  }
  for (let hop = 0; hop <= MAX_PAGE_REDIRECTS; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') return undefined;
    const answer = await statusOf(current, probe);
    if (answer === undefined) return undefined;
    if (answer.status < 300 || answer.status >= 400 || answer.location === undefined) return current.href;
    try {
      current = new URL(answer.location, current);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The status and Location of one hop: HEAD, else (a server that refuses HEAD) GET, whose body is never read. */
async function statusOf(url: URL, probe: PageProbe): Promise<{ status: number; location?: string } | undefined> {
  for (const method of ['HEAD', 'GET'] as const) {
    const timeout = AbortSignal.timeout(probe.timeoutMs);
    try {
      const response = await probe.sender.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method,
        headers: { 'user-agent': probe.userAgent, accept: 'text/html,*/*' },
        signal: probe.signal ? AbortSignal.any([timeout, probe.signal]) : timeout,
        headersTimeout: probe.timeoutMs,
      });
      discardBody(response);
      if (method === 'HEAD' && (response.statusCode === 405 || response.statusCode === 501)) continue;
      const location = response.headers.location;
      return { status: response.statusCode, location: Array.isArray(location) ? location[0] : location };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
