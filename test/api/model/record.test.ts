// The service's loose values read one way: numbers that may arrive as strings, JSON objects told from arrays and null.
import { describe, expect, it } from 'vitest';
import { isObject, toNumber } from '../../../src/api/model/record.js';

describe('toNumber', () => {
  it.each([
    [71, 71],
    ['71', 71],
    [' 71.5 ', 71.5],
    ['0', 0],
    ['', undefined],
    ['  ', undefined],
    ['seventy', undefined],
    [null, undefined],
    [undefined, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [true, undefined],
  ])('%j -> %j', (input, expected) => {
    expect(toNumber(input)).toBe(expected);
  });
});

describe('isObject', () => {
  it('a JSON object is one; null, an array and a string are not', () => {
    expect(isObject({ id: 1 })).toBe(true);
    expect([null, [], 'x', 1].map(isObject)).toEqual([false, false, false, false]);
  });
});
