// Pacing to the service's rate limit: one limiter per HTTP client, shared by all its requests, that follows
// X-RateLimit-* and holds requests when the budget is spent.
import { InterruptedError } from '../errors.js';
import type { Clock } from './retry-policy.js';

/**
 * One request as the limiter counts it: when it went out, in which order, and what the limiter had heard by then.
 * Taken before each attempt (acquire), given back with what the attempt met (answered, refused, failed).
 */
export interface Ticket {
  readonly seq: number;
  readonly sentAt: number;
  /**
   * How many answers had come back when this request went out. A request sent after an answer came back reached the
   * service after that answer's request did, so within one window it hears a smaller remaining count.
   */
  readonly answersBefore: number;
}

/** A wait for the window's end, the budget spent (said once a window, for --verbose and a note on a long wait). */
export interface PaceEvent {
  waitMs: number;
  /** The service's X-RateLimit-Limit. */
  limit: number;
}

/** Past the end of a window as we reckon it, a little longer, for the time our request takes to arrive. */
const WINDOW_MARGIN_MS = 100;
/** The longest the other requests of a run wait for the first one's answer to tell the budget. */
const FIRST_ANSWER_WAIT_MS = 500;

/**
 * Laravel's throttle counts requests in a fixed window that the first request after the last window opens, and
 * tells `X-RateLimit-Limit` and `X-RateLimit-Remaining` on every answer; only a 429 tells when the window ends
 * (Retry-After, X-RateLimit-Reset). So the limiter:
 * - lets requests go while the window's budget lasts (the remaining count, less the requests still under way
 *   that it may not include), so a run takes no longer than the limit makes it;
 * - once the budget is spent, waits for the window's end when it knows it; when it does not yet, sends a single
 *   request, whose 429 tells the end (and, with the moment the window opened, its length for the next ones);
 * - after any 429 or 503 that asks to wait, holds every request until then, not only the one refused.
 * The first request goes alone until its answer tells the budget (FIRST_ANSWER_WAIT_MS at most); after that, a
 * service that sends no such headers is not paced at all.
 */
export class RateLimiter {
  private limit: number | undefined;
  /** The smallest remaining count heard in the current window (it only falls within a window). */
  private remaining = 0;
  /** `answers` when `remaining` was heard: a request sent after it that hears more is in a newer window. */
  private remainingHeardAt = 0;
  private answers = 0;
  private nextSeq = 0;
  /** Requests of an older window than this one are not counted against the current budget. */
  private windowFirstSeq = 0;
  /** When the request that opened the current window went out (its answer said limit - 1), if seen. */
  private windowOpenedAt: number | undefined;
  private windowEndsAt: number | undefined;
  /** The window's length, learned from a 429 in a window whose opening was seen. */
  private windowMs: number | undefined;
  private heldUntil = 0;
  /** The window's end last said to onPace, so that a wait is said once, however many requests wait. */
  private pacedUntil: number | undefined;
  private readonly inFlight = new Set<Ticket>();
  private changed = deferred();

  constructor(
    private readonly clock: Clock,
    private readonly onPace?: (event: PaceEvent) => void,
  ) {}

  /** Waits until a request may go under the service's limit and any hold; then counts it as under way. */
  async acquire(signal?: AbortSignal): Promise<Ticket> {
    for (;;) {
      const now = this.clock.now();
      if (this.heldUntil > now) {
        await this.clock.sleep(this.heldUntil - now, signal);
        continue;
      }
      const untilFirstAnswer = this.firstAnswerWaitMs(now);
      if (untilFirstAnswer > 0) {
        await this.nextChange(untilFirstAnswer, signal);
        continue;
      }
      if (this.windowEndsAt !== undefined && now >= this.windowEndsAt) this.startWindow();
      const budget = this.budget();
      // The budget spent and nothing under way: the window's length known, its end is at most that far off (its
      // opening went unseen); unknown, a single request past the budget learns it from its 429 (the first window only).
      if (budget <= 0 && this.windowEndsAt === undefined && this.windowMs !== undefined && this.currentInFlight() === 0) {
        this.windowEndsAt = now + this.windowMs + WINDOW_MARGIN_MS;
      }
      const probe = budget <= 0 && this.windowEndsAt === undefined && this.windowMs === undefined && this.currentInFlight() === 0;
      if (budget > 0 || probe) return this.take(now);
      const waitMs = this.windowEndsAt === undefined ? undefined : this.windowEndsAt - now;
      if (waitMs !== undefined) this.pace(waitMs);
      await this.nextChange(waitMs, signal);
    }
  }

  /** An answer came: its X-RateLimit-* headers (when it has them) update the budget. */
  answered(ticket: Ticket, headers: Record<string, string | string[] | undefined>): void {
    this.settle(ticket);
    const limit = headerInteger(headers['x-ratelimit-limit']);
    const remaining = headerInteger(headers['x-ratelimit-remaining']);
    // An answer to a request of an older window tells nothing of this one.
    if (limit !== undefined && limit > 0 && remaining !== undefined && ticket.seq >= this.windowFirstSeq) this.count(ticket, limit, remaining);
    this.notify();
  }

  private count(ticket: Ticket, limit: number, remaining: number): void {
    const firstHeard = this.limit === undefined;
    this.limit = limit;
    if (firstHeard || remaining <= this.remaining) this.hear(remaining);
    // Within a window the count only falls; a request sent after the last count was heard that hears more is in a new one.
    else if (ticket.answersBefore >= this.remainingHeardAt) this.newWindowSeen(ticket, remaining);
    // A window whose opening we did not see (another client opened it): with its length known, it ends no later
    // than that long after this request went out, so its budget is never overrun waiting for a 429 to say so.
    if (this.windowMs !== undefined && this.windowEndsAt === undefined && remaining < limit - 1) {
      this.windowEndsAt = ticket.sentAt + this.windowMs + WINDOW_MARGIN_MS;
    }
    // Only the request that opened a window hears limit - 1: from its sending, the window's end follows.
    if (remaining === limit - 1) {
      this.windowOpenedAt = ticket.sentAt;
      // A 429 earlier in this window told its end (answers of slow requests come after the refusals of quick ones).
      if (this.windowMs === undefined && this.windowEndsAt !== undefined) this.windowMs = this.windowEndsAt - ticket.sentAt;
      else if (this.windowMs !== undefined) this.windowEndsAt ??= ticket.sentAt + this.windowMs + WINDOW_MARGIN_MS;
    }
  }

  /**
   * A 429: nothing was counted, and every request waits `waitMs`. When the wait came from the service's headers
   * (`serviceWaitMs`, as the service said it: the client's cap on how long one request waits is no part of it), it
   * is the end of the window, and with its opening, the window's length: no request goes before it.
   */
  refused(ticket: Ticket, waitMs: number, fromService: boolean, headers: Record<string, string | string[] | undefined> = {}, serviceWaitMs = waitMs): void {
    this.settle(ticket);
    const now = this.clock.now();
    this.hold(waitMs);
    this.limit = headerInteger(headers['x-ratelimit-limit']) || this.limit;
    if (fromService && this.limit !== undefined && ticket.seq >= this.windowFirstSeq) {
      this.windowEndsAt = now + Math.max(waitMs, serviceWaitMs);
      this.hear(0);
      if (this.windowOpenedAt !== undefined) this.windowMs ??= this.windowEndsAt - this.windowOpenedAt;
    }
    this.notify();
  }

  /** No answer (a network failure): the request is no longer under way; whether it counted, later answers tell. */
  failed(ticket: Ticket): void {
    this.settle(ticket);
    this.notify();
  }

  /** No request of this client starts for `waitMs` (the service asked to wait: a 429 or 503 with Retry-After). */
  hold(waitMs: number): void {
    this.heldUntil = Math.max(this.heldUntil, this.clock.now() + waitMs);
  }

  /**
   * The first request of a run goes alone until its answer tells the budget (another run may have used the window
   * up: eight requests sent blind would meet seven 429s), but no longer than FIRST_ANSWER_WAIT_MS: against a
   * service without these headers, a slow first answer costs that once, no more.
   */
  private firstAnswerWaitMs(now: number): number {
    if (this.answers > 0 || this.limit !== undefined || this.inFlight.size === 0) return 0;
    const [first] = this.inFlight;
    return first!.sentAt + FIRST_ANSWER_WAIT_MS - now;
  }

  private take(now: number): Ticket {
    const ticket = { seq: this.nextSeq++, sentAt: now, answersBefore: this.answers };
    this.inFlight.add(ticket);
    return ticket;
  }

  private settle(ticket: Ticket): void {
    this.inFlight.delete(ticket);
    this.answers++;
  }

  private hear(remaining: number): void {
    this.remaining = remaining;
    this.remainingHeardAt = this.answers;
  }

  /** What may still be sent in this window: the remaining count less our requests under way that it may not include. */
  private budget(): number {
    return this.limit === undefined ? Infinity : this.remaining - this.currentInFlight();
  }

  private currentInFlight(): number {
    let count = 0;
    for (const ticket of this.inFlight) if (ticket.seq >= this.windowFirstSeq) count++;
    return count;
  }

  /** Our reckoning of the window's end has passed: the next request opens a new window with the whole limit. */
  private startWindow(): void {
    this.windowFirstSeq = this.nextSeq;
    this.windowEndsAt = undefined;
    this.windowOpenedAt = undefined;
    this.hear(this.limit ?? 0);
  }

  /** A request sent after the last count was heard hears a larger one: a new window opened, no later than it went out. */
  private newWindowSeen(ticket: Ticket, remaining: number): void {
    this.windowFirstSeq = ticket.seq;
    this.windowOpenedAt = undefined;
    this.windowEndsAt = this.windowMs === undefined ? undefined : ticket.sentAt + this.windowMs + WINDOW_MARGIN_MS;
    this.hear(remaining);
  }

  private pace(waitMs: number): void {
    if (this.limit === undefined || this.windowEndsAt === this.pacedUntil) return;
    this.pacedUntil = this.windowEndsAt;
    this.onPace?.({ waitMs, limit: this.limit });
  }

  private notify(): void {
    const { resolve } = this.changed;
    this.changed = deferred();
    resolve();
  }

  /** Waits for an answer to change the budget, or `waitMs` (the window's end), whichever comes first. */
  private async nextChange(waitMs: number | undefined, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    const stopSleep = new AbortController();
    const either = signal ? AbortSignal.any([signal, stopSleep.signal]) : stopSleep.signal;
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new InterruptedError());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    // Ends the sleep early when an answer came first; a Ctrl-C still ends it with InterruptedError.
    const sleeping =
      waitMs === undefined
        ? aborted
        : this.clock.sleep(waitMs, either).catch((error: unknown) => {
            if (!stopSleep.signal.aborted || signal?.aborted) throw error;
          });
    try {
      await Promise.race([this.changed.promise, sleeping, aborted]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stopSleep.abort();
      aborted.catch(() => {});
    }
  }
}

function headerInteger(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
