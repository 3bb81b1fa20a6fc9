// Tables for people at a terminal: columns two spaces apart, fitted to the terminal's width, drawn in time linear in rows.
import { loadPalette } from './colors.js';
import { displayCell, fieldValue } from '../fields.js';
import { terminalText } from '../terminal-text.js';
import { fitColumns } from './table-fit.js';
import type { RecordKind, ServiceRecord, Sink } from '../types.js';
import { displayWidth, fitMiddle, fitToWidth, wrapToWidth } from './width.js';

const GAP = '  ';
/** Lines handed to the sink at once: output starts early and no single string holds a whole 10,000-row table. */
const LINES_PER_WRITE = 500;

export interface TableOptions {
  kind: RecordKind;
  color: boolean;
  /** The terminal's width; undefined draws every value whole (--wide, or not a terminal). */
  width?: number;
  /** Told of what fitting the terminal cost, when it cost anything: the line to print is fitNotice's. */
  onFitted?: (fitted: Fitted) => void;
  /** Columns never shortened; default: the kind's identifier and verdict. */
  keep?: ReadonlySet<string>;
}

/** The rows of a list table, made into display cells as records arrive; drawn at the end, when every width is known. */
export class ListTable {
  private readonly rows: string[][] = [];

  constructor(private readonly columns: readonly string[]) {}

  add(record: ServiceRecord): void {
    this.rows.push(this.columns.map((column) => displayCell(column, fieldValue(record, column))));
  }

  /** Writes the table to `out`; nothing for no rows (the caller prints its "none found" hint on stderr). */
  async draw(out: Sink, options: TableOptions): Promise<void> {
    if (this.rows.length === 0 || this.columns.length === 0) return;
    const url = this.columns.indexOf('url');
    // Fitted to a terminal, a URL is read for its host and path: the scheme only takes room (phpRank stores none).
    if (url !== -1 && options.width !== undefined) for (const row of this.rows) row[url] = withoutScheme(row[url] ?? '');
    const heads = this.columns.map((column) => terminalText(column));
    const natural = heads.map(displayWidth);
    const allDates = heads.map(() => true);
    for (const row of this.rows) {
      for (let i = 0; i < row.length; i++) {
        const cell = row[i] ?? '';
        const width = displayWidth(cell);
        if (width > (natural[i] ?? 0)) natural[i] = width;
        if (allDates[i] && cell !== '' && !LOCAL_DATE_TIME.test(cell)) allDates[i] = false;
      }
    }
    // A date-time column's steps never cut its heading (`generated_at` is wider than a date).
    const stepsOf = (index: number): number[] => DATE_TIME_STEPS.map((step) => Math.max(step, displayWidth(heads[index] ?? '')));
    const steps = new Map(natural.flatMap((width, index) => (allDates[index] && width === DATE_TIME_WIDTH ? [[index, stepsOf(index)] as const] : [])));
    const fit = fitColumns(this.columns, natural, {
      width: options.width,
      gap: GAP.length,
      keep: options.keep ?? keptWhole(options.kind),
      steps,
      dropBeforeUrl: options.kind === 'report' ? DROPPED_BEFORE_URL : [],
    });
    const palette = await loadPalette(options.color);
    const shown = fit.widths.flatMap((width, index) =>
      width === undefined ? [] : [{ index, width, shorten: shortener(width, allDates[index] === true, index === url) }],
    );
    const line = (cells: readonly string[], style: (column: number, text: string) => string, head = false): string => {
      let text = '';
      shown.forEach(({ index, width, shorten }, position) => {
        const cell = head ? fitToWidth(cells[index] ?? '', width) : shorten(cells[index] ?? '');
        const styled = style(index, cell.text);
        const last = position === shown.length - 1;
        text += last ? styled : styled + ' '.repeat(Math.max(0, width - cell.width)) + GAP;
      });
      return `${text.trimEnd()}\n`;
    };
    let chunk = line(heads, (_column, text) => palette.head(text), true);
    let pending = 1;
    for (const row of this.rows) {
      chunk += line(row, (column, text) => (this.columns[column] === 'result' ? palette.result(text) : text));
      if (++pending >= LINES_PER_WRITE) {
        out.write(chunk);
        chunk = '';
        pending = 0;
      }
    }
    if (chunk) out.write(chunk);
    // A URL is cut in its middle and a date-time to its minute or day by design (the host, the path's end and the day
    // stay); any other value cut loses what the reader may have come for (a report's failed checks).
    const cut = shown.filter(({ index, width }) => width < (natural[index] ?? 0) && index !== url && !steps.has(index));
    const fitted = { hidden: fit.hidden.map((index) => this.columns[index] ?? ''), cut: cut.map(({ index }) => this.columns[index] ?? '') };
    if (fitted.hidden.length > 0 || fitted.cut.length > 0) options.onFitted?.(fitted);
  }
}

/** What fitting a table to the terminal cost: columns left out, and columns whose values were cut. */
export interface Fitted {
  hidden: string[];
  cut: string[];
}

/** The line that says so: `rsapi: project left out and failed_checks cut to fit the terminal; --wide shows …`. */
export function fitNotice({ hidden, cut }: Fitted): string {
  const what = [hidden.length > 0 ? `${hidden.join(', ')} left out` : '', cut.length > 0 ? `${cut.join(', ')} cut` : ''].filter(Boolean);
  const whole = [hidden.length > 0 ? 'column' : '', cut.length > 0 ? 'value' : ''].filter(Boolean);
  return `rsapi: ${what.join(' and ')} to fit the terminal; --wide shows every ${whole.join(' and ')} whole`;
}

/** `2026-11-20 14:44:03` as displayCell writes a date-time in local time. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DATE_TIME_WIDTH = 19;
/** A date-time column gives way before any column is cut: to `2026-11-20 14:44`, then to the date. */
const DATE_TIME_STEPS = [16, 10];
/**
 * A report's columns left out, in this order, before its URL is cut: the project is the URL's host, privacy is
 * rarely what a row is read for. The URL tells the rows apart.
 */
const DROPPED_BEFORE_URL = ['project', 'privacy'];

/**
 * How a cell is cut to a column's width. A column of date-times too narrow for the seconds drops them, then the time:
 * `2026-11-20 14:44` and `2026-11-20` read better than `2026-11-20 1…`. A URL is cut in the middle, keeping the
 * start of its host and the end of its path (`blog.example…/contact-2`): rows of one site differ at the end.
 */
function shortener(width: number, dates: boolean, url: boolean): (cell: string) => { text: string; width: number } {
  if (dates && width < DATE_TIME_WIDTH && width >= 10) {
    const keep = width >= 16 ? 16 : 10;
    return (cell) => ({ text: cell.slice(0, keep), width: Math.min(cell.length, keep) });
  }
  if (url) return (cell) => fitMiddle(cell, width, urlHead(cell, width));
  return (cell) => fitToWidth(cell, width);
}

/**
 * Columns of a cut URL given to its start: half, or more when the path is short enough to show whole after it
 * (`news.example…/about-2`), but never more than the host.
 */
function urlHead(cell: string, width: number): number {
  const slash = cell.indexOf('/');
  const host = slash === -1 ? cell.length : slash;
  const path = slash === -1 ? 0 : displayWidth(cell.slice(slash));
  return Math.min(host, Math.max(Math.ceil((width - 1) / 2), width - 1 - path));
}

function withoutScheme(cell: string): string {
  return cell.replace(/^https?:\/\//i, '');
}

/**
 * A two-column table (field, value) for one record. A value wider than the terminal wraps onto lines of its own under
 * the values' column (a record is read whole: a cut URL or message would hide what it is shown for).
 */
export async function drawRecordTable(out: Sink, record: ServiceRecord, fields: readonly string[], options: TableOptions): Promise<void> {
  if (fields.length === 0) return;
  const palette = await loadPalette(options.color);
  const names = fields.map((field) => terminalText(field));
  const nameWidth = Math.max(...names.map(displayWidth));
  const keyWidth = options.width === undefined ? nameWidth : Math.min(nameWidth, Math.max(4, Math.floor(options.width / 3)));
  const valueWidth = options.width === undefined ? Infinity : Math.max(1, options.width - keyWidth - GAP.length);
  let text = '';
  fields.forEach((field, index) => {
    const name = fitToWidth(names[index] ?? '', keyWidth);
    const [first = '', ...more] = wrapToWidth(displayCell(field, fieldValue(record, field)), valueWidth);
    const padding = ' '.repeat(Math.max(0, keyWidth - name.width));
    text += `${`${palette.head(name.text)}${padding}${GAP}${field === 'result' ? palette.result(first) : first}`.trimEnd()}\n`;
    for (const line of more) text += `${' '.repeat(keyWidth)}${GAP}${line}\n`;
  });
  out.write(text);
}

/** The identifier and the verdict are what a row is read for: they are never shortened. */
function keptWhole(kind: RecordKind): ReadonlySet<string> {
  return new Set(kind === 'report' ? ['id', 'result', 'score'] : ['project']);
}
