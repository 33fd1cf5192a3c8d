// Proves the order entry's conversion is the engine's rule with exact values: quantity = floor(fiat * 1e8 / price),
// a coin input converted to the fiat amount rounded up to a cent first (the server's rule for takeAd's quantity),
// the ad's limits checked in cents, and a floating price rounded half up to a cent like otcFloatPrice.
import { describe, expect, it } from 'vitest';
import { otcFloatPrice, otcQuantity } from '@exchange/core';
import { checkOrderAmounts, coinToUnits, fiatOfQuantity, fiatToCents, floatPrice, orderAmounts, quantityOfFiat } from './amount';

describe('order amounts', () => {
  it('converts CNY to USDT by floor(fiat * 1e8 / price)', () => {
    expect(orderAmounts('fiat', '720', '7.20')).toMatchObject({ fiat: '720.00', quantity: '100.00000000' });
    // 100 CNY at 7.30: 13.69863013698... -> floored to 13.69863013
    expect(orderAmounts('fiat', '100', '7.30')).toMatchObject({ fiat: '100.00', quantity: '13.69863013' });
    expect(orderAmounts('fiat', '0.01', '7.21')?.quantity).toBe('0.00138696');
  });
  it('converts USDT to CNY rounded up to a cent, then back to the quantity the order carries', () => {
    // 13.7 USDT at 7.30 = 100.01 CNY exactly -> 13.70000000
    expect(orderAmounts('coin', '13.7', '7.30')).toMatchObject({ fiat: '100.01', quantity: '13.70000000' });
    // 1 USDT at 7.33 = 7.33; 0.333 USDT at 7.33 = 2.44089 -> 2.45 CNY -> floor(245e8/733) = 0.33424283
    expect(orderAmounts('coin', '0.333', '7.33')).toMatchObject({ fiat: '2.45', quantity: '0.33424283' });
  });
  it('agrees with the engine on random-looking values', () => {
    for (const [fiat, price] of [
      [72050n, 721n],
      [1n, 999999n],
      [123456789n, 733n],
      [500000n, 1n],
    ] as const) {
      expect(quantityOfFiat(fiat, price, 8)).toBe(otcQuantity(fiat, price, 8));
    }
    for (const [idx, ppm] of [
      [720n, 1_015_000],
      [733n, 995_000],
      [1n, 500_000],
    ] as const) {
      const pct = `${Math.floor(ppm / 10_000)}.${String((ppm % 10_000) / 100).padStart(2, '0')}`;
      expect(fiatToCents(floatPrice(`${idx / 100n}.${String(idx % 100n).padStart(2, '0')}`, pct)!)).toBe(otcFloatPrice(idx, ppm));
    }
    expect(fiatOfQuantity(1n, 733n)).toBe(1n);
  });
  it('refuses bad input', () => {
    expect(orderAmounts('fiat', '1.001', '7.20')).toBeNull();
    expect(orderAmounts('fiat', 'abc', '7.20')).toBeNull();
    expect(orderAmounts('fiat', '-5', '7.20')).toBeNull();
    expect(orderAmounts('coin', '0.000000001', '7.20')).toBeNull();
    expect(orderAmounts('fiat', '10', '0')).toBeNull();
  });
  it('reads amounts as typed: a trailing or leading point, leading zeros and spaces around are fine', () => {
    expect(fiatToCents('5.')).toBe(500n);
    expect(fiatToCents('.5')).toBe(50n);
    expect(fiatToCents('007.20')).toBe(720n);
    expect(fiatToCents(' 7.2 ')).toBe(720n);
    expect(coinToUnits('13.', 8)).toBe(1_300_000_000n);
    expect(coinToUnits('1.5', 0)).toBeNull();
    for (const bad of ['', '.', '+1', '-1', '1.001', '1e2', '1,5']) expect(fiatToCents(bad)).toBeNull();
    expect(orderAmounts('fiat', '720.', '7.20')).toMatchObject({ fiat: '720.00', quantity: '100.00000000' });
    expect(orderAmounts('coin', '13.7', '7.3')).toMatchObject({ fiat: '100.01', quantity: '13.70000000' });
    expect(fiatOfQuantity(0n, 733n)).toBe(0n);
    expect(fiatOfQuantity(100_000_000n, 733n)).toBe(733n);
    expect(fiatOfQuantity(100_000_001n, 733n)).toBe(734n);
  });
  it('checks the limits in cents', () => {
    const ok = orderAmounts('fiat', '100', '7.20');
    expect(checkOrderAmounts(ok, '100.00', '1000.00', '500')).toBeNull();
    expect(checkOrderAmounts(orderAmounts('fiat', '99.99', '7.20'), '100.00', '1000.00', '500')).toBe('belowMin');
    expect(checkOrderAmounts(orderAmounts('fiat', '1000.01', '7.20'), '100.00', '1000.00', '500')).toBe('aboveMax');
    expect(checkOrderAmounts(ok, '100.00', '1000.00', '13.88888887')).toBe('aboveAvailable');
    expect(checkOrderAmounts(ok, '100.00', '1000.00', '13.88888888')).toBeNull();
    expect(checkOrderAmounts(null, '1', '2', '3')).toBe('invalid');
  });
  it('prices a floating ad from the index', () => {
    expect(floatPrice('7.20', '101.50')).toBe('7.31');
    expect(floatPrice('7.20', '100')).toBe('7.20');
    expect(floatPrice('7.25', '99.99')).toBe('7.25');
    expect(floatPrice('7.20', 'x')).toBeNull();
  });
});
