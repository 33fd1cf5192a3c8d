// Unit test of the OCO form's rules (lib/oco-order): the price relation for each side against the last price (and,
// without a trade yet, limit against trigger), ticks, the balance a list holds (a BUY its larger leg), the body sent,
// and how open orders and history group the legs of a list and name its outcome.
import { describe, expect, it } from 'vitest';
import type { Entrust } from '@exchange/api';
import { NO_TRIGGER } from './conditional-order';
import { groupOrders, ocoEntrustBody, ocoOutcome, ocoSizingPrice, validateOco, type OcoFormValues } from './oco-order';
import type { MarketRules } from './order-form';

const rules: MarketRules = {
  tokenCur: 'ETH',
  mainCur: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 4,
  tickSize: '0.01',
  stepSize: '0.0001',
  minQty: '0.001',
  minNotional: '5',
};
const sell: OcoFormValues = { side: 'SELL', price: '110', stopPrice: '95', stopLimitPrice: '94', amount: '0.2' };
const buy: OcoFormValues = { side: 'BUY', price: '90', stopPrice: '105', stopLimitPrice: '106', amount: '1' };

describe('validateOco', () => {
  it('accepts a sell above/below the last price and a buy below/above it', () => {
    expect(validateOco(sell, rules, '1', '100')).toBeNull();
    expect(validateOco(buy, rules, '106', '100')).toBeNull();
  });

  it.each([
    [{ ...sell, price: '' }, 'price_required', 'price'],
    [{ ...sell, price: '110.001' }, 'price_not_on_tick', 'price'],
    [{ ...sell, stopPrice: '0' }, 'stop_price_required', 'stopPrice'],
    [{ ...sell, stopPrice: '95.005' }, 'stop_price_not_on_tick', 'stopPrice'],
    [{ ...sell, stopLimitPrice: '' }, 'stop_limit_price_required', 'stopLimitPrice'],
    [{ ...sell, stopLimitPrice: '94.001' }, 'price_not_on_tick', 'stopLimitPrice'],
    [{ ...sell, price: '100' }, 'oco_sell_prices', 'price'],
    [{ ...sell, stopPrice: '100' }, 'oco_sell_prices', 'price'],
    [{ ...buy, price: '100' }, 'oco_buy_prices', 'price'],
    [{ ...buy, stopPrice: '99' }, 'oco_buy_prices', 'price'],
    [{ ...sell, amount: '0.0005' }, 'quantity_below_minimum', 'amount'],
    [{ ...sell, amount: '0.05' }, 'notional_below_minimum', 'amount'],
    [{ ...sell, amount: '2' }, 'insufficient_balance', 'amount'],
  ] as const)('%j is refused: %s under %s', (form, error, field) => {
    expect(validateOco(form, rules, '1', '100')).toEqual({ error, field });
  });

  it('holds a buy at its larger leg: 106 x 1 does not fit 105.99 USDT though 90 x 1 would', () => {
    expect(validateOco(buy, rules, '105.99', '100')).toEqual({ error: 'insufficient_balance', field: 'amount' });
    expect(ocoSizingPrice(buy)).toBe('106');
    expect(ocoSizingPrice({ price: '90', stopLimitPrice: '' })).toBe('90');
  });

  it('without a trade yet checks the limit against the trigger only', () => {
    expect(validateOco({ ...sell, price: '200', stopPrice: '150' }, rules, '1', '0')).toBeNull();
    expect(validateOco({ ...sell, price: '150', stopPrice: '200' }, rules, '1', '')).toEqual({ error: 'oco_sell_prices', field: 'price' });
  });

  it('builds the setOcoEntrust body', () => {
    expect(ocoEntrustBody('ETH/USDT', sell, 'c1')).toEqual({
      pairsName: 'ETH/USDT',
      side: 'SELL',
      amount: '0.2',
      price: '110',
      stopPrice: '95',
      stopLimitPrice: '94',
      clientOrderId: 'c1',
    });
  });
});

const order = (id: string, extra: Partial<Entrust> = {}): Entrust => ({
  id,
  clientOrderId: '',
  pairsName: 'ETH/USDT',
  side: 'SELL',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '1',
  amount: '1',
  total: '',
  dealAmount: '0',
  dealTotal: '0',
  avgPrice: '',
  fee: '0',
  feeCur: 'USDT',
  status: 'NEW',
  createTime: 1,
  updateTime: 1,
  ...NO_TRIGGER,
  orderListId: '',
  listLeg: '',
  ...extra,
});

describe('groupOrders and ocoOutcome', () => {
  it('puts the legs of a list in one row at the first leg, the take-profit leg first; other orders stay as they are', () => {
    const rows = groupOrders([
      order('9'),
      order('8', { orderListId: '6', listLeg: 'STOP_LOSS' }),
      order('7', { orderListId: '6', listLeg: 'TAKE_PROFIT' }),
      order('5'),
    ]);
    expect(rows.map((r) => (r.kind === 'oco' ? `list ${r.orderListId}: ${r.legs.map((o) => o.id).join(',')}` : r.order.id))).toEqual(['9', 'list 6: 7,8', '5']);
  });

  it('names the outcome from the legs', () => {
    const tp = order('7', { orderListId: '6', listLeg: 'TAKE_PROFIT' });
    const sl = order('8', { orderListId: '6', listLeg: 'STOP_LOSS', stopType: 'STOP_LOSS', triggerState: 'PENDING' });
    expect(ocoOutcome([tp, sl])).toBe('EXECUTING');
    expect(
      ocoOutcome([
        { ...tp, status: 'PARTIALLY_FILLED', dealAmount: '0.5' },
        { ...sl, status: 'CANCELED' },
      ]),
    ).toBe('TAKE_PROFIT_FILLED');
    expect(
      ocoOutcome([
        { ...tp, status: 'CANCELED' },
        { ...sl, status: 'FILLED', triggerState: 'TRIGGERED' },
      ]),
    ).toBe('STOP_TRIGGERED');
    expect(
      ocoOutcome([
        { ...tp, status: 'CANCELED' },
        { ...sl, status: 'CANCELED' },
      ]),
    ).toBe('CANCELLED');
  });
});
