// A report's per-check results for people: `checks: 27 of 36 passed`, then each failed check in words, wrapped to the terminal.
import { checkMeasure, checkName, failedChecks, reportChecks, type CheckMeasure, type CheckOutcome, type CheckUnit } from '../api/model/checks.js';
import { isObject } from '../api/model/record.js';
import { namedList } from './capped-list.js';
import { loadPalette } from './table/colors.js';
import { writeRecord } from './formats.js';
import { terminalText } from './terminal-text.js';
import type { OutputOptions, ServiceRecord, Sink } from './types.js';
import { displayWidth, piecesOfWidth } from './table/width.js';

/** Items of a list shown before `and N more`: a page's 80 images without alt text are a count, not a screenful. */
const LIST_ITEMS_SHOWN = 5;
/** The importance column: `medium` and its gap. */
const IMPORTANCE_WIDTH = 8;
const INDENT = '  ';

export interface CheckLinesOptions {
  /** The terminal's width; undefined: every line whole (--wide, or not a terminal). */
  width?: number;
  color: boolean;
}

/**
 * One report as `reports show` prints it. With per-check results, a table without --fields gets the fields without the
 * raw `results`, then the checks in words. Every other form is the record as any format writes it: csv and tsv with
 * the `failed_checks` column (shownRecord, rowColumns), json and ndjson the record as sent.
 */
export async function writeReportWithChecks(out: Sink, record: ServiceRecord, options: OutputOptions): Promise<void> {
  const chosen = options.fields !== undefined && options.fields.length > 0;
  // --fields results shows what was asked for; the section in words follows the default fields only.
  if (options.format !== 'table' || options.quiet || chosen || reportChecks(record) === undefined) {
    await writeRecord(out, record, options);
    return;
  }
  const { results: _results, ...rest } = record;
  await writeRecord(out, rest, options);
  await writeCheckLines(out, record, options);
}

/** `checks: 27 of 36 passed` and the failed checks; nothing for a report without per-check results. */
export async function writeCheckLines(out: Sink, record: ServiceRecord, options: CheckLinesOptions): Promise<void> {
  const outcomes = reportChecks(record);
  if (outcomes === undefined) return;
  const palette = await loadPalette(options.color);
  const passed = outcomes.filter((check) => check.passed).length;
  const lines = ['', `${palette.head('checks:')} ${passed} of ${outcomes.length} passed`];
  const failed = failedChecks(outcomes);
  if (failed.length > 0) lines.push(`${palette.head('failed:')}`);
  for (const check of failed) lines.push(...checkLines(check, options.width));
  out.write(`${lines.join('\n')}\n`);
}

/**
 * One failed check: importance, name, its value said once (with its unit when it is a measure) and what was wrong,
 * with the limit where the check has one (`Load time 6.2 s — too slow, over 2 s`, `Page size 2.4 MB — over 330 kB`),
 * wrapped under the name when the line is too long.
 */
function checkLines(check: CheckOutcome, width: number | undefined): string[] {
  const importance = (check.importance ?? '?').padEnd(IMPORTANCE_WIDTH);
  const measure = checkMeasure(check.id);
  const measured = measure !== undefined && numberOf(check.value) !== undefined;
  const value = measured ? formatMeasure(numberOf(check.value)!, measure.unit) : describeValue(check.value);
  const wrong = describeErrors(check.errors, { value: check.value, measure });
  const text = `${terminalText(checkName(check.id))}${value ? `${measured ? ' ' : ': '}${value}` : ''}${wrong ? ` — ${wrong}` : ''}`;
  return wrapLines(text, width, INDENT + importance, INDENT + ' '.repeat(IMPORTANCE_WIDTH));
}

/** A number as a service may send one (numeric strings included), or undefined. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** `6.2 s`, `2.4 MB`, `330 kB`, `96 words`, `4%`: a measure with its unit, sizes in SI units as browsers show them. */
export function formatMeasure(value: number, unit: CheckUnit): string {
  const short = (n: number) => String(Number(n.toFixed(n >= 100 ? 0 : 1)));
  switch (unit) {
    case 'seconds':
      return `${short(value)} s`;
    case 'percent':
      return `${short(value)}%`;
    case 'bytes': {
      const [size, name] = value >= 1e9 ? [value / 1e9, 'GB'] : value >= 1e6 ? [value / 1e6, 'MB'] : value >= 1e3 ? [value / 1e3, 'kB'] : [value, 'B'];
      return `${short(size)} ${name}`;
    }
    default:
      return `${value} ${unit}`;
  }
}

/** Fault kinds that only say "past the limit": with the limit known, `over 330 kB` says it better. */
const PAST_LIMIT = /^too_(large|many|many_nodes|few|small|long|short|big|low|high)$/;

/**
 * Text in lines of at most `width` columns, the first after `first`, the others after `rest`. Lines break at spaces;
 * a word longer than a line is split across lines rather than cut: nothing is left out.
 */
export function wrapLines(text: string, width: number | undefined, first: string, rest: string): string[] {
  if (width === undefined) return [first + text];
  const room = Math.max(8, width - displayWidth(rest));
  const lines: string[] = [];
  let line = '';
  const push = () => {
    lines.push((lines.length === 0 ? first : rest) + line);
    line = '';
  };
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (displayWidth(candidate) <= room) {
      line = candidate;
      continue;
    }
    if (line !== '') push();
    const pieces = piecesOfWidth(word, room);
    for (const piece of pieces.slice(0, -1)) {
      line = piece;
      push();
    }
    line = pieces.at(-1) ?? '';
  }
  if (line !== '' || lines.length === 0) push();
  return lines;
}

/** A check's value in words: scalars as they are, lists as their items (the first few), objects as `key value` pairs. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return terminalText(String(value));
  if (Array.isArray(value)) return describeList(value);
  if (isObject(value)) {
    const parts = Object.entries(value).map(([key, item]) => {
      const shown = describeValue(item);
      return shown ? `${words(key)} ${shown}` : words(key);
    });
    return describeList(parts);
  }
  return '';
}

function describeList(items: readonly unknown[]): string {
  if (items.length === 0) return 'none';
  return namedList(items, LIST_ITEMS_SHOWN, (item) => (isObject(item) || Array.isArray(item) ? `(${describeValue(item)})` : describeValue(item)));
}

/**
 * What was wrong: phpRank's `errors` is keyed by the kind of fault (`missing`, `too_long`) with its details. A detail
 * that repeats the check's value is not said again; a measure's numbers get its unit, and its limit is said.
 */
export function describeErrors(errors: unknown, check: { value?: unknown; measure?: CheckMeasure } = {}): string {
  if (errors === null || errors === undefined) return '';
  if (!isObject(errors)) return describeValue(errors);
  const { measure } = check;
  const same = (detail: unknown) => check.value !== undefined && describeValue(detail) === describeValue(check.value);
  const parts = Object.entries(errors).map(([kind, detail]) => {
    // phpRank says the limit it applied (`too_slow: {max: 2}`, the admin's); else a default install's is said.
    const given = measure && isObject(detail) ? limitText({ unit: measure.unit, over: numberOf(detail.max), under: numberOf(detail.min) }) : undefined;
    const limit = given ?? (measure === undefined ? undefined : limitText(measure));
    const number = numberOf(detail);
    const shown = given !== undefined || same(detail) ? '' : measure && number !== undefined ? formatMeasure(number, measure.unit) : describeValue(detail);
    if (limit !== undefined && PAST_LIMIT.test(kind)) return shown ? `${shown}, ${limit}` : limit;
    const said = limit !== undefined ? `${words(kind)}, ${limit}` : words(kind);
    if (!shown) return said;
    return isObject(detail) ? `${said} (${shown})` : `${said}: ${shown}`;
  });
  return parts.join('; ');
}

/** `over 330 kB`, `under 500 words`: the limit a measured check fails past. */
function limitText(measure: CheckMeasure): string | undefined {
  if (measure.over !== undefined) return `over ${formatMeasure(measure.over, measure.unit)}`;
  if (measure.under !== undefined) return `under ${formatMeasure(measure.under, measure.unit)}`;
  return undefined;
}

/** `too_long` -> `too long`: a key of the service's in words, made terminal-safe. */
function words(key: string): string {
  return terminalText(key.replace(/_/g, ' '));
}
