// A long list as its first items and a count of the rest, on lines of their own or inside a sentence.
import { describe, expect, it } from 'vitest';
import { andMore, cappedLines, namedList } from '../../src/output/capped-list.js';

describe('cappedLines', () => {
  it('gives every item when there are no more than the limit', () => {
    expect(
      cappedLines(
        ['a', 'b'],
        2,
        (item) => `- ${item}`,
        (rest) => `- ${rest}`,
      ),
    ).toEqual(['- a', '- b']);
  });

  it('counts the rest on one line in the list’s own shape', () => {
    expect(
      cappedLines(
        ['a', 'b', 'c', 'd'],
        2,
        (item) => `| ${item} |`,
        (rest) => `| ${rest} |`,
      ),
    ).toEqual(['| a |', '| b |', '| … and 2 more |']);
  });
});

describe('namedList', () => {
  it('names the first items and counts the rest inside a sentence', () => {
    expect(namedList([1, 2, 3, 4, 5], 3, (n) => `#${n}`)).toBe('#1, #2, #3 and 2 more');
    expect(namedList([1, 2], 3, (n) => `#${n}`)).toBe('#1, #2');
  });
});

it('andMore', () => {
  expect(andMore(12)).toBe('… and 12 more');
});
