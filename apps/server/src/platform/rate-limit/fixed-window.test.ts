/**
 * Proves the fixed-window counter: epoch-aligned windows end on the window boundary whatever the first event's time
 * (a count at 59.999 s is gone at 60.000 s), first-event windows last a full window from their first event, reads
 * (n = 0) count nothing, keys are independent, Retry-After is whole seconds to the window's end (at least 1), and
 * the oldest window is forgotten beyond maxKeys.
 */
import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './fixed-window';

describe('FixedWindowCounter', () => {
  it('aligned to the epoch: the window ends on the boundary', () => {
    const c = new FixedWindowCounter(60_000, 'epoch', 10);
    expect(c.add('ip', 5, 59_999)).toBe(5);
    expect(c.add('ip', 0, 59_999)).toBe(5);
    expect(c.retryAfterS('ip', 59_999)).toBe(1); // 1 ms left: at least one second
    expect(c.add('ip', 1, 60_000)).toBe(1); // a new window at the boundary
    expect(c.add('ip', 2, 119_999)).toBe(3);
    expect(c.retryAfterS('ip', 60_000)).toBe(60);
    expect(c.msToReset('other', 90_000)).toBe(30_000);
    expect(c.add('other', 1, 90_000)).toBe(1); // keys are independent
  });

  it('from the first event: a full window from it', () => {
    const c = new FixedWindowCounter(60_000, 'first-event', 10);
    expect(c.msToReset('ip', 30_000)).toBe(60_000); // no window yet
    expect(c.add('ip', 1, 30_000)).toBe(1);
    expect(c.add('ip', 1, 89_999)).toBe(2);
    expect(c.msToReset('ip', 89_999)).toBe(1);
    expect(c.retryAfterS('ip', 60_000)).toBe(30);
    expect(c.add('ip', 1, 90_000)).toBe(1); // 60 s after the first event: a new window
    expect(c.msToReset('ip', 90_000)).toBe(60_000);
  });

  it('forgets the window opened first beyond maxKeys', () => {
    const c = new FixedWindowCounter(1_000, 'first-event', 2);
    c.add('a', 3, 0);
    c.add('b', 4, 1);
    c.add('c', 5, 2); // a goes
    expect(c.size).toBe(2);
    expect(c.add('b', 0, 3)).toBe(4);
    expect(c.add('a', 0, 3)).toBe(0); // forgotten: a fresh window, for which b (opened first of b and c) goes
    expect(c.add('c', 0, 3)).toBe(5);
    expect(c.add('b', 0, 3)).toBe(0);
  });
});
