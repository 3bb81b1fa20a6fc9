// One budget for a run's sitemaps: how many are read (robots.txt's `Sitemap:` lines and an index's children alike),
// how many page URLs are kept, and how long reading them may take. Past it, a one-line usage error (exit 2).
import { InterruptedError } from '../../../../../api/errors.js';
import { plural } from '../../../../../plural.js';
import { UsageError } from '../../../../runtime/errors.js';

/** Limits no real site meets: a run past them is a site gone wrong (a looping or sprawling index), not a big site. */
export const DEFAULT_MAX_SITEMAPS = 1_000;
export const DEFAULT_MAX_SITEMAP_URLS = 1_000_000;
export const DEFAULT_MAX_SITEMAP_TIME_MS = 10 * 60_000;

export interface SitemapLimits {
  /** --max-sitemaps: sitemaps read in one run, indexes included. */
  sitemaps: number;
  /** --max-sitemap-urls: page URLs kept from them. */
  urls: number;
  /** --max-sitemap-time: how long reading them may take. */
  timeMs: number;
}

export const DEFAULT_SITEMAP_LIMITS: SitemapLimits = {
  sitemaps: DEFAULT_MAX_SITEMAPS,
  urls: DEFAULT_MAX_SITEMAP_URLS,
  timeMs: DEFAULT_MAX_SITEMAP_TIME_MS,
};

/** A run's use of its SitemapLimits, shared by every sitemap it reads; the clock starts when it is made. */
export class SitemapBudget {
  private sitemapsRead = 0;
  private urlsKept = 0;
  /** Aborts when the time is up: every fetch listens to it. */
  readonly signal: AbortSignal;

  constructor(readonly limits: SitemapLimits = DEFAULT_SITEMAP_LIMITS) {
    // A timer's longest wait (about 24 days): a longer one would fire at once.
    this.signal = AbortSignal.timeout(Math.min(limits.timeMs, 2 ** 31 - 1));
  }

  /** Refuses a source that leads to `more` sitemaps than the run has left (robots.txt's lines, an index's children). */
  expect(more: number, what: string): void {
    if (this.sitemapsRead + more > this.limits.sitemaps) throw this.tooManySitemaps(what);
  }

  /** Counts one sitemap about to be read; refuses it past the limits (the time included). */
  read(location: string): void {
    this.checkTime();
    if (this.sitemapsRead + 1 > this.limits.sitemaps) throw this.tooManySitemaps(location);
    this.sitemapsRead++;
  }

  /** Counts one page URL kept; refuses it past the limit. */
  keep(where: string): void {
    if (++this.urlsKept <= this.limits.urls) return;
    throw new UsageError(`${where} is past ${plural(this.limits.urls, 'page URL')}, the most one run reads from sitemaps`, {
      hint: 'raise it with --max-sitemap-urls N, or give the sitemaps one at a time',
    });
  }

  /**
   * What cut a fetch short, when something did: Ctrl-C or SIGTERM (`signal`, the run's own) is the interruption (exit
   * 130), never "cannot fetch the sitemap"; else the time's up (checkTime).
   */
  checkStopped(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new InterruptedError();
    this.checkTime();
  }

  /** The time's up: any error of a fetch it cut short is this one instead. */
  checkTime(): void {
    if (!this.signal.aborted) return;
    throw new UsageError(`reading the sitemaps took more than ${durationText(this.limits.timeMs)}, the most one run spends on them`, {
      hint: 'raise it with --max-sitemap-time (e.g. 30m)',
    });
  }

  private tooManySitemaps(what: string): UsageError {
    return new UsageError(`${what} leads past ${plural(this.limits.sitemaps, 'sitemap')}, the most one run reads`, {
      hint: 'raise it with --max-sitemaps N, or give the sitemaps one at a time',
    });
  }
}

/** `10 minutes`, or seconds for a limit that is not whole minutes (a test's). */
function durationText(ms: number): string {
  return ms % 60_000 === 0 ? plural(ms / 60_000, 'minute') : `${ms / 1000} s`;
}
