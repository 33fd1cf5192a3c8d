// Unit test of the conditional order part of the contract form (conditional-form.ts): the callback rate rule (0.1% to
// 10% in steps of 0.1%, exact), Stop vs Take profit from the side and where the trigger lies (Binance's form), the
// checks in their order, and the body sent (lots, working type, close position without lots or reduce-only).
import { describe, expect, it } from 'vitest';
import { conditionalBody, conditionalType, isCallbackRate, validateConditional, workingPriceOf, type ConditionalValues } from './conditional-form';
import type { ContractRules } from './contract-form';

const rules: ContractRules = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  settleScale: 8,
  tickSize: '0.10',
  stepSize: '0.001',
  minQty: '0.001',
  lotNotional: '1000',
  takerFeePpm: 500,
  makerFeePpm: 200,
  brackets: [{ notionalCap: '50000', maxLeverage: 125, maintMarginPpm: 4000 }],
  priceBandPpm: 500_000,
};
const base: ConditionalValues = {
  kind: 'STOP_MARKET',
  side: 'SHORT',
  stopPrice: '49000',
  price: '',
  lots: '2',
  workingType: 'MARK_PRICE',
  reduceOnly: true,
  closePosition: false,
  callbackRate: '',
  activationPrice: '',
};

describe('conditional form', () => {
  it.each([
    ['0.1', true],
    ['1', true],
    ['2.5', true],
    ['10', true],
    ['10.0', true],
    ['0.10', true],
    ['0', false],
    ['0.05', false],
    ['1.25', false],
    ['10.1', false],
    ['11', false],
    ['', false],
    ['1e1', false],
    // as the field may hold them: a leading zero, trailing zeros; never a sign, a bare point or three whole digits
    ['01', true],
    ['00.5', true],
    ['2.500', true],
    ['9.90', true],
    ['10.00', true],
    ['10.01', false],
    ['0.09', false],
    ['5.', false],
    ['.5', false],
    ['-1', false],
    ['+1', false],
    ['010', false],
    [' 1', false],
    [`1.${'0'.repeat(70)}`, false],
  ])('callback rate %s allowed: %s', (v, ok) => expect(isCallbackRate(v)).toBe(ok));

  it('names stop or take profit from the side and the trigger against the working price', () => {
    expect(conditionalType('STOP_MARKET', 'SHORT', '49000', '50000', 2)).toBe('STOP_MARKET');
    expect(conditionalType('STOP_MARKET', 'SHORT', '51000', '50000', 2)).toBe('TAKE_PROFIT_MARKET');
    expect(conditionalType('STOP_MARKET', 'LONG', '51000', '50000', 2)).toBe('STOP_MARKET');
    expect(conditionalType('STOP_LIMIT', 'LONG', '49000', '50000', 2)).toBe('TAKE_PROFIT_LIMIT');
    expect(conditionalType('STOP_LIMIT', 'LONG', '49000', '', 2)).toBe('STOP_LIMIT');
    expect(conditionalType('TRAILING_STOP', 'LONG', '', '50000', 2)).toBe('TRAILING_STOP');
  });

  it('checks the trigger, the limit price, the rate and the lots in order', () => {
    expect(validateConditional(base, rules, '50000')).toBeNull();
    expect(validateConditional({ ...base, stopPrice: '' }, rules, '50000')).toBe('stop_price_required');
    expect(validateConditional({ ...base, stopPrice: '49000.05' }, rules, '50000')).toBe('stop_price_not_on_tick');
    expect(validateConditional({ ...base, stopPrice: '50000.00' }, rules, '50000')).toBe('stop_price_at_market');
    expect(validateConditional({ ...base, kind: 'STOP_LIMIT' }, rules, '50000')).toBe('price_required');
    expect(validateConditional({ ...base, kind: 'STOP_LIMIT', price: '48900.01' }, rules, '50000')).toBe('price_not_on_tick');
    expect(validateConditional({ ...base, lots: '' }, rules, '50000')).toBe('lots_required');
    expect(validateConditional({ ...base, lots: '', closePosition: true }, rules, '50000')).toBeNull();
    const trailing = { ...base, kind: 'TRAILING_STOP' as const, stopPrice: '' };
    expect(validateConditional(trailing, rules, '50000')).toBe('callback_rate_invalid');
    expect(validateConditional({ ...trailing, callbackRate: '1', activationPrice: '51000.01' }, rules, '50000')).toBe('activation_not_on_tick');
    expect(validateConditional({ ...trailing, callbackRate: '1' }, rules, '50000')).toBeNull();
  });

  it('builds the body: lots and reduce-only, or close position alone', () => {
    expect(conditionalBody('BTC/USDT', base, '50000', rules)).toEqual({
      symbol: 'BTC/USDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      workingType: 'MARK_PRICE',
      stopPrice: '49000',
      lots: '2',
      reduceOnly: 'true',
    });
    expect(conditionalBody('BTC/USDT', { ...base, closePosition: true, side: 'LONG', stopPrice: '51000' }, '50000', rules)).toEqual({
      symbol: 'BTC/USDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      workingType: 'MARK_PRICE',
      stopPrice: '51000',
      closePosition: 'true',
    });
    expect(
      conditionalBody(
        'BTC/USDT',
        { ...base, kind: 'TRAILING_STOP', stopPrice: '', callbackRate: '1.5', reduceOnly: false, workingType: 'CONTRACT_PRICE' },
        '50000',
        rules,
      ),
    ).toEqual({ symbol: 'BTC/USDT', side: 'SELL', type: 'TRAILING_STOP', workingType: 'CONTRACT_PRICE', callbackRate: '1.5', lots: '2' });
    expect(workingPriceOf('CONTRACT_PRICE', { markPrice: '50000', lastPrice: '' })).toBe('50000');
    expect(workingPriceOf('CONTRACT_PRICE', { markPrice: '50000', lastPrice: '50010' })).toBe('50010');
    expect(workingPriceOf('MARK_PRICE', { markPrice: '50000', lastPrice: '50010' })).toBe('50000');
  });
});
