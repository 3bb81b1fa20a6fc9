// Near-miss suggestions ("did you mean ...?"): the one typo measure of every layer.

/** The candidate closest to a typo (a profile, a command, a check id): at most 2 edits away (1 for short names). */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= (name.length <= 4 ? 1 : 2) && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** Damerau-Levenshtein (optimal string alignment): a swap of two letters, as in `defualt`, is one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] ?? 0, ((d[i - 2] as number[])[j - 2] ?? 0) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] ?? 0;
}
