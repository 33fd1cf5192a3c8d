/**
 * Activities (campaigns), server side (packages/api activity.ts; the engine's rules: packages/core
 * activity/types.ts; the decisions: docs/activities.md). Everything an activity pays from is engine state: the
 * definition (with its texts, so the journal alone rebuilds it), who joined, the progress the engine counts from fills
 * and deposits, and the payout (activitySettle, once). So this service keeps no table of its own: it reads the engine
 * (in the scale-out mode its replica) and submits commands through the engine port; the console's actions carry their
 * audit record, which the projector writes to audit_log.
 *
 * Checks made here before the engine's (which stays the judge): the console's amounts as decimals at the coin's scale,
 * the period (end after start and in the future, at most ACTIVITY_MAX_DAYS), the prize table (positive, rank 1 the
 * largest, total within the budget), the deposit threshold and bonus, the banner URL; each with its own message.
 */
import {
  ACTIVITY_MAX_PRIZES,
  formatDecimal,
  tryParseDecimal,
  type ActivityEntry,
  type ActivityTerms,
  type ActivityView,
  type CommandResult,
} from '@exchange/core';
import type {
  ActivityHistoryRow,
  ActivityItem,
  ActivityLeaderboard,
  ActivityMine,
  ActivityStatus,
  AdminActivity,
  AdminActivityDetail,
  CreateActivityBody,
  Lang,
} from '@exchange/api';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { engineAuditRecord } from '../../platform/shared/operator';
import { maskAccount } from '../../platform/shared/account';

/** Longest activity period (days). */
export const ACTIVITY_MAX_DAYS = 366;
/** Rows of the app's leaderboard. */
export const LEADERBOARD_ROWS = 50;
/** Rows of the console's ranking. */
const ADMIN_RANKING_ROWS = 500;

/** Who acts in the console (domains/admin Actor: the fields the audit record takes). */
export interface ActivityActor {
  id: bigint;
  email: string;
  ip: string;
  userAgent: string;
}

/** The activity service (see the file comment). Every method throws AppError with the user's message code. */
export interface ActivityService {
  list(lang: Lang, status?: ActivityStatus): ActivityItem[];
  detail(lang: Lang, activityId: string): ActivityItem;
  leaderboard(activityId: string): ActivityLeaderboard;
  mine(userId: string, activityId: string): ActivityMine;
  join(userId: string, activityId: string): Promise<ActivityMine>;
  history(lang: Lang, userId: string): ActivityHistoryRow[];
  adminList(): AdminActivity[];
  adminDetail(activityId: string): AdminActivityDetail;
  create(actor: ActivityActor, body: CreateActivityBody): Promise<AdminActivity>;
  end(actor: ActivityActor, activityId: string): Promise<AdminActivity>;
  /** Submits activitySettle for every activity past its end and not paid (the job); returns how many it paid. */
  settleDue(now: number): Promise<number>;
}

/** The engine's rejection as an AppError. */
function rejection(code: string): AppError {
  const known = code.startsWith('activity_') || code === 'asset_not_found';
  return new AppError((known ? code : 'validation_failed') as ConstructorParameters<typeof AppError>[0], code === 'activity_not_found' ? 404 : 400);
}

/** UPCOMING / ONGOING / ENDED of an activity at `now` (ENDED at once when an operator ended it early). */
export function statusAt(a: Pick<ActivityView, 'startTs' | 'endTs' | 'closed'>, now: number): ActivityStatus {
  return a.closed || now >= a.endTs ? 'ENDED' : now < a.startTs ? 'UPCOMING' : 'ONGOING';
}

/** Builds the activity service over the engine port and the process clock. */
export function createActivityService(deps: { host: EnginePort; now: () => number }): ActivityService {
  const { host, now } = deps;
  const engine = host.engine;

  function scaleOf(coin: string): number {
    const s = engine.asset(coin)?.scale;
    if (s === undefined) throw new AppError('asset_not_found', 400, 'coin');
    return s;
  }
  const text = (units: bigint, coin: string) => formatDecimal(units, engine.asset(coin)?.scale ?? 8);
  function get(activityId: string): ActivityView {
    const a = engine.activity(activityId);
    if (a === undefined) throw new AppError('activity_not_found', 404);
    return a;
  }
  function item(a: ActivityView, lang: Lang): ActivityItem {
    const c = a.content;
    return {
      activityId: a.activityId,
      kind: a.kind,
      status: statusAt(a, now()),
      settled: a.state === 'SETTLED',
      title: (lang === 'en' ? c.titleEn : c.titleZh) ?? '',
      rules: (lang === 'en' ? c.rulesEn : c.rulesZh) ?? '',
      banner: c.banner ?? '',
      startTime: a.startTs,
      endTime: a.endTs,
      coin: a.asset,
      scope: a.scope,
      prizes: a.prizes.map((p) => text(p, a.asset)),
      budget: text(a.budget, a.asset),
      minDeposit: text(a.minDeposit, a.asset),
      bonus: text(a.bonus, a.asset),
      participants: a.participants,
    };
  }
  /** The prize of rank `rank` (1 ...) before the payout: the table's for TRADING, the bonus within the budget for DEPOSIT. */
  function prizeOf(a: ActivityView, rank: number): bigint {
    if (rank <= 0) return 0n;
    if (a.kind === 'TRADING') return a.prizes[rank - 1] ?? 0n;
    return BigInt(rank) * a.bonus <= a.budget ? a.bonus : 0n;
  }
  function nameOf(userId: string): string {
    const p = engine.user(userId)?.profile ?? {};
    if (p.nickName) return p.nickName;
    const acc = p.mail || p.phone || engine.user(userId)?.account || userId;
    return maskAccount(acc);
  }
  /** The user's e-mail or phone as registered (the console sees it unmasked), else the engine's account key. */
  function accountOf(userId: string): string {
    const u = engine.user(userId);
    return u?.profile.mail || u?.profile.phone || u?.account.replace(/^(mail|phone):/, '') || '';
  }
  function mineOf(a: ActivityView, userId: string, e: ActivityEntry | undefined): ActivityMine {
    if (e === undefined)
      return {
        activityId: a.activityId,
        joined: false,
        joinedAt: 0,
        progress: text(0n, a.asset),
        rank: 0,
        qualified: false,
        reward: text(0n, a.asset),
        paid: false,
      };
    const settled = a.state === 'SETTLED';
    const payout = a.payouts.find((p) => p.userId === userId);
    const rank = settled ? (payout?.rank ?? engine.activityRank(a.activityId, userId)) : engine.activityRank(a.activityId, userId);
    const reward = settled ? (payout?.amount ?? 0n) : prizeOf(a, rank);
    return {
      activityId: a.activityId,
      joined: true,
      joinedAt: e.joinedTs,
      progress: text(e.progress, a.asset),
      rank,
      qualified: a.kind === 'DEPOSIT' && e.qualifiedSeq > 0,
      reward: text(reward, a.asset),
      paid: settled && payout !== undefined,
    };
  }
  function admin(a: ActivityView): AdminActivity {
    const c = a.content;
    return {
      activityId: a.activityId,
      kind: a.kind,
      status: statusAt(a, now()),
      settled: a.state === 'SETTLED',
      titleZh: c.titleZh ?? '',
      titleEn: c.titleEn ?? '',
      rulesZh: c.rulesZh ?? '',
      rulesEn: c.rulesEn ?? '',
      banner: c.banner ?? '',
      startTime: a.startTs,
      endTime: a.endTs,
      coin: a.asset,
      scope: a.scope,
      prizes: a.prizes.map((p) => text(p, a.asset)),
      budget: text(a.budget, a.asset),
      minDeposit: text(a.minDeposit, a.asset),
      bonus: text(a.bonus, a.asset),
      participants: a.participants,
      paid: text(a.paid, a.asset),
      payouts: a.payouts.map((p) => ({ userId: p.userId, rank: p.rank, amount: text(p.amount, a.asset) })),
      createdAt: a.createdTs,
      settledAt: a.settledTs ?? 0,
    };
  }
  async function submit(cmd: Record<string, unknown>): Promise<CommandResult> {
    const r = await host.submit(cmd as unknown as Parameters<EnginePort['submit']>[0]);
    if (r.code !== 'ok') throw rejection(r.code);
    return r;
  }
  function activityOf(r: CommandResult): ActivityView {
    for (const e of r.events) if (e.type === 'activityChanged') return e.activity;
    throw new AppError('activity_invalid', 400);
  }
  /** A coin amount of the console's form (> 0, at most the coin's decimals). */
  function amount(
    value: string | undefined,
    scale: number,
    field: string,
    code: 'activity_prizes_invalid' | 'activity_bonus_invalid' | 'amount_invalid',
  ): bigint {
    const r = tryParseDecimal(value ?? '', scale);
    if (!r.ok) throw new AppError(r.error === 'too_many_decimals' ? 'too_many_decimals' : code, 400, field);
    if (r.value <= 0n) throw new AppError(code, 400, field);
    return r.value;
  }

  return {
    list(lang, status) {
      const out = engine.activities().map((a) => item(a, lang));
      return status === undefined ? out : out.filter((a) => a.status === status);
    },
    detail(lang, activityId) {
      return item(get(activityId), lang);
    },
    leaderboard(activityId) {
      const a = get(activityId);
      const settled = a.state === 'SETTLED';
      const records = engine.activityRanking(activityId, LEADERBOARD_ROWS).map((e, i) => ({
        rank: i + 1,
        name: nameOf(e.userId),
        progress: text(e.progress, a.asset),
        prize: text(settled ? (a.payouts.find((p) => p.userId === e.userId)?.amount ?? 0n) : prizeOf(a, i + 1), a.asset),
      }));
      return { activityId, records };
    },
    mine(userId, activityId) {
      const a = get(activityId);
      return mineOf(a, userId, engine.activityEntry(activityId, userId));
    },
    async join(userId, activityId) {
      get(activityId);
      await submit({ type: 'activityJoin', activityId, userId });
      const a = get(activityId);
      return mineOf(a, userId, engine.activityEntry(activityId, userId));
    },
    history(lang, userId) {
      return engine.activitiesOf(userId).map(({ activity, entry }) => ({ activity: item(activity, lang), mine: mineOf(activity, userId, entry) }));
    },
    adminList() {
      return engine.activities().map(admin);
    },
    adminDetail(activityId) {
      const a = get(activityId);
      const settled = a.state === 'SETTLED';
      const ranking = engine.activityRanking(activityId, ADMIN_RANKING_ROWS).map((e, i) => ({
        rank: i + 1,
        userId: e.userId,
        account: accountOf(e.userId),
        progress: text(e.progress, a.asset),
        prize: text(settled ? (a.payouts.find((p) => p.userId === e.userId)?.amount ?? 0n) : prizeOf(a, i + 1), a.asset),
      }));
      return { activity: admin(a), ranking };
    },
    async create(actor, body) {
      const scale = scaleOf(body.coin);
      const t = now();
      if (body.endTime <= body.startTime || body.endTime <= t || body.endTime - body.startTime > ACTIVITY_MAX_DAYS * 86_400_000) {
        throw new AppError('activity_time_invalid', 400, 'endTime');
      }
      const banner = (body.banner ?? '').trim();
      if (banner !== '' && !/^(https:\/\/|\/)[^\s"'<>()\\]*$/.test(banner)) throw new AppError('activity_banner_invalid', 400, 'banner');
      const budget = amount(body.budget, scale, 'budget', 'amount_invalid');
      let prizes: bigint[] = [];
      let minDeposit = 0n;
      let bonus = 0n;
      if (body.kind === 'TRADING') {
        const list = Array.isArray(body.prizes)
          ? body.prizes
          : (body.prizes ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '');
        if (list.length === 0 || list.length > ACTIVITY_MAX_PRIZES) throw new AppError('activity_prizes_invalid', 400, 'prizes');
        prizes = list.map((p) => amount(p, scale, 'prizes', 'activity_prizes_invalid'));
        let sum = 0n;
        for (let i = 0; i < prizes.length; i++) {
          if (i > 0 && (prizes[i] as bigint) > (prizes[i - 1] as bigint)) throw new AppError('activity_prizes_invalid', 400, 'prizes');
          sum += prizes[i] as bigint;
        }
        if (sum > budget) throw new AppError('activity_prizes_invalid', 400, 'prizes');
      } else {
        minDeposit = amount(body.minDeposit, scale, 'minDeposit', 'activity_bonus_invalid');
        bonus = amount(body.bonus, scale, 'bonus', 'activity_bonus_invalid');
        if (bonus > budget) throw new AppError('activity_bonus_invalid', 400, 'bonus');
      }
      const terms: ActivityTerms = {
        kind: body.kind,
        startTs: body.startTime,
        endTs: body.endTime,
        asset: body.coin,
        scope: body.scope ?? 'ALL',
        prizes,
        budget,
        minDeposit,
        bonus,
      };
      const content: Record<string, string> = {
        titleZh: body.titleZh,
        titleEn: body.titleEn,
        rulesZh: body.rulesZh,
        rulesEn: body.rulesEn,
        ...(banner !== '' ? { banner } : {}),
      };
      const after = {
        kind: terms.kind,
        titleEn: body.titleEn,
        startTime: terms.startTs,
        endTime: terms.endTs,
        coin: terms.asset,
        scope: terms.scope,
        prizes: prizes.map((p) => formatDecimal(p, scale)),
        budget: formatDecimal(budget, scale),
        minDeposit: formatDecimal(minDeposit, scale),
        bonus: formatDecimal(bonus, scale),
      };
      const audit = engineAuditRecord(actor, 'activity_create', null, after);
      const r = await submit({ type: 'activityCreate', terms, content, operatorId: actor.id.toString(), audit });
      return admin(activityOf(r));
    },
    async end(actor, activityId) {
      const before = get(activityId);
      const audit = engineAuditRecord(actor, 'activity_end', { activityId, endTime: before.endTs }, { activityId, endTime: now() });
      const r = await submit({ type: 'activityEnd', activityId, operatorId: actor.id.toString(), audit });
      return admin(activityOf(r));
    },
    async settleDue(t) {
      let paid = 0;
      for (const a of engine.activities()) {
        if (a.state !== 'OPEN' || (!a.closed && a.endTs > t)) continue;
        const r = await host.submit({ type: 'activitySettle', activityId: a.activityId } as unknown as Parameters<EnginePort['submit']>[0]);
        if (r.code === 'ok' && !r.duplicate) paid++;
      }
      return paid;
    },
  };
}
