// The one form of a URL that comparisons and shares go by: `HTTPS://Example.com` and `https://example.com/` are one URL.

/** WHATWG URL serialisation (scheme and host in lower case, default port and empty path settled), fragment dropped. */
export function urlKey(value: string): string {
  try {
    const url = new URL(value.trim());
    url.hash = '';
    return url.href;
  } catch {
    return value.trim();
  }
}
