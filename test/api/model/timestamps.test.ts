// The service's timestamps read one way: ISO 8601 with or without an offset, and the SQL form, both UTC without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp, timestampOf } from '../../../src/api/model/timestamps.js';
import { newestByUrl } from '../../../src/cli/report-files/baseline.js';
import { projectListSilences } from '../../../src/api/list-silences.js';

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
