import { describe, expect, it } from 'vitest';
import type { ContractOrder, ContractOrderPage, ContractPosition } from '@exchange/api';
import { applyOrderPush, applyPositionPush, isClosedPosition } from './use-contract-live';

const pos = (symbol: string, quantity: string, lots = 1) => ({ symbol, quantity, lots }) as unknown as ContractPosition;
const order = (orderId: string, status: ContractOrder['status'], symbol = 'BTC/USDT') => ({ orderId, status, symbol }) as unknown as ContractOrder;
const page = (...records: ContractOrder[]): ContractOrderPage => ({ records, total: records.length, page: 1, pageSize: 20 });

describe('position pushes', () => {
  it('replace a position, add a new one in symbol order, remove a closed one', () => {
    const list = [pos('BTC/USDT', '0.1'), pos('SOL/USDT', '3')];
    expect(applyPositionPush(list, pos('BTC/USDT', '0.2', 2)).map((p) => [p.symbol, p.quantity])).toEqual([
      ['BTC/USDT', '0.2'],
      ['SOL/USDT', '3'],
    ]);
    expect(applyPositionPush(list, pos('ETH/USDT', '1')).map((p) => p.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT']);
    expect(applyPositionPush(list, pos('BTC/USDT', '0')).map((p) => p.symbol)).toEqual(['SOL/USDT']);
    expect(isClosedPosition({ quantity: '0.00000' })).toBe(true);
    expect(isClosedPosition({ quantity: '0.00001' })).toBe(false);
  });
});

describe('order pushes', () => {
  it('put a new open order on top, replace a partially filled one, drop an ended one', () => {
    const p = page(order('2', 'NEW'), order('1', 'NEW'));
    expect(applyOrderPush(p, order('3', 'NEW'), 'BTC/USDT').records.map((o) => o.orderId)).toEqual(['3', '2', '1']);
    expect(applyOrderPush(p, order('3', 'NEW'), 'BTC/USDT').total).toBe(3);
    expect(applyOrderPush(p, order('1', 'PARTIALLY_FILLED'), 'BTC/USDT').records[1]!.status).toBe('PARTIALLY_FILLED');
    const ended = applyOrderPush(p, order('2', 'FILLED'), 'BTC/USDT');
    expect(ended.records.map((o) => o.orderId)).toEqual(['1']);
    expect(ended.total).toBe(1);
  });
  it('never add a conditional order that waits for its trigger; the order it became is added once triggered', () => {
    const p = page(order('1', 'NEW'));
    expect(applyOrderPush(p, order('7', 'NEW'), 'BTC/USDT', true)).toEqual(p);
    expect(applyOrderPush(p, order('7', 'NEW'), '', true).records.map((o) => o.orderId)).toEqual(['1']);
    expect(applyOrderPush(p, order('7', 'NEW'), 'BTC/USDT', false).records.map((o) => o.orderId)).toEqual(['7', '1']);
  });
  it('leave a list of another market alone', () => {
    const p = page(order('1', 'NEW'));
    expect(applyOrderPush(p, order('5', 'NEW', 'ETH/USDT'), 'BTC/USDT')).toEqual(p);
    expect(applyOrderPush(p, order('5', 'NEW', 'ETH/USDT'), '').records).toHaveLength(2);
  });
});
