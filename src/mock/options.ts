// The options of the bundled mock service (rsapi mock-server's flags, and a test's settings).
import type { Clock } from '../api/http/clock.js';
import type { Envelope } from './listing.js';
import type { FlavorName } from './flavor-names.js';

export interface MockOptions {
  /** Which service the mock plays: `seed` (the API document's, the default) or `phprank` (the service as deployed). */
  flavor?: FlavorName;
  host?: string;
  port?: number;
  apiKey?: string;
  seed?: number;
  latencyMs?: number;
  failRate?: number;
  rateLimit?: number;
  rateLimitWindowMs?: number;
  envelope?: Envelope;
  dropAfterCreate?: number;
  failAfterCreate?: number;
  stallRate?: number;
  /**
   * A create is stored (and answered) only this long after it arrived, as a service that audits the page first; it
   * is stored even if the client gave up meanwhile.
   */
  storeDelayMs?: number;
  random?: () => number;
  /**
   * The time the throttle's window, the latency and the store delay run on (real by default); a test shares a fake
   * one with the client, so that none of them waits real time.
   */
  clock?: Clock;
  /** phpRank flavor: sent URL -> the final URL it redirects to (the report is stored under the final one, cleaned). */
  redirects?: Record<string, string>;
  /** phpRank flavor: the key's plan has no API access, so every call with a good key is answered 403. */
  planWithoutApi?: boolean;
  /** phpRank flavor: each re-audit flips about this share (0 to 1) of a report's checks, its score following. */
  drift?: number;
  /**
   * Hosts (and their subdomains) whose pages the service cannot fetch: a create of one is refused with 422 on `url`
   * (phpRank: cURL's message), as a host under `.invalid` always is.
   */
  unreachable?: string[];
}
