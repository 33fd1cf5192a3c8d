/**
 * The invitation and rebates (spec sections 3 and 9): the rules, the caller's summary, invitees, rebates
 * per day, the monthly ranking and the all-time leaderboard; and the daily settlement the job runs (settleDue).
 *
 * The money side is the engine's (packages/core src/rebate): it accrues every invitee's USDT contract fees per
 * Asia/Shanghai day as the fills happen and pays them in one journaled command (settleRebates), idempotent per day.
 * The lists read the projection of its rebatePaid events (rebate_payouts) and users.invited_by. Ranking periods:
 * "this month" counts the settled days of the current month from its 1st (Asia/Shanghai), so the list starts empty
 * on the 1st and fills as each day is settled; "last month" is the previous month's final list (its last day is
 * settled at 00:00 on the 1st). Another user's account is always masked.
 */
import { ACCOUNT_KINDS, formatDecimal, REBATE_ASSET, REBATE_RATIO_PPM, REBATE_THRESHOLD_COINS, pow10, rebateDay, rebateDayStart } from '@exchange/core';
import type { InviteePage, InviteRules, InviteSummary, RankingEntry, RankingList, RebateDayPage } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { createInviteRepository } from './invite.repository';

/** How many entries the ranking and the leaderboard show. */
export const RANKING_SIZE = 20;
/** How long a read waits for the projection to catch up with the engine (ms). */
const PROJECTION_WAIT_MS = 2_000;
const DAY_MS = 86_400_000;

/** The path (with query) of the register page that takes an invitation code (apps/web RegisterPage reads ?code=). */
export const REGISTER_PATH = '/register?code=';

/** What the daily settlement did (null: nothing due). */
export interface SettleOutcome {
  day: number;
  code: string;
  payouts: number;
  paid: bigint;
}

export interface InviteService {
  /** The rebate rules and constants (public). */
  rules(): InviteRules;
  /** The caller's code, invitees, totals and threshold standing. */
  summary(userId: string): Promise<InviteSummary>;
  /** A page of the caller's invitees, newest first (accounts masked). */
  invitees(userId: string, page: number, pageSize: number): Promise<InviteePage>;
  /** A page of the caller's settled rebate days, newest first. */
  rebates(userId: string, page: number, pageSize: number): Promise<RebateDayPage>;
  /** The monthly rebate ranking: 'this' month from its 1st, or 'last' month's final list (rebate_month_invalid). */
  ranking(userId: string, month: string, now: number): Promise<RankingList>;
  /** The all-time leaderboard by number of invitees. */
  leaderboard(userId: string): Promise<RankingList>;
  /**
   * The daily job's step: when the day before `now`'s rebate day is not settled yet, submits settleRebates for it
   * (which also settles any earlier unsettled day) and returns what it did; null when nothing is due.
   */
  settleDue(now: number): Promise<SettleOutcome | null>;
}

/** 'YYYY-MM-DD' of a rebate day (Asia/Shanghai). */
export function dayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The rebate days of the month containing rebate day `day`, shifted by `shift` months: [first, last, 'YYYY-MM']. */
export function monthDays(day: number, shift: number): [number, number, string] {
  const d = new Date(day * DAY_MS);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + shift, 1);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + shift + 1, 1);
  return [first / DAY_MS, next / DAY_MS - 1, new Date(first).toISOString().slice(0, 7)];
}

/** Masks an account (spec section 9): first 3 and last 4 characters; a short one keeps its first character only. */
export function maskInviteAccount(s: string): string {
  if (s.length > 7) return `${s.slice(0, 3)}****${s.slice(-4)}`;
  return s.length === 0 ? '' : `${s.slice(0, 1)}****`;
}

function accountOf(r: { mail: string | null; phone: string | null } | undefined): string {
  return r?.mail ?? r?.phone ?? '';
}

/** Builds the service. */
export function createInviteService(deps: { db: Db; host: EnginePort }): InviteService {
  const { host } = deps;
  const engine = host.engine;
  const repo = createInviteRepository(deps.db);

  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }
  const scale = (): number => engine.asset(REBATE_ASSET)?.scale ?? 8;
  const usdt = (units: bigint | string): string => formatDecimal(BigInt(units), scale());

  function holdingsOf(userId: string): bigint {
    let total = 0n;
    for (const k of ACCOUNT_KINDS) {
      const b = engine.balance(userId, k, REBATE_ASSET);
      total += b.available + b.frozen;
    }
    return total;
  }

  function entry(rank: number, inviterId: bigint, account: string, paid: string, invitees: number, me: string): RankingEntry {
    return { rank, account: maskInviteAccount(account), rebate: usdt(paid), invitees, me: inviterId.toString() === me };
  }

  return {
    rules() {
      return {
        ratioPercent: (REBATE_RATIO_PPM / 10_000n).toString(),
        asset: REBATE_ASSET,
        threshold: REBATE_THRESHOLD_COINS.toString(),
        settleTime: '00:00',
        timeZone: 'Asia/Shanghai',
        registerPath: REGISTER_PATH,
      };
    },

    async summary(userId) {
      await caughtUp();
      const me = BigInt(userId);
      const [count, total, ids] = await Promise.all([repo.inviteeCount(me), repo.totalPaid(me), repo.inviteeIds(me)]);
      let pending = 0n;
      for (const id of ids) for (const a of engine.rebateAccrued(id.toString())) if (a.inviterId === userId) pending += a.rebate;
      const holdings = holdingsOf(userId);
      const through = engine.rebateSettledThrough();
      return {
        welCode: engine.user(userId)?.profile.welCode ?? '',
        inviteeCount: count,
        totalRebate: usdt(total),
        pendingRebate: usdt(pending),
        holdings: usdt(holdings),
        qualified: holdings >= REBATE_THRESHOLD_COINS * pow10(scale()),
        settledThrough: through < 0 ? '' : dayLabel(through),
      };
    },

    async invitees(userId, page, pageSize) {
      await caughtUp();
      const me = BigInt(userId);
      const [total, rows] = await Promise.all([repo.inviteeCount(me), repo.invitees(me, page, pageSize)]);
      return {
        records: rows.map((r) => ({ account: maskInviteAccount(accountOf(r)), rebate: usdt(r.paid), registeredAt: r.createdAt.getTime() })),
        total,
        page,
        pageSize,
      };
    },

    async rebates(userId, page, pageSize) {
      await caughtUp();
      const { total, rows } = await repo.rebateDays(BigInt(userId), page, pageSize);
      return {
        records: rows.map((r) => ({
          day: dayLabel(r.day),
          fee: usdt(r.fee),
          rebate: usdt(r.rebate),
          paid: usdt(r.paid),
          invitees: r.invitees,
          settledAt: r.ts,
        })),
        total,
        page,
        pageSize,
      };
    },

    async ranking(userId, month, now) {
      if (month !== 'this' && month !== 'last') throw new AppError('rebate_month_invalid', 400, 'month');
      await caughtUp();
      const [from, to, label] = monthDays(rebateDay(now), month === 'this' ? 0 : -1);
      const rows = await repo.ranking(from, to);
      const records = rows.slice(0, RANKING_SIZE).map((r, i) => entry(i + 1, r.inviterId, accountOf(r), r.paid, r.invitees, userId));
      const at = rows.findIndex((r) => r.inviterId.toString() === userId);
      const mineRow = at >= 0 ? rows[at] : undefined;
      const self = await repo.inviterCards([BigInt(userId)]);
      const mine = entry(at + 1, BigInt(userId), accountOf(self.get(userId)), mineRow?.paid ?? '0', mineRow?.invitees ?? 0, userId);
      return { month: label, from: rebateDayStart(from), records, mine };
    },

    async leaderboard(userId) {
      await caughtUp();
      const rows = await repo.leaderboard();
      const top = rows.slice(0, RANKING_SIZE);
      const at = rows.findIndex((r) => r.inviterId.toString() === userId);
      const cards = await repo.inviterCards([...top.map((r) => r.inviterId), BigInt(userId)]);
      const records = top.map((r, i) => {
        const c = cards.get(r.inviterId.toString());
        return entry(i + 1, r.inviterId, accountOf(c), c?.paid ?? '0', r.invitees, userId);
      });
      const c = cards.get(userId);
      const mine = entry(at + 1, BigInt(userId), accountOf(c), c?.paid ?? '0', at >= 0 ? rows[at]!.invitees : 0, userId);
      return { month: '', from: 0, records, mine };
    },

    async settleDue(now) {
      const day = rebateDay(now) - 1;
      if (day <= engine.rebateSettledThrough()) return null;
      const r = await host.submit({ type: 'settleRebates', day });
      let payouts = 0;
      let paid = 0n;
      for (const ev of r.events) {
        if (ev.type === 'rebatesSettled') {
          payouts = ev.payouts;
          paid = ev.paid;
        }
      }
      return { day, code: r.code, payouts, paid };
    },
  };
}
