/**
 * Fixed-term savings, server side (routes /mortgage, /mort_record, /redeem_record; packages/api earn.ts;
 * the engine's rules and the interest formula: packages/core earn/types.ts). Everything that moves money is an engine
 * command through the journal: a lock (ASSETS -> '@earn'), the daily settle (interest from '@interest', principal back
 * at maturity), an early redemption. Products are defined in the console (saveProduct, audited) and live in the
 * engine; the users' lists are read from the projection (earn_locks).
 *
 * The daily job (earn.jobs.ts) submits earnSettle whenever some lock has a whole day of interest unpaid or has
 * matured on the process clock; the command pays exactly what is due, so running it again, or after a restart, pays
 * nothing twice.
 */
import { formatDecimal, tryParseDecimal, type CommandResult } from '@exchange/core';
import { earnDaysDue, earnInterest, type EarnCommand, type EarnLockView, type EarnProductView } from '@exchange/core/earn';
import type { AdminEarnProduct, EarnLock, EarnLockBody, EarnLockPage, EarnProduct, SaveEarnProductBody } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { engineAuditRecord } from '../../platform/shared/operator';
import { createEarnRepository, type EarnLockRecord } from './earn.repository';

/** An earn command without its timestamp (the host stamps it). */
type EarnInput = EarnCommand extends infer C ? (C extends EarnCommand ? Omit<C, 'ts'> : never) : never;

/** Who acts in the console (the fields the audit record takes). */
export interface EarnActor {
  id: bigint;
  email: string;
  ip: string;
  userAgent: string;
}

/** The savings service (see the file comment). Every method throws AppError with the user's message code. */
export interface EarnService {
  /** Products open for locking, in id order. */
  products(): EarnProduct[];
  lock(userId: string, body: EarnLockBody): Promise<EarnLock>;
  redeem(userId: string, lockId: string): Promise<EarnLock>;
  /** The caller's locks: LOCKED (the default) or ALL, newest first. */
  locks(userId: string, status: 'LOCKED' | 'ALL', page: number, pageSize: number): Promise<EarnLockPage>;
  /** The caller's redemptions, latest first. */
  redemptions(userId: string, page: number, pageSize: number): Promise<EarnLockPage>;
  /** Submits earnSettle when a lock has interest due or matured at `now`; returns whether it did. */
  settleDue(now: number): Promise<boolean>;
  adminProducts(): AdminEarnProduct[];
  saveProduct(actor: EarnActor, body: SaveEarnProductBody): Promise<AdminEarnProduct>;
}

/** Longest wait for the projection before a read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;

/** The annual rate ppm as a percent text: 36_500 -> "3.65", 50_000 -> "5". */
export function aprText(ppm: number): string {
  const t = formatDecimal(BigInt(ppm), 4);
  return t.includes('.') ? t.replace(/\.?0+$/, '') : t;
}

/** A percent text with up to 4 decimals as ppm ("3.65" -> 36_500); null when malformed. */
export function aprPpm(text: string): number | null {
  const r = tryParseDecimal(text, 4);
  return r.ok && r.value <= 1_000_000n ? Number(r.value) : null;
}

function rejection(code: string): AppError {
  const known = code.startsWith('earn_') || code === 'insufficient_balance' || code === 'account_frozen' || code === 'amount_invalid';
  const status = code === 'earn_product_not_found' || code === 'earn_lock_not_found' ? 404 : 400;
  return new AppError((known ? code : 'validation_failed') as ConstructorParameters<typeof AppError>[0], status);
}

/** Builds the savings service over the engine port and the database. */
export function createEarnService(deps: { db: Db; host: EnginePort }): EarnService {
  const { host } = deps;
  const engine = host.engine;
  const repo = createEarnRepository(deps.db);
  const scaleOf = (coin: string) => engine.asset(coin)?.scale ?? 8;
  const amt = (v: bigint, coin: string) => formatDecimal(v, scaleOf(coin));

  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }
  async function submit(cmd: EarnInput): Promise<CommandResult> {
    const r = await host.submit(cmd as Parameters<EnginePort['submit']>[0]);
    if (r.code !== 'ok') throw rejection(r.code);
    return r;
  }
  function productView(p: EarnProductView): EarnProduct {
    const left = p.totalQuota - p.lockedTotal;
    return {
      productId: p.productId,
      coin: p.asset,
      termDays: p.termDays,
      apr: aprText(p.aprPpm),
      minAmount: amt(p.minAmount, p.asset),
      maxAmount: amt(p.maxAmount, p.asset),
      userQuota: amt(p.userQuota, p.asset),
      remainingQuota: amt(left > 0n ? left : 0n, p.asset),
      earlyRedeem: p.earlyRedeem,
      status: p.status,
    };
  }
  function adminView(p: EarnProductView): AdminEarnProduct {
    return {
      ...productView(p),
      totalQuota: amt(p.totalQuota, p.asset),
      lockedTotal: amt(p.lockedTotal, p.asset),
      createdAt: p.createdTs,
      updatedAt: p.updatedTs,
    };
  }
  function lockView(l: EarnLockView): EarnLock {
    const locked = l.status === 'LOCKED';
    return {
      lockId: l.lockId,
      productId: l.productId,
      coin: l.asset,
      amount: amt(l.amount, l.asset),
      apr: aprText(l.aprPpm),
      termDays: l.termDays,
      earlyRedeem: l.earlyRedeem,
      startAt: l.startTs,
      endAt: l.endTs,
      daysPaid: l.daysPaid,
      interestPaid: amt(l.interestPaid, l.asset),
      expectedInterest: amt(earnInterest(l.amount, l.aprPpm, l.termDays), l.asset),
      earlyReturn: locked && l.earlyRedeem === 'FORFEIT_INTEREST' ? amt(l.amount - l.interestPaid, l.asset) : '',
      status: l.status,
      redeemKind: l.redeemKind ?? '',
      redeemedAt: l.redeemedTs ?? 0,
      returned: l.returned === null ? '' : amt(l.returned, l.asset),
      forfeited: l.forfeited === null ? '' : amt(l.forfeited, l.asset),
    };
  }
  function recordView(r: EarnLockRecord): EarnLock {
    return lockView({
      lockId: r.id.toString(),
      productId: r.productId,
      userId: r.userId,
      clientId: r.clientId,
      asset: r.asset,
      amount: BigInt(r.amount),
      aprPpm: r.aprPpm,
      termDays: r.termDays,
      earlyRedeem: r.earlyRedeem as EarnLockView['earlyRedeem'],
      startTs: r.startTs,
      endTs: r.endTs,
      daysPaid: r.daysPaid,
      interestPaid: BigInt(r.interestPaid),
      status: r.status as EarnLockView['status'],
      redeemKind: (r.redeemKind ?? null) as EarnLockView['redeemKind'],
      redeemedTs: r.redeemedTs ?? null,
      returned: r.returned === null ? null : BigInt(r.returned),
      forfeited: r.forfeited === null ? null : BigInt(r.forfeited),
      updatedTs: r.updatedTs,
    });
  }
  function units(text: string, coin: string, field: string): bigint {
    const r = tryParseDecimal(text, scaleOf(coin));
    if (!r.ok) throw new AppError(r.error === 'too_many_decimals' ? 'too_many_decimals' : 'value_too_large', 400, field);
    return r.value;
  }
  async function page(userId: string, status: 'LOCKED' | 'REDEEMED' | undefined, p: number, size: number): Promise<EarnLockPage> {
    await caughtUp();
    const { total, rows } = await repo.locks(userId, status, p, size);
    return { records: rows.map(recordView), total, page: p, pageSize: size };
  }

  return {
    products() {
      return engine
        .earnProducts()
        .filter((p) => p.status === 'ON')
        .map(productView);
    },

    async lock(userId, body) {
      const p = engine.earnProduct(body.productId);
      if (p === undefined) throw new AppError('earn_product_not_found', 404);
      const amount = units(body.amount, p.asset, 'amount');
      const r = await submit({ type: 'earnLock', userId, productId: p.productId, amount, clientId: body.clientId });
      if (r.earnLock) return lockView(r.earnLock);
      // A retry of a lock that has ended since: its row.
      const { rows } = await (async () => (await caughtUp(), repo.locks(userId, undefined, 1, 100)))();
      const row = rows.find((x) => x.clientId === body.clientId);
      if (!row) throw new AppError('earn_lock_not_found', 404);
      return recordView(row);
    },

    async redeem(userId, lockId) {
      const r = await submit({ type: 'earnRedeem', userId, lockId });
      return lockView(r.earnLock as EarnLockView);
    },

    locks(userId, status, p, size) {
      return page(userId, status === 'ALL' ? undefined : 'LOCKED', p, size);
    },

    redemptions(userId, p, size) {
      return page(userId, 'REDEEMED', p, size);
    },

    async settleDue(now) {
      const due = engine.earnLocks().some((l) => now >= l.endTs || earnDaysDue(l.startTs, l.termDays, now) > l.daysPaid);
      if (!due) return false;
      const r = await host.submit({ type: 'earnSettle' });
      return r.code === 'ok';
    },

    adminProducts() {
      return engine.earnProducts().map(adminView);
    },

    async saveProduct(actor, body) {
      if (!engine.asset(body.coin)) throw new AppError('asset_not_found', 400, 'coin');
      const apr = aprPpm(body.apr);
      if (apr === null) throw new AppError('earn_apr_invalid', 400, 'apr');
      const minAmount = units(body.minAmount, body.coin, 'minAmount');
      const maxAmount = units(body.maxAmount, body.coin, 'maxAmount');
      const userQuota = units(body.userQuota, body.coin, 'userQuota');
      const totalQuota = units(body.totalQuota, body.coin, 'totalQuota');
      const max = 10n ** 30n;
      if (minAmount <= 0n || minAmount > maxAmount || maxAmount > userQuota || userQuota > totalQuota || totalQuota > max)
        throw new AppError('earn_limits_invalid', 400, 'minAmount');
      const before = body.productId === undefined ? null : engine.earnProduct(body.productId);
      if (body.productId !== undefined && !before) throw new AppError('earn_product_not_found', 404);
      if (before && before.asset !== body.coin) throw new AppError('validation_failed', 400, 'coin');
      const terms = {
        asset: body.coin,
        termDays: body.termDays,
        aprPpm: apr,
        minAmount,
        maxAmount,
        userQuota,
        totalQuota,
        earlyRedeem: body.earlyRedeem,
        status: body.status,
      };
      const audit = engineAuditRecord(actor, body.productId === undefined ? 'earn_product_create' : 'earn_product_update', before ? adminView(before) : null, {
        ...body,
      });
      const r = await submit({
        type: 'earnSetProduct',
        ...(body.productId !== undefined ? { productId: body.productId } : {}),
        terms,
        operatorId: actor.id.toString(),
        audit,
      });
      return adminView(r.earnProduct as EarnProductView);
    },
  };
}
