/** Hands of a position and the quantity of a partial close by lots (math.ts positionLots, closeLotsQty). */
import { describe, expect, it } from 'vitest';
import { closeLotsQty, lotsToQty, positionLots } from './math';

const U = 100_000_000n;
const LOT = 1000n * U;

describe('lots of a position', () => {
  it('2 lots bought at one price read 2 hands (the order rounded its quantity down to the step)', () => {
    // ETH at 3,457.92 (2 decimals), qty 4 decimals: mult = 10^(8-2-4) = 100
    const q = lotsToQty(2n, 345_792n, LOT, 1n, 100n);
    expect(q).toBe(5783n); // 0.5783 ETH
    const cost = q * 345_792n * 100n; // 1,999.81 USDT
    expect(positionLots(cost, LOT)).toBe(2n);
    expect(positionLots(LOT / 2n - 1n, LOT)).toBe(0n);
    expect(positionLots(LOT / 2n, LOT)).toBe(1n);
  });
  it('closing lots: all of them (or more) close the whole size; fewer close their share, down to the step', () => {
    expect(closeLotsQty(5783n, 2n, 2n, 1n)).toBe(5783n);
    expect(closeLotsQty(5783n, 2n, 9n, 1n)).toBe(5783n);
    expect(closeLotsQty(5783n, 2n, 1n, 1n)).toBe(2891n);
    expect(closeLotsQty(5783n, 2n, 1n, 10n)).toBe(2890n);
    expect(closeLotsQty(5n, 3n, 1n, 10n)).toBe(0n);
  });
});
