// The rate limiter in virtual time against Laravel's fixed-window throttle (the mock's): 429s met, time against the floor, holds shared.
import { describe, expect, it } from 'vitest';
import { RateLimiter, type PaceEvent } from '../../../src/api/http/rate-limiter.js';
import { FixedWindowRateLimiter } from '../../../src/mock/rate-limit.js';
import { VirtualClock } from '../../helpers/virtual-clock.js';

interface Run {
  count: number;
  limit: number;
  windowMs: number;
  concurrency: number;
  /** How long a counted request takes to answer (a create audits the page first). */
  latencyMs: number;
  /** Requests of an earlier run already counted in the window when this one starts. */
  usedBefore?: number;
  /** false: the service sends no X-RateLimit-* headers (and never refuses). */
  headers?: boolean;
}

interface Outcome {
  refused: number;
  ms: number;
  mostInFlight: number;
  paces: PaceEvent[];
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));

/** `count` requests through one limiter by `concurrency` lanes, each refused one sent again after its Retry-After. */
async function simulate(run: Run): Promise<Outcome> {
  const clock = new VirtualClock();
  const paces: PaceEvent[] = [];
  const limiter = new RateLimiter(clock, (event) => paces.push(event));
  const throttle = new FixedWindowRateLimiter();
  for (let used = 0; used < (run.usedBefore ?? 0); used++) throttle.take(run.limit, run.windowMs, clock.now());
  let started = 0;
  let refused = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const lane = async () => {
    while (started < run.count) {
      started++;
      for (;;) {
        const ticket = await limiter.acquire();
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        const decision = run.headers === false ? { allowed: true, headers: {} } : throttle.take(run.limit, run.windowMs, clock.now());
        // Laravel refuses before any work: a 429 comes back at once; a counted request takes its time.
        await clock.sleep(decision.allowed ? run.latencyMs : 5);
        inFlight--;
        const headers = lower(decision.headers);
        if (decision.allowed) {
          limiter.answered(ticket, headers);
          break;
        }
        refused++;
        const waitMs = Number(headers['retry-after']) * 1000;
        limiter.refused(ticket, waitMs, true, headers);
        await clock.sleep(waitMs);
      }
    }
  };
  await Promise.all(Array.from({ length: run.concurrency }, lane));
  return { refused, ms: clock.now(), mostInFlight, paces };
}

/** The least time the limit allows: the last window opens (n - 1) windows after the first, then its requests at full concurrency. */
function floorMs(run: Run): number {
  const windows = Math.ceil(run.count / run.limit);
  const inLast = run.count - (windows - 1) * run.limit;
  return (windows - 1) * run.windowMs + Math.ceil(inLast / run.concurrency) * run.latencyMs;
}

describe('RateLimiter against a fixed-window throttle', () => {
  it('120 creates of 2 s at 60 a minute, 8 at a time: one 429, within 1.15x the floor', async () => {
    const run = { count: 120, limit: 60, windowMs: 60_000, concurrency: 8, latencyMs: 2_000 };
    const outcome = await simulate(run);
    expect(outcome.refused).toBeLessThanOrEqual(1);
    expect(outcome.ms).toBeGreaterThanOrEqual(floorMs(run));
    expect(outcome.ms / floorMs(run)).toBeLessThanOrEqual(1.15);
    expect(outcome.mostInFlight).toBe(8);
  });

  it('once the window is known, later windows are waited out without another 429', async () => {
    const run = { count: 250, limit: 60, windowMs: 10_000, concurrency: 8, latencyMs: 50 };
    const outcome = await simulate(run);
    expect(outcome.refused).toBe(1);
    expect(outcome.ms / floorMs(run)).toBeLessThanOrEqual(1.15);
    // The waits for the windows' ends are said once each (windows 3 to 5; the 429 found the first end), each at most a
    // window and the second Retry-After rounds up to.
    expect(outcome.paces).toHaveLength(3);
    expect(outcome.paces.every((event) => event.limit === 60 && event.waitMs > 0 && event.waitMs <= 11_000)).toBe(true);
  });

  it('never more in flight than the limit allows, whatever the concurrency', async () => {
    const run = { count: 100, limit: 10, windowMs: 10_000, concurrency: 32, latencyMs: 300 };
    const outcome = await simulate(run);
    expect(outcome.refused).toBeLessThanOrEqual(1);
    expect(outcome.mostInFlight).toBeLessThanOrEqual(10);
    expect(outcome.ms / floorMs(run)).toBeLessThanOrEqual(1.15);
  });

  it('without X-RateLimit headers nothing waits past the first answer: then all lanes at once, no pace', async () => {
    const run = { count: 41, limit: 5, windowMs: 60_000, concurrency: 8, latencyMs: 100, headers: false };
    const outcome = await simulate(run);
    // The first request alone (100 ms), then 40 by 8 lanes (500 ms): what the lanes alone would take, plus one answer.
    expect(outcome).toEqual({ refused: 0, ms: 600, mostInFlight: 8, paces: [] });
  });

  it('without headers, a slow first answer holds the others 500 ms at most', async () => {
    const run = { count: 16, limit: 5, windowMs: 60_000, concurrency: 8, latencyMs: 4_000, headers: false };
    const outcome = await simulate(run);
    expect(outcome.ms).toBe(500 + 2 * 4_000);
    expect(outcome.mostInFlight).toBe(8);
  });

  it('a run that starts in a window another run has nearly used up meets two 429s at most (one a window until it saw one open)', async () => {
    const run = { count: 90, limit: 60, windowMs: 20_000, concurrency: 8, latencyMs: 100, usedBefore: 57 };
    const outcome = await simulate(run);
    expect(outcome.refused).toBeLessThanOrEqual(2);
    // Three left in the first window, 60 in the second, 27 in the third.
    expect(outcome.ms).toBeGreaterThanOrEqual(2 * 20_000);
    expect(outcome.ms).toBeLessThanOrEqual(2 * 20_000 + 2_000);
  });
});

describe('RateLimiter holds', () => {
  it('a 429 holds every request of the client until the wait it asked for', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(clock);
    limiter.refused(await limiter.acquire(), 3_000, true);
    const startedAt: number[] = [];
    await Promise.all([0, 1, 2].map(async () => startedAt.push((await limiter.acquire()).sentAt)));
    expect(startedAt).toEqual([3_000, 3_000, 3_000]);
  });

  it('a wait for the window ends on Ctrl-C with InterruptedError', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(clock);
    const ticket = await limiter.acquire();
    limiter.answered(ticket, { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    const probe = await limiter.acquire();
    limiter.refused(probe, 60_000, true);
    const abort = new AbortController();
    const waiting = limiter.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'InterruptedError' });
  });
});

describe('RateLimiter and the end of a window', () => {
  it("a Retry-After past the client's cap on one wait is still the window's end: no request goes before it", async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(clock);
    const first = await limiter.acquire();
    limiter.answered(first, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' });
    const refused = await limiter.acquire();
    // The service's window stays closed 300 s; the request that met it waits 60 s (the cap) before trying again.
    limiter.refused(refused, 60_000, true, { 'x-ratelimit-limit': '5', 'retry-after': '300' }, 300_000);
    const from = clock.now();
    await limiter.acquire();
    expect(clock.now() - from).toBeGreaterThanOrEqual(300_000);
  });

  it("with the window's length known, a window opened by another client is not overrun: no request past the budget", async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter(clock);
    const throttle = new FixedWindowRateLimiter();
    const windowMs = 10_000;
    let refusals = 0;
    // 40 requests one after the other at 5 a window; another client takes 3 of each window's budget first, so this
    // client never sees a window open (no answer says limit - 1) after the 429 that told it the window's length.
    for (let sent = 0; sent < 40; ) {
      const ticket = await limiter.acquire();
      const decision = throttle.take(5, windowMs, clock.now());
      const headers = lower(decision.headers);
      if (decision.allowed) {
        limiter.answered(ticket, headers);
        sent++;
        continue;
      }
      refusals++;
      const waitMs = Number(headers['retry-after']) * 1000;
      limiter.refused(ticket, waitMs, true, headers);
      await clock.sleep(waitMs);
      // The other client's share of the window that opens next.
      for (let other = 0; other < 3; other++) throttle.take(5, windowMs, clock.now());
    }
    expect(refusals).toBeLessThanOrEqual(2);
  });
});
