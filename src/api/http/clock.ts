// Time as the client sees it (now, sleep, jitter): the system's, or a fake one a test passes so that no test waits real seconds.
import { InterruptedError } from '../errors.js';

/** Time as the policy sees it; tests pass a fake one so that no test waits real seconds. */
export interface Clock {
  /** Milliseconds, monotonic enough for deadlines. */
  now(): number;
  /** Waits `ms`; rejects with InterruptedError as soon as `signal` is raised. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1), for jitter. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
