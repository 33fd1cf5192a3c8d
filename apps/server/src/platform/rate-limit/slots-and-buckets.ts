/**
 * Slots and token buckets of the one rate-limit module (platform/rate-limit): open connections per client IP (the
 * app's WebSocket gateway and the Binance streams), and a token bucket per socket for its messages. No sockets and no
 * clock of their own (the time is passed in), so each piece is exact and cheap: one Map lookup per upgrade, a few
 * arithmetic operations per message.
 */

/** Open connections per IP, capped. */
export interface IpSlots {
  /** Takes a slot for `ip`; false (nothing taken) when it already holds the maximum. */
  take(ip: string): boolean;
  /** Gives back a slot taken for `ip`. */
  release(ip: string): void;
  /** Slots held by `ip`. */
  count(ip: string): number;
}

/** Creates the per-IP slots: at most `maxPerIp` each (0 = unlimited, still counted). */
export function createIpSlots(maxPerIp: number): IpSlots {
  const held = new Map<string, number>();
  return {
    take(ip) {
      const n = held.get(ip) ?? 0;
      if (maxPerIp > 0 && n >= maxPerIp) return false;
      held.set(ip, n + 1);
      return true;
    },
    release(ip) {
      const n = held.get(ip) ?? 0;
      if (n <= 1) held.delete(ip);
      else held.set(ip, n - 1);
    },
    count: (ip) => held.get(ip) ?? 0,
  };
}

/** A token bucket: `take` spends one token, refilled at a steady rate up to the burst. */
export interface TokenBucket {
  /** Spends a token at `nowMs`; false when there is none (the caller refuses the message). */
  take(nowMs: number): boolean;
}

/** Creates a full bucket of `burst` tokens refilled at `ratePerSec` (0 = unlimited: `take` always succeeds). */
export function createTokenBucket(ratePerSec: number, burst: number, nowMs: number): TokenBucket {
  if (ratePerSec <= 0) return { take: () => true };
  let tokens = burst;
  let atMs = nowMs;
  return {
    take(t) {
      if (t > atMs) {
        tokens = Math.min(burst, tokens + ((t - atMs) * ratePerSec) / 1000);
        atMs = t;
      }
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
