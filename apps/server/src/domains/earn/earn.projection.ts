/**
 * The fixed-term savings' projection (platform/engine-host/projection.ts): rows of the earnLockChanged events for the
 * earn_locks table (earn.tables.ts). Each event carries the lock after the change, so a row is the lock's
 * last state: upserted by id, never an older state over a newer one (`seq`). Product changes (earnProductChanged) have
 * no table (products are read from the engine); an operator's change carries its audit record, written to the audit
 * log in the same batch.
 */
import type { EarnLockView } from '@exchange/core/earn';
import { projectedTable } from '../../platform/db/projection-types';
import { earnLocks } from './earn.tables';
import { AUDIT_TABLE, auditRow, decimalOrNull, type DomainProjection } from '../../platform/engine-host/projection';

export const EARN_LOCKS_TABLE = projectedTable(earnLocks, {
  key: ['id'],
  mode: 'upsert',
  set: ['daysPaid', 'interestPaid', 'status', 'redeemKind', 'redeemedTs', 'returned', 'forfeited', 'updatedTs', 'seq'],
  newer: { field: 'seq' },
});

/** The earn_locks row of a lock state at journal position `seq`. */
export function earnLockRow(l: EarnLockView, seq: number): typeof earnLocks.$inferInsert {
  return {
    id: BigInt(l.lockId),
    productId: l.productId,
    userId: l.userId,
    clientId: l.clientId,
    asset: l.asset,
    amount: l.amount.toString(),
    aprPpm: l.aprPpm,
    termDays: l.termDays,
    earlyRedeem: l.earlyRedeem,
    startTs: l.startTs,
    endTs: l.endTs,
    daysPaid: l.daysPaid,
    interestPaid: l.interestPaid.toString(),
    status: l.status,
    redeemKind: l.redeemKind,
    redeemedTs: l.redeemedTs,
    returned: decimalOrNull(l.returned),
    forfeited: decimalOrNull(l.forfeited),
    updatedTs: l.updatedTs,
    seq,
  };
}

export const earnProjection: DomainProjection = {
  tables: [EARN_LOCKS_TABLE, AUDIT_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) {
      if (ev.type === 'earnLockChanged') out.put(EARN_LOCKS_TABLE, earnLockRow(ev.lock, seq));
      else if (ev.type === 'earnProductChanged' && ev.audit !== undefined) out.put(AUDIT_TABLE, auditRow('', ev.audit, seq, ev.ts));
    }
  },
};
