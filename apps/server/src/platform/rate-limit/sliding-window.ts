/**
 * The sliding-window limiter of the one rate-limit module (platform/rate-limit: fixed windows, a sliding window,
 * token buckets and slots): at most `limit` events per key in any window of `windowMs`. Used for new orders per user
 * (spot and perpetuals, as Binance's ORDERS rate limit: exchangeInfo `rateLimits` rateLimitType ORDERS, interval
 * SECOND, intervalNum 10, limit 50 for the default tier) and for the support chat's messages per user and per
 * operator. A ring of the last `limit` event times per key, so memory per key is bounded by `limit`, and keys idle
 * for a whole window are forgotten. In memory, per process: a gateway's limit.
 */
export interface SlidingWindowLimiter {
  /** Counts one event of `key` (a user id) at `nowMs`; false (nothing counted) when the key is at the limit. */
  take(userId: string, nowMs: number): boolean;
  /** Keys currently tracked (for tests). */
  readonly tracked: number;
}

/** A limiter of `limit` events per key per `windowMs` (limit 0 = unlimited). */
export function createSlidingWindowLimiter(limit: number, windowMs: number): SlidingWindowLimiter {
  /** userId -> ring of the last `limit` placement times and the ring's head. */
  const users = new Map<string, { times: number[]; head: number }>();
  let sweepAt = 0;
  return {
    get tracked() {
      return users.size;
    },
    take(userId, nowMs) {
      if (limit <= 0) return true;
      if (nowMs >= sweepAt) {
        // Forget users whose newest placement left the window (keeps the map bounded by active users).
        for (const [u, r] of users) if (nowMs - r.times[(r.head + r.times.length - 1) % r.times.length]! >= windowMs) users.delete(u);
        sweepAt = nowMs + windowMs;
      }
      let r = users.get(userId);
      if (r === undefined) {
        r = { times: [], head: 0 };
        users.set(userId, r);
      }
      if (r.times.length < limit) {
        r.times.push(nowMs);
        return true;
      }
      // The ring is full: the oldest of the last `limit` placements must have left the window.
      if (nowMs - r.times[r.head]! < windowMs) return false;
      r.times[r.head] = nowMs;
      r.head = (r.head + 1) % limit;
      return true;
    },
  };
}
