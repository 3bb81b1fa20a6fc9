// RFC 4180 csv lines: CRLF line ends, fields quoted only when they must be.

const NEEDS_QUOTES = /[",\r\n]/;

/** One csv line (with its CRLF) from already-textual cells. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
