/**
 * Which pushes refresh the conditional orders' lists (get-conditional.ts): a 'contractOrders' push with `conditional`
 * (a conditional order's change), not a plain order's push nor another channel's; and the poll behind them is slow.
 */
import { describe, expect, it } from 'vitest';
import type { ContractOrder } from '@exchange/api';
import type { WsDelivered } from '../../../shared/ws-client';
import { CONDITIONAL_POLL_MS, isConditionalPush } from './get-conditional';

const order = { orderId: '7', status: 'NEW', symbol: 'BTC/USDT' } as unknown as ContractOrder;

describe('conditional pushes', () => {
  it('are the contract orders pushes that carry `conditional`', () => {
    const conditional = { channel: 'contractOrders', data: order, conditional: { orderId: '7', symbol: 'BTC/USDT', state: 'PENDING' } } as WsDelivered;
    expect(isConditionalPush(conditional)).toBe(true);
    expect(isConditionalPush({ channel: 'contractOrders', data: order } as WsDelivered)).toBe(false);
    expect(isConditionalPush({ channel: 'inbox' })).toBe(false);
    expect(CONDITIONAL_POLL_MS).toBeGreaterThanOrEqual(30_000);
  });
});
