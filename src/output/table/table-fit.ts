// Choosing column widths so a table fits the terminal: the time of day, then the columns a URL makes redundant give way
// before the URL is cut; then the URL, then the widest columns; ids stay whole.

/** Shortened columns keep at least this much (or their whole width if smaller): less than that says nothing. */
const MIN_SHORTENED = 10;
/** The URL is shortened alone down to this before any other column gives way. */
const URL_FIRST_FLOOR = 16;

export interface FitOptions {
  /** Columns available; undefined: every column at its natural width. */
  width?: number;
  /** Columns between two cells. */
  gap: number;
  /** Column names never shortened (ids, results). */
  keep: ReadonlySet<string>;
  /**
   * Columns that shrink by steps before any column is cut, each step for all of them at once (date-times: to
   * `YYYY-MM-DD HH:MM`, then to the date): index -> the widths of its steps, widest first.
   */
  steps?: ReadonlyMap<number, readonly number[]>;
  /** Columns left out, in this order, before the URL is cut (project, privacy: the URL names the host). */
  dropBeforeUrl?: readonly string[];
}

export interface Fit {
  /** Each column's width, undefined for a column left out. */
  widths: (number | undefined)[];
  /** Indexes of the columns left out, because even shortened to the minimum the table was too wide. */
  hidden: number[];
}

export function fitColumns(columns: readonly string[], givenNatural: readonly number[], options: FitOptions): Fit {
  const { width } = options;
  if (width === undefined) return { widths: [...givenNatural], hidden: [] };
  const natural = [...givenNatural];
  const shown = columns.map((_, index) => index);
  const hidden: number[] = [];
  const fits = (): boolean => shown.reduce((sum, index) => sum + (natural[index] ?? 0), 0) + options.gap * (shown.length - 1) <= width;
  const done = (): Fit => ({ widths: columns.map((_, index) => (shown.includes(index) ? natural[index] : undefined)), hidden: hidden.sort((a, b) => a - b) });
  if (fits()) return done();
  const steps = options.steps ?? new Map<number, readonly number[]>();
  const depth = Math.max(0, ...[...steps.values()].map((widths) => widths.length));
  for (let step = 0; step < depth; step++) {
    for (const [index, widths] of steps) natural[index] = Math.min(natural[index] ?? 0, widths[step] ?? natural[index] ?? 0);
    if (fits()) return done();
  }
  const url = columns.indexOf('url');
  if (url !== -1 && !options.keep.has('url')) {
    for (const name of options.dropBeforeUrl ?? []) {
      const index = columns.indexOf(name);
      if (index === -1 || index === shown[0] || options.keep.has(name)) continue;
      shown.splice(shown.indexOf(index), 1);
      hidden.push(index);
      if (fits()) return done();
    }
  }
  for (;;) {
    const widths = fitShown(columns, natural, shown, width, options);
    if (widths) return { widths: columns.map((_, index) => (shown.includes(index) ? widths.get(index) : undefined)), hidden: hidden.sort((a, b) => a - b) };
    // Too narrow even with every shortenable column at its minimum: leave out the last column that is not kept whole
    // (the first column stays: it names the row).
    const drop = [...shown].reverse().find((index) => index !== shown[0] && !options.keep.has(columns[index] ?? ''));
    if (drop === undefined || shown.length === 1) {
      // Nothing more to leave out: shorten everything evenly as a last resort.
      const each = Math.max(1, Math.floor((width - options.gap * (shown.length - 1)) / shown.length));
      return {
        widths: columns.map((_, index) => (shown.includes(index) ? Math.min(natural[index] ?? 0, each) : undefined)),
        hidden: hidden.sort((a, b) => a - b),
      };
    }
    shown.splice(shown.indexOf(drop), 1);
    hidden.push(drop);
  }
}

/** Widths for the shown columns within `width`, or undefined if they cannot fit. */
function fitShown(
  columns: readonly string[],
  natural: readonly number[],
  shown: readonly number[],
  width: number,
  options: FitOptions,
): Map<number, number> | undefined {
  const widths = new Map(shown.map((index) => [index, natural[index] ?? 0]));
  const budget = width - options.gap * (shown.length - 1);
  const total = (): number => [...widths.values()].reduce((sum, w) => sum + w, 0);
  let overflow = total() - budget;
  if (overflow <= 0) return widths;
  const shortenable = shown.filter((index) => !options.keep.has(columns[index] ?? '') && (natural[index] ?? 0) > MIN_SHORTENED);
  const fixed = shown.filter((index) => !shortenable.includes(index)).reduce((sum, index) => sum + (natural[index] ?? 0), 0);
  if (fixed + shortenable.length * MIN_SHORTENED > budget) return undefined;
  const url = shortenable.find((index) => columns[index] === 'url');
  if (url !== undefined) {
    const cut = Math.min(overflow, Math.max(0, (natural[url] ?? 0) - URL_FIRST_FLOOR));
    widths.set(url, (natural[url] ?? 0) - cut);
    overflow -= cut;
  }
  if (overflow <= 0) return widths;
  // Water-filling: the largest cap such that every shortenable column held to it fits; the widest give way first.
  const room = budget - fixed;
  const current = (index: number): number => widths.get(index) ?? 0;
  let cap = MIN_SHORTENED;
  for (let candidate = Math.max(...shortenable.map(current)); candidate >= MIN_SHORTENED; candidate--) {
    if (shortenable.reduce((sum, index) => sum + Math.min(current(index), candidate), 0) <= room) {
      cap = candidate;
      break;
    }
  }
  for (const index of shortenable) widths.set(index, Math.min(current(index), cap));
  // Columns the cap left over go back to the capped columns, the URL first.
  let spare = room - shortenable.reduce((sum, index) => sum + current(index), 0);
  const capped = shortenable.filter((index) => current(index) === cap && (natural[index] ?? 0) > cap).sort((a, b) => (a === url ? -1 : b === url ? 1 : a - b));
  for (const index of capped) {
    if (spare <= 0) break;
    widths.set(index, current(index) + 1);
    spare--;
  }
  return widths;
}
