// The CLI's own failures: a usage error (bad flag, argument, value or setting) and no key configured.
import { RsapiError } from '../api/errors.js';

/** Bad flag, argument or value, caught before any request: exit 2. `lines` name each bad item, one a line below it. */
export class UsageError extends RsapiError {
  readonly lines: readonly string[];

  constructor(message: string, options?: { cause?: unknown; hint?: string; lines?: readonly string[] }) {
    super(message, options);
    this.lines = options?.lines ?? [];
  }
}

/** No key configured anywhere, or only one stored for another address: an auth failure that never reached the service. */
export class MissingKeyError extends RsapiError {
  constructor(message: string, options?: { hint?: string }) {
    super(message, options);
  }

  static forProfile(profile: string): MissingKeyError {
    return new MissingKeyError(`no API key configured for profile "${profile}"`, {
      hint: 'run `rsapi auth login`, or set RSAPI_API_KEY, or pass --api-key',
    });
  }
}

/** A sitemap (--from-sitemap) that could not be fetched: the site refused the connection, timed out, reset it. Exit 7. */
export class SitemapUnreachableError extends RsapiError {}

/** A sitemap's answer that is none: an HTTP error, a redirect off its host, not XML, not a sitemap, beyond a limit. Exit 8. */
export class BadSitemapError extends RsapiError {}
