// A report's per-check results for people: `checks: 27 of 36 passed`, then each failed check in words, wrapped to the terminal.
import { checkName, failedChecks, reportChecks, type CheckOutcome } from '../api/checks.js';
import { isObject } from '../api/decode.js';
import { namedList } from './capped-list.js';
import { loadPalette } from './colors.js';
import { writeRecord } from './formats.js';
import { terminalText } from './terminal-text.js';
import type { OutputOptions, ServiceRecord, Sink } from './types.js';
import { displayWidth, piecesOfWidth } from './width.js';

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

/** One failed check: importance, name, value and what was wrong, wrapped under the name when the line is too long. */
function checkLines(check: CheckOutcome, width: number | undefined): string[] {
  const importance = (check.importance ?? '?').padEnd(IMPORTANCE_WIDTH);
  const value = describeValue(check.value);
  const wrong = describeErrors(check.errors);
  const text = `${terminalText(checkName(check.id))}${value ? `: ${value}` : ''}${wrong ? ` — ${wrong}` : ''}`;
  return wrapLines(text, width, INDENT + importance, INDENT + ' '.repeat(IMPORTANCE_WIDTH));
}

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

/** What was wrong: phpRank's `errors` is keyed by the kind of fault (`missing`, `too_long`) with its details. */
export function describeErrors(errors: unknown): string {
  if (errors === null || errors === undefined) return '';
  if (!isObject(errors)) return describeValue(errors);
  return Object.entries(errors)
    .map(([kind, detail]) => {
      const shown = describeValue(detail);
      if (!shown) return words(kind);
      return isObject(detail) ? `${words(kind)} (${shown})` : `${words(kind)}: ${shown}`;
    })
    .join('; ');
}

/** `too_long` -> `too long`: a key of the service's in words, made terminal-safe. */
function words(key: string): string {
  return terminalText(key.replace(/_/g, ' '));
}
