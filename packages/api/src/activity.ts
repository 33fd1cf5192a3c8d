/**
 * Wire schemas of activities (campaigns; spec section 2 routes /activity, /activityDetails,
 * /activityHistory and home's "activity centre"). The engine's rules: packages/core/src/activity/types.ts; the
 * decisions (what counts as volume, the tie-break, when and from where prizes are paid): docs/activities.md.
 *
 * Routes: app API under `/api/activity/activity/...` (ACTIVITY_PATHS), the console's under `/api/admin/activity/...`
 * (ACTIVITY_ADMIN_PATHS). Amounts are decimal strings at the prize coin's scale ("300.00000000"); times Unix ms.
 * Texts (title, rules) come in the request's language; the console gets both.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString } from './schemas';

/** Paths of the app's activity API, relative to `/api/`. */
export const ACTIVITY_PATHS = {
  /** GET, public: every activity, newest first, with its status */
  list: 'activity/activity/list',
  /** GET, public: one activity (rules, prizes) */
  detail: 'activity/activity/detail',
  /** GET, public: the leaderboard (TRADING: by volume; DEPOSIT: qualified users in order), names masked */
  leaderboard: 'activity/activity/leaderboard',
  /** GET: the caller's progress in one activity */
  my: 'activity/activity/my',
  /** POST: join an activity */
  join: 'activity/activity/join',
  /** GET: the activities the caller joined, with progress and reward */
  history: 'activity/activity/history',
} as const;

/** Paths of the console's activity API, relative to `/api/`. */
export const ACTIVITY_ADMIN_PATHS = {
  /** GET: every activity with both languages' texts and the payout */
  list: 'admin/activity/list',
  /** GET: one activity and its full ranking (user ids) */
  detail: 'admin/activity/detail',
  /** POST: define an activity (wallet_decide) */
  create: 'admin/activity/create',
  /** POST: end an activity early (wallet_decide) */
  end: 'admin/activity/end',
} as const;

const Id = Type.String({ pattern: '^[1-9][0-9]{0,17}$' });
export const ActivityKind = Type.Union([Type.Literal('TRADING'), Type.Literal('DEPOSIT')]);
export type ActivityKind = Static<typeof ActivityKind>;
export const ActivityScope = Type.Union([Type.Literal('SPOT'), Type.Literal('CONTRACT'), Type.Literal('ALL')]);
export type ActivityScope = Static<typeof ActivityScope>;
/** From the time: UPCOMING before the start, ONGOING within the period, ENDED after it (SETTLED: paid). */
export const ActivityStatus = Type.Union([Type.Literal('UPCOMING'), Type.Literal('ONGOING'), Type.Literal('ENDED')]);
export type ActivityStatus = Static<typeof ActivityStatus>;

/** An activity as the app shows it (texts in the request's language). */
export const ActivityItem = Type.Object({
  activityId: Type.String(),
  kind: ActivityKind,
  status: ActivityStatus,
  /** the payout ran (only after the end) */
  settled: Type.Boolean(),
  title: Type.String(),
  rules: Type.String(),
  /** banner image URL, or '' */
  banner: Type.String(),
  startTime: Type.Number(),
  endTime: Type.Number(),
  /** the prize coin, also the unit of volume and deposits */
  coin: Type.String(),
  scope: ActivityScope,
  /** TRADING: prize of rank 1, 2, ... */
  prizes: Type.Array(Type.String()),
  budget: Type.String(),
  /** DEPOSIT: the deposit that qualifies and the bonus; '0' for TRADING */
  minDeposit: Type.String(),
  bonus: Type.String(),
  participants: Type.Integer(),
});
export type ActivityItem = Static<typeof ActivityItem>;

/** The caller's progress in one activity. */
export const ActivityMine = Type.Object({
  activityId: Type.String(),
  joined: Type.Boolean(),
  joinedAt: Type.Number(),
  /** TRADING: the counted volume; DEPOSIT: the counted deposits (coin) */
  progress: Type.String(),
  /** TRADING: rank (0 = not ranked); DEPOSIT: order of qualifying (0 = not qualified) */
  rank: Type.Integer(),
  /** DEPOSIT: reached the threshold */
  qualified: Type.Boolean(),
  /** what the caller would receive at the current rank (before the payout), or was paid (after) */
  reward: Type.String(),
  /** the payout ran and paid `reward` */
  paid: Type.Boolean(),
});
export type ActivityMine = Static<typeof ActivityMine>;

/** One leaderboard row (name masked, no user id; the app marks the caller's row by its rank from `my`). */
export const ActivityRankRow = Type.Object({
  rank: Type.Integer(),
  name: Type.String(),
  progress: Type.String(),
  /** the prize of the rank ('0' beyond the prize table or the budget) */
  prize: Type.String(),
});
export type ActivityRankRow = Static<typeof ActivityRankRow>;
export const ActivityLeaderboard = Type.Object({ activityId: Type.String(), records: Type.Array(ActivityRankRow) });
export type ActivityLeaderboard = Static<typeof ActivityLeaderboard>;

/** One joined activity of the history. */
export const ActivityHistoryRow = Type.Object({ activity: ActivityItem, mine: ActivityMine });
export type ActivityHistoryRow = Static<typeof ActivityHistoryRow>;

export const ActivityIdQuery = Type.Object({ activityId: Id });
export const ActivityListQuery = Type.Object({ status: Type.Optional(ActivityStatus) });
export const JoinActivityBody = Type.Object({ activityId: Id });

// ---------------------------------------------------------------- console

/** An activity as the console shows it: both languages, the payout. */
export const AdminActivity = Type.Object({
  activityId: Type.String(),
  kind: ActivityKind,
  status: ActivityStatus,
  settled: Type.Boolean(),
  titleZh: Type.String(),
  titleEn: Type.String(),
  rulesZh: Type.String(),
  rulesEn: Type.String(),
  banner: Type.String(),
  startTime: Type.Number(),
  endTime: Type.Number(),
  coin: Type.String(),
  scope: ActivityScope,
  prizes: Type.Array(Type.String()),
  budget: Type.String(),
  minDeposit: Type.String(),
  bonus: Type.String(),
  participants: Type.Integer(),
  paid: Type.String(),
  payouts: Type.Array(Type.Object({ userId: Type.String(), rank: Type.Integer(), amount: Type.String() })),
  createdAt: Type.Number(),
  settledAt: Type.Number(),
});
export type AdminActivity = Static<typeof AdminActivity>;
export const AdminActivityDetail = Type.Object({
  activity: AdminActivity,
  ranking: Type.Array(Type.Object({ rank: Type.Integer(), userId: Type.String(), account: Type.String(), progress: Type.String(), prize: Type.String() })),
});
export type AdminActivityDetail = Static<typeof AdminActivityDetail>;

const Text = (max: number) => Type.String({ maxLength: max });
/**
 * Body of admin/activity/create. Amounts in coins (decimal strings). TRADING: `prizes` (comma-separated or an array,
 * rank 1 first, non-increasing, sum <= budget); DEPOSIT: `minDeposit` and `bonus` (bonus <= budget).
 */
export const CreateActivityBody = Type.Object({
  kind: ActivityKind,
  titleZh: Type.String({ minLength: 1, maxLength: 100 }),
  titleEn: Type.String({ minLength: 1, maxLength: 100 }),
  rulesZh: Type.String({ minLength: 1, maxLength: 4000 }),
  rulesEn: Type.String({ minLength: 1, maxLength: 4000 }),
  /** optional banner image: an https:// URL or a site path starting with / */
  banner: Type.Optional(Text(500)),
  startTime: Type.Integer({ minimum: 0, maximum: 8_640_000_000_000 }),
  endTime: Type.Integer({ minimum: 0, maximum: 8_640_000_000_000 }),
  coin: Type.String({ pattern: '^[A-Z0-9]{2,12}$' }),
  scope: Type.Optional(ActivityScope),
  prizes: Type.Optional(Type.Union([Type.Array(DecimalString, { maxItems: 100 }), Type.String({ maxLength: 4000 })])),
  budget: DecimalString,
  minDeposit: Type.Optional(DecimalString),
  bonus: Type.Optional(DecimalString),
});
export type CreateActivityBody = Static<typeof CreateActivityBody>;
export const EndActivityBody = Type.Object({ activityId: Id });
