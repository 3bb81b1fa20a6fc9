// V8's heap policy for commands that hold or stream much data: collect often rather than grow, so memory stays flat.

/**
 * Reading every page of a long list makes garbage at a steady rate, and the pages fetched ahead live long
 * enough to reach V8's old generation; left to its defaults V8 lets that grow with the list (peak RSS
 * 10,000 -> 100,000 reports: 68 -> 109 MB on Node 20). --optimize-for-size makes it collect instead (68 -> 82 MB),
 * at no measurable cost in time. On Node 22+ the heap stays as small, but the optimizing compilers' background
 * threads (Maglev's and TurboFan's) each take memory of their own as the loop gets hot: 100,000 reports peaked at
 * 102-104 MB on Node 24 and 26 with 31 MB of heap. Compiling on the main thread and without Maglev keeps them at
 * 90-96 MB, in the same time (`npm run bench -- --cases all,rss`). Set at run time, only for such commands: loading
 * node:v8 costs start-up.
 */
export async function preferSmallHeap(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--optimize-for-size --no-concurrent-recompilation --no-maglev');
}

/**
 * A command that reads whole recorded runs into memory (`history diff`) keeps nearly all it allocates. V8's young
 * generation, left to grow (to 32 MB on Node 24), copies those survivors again at each collection and faults in fresh
 * pages for it: a diff of two 10,000-report runs spent 0.2 s more that way (0.90 s against 0.70 s, peak RSS 186 MB
 * against 133 MB). Kept at its starting size, it hands them to the old generation at once.
 */
export async function keepYoungGenerationSmall(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}
