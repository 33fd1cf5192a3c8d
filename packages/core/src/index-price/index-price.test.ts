// Worked examples of the index price rule: stale sources dropped, median, clamp to +-3%,
// weighted average rounded half up.
import { describe, expect, it } from 'vitest';
import { computeIndexPrice, indexPriceDetail } from './index-price';

const now = 1_700_000_000_000;

describe('computeIndexPrice', () => {
  it('weighted average when all prices are inside the band', () => {
    // median 100; (100*1 + 101*1 + 99*2) / 4 = 399/4 = 99.75 -> 100 (half up)
    expect(
      computeIndexPrice(
        [
          { price: 100n, weight: 1, ts: now },
          { price: 101n, weight: 1, ts: now },
          { price: 99n, weight: 2, ts: now },
        ],
        now,
        5000,
      ),
    ).toBe(100n);
  });
  it('clamps outliers to median +-3%', () => {
    // prices in cents: 10000, 10010, 20000 (outlier), 5000 (outlier). Median of 4 = (10000+10010)/2 = 10005.
    // band: ceil(10005*0.97) = 9705 (9704.85), floor(10005*1.03) = 10305 (10305.15)
    // average of 10000, 10010, 10305, 9705 with weight 1 = 40020/4 = 10005
    expect(
      computeIndexPrice(
        [
          { price: 10000n, weight: 1, ts: now },
          { price: 10010n, weight: 1, ts: now },
          { price: 20000n, weight: 1, ts: now },
          { price: 5000n, weight: 1, ts: now },
        ],
        now,
        5000,
      ),
    ).toBe(10005n);
  });
  it('drops stale sources before taking the median', () => {
    // the stale 50000 would have been the median of 3; without it the median of 10000 and 10100 is 10050
    // band [9749, 10351]; (10000*3 + 10100*1) / 4 = 40100/4 = 10025
    expect(
      computeIndexPrice(
        [
          { price: 10000n, weight: 3, ts: now - 1000 },
          { price: 10100n, weight: 1, ts: now },
          { price: 50000n, weight: 10, ts: now - 5001 },
        ],
        now,
        5000,
      ),
    ).toBe(10025n);
  });
  it('rounds half up', () => {
    // median of 1000 and 1001 = 1000.5 -> 1001; band [971, 1031]; (1000 + 1001)/2 = 1000.5 -> 1001
    expect(
      computeIndexPrice(
        [
          { price: 1000n, weight: 1, ts: now },
          { price: 1001n, weight: 1, ts: now },
        ],
        now,
        10,
      ),
    ).toBe(1001n);
    // (1000*1 + 1001*3)/4 = 4003/4 = 1000.75 -> 1001; (1000*3 + 1001*1)/4 = 1000.25 -> 1000
    expect(
      computeIndexPrice(
        [
          { price: 1000n, weight: 1, ts: now },
          { price: 1001n, weight: 3, ts: now },
        ],
        now,
        10,
      ),
    ).toBe(1001n);
    expect(
      computeIndexPrice(
        [
          { price: 1000n, weight: 3, ts: now },
          { price: 1001n, weight: 1, ts: now },
        ],
        now,
        10,
      ),
    ).toBe(1000n);
  });
  it('returns null when nothing usable is left', () => {
    expect(computeIndexPrice([], now, 1000)).toBeNull();
    expect(computeIndexPrice([{ price: 100n, weight: 1, ts: now - 2000 }], now, 1000)).toBeNull();
    expect(computeIndexPrice([{ price: 100n, weight: 0, ts: now }], now, 1000)).toBeNull();
    expect(computeIndexPrice([{ price: 0n, weight: 1, ts: now }], now, 1000)).toBeNull();
    expect(computeIndexPrice([{ price: 100n, weight: 1.5, ts: now }], now, 1000)).toBeNull();
  });
  it('single source is its own index', () => {
    expect(computeIndexPrice([{ price: 4242n, weight: 7, ts: now }], now, 1000)).toBe(4242n);
  });
});

describe('indexPriceDetail', () => {
  it("names each source's part: used, clamped to the band, or dropped", () => {
    // median 1000 of (1000, 1000, 1100): band [970, 1030]; 1100 clamped to 1030; the old one and the weight 1.5 dropped.
    const sources = [
      { price: 1000n, weight: 2, ts: now },
      { price: 1100n, weight: 1, ts: now },
      { price: 1000n, weight: 1, ts: now - 5 },
      { price: 500n, weight: 1, ts: now - 2000 },
      { price: 1000n, weight: 1.5, ts: now },
    ];
    const d = indexPriceDetail(sources, now, 1000);
    expect(d.statuses).toEqual(['used', 'clamped', 'used', 'dropped', 'dropped']);
    // (1000 x 2 + 1030 + 1000) / 4 = 1007.5 -> 1008
    expect(d.price).toBe(1008n);
    expect(d.price).toBe(computeIndexPrice(sources, now, 1000));
  });
  it('drops every source when none is usable', () => {
    expect(indexPriceDetail([{ price: 0n, weight: 1, ts: now }], now, 1000)).toEqual({ price: null, statuses: ['dropped'] });
  });
});
