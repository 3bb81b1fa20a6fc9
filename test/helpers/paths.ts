// Whether a text names a path of this machine, as a whole path: a checkout in /tmp/ci must not be found in an
// example's /tmp/ci-rsapi, nor a home /root in /rootless.
import { escapeRegExp } from '../../src/url-glob.js';

/** A character a path's name goes on with: a path ends where none follows, and starts where none precedes. */
const NAME = String.raw`[\w.~+@%-]`;

/** True when `text` holds `path` (no trailing slash) whole: not inside a longer name, and not the end of a longer path. */
export function mentionsPath(text: string, path: string): boolean {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return false;
  // A full stop ends a sentence, not the name, unless more of a name follows it.
  return new RegExp(`(?<!${NAME}|/)${escapeRegExp(trimmed)}(?![\\w~+@%-]|\\.${NAME})`).test(text);
}
