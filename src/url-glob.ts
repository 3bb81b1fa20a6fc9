// Globs over a report's identity (the cleaned URL: `example.com/blog/post`): `*` within a path segment, `**` across them, `?` one character.
import { UsageError } from './errors.js';

/** A compiled glob: whether an identity matches it. */
export type UrlGlob = (identity: string) => boolean;

/**
 * Compiles `pattern`. Written as a URL (`https://www.example.com/blog/**`), it is cleaned as an identity is (no scheme,
 * no `www.`), so either form works. A pattern that can match nothing a URL holds (empty, a space) is a usage error.
 */
export function compileUrlGlob(pattern: string, flag: string): UrlGlob {
  const bare = pattern
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '');
  // Hosts are stored in lower case; paths keep theirs.
  const slash = bare.indexOf('/');
  const cleaned = slash === -1 ? bare.toLowerCase() : bare.slice(0, slash).toLowerCase() + bare.slice(slash);
  if (cleaned === '' || /\s/.test(cleaned)) {
    throw new UsageError(`${flag} ${JSON.stringify(pattern)} is not a glob over URLs (no spaces, not empty)`, {
      hint: `globs match the URL as the service stores it, without scheme or www.: ${flag} 'example.com/blog/**'`,
    });
  }
  let source = '';
  for (let index = 0; index < cleaned.length; index++) {
    const char = cleaned[index]!;
    if (char === '*' && cleaned[index + 1] === '*') {
      // `a/**/b` also matches `a/b`; a trailing `/**` also matches the folder itself.
      const slashAfter = cleaned[index + 2] === '/';
      source += slashAfter ? '(?:.*/)?' : '.*';
      index += slashAfter ? 2 : 1;
      if (source.endsWith('/.*') && index === cleaned.length - 1) source = `${source.slice(0, -3)}(?:/.*)?`;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  return (identity) => regex.test(identity);
}
