// A bulk run's breaker: a service that has answered 5xx to every request for a while is failing, not flaky; the run
// starts no new URL and gives the watches under way a last half minute.
import type { Clock } from '../../../../api/http/clock.js';

/** So many 5xx answers in a row, the first and the last at least this far apart, trip the breaker. */
export const BREAKER_RULE = { answers: 10, overMs: 5_000 };
/** How long the watches under way (creates whose answer was lost) go on once the breaker tripped. */
export const WATCH_AFTER_TRIP_MS = 30_000;

/** The rule alone: the 5xx answers in a row and when they began; any other answer (2xx, 3xx, 4xx) starts it afresh. */
export class FailureStreak {
  private count = 0;
  private firstAt = 0;
  private lastAt = 0;
  private lastStatus = 0;

  constructor(private readonly rule: { answers: number; overMs: number } = BREAKER_RULE) {}

  /** Counts an answer that came at `at` (ms); true when the streak now meets the rule. */
  answer(status: number, at: number): boolean {
    if (status < 500 || status > 599) {
      this.count = 0;
      return false;
    }
    if (this.count === 0) this.firstAt = at;
    this.count++;
    this.lastAt = at;
    this.lastStatus = status;
    return this.count >= this.rule.answers && at - this.firstAt >= this.rule.overMs;
  }

  /** `HTTP 503 to 10 requests in a row over 6 s`: the streak as the run's stop line names it. */
  describe(): string {
    return `HTTP ${this.lastStatus} to ${this.count} requests in a row over ${Math.round((this.lastAt - this.firstAt) / 1000)} s`;
  }
}

/**
 * The run's breaker over every answer its client gets (`answer`): once the streak trips it, `tripped` is raised (no
 * new URL starts) and, WATCH_AFTER_TRIP_MS later on the run's clock, `giveUp` (the watches under way end). `close`
 * ends the wait when the run ends first.
 */
export class Breaker {
  private readonly streak = new FailureStreak();
  private readonly trip = new AbortController();
  private readonly quit = new AbortController();
  private readonly closed = new AbortController();
  /** What tripped it (`HTTP 503 to 10 requests in a row over 6 s`), once it has. */
  cause: string | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onTrip: (cause: string) => void = () => {},
  ) {}

  get tripped(): AbortSignal {
    return this.trip.signal;
  }

  get giveUp(): AbortSignal {
    return this.quit.signal;
  }

  answer(status: number): void {
    if (this.cause !== undefined || !this.streak.answer(status, this.clock.now())) return;
    this.cause = this.streak.describe();
    this.trip.abort();
    this.onTrip(this.cause);
    this.clock.sleep(WATCH_AFTER_TRIP_MS, this.closed.signal).then(
      () => this.quit.abort(),
      () => {},
    );
  }

  close(): void {
    this.closed.abort();
  }
}
