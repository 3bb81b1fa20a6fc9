// A clock for the retry policy that waits no real time: each sleep moves virtual time on and resolves at once.
import { InterruptedError } from '../../src/api/errors.js';
import type { Clock } from '../../src/api/http/retry-policy.js';

export class FakeClock implements Clock {
  /** Every sleep asked for, in ms, in order. */
  readonly sleeps: number[] = [];
  private virtualMs: number;

  /** `startMs`: where virtual time begins (Date.now() for a test that compares with dates the service sends). */
  constructor(
    private readonly randomValue = 0.5,
    startMs = 1_000_000,
  ) {
    this.virtualMs = startMs;
  }

  now(): number {
    return this.virtualMs;
  }

  random(): number {
    return this.randomValue;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    this.sleeps.push(ms);
    this.virtualMs += ms;
    // Lets other work (a server's answer) run, as a real wait would.
    await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw new InterruptedError();
  }

  /** Virtual time slept in all. */
  get slept(): number {
    return this.sleeps.reduce((sum, ms) => sum + ms, 0);
  }
}
