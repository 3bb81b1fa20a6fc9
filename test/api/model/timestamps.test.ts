// The service's timestamps read one way: ISO 8601 with or without an offset, and the SQL form, both UTC without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp, timestampOf } from '../../../src/api/model/timestamps.js';
import { newestByUrl } from '../../../src/cli/report-files/baseline.js';
import { projectListSilences } from '../../../src/api/list-silences.js';
import { seededInts } from '../../helpers/random.js';

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-20T09:14:03.000000Z', '2026-11-20T09:14:03.000Z'],
    ['2026-11-20T09:14:03.123456Z', '2026-11-20T09:14:03.123Z'],
    ['2026-11-20T09:14:03.999999Z', '2026-11-20T09:14:03.999Z'],
    ['2026-11-20 09:14:03', '2026-11-20T09:14:03.000Z'],
    ['2026-11-20 09:14', '2026-11-20T09:14:00.000Z'],
    ['2026-11-20T09:14:03+02:00', '2026-11-20T07:14:03.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each(['yesterday', '2026-11-20', '2026-02-31T10:00:00Z', '2026-11-20T24:00:00Z', ''])('%j is not a timestamp', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });

  it('timestampOf reads a field: milliseconds, or undefined for anything but a timestamp string', () => {
    expect(timestampOf('1970-01-01 00:00:01')).toBe(1000);
    expect(timestampOf(1000)).toBeUndefined();
    expect(timestampOf(null)).toBeUndefined();
  });
});

// Before one parser, the baseline and the listing's order check read the SQL form with Date.parse: in local time.
describe('the SQL form is UTC wherever it is compared, in any local time zone', () => {
  const original = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Tokyo';
  });
  afterAll(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });

  it('the baseline takes the newer report of a URL when one says 10:00 in SQL form and the other 09:30Z', () => {
    const byUrl = newestByUrl([
      { url: 'https://a.test/', generated_at: '2026-11-20T09:30:00Z', score: 90 },
      { url: 'https://a.test/', generated_at: '2026-11-20 10:00:00', score: 50 },
    ]);
    expect(byUrl.get('a.test')?.score).toBe(50);
  });

  it('a project list sorted by created_at in both forms is seen to be in order', () => {
    const silences = projectListSilences({ sortBy: 'created_at', sort: 'asc' });
    silences.see({ project: 'a', created_at: '2026-11-20T09:30:00.000000Z' });
    silences.see({ project: 'b', created_at: '2026-11-20 10:00:00' });
    expect(silences.found()).toEqual([]);
  });
});

describe("timestampOf: phpRank's form read by position", () => {
  it('gives what parseTimestamp gives, over 20,000 generated texts of that shape (fields in and out of range)', () => {
    const next = seededInts(47);
    const two = (n: number) => String(n).padStart(2, '0');
    let dated = 0;
    for (let round = 0; round < 20_000; round++) {
      const year = next(8) === 0 ? next(200) : 1900 + next(300);
      const text = `${String(year).padStart(4, '0')}-${two(next(14))}-${two(next(33))}T${two(next(26))}:${two(next(62))}:${two(next(62))}.${String(next(1_000_000)).padStart(6, '0')}Z`;
      const expected = parseTimestamp(text)?.getTime();
      if (expected !== undefined) dated++;
      expect(timestampOf(text), text).toBe(expected);
    }
    expect(dated).toBeGreaterThan(5_000);
  });

  it.each([
    '2024-02-29T23:59:59.999999Z',
    '0000-02-29T00:00:00.000000Z',
    '0004-02-29T00:00:00.000000Z',
    '2026-01-31T09:00:0x.000000Z',
    ' 2026-01-31T09:00:00.000000Z',
    '2026-01-31t09:00:00.000000z',
  ])('%s: as parseTimestamp reads it', (text) => {
    expect(timestampOf(text)).toBe(parseTimestamp(text)?.getTime());
  });
});
