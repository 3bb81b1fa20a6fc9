// The HTML report's charts as inline SVG, drawn here (no chart library): the score histogram and the share of each result.
// Each is an image with a name (role="img", aria-labelledby); the numbers it shows are also on the page as text.
import { plural } from '../../../plural.js';
import { labelForScore } from '../../../api/model/report-model.js';
import { html, type Markup } from './markup.js';

/**
 * The page's score buckets: about 10 points each, cut where the results are (bad < 49, decent 49-79, good > 79), so
 * every bar is of one result and its colour says which: 40-48 is bad, 49-59 decent. (`reports stats` keeps its even
 * 10-point buckets.)
 */
export const HTML_BUCKETS = [
  { from: 0, to: 9 },
  { from: 10, to: 19 },
  { from: 20, to: 29 },
  { from: 30, to: 39 },
  { from: 40, to: 48 },
  { from: 49, to: 59 },
  { from: 60, to: 69 },
  { from: 70, to: 79 },
  { from: 80, to: 89 },
  { from: 90, to: 100 },
] as const;

/** A score's bucket: by the result it has first (79.4 is good, so it joins 80-89), then by its points. */
export function htmlBucketOf(score: number): number {
  const first = { good: 8, decent: 5, bad: 0 }[labelForScore(score)];
  const last = { good: HTML_BUCKETS.length - 1, decent: 7, bad: 4 }[labelForScore(score)];
  let index = first;
  while (index < last && score >= HTML_BUCKETS[index + 1]!.from) index++;
  return index;
}

/** The histogram's buckets as people read them. */
export const BUCKET_NAMES = HTML_BUCKETS.map(({ from, to }) => `${from}–${to}`);
/** The result of every score of a bucket: the bar's colour. */
const BUCKET_RESULT = HTML_BUCKETS.map(({ from }) => labelForScore(from));

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 8;
const TOP = 22;
const BOTTOM = 34;

/** Ten bars of 10 points each, the count above each bar and the bucket below it. */
export function histogramSvg(buckets: readonly number[], labelId: string): Markup {
  const highest = Math.max(1, ...buckets);
  const slot = (WIDTH - 2 * LEFT) / buckets.length;
  const plot = HEIGHT - TOP - BOTTOM;
  const bars = buckets.map((count, index) => {
    const height = count === 0 ? 0 : Math.max(2, Math.round((count / highest) * plot));
    const x = LEFT + index * slot;
    const y = TOP + plot - height;
    const middle = x + slot / 2;
    const tip = `${BUCKET_NAMES[index]}: ${plural(count, 'report')}`;
    const bar = html`<rect x="${x + 4}" y="${y}" width="${slot - 8}" height="${height}" rx="2"></rect>`;
    const countText = html`<text class="count" x="${middle}" y="${y - 6}">${count}</text>`;
    const axisText = html`<text class="axis" x="${middle}" y="${HEIGHT - BOTTOM + 18}">${BUCKET_NAMES[index]}</text>`;
    return html`<g class="bar ${BUCKET_RESULT[index]}"><title>${tip}</title>${bar}${countText}${axisText}</g>`;
  });
  const baseline = TOP + plot + 0.5;
  const line = html`<line class="base" x1="${LEFT}" x2="${WIDTH - LEFT}" y1="${baseline}" y2="${baseline}"></line>`;
  const box = `0 0 ${WIDTH} ${HEIGHT}`;
  return html`<svg class="histogram" viewBox="${box}" role="img" aria-labelledby="${labelId}" preserveAspectRatio="xMidYMid meet">${line}${bars}</svg>`;
}

/** One bar split by result, each part as wide as its share of the reports. */
export function resultShareSvg(parts: readonly { name: string; className: string; count: number }[], labelId: string): Markup {
  const total = parts.reduce((sum, part) => sum + part.count, 0);
  let x = 0;
  const segments = parts
    .filter((part) => part.count > 0)
    .map((part) => {
      const width = (part.count / total) * 1000;
      const title = html`<title>${part.name}: ${part.count} (${percent(part.count, total)})</title>`;
      const segment = html`<rect class="${part.className}" x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="20">${title}</rect>`;
      x += width;
      return segment;
    });
  return html`<svg class="share" viewBox="0 0 1000 20" preserveAspectRatio="none" role="img" aria-labelledby="${labelId}">${segments}</svg>`;
}

/** `12%`, `0.4%`: a share as people read it. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const value = (part / whole) * 100;
  return `${value >= 10 || value === 0 ? Math.round(value) : Math.round(value * 10) / 10}%`;
}

/** A sparkline's size in the page's pixels; the table's script draws the URLs' alike (script.ts). */
export const SPARK = { width: 96, height: 24, pad: 3 } as const;

/**
 * Scores over runs, oldest first, as a line on the 0-100 scale (a gap where a run has none) with the last point marked.
 * A point with a gap on both sides has no line to be part of: it is a dot, so a missing run is a gap, never a lost one.
 * An image named by `label`; the numbers are on the page as text too.
 */
export function sparklineSvg(values: readonly (number | null)[], label: string): Markup {
  const { width, height, pad } = SPARK;
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const x = (index: number) => (pad + index * step).toFixed(1);
  const y = (score: number) => (pad + (1 - Math.min(100, Math.max(0, score)) / 100) * (height - 2 * pad)).toFixed(1);
  const runs: { x: string; y: string }[][] = [[]];
  values.forEach((value, index) => {
    if (value === null) runs.push([]);
    else runs.at(-1)!.push({ x: x(index), y: y(value) });
  });
  const lastIndex = values.length - 1;
  const last = values[lastIndex];
  const marks = runs.map((points, run) => {
    if (points.length > 1) return html`<polyline points="${points.map((point) => `${point.x},${point.y}`).join(' ')}"></polyline>`;
    // The last point has its own, larger dot.
    if (points.length === 0 || (run === runs.length - 1 && last !== null)) return '';
    return html`<circle class="lone" cx="${points[0]!.x}" cy="${points[0]!.y}" r="1.75"></circle>`;
  });
  const dot = last === null || last === undefined ? '' : html`<circle cx="${x(lastIndex)}" cy="${y(last)}" r="2.5"></circle>`;
  return html`<svg class="spark" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${label}">${marks}${dot}</svg>`;
}
