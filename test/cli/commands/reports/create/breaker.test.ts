// The breaker's rule (10 answers of 5xx in a row over at least 5 s; any other answer starts afresh) and its two signals.
import { describe, expect, it } from 'vitest';
import { Breaker, FailureStreak, WATCH_AFTER_TRIP_MS } from '../../../../../src/cli/commands/reports/create/breaker.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';

/** Feeds `statuses` to a fresh streak, one every `everyMs`; the index of the answer that tripped it, if one did. */
function tripAt(statuses: number[], everyMs: number): number | undefined {
  const streak = new FailureStreak();
  const index = statuses.findIndex((status, at) => streak.answer(status, at * everyMs));
  return index < 0 ? undefined : index;
}

const fives = (count: number, status = 503) => Array<number>(count).fill(status);

describe('FailureStreak', () => {
  it.each([
    { name: '10 answers of 503 over 5.4 s trip it at the tenth', statuses: fives(10), everyMs: 600, trips: 9 },
    { name: '9 answers of 503 over 8 s do not', statuses: fives(9), everyMs: 1_000, trips: undefined },
    { name: 'any 5xx counts (500, 502, 504 mixed)', statuses: [500, 502, 503, 504, 500, 502, 503, 504, 500, 502], everyMs: 600, trips: 9 },
    // Fast failures need the span: the tenth comes at 0.9 s, the streak trips only once 5 s have passed.
    { name: '30 answers of 503 within 3 s do not', statuses: fives(30), everyMs: 100, trips: undefined },
    { name: '60 answers of 503, 100 ms apart, trip it at 5 s', statuses: fives(60), everyMs: 100, trips: 50 },
    { name: 'a 2xx resets it', statuses: [...fives(9), 200, ...fives(9)], everyMs: 1_000, trips: undefined },
    { name: 'a 4xx resets it', statuses: [...fives(9), 404, ...fives(9)], everyMs: 1_000, trips: undefined },
    { name: 'a 429 resets it', statuses: [...fives(9), 429, ...fives(9)], everyMs: 1_000, trips: undefined },
    { name: 'after a reset, 10 more in a row trip it', statuses: [...fives(9), 200, ...fives(10)], everyMs: 1_000, trips: 19 },
  ])('$name', ({ statuses, everyMs, trips }) => {
    expect(tripAt(statuses, everyMs)).toBe(trips);
  });

  it('says the streak in words: the last status, the count and the span', () => {
    const streak = new FailureStreak();
    for (let index = 0; index < 12; index++) streak.answer(503, index * 600);
    expect(streak.describe()).toBe('HTTP 503 to 12 requests in a row over 7 s');
  });
});

describe('Breaker', () => {
  it('raises `tripped` when the rule is met, once, and `giveUp` 30 s later on its clock', async () => {
    const clock = new FakeClock();
    const trips: string[] = [];
    const breaker = new Breaker(clock, (cause) => trips.push(cause));
    for (let index = 0; index < 9; index++) {
      breaker.answer(503);
      await clock.sleep(1_000);
    }
    expect(breaker.tripped.aborted).toBe(false);
    breaker.answer(503);
    expect(breaker.tripped.aborted).toBe(true);
    expect(trips).toEqual(['HTTP 503 to 10 requests in a row over 9 s']);
    // Tripped, it stays so: a later 200 does not start new URLs again, nor does it say so twice.
    breaker.answer(200);
    breaker.answer(503);
    expect(trips).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(breaker.giveUp.aborted).toBe(true);
    expect(clock.sleeps.at(-1)).toBe(WATCH_AFTER_TRIP_MS);
  });

  it('closed before the half minute ends, it never gives up (no timer outlives the run)', async () => {
    const clock = new FakeClock();
    const breaker = new Breaker(clock);
    for (let index = 0; index < 9; index++) {
      breaker.answer(503);
      await clock.sleep(1_000);
    }
    breaker.answer(503);
    expect(breaker.tripped.aborted).toBe(true);
    breaker.close();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(breaker.giveUp.aborted).toBe(false);
  });
});
