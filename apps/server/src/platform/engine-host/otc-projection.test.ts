/**
 * Unit test of the OTC projection buffer (otc-projection.ts): the last state per key wins within a batch, other events
 * add nothing, take empties the buffer, and a failed batch put back never overwrites a newer buffered state.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, OtcOrderView } from '@exchange/core';
import { OtcBuffer, otcOrderRow } from './otc-projection';

const order = (state: OtcOrderView['state'], ts: number): OtcOrderView => ({
  orderId: '7',
  clientId: 'c',
  adId: '3',
  makerId: '1',
  takerId: '2',
  buyerId: '2',
  sellerId: '1',
  asset: 'USDT',
  fiat: 'CNY',
  price: 720n,
  quantity: 100n * 100_000_000n,
  fiatAmount: 72_000n,
  state,
  createdTs: 1,
  deadlineTs: 900_001,
  paidTs: state === 'PENDING_PAYMENT' ? null : 5,
  appealBy: null,
  appealTs: null,
  endReason: state === 'COMPLETED' ? 'RELEASED' : null,
  resolvedBy: null,
  reason: null,
  meta: { sellerPm: '9' },
  updatedTs: ts,
});
const ev = (o: OtcOrderView): EngineEvent => ({ type: 'otcOrderChanged', ts: o.updatedTs, order: o });

describe('OtcBuffer', () => {
  it('keeps the last state of an order, ignores other events, empties on take', () => {
    const b = new OtcBuffer();
    expect(b.push(1, ev(order('PENDING_PAYMENT', 1)))).toBe(1);
    expect(b.push(2, ev(order('PAID', 5)))).toBe(1);
    expect(b.push(3, { type: 'otcConfigured', ts: 1, config: { asset: 'USDT', fiat: 'CNY', merchantDeposit: 1n, appealAfterMs: 1, cancelLimit: 3 } })).toBe(0);
    const batch = b.take()!;
    expect(batch.orders).toEqual([otcOrderRow(order('PAID', 5), 2)]);
    expect(batch.orders[0]).toMatchObject({ id: 7n, adId: 3n, price: '720', quantity: '10000000000', fiatAmount: '72000', meta: '{"sellerPm":"9"}', seq: 2 });
    expect(b.take()).toBeUndefined();
  });

  it('puts a failed batch back under a newer state', () => {
    const b = new OtcBuffer();
    b.push(2, ev(order('PAID', 5)));
    const failed = b.take();
    b.push(3, ev(order('COMPLETED', 9)));
    expect(b.restore(failed)).toBe(1);
    expect(b.take()!.orders.map((r) => [r.state, r.seq])).toEqual([['COMPLETED', 3]]);
  });
});
