// A long list shown as its first items and a count of the rest: a page's 80 images without alt text are a count, not a screenful.

/** `… and 12 more`: what stands, on a line or in a cell of its own, for the items a list leaves out. */
export function andMore(count: number): string {
  return `… and ${count} more`;
}

/**
 * The first `limit` items, each made a line by `line`, then, when there are more, one line for the rest: `more` puts
 * `… and N more` into the list's own shape (a table row, a log line, a list item).
 */
export function cappedLines<T, Line>(items: readonly T[], limit: number, line: (item: T) => Line, more: (rest: string) => Line): Line[] {
  const lines = items.slice(0, limit).map(line);
  if (items.length > limit) lines.push(more(andMore(items.length - limit)));
  return lines;
}

/** `a, b, c and 2 more`: a list inside a sentence, its first `limit` items named by `name`. */
export function namedList<T>(items: readonly T[], limit: number, name: (item: T) => string): string {
  const named = items.slice(0, limit).map(name).join(', ');
  return items.length > limit ? `${named} and ${items.length - limit} more` : named;
}
