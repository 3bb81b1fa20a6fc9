// Globs over a report's identity (the cleaned URL: `example.com/blog/post`), for --include/--exclude and the assertions
// file's `match`: `**` any run of characters, `*` any within one path segment, `?` one character, `{a,b}` either,
// `[a-z]` a class. Compiled once to a regular expression; a bad one is said why.
import { UsageError } from './errors.js';

/** Why `glob` is not a glob this module reads, or undefined when it is one. */
export function globProblem(glob: string): string | undefined {
  try {
    globRegExp(glob);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The glob as an anchored regular expression over an identity. Matching ignores the case of the host only as the
 * identity does (it is lower-cased there); a path's case counts, as it does to the page's server.
 */
export function globRegExp(glob: string): RegExp {
  if (glob.trim() === '') throw new Error('the glob is empty');
  let source = '';
  let braces = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '*') {
      if (glob[index + 1] === '*') {
        index++;
        // `**/` also matches no folder at all: `example.com/**/x` matches `example.com/x`.
        if (glob[index + 1] === '/') {
          index++;
          source += '(?:.*/)?';
        } else source += '.*';
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', index + 2);
      if (end === -1) throw new Error(`"[" at character ${index + 1} is never closed`);
      const body = glob.slice(index + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      const members = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, (c) => `\\${c}`);
      if (members === '') throw new Error(`"[${body}]" at character ${index + 1} holds no character`);
      for (const [range, from, to] of (negated ? body.slice(1) : body).matchAll(/(.)-(.)/g)) {
        if ((from as string) > (to as string))
          throw new Error(`the range "${range}" in "[${body}]" at character ${index + 1} runs backwards (write it "${to}-${from}")`);
      }
      source += `[${negated ? '^' : ''}${members}]`;
      index = end;
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}') {
      if (braces === 0) throw new Error(`"}" at character ${index + 1} closes no "{"`);
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else if (char === '\\') {
      const next = glob[index + 1];
      if (next === undefined) throw new Error('the glob ends in a lone "\\"');
      source += escapeRegExp(next);
      index++;
    } else source += escapeRegExp(char);
  }
  if (braces > 0) throw new Error('a "{" is never closed');
  return new RegExp(`^${source}$`);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
}

/** A compiled glob: whether an identity matches it. */
export type UrlGlob = (identity: string) => boolean;

/**
 * Compiles a flag's `pattern`. Written as a URL (`https://www.example.com/blog/**`), it is cleaned as an identity is (no
 * scheme, no `www.`, the host in lower case), so either form works. A bad glob, or one with a space, is a usage error.
 */
export function compileUrlGlob(pattern: string, flag: string): UrlGlob {
  const bare = pattern
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '');
  const slash = bare.indexOf('/');
  const cleaned = slash === -1 ? bare.toLowerCase() : bare.slice(0, slash).toLowerCase() + bare.slice(slash);
  const problem = /\s/.test(cleaned) ? 'it holds a space' : globProblem(cleaned);
  if (problem !== undefined) {
    throw new UsageError(`${flag} ${JSON.stringify(pattern)} is not a glob over URLs (${problem})`, {
      hint: `globs match the URL as the service stores it, without scheme or www.: ${flag} 'example.com/blog/**'`,
    });
  }
  const regex = globRegExp(cleaned);
  return (identity) => regex.test(identity);
}
