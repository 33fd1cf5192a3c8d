/**
 * Unit test of the OTC projection (otc.projection.ts) in the projector's buffer: the last state per key wins within a
 * batch, other events add nothing, take empties the buffer, and a failed batch put back never overwrites a newer
 * buffered state.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, OtcOrderView } from '@exchange/core';
import { feedProjection } from '../../platform/engine-host/projection-test-support';
import { OTC_ORDERS_TABLE, otcOrderRow, otcProjection } from './otc.projection';

/** The projector's buffer fed by a fresh OTC projection, read as its orders. */
const buffer = () => feedProjection(otcProjection, OTC_ORDERS_TABLE);

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

describe('the OTC projection', () => {
  it('keeps the last state of an order, ignores other events, empties on take', () => {
    const b = buffer();
    expect(b.push(1, [ev(order('PENDING_PAYMENT', 1))])).toBe(1);
    expect(b.push(2, [ev(order('PAID', 5))])).toBe(1);
    expect(b.push(3, [{ type: 'otcConfigured', ts: 1, config: { asset: 'USDT', fiat: 'CNY', merchantDeposit: 1n, appealAfterMs: 1, cancelLimit: 3 } }])).toBe(
      0,
    );
    const orders = b.take();
    expect(orders).toEqual([otcOrderRow(order('PAID', 5), 2)]);
    expect(orders[0]).toMatchObject({ id: 7n, adId: 3n, price: '720', quantity: '10000000000', fiatAmount: '72000', meta: '{"sellerPm":"9"}', seq: 2 });
    expect(b.take()).toEqual([]);
  });

  it('puts a failed batch back under a newer state', () => {
    const b = buffer();
    b.push(2, [ev(order('PAID', 5))]);
    const failed = b.take();
    b.push(3, [ev(order('COMPLETED', 9))]);
    b.restore(failed);
    expect(b.take().map((r) => [r.state, r.seq])).toEqual([['COMPLETED', 3]]);
  });
});
