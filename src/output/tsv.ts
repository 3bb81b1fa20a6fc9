// tsv lines for scripts: no header, tab-separated, escaped so that one record is always one line.

const ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\r': '\\r', '\n': '\\n', '\\': '\\\\' };

/** One tsv line (with its LF) from already-textual cells. */
export function tsvLine(cells: readonly string[]): string {
  return `${cells.map(tsvField).join('\t')}\n`;
}

export function tsvField(text: string): string {
  return text.replace(/[\t\r\n\\]/g, (char) => ESCAPES[char] ?? char);
}
