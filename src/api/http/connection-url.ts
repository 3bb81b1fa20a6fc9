// A database connection URL (the history's postgres://) read as the pg client reads it: its passwords, each a secret, and the form that may be shown.

/** `postgres://`: the scheme and its slashes, when the value starts with one. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The URL as pg-connection-string parses it (its `parse`): blanks and stray `%` encoded first, then the URL parser,
 * then again with a stand-in host (`postgres://u:p@/db`); undefined when it does not parse. PostgreSQL accepts an
 * unencoded `@` in a password: the parser ends the user info at the authority's last `@`, as pg does.
 */
function parsedAsPg(value: string): URL | undefined {
  let text = value;
  try {
    if (/ |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(text)) text = encodeURI(text).replace(/%25(\d\d)/g, '%$1');
  } catch {
    return undefined;
  }
  for (const candidate of [text, text.replace('@/', '@___DUMMY___/')]) {
    try {
      return new URL(candidate, 'postgres://base');
    } catch {
      // Tried again with the stand-in host, as pg does.
    }
  }
  return undefined;
}

/**
 * Where the user info ends in `rest` (the URL after `scheme://`): at the authority's last `@` when the URL parses;
 * when it does not (an unencoded `/` in the password cuts the authority short), at the last `@` of all, so that
 * whatever may be a password is taken for one. -1: no user info.
 */
function userInfoEnd(rest: string, parses: boolean): number {
  if (!parses) return rest.lastIndexOf('@');
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  return authority.lastIndexOf('@');
}

/**
 * A connection URL's passwords, each a secret: the user info's password as typed, as the URL parser keeps it
 * (percent-encoded) and decoded (as pg sends it), and a `?password=` as typed and decoded. The value is trimmed
 * first (a blank or tab from a YAML or env file), as rsapi connects with it trimmed.
 */
export function urlPasswords(value: string | undefined): string[] {
  const trimmed = value?.trim() ?? '';
  if (!SCHEME.test(trimmed)) return [];
  const rest = trimmed.replace(SCHEME, '');
  const url = parsedAsPg(trimmed);
  const userInfo = rest.slice(0, Math.max(0, userInfoEnd(rest, url !== undefined)));
  const colon = userInfo.indexOf(':');
  const typed = colon < 0 ? [] : [userInfo.slice(colon + 1)];
  const query = [...trimmed.matchAll(/[?&]password=([^&]*)/gi)].map((match) => match[1] ?? '');
  const parsed = url === undefined ? [] : [url.password, ...url.searchParams.getAll('password')];
  const passwords = [...typed, ...query, ...parsed].flatMap((password) => [password, decoded(password)]);
  return [...new Set(passwords)].filter((password) => password !== '');
}

/**
 * A connection URL with its passwords shown as *** (`postgres://u:***@host/db`, `?password=***`), the rest as given
 * (trimmed). One that does not parse is shown with no user info at all (`postgres://***@host/db`): where its
 * password ends cannot be told. A value with no scheme (a file path) is shown as given.
 */
export function redactedUrl(value: string): string {
  const trimmed = value.trim();
  if (!SCHEME.test(trimmed)) return value.replace(/([?&]password=)[^&]*/gi, '$1***');
  const scheme = SCHEME.exec(trimmed)?.[0] ?? '';
  const rest = trimmed.slice(scheme.length);
  const parses = parsedAsPg(trimmed) !== undefined;
  const end = userInfoEnd(rest, parses);
  let shown = rest;
  if (end >= 0 && !parses) shown = `***${rest.slice(end)}`;
  else if (end >= 0) {
    const colon = rest.slice(0, end).indexOf(':');
    if (colon >= 0 && colon + 1 < end) shown = `${rest.slice(0, colon)}:***${rest.slice(end)}`;
  }
  return `${scheme}${shown}`.replace(/([?&]password=)[^&]*/gi, '$1***');
}

/** A percent-encoded text decoded (`+` left as is, as in a URL's user info); as typed when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
