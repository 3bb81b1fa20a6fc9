// V8's heap policy for commands that hold or stream much data: collect often rather than grow, so memory stays flat.

/**
 * Reading every page of a long list makes garbage at a steady rate, and the pages fetched ahead live long enough to
 * reach V8's old generation; left to its defaults V8 lets that grow with the list (peak RSS 10,000 -> 100,000 reports:
 * 68 -> 109 MB on Node 20), and the optimizing compilers' background threads (Maglev's and TurboFan's) each take
 * memory of their own as the loop gets hot. So:
 * - the young generation is held at YOUNG_GENERATION_MB instead of doubling up to 32 MB, and the old one grows by 10%
 *   at a time: RSS stays flat;
 * - code is compiled on the main thread, without Maglev.
 * This replaced --optimize-for-size, which kept RSS as flat but made V8 compact the heap to its least again and again
 * and give up speed for size: on Node 24, 100,000 reports took 2.12 s (now 1.07 s, peak RSS 96 -> 98 MB), 10,000
 * of phpRank's (36 checks each) 2.2 s (now 1.7 s). Set at run time, only for such commands: loading node:v8 costs
 * start-up, and V8 flags on Node's command line would cost more (its start-up snapshot is not used then).
 */
export async function preferSmallHeap(): Promise<void> {
  await holdYoungGeneration(YOUNG_GENERATION_MB, '--heap-growing-percent=10 --no-concurrent-recompilation --no-maglev');
}

/**
 * The young generation (one semi-space) of a listing or a bulk create, in MB. A page of phpRank's reports is parsed
 * into objects that all live until the page is written, so at V8's 2 MB a collection copies most of what it finds,
 * twice, and then the old generation marks it again: 10,000 of them spent a quarter of `--all` collecting. At 4 MB a
 * page's objects mostly die young. Measured (Node 24, alternated runs): `--all` of 10,000 phpRank reports 883 -> 698
 * ms (Node 22: 1,048 -> 760, Node 26: 773 -> 654), `--record` into a new file 1,127 -> 989 ms, a bare refresh of
 * 50,000 pages 14.5-14.8 -> 13.1-13.5 s, a weekly audit's 2nd week 20.7-21.3 -> 19.4-20.3 s; peak RSS of 100,000
 * small reports 95 -> 97 MB. At 8 MB: no faster, 100,000 reports 105 MB.
 */
export const YOUNG_GENERATION_MB = 4;

/**
 * Sets `flags`, with the young generation grown to `mb` (YOUNG_GENERATION_MB) and held there. V8 sizes it only when
 * it starts (--min-semi-space-size is read then, and no more), but grows it at run time by --semi-space-growth-factor
 * once as much has survived as it holds: so the factor is set to reach the size in one step, a few thousand small
 * arrays are kept for a moment to make it grow (3-6 ms), and the factor is set to 1, which holds it (V8 may still
 * shrink it when the run idles).
 */
export async function holdYoungGeneration(mb: number, flags: string): Promise<void> {
  const { getHeapSpaceStatistics, setFlagsFromString } = await import('node:v8');
  const capacity = () => {
    const space = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    return space ? space.space_used_size + space.space_available_size : Infinity;
  };
  // What a semi-space holds is a little less than its size (page headers).
  const target = mb * 2 ** 20 * 0.95;
  const now = capacity();
  if (now < target) {
    setFlagsFromString(`--semi-space-growth-factor=${Math.ceil(target / now)}`);
    let kept: number[][] = [];
    for (let made = 0; capacity() < target && made < 1_000_000; made += 5000) {
      for (let i = 0; i < 5000; i++) kept.push([i]);
      if (kept.length > 50_000) kept = [];
    }
  }
  setFlagsFromString(`--semi-space-growth-factor=1 ${flags}`);
}

/**
 * A bulk create's heap (a sitemap of 50,000 pages, a file of URLs): the listing's small young generation, but the old
 * generation grows by half at a time, and Maglev compiles the hot loop. A weekly audit holds each page's report and
 * its baseline's standing for the whole run, so its live heap grows with the run: in 10% steps each collection marked
 * it all again. Measured on 50,000 pages (scripts/bench/audit-big.mjs, Node 24), week 1 / week 2 peak RSS: 10%, no
 * Maglev: 320-345 / 423-476 MB; 25%: 303-338 / 483-498 MB; 50%: 279-300 / 357-375 MB; 75% and 100% more again
 * (298-327 / 363-429 MB); V8's own growth 386 / 628 MB. Week 2 took 1.50x a bare refresh at 10%, 1.42-1.48x at 50%;
 * Maglev makes every week 8-10% faster, and a bare refresh takes 5-10 MB more. The young generation is the listing's
 * (YOUNG_GENERATION_MB): at 1 MB a week 2 ran 7,000 scavenges (at 2 MB half as many, 2 s less), but one that may grow
 * to its default takes 120-150 MB more.
 */
export async function preferSmallHeapWhileCreating(): Promise<void> {
  await holdYoungGeneration(YOUNG_GENERATION_MB, '--heap-growing-percent=50 --no-concurrent-recompilation');
}

/**
 * `history diff`: two runs walked side by side by identity, a part of each held at a time, and the comparison of the
 * pages written as it goes. What it reads lives a little while, then goes: left at V8's first 1 MB young generation it
 * reached the old one, which grew to hold it between collections (two runs of 100,000 pages: 252-302 MB peak RSS,
 * 1.9-2.1 s). The listing's young generation, and an old one grown by half at a time: 213-243 MB, 2.1-2.2 s.
 */
export async function preferSmallHeapWhileDiffing(): Promise<void> {
  await holdYoungGeneration(YOUNG_GENERATION_MB, '--heap-growing-percent=50');
}

/**
 * A command that reads a whole recorded run into memory (`history show` as json or a table) keeps nearly all it
 * allocates. V8's young generation, left to grow (to 32 MB on Node 24), copies those survivors again at each
 * collection and faults in fresh pages for it: a diff of two 10,000-report runs, when it read them whole, spent 0.2 s
 * more that way (0.90 s against 0.70 s, peak RSS 186 MB against 133 MB), a run's JSON 0.3 s. Kept at its starting
 * size, it hands them to the old generation at once. The old generation is left to grow as it will here: in 10% steps
 * it would be marked again and again as it fills (0.84 s against 0.74 s).
 */
export async function keepYoungGenerationSmall(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** How many reports a run holds before collectGarbage collects between the phases of its end (its files). */
export const COLLECT_BETWEEN_PHASES_AT = 10_000;

/**
 * How much the heap must have grown since the last collection between phases for the next to be worth it: each costs
 * 0.15-0.35 s at 50,000 pages. In a weekly audit of that size the phase between the baseline's comparison and the HTML
 * page (the JUnit file, the summary) made none, and its collection gave back 6 MB.
 */
export const COLLECT_AFTER_GROWTH = 16 * 2 ** 20;

/**
 * collectGarbage for each phase of a run's end, where the phase before made at least COLLECT_AFTER_GROWTH of heap
 * since the last one (the first always collects). `collect` is for tests.
 */
export function betweenPhases(collect: () => Promise<void> = collectGarbage): () => Promise<void> {
  let after: number | undefined;
  return async () => {
    if (after !== undefined && process.memoryUsage().heapUsed - after < COLLECT_AFTER_GROWTH) return;
    await collect();
    after = process.memoryUsage().heapUsed;
  };
}

/**
 * A full collection now, that gives back the pages it frees. The end of a run of many pages reads the page's history,
 * compares with the baseline, counts the checks and renders the HTML page one after another, each making garbage
 * faster than V8's concurrent marking takes it back: left alone, each phase started on the last one's garbage, and the
 * heap of a 50,000-page audit's second week grew from 170 to 290 MB (peak RSS 430-480 MB). Collected between them,
 * each starts from what is live (peak RSS 343-372 MB). A regular collection kept the pages it emptied (a heap of
 * 150 MB live stayed at 200-220 MB); the last-resort kind (V8's CollectAllAvailableGarbage, as before an out-of-memory
 * error) returns them to the system, down to 160-165 MB (peak RSS 316-332 MB). Node exposes `gc` only to a context made
 * after --expose-gc is set; a V8 that does not know `flavor` makes it a regular collection.
 */
export async function collectGarbage(): Promise<void> {
  const [{ setFlagsFromString }, { runInNewContext }] = await Promise.all([import('node:v8'), import('node:vm')]);
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as (options: object) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
