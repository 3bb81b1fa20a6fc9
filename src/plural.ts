// A count with its noun in English: `1 report`, `3 reports`.

/** `1 report`, `3 reports`; `many` for a noun whose plural is not the singular and an s. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
