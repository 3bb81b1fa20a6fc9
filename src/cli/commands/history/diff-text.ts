// `history diff` for people at a terminal: the heading broken at words, then a table whose URLs are cut in the middle
// (a site's URLs differ at the end) when the checks fit beside them, else a block per URL with its checks whole.
import type { RunDiff } from '../../../history/diff.js';
import { plural } from '../../../plural.js';
import { alignedTable } from '../../../output/sparkline.js';
import { terminalText } from '../../../output/terminal-text.js';
import { displayWidth, fitMiddle, wrapWords } from '../../../output/table/width.js';
import { describeSelection } from './shared.js';

export const DIFF_COLUMNS = ['url', 'status', 'score', 'new_failures', 'fixed'] as const;

/** A URL is cut no shorter than this in the table; below it, blocks. */
const URL_FLOOR = 24;
const GAP = 2;

/** `rows`: the csv/tsv rows (url, status, score text, new failures, fixed); `width`: the terminal's, or undefined (whole). */
export function diffText(diff: RunDiff, rows: readonly (readonly string[])[], width?: number): string {
  const head = `runs ${diff.from.id} → ${diff.to.id} (${describeSelection(diff.to.command, diff.to.selection)} on ${diff.to.origin}): ${plural(diff.compared, 'URL')} compared`;
  const counts = {
    failing: diff.changes.reduce((n, c) => n + c.newFailures.length, 0),
    fixed: diff.changes.reduce((n, c) => n + c.fixed.length, 0),
    added: diff.changes.filter((c) => c.status === 'new').length,
    gone: diff.changes.filter((c) => c.status === 'vanished').length,
  };
  const summary = `${counts.failing} checks newly failing, ${counts.fixed} fixed, ${counts.added} new URLs, ${counts.gone} vanished`;
  const heading = width === undefined ? `${head}\n${summary}\n` : `${[...wrapWords(head, width), ...wrapWords(summary, width)].join('\n')}\n`;
  if (rows.length === 0) return heading;
  if (width === undefined) return `${heading}\n${alignedTable(DIFF_COLUMNS, rows, width)}`;
  return `${heading}\n${fitted(
    rows.map((row) => row.map(terminalText)),
    width,
  )}`;
}

/**
 * The table when every column but the URL fits whole beside a URL of URL_FLOOR columns; the status column only when
 * the rows differ in it (a diff of changed URLs says `changed` on every row). Else one block per URL.
 */
function fitted(rows: readonly (readonly string[])[], width: number): string {
  const statusVaries = new Set(rows.map((row) => row[1])).size > 1;
  const shown = DIFF_COLUMNS.map((_, index) => index).filter((index) => index !== 1 || statusVaries);
  const natural = shown.map((index) => Math.max(displayWidth(DIFF_COLUMNS[index] ?? ''), ...rows.map((row) => displayWidth(row[index] ?? ''))));
  const others = natural.slice(1).reduce((sum, w) => sum + w, 0) + GAP * (shown.length - 1);
  const urlWidth = Math.min(natural[0] ?? 0, width - others);
  if (urlWidth >= Math.min(natural[0] ?? 0, URL_FLOOR)) {
    const cut = rows.map((row) =>
      shown.map((index) => (index === 0 ? fitMiddle(row[0] ?? '', urlWidth, Math.ceil((urlWidth - 1) / 2)).text : (row[index] ?? ''))),
    );
    return alignedTable(
      shown.map((index) => DIFF_COLUMNS[index] ?? ''),
      cut,
    );
  }
  return rows.map((row) => block(row, width, statusVaries)).join('');
}

/** One URL: its score (and status, when they vary) on its line, then its checks, broken at words. */
function block([url = '', status = '', score = '', failing = '', fixed = '']: readonly string[], width: number, statusVaries: boolean): string {
  const tail = `  ${score}${statusVaries ? `  ${status}` : ''}`;
  const cut = (text: string, room: number) => fitMiddle(text, room, Math.ceil((room - 1) / 2)).text;
  // The score beside the URL when the URL keeps URL_FLOOR columns there, else on a line of its own under it.
  const lines =
    width - displayWidth(tail) >= Math.min(displayWidth(url), URL_FLOOR)
      ? [`${cut(url, width - displayWidth(tail))}${tail}`]
      : [cut(url, width), ...wrapWords(tail, width, '    ')];
  const list = (label: string, ids: string) => (ids === '' ? [] : wrapWords(`  ${label}: ${ids.split(',').join(', ')}`, width, '    '));
  lines.push(...list('newly failing', failing), ...list('fixed', fixed));
  return `${lines.join('\n')}\n`;
}
