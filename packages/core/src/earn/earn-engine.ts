/**
 * The fixed-term savings state of the engine: products, LOCKED locks and the lock idempotency keys, and the
 * commands that change them. Rules, units and the ledger layout are in earn/types.ts. Deterministic: time comes with
 * each command; ids are sequence numbers ("1", "2", ...). Ended locks leave the state after their event (their history
 * is the database's).
 */
import type { Ledger } from '../ledger/ledger';
import type { EngineMachine } from '../machine';
import type { CommandResult, EngineEvent, RejectCode } from '../types';
import {
  EARN_DAY_MS,
  EARN_INTEREST,
  EARN_MAX_AMOUNT,
  EARN_MAX_APR_PPM,
  EARN_MAX_TERM_DAYS,
  EARN_PRINCIPAL,
  earnDaysDue,
  earnInterest,
  type EarnCommand,
  type EarnLockView,
  type EarnProductTerms,
  type EarnProductView,
  type EarnReads,
} from './types';

/** What the savings state needs from the engine. */
export interface EarnHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  isFrozen(userId: string): boolean;
  isUser(userId: string): boolean;
  hasAsset(code: string): number | undefined;
}

/** How long a lock's (userId, clientId) key is kept: a day of command time. */
export const EARN_KEY_WINDOW_MS = EARN_DAY_MS;
const MAX_KEY = 128;

/**
 * Every rejection a savings command may answer: a closed list, the compiler refuses any other code in this file. Listed
 * in the order of the engine's union (REJECT_CODES); the checks run in the order earn/types.ts gives each command.
 */
export const EARN_REJECT_CODES = [
  'invalid_config',
  'asset_not_found',
  'account_frozen',
  'invalid_order',
  'amount_invalid',
  'insufficient_balance',
  'user_not_found',
  'earn_product_not_found',
  'earn_product_closed',
  'earn_amount_out_of_limits',
  'earn_quota_exceeded',
  'earn_lock_not_found',
  'earn_early_redeem_not_allowed',
] as const satisfies readonly RejectCode[];
/** A savings command's rejection (EARN_REJECT_CODES). */
export type EarnRejectCode = (typeof EARN_REJECT_CODES)[number];

function reject(code: EarnRejectCode): CommandResult {
  return { code, events: [] };
}
function isKey(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_KEY;
}
function isInt(n: unknown, min: number, max: number): n is number {
  return typeof n === 'number' && Math.floor(n) === n && n >= min && n <= max;
}
function isAmount(v: unknown): v is bigint {
  return typeof v === 'bigint' && v > 0n && v <= EARN_MAX_AMOUNT;
}
function isAudit(a: unknown): boolean {
  if (a === undefined) return true;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;
  const e = Object.entries(a as Record<string, unknown>);
  return e.length <= 32 && e.every(([k, v]) => k.length <= 64 && typeof v === 'string' && v.length <= 2_000);
}
/** True when the terms are within the bounds of EarnCommand's earnSetProduct. */
export function earnTermsValid(t: unknown): t is EarnProductTerms {
  if (t === null || typeof t !== 'object') return false;
  const x = t as EarnProductTerms;
  return (
    isKey(x.asset) &&
    isInt(x.termDays, 1, EARN_MAX_TERM_DAYS) &&
    isInt(x.aprPpm, 0, EARN_MAX_APR_PPM) &&
    isAmount(x.minAmount) &&
    isAmount(x.maxAmount) &&
    isAmount(x.userQuota) &&
    isAmount(x.totalQuota) &&
    x.minAmount <= x.maxAmount &&
    x.maxAmount <= x.userQuota &&
    x.userQuota <= x.totalQuota &&
    (x.earlyRedeem === 'NOT_ALLOWED' || x.earlyRedeem === 'FORFEIT_INTEREST') &&
    (x.status === 'ON' || x.status === 'OFF')
  );
}

/** Snapshot of the savings state (bigints as decimal strings), in id order. */
export interface EarnSnapshot {
  productSeq: number;
  lockSeq: number;
  products: Record<string, unknown>[];
  locks: Record<string, unknown>[];
  /** [userId, clientId, lockId, ts] */
  keys: [string, string, string, number][];
}

const BIG = ['minAmount', 'maxAmount', 'userQuota', 'totalQuota', 'lockedTotal', 'amount', 'interestPaid', 'returned', 'forfeited'];
function toRow(v: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = typeof x === 'bigint' ? x.toString() : x;
  return out;
}
function fromRow<T>(r: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...r };
  for (const k of BIG) if (typeof out[k] === 'string') out[k] = BigInt(out[k]);
  return out as T;
}

/** The command types savings handle (the engine routes them here; `EarnCommand` in types.ts is their union). */
export const EARN_COMMANDS = ['earnSetProduct', 'earnLock', 'earnRedeem', 'earnSettle'] as const satisfies readonly EarnCommand['type'][];

/** The savings state and its commands (see the file comment). */
export class EarnState implements EarnReads {
  private productSeq = 0;
  private lockSeq = 0;
  private readonly products = new Map<string, EarnProductView>();
  /** LOCKED locks by id (ids increase, so the map's order is id order) */
  private readonly locks = new Map<string, EarnLockView>();
  /** `${userId}\n${clientId}` -> lock id and the time it was recorded */
  private readonly keys = new Map<string, { lockId: string; ts: number }>();
  private host!: EarnHost;

  constructor(private readonly ledger: Ledger) {}

  /** True before the first product (the snapshot then leaves the part out). */
  get isEmpty(): boolean {
    return this.products.size === 0;
  }

  // ---- reads ----------------------------------------------------------------------------------------------------

  earnProducts(): EarnProductView[] {
    return [...this.products.values()].map((p) => ({ ...p }));
  }
  earnProduct(productId: string): EarnProductView | undefined {
    const p = this.products.get(productId);
    return p === undefined ? undefined : { ...p };
  }
  earnLock(lockId: string): EarnLockView | undefined {
    const l = this.locks.get(lockId);
    return l === undefined ? undefined : { ...l };
  }
  earnLocks(userId?: string): EarnLockView[] {
    const out: EarnLockView[] = [];
    for (const l of this.locks.values()) if (userId === undefined || l.userId === userId) out.push({ ...l });
    return out;
  }
  /** Principal of `userId`'s LOCKED locks in a product (units). */
  private userLocked(userId: string, productId: string): bigint {
    let s = 0n;
    for (const l of this.locks.values()) if (l.userId === userId && l.productId === productId) s += l.amount;
    return s;
  }

  // ---- commands -------------------------------------------------------------------------------------------------

  /** Apply one savings command (the engine started the command: events, ledger touch list). */
  execute(cmd: EarnCommand, host: EarnHost): CommandResult {
    this.host = host;
    switch (cmd.type) {
      case 'earnSetProduct':
        return this.setProduct(cmd);
      case 'earnLock':
        return this.lock(cmd);
      case 'earnRedeem':
        return this.redeem(cmd);
      case 'earnSettle':
        return this.settle(cmd.ts);
      default:
        return reject('invalid_order');
    }
  }

  private productChanged(p: EarnProductView, ts: number, audit?: Record<string, string>): void {
    p.updatedTs = ts;
    this.host.events.push({ type: 'earnProductChanged', ts, product: { ...p }, ...(audit === undefined ? {} : { audit: { ...audit } }) });
  }

  private lockChanged(l: EarnLockView, ts: number, interest: bigint): void {
    l.updatedTs = ts;
    this.host.events.push({ type: 'earnLockChanged', ts, lock: { ...l }, interest });
  }

  private setProduct(cmd: Extract<EarnCommand, { type: 'earnSetProduct' }>): CommandResult {
    const { productId, terms: t, operatorId, audit } = cmd;
    if (!earnTermsValid(t) || !isKey(operatorId) || !isAudit(audit) || (productId !== undefined && !isKey(productId))) return reject('invalid_config');
    const prev = productId === undefined ? undefined : this.products.get(productId);
    if (productId !== undefined && prev === undefined) return reject('earn_product_not_found');
    if (prev !== undefined && prev.asset !== t.asset) return reject('invalid_config');
    if (this.host.hasAsset(t.asset) === undefined) return reject('asset_not_found');
    const terms: EarnProductTerms = {
      asset: t.asset,
      termDays: t.termDays,
      aprPpm: t.aprPpm,
      minAmount: t.minAmount,
      maxAmount: t.maxAmount,
      userQuota: t.userQuota,
      totalQuota: t.totalQuota,
      earlyRedeem: t.earlyRedeem,
      status: t.status,
    };
    let p: EarnProductView;
    if (prev === undefined) {
      const id = `${++this.productSeq}`;
      p = { productId: id, ...terms, lockedTotal: 0n, createdTs: cmd.ts, updatedTs: cmd.ts };
      this.products.set(id, p);
    } else {
      p = prev;
      Object.assign(p, terms);
    }
    this.productChanged(p, cmd.ts, audit);
    return { code: 'ok', events: this.host.events, earnProduct: { ...p } };
  }

  private lock(cmd: Extract<EarnCommand, { type: 'earnLock' }>): CommandResult {
    const { userId, productId, amount, clientId, ts } = cmd;
    if (!isKey(userId) || userId.charCodeAt(0) === 64 || !isKey(clientId) || !isKey(productId)) return reject('invalid_config');
    const key = `${userId}\n${clientId}`;
    const k = this.keys.get(key);
    if (k !== undefined && k.ts + EARN_KEY_WINDOW_MS > ts) {
      const first = this.locks.get(k.lockId);
      return { code: 'ok', events: [], duplicate: true, ...(first === undefined ? {} : { earnLock: { ...first } }) };
    }
    const p = this.products.get(productId);
    if (p === undefined) return reject('earn_product_not_found');
    if (!this.host.isUser(userId)) return reject('user_not_found');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    if (p.status !== 'ON') return reject('earn_product_closed');
    if (!isAmount(amount)) return reject('amount_invalid');
    if (amount < p.minAmount || amount > p.maxAmount) return reject('earn_amount_out_of_limits');
    if (this.userLocked(userId, productId) + amount > p.userQuota || p.lockedTotal + amount > p.totalQuota) return reject('earn_quota_exceeded');
    const src = this.ledger.find(userId, 'ASSETS', p.asset);
    if (src === undefined || src.available < amount) return reject('insufficient_balance');
    this.ledger.post(src, 'available', this.ledger.account(EARN_PRINCIPAL, 'SYSTEM', p.asset), 'available', amount);
    const id = `${++this.lockSeq}`;
    const l: EarnLockView = {
      lockId: id,
      productId,
      userId,
      clientId,
      asset: p.asset,
      amount,
      aprPpm: p.aprPpm,
      termDays: p.termDays,
      earlyRedeem: p.earlyRedeem,
      startTs: ts,
      endTs: ts + p.termDays * EARN_DAY_MS,
      daysPaid: 0,
      interestPaid: 0n,
      status: 'LOCKED',
      redeemKind: null,
      redeemedTs: null,
      returned: null,
      forfeited: null,
      updatedTs: ts,
    };
    this.locks.set(id, l);
    this.keys.set(key, { lockId: id, ts });
    p.lockedTotal += amount;
    this.productChanged(p, ts);
    this.lockChanged(l, ts, 0n);
    return { code: 'ok', events: this.host.events, earnLock: { ...l } };
  }

  /** Pays the interest of `l` due at `ts` (nothing when none is due); returns what it paid. */
  private payDue(l: EarnLockView, ts: number): bigint {
    const due = earnDaysDue(l.startTs, l.termDays, ts);
    if (due <= l.daysPaid) return 0n;
    const owed = earnInterest(l.amount, l.aprPpm, due) - l.interestPaid;
    this.ledger.post(this.ledger.account(EARN_INTEREST, 'SYSTEM', l.asset), 'available', this.ledger.account(l.userId, 'ASSETS', l.asset), 'available', owed);
    l.daysPaid = due;
    l.interestPaid += owed;
    return owed;
  }

  /** Ends `l`: gives back `returned` of the principal and `forfeited` to the interest account. */
  private end(l: EarnLockView, ts: number, kind: 'MATURITY' | 'EARLY', interest: bigint): void {
    const forfeited = kind === 'EARLY' ? l.interestPaid : 0n;
    const returned = l.amount - forfeited;
    const principal = this.ledger.account(EARN_PRINCIPAL, 'SYSTEM', l.asset);
    this.ledger.post(principal, 'available', this.ledger.account(l.userId, 'ASSETS', l.asset), 'available', returned);
    this.ledger.post(principal, 'available', this.ledger.account(EARN_INTEREST, 'SYSTEM', l.asset), 'available', forfeited);
    l.status = 'REDEEMED';
    l.redeemKind = kind;
    l.redeemedTs = ts;
    l.returned = returned;
    l.forfeited = forfeited;
    this.locks.delete(l.lockId);
    const p = this.products.get(l.productId) as EarnProductView;
    p.lockedTotal -= l.amount;
    this.productChanged(p, ts);
    this.lockChanged(l, ts, interest);
  }

  private redeem(cmd: Extract<EarnCommand, { type: 'earnRedeem' }>): CommandResult {
    const { userId, lockId, ts } = cmd;
    if (!isKey(userId) || !isKey(lockId)) return reject('invalid_config');
    const l = this.locks.get(lockId);
    if (l === undefined || l.userId !== userId) return reject('earn_lock_not_found');
    if (ts >= l.endTs) {
      // Matured but not yet settled by the job: the same as the job would do.
      const interest = this.payDue(l, ts);
      this.end(l, ts, 'MATURITY', interest);
    } else {
      if (l.earlyRedeem !== 'FORFEIT_INTEREST') return reject('earn_early_redeem_not_allowed');
      this.end(l, ts, 'EARLY', 0n);
    }
    return { code: 'ok', events: this.host.events, earnLock: { ...l } };
  }

  private settle(ts: number): CommandResult {
    for (const [key, k] of this.keys) if (k.ts + EARN_KEY_WINDOW_MS <= ts) this.keys.delete(key);
    for (const l of [...this.locks.values()]) {
      const interest = this.payDue(l, ts);
      if (ts >= l.endTs) this.end(l, ts, 'MATURITY', interest);
      else if (interest > 0n) this.lockChanged(l, ts, interest);
    }
    return { code: 'ok', events: this.host.events };
  }

  // ---- snapshot -------------------------------------------------------------------------------------------------

  rows(): EarnSnapshot {
    return {
      productSeq: this.productSeq,
      lockSeq: this.lockSeq,
      products: [...this.products.values()].map(toRow),
      locks: [...this.locks.values()].map(toRow),
      keys: [...this.keys].map(([key, v]) => {
        const i = key.indexOf('\n');
        return [key.slice(0, i), key.slice(i + 1), v.lockId, v.ts];
      }),
    };
  }

  static restore(s: EarnSnapshot, ledger: Ledger): EarnState {
    const e = new EarnState(ledger);
    e.productSeq = s.productSeq;
    e.lockSeq = s.lockSeq;
    for (const r of s.products) {
      const p = fromRow<EarnProductView>(r);
      e.products.set(p.productId, p);
    }
    for (const r of s.locks) {
      const l = fromRow<EarnLockView>(r);
      e.locks.set(l.lockId, l);
    }
    for (const [u, c, lockId, ts] of s.keys) e.keys.set(`${u}\n${c}`, { lockId, ts });
    return e;
  }
}

/**
 * The savings machine as a host gives it to the engine (`new Engine({ machines: [earnMachine] })`; the server's
 * savings module brings it): its commands, its reads, and its state under `earn` in the snapshot (the last field, as
 * when the engine listed it, so snapshots and hashes are unchanged).
 */
export const earnMachine: EngineMachine<EarnState> = {
  name: 'earn',
  commands: EARN_COMMANDS,
  reads: ['earnProducts', 'earnProduct', 'earnLock', 'earnLocks'] satisfies (keyof EarnReads)[],
  create: (ledger) => new EarnState(ledger),
  restore: (rows, ledger) => EarnState.restore(rows as EarnSnapshot, ledger),
};
