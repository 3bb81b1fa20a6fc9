// A clock whose waits hold until the test opens the gate: for a mock that must keep a request (and its run) under way
// exactly as long as the test needs, rather than for a real latency guessed long enough on a loaded machine.
import { InterruptedError } from '../../src/api/errors.js';
import type { Clock } from '../../src/api/http/clock.js';

export class GateClock implements Clock {
  private opened = false;
  private readonly waiting = new Set<() => void>();

  now(): number {
    return Date.now();
  }

  random(): number {
    return 0.5;
  }

  /** Ends once the gate is open (at once if it is), whatever `ms`; rejects with InterruptedError on `signal`. */
  sleep(_ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new InterruptedError());
    if (this.opened) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.waiting.delete(done);
        reject(new InterruptedError());
      };
      this.waiting.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Every wait under way ends, and every later one ends at once. */
  open(): void {
    this.opened = true;
    for (const done of this.waiting) done();
    this.waiting.clear();
  }
}
