// The table's colours; chalk is loaded only when the caller asked for colour.

export interface Palette {
  /** A report result: good green, decent yellow, bad red, anything else plain. */
  result(text: string): string;
  /** A column name or, in a vertical table, a field name. */
  head(text: string): string;
}

const PLAIN: Palette = { result: (text) => text, head: (text) => text };

export async function loadPalette(color: boolean): Promise<Palette> {
  if (!color) return PLAIN;
  const { Chalk } = await import('chalk');
  // The caller has already decided (TTY, NO_COLOR, FORCE_COLOR, --no-color): chalk must not second-guess it.
  const chalk = new Chalk({ level: 1 });
  const byResult: Readonly<Record<string, (text: string) => string>> = {
    good: chalk.green,
    decent: chalk.yellow,
    bad: chalk.red,
  };
  return {
    result: (text) => (byResult[text.trim().toLowerCase()] ?? PLAIN.result)(text),
    head: (text) => chalk.bold(text),
  };
}
