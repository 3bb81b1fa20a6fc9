// The URL a report is for: checked as strictly as a service's URL validation would, and compared in one normalised form.

/** The longest URL accepted (8 KB, as servers commonly cap a request line): a longer one is never sent or journaled. */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * Why `value` would be refused as a report URL, or undefined when it is fine. Stricter than WHATWG URL
 * parsing, which quietly repairs `http:example.com`, backslashes, and tabs or newlines inside a URL.
 */
export function reportUrlProblem(value: string): string | undefined {
  if (value.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
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
 * kept as it is. This is the form a URL is sent in; reports are compared by reportIdentity.
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
 * A report's identity as the service sees it: the form phpRank stores a URL in, so a URL as typed, as
 * sent and as stored are one identity. `https://www.Example.com/`, `http://example.com` and the stored
 * `example.com` are all `example.com`. Built from the normalised URL (host lower-cased, default port and
 * #fragment dropped, percent-encoding as WHATWG does it), then: no scheme (http and https are one page to
 * the service), no leading `www.`, and no `/` when the path is the root and there is no query. A trailing
 * slash on any other path is kept, as phpRank keeps it (`example.com/a/` and `example.com/a` are two
 * reports there). A value with no scheme (a stored URL) is read as http. The identity is the key of input
 * de-duplication, the look-up after a lost answer, the journal, --shard, baselines and JUnit cases. It
 * says nothing of redirects: a report stored under its final URL is found by ReportsApi's look-up rule.
 */
export function reportIdentity(value: string): string {
  const trimmed = value.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `http://${trimmed}`);
  } catch {
    return trimmed;
  }
  const host = url.host.replace(/^www\./, '');
  const path = url.pathname === '/' && url.search === '' ? '' : url.pathname;
  return `${host}${path}${url.search}`;
}

/**
 * A project's name as compared: phpRank names a project by its host without `www.` (docs/phprank.md), and a host's case
 * means nothing, so `WWW.Example.com` is `example.com`: lower-cased first, then the `www.` dropped.
 */
export function projectName(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
}

/** The project (phpRank: the host without `www.`) a URL's report is filed under. */
export function reportProject(value: string): string {
  const identity = reportIdentity(value);
  const end = identity.search(/[/?]/);
  return (end === -1 ? identity : identity.slice(0, end)).replace(/:\d+$/, '');
}

/**
 * A search or project filter in the form the service stores hosts in: punycode (`例え.jp` -> `xn--r8jz45g.jp`), the
 * path percent-encoded as a sent URL's is, as create sends URLs; a term of ASCII only is sent as typed. The service
 * matches `%term%` against stored URLs, so a term that is a whole label or host finds its reports; part of a
 * label cannot (its punycode is another string).
 */
export function filterTermForService(term: string): string {
  // Only what lies outside ASCII needs converting.
  if (!/[^\u0000-\u007f]/.test(term)) return term;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(term)?.[0] ?? '';
  const rest = term.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const [host, tail] = end === -1 ? [rest, ''] : [rest.slice(0, end), rest.slice(end)];
  try {
    const url = new URL(`http://${host}${tail}`);
    const path = tail === '' ? '' : `${url.pathname}${url.search}`;
    return `${scheme}${url.hostname}${path}`;
  } catch {
    return term;
  }
}
