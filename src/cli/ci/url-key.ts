// The one form of a URL that comparisons and shares go by: `HTTPS://Example.com` and `https://example.com/` are one URL.
import { normaliseReportUrl } from '../../api/report-url.js';

/** WHATWG URL serialisation (scheme and host in lower case, default port and empty path settled), fragment dropped: the form reports are created, looked up and journaled in. */
export function urlKey(value: string): string {
  return normaliseReportUrl(value).trim();
}
