// A report's failed checks in words (src/output/check-lines.ts): each value said once, with its unit, and the limit.
import { describe, expect, it } from 'vitest';
import { describeErrors, formatMeasure, writeCheckLines } from '../../src/output/check-lines.js';
import { checkMeasure } from '../../src/api/model/checks.js';

async function linesOf(results: Record<string, unknown>): Promise<string[]> {
  let text = '';
  await writeCheckLines({ write: (chunk: string) => ((text += chunk), true) }, { id: 1, results }, { color: false });
  return text.split('\n').filter((line) => line.startsWith('  '));
}

describe('check lines', () => {
  it('say the value once with its unit and what was wrong with the limit, never the value again', async () => {
    const lines = await linesOf({
      load_time: { passed: false, importance: 'high', value: 6.2, errors: { too_slow: { max: 2 } } },
      page_size: { passed: false, importance: 'medium', value: 2400000, errors: { too_large: { max: 330000 } } },
      content_length: { passed: false, importance: 'medium', value: 96, errors: { too_few: { min: 500 } } },
      http_requests: { passed: false, importance: 'medium', value: { JavaScripts: 48, CSS: 21 }, errors: { too_many: 69 } },
      // A detail that repeats the value (an older answer's shape) is not said twice; a limit not sent is the default's.
      text_html_ratio: { passed: false, importance: 'low', value: 4, errors: { too_small: 4 } },
      mixed_content: { passed: false, importance: 'high', value: ['http://cdn.example/lib.js'], errors: { found: ['http://cdn.example/lib.js'] } },
      title: { passed: false, importance: 'high', value: 'A very long title', errors: { too_long: { max: 60 } } },
    });
    expect(lines).toEqual([
      '  high    Load time 6.2 s — too slow, over 2 s',
      '  high    Mixed content: http://cdn.example/lib.js — found',
      '  high    Title: A very long title — too long (max 60)',
      '  medium  Content length 96 words — under 500 words',
      '  medium  HTTP requests: JavaScripts 48, CSS 21 — 69 requests, over 50 requests',
      '  medium  Page size 2.4 MB — over 330 kB',
      '  low     Text to HTML ratio 4% — under 10%',
    ]);
  });

  it.each([
    [6.25, 'seconds', '6.3 s'],
    [2400000, 'bytes', '2.4 MB'],
    [330000, 'bytes', '330 kB'],
    [48213, 'bytes', '48.2 kB'],
    [512, 'bytes', '512 B'],
    [4, 'percent', '4%'],
    [1500, 'nodes', '1500 nodes'],
  ] as const)('formatMeasure(%s, %s) is %s', (value, unit, text) => {
    expect(formatMeasure(value, unit)).toBe(text);
  });

  it('a measure without a check value of its own still gets its unit in the errors', () => {
    expect(describeErrors({ too_large: 2400000 }, { measure: checkMeasure('page_size') })).toBe('2.4 MB, over 330 kB');
  });
});
