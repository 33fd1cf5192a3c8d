// Proves the spot order-form rules with exact string values: input sanitising, tick/step stepping
// and rounding, percent -> amount/total for every side and type, the estimated total, validation in
// the server's precedence including the insufficient-balance message, the messages naming the
// market's minimum order value, minimum amount and step (0.000001 BTC is "Amount must be a
// multiple of 0.00001 BTC", not a silent zero), the field each shows under, the grouped inputs'
// separators and caret, and the setEntrust body.
import { describe, expect, it } from 'vitest';
import {
  caretAfter,
  CLIENT_ORDER_ID_RE,
  entrustBody,
  errorField,
  estimatedTotal,
  floorToStep,
  INPUT_DECIMALS,
  isOnStep,
  newClientOrderId,
  orderFormMessage,
  percentToForm,
  sanitizeDecimalInput,
  stepBy,
  ungroupTyped,
  validateOrder,
  type MarketRules,
  type OrderFormValues,
} from './order-form';

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
const form = (f: Partial<OrderFormValues>): OrderFormValues => ({
  side: 'BUY',
  orderType: 'LIMIT',
  marketBuyBy: 'total',
  price: '',
  amount: '',
  total: '',
  ...f,
});

describe('sanitizeDecimalInput', () => {
  it('keeps digits and one dot, truncates to the precision', () => {
    expect(sanitizeDecimalInput('01.2345', 2)).toBe('1.23');
    expect(sanitizeDecimalInput('.5', 2)).toBe('0.5');
    expect(sanitizeDecimalInput('3.', 2)).toBe('3.');
    expect(sanitizeDecimalInput('1.2.3', 5)).toBe('1.23');
    expect(sanitizeDecimalInput('1,5', 2)).toBe('1.5');
    expect(sanitizeDecimalInput('1.9', 0)).toBe('1');
    expect(sanitizeDecimalInput('-a12b', 2)).toBe('12');
    expect(sanitizeDecimalInput('000', 2)).toBe('0');
  });
});

describe('steps', () => {
  it('floors to a step and checks multiples exactly', () => {
    expect(floorToStep('1.23456', '0.001')).toBe('1.234');
    expect(floorToStep('0.000019', '0.00001')).toBe('0.00001');
    expect(floorToStep('105', '5')).toBe('105');
    expect(floorToStep('107.9', '5')).toBe('105');
    expect(isOnStep('100.10', '0.01')).toBe(true);
    expect(isOnStep('100.105', '0.01')).toBe(false);
    expect(isOnStep('0.3', '0.1')).toBe(true);
  });
  it('steps up and down by tick, aligning first, never below zero', () => {
    expect(stepBy('10.05', '0.1', 1)).toBe('10.1');
    expect(stepBy('10.05', '0.1', -1)).toBe('10.0');
    expect(stepBy('10.1', '0.1', -1)).toBe('10.0');
    expect(stepBy('64000.99', '0.01', 1)).toBe('64001.00');
    expect(stepBy('0', '0.01', -1)).toBe('0.00');
    expect(stepBy('', '0.00001', 1)).toBe('0.00001');
    expect(stepBy('', '0.00001', -1)).toBe('');
  });
});

describe('percentToForm', () => {
  it('SELL: share of the base balance, down to the step', () => {
    expect(percentToForm({ form: form({ side: 'SELL' }), rules: btc, available: '0.123456789', lastPrice: '60000', percent: 50 })).toEqual({
      amount: '0.06172',
    });
    expect(percentToForm({ form: form({ side: 'SELL' }), rules: btc, available: '0.5', lastPrice: '', percent: 100 })).toEqual({ amount: '0.50000' });
  });
  it('BUY LIMIT: share of the quote balance divided by the price', () => {
    expect(percentToForm({ form: form({ price: '60000' }), rules: btc, available: '10000', lastPrice: '1', percent: 25 })).toEqual({ amount: '0.04166' });
    expect(percentToForm({ form: form({ price: '' }), rules: btc, available: '10000', lastPrice: '1', percent: 25 })).toEqual({ amount: '' });
  });
  it('BUY MARKET by total and by amount', () => {
    expect(percentToForm({ form: form({ orderType: 'MARKET' }), rules: btc, available: '10000.999', lastPrice: '60000', percent: 75 })).toEqual({
      total: '7500.74',
    });
    expect(
      percentToForm({ form: form({ orderType: 'MARKET', marketBuyBy: 'amount' }), rules: btc, available: '10000', lastPrice: '60000', percent: 100 }),
    ).toEqual({ amount: '0.16666' });
    expect(percentToForm({ form: form({ orderType: 'MARKET', marketBuyBy: 'amount' }), rules: btc, available: '10000', lastPrice: '0', percent: 100 })).toEqual(
      { amount: '' },
    );
  });
  it('0 % gives zero', () => {
    expect(percentToForm({ form: form({ side: 'SELL' }), rules: btc, available: '1', lastPrice: '', percent: 0 })).toEqual({ amount: '0.00000' });
  });
});

describe('estimatedTotal', () => {
  it('price x amount for limits (rounded up at the price precision), last price for market, total for buy-by-total', () => {
    expect(estimatedTotal(form({ price: '60000.01', amount: '0.00003' }), btc, '')).toBe('1.81');
    expect(estimatedTotal(form({ side: 'SELL', orderType: 'MARKET', amount: '0.5' }), btc, '60000')).toBe('30000.00');
    expect(estimatedTotal(form({ orderType: 'MARKET', total: '100' }), btc, '60000')).toBe('100.00');
    expect(estimatedTotal(form({ price: '60000', amount: '' }), btc, '')).toBe('');
  });
});

describe('validateOrder', () => {
  it('follows the precedence price, decimals, tick, amount, step, minimums', () => {
    expect(validateOrder(form({ amount: '1' }), btc, '1000000', '')).toBe('price_required');
    expect(validateOrder(form({ price: '100.123', amount: '1' }), btc, '1000000', '')).toBe('price_not_on_tick');
    expect(validateOrder(form({ price: '100', amount: '' }), btc, '1000000', '')).toBe('quantity_required');
    expect(validateOrder(form({ price: '100', amount: '1.000001' }), btc, '1000000', '')).toBe('quantity_not_on_step');
    expect(validateOrder(form({ price: '100', amount: '0.000001' }), btc, '1000000', '')).toBe('quantity_not_on_step');
    expect(validateOrder(form({ price: '100', amount: '0.00000' }), btc, '1000000', '')).toBe('quantity_required');
    expect(validateOrder(form({ orderType: 'MARKET', total: '10.001' }), btc, '1000000', '60000')).toBe('total_not_on_step');
    expect(validateOrder(form({ price: '100', amount: '0.01' }), { ...btc, minNotional: '5' }, '1000000', '')).toBe('notional_below_minimum');
    expect(validateOrder(form({ price: '100', amount: '0.001' }), { ...btc, minQty: '0.01' }, '1000000', '')).toBe('quantity_below_minimum');
    expect(validateOrder(form({ price: '100.05', amount: '1' }), { ...btc, tickSize: '0.1', priceDecimals: 2 }, '1000000', '')).toBe('price_not_on_tick');
    expect(validateOrder(form({ price: '100', amount: '1.5' }), { ...btc, stepSize: '1', qtyDecimals: 1 }, '1000000', '')).toBe('quantity_not_on_step');
  });
  it('refuses an order above the available balance before sending', () => {
    expect(validateOrder(form({ price: '60000', amount: '0.2' }), btc, '11999.99', '')).toBe('insufficient_balance');
    expect(validateOrder(form({ price: '60000', amount: '0.2' }), btc, '12000', '')).toBeNull();
    expect(validateOrder(form({ side: 'SELL', price: '70000', amount: '0.5' }), btc, '0.49999', '')).toBe('insufficient_balance');
    expect(validateOrder(form({ orderType: 'MARKET', total: '10000.01' }), btc, '10000', '60000')).toBe('insufficient_balance');
    expect(validateOrder(form({ orderType: 'MARKET', total: '10000' }), btc, '10000', '60000')).toBeNull();
    expect(validateOrder(form({ orderType: 'MARKET', total: '4.99' }), btc, '10000', '60000')).toBe('notional_below_minimum');
    expect(validateOrder(form({ orderType: 'MARKET', total: '' }), btc, '10000', '60000')).toBe('total_required');
    expect(validateOrder(form({ orderType: 'MARKET', marketBuyBy: 'amount', amount: '1' }), btc, '10000', '60000')).toBe('insufficient_balance');
    expect(validateOrder(form({ side: 'SELL', orderType: 'MARKET', amount: '0.1' }), btc, '0.1', '')).toBeNull();
  });
});

describe('messages of the form', () => {
  const en = (err: Parameters<typeof orderFormMessage>[0], rules = btc) => orderFormMessage(err, rules);
  it('name the market value to meet, as a person reads it', () => {
    expect(en('notional_below_minimum')).toEqual({ key: 'err.notional_below_minimum', values: { min: '5', coin: 'USDT' } });
    expect(en('notional_below_minimum', { ...btc, minNotional: '10000.00000000' })).toEqual({
      key: 'err.notional_below_minimum',
      values: { min: '10,000', coin: 'USDT' },
    });
    expect(en('quantity_not_on_step')).toEqual({ key: 'err.quantity_not_on_step', values: { step: '0.00001', coin: 'BTC' } });
    expect(en('quantity_below_minimum', { ...btc, minQty: '0.00010000' })).toEqual({
      key: 'err.quantity_below_minimum',
      values: { min: '0.0001', coin: 'BTC' },
    });
    expect(en('price_not_on_tick')).toEqual({ key: 'err.price_not_on_tick', values: { step: '0.01', coin: 'USDT' } });
    expect(en('total_not_on_step')).toEqual({ key: 'err.total_not_on_step', values: { step: '0.01', coin: 'USDT' } });
    expect(en('insufficient_balance')).toEqual({ key: 'err.insufficient_balance', values: {} });
  });
  it('go under the field they are about', () => {
    expect(errorField('price_not_on_tick', form({}))).toBe('price');
    expect(errorField('quantity_not_on_step', form({}))).toBe('amount');
    expect(errorField('notional_below_minimum', form({}))).toBe('amount');
    expect(errorField('notional_below_minimum', form({ orderType: 'MARKET' }))).toBe('total');
    expect(errorField('insufficient_balance', form({ orderType: 'MARKET', marketBuyBy: 'amount' }))).toBe('amount');
    expect(errorField('total_not_on_step', form({ orderType: 'MARKET' }))).toBe('total');
  });
  it('keep a too-fine value as typed instead of cutting it to zero', () => {
    expect(sanitizeDecimalInput('0.000001', INPUT_DECIMALS)).toBe('0.000001');
  });
});

describe('grouped inputs', () => {
  it('drop the separators of what was typed, and take a comma typed at the end as the decimal point', () => {
    expect(ungroupTyped('65,000.129', '65,000.12')).toBe('65000.129');
    expect(ungroupTyped('1,2345', '1,234')).toBe('12345');
    expect(ungroupTyped('12,345,', '12,345')).toBe('12345.');
    expect(ungroupTyped('12,345.5,', '12,345.5')).toBe('12345.5');
    expect(ungroupTyped('', '1,000')).toBe('');
  });
  it('place the caret after the same digit when separators move', () => {
    expect(caretAfter('65,000', 2)).toBe(2);
    expect(caretAfter('65,000', 3)).toBe(4);
    expect(caretAfter('65,000', 5)).toBe(6);
    expect(caretAfter('65,000', 0)).toBe(0);
    expect(caretAfter('1,234,567.8', 9)).toBe(11);
  });
});

describe('entrustBody and client ids', () => {
  it('sends only the fields of the order type', () => {
    expect(entrustBody('BTC/USDT', form({ price: '60000', amount: '0.1' }), 'abc')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      clientOrderId: 'abc',
      price: '60000',
      amount: '0.1',
      timeInForce: 'GTC',
    });
    expect(entrustBody('BTC/USDT', form({ orderType: 'MARKET', total: '100', amount: '9' }), 'x')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'BUY',
      orderType: 'MARKET',
      clientOrderId: 'x',
      total: '100',
    });
    expect(entrustBody('BTC/USDT', form({ side: 'SELL', orderType: 'MARKET', amount: '0.5', total: '1' }), 'y')).toEqual({
      pairsName: 'BTC/USDT',
      side: 'SELL',
      orderType: 'MARKET',
      clientOrderId: 'y',
      amount: '0.5',
    });
  });
  it('makes ids matching the server pattern', () => {
    const id = newClientOrderId();
    expect(id).toMatch(CLIENT_ORDER_ID_RE);
    expect(id).toHaveLength(36);
    expect(newClientOrderId(() => '1234-abcd')).toBe('1234-abcd');
    expect(newClientOrderId()).not.toBe(id);
  });
});
