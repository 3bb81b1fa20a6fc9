// A clock whose sleeps run side by side in virtual time: when nothing else can run, time jumps to the next wake-up.
import { InterruptedError } from '../../src/api/errors.js';
import type { Clock } from '../../src/api/retry-policy.js';

interface Timer {
  at: number;
  resolve: () => void;
}

/**
 * FakeClock (./fake-clock.ts) adds every sleep to one timeline, as if they ran one after the other; concurrent work
 * (eight requests waiting at once) needs sleeps that overlap. Here a sleep ends when virtual time reaches it, and
 * time moves on only once the event loop has nothing else to do (a few turns of setImmediate), to the earliest
 * wake-up. Only for work that waits on this clock alone: real I/O would be overtaken.
 */
export class VirtualClock implements Clock {
  private time = 0;
  private readonly timers: Timer[] = [];
  private advancing = false;

  now(): number {
    return this.time;
  }

  random(): number {
    return 0.5;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new InterruptedError());
    return new Promise((resolve, reject) => {
      const timer: Timer = { at: this.time + Math.max(0, ms), resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.timers.indexOf(timer);
          if (index >= 0) this.timers.splice(index, 1);
          reject(new InterruptedError());
        },
        { once: true },
      );
      this.advanceSoon();
    });
  }

  private advanceSoon(): void {
    if (this.advancing) return;
    this.advancing = true;
    void this.advance();
  }

  private async advance(): Promise<void> {
    while (this.timers.length > 0) {
      // Let everything that can run without time passing run first.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (this.timers.length === 0) break;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift()!;
      this.time = Math.max(this.time, next.at);
      next.resolve();
    }
    this.advancing = false;
  }
}
