// The URL a report is for: checked as strictly as a service's URL validation would, and compared in one normalised form.

/**
 * Why `value` would be refused as a report URL, or undefined when it is fine. Stricter than WHATWG URL
 * parsing, which quietly repairs `http:example.com`, backslashes, and tabs or newlines inside a URL.
 */
export function reportUrlProblem(value: string): string | undefined {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'holds a control character (a tab, a newline, ...)';
  if (/\s/u.test(value)) return 'holds a space';
  if (value.includes('\\')) return 'holds a backslash';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'is not an absolute URL (no http:// or https://)';
  if (scheme !== 'http' && scheme !== 'https') return `has the scheme ${scheme}: only http and https pages can be audited`;
  if (!/^[a-z]+:\/\/[^/?#]/i.test(value)) return 'does not write out scheme://host';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.hostname === '') return 'has no host';
  if (/[<>"{}|^`]/.test(value)) return 'holds a character a URL must not hold unencoded (< > " { } | ^ `)';
  return undefined;
}

/**
 * The one form URLs are compared (and sent) in: scheme and host in lower case, the default port dropped,
 * an empty path written `/`, percent-encoding as WHATWG does it, no #fragment (it never reaches the page's
 * server). `HTTPS://Example.com` and `https://example.com/` are one URL. A value that does not parse is
 * kept as it is. (The same form as --shard's and --baseline's URL key.)
 */
export function normaliseReportUrl(value: string): string {
  try {
    const url = new URL(value.trim());
    url.hash = '';
    return url.href;
  } catch {
    return value;
  }
}

/**
 * What to search for when looking a URL up: a substring every stored form of it contains, whether the
 * service keeps a root URL's trailing slash or not. The matches are then compared in normalised form.
 */
export function reportUrlSearchTerm(normalised: string): string {
  return normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}
