/**
 * Tables of the invitation rebates (domains/invite, rules in packages/core src/rebate/types.ts).
 * rebate_payouts is the projection of the engine's rebatePaid events (domains/invite/invite.projection.ts, written by the
 * projector in its batches): one row per invitee and settled rebate day, inserted once, rebuilt by replaying the
 * journal. Amounts are integers in the asset's smallest unit (USDT: 10^-8), `numeric(40,0)`, never float.
 */
import { bigint, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** One invitee's rebate of one settled day (rebatePaid). */
export const rebatePayouts = pgTable(
  'rebate_payouts',
  {
    /** the rebate day: whole days since 1970-01-01 in Asia/Shanghai (packages/core rebateDay) */
    day: integer('day').notNull(),
    inviteeId: bigint('invitee_id', { mode: 'bigint' }).notNull(),
    inviterId: bigint('inviter_id', { mode: 'bigint' }).notNull(),
    asset: text('asset').notNull(),
    /** the invitee's contract fees of the day */
    fee: units('fee').notNull(),
    /** floor(fee x 30%) */
    rebate: units('rebate').notNull(),
    /** paid to the inviter: the rebate, or 0 when the inviter was below the threshold */
    paid: units('paid').notNull(),
    /** Unix ms of the settlement */
    ts: bigint('ts', { mode: 'number' }).notNull(),
    /** journal position of the settlement */
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.inviteeId] }), index('rebate_payouts_inviter_idx').on(t.inviterId, t.day), index('rebate_payouts_day_idx').on(t.day)],
);
