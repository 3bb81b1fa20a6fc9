// The CLI's own failures: no key configured, a sitemap that cannot be read. (UsageError, which every layer may raise,
// lives in src/errors.ts and is re-exported here for the CLI's verbs.)
import { RsapiError } from '../../errors.js';

export { UsageError, emptyFlagError } from '../../errors.js';

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

/** Nothing the service holds matches what was asked by other means than an id (`reports show --url`): exit 4, as a 404. */
export class NoMatchError extends RsapiError {}
