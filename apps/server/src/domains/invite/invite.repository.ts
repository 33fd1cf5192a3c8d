/**
 * SQL of the invitation and rebates (domains/invite): the caller's invitees (users.invited_by), the projected rebate
 * payouts (invite.tables.ts, written by the projector only) per invitee, per day, and the rankings. Sums of amounts
 * are numeric in PostgreSQL and travel as integer strings (never float).
 */
import { and, count, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { rebatePayouts } from './invite.tables';
import { users } from '../member/member.tables';

/** One invitee row: the account fields, registration time, the rebate paid on its fees (integer units). */
export interface InviteeRow {
  id: bigint;
  mail: string | null;
  phone: string | null;
  createdAt: Date;
  paid: string;
}

/** One settled day of an inviter: sums in integer units. */
export interface RebateDayRow {
  day: number;
  fee: string;
  rebate: string;
  paid: string;
  invitees: number;
  ts: number;
}

/** One ranked inviter: total in integer units. */
export interface RankRow {
  inviterId: bigint;
  mail: string | null;
  phone: string | null;
  paid: string;
  invitees: number;
}

/** The invitation queries over `db`. */
export function createInviteRepository(db: Db) {
  return {
    /** Number of users invited by `inviterId`. */
    async inviteeCount(inviterId: bigint): Promise<number> {
      const [n] = await db.select({ n: count() }).from(users).where(eq(users.invitedBy, inviterId));
      return Number(n?.n ?? 0);
    },

    /** Ids of every invitee of `inviterId` (for the engine's pending accruals). */
    async inviteeIds(inviterId: bigint): Promise<bigint[]> {
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.invitedBy, inviterId));
      return rows.map((r) => r.id);
    },

    /** One page of `inviterId`'s invitees, newest first, with the rebate paid on each. */
    async invitees(inviterId: bigint, page: number, pageSize: number): Promise<InviteeRow[]> {
      return db
        .select({
          id: users.id,
          mail: users.mail,
          phone: users.phone,
          createdAt: users.createdAt,
          paid: sql<string>`coalesce((select sum(${rebatePayouts.paid}) from ${rebatePayouts} where ${rebatePayouts.inviteeId} = ${users.id} and ${rebatePayouts.inviterId} = ${inviterId}), 0)::text`,
        })
        .from(users)
        .where(eq(users.invitedBy, inviterId))
        .orderBy(desc(users.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
    },

    /** Total paid to `inviterId` (integer units as a string). */
    async totalPaid(inviterId: bigint): Promise<string> {
      const [r] = await db
        .select({ paid: sql<string>`coalesce(sum(${rebatePayouts.paid}), 0)::text` })
        .from(rebatePayouts)
        .where(eq(rebatePayouts.inviterId, inviterId));
      return r?.paid ?? '0';
    },

    /** Number of settled days with payouts to `inviterId`, and one page of them, newest first. */
    async rebateDays(inviterId: bigint, page: number, pageSize: number): Promise<{ total: number; rows: RebateDayRow[] }> {
      const [n] = await db
        .select({ n: sql<number>`count(distinct ${rebatePayouts.day})::int` })
        .from(rebatePayouts)
        .where(eq(rebatePayouts.inviterId, inviterId));
      const rows = await db
        .select({
          day: rebatePayouts.day,
          fee: sql<string>`sum(${rebatePayouts.fee})::text`,
          rebate: sql<string>`sum(${rebatePayouts.rebate})::text`,
          paid: sql<string>`sum(${rebatePayouts.paid})::text`,
          invitees: sql<number>`count(*)::int`,
          ts: sql<number>`max(${rebatePayouts.ts})::float8`,
        })
        .from(rebatePayouts)
        .where(eq(rebatePayouts.inviterId, inviterId))
        .groupBy(rebatePayouts.day)
        .orderBy(desc(rebatePayouts.day))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: Number(n?.n ?? 0), rows: rows.map((r) => ({ ...r, ts: Number(r.ts) })) };
    },

    /**
     * Inviters ranked by rebate paid for days `fromDay`..`toDay` (ties: lower user id first), with the number of
     * invitees whose fees earned it. All of them (the service takes the top and finds the caller's rank).
     */
    async ranking(fromDay: number, toDay: number): Promise<RankRow[]> {
      const paid = sql<string>`sum(${rebatePayouts.paid})`;
      return db
        .select({
          inviterId: rebatePayouts.inviterId,
          mail: users.mail,
          phone: users.phone,
          paid: sql<string>`${paid}::text`,
          invitees: sql<number>`count(distinct ${rebatePayouts.inviteeId})::int`,
        })
        .from(rebatePayouts)
        .leftJoin(users, eq(users.id, rebatePayouts.inviterId))
        .where(and(gte(rebatePayouts.day, fromDay), lte(rebatePayouts.day, toDay)))
        .groupBy(rebatePayouts.inviterId, users.mail, users.phone)
        .having(sql`${paid} > 0`)
        .orderBy(desc(paid), rebatePayouts.inviterId);
    },

    /** Inviters ranked by number of invitees (ties: lower user id first): [inviter id, invitees], all of them. */
    async leaderboard(): Promise<{ inviterId: bigint; invitees: number }[]> {
      const n = sql<number>`count(*)::int`;
      const rows = await db
        .select({ inviterId: users.invitedBy, invitees: n })
        .from(users)
        .where(isNotNull(users.invitedBy))
        .groupBy(users.invitedBy)
        .orderBy(desc(n), users.invitedBy);
      return rows.map((r) => ({ inviterId: r.inviterId as bigint, invitees: Number(r.invitees) }));
    },

    /** Account fields and the total rebate paid ever of the users `ids`. */
    async inviterCards(ids: bigint[]): Promise<Map<string, { mail: string | null; phone: string | null; paid: string }>> {
      const out = new Map<string, { mail: string | null; phone: string | null; paid: string }>();
      if (ids.length === 0) return out;
      const rows = await db
        .select({
          id: users.id,
          mail: users.mail,
          phone: users.phone,
          paid: sql<string>`coalesce((select sum(${rebatePayouts.paid}) from ${rebatePayouts} where ${rebatePayouts.inviterId} = ${users.id}), 0)::text`,
        })
        .from(users)
        .where(inArray(users.id, ids));
      for (const r of rows) out.set(r.id.toString(), { mail: r.mail, phone: r.phone, paid: r.paid });
      return out;
    },
  };
}

export type InviteRepository = ReturnType<typeof createInviteRepository>;
