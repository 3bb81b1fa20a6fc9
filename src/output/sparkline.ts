// A sparkline: a series of numbers as block characters (▁▂▃▄▅▆▇█), for a trend on a terminal; a gap where a value is missing.
import { fitColumns } from './table/table-fit.js';
import { fitNotice } from './table/table.js';
import { displayWidth, fitToWidth } from './table/width.js';
import { terminalText } from './terminal-text.js';

const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

export function sparkline(values: readonly (number | undefined)[], range?: { min: number; max: number }): string {
  const known = values.filter((value): value is number => value !== undefined);
  if (known.length === 0) return '';
  const min = range?.min ?? Math.min(...known);
  const max = range?.max ?? Math.max(...known);
  return values
    .map((value) => {
      if (value === undefined) return ' ';
      if (max === min) return BLOCKS[3];
      return BLOCKS[Math.round(((value - min) / (max - min)) * (BLOCKS.length - 1))];
    })
    .join('');
}

/**
 * Columns aligned with spaces, a header first: the text of a small document table (history runs, trend points). With
 * `width` (a terminal) the columns are fitted as a list table's are (fitColumns: the widest give way, cut with `…`,
 * those that cannot fit left out), and a last line says what was cut or left out. There the cells are escaped first
 * (terminal-text.ts): a service's `\x1b` is fitted as the four characters shown, not as one that then grows past the edge.
 */
export function alignedTable(columns: readonly string[], given: readonly (readonly string[])[], width?: number): string {
  const rows = width === undefined ? given : given.map((row) => row.map(terminalText));
  const natural = columns.map((column, index) => Math.max(displayWidth(column), ...rows.map((row) => displayWidth(row[index] ?? ''))));
  const { widths, hidden } = fitColumns(columns, natural, { width, gap: 2, keep: new Set() });
  const cut = new Set<number>();
  const line = (cells: readonly string[]) =>
    cells
      .flatMap((cell, index) => {
        const columnWidth = widths[index];
        if (columnWidth === undefined) return [];
        const fitted = fitToWidth(cell, columnWidth);
        if (fitted.text !== cell) cut.add(index);
        return [fitted.text + ' '.repeat(columnWidth - fitted.width)];
      })
      .join('  ')
      .trimEnd();
  const lines = [line(columns), ...rows.map(line)];
  if (hidden.length > 0 || cut.size > 0) {
    lines.push(fitNotice({ hidden: hidden.map((index) => columns[index] ?? ''), cut: [...cut].map((index) => columns[index] ?? '') }).replace(/^rsapi: /, ''));
  }
  return `${lines.join('\n')}\n`;
}
