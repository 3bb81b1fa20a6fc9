// `reports stats` as a document for the format registry: a summary with a block-character histogram for people, figures for machines.
import { BUCKETS, type ReportStats } from './report-stats.js';
import { loadPalette, type Palette } from '../table/colors.js';
import type { OutputDocument } from '../formats.js';
import { fitNotice, ListTable } from '../table/table.js';
import type { Sink } from '../types.js';

/** How the text for people is drawn. */
export interface StatsOutput {
  color: boolean;
  /** The terminal's width for tables; undefined: not fitted. */
  width?: number;
  notice?: (line: string) => void;
}

const BUCKET_LABELS = BUCKETS.map(({ from, to }) => `${from}-${to}`);
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The figures as flat named values, in a fixed order: a csv row, an ndjson line's base. */
function flat(stats: ReportStats, byProject: boolean): Record<string, string | number | null> {
  const row: Record<string, string | number | null> = {};
  if (byProject) row.project = stats.project ?? '';
  Object.assign(row, {
    reports: stats.reports,
    good: stats.good,
    decent: stats.decent,
    bad: stats.bad,
    other: stats.other,
    scored: stats.scored,
    min: stats.min ?? null,
    median: stats.median ?? null,
    mean: stats.mean ?? null,
    max: stats.max ?? null,
  });
  for (const [i, label] of BUCKET_LABELS.entries()) row[label] = stats.histogram[i] ?? 0;
  return row;
}

/** For json and ndjson: the histogram as buckets with their bounds rather than bare columns. */
function structured(stats: ReportStats, byProject: boolean): Record<string, unknown> {
  const { histogram, project, ...figures } = stats;
  return {
    ...(byProject ? { project: project ?? '' } : {}),
    ...figures,
    min: figures.min ?? null,
    median: figures.median ?? null,
    mean: figures.mean ?? null,
    max: figures.max ?? null,
    histogram: BUCKETS.map(({ from, to }, i) => ({ from, to, count: histogram[i] ?? 0 })),
  };
}

/** The whole set's stats, or with `groups` one entry a project (then the total as the table's last row). */
export function statsDocument(total: ReportStats, groups: ReportStats[] | undefined, options: StatsOutput): OutputDocument {
  const byProject = groups !== undefined;
  const entries = groups ?? [total];
  return {
    value: byProject ? entries.map((stats) => structured(stats, true)) : structured(total, false),
    lines: entries.map((stats) => structured(stats, byProject)),
    rows: { columns: Object.keys(flat(total, byProject)), rows: entries.map((stats) => Object.values(flat(stats, byProject))) },
    text: () => drawnText((out) => (byProject ? writeProjectTable(out, total, entries, options) : writeSummary(out, total, options))),
    drawn: true,
  };
}

/** What `draw` writes, as one string. */
async function drawnText(draw: (out: Sink) => Promise<void>): Promise<string> {
  const parts: string[] = [];
  await draw({ write: (chunk: string) => parts.push(chunk) });
  return parts.join('');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '' : `${Math.round((part / whole) * 100)}%`;
}

function figure(value: number | undefined): string {
  if (value === undefined) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The whole set: counts per result, the score's figures, and a histogram of horizontal bars. */
async function writeSummary(out: Sink, stats: ReportStats, options: StatsOutput): Promise<void> {
  const palette = await loadPalette(options.color);
  const lines: string[] = [];
  const count = (n: number): string => String(n).padStart(String(stats.reports).length);
  lines.push(`${palette.head('reports')}  ${stats.reports}${stats.scored < stats.reports ? `  (${stats.scored} with a score)` : ''}`);
  for (const result of ['good', 'decent', 'bad'] as const) {
    lines.push(`${palette.result(result.padEnd(7))}  ${count(stats[result])}  ${percent(stats[result], stats.reports).padStart(4)}`);
  }
  if (stats.other > 0) lines.push(`${'other'.padEnd(7)}  ${count(stats.other)}  ${percent(stats.other, stats.reports).padStart(4)}`);
  lines.push('');
  lines.push(`${palette.head('score')}    min ${figure(stats.min)}  median ${figure(stats.median)}  mean ${figure(stats.mean)}  max ${figure(stats.max)}`);
  if (stats.scored > 0) {
    lines.push('');
    lines.push(...histogramLines(stats.histogram, options.width, palette));
  }
  out.write(`${lines.join('\n')}\n`);
}

/** One line a bucket: `70-79    ██████▍   12`, bars scaled so the largest bucket fills the room there is. */
function histogramLines(histogram: readonly number[], width: number | undefined, palette: Palette): string[] {
  const largest = Math.max(...histogram);
  const countWidth = String(largest).length;
  const labelWidth = Math.max(...BUCKET_LABELS.map((label) => label.length));
  const room = Math.max(4, Math.min(40, (width ?? 80) - labelWidth - countWidth - 4));
  return histogram.map((count, i) => {
    const eighths = largest === 0 ? 0 : Math.round((count / largest) * room * 8);
    const bar = '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
    const shown = count > 0 && bar === '' ? '▏' : bar;
    return `${palette.head((BUCKET_LABELS[i] ?? '').padStart(labelWidth))}  ${shown.padEnd(room)}  ${String(count).padStart(countWidth)}`;
  });
}

/** --by project: a table with one row a project and a last row for all of them; scores as a 10-bucket sparkline. */
async function writeProjectTable(out: Sink, total: ReportStats, groups: ReportStats[], options: StatsOutput): Promise<void> {
  const columns = ['project', 'reports', 'good', 'decent', 'bad', 'min', 'median', 'mean', 'max', 'scores'];
  const table = new ListTable(columns);
  const row = (stats: ReportStats, name: string) => ({
    project: name,
    reports: stats.reports,
    good: stats.good,
    decent: stats.decent,
    bad: stats.bad,
    min: figure(stats.min),
    median: figure(stats.median),
    mean: figure(stats.mean),
    max: figure(stats.max),
    scores: sparkline(stats.histogram),
  });
  for (const stats of groups) table.add(row(stats, stats.project === '' ? '(none)' : (stats.project ?? '')));
  table.add(row(total, '(all)'));
  await table.draw(out, {
    kind: 'project',
    color: options.color,
    width: options.width,
    onFitted: (fitted) => options.notice?.(fitNotice(fitted)),
  });
}

function sparkline(histogram: readonly number[]): string {
  const largest = Math.max(...histogram);
  return histogram.map((count) => (count === 0 ? ' ' : (SPARKS[Math.min(7, Math.ceil((count / largest) * 8) - 1)] ?? '█'))).join('');
}
