// Globs over a report's identity (src/url-glob.ts), as --include, --exclude and the assertions file's `match` read them.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { compileUrlGlob } from '../src/url-glob.js';

describe('compileUrlGlob', () => {
  it.each([
    ['**', 'example.com/a/b', true],
    ['example.com/blog/**', 'example.com/blog/post/1', true],
    ['example.com/blog/**', 'example.com/blog', false],
    ['example.com/{blog,news}/*', 'example.com/news/1', true],
    ['example.com/blog/**', 'example.com/blogger', false],
    ['example.com/blog/*', 'example.com/blog/post', true],
    ['example.com/blog/*', 'example.com/blog/post/1', false],
    ['example.com/**/amp', 'example.com/amp', true],
    ['example.com/**/amp', 'example.com/a/b/amp', true],
    ['*.example.com/**', 'shop.example.com/cart', true],
    ['*.example.com/**', 'example.com/cart', false],
    ['https://www.Example.com/p?', 'example.com/p1', true],
    ['example.com/p?', 'example.com/p12', false],
    ['example.com/a.b', 'example.com/aXb', false],
    ['example.com/Blog', 'example.com/blog', false],
  ])('%s against %s: %s', (pattern, identity, matches) => {
    expect(compileUrlGlob(pattern, '--include')(identity)).toBe(matches);
  });

  it.each(['', '  ', 'example.com/a b'])('%j is a usage error naming the flag', (pattern) => {
    expect(() => compileUrlGlob(pattern, '--exclude')).toThrow(UsageError);
    expect(() => compileUrlGlob(pattern, '--exclude')).toThrow(/^--exclude /);
  });
});
