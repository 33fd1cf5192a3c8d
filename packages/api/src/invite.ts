/**
 * Wire schemas of the invitation and rebates (spec sections 2 "/invitation", 3 "invitation code record,
 * invitee list entry", 9 "rebate ratio 30%, permanent, settled daily at 00:00; inviter rebate threshold 5000 USDT;
 * rebate = fee times ratio; only USDT perpetual contract trades earn rebate; monthly list visible on the 1st").
 * The rules themselves are the engine's (packages/core src/rebate/types.ts); docs/rebates.md explains them.
 *
 * Routes: app API style under `/api/invite/invite/...` (INVITE_PATHS), envelope, headers token/userId. The invitation
 * code itself is the spec's `member/member/code` (welCode). Units: USDT amounts as decimal strings at the coin's scale
 * (8); days as 'YYYY-MM-DD' in Asia/Shanghai; times Unix ms. Accounts of other users are masked (first 3 and last 4
 * characters, spec section 9).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Paged } from './schemas';

/** Paths of the invitation API, relative to `/api/`. */
export const INVITE_PATHS = {
  /** GET, public: the rebate rules and constants */
  rules: 'invite/invite/rules',
  /** GET: the caller's code, invitee count, rebate totals and threshold standing */
  summary: 'invite/invite/summary',
  /** GET: the caller's invitees, newest first */
  invitees: 'invite/invite/invitees',
  /** GET: the caller's rebates per settled day, newest first */
  rebates: 'invite/invite/rebates',
  /** GET: the monthly rebate ranking (this month from the 1st, or last month's final list) */
  ranking: 'invite/invite/ranking',
  /** GET: the all-time invitation leaderboard (by number of invitees) */
  leaderboard: 'invite/invite/leaderboard',
} as const;

const Page = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

/** Answer of rules: the constants of spec section 9 as the server applies them. */
export const InviteRules = Type.Object({
  /** "30": the share of the invitee's contract fees, percent */
  ratioPercent: Type.String(),
  /** "USDT" */
  asset: Type.String(),
  /** "5000": what the inviter must hold at the settlement (USDT, all four accounts), whole coins */
  threshold: Type.String(),
  /** "00:00" */
  settleTime: Type.String(),
  /** "Asia/Shanghai" */
  timeZone: Type.String(),
  /** the path (with query) that registers with a code: append the code */
  registerPath: Type.String(),
});
export type InviteRules = Static<typeof InviteRules>;

/** Answer of summary. */
export const InviteSummary = Type.Object({
  welCode: Type.String(),
  inviteeCount: Type.Integer(),
  /** rebates paid to the caller so far, USDT */
  totalRebate: Type.String(),
  /** rebates earned by the invitees' fees since the last settlement (paid at the next one if qualified), USDT */
  pendingRebate: Type.String(),
  /** what the caller holds now (USDT, all four accounts) and whether it meets the threshold */
  holdings: Type.String(),
  qualified: Type.Boolean(),
  /** the last settled day ('YYYY-MM-DD'), '' when none */
  settledThrough: Type.String(),
});
export type InviteSummary = Static<typeof InviteSummary>;

export const InviteesQuery = Type.Object(Page);
/** One invitee (spec section 3 "invitee list entry": account, rebate earned, registration time). */
export const Invitee = Type.Object({
  /** masked: first 3 and last 4 characters */
  account: Type.String(),
  /** rebates the caller was paid on this invitee's fees, USDT */
  rebate: Type.String(),
  /** Unix ms */
  registeredAt: Type.Number(),
});
export type Invitee = Static<typeof Invitee>;
export const InviteePage = Paged(Invitee);
export type InviteePage = Static<typeof InviteePage>;

export const RebatesQuery = Type.Object(Page);
/** The caller's rebate of one settled day (over all invitees). */
export const RebateDay = Type.Object({
  /** 'YYYY-MM-DD', Asia/Shanghai */
  day: Type.String(),
  /** the invitees' contract fees of the day, USDT */
  fee: Type.String(),
  /** 30% of each invitee's fees, rounded down, summed, USDT */
  rebate: Type.String(),
  /** what was paid (0 when the caller was below the threshold at the settlement), USDT */
  paid: Type.String(),
  /** invitees who paid fees that day */
  invitees: Type.Integer(),
  /** Unix ms of the settlement */
  settledAt: Type.Number(),
});
export type RebateDay = Static<typeof RebateDay>;
export const RebateDayPage = Paged(RebateDay);
export type RebateDayPage = Static<typeof RebateDayPage>;

/** this = the current month (Asia/Shanghai) from its 1st, last = the previous month, final. */
export const RankingQuery = Type.Object({ month: Type.Optional(Type.Union([Type.Literal('this'), Type.Literal('last')])) });
export const RankingEntry = Type.Object({
  rank: Type.Integer(),
  /** masked account */
  account: Type.String(),
  /** rebates paid in the period, USDT */
  rebate: Type.String(),
  invitees: Type.Integer(),
  /** true for the caller's own entry */
  me: Type.Boolean(),
});
export type RankingEntry = Static<typeof RankingEntry>;
/** Answer of ranking and leaderboard: the top entries and the caller's own standing (rank 0 = not ranked). */
export const RankingList = Type.Object({
  /** 'YYYY-MM' of the ranking, '' for the leaderboard */
  month: Type.String(),
  /** Unix ms from which the list counts (the 1st 00:00 Asia/Shanghai; 0 for the leaderboard) */
  from: Type.Number(),
  records: Type.Array(RankingEntry),
  mine: RankingEntry,
});
export type RankingList = Static<typeof RankingList>;
