import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/cli/runtime/heap.js';

describe('collectGarbage', () => {
  it('gives the pages it empties back: the heap afterwards is what is live, not what it grew to', async () => {
    // A quarter kept, three quarters garbage, interleaved (the end of a big run: each phase's work dropped, its pages
    // half full). A regular full collection leaves V8 holding 60-190 MB of emptied pages here (Node 22-26).
    let garbage: unknown[] | undefined = [];
    const kept: unknown[] = [];
    for (let i = 0; i < 400_000; i++) (i % 4 === 0 ? kept : garbage).push({ text: `${'x'.repeat(50)}${i}`, numbers: [i, i + 1, i + 2] });
    const grown = process.memoryUsage().heapTotal;
    garbage = undefined;
    await collectGarbage();
    const after = process.memoryUsage();
    expect(grown - after.heapTotal).toBeGreaterThan(60 * 2 ** 20);
    expect(after.heapTotal - after.heapUsed).toBeLessThan(40 * 2 ** 20);
    expect(kept).toHaveLength(100_000);
  });
});
