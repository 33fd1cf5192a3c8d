/**
 * The fixed-term savings part of the projection: rows of the earnLockChanged events for the earn_locks
 * table (platform/db/schema/earn.ts), buffered by the projector (projector.ts) and written in its batches
 * (projection-store.ts). Each event carries the lock after the change, so a row is the lock's last state: upserted by
 * id, never an older state over a newer one (`seq`). Product changes (earnProductChanged) have no table (products are
 * read from the engine); an operator's change carries its audit record, which the projector writes to the audit log.
 */
import type { EarnLockView, EngineEvent } from '@exchange/core';
import type { EarnLockRow } from '../db/projection-types';

const s = (v: bigint | null) => (v === null ? null : v.toString());

/** The earn_locks row of a lock state at journal position `seq`. */
export function earnLockRow(l: EarnLockView, seq: number): EarnLockRow {
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
    returned: s(l.returned),
    forfeited: s(l.forfeited),
    updatedTs: l.updatedTs,
    seq,
  };
}

/** Buffer of the earn rows between two writes of the projector (last state per lock). */
export class EarnBuffer {
  locks = new Map<string, EarnLockRow>();

  /** Buffers the row of one event of command `seq`; returns how many rows it added (0 for other events). */
  push(seq: number, ev: EngineEvent): number {
    if (ev.type !== 'earnLockChanged') return 0;
    this.locks.set(ev.lock.lockId, earnLockRow(ev.lock, seq));
    return 1;
  }

  /** Takes the buffered rows (undefined when empty) and empties the buffer. */
  take(): EarnLockRow[] | undefined {
    const rows = [...this.locks.values()];
    this.locks = new Map();
    return rows.length === 0 ? undefined : rows;
  }

  /** Puts rows that failed to write back under anything newer buffered meanwhile; returns their count. */
  restore(rows: EarnLockRow[] | undefined): number {
    if (rows === undefined) return 0;
    for (const r of rows) if (!this.locks.has(String(r.id))) this.locks.set(String(r.id), r);
    return rows.length;
  }
}
