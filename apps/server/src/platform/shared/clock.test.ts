import { describe, expect, it } from 'vitest';
import { createServerClock } from './clock';

describe('server clock', () => {
  it('is the base clock until advanced, then the base plus every advance', () => {
    let base = 1_000;
    const clock = createServerClock(() => base);
    const { now } = clock; // a bound callback, as the engine port takes it
    expect(now()).toBe(1_000);
    expect(clock.advance(60_000)).toBe(60_000);
    expect(now()).toBe(61_000);
    base = 2_000;
    expect(clock.advance(5)).toBe(60_005);
    expect(now()).toBe(62_005);
    expect(clock.offsetMs).toBe(60_005);
  });

  it('refuses a backward, zero or fractional move and stays where it was', () => {
    const clock = createServerClock(() => 0);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(() => clock.advance(bad)).toThrow(RangeError);
    expect(clock.offsetMs).toBe(0);
  });
});
