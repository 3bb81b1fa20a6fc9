// The failing URLs as stderr lines and GitHub workflow annotations: capped, worst first, escaped as GitHub reads them.
import { describe, expect, it } from 'vitest';
import type { UrlVerdict } from '../../../src/cli/verdicts/judge.js';
import { annotationLines, escapeData, escapeProperty, namedFailureLines } from '../../../src/cli/verdicts/named-failures.js';
import { globRegExp, globProblem } from '../../../src/url-glob.js';

function verdict(url: string, text: string, severity: 'error' | 'warn' = 'error'): UrlVerdict {
  return { url, id: '1', score: 40, failed: severity === 'error', findings: [{ severity, subject: 'score', text, source: 'x', byFlag: false }] };
}

describe('named failures', () => {
  it('stderr: the first 20 failures, then how many more; warnings after, marked', () => {
    const failures = Array.from({ length: 23 }, (_, i) => verdict(`example.com/${i}`, `score ${i} < 70`));
    const lines = namedFailureLines(failures, [verdict('example.com/w', 'http2: failed', 'warn')]);
    expect(lines.slice(0, 2)).toEqual(['rsapi:   example.com/0: score 0 < 70', 'rsapi:   example.com/1: score 1 < 70']);
    expect(lines.slice(20)).toEqual(['rsapi:   … and 3 more', 'rsapi:   warning: example.com/w: http2: failed']);
  });

  it('a stderr line names 5 findings of a URL, then how many more; its annotation names them all', () => {
    const many: UrlVerdict = {
      ...verdict('example.com/x', 'a'),
      findings: Array.from({ length: 8 }, (_, i) => ({ severity: 'error' as const, subject: `c${i}`, text: `c${i}: missing`, source: 'x', byFlag: false })),
    };
    expect(namedFailureLines([many], [])).toEqual(['rsapi:   example.com/x: c0: missing; c1: missing; c2: missing; c3: missing; c4: missing; … and 3 more']);
    expect(annotationLines([many], [])[0]).toBe(`::error title=rsapi%3A example.com/x::${many.findings.map((f) => f.text).join('; ')}`);
  });

  it('annotations: at most 50, errors first; % CR LF escaped in the message, and : , too in the title', () => {
    const failures = Array.from({ length: 60 }, (_, i) => verdict(`example.com/${i}`, 'title: 100% off,\nnow'));
    const lines = annotationLines(failures, [verdict('example.com/w', 'dom_size: failed', 'warn')]);
    expect(lines).toHaveLength(50);
    expect(lines[0]).toBe('::error title=rsapi%3A example.com/0::title: 100%25 off,%0Anow');
    expect(annotationLines([verdict('a.example/x,y', 'z')], [verdict('w.example', 'v', 'warn')])).toEqual([
      '::error title=rsapi%3A a.example/x%2Cy::z',
      '::warning title=rsapi%3A w.example::v',
    ]);
    expect(escapeData('a%\r\nb')).toBe('a%25%0D%0Ab');
    expect(escapeProperty('a:b,c')).toBe('a%3Ab%2Cc');
  });
});

describe('globs over a report identity', () => {
  it.each([
    ['**', 'example.com/a/b', true],
    ['example.com/blog/**', 'example.com/blog/2026/x', true],
    ['example.com/blog/**', 'example.com/blogroll', false],
    ['example.com/*', 'example.com/a', true],
    ['example.com/*', 'example.com/a/b', false],
    ['example.com/**/x', 'example.com/x', true],
    ['*.example.com/**', 'shop.example.com/p', true],
    ['example.com/{a,b}/*', 'example.com/b/1', true],
    ['example.com/p[0-9]', 'example.com/p7', true],
    ['example.com/p?', 'example.com/p/', false],
  ])('%s matches %s: %s', (glob, identity, matches) => {
    expect(globRegExp(glob).test(identity)).toBe(matches);
  });

  it.each([
    ['example.com/{a', 'a "{" is never closed'],
    ['example.com/a}', '"}" at character 14 closes no "{"'],
    ['example.com/[a', '"[" at character 13 is never closed'],
    ['', 'the glob is empty'],
  ])('%j is refused: %s', (glob, problem) => {
    expect(globProblem(glob)).toBe(problem);
  });
});
