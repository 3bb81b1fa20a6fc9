// The HTML report's sparkline as the page's server side draws it (the projects' "Over time"): lines, gaps and dots.
import { describe, expect, it } from 'vitest';
import { sparklineSvg } from '../../../../src/cli/report-files/html/charts.js';

const marks = (markup: unknown) => {
  const svg = String(markup);
  return {
    lines: [...svg.matchAll(/<polyline points="([^"]*)"/g)].map((match) => match[1]!.split(' ').length),
    lone: [...svg.matchAll(/<circle class="lone" cx="([^"]*)"/g)].map((match) => Number(match[1])),
    last: [...svg.matchAll(/<circle cx="([^"]*)"/g)].map((match) => Number(match[1])),
  };
};

describe('sparklineSvg', () => {
  it('a week with a gap on both sides is a dot, not lost; a missing week is a gap', () => {
    // Weeks 0 and 2 stand alone (1 and 3 are missing); 4-5 are a line; 6 is missing; now is marked.
    const svg = sparklineSvg([40, null, 50, null, 60, 70, null, 80], 'a project');
    expect(marks(svg)).toEqual({ lines: [2], lone: [3, 28.7], last: [93] });
  });

  it('a lone point at the end is the last point: one dot, not two', () => {
    expect(marks(sparklineSvg([40, 50, null, 60], 'p'))).toEqual({ lines: [2], lone: [], last: [93] });
  });

  it('no score now: no last dot, and a lone point before the gap still shows', () => {
    expect(marks(sparklineSvg([null, 50, null], 'p'))).toEqual({ lines: [], lone: [48], last: [] });
  });

  it('an unbroken line has no dot but the last', () => {
    expect(marks(sparklineSvg([10, 20, 30], 'p'))).toEqual({ lines: [3], lone: [], last: [93] });
  });
});
