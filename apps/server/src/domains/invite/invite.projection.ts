/**
 * The invitation rebates' projection (platform/engine-host/projection.ts): the rebate_payouts row of a rebatePaid
 * event (one invitee's settled rebate of one day), inserted once by (day, invitee). The rebatesSettled summary has no
 * table (the engine's last settled day is read from the engine).
 */
import type { RebateEvent } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { rebatePayouts } from './invite.tables';
import type { DomainProjection } from '../../platform/engine-host/projection';

export const REBATE_PAYOUTS_TABLE = projectedTable(rebatePayouts, { key: ['day', 'inviteeId'], mode: 'once' });

/** The rebate_payouts row of a rebatePaid event of command `seq`. */
export function rebatePayoutRow(ev: Extract<RebateEvent, { type: 'rebatePaid' }>, seq: number): typeof rebatePayouts.$inferInsert {
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

export const inviteProjection: DomainProjection = {
  tables: [REBATE_PAYOUTS_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) if (ev.type === 'rebatePaid') out.put(REBATE_PAYOUTS_TABLE, rebatePayoutRow(ev, seq));
  },
};
