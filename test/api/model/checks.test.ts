// A record as a run keeps it (withoutPassedValues): the passed checks' values gone, the rest read back as sent.
import { describe, expect, it } from 'vitest';
import { reportChecks, withoutPassedValues } from '../../../src/api/model/checks.js';
import type { ApiRecord } from '../../../src/api/model/record.js';

function record(): ApiRecord {
  return {
    id: 7,
    url: 'example.com/a',
    score: 61,
    results: {
      title: { passed: true, importance: 'high', value: 'A title', errors: [] },
      h1: { passed: false, importance: 'high', value: ['One', 'Two'], errors: [{ too_many: 2 }] },
      canonical: { passed: false, importance: 'low', value: null, errors: [{ missing: true }] },
      lang: { passed: true, value: 'en' },
      odd: 'not an entry',
    },
  };
}

describe('withoutPassedValues', () => {
  it('keeps every field and each check not passed as sent, in order; a passed check keeps its importance alone', () => {
    const slim = withoutPassedValues(record());
    expect(slim.id).toBe(7);
    expect(JSON.stringify(slim.results)).toBe(
      JSON.stringify({
        title: { passed: true, importance: 'high' },
        h1: { passed: false, importance: 'high', value: ['One', 'Two'], errors: [{ too_many: 2 }] },
        canonical: { passed: false, importance: 'low', value: null, errors: [{ missing: true }] },
        lang: { passed: true },
        odd: 'not an entry',
      }),
    );
    // Read twice, the same: each read rebuilds its own objects.
    expect(slim.results).toEqual(slim.results);
    expect(slim.results).not.toBe(slim.results);
  });

  it('reads back alike whether its entries are packed a character each (all shared) or kept as an array (one not)', () => {
    const { odd: _odd, ...shared } = record().results as Record<string, unknown>;
    // 300 importances: more shared entries than the codes hold (256), so records past them keep arrays.
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`c${i}`, { passed: i % 3 > 0, importance: `level ${i}`, value: i }]));
    for (const results of [shared, many, { ...shared, ...many }]) {
      const slim = withoutPassedValues({ ...record(), results });
      const expected = Object.fromEntries(
        Object.entries(results).map(([id, entry]) => {
          const { passed, importance } = entry as { passed: boolean; importance?: string };
          return [id, passed ? (importance === undefined ? { passed } : { passed, importance }) : entry];
        }),
      );
      expect(JSON.stringify(slim.results)).toBe(JSON.stringify(expected));
      expect(reportChecks(slim)).toEqual(reportChecks({ ...slim, results: slim.results }));
    }
  });

  it("shares a failed check's outcome between the reads and the records that hold its entry, frozen (an audit's end reads each three times)", () => {
    const [first, second] = [withoutPassedValues(record()), withoutPassedValues({ ...record(), id: 8 })];
    const failed = (slim: ApiRecord) => reportChecks(slim)?.find((check) => check.id === 'h1');
    expect(failed(first)).toEqual({ id: 'h1', passed: false, importance: 'high', value: ['One', 'Two'], errors: [{ too_many: 2 }] });
    expect(failed(first)).toBe(failed(first));
    expect(failed(second)).toBe(failed(first));
    expect(Object.isFrozen(failed(first))).toBe(true);
  });

  it('returns a record slimmed already as it is (one copy a page, not two)', () => {
    const slim = withoutPassedValues(record());
    expect(withoutPassedValues(slim)).toBe(slim);
  });

  it('keeps a value JSON cannot carry (a bigint id in a check) as it was', () => {
    const whole = record();
    (whole.results as Record<string, unknown>).big = { passed: false, value: 2n ** 64n };
    const slim = withoutPassedValues(whole);
    const results = slim.results as Record<string, { value?: unknown; errors?: unknown }>;
    expect(results.big?.value).toBe(2n ** 64n);
    expect(results.h1?.errors).toEqual([{ too_many: 2 }]);
  });

  it("reads a slimmed record's checks straight from its packed entries, as from its rebuilt results", () => {
    const shapes: ApiRecord[] = [record(), { ...record(), results: { '2': { passed: true }, '10': { passed: false, value: 1 }, a: { passed: true } } }];
    const bigint = record();
    (bigint.results as Record<string, unknown>).big = { passed: false, value: 2n ** 64n };
    shapes.push(bigint, { ...record(), results: { odd: 'not an entry' } }, { ...record(), results: {} });
    for (const whole of shapes) {
      const slim = withoutPassedValues(whole);
      const rebuilt = { ...slim, results: slim.results };
      expect(Object.getPrototypeOf(slim)).not.toBe(Object.prototype);
      expect(reportChecks(slim)).toEqual(reportChecks(rebuilt));
    }
    expect(reportChecks(withoutPassedValues(record()))?.map((check) => check.id)).toEqual(['title', 'h1', 'canonical', 'lang']);
  });
});
