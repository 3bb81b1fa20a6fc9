// The mock service's request throttle: a fixed window of N requests, answered like Laravel's `throttle` middleware.

export interface RateLimitDecision {
  allowed: boolean;
  /** Headers for the response, whether it is let through or refused. */
  headers: Record<string, string>;
}

/** Counts requests in fixed windows; the limit and window length are read per request, so tests may change them. */
export class FixedWindowRateLimiter {
  private windowStartedAt = 0;
  private requestsInWindow = 0;

  /** Counts one request at `nowMs`; a refused request does not use up the next window. */
  take(limit: number, windowMs: number, nowMs: number): RateLimitDecision {
    if (nowMs - this.windowStartedAt >= windowMs) {
      this.windowStartedAt = nowMs;
      this.requestsInWindow = 0;
    }
    const windowEndsAt = this.windowStartedAt + windowMs;
    if (this.requestsInWindow >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((windowEndsAt - nowMs) / 1000));
      return {
        allowed: false,
        headers: {
          'Retry-After': String(retryAfterSeconds),
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(windowEndsAt / 1000)),
        },
      };
    }
    this.requestsInWindow += 1;
    return {
      allowed: true,
      headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(limit - this.requestsInWindow) },
    };
  }
}
