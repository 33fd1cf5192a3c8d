// Proves the conditional order rules of the spot form with exact values: the kind Binance's app derives from side
// and trigger against the last price (SELL below = STOP_LOSS, above = TAKE_PROFIT; BUY mirrored; equal refused), and,
// with fast-check against the engine's trigger table written out independently (docs/conditional-orders.md), that an
// order of the derived kind never triggers at the price it was placed at and always triggers once the last price
// reaches its trigger price; the trailing percentage <-> BIPS conversion; validation in the form's order (trigger,
// trailing delta 0.1%..20%, then the limit/market rules); the messages' values; and the setEntrust bodies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketRules } from './order-form';
import {
  anyEntrustBody,
  anyFormMessage,
  bipsToPct,
  conditionSign,
  deriveStopType,
  executionType,
  orderFormType,
  pctToBips,
  typeTabOf,
  withExec,
  triggerCondition,
  validateAnyOrder,
  type ConditionalFormValues,
  type StopType,
} from './conditional-order';

const btc: MarketRules = {
  tokenCur: 'BTC',
  mainCur: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 5,
  tickSize: '0.01',
  stepSize: '0.00001',
  minQty: '0.00001',
  minNotional: '5',
};
const LAST = '60000.00';
const form = (f: Partial<ConditionalFormValues>): ConditionalFormValues => ({
  side: 'SELL',
  orderType: 'LIMIT',
  marketBuyBy: 'total',
  price: '',
  amount: '',
  total: '',
  formType: 'STOP_LIMIT',
  stopPrice: '',
  trailingPct: '',
  trailingExec: 'LIMIT',
  ...f,
});

describe('deriveStopType', () => {
  it('SELL: trigger below last is STOP_LOSS, above is TAKE_PROFIT', () => {
    expect(deriveStopType('SELL', '59000', LAST)).toBe('STOP_LOSS');
    expect(deriveStopType('SELL', '61000', LAST)).toBe('TAKE_PROFIT');
  });
  it('BUY mirrors: above last is STOP_LOSS, below is TAKE_PROFIT', () => {
    expect(deriveStopType('BUY', '61000', LAST)).toBe('STOP_LOSS');
    expect(deriveStopType('BUY', '59000', LAST)).toBe('TAKE_PROFIT');
  });
  it('equal to last (any number of zeros) would trigger at once: null', () => {
    expect(deriveStopType('SELL', '60000', LAST)).toBeNull();
    expect(deriveStopType('BUY', '60000.0', LAST)).toBeNull();
  });
  it('no trigger price (trailing without activation) or no last price: STOP_LOSS', () => {
    expect(deriveStopType('SELL', '', LAST)).toBe('STOP_LOSS');
    expect(deriveStopType('BUY', '59000', '')).toBe('STOP_LOSS');
    expect(deriveStopType('BUY', '59000', '0')).toBe('STOP_LOSS');
  });
  it('compares exactly, one tick apart', () => {
    expect(deriveStopType('SELL', '59999.99', LAST)).toBe('STOP_LOSS');
    expect(deriveStopType('SELL', '60000.01', LAST)).toBe('TAKE_PROFIT');
  });
});

describe('triggerCondition', () => {
  it('is the engine table: SELL STOP_LOSS <=, SELL TAKE_PROFIT >=, BUY STOP_LOSS >=, BUY TAKE_PROFIT <=', () => {
    expect(triggerCondition('STOP_LOSS', 'SELL')).toBe('<=');
    expect(triggerCondition('TAKE_PROFIT', 'SELL')).toBe('>=');
    expect(triggerCondition('STOP_LOSS', 'BUY')).toBe('>=');
    expect(triggerCondition('TAKE_PROFIT', 'BUY')).toBe('<=');
    expect(conditionSign('STOP_LOSS', 'SELL')).toBe('≤');
    expect(conditionSign('STOP_LOSS', 'BUY')).toBe('≥');
  });

  // The engine's trigger table (docs/conditional-orders.md "Trigger conditions"), on integer ticks.
  const engineTriggers = (kind: StopType, side: 'BUY' | 'SELL', last: bigint, stop: bigint) => {
    if (kind === 'STOP_LOSS') return side === 'SELL' ? last <= stop : last >= stop;
    return side === 'SELL' ? last >= stop : last <= stop;
  };
  const ticks = (u: bigint) => `${u / 100n}.${(u % 100n).toString().padStart(2, '0')}`;

  it('property: the derived kind never triggers at the placing price and always triggers at its trigger price', () => {
    fc.assert(
      fc.property(fc.constantFrom('BUY' as const, 'SELL' as const), fc.bigInt(1n, 10n ** 10n), fc.bigInt(1n, 10n ** 10n), (side, last, stop) => {
        const kind = deriveStopType(side, ticks(stop), ticks(last));
        if (last === stop) return kind === null;
        if (kind === null) return false;
        // The condition shown to the user is the one the engine applies.
        const shownHolds = (p: bigint) => (triggerCondition(kind, side) === '<=' ? p <= stop : p >= stop);
        return (
          !engineTriggers(kind, side, last, stop) &&
          engineTriggers(kind, side, stop, stop) &&
          shownHolds(stop) === engineTriggers(kind, side, stop, stop) &&
          shownHolds(last) === engineTriggers(kind, side, last, stop)
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('trailing delta', () => {
  it('percent -> BIPS exactly, at most two decimals', () => {
    expect(pctToBips('1.5')).toBe('150');
    expect(pctToBips('0.1')).toBe('10');
    expect(pctToBips('20')).toBe('2000');
    expect(pctToBips('0.01')).toBe('1');
    expect(pctToBips('1.555')).toBeNull();
    expect(pctToBips('1.')).toBeNull();
    expect(pctToBips('')).toBeNull();
  });
  it('BIPS -> percent without trailing zeros', () => {
    expect(bipsToPct(150)).toBe('1.5');
    expect(bipsToPct(2000)).toBe('20');
    expect(bipsToPct(10)).toBe('0.1');
    expect(bipsToPct(1)).toBe('0.01');
  });
  it('property: pctToBips(bipsToPct(b)) === b', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000 }), (b) => pctToBips(bipsToPct(b)) === String(b)));
  });
});

describe('validateAnyOrder', () => {
  const v = (f: Partial<ConditionalFormValues>, available = '1', last = LAST) => validateAnyOrder(form(f), btc, available, last);
  it('stop-limit needs a trigger price on the tick, not at the last price, then the limit rules', () => {
    expect(v({ price: '58900', amount: '0.01' })).toBe('stop_price_required');
    expect(v({ stopPrice: '0', price: '58900', amount: '0.01' })).toBe('stop_price_required');
    expect(v({ stopPrice: '59000.001', price: '58900', amount: '0.01' })).toBe('stop_price_not_on_tick');
    expect(v({ stopPrice: '60000', price: '58900', amount: '0.01' })).toBe('would_trigger_immediately');
    expect(v({ stopPrice: '59000', amount: '0.01' })).toBe('price_required');
    expect(v({ stopPrice: '59000', price: '58900', amount: '' })).toBe('quantity_required');
    expect(v({ stopPrice: '59000', price: '58900', amount: '0.000001' })).toBe('quantity_not_on_step');
    expect(v({ stopPrice: '59000', price: '58900', amount: '2' })).toBe('insufficient_balance');
    expect(v({ stopPrice: '59000', price: '58900', amount: '0.01' })).toBeNull();
    // A take-profit SELL (trigger above the last price) is as valid.
    expect(v({ stopPrice: '61000', price: '61000', amount: '0.01' })).toBeNull();
  });
  it('stop-market: trigger and amount (no limit price); a BUY may give a total, checked against the minimum and balance', () => {
    expect(v({ formType: 'STOP_MARKET', stopPrice: '59000', amount: '0.01' })).toBeNull();
    expect(v({ formType: 'STOP_MARKET', side: 'BUY', marketBuyBy: 'total', stopPrice: '61000', total: '4' }, '1000')).toBe('notional_below_minimum');
    expect(v({ formType: 'STOP_MARKET', side: 'BUY', marketBuyBy: 'total', stopPrice: '61000', total: '1001' }, '1000')).toBe('insufficient_balance');
    expect(v({ formType: 'STOP_MARKET', side: 'BUY', marketBuyBy: 'total', stopPrice: '61000', total: '100' }, '1000')).toBeNull();
    // By amount: held at the last price as the engine does (0.02 x 60000 = 1200 > 1000).
    expect(v({ formType: 'STOP_MARKET', side: 'BUY', marketBuyBy: 'amount', stopPrice: '61000', amount: '0.02' }, '1000')).toBe('insufficient_balance');
    expect(v({ formType: 'STOP_MARKET', side: 'BUY', marketBuyBy: 'amount', stopPrice: '61000', amount: '0.01' }, '1000')).toBeNull();
  });
  it('trailing stop: delta 0.1%..20% in steps of 0.01%, activation price optional', () => {
    const tr = (f: Partial<ConditionalFormValues>) => v({ formType: 'TRAILING', trailingExec: 'MARKET', amount: '0.01', ...f });
    expect(tr({})).toBe('trailing_delta_required');
    expect(tr({ trailingPct: '0' })).toBe('trailing_delta_required');
    expect(tr({ trailingPct: '0.09' })).toBe('trailing_delta_out_of_range');
    expect(tr({ trailingPct: '20.01' })).toBe('trailing_delta_out_of_range');
    expect(tr({ trailingPct: '1.005' })).toBe('trailing_delta_not_on_step');
    expect(tr({ trailingPct: '0.1' })).toBeNull();
    expect(tr({ trailingPct: '20' })).toBeNull();
    expect(tr({ trailingPct: '1', stopPrice: '60000' })).toBe('would_trigger_immediately');
    expect(tr({ trailingPct: '1', stopPrice: '62000' })).toBeNull();
    expect(tr({ trailingPct: '1', trailingExec: 'LIMIT' })).toBe('price_required');
    expect(tr({ trailingPct: '1', trailingExec: 'LIMIT', price: '59000' })).toBeNull();
  });
  it('plain limit and market orders keep their rules', () => {
    expect(v({ formType: 'LIMIT', stopPrice: '60000', price: '61000', amount: '0.01' })).toBeNull();
    expect(v({ formType: 'MARKET', amount: '0.01' })).toBeNull();
  });
});

describe('messages', () => {
  it('name the tick of a trigger price and the delta bounds', () => {
    expect(anyFormMessage('stop_price_not_on_tick', btc)).toEqual({ key: 'err.stop_price_not_on_tick', values: { step: '0.01', coin: 'USDT' } });
    expect(anyFormMessage('trailing_delta_out_of_range', btc)).toEqual({ key: 'err.trailing_delta_out_of_range', values: { min: '0.1', max: '20' } });
    expect(anyFormMessage('notional_below_minimum', btc)).toEqual({ key: 'err.notional_below_minimum', values: { min: '5', coin: 'USDT' } });
  });
});

describe('anyEntrustBody', () => {
  it('stop-limit SELL below the last price: STOP_LOSS_LIMIT', () => {
    expect(anyEntrustBody('BTC/USDT', form({ stopPrice: '59000', price: '58900', amount: '0.01' }), LAST, 'c1')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      clientOrderId: 'c1',
      price: '58900',
      amount: '0.01',
      timeInForce: 'GTC',
      stopType: 'STOP_LOSS',
      stopPrice: '59000',
    });
  });
  it('stop-market BUY by total below the last price: TAKE_PROFIT', () => {
    expect(anyEntrustBody('BTC/USDT', form({ formType: 'STOP_MARKET', side: 'BUY', stopPrice: '59000', total: '100' }), LAST, 'c2')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'BUY',
      orderType: 'MARKET',
      clientOrderId: 'c2',
      total: '100',
      stopType: 'TAKE_PROFIT',
      stopPrice: '59000',
    });
  });
  it('trailing SELL at market without activation: STOP_LOSS with trailingDelta in BIPS, no stopPrice', () => {
    expect(anyEntrustBody('BTC/USDT', form({ formType: 'TRAILING', trailingExec: 'MARKET', trailingPct: '1.5', amount: '0.01' }), LAST, 'c3')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'SELL',
      orderType: 'MARKET',
      clientOrderId: 'c3',
      amount: '0.01',
      stopType: 'STOP_LOSS',
      trailingDelta: '150',
    });
  });
  it('a plain limit order carries no conditional field', () => {
    const b = anyEntrustBody('BTC/USDT', form({ formType: 'LIMIT', stopPrice: '59000', price: '58900', amount: '0.01' }), LAST, 'c4');
    expect(b).not.toHaveProperty('stopType');
    expect(b).not.toHaveProperty('stopPrice');
  });
});

describe('orderFormType and executionType', () => {
  it('name an order by its fields', () => {
    expect(orderFormType({ stopType: '', trailingDelta: 0, orderType: 'LIMIT' })).toBe('LIMIT');
    expect(orderFormType({ stopType: 'STOP_LOSS', trailingDelta: 0, orderType: 'LIMIT' })).toBe('STOP_LIMIT');
    expect(orderFormType({ stopType: 'TAKE_PROFIT', trailingDelta: 0, orderType: 'MARKET' })).toBe('STOP_MARKET');
    expect(orderFormType({ stopType: 'STOP_LOSS', trailingDelta: 150, orderType: 'LIMIT' })).toBe('TRAILING');
    expect(executionType('TRAILING', 'MARKET')).toBe('MARKET');
    expect(executionType('STOP_LIMIT', 'MARKET')).toBe('LIMIT');
  });
});

describe('type tabs', () => {
  it('stop-limit and stop-market share the Stop tab; the toggle switches a stop between them and a trailing stop its execution', () => {
    expect(typeTabOf('STOP_LIMIT')).toBe('STOP');
    expect(typeTabOf('STOP_MARKET')).toBe('STOP');
    expect(typeTabOf('TRAILING')).toBe('TRAILING');
    expect(typeTabOf('MARKET')).toBe('MARKET');
    expect(withExec('STOP_LIMIT', 'LIMIT', 'MARKET')).toEqual({ formType: 'STOP_MARKET', trailingExec: 'LIMIT' });
    expect(withExec('STOP_MARKET', 'LIMIT', 'LIMIT')).toEqual({ formType: 'STOP_LIMIT', trailingExec: 'LIMIT' });
    expect(withExec('TRAILING', 'LIMIT', 'MARKET')).toEqual({ formType: 'TRAILING', trailingExec: 'MARKET' });
    expect(withExec('LIMIT', 'LIMIT', 'MARKET')).toEqual({ formType: 'LIMIT', trailingExec: 'LIMIT' });
  });
});
