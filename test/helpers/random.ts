// Seeded randomness for generated test cases: the same seed gives the same cases, run after run.
import { mulberry32 } from '../../scripts/bench/seeded.mjs';

/** A seeded source of randomness in [0, 1) (mulberry32). */
export const seededRandom: (seed: number) => () => number = mulberry32;

/** A seeded source of whole numbers: each call with `n` gives one of 0 to n - 1. */
export function seededInts(seed: number): (n: number) => number {
  const random = seededRandom(seed);
  return (n) => Math.floor(random() * n);
}
