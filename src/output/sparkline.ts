// A sparkline: a series of numbers as block characters (▁▂▃▄▅▆▇█), for a trend on a terminal; a gap where a value is missing.
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

/** Columns aligned with spaces, a header first: the text of a small document table (history runs, trend points). */
export function alignedTable(columns: readonly string[], rows: readonly (readonly string[])[], width?: number): string {
  const widths = fittedWidths(
    columns.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length))),
    width,
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cut(cell, widths[index] ?? 0).padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(columns), ...rows.map(line)].join('\n')}\n`;
}

/** Column widths within `width` (two spaces between columns): the widest gives way a character at a time, down to 10. */
function fittedWidths(natural: readonly number[], width: number | undefined): number[] {
  const widths = [...natural];
  if (width === undefined) return widths;
  const total = () => widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 10) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return widths;
}

/** A cell cut to `width` characters, its end shown as `…` when cut. */
function cut(cell: string, width: number): string {
  return cell.length <= width ? cell : `${cell.slice(0, Math.max(0, width - 1))}…`;
}
