// Sparklines and the aligned tables of the history verbs (src/output/sparkline.ts).
import { describe, expect, it } from 'vitest';
import { alignedTable, sparkline } from '../../src/output/sparkline.js';
import { displayWidth } from '../../src/output/table/width.js';

describe('sparkline', () => {
  it('draws the range in eight steps, a gap where a value is missing, the middle block for a flat line', () => {
    expect(sparkline([0, 50, 100])).toBe('▁▅█');
    expect(sparkline([10, undefined, 20])).toBe('▁ █');
    expect(sparkline([7, 7])).toBe('▄▄');
    expect(sparkline([])).toBe('');
  });
});

describe('alignedTable', () => {
  it('on a terminal, fits cells holding control characters as they are shown (escaped), never past the width', () => {
    const rows = [['1', 'example.com/\u001b[31mred\u001b[0m/a-long-path-here', 'bad\u0007']];
    const text = alignedTable(['id', 'url', 'result'], rows, 40);
    const [header, row, notice] = text.trimEnd().split('\n');
    for (const line of [header, row]) expect(displayWidth(line as string), line).toBeLessThanOrEqual(40);
    expect(notice).toBe('url cut to fit the terminal; --wide shows every value whole');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(row).toContain('\\x1b[31m');
  });

  it('in a pipe (no width), cells are as given', () => {
    expect(alignedTable(['a', 'b'], [['x', 'y\u0007']])).toBe('a  b\nx  y\u0007\n');
  });
});
