// A tool's answer within the size budget (src/mcp/results.ts): every list cut to fit, its count kept, never more than
// the budget whatever the input, and only what could fit ever read.
import { describe, expect, it } from 'vitest';
import { fitted, fittedLists, jsonBytes, MAX_RESULT_BYTES, MAX_TEXT_BYTES, withinBudget } from '../../src/mcp/results.js';

/** `count` rows of a diff's size, made only as they are read (`read` counts them). */
function rows(count: number, read: { made: number }): Iterable<{ url: string; checks: string[] }> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) {
        read.made++;
        yield { url: `shop-${i % 40}.example.com/catalogue/item-${i}`, checks: ['headings', 'meta_description', 'title'] };
      }
    },
  };
}

/** An answer as history_diff shapes one: its lists, and a `more` saying how many of each were left out. */
const answer = (kept: Record<string, unknown[]>, left: Record<string, number>) => {
  const out = Object.entries(left).flatMap(([name, count]) => (count > 0 ? [`${count} more ${name}`] : []));
  return { compared: 100_000, ...kept, ...(out.length > 0 ? { more: `${out.join(', ')} left out; history diff --json in the CLI gives them all` } : {}) };
};

describe('fittedLists', () => {
  it('answers lists that fit whole, saying nothing left out', () => {
    const read = { made: 0 };
    const value = fittedLists({ changes: { items: rows(3, read), count: 3 }, findings: { items: ['a', 'b'], count: 2 } }, answer);
    expect(value).toEqual({ compared: 100_000, changes: [...rows(3, { made: 0 })], findings: ['a', 'b'] });
  });

  it('cuts lists of tens of thousands each to the same length within the budget, keeping their counts, reading only what could fit', () => {
    const counts = { changes: 51_530, newly_failing: 41_848, regressions: 36_547 };
    const read = { made: 0 };
    const value = fittedLists(
      {
        changes: { items: rows(counts.changes, read), count: counts.changes },
        newly_failing: { items: rows(counts.newly_failing, read), count: counts.newly_failing },
        regressions: { items: rows(counts.regressions, read), count: counts.regressions },
      },
      answer,
    ) as { changes: unknown[]; newly_failing: unknown[]; regressions: unknown[]; more: string };
    expect(jsonBytes(value)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    const kept = value.changes.length;
    expect(kept).toBeGreaterThan(100);
    expect([value.newly_failing.length, value.regressions.length]).toEqual([kept, kept]);
    expect(value.more).toBe(
      `${counts.changes - kept} more changes, ${counts.newly_failing - kept} more newly_failing, ${counts.regressions - kept} more regressions left out; ` +
        'history diff --json in the CLI gives them all',
    );
    // Each list read until it alone would fill the budget: about 600 rows of 110 bytes each, never the 130,000.
    expect(read.made).toBeLessThan(3 * (MAX_TEXT_BYTES / 100));
  });

  it('answers a short list whole beside a long one cut', () => {
    const value = fittedLists({ long: { items: rows(20_000, { made: 0 }), count: 20_000 }, short: { items: ['x'], count: 1 } }, answer) as {
      long: unknown[];
      short: unknown[];
      more: string;
    };
    expect(value.short).toEqual(['x']);
    expect(value.more).toBe(`${20_000 - value.long.length} more long left out; history diff --json in the CLI gives them all`);
  });

  it('leaves out an item too large to share an answer, and says so', () => {
    const huge = { url: `https://example.com/${'a'.repeat(200_000)}` };
    const value = fittedLists({ changes: { items: [huge, huge], count: 2 } }, answer);
    expect(value).toEqual({ compared: 100_000, changes: [], more: '2 more changes left out; history diff --json in the CLI gives them all' });
  });

  it('says an answer is too large when even without its lists it is over the budget, with its way to the rest', () => {
    const value = fittedLists({ changes: { items: rows(10, { made: 0 }), count: 10 } }, (kept, left) => ({
      selection: 'x'.repeat(2 * MAX_TEXT_BYTES),
      ...answer(kept, left),
    }));
    expect(jsonBytes(value)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(value).toEqual({
      too_large: expect.stringMatching(/^the answer is \d+ bytes even with every list left out, over the limit of 64512 bytes$/),
      more: '10 more changes left out; history diff --json in the CLI gives them all',
    });
  });

  it('holds a budget of its own: a list of items escaped in JSON (quotes, newlines, non-ASCII) cut to it', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => `"quoted" line ${i}\nnext — ${'é'.repeat(i % 50)}`);
    for (const budget of [500, 4_000, 20_000]) {
      const value = fitted(items, (kept, left) => ({ items: kept, left }), budget) as { items: string[]; left: number };
      expect(jsonBytes(value)).toBeLessThanOrEqual(budget);
      expect(value.items.length + value.left).toBe(items.length);
      // One more would not have fitted.
      expect(jsonBytes({ items: items.slice(0, value.items.length + 1), left: value.left - 1 })).toBeGreaterThan(budget);
    }
  });
});

describe('withinBudget', () => {
  it('passes an answer within the budget as it is', () => {
    const result = { content: [{ type: 'text' as const, text: '{"rows":[]}' }] };
    expect(withinBudget(result)).toBe(result);
  });

  it('turns an answer over the budget into a tool error that says so', () => {
    const result = withinBudget({ content: [{ type: 'text', text: JSON.stringify({ value: 'x'.repeat(MAX_RESULT_BYTES) }) }] });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^rsapi: the answer is \d+ bytes, over the limit of 64512 bytes; ask for less/);
  });
});
