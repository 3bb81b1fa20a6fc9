// A count with its noun: singular for one, the plural for any other count.
import { expect, it } from 'vitest';
import { plural } from '../src/plural.js';

it.each([
  [0, 'report', '0 reports'],
  [1, 'report', '1 report'],
  [2, 'URL', '2 URLs'],
])('plural(%d, %s) is %s', (count, one, expected) => {
  expect(plural(count, one)).toBe(expected);
});

it('takes a plural that is not the singular and an s', () => {
  expect(plural(1, 'entry', 'entries')).toBe('1 entry');
  expect(plural(3, 'entry', 'entries')).toBe('3 entries');
});
