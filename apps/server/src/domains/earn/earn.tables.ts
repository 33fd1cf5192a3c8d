/**
 * Tables of fixed-term savings (domains/earn).
 *
 * earn_locks is a projection of the engine's earnLockChanged events (domains/earn/earn.projection.ts, written by the
 * projector in its batches), rebuilt by replaying the journal: each row is the lock's last state (`seq`: the journal
 * position of the command that produced it; an older state never replaces a newer one). A REDEEMED row is also the
 * redemption record (/redeem_record). The products live in the engine (few, read from it); their changes are in the
 * audit log.
 *
 * Amounts are integers in engine units, `numeric(40,0)`, never float. Times are Unix ms.
 */
import { bigint, index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** Savings locks (EarnLockView), by lock id, every status. */
export const earnLocks = pgTable(
  'earn_locks',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    productId: text('product_id').notNull(),
    userId: text('user_id').notNull(),
    clientId: text('client_id').notNull(),
    asset: text('asset').notNull(),
    amount: units('amount').notNull(),
    aprPpm: integer('apr_ppm').notNull(),
    termDays: integer('term_days').notNull(),
    /** NOT_ALLOWED or FORFEIT_INTEREST */
    earlyRedeem: text('early_redeem').notNull(),
    startTs: bigint('start_ts', { mode: 'number' }).notNull(),
    endTs: bigint('end_ts', { mode: 'number' }).notNull(),
    daysPaid: integer('days_paid').notNull(),
    interestPaid: units('interest_paid').notNull(),
    /** LOCKED or REDEEMED */
    status: text('status').notNull(),
    /** MATURITY or EARLY once REDEEMED */
    redeemKind: text('redeem_kind'),
    redeemedTs: bigint('redeemed_ts', { mode: 'number' }),
    returned: units('returned'),
    forfeited: units('forfeited'),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('earn_locks_user_idx').on(t.userId, t.status, t.id)],
);
