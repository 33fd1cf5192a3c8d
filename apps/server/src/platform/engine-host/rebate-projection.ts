/**
 * The invitation rebates' part of the projection: the rebate_payouts row of a rebatePaid event (one
 * invitee's settled rebate of one day), buffered by the projector (projector.ts) and inserted once by (day, invitee)
 * in its batches (projection-store.ts). The rebatesSettled summary has no table (the engine's last settled day is
 * read from the engine).
 */
import type { RebateEvent } from '@exchange/core';
import type { RebatePayoutRow } from '../db/projection-types';

/** The rebate_payouts row of a rebatePaid event of command `seq`. */
export function rebatePayoutRow(ev: Extract<RebateEvent, { type: 'rebatePaid' }>, seq: number): RebatePayoutRow {
  return {
    day: ev.day,
    inviteeId: BigInt(ev.inviteeId),
    inviterId: BigInt(ev.inviterId),
    asset: ev.asset,
    fee: ev.fee.toString(),
    rebate: ev.rebate.toString(),
    paid: ev.paid.toString(),
    ts: ev.ts,
    seq,
  };
}
