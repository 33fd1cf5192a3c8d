// Proves how an order push changes the current-orders list: a new open order goes on top, an update
// replaces it in place, a filled or cancelled one leaves the list, and orders of other pairs are
// ignored by a pair-filtered list; and which pushes carry fills (the trade history refetches).
import { describe, expect, it } from 'vitest';
import type { Entrust, EntrustPage } from '@exchange/api';
import { applyOrderPush, hasFills } from './use-spot-live';
import { NO_TRIGGER } from '../lib/conditional-order';

const order = (id: string, status: string, pairsName = 'BTC/USDT'): Entrust => ({
  id,
  clientOrderId: '',
  pairsName,
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '100',
  amount: '1',
  total: '',
  dealAmount: '0',
  dealTotal: '0',
  avgPrice: '',
  fee: '0',
  feeCur: 'BTC',
  status,
  createTime: 1,
  updateTime: 1,
  ...NO_TRIGGER,
});
const page = (records: Entrust[]): EntrustPage => ({ records, total: records.length, page: 1, pageSize: 20 });

describe('applyOrderPush', () => {
  it('adds, replaces and removes', () => {
    const p1 = applyOrderPush(page([order('1', 'NEW')]), order('2', 'NEW'), 'BTC/USDT');
    expect(p1.records.map((o) => o.id)).toEqual(['2', '1']);
    expect(p1.total).toBe(2);
    const p2 = applyOrderPush(p1, { ...order('1', 'PARTIALLY_FILLED'), dealAmount: '0.5' }, 'BTC/USDT');
    expect(p2.records.map((o) => [o.id, o.status, o.dealAmount])).toEqual([
      ['2', 'NEW', '0'],
      ['1', 'PARTIALLY_FILLED', '0.5'],
    ]);
    const p3 = applyOrderPush(p2, order('2', 'CANCELED'), 'BTC/USDT');
    expect(p3.records.map((o) => o.id)).toEqual(['1']);
    expect(p3.total).toBe(1);
  });
  it('ignores other pairs in a filtered list but keeps them in an unfiltered one', () => {
    expect(applyOrderPush(page([]), order('3', 'NEW', 'ETH/USDT'), 'BTC/USDT').records).toEqual([]);
    expect(applyOrderPush(page([]), order('3', 'NEW', 'ETH/USDT'), '').records.map((o) => o.id)).toEqual(['3']);
  });
  it('tells a push with fills from one without', () => {
    expect(hasFills(order('1', 'NEW'))).toBe(false);
    expect(hasFills({ ...order('1', 'CANCELED'), dealAmount: '0.00000' })).toBe(false);
    expect(hasFills({ ...order('1', 'PARTIALLY_FILLED'), dealAmount: '0.00001' })).toBe(true);
  });
});
