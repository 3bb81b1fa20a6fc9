// Normalising the base URL: site root or /api/v1 prefix in, `.../api/v1` with no trailing slash out.
import { InvalidRequestError } from '../errors.js';

export const API_PREFIX = '/api/v1';

/**
 * The one parser of a base URL, wherever it comes from (--base-url, RSAPI_BASE_URL, `config set`, the login prompt):
 * the site root or the /api/v1 prefix, or a bare hostname as gh takes one (`rank.example.com` is https://,
 * `127.0.0.1:19501` http:// as a loopback host); out comes `.../api/v1` with no trailing slash.
 */
export function normaliseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(withScheme(input.trim()));
  } catch {
    throw new InvalidRequestError(`invalid base URL "${withoutCredentials(input)}"`, { hint: 'give it as https://host or https://host/api/v1' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError(`invalid base URL "${withoutCredentials(input)}": only http and https are supported`);
  }
  if (url.username || url.password) {
    throw new InvalidRequestError('the base URL must not contain credentials; use --api-key or `rsapi auth login`');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  path += API_PREFIX;
  return `${url.origin}${path}`;
}

/**
 * A base URL typed without its scheme (`rank.example.com`, `localhost:8787`) with one: https://, or http:// for a
 * loopback host (where plain http does not leave the machine). A scheme is there when a name and a colon start the
 * text and no port number follows the colon (`ftp:x`, `http:/host` keep theirs, and are judged as typed).
 */
function withScheme(text: string): string {
  if (text === '' || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) return text;
  const host = /^(\[[^\]]*\]|[^/:?#]*)/.exec(text)?.[1] ?? '';
  return `${isLoopbackHost(host) ? 'http' : 'https'}://${text}`;
}

/** True for hosts where plain http does not leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/** Never echo credentials someone pasted into the address (`http://user:secret@host` shows as `http://***@host`). */
export function withoutCredentials(input: string): string {
  return input.replace(/^([^@/]*\/\/)?[^@/]*@/, '$1***@');
}

/** The origin (scheme, host, port) of a base URL as rsapi would use it; undefined when it is not a usable one. */
export function originOf(baseUrl: string): string | undefined {
  try {
    return new URL(normaliseBaseUrl(baseUrl)).origin;
  } catch {
    return undefined;
  }
}
