// Unit tests of the adjust-margin sheet's rules with the figures of the server's API test (an isolated 50x long of
// 0.020 at 50,000: cost 1,000, margin 20, est. liq. 49,196.79): the cost read back from value and PnL for both sides,
// the removable margin of perp/math (a profit does not count, a loss does), the checks of an amount, the estimated
// liquidation price over the new margin, and the signed amount of the request.
import { describe, expect, it } from 'vitest';
import { bracketTiers, liquidationPrice } from '@exchange/core';
import type { ContractRules } from './contract-form';
import {
  adjustMarginBody,
  maxRemovable,
  parseMarginAmount,
  positionCost,
  previewAdjustMargin,
  validateAdjustMargin,
  type AdjustMarginPosition,
} from './adjust-margin';

/** The API test's market TSTP/USDT: prices at 2 decimals, quantities at 3, three brackets. */
const RULES: ContractRules = {
  symbol: 'TSTP/USDT',
  base: 'TSTP',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  settleScale: 8,
  tickSize: '0.01',
  stepSize: '0.001',
  minQty: '0.001',
  lotNotional: '1000',
  takerFeePpm: 500,
  makerFeePpm: 200,
  brackets: [
    { notionalCap: '50000', maxLeverage: 125, maintMarginPpm: 4000 },
    { notionalCap: '250000', maxLeverage: 100, maintMarginPpm: 5000 },
    { notionalCap: '1000000', maxLeverage: 50, maintMarginPpm: 10000 },
  ],
  priceBandPpm: 500_000,
};

/** 0.020 long bought for 1,000 USDT at 50x with 20 USDT margin, at the mark 50,000 (value 1,000, PnL 0). */
const long50x = (p: Partial<AdjustMarginPosition> = {}): AdjustMarginPosition => ({
  symbol: 'TSTP/USDT',
  side: 'LONG',
  marginMode: 'ISOLATED',
  leverage: 50,
  quantity: '0.020',
  margin: '20.00000000',
  positionValue: '1000.00000000',
  unrealizedPnl: '0.00000000',
  liquidationPrice: '49196.79',
  priceDecimals: 2,
  qtyDecimals: 3,
  ...p,
});

describe('positionCost and maxRemovable', () => {
  it('reads the cost back exactly: long value - PnL, short value + PnL', () => {
    expect(positionCost(long50x({ positionValue: '1020.00000000', unrealizedPnl: '20.00000000' }))).toBe(1000n * 100_000_000n);
    expect(positionCost({ side: 'SHORT', positionValue: '980.00000000', unrealizedPnl: '20.00000000' })).toBe(1000n * 100_000_000n);
    expect(positionCost({ side: 'SHORT', positionValue: '1010.00000000', unrealizedPnl: '-10.00000000' })).toBe(1000n * 100_000_000n);
  });
  it('at the entry nothing beyond the initial margin; after +5, 5; a profit does not count; a loss does; cross none', () => {
    expect(maxRemovable(long50x())).toBe(0n);
    expect(maxRemovable(long50x({ margin: '25.00000000' }))).toBe(5n * 100_000_000n);
    // mark 51,000: initial margin 1,020 / 50 = 20.4 -> 25 - 20.4 = 4.6 (the +20 PnL is not counted)
    expect(maxRemovable(long50x({ margin: '25.00000000', positionValue: '1020.00000000', unrealizedPnl: '20.00000000' }))).toBe(460_000_000n);
    // mark 49,500: 40 - 10 loss - 19.8 = 10.2
    expect(maxRemovable(long50x({ margin: '40.00000000', positionValue: '990.00000000', unrealizedPnl: '-10.00000000' }))).toBe(1_020_000_000n);
    expect(maxRemovable(long50x({ marginMode: 'CROSS', margin: '25.00000000' }))).toBe(0n);
  });
});

describe('validateAdjustMargin', () => {
  it('needs an amount above 0 with at most 8 decimals', () => {
    expect(parseMarginAmount('')).toBe('amount_required');
    expect(parseMarginAmount('0.00')).toBe('amount_required');
    expect(parseMarginAmount('5.')).toBe('amount_required');
    expect(parseMarginAmount('1.123456789')).toBe('amount_decimals');
    expect(parseMarginAmount('1.12345678')).toBe(112_345_678n);
  });
  it('adds at most the available balance and removes at most the removable margin', () => {
    expect(validateAdjustMargin('ADD', '1000', long50x(), '1000')).toBeNull();
    expect(validateAdjustMargin('ADD', '1000.00000001', long50x(), '1000')).toBe('add_too_much');
    expect(validateAdjustMargin('REMOVE', '0.01', long50x(), '1000')).toBe('remove_too_much');
    expect(validateAdjustMargin('REMOVE', '5', long50x({ margin: '25.00000000' }), '0')).toBeNull();
    expect(validateAdjustMargin('REMOVE', '5.00000001', long50x({ margin: '25.00000000' }), '0')).toBe('remove_too_much');
  });
});

describe('previewAdjustMargin', () => {
  it('adding 5 to 20: margin 25 and the liquidation price of perp/math over 25 (48,945.79); removing them again: 49,196.79', () => {
    const add = previewAdjustMargin('ADD', '5', long50x(), '100.5', RULES);
    expect(add).toEqual({ maxAdd: '100.50000000', maxRemove: '0.00000000', newMargin: '25.00000000', liquidationPrice: '48945.79' });
    const tiers = bracketTiers(
      RULES.brackets.map((b) => ({ notionalCap: BigInt(b.notionalCap) * 100_000_000n, maxLeverage: b.maxLeverage, maintMarginPpm: b.maintMarginPpm })),
    );
    expect(liquidationPrice('LONG', 20n, 1000n * 100_000_000n, 25n * 100_000_000n, tiers, 1000n)).toBe(4_894_579n);
    const remove = previewAdjustMargin('REMOVE', '5', long50x({ margin: '25.00000000' }), '80', RULES);
    expect(remove).toMatchObject({ maxRemove: '5.00000000', newMargin: '20.00000000', liquidationPrice: '49196.79' });
  });
  it('a short: (cost + margin) / (size x (1 + mmr)) rounded down; no amount or no rules leave the estimate unknown', () => {
    const short = long50x({ side: 'SHORT', positionValue: '1000.00000000', unrealizedPnl: '0.00000000' });
    // (1000 + 30) / (0.02 x 1.004) = 51,294.82...
    expect(previewAdjustMargin('ADD', '10', short, '100', RULES).liquidationPrice).toBe('51294.82');
    expect(previewAdjustMargin('ADD', '', short, '100', RULES)).toMatchObject({ newMargin: '', liquidationPrice: '' });
    expect(previewAdjustMargin('ADD', '10', short, '100')).toMatchObject({ newMargin: '30.00000000', liquidationPrice: '' });
  });
  it('a long whose margin covers the whole cost has no liquidation price', () => {
    expect(previewAdjustMargin('ADD', '990', long50x(), '1000', RULES).liquidationPrice).toBe('--');
  });
});

describe('adjustMarginBody', () => {
  it('sends a negative amount to remove', () => {
    expect(adjustMarginBody('TSTP/USDT', 'ADD', '5.5')).toEqual({ symbol: 'TSTP/USDT', amount: '5.5' });
    expect(adjustMarginBody('TSTP/USDT', 'REMOVE', '5.5')).toEqual({ symbol: 'TSTP/USDT', amount: '-5.5' });
  });
});
