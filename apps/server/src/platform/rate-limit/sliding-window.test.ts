/**
 * Proves the per-user order rate limit: 50 placements in 10 s pass, the 51st is refused,
 * another user is not affected, the window slides (one slot frees 10 s after the first placement), and idle
 * users are forgotten.
 */
import { describe, expect, it } from 'vitest';
import { createSlidingWindowLimiter } from './sliding-window';

describe('order rate limiter', () => {
  it('allows limit per window per user, sliding', () => {
    const l = createSlidingWindowLimiter(50, 10_000);
    for (let i = 0; i < 50; i++) expect(l.take('1', 1000 + i)).toBe(true);
    expect(l.take('1', 1100)).toBe(false);
    expect(l.take('2', 1100)).toBe(true);
    expect(l.take('1', 10_999)).toBe(false);
    expect(l.take('1', 11_000)).toBe(true); // the first placement (t=1000) left the window
    expect(l.take('1', 11_000)).toBe(false); // the second (t=1001) has not
    expect(l.take('1', 11_001)).toBe(true);
    expect(l.take('3', 40_000)).toBe(true);
    expect(l.tracked).toBe(1); // users 1 and 2 were idle for a whole window
  });

  it('limit 0 means unlimited', () => {
    const l = createSlidingWindowLimiter(0, 10_000);
    for (let i = 0; i < 1000; i++) expect(l.take('1', 5)).toBe(true);
  });
});
