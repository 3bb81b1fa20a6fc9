// HTML built safely: a tagged template that escapes every interpolated string for text and quoted attributes (with
// escapeHtml, src/output/escape.ts), and links only to http: and https:.
import { domainToUnicode } from 'node:url';
import { escapeHtml } from '../../../output/escape.js';

/** Markup already made safe: interpolated as it is. Anything else interpolated is text and gets escaped. */
export class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export type Part = Markup | string | number | boolean | undefined | null | readonly Part[];

function partHtml(part: Part): string {
  if (part instanceof Markup) return part.html;
  if (Array.isArray(part)) return part.map(partHtml).join('');
  if (part === undefined || part === null || part === false || part === true) return '';
  return escapeHtml(String(part));
}

/**
 * The Content-Security-Policy of a page rsapi writes, allowing only its own `script` (by hash) and inline styles:
 * defence in depth, should any markup slip through, no other script runs and nothing is fetched.
 */
export function pagePolicy(script: string): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const scriptHash = createHash('sha256').update(script).digest('base64');
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; base-uri 'none'; form-action 'none'`;
}

/** Text a page's module wrote itself (a stylesheet, a script, JSON already made safe for a script element): not escaped. */
export function raw(text: string): Markup {
  return new Markup(text);
}

/** html`<td>${url}</td>`: strings and numbers escaped, Markup kept, arrays joined, undefined/null/booleans dropped. */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Markup {
  let out = strings[0] ?? '';
  for (const [index, value] of values.entries()) out += partHtml(value) + (strings[index + 1] ?? '');
  return new Markup(out);
}

/**
 * Where a report's URL may link: only an http: or https: page, normalised by the URL parser (controls and quotes
 * percent-encoded). phpRank stores URLs without the scheme (`example.com/new/x`): those are linked over https.
 * Anything else (`javascript:`, `data:`, text that is no URL) gets no link.
 */
export function pageHref(url: string): string | undefined {
  const text = url.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  const candidate = hasScheme ? text : /^[a-z0-9-]+(\.[a-z0-9-]+)+([/:?#]|$)/i.test(text) ? `https://${text}` : undefined;
  if (candidate === undefined || /[\u0000-\u001f\u007f-\u009f\s\\]/.test(candidate)) return undefined;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A URL as people read it, for display only (links keep the URL as sent): an internationalised host in Unicode
 * (`xn--bcher-kva.example` -> `bücher.example`), percent-escapes of UTF-8 text decoded (`/caf%C3%A9` -> `/café`).
 * Escapes that would change what the URL says (`%2F`, `%3F`, `%23`, `%25`) and any that do not decode stay as they are.
 */
export function displayUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)(.*)$/is.exec(url);
  if (!match) return url;
  const [, scheme = '', host = '', rest = ''] = match;
  const [, userinfo = '', hostname = host] = /^(.*@)?(.*)$/s.exec(host) ?? [];
  const unicodeHost = /(^|\.)xn--/i.test(hostname) ? domainToUnicode(hostname) || hostname : hostname;
  const decoded = rest.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run).replace(/[/?#%]/g, encodeURIComponent);
    } catch {
      return run;
    }
  });
  return `${scheme}${userinfo}${unicodeHost}${decoded}`;
}

/** A link to the audited page when it is an http(s) page, else the URL as text. Both show the URL escaped, as people read it. */
export function pageLink(url: string): Markup {
  const href = pageHref(url);
  const text = displayUrl(url);
  return href === undefined
    ? html`<span class="url" title="${url}">${text}</span>`
    : html`<a class="url" href="${href}" rel="noopener noreferrer" title="${url}">${text}</a>`;
}

/**
 * A project's name, a host, that a narrow column breaks after a dot (or a hyphen), between its labels, never inside
 * one (`qa4shop.te st`). A label wider than the column widens the table, which then scrolls sideways.
 */
export function hostName(name: string): Markup {
  return html`<span class="host">${name.split('.').map((label, index) => (index === 0 ? label : html`.<wbr>${label}`))}</span>`;
}
