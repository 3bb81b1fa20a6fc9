import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/cli/runtime/heap.js';

describe('collectGarbage', () => {
  it('gives back the pages a regular full collection keeps: the heap comes down to what is live', async () => {
    setFlagsFromString('--expose-gc');
    const regular = runInNewContext('gc') as () => void;
    // A quarter kept, three quarters garbage, interleaved (the end of a big run: each phase's work dropped, its pages
    // half full). After a regular full collection V8 still holds 80-220 MB of emptied pages here (Node 22-26), and a
    // second regular one gives back 15-30 MB of them. The vitest worker's own heap stays in both.
    let garbage: unknown[] | undefined = [];
    const kept: unknown[] = [];
    for (let i = 0; i < 800_000; i++) (i % 4 === 0 ? kept : garbage).push({ text: `${'x'.repeat(50)}${i}`, numbers: [i, i + 1, i + 2] });
    garbage = undefined;
    regular();
    const afterRegular = process.memoryUsage();
    await collectGarbage();
    const after = process.memoryUsage();
    expect(afterRegular.heapTotal - after.heapTotal).toBeGreaterThan(50 * 2 ** 20);
    // What is live stays: only emptied pages went.
    expect(after.heapUsed).toBeGreaterThan(afterRegular.heapUsed - 10 * 2 ** 20);
    expect(kept).toHaveLength(200_000);
  });
});
