// A clock whose sleeps run side by side in virtual time: when nothing else runs, time jumps to the next wake-up.
import { InterruptedError } from '../../src/api/errors.js';
import type { Clock } from '../../src/api/http/clock.js';

interface Timer {
  at: number;
  fire: () => void;
}

/**
 * Turns of the event loop before time may move: a loopback request to a server in this process is answered within
 * 3-4 (measured with undici and node:http), the mock's own awaits add a few; this leaves a wide margin.
 */
const IDLE_TURNS = 20;
/** Work under way outside the event loop (the thread pool's file reads, as a lazy import makes; connects; writes). */
const OUTSIDE_WORK = /^(FSReq|FileHandle|ConnectWrap|GetAddrInfo|GetNameInfo|WriteWrap|ShutdownWrap)/;

/**
 * FakeClock (./fake-clock.ts) adds every sleep to one timeline, as if they ran one after the other; concurrent work
 * (eight requests waiting at once) needs sleeps that overlap. Here a sleep ends when virtual time reaches it, and time
 * moves on only once the event loop has had nothing else to do (turns of setImmediate, and no file read, connect or
 * write under way outside it), to the earliest wake-up. Share one with the mock (`startMock({ clock })`) so that the
 * service's window and delays and the client's waits keep one time. Request timeouts stay real (undici's): a timeout
 * that time jumped to would overtake an answer still on its way. Work of another process is overtaken too (a
 * spawned binary runs on real time).
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
      // As systemClock: the abort listener goes when the sleep ends, so sleeps on one long-lived signal do not pile up.
      const onAbort = () => {
        this.remove(timer);
        reject(new InterruptedError());
      };
      const timer = this.add(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private add(ms: number, fire: () => void): Timer {
    const timer: Timer = { at: this.time + Math.max(0, ms), fire };
    this.timers.push(timer);
    this.advanceSoon();
    return timer;
  }

  private remove(timer: Timer): void {
    const index = this.timers.indexOf(timer);
    if (index >= 0) this.timers.splice(index, 1);
  }

  private advanceSoon(): void {
    if (this.advancing) return;
    this.advancing = true;
    void this.advance();
  }

  private async advance(): Promise<void> {
    while (this.timers.length > 0) {
      // Let everything that can run without time passing run first: work queued now, then I/O under way.
      await quiet();
      if (this.timers.length === 0) break;
      // Every wake-up due at the earliest moment at once: timers set side by side end side by side, in one jump.
      const at = Math.min(...this.timers.map((timer) => timer.at));
      const due = this.timers.filter((timer) => timer.at === at);
      for (const timer of due) this.timers.splice(this.timers.indexOf(timer), 1);
      this.time = Math.max(this.time, at);
      for (const timer of due) timer.fire();
    }
    this.advancing = false;
  }
}

/** Resolves once the event loop has turned IDLE_TURNS times and nothing is under way outside it. */
async function quiet(): Promise<void> {
  for (;;) {
    for (let turn = 0; turn < IDLE_TURNS; turn++) await new Promise((resolve) => setImmediate(resolve));
    if (!process.getActiveResourcesInfo().some((resource) => OUTSIDE_WORK.test(resource))) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
