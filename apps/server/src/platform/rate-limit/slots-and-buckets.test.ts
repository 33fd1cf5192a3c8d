/**
 * The per-IP slots and token buckets (slots-and-buckets.ts) with a clock passed in: per-IP slots refuse beyond the cap and free on release,
 * and the token bucket gives its burst at once, then its rate, and never more than the burst after a pause.
 */
import { describe, expect, it } from 'vitest';
import { createIpSlots, createTokenBucket } from './slots-and-buckets';

describe('createIpSlots', () => {
  it('refuses the slot beyond the cap per IP, counts IPs apart, and frees on release', () => {
    const slots = createIpSlots(2);
    expect([slots.take('a'), slots.take('a'), slots.take('a'), slots.take('b')]).toEqual([true, true, false, true]);
    slots.release('a');
    expect(slots.count('a')).toBe(1);
    expect(slots.take('a')).toBe(true);
    slots.release('b');
    slots.release('b'); // an extra release never goes below zero
    expect(slots.count('b')).toBe(0);
    const unlimited = createIpSlots(0);
    for (let i = 0; i < 1000; i++) expect(unlimited.take('a')).toBe(true);
    expect(unlimited.count('a')).toBe(1000);
  });
});

describe('createTokenBucket', () => {
  it('gives the burst at once, then the rate, and no more than the burst after a pause', () => {
    const bucket = createTokenBucket(20, 40, 0);
    const takes = (n: number, atMs: number) => Array.from({ length: n }, () => bucket.take(atMs)).filter(Boolean).length;
    expect(takes(50, 0)).toBe(40);
    expect(takes(5, 100)).toBe(2); // 100 ms at 20/s
    expect(takes(50, 60_000)).toBe(40); // refilled to the burst only
    expect(createTokenBucket(0, 0, 0).take(0)).toBe(true);
  });
});
