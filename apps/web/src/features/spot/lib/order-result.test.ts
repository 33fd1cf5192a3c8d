// Proves which answers of setEntrust are shown as a fill at once and the outcome and remainder of
// each: filled; partly filled with the rest open (limit) or expired (market by amount, market buy by total, in the
// quote coin); nothing filled and expired; a resting limit order and an answer without a status are not.
import { describe, expect, it } from 'vitest';
import type { Entrust } from '@exchange/api';
import { orderResult } from './order-result';
import { NO_TRIGGER } from './conditional-order';

const base: Entrust = {
  id: '1',
  clientOrderId: '',
  pairsName: 'BTC/USDT',
  side: 'BUY',
  orderType: 'MARKET',
  timeInForce: 'IOC',
  price: '',
  amount: '0.50000',
  total: '',
  dealAmount: '0.00000',
  dealTotal: '0.00000000',
  avgPrice: '',
  fee: '0',
  feeCur: 'BTC',
  status: 'NEW',
  createTime: 0,
  updateTime: 0,
  ...NO_TRIGGER,
};

describe('orderResult', () => {
  it('shows a filled market order without a remainder', () => {
    expect(orderResult({ ...base, status: 'FILLED', dealAmount: '0.50000', dealTotal: '50000.00000000' })).toEqual({
      outcome: 'filled',
      remaining: '',
      remainingCur: 'BTC',
    });
  });

  it('shows the unfilled rest of a market order by amount as expired, in the base coin', () => {
    expect(orderResult({ ...base, status: 'EXPIRED', dealAmount: '0.12345', dealTotal: '12345.00000000' })).toEqual({
      outcome: 'partial_expired',
      remaining: '0.37655',
      remainingCur: 'BTC',
    });
  });

  it('shows the unspent rest of a market buy by total in the quote coin', () => {
    const order = { ...base, amount: '', total: '1000.00000000', status: 'EXPIRED', dealAmount: '0.00900', dealTotal: '900.50000000' };
    expect(orderResult(order)).toEqual({ outcome: 'partial_expired', remaining: '99.50000000', remainingCur: 'USDT' });
  });

  it('shows a limit order filled in part with the rest open on the book', () => {
    const order = { ...base, orderType: 'LIMIT' as const, price: '100000.00', amount: '1.00000', status: 'PARTIALLY_FILLED', dealAmount: '0.25000' };
    expect(orderResult(order)).toEqual({ outcome: 'partial_open', remaining: '0.75000', remainingCur: 'BTC' });
  });

  it('shows a market order that filled nothing as expired with all of it left', () => {
    expect(orderResult({ ...base, status: 'EXPIRED' })).toEqual({ outcome: 'expired', remaining: '0.50000', remainingCur: 'BTC' });
  });

  it('has nothing to show for a limit order resting without a fill, or an answer without a status', () => {
    expect(orderResult({ ...base, orderType: 'LIMIT', price: '1.00', status: 'NEW' })).toBeNull();
    expect(orderResult({})).toBeNull();
  });
});
