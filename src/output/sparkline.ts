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
export function alignedTable(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(columns), ...rows.map(line)].join('\n')}\n`;
}
