/**
 * The OTC state of the engine: merchants, ads, open orders and the buyers' daily cancel counts, and the
 * commands that change them. Rules and the escrow layout are in otc/types.ts. Deterministic: time comes with each
 * command; ids are sequence numbers ("1", "2", ...) per kind.
 */
import type { Ledger } from '../ledger/ledger';
import type { CommandResult, EngineEvent, RejectCode } from '../types';
import {
  OTC_MAX_FLOAT_PPM,
  OTC_MAX_PAYMENT_WINDOW_MS,
  OTC_MAX_REASON_LENGTH,
  OTC_MIN_FLOAT_PPM,
  OTC_MIN_PAYMENT_WINDOW_MS,
  otcDay,
  otcFloatPrice,
  otcQuantity,
  type OtcAdTerms,
  type OtcAdView,
  type OtcCommand,
  type OtcConfig,
  type OtcEndReason,
  type OtcMerchantView,
  type OtcOrderView,
  type OtcReads,
} from './types';

/** What the OTC state needs from the engine. */
export interface OtcHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  isFrozen(userId: string): boolean;
  /** true for a registered user */
  isUser(userId: string): boolean;
  /** the scale of a listed asset, or undefined */
  hasAsset(code: string): number | undefined;
  /** the live idempotency entry (seq) of (kind 'ad' | 'order', userId, clientId), or undefined */
  otcKeyLookup(kind: 'ad' | 'order', userId: string, clientId: string, ts: number): number | undefined;
  otcKeyAdd(kind: 'ad' | 'order', userId: string, clientId: string, ts: number, seq: number): void;
}

/** Largest idempotency key and id lengths (characters). */
const MAX_KEY = 128;
/** Largest amount accepted anywhere in OTC (units or cents): 10^30. */
const MAX_AMOUNT = 10n ** 30n;
/** Largest appeal wait: 7 days; largest cancel limit: 100. */
const MAX_APPEAL_AFTER_MS = 7 * 86_400_000;
const MAX_CANCEL_LIMIT = 100;

/**
 * Every rejection an OTC command may answer: a closed list, the compiler refuses any other code in this file. Listed in
 * the order of the engine's union (REJECT_CODES), not the order the checks run in (each handler below has its own).
 */
export const OTC_REJECT_CODES = [
  'invalid_config',
  'asset_not_found',
  'account_frozen',
  'invalid_order',
  'price_required',
  'amount_invalid',
  'insufficient_balance',
  'user_not_found',
  'otc_disabled',
  'otc_not_merchant',
  'otc_merchant_state_invalid',
  'otc_ads_open',
  'otc_ad_not_found',
  'otc_own_ad',
  'otc_ad_unavailable',
  'otc_cancel_limit',
  'otc_amount_out_of_limits',
  'otc_order_not_found',
  'otc_order_state_invalid',
  'otc_payment_expired',
  'otc_appeal_too_early',
] as const satisfies readonly RejectCode[];
/** An OTC command's rejection (OTC_REJECT_CODES). */
export type OtcRejectCode = (typeof OTC_REJECT_CODES)[number];

function reject(code: OtcRejectCode): CommandResult {
  return { code, events: [] };
}
function isKey(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_KEY;
}
function isUserId(s: unknown): s is string {
  return isKey(s) && s.charCodeAt(0) !== 64;
}
function isAmount(v: unknown): v is bigint {
  return typeof v === 'bigint' && v > 0n && v <= MAX_AMOUNT;
}
function isInt(n: unknown, min: number, max: number): n is number {
  return typeof n === 'number' && Math.floor(n) === n && n >= min && n <= max;
}
function isReason(s: unknown): s is string {
  return typeof s === 'string' && s.length <= OTC_MAX_REASON_LENGTH;
}
function isAudit(a: unknown): boolean {
  if (a === undefined) return true;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;
  const e = Object.entries(a as Record<string, unknown>);
  return e.length <= 32 && e.every(([k, v]) => k.length <= 64 && typeof v === 'string' && v.length <= 2_000);
}
/** A view with its own copy of the meta map (the engine's objects are never handed out). */
function copyView<T extends { meta: Record<string, string> }>(v: T): T {
  return { ...v, meta: { ...v.meta } };
}
function copyAudit(a: Record<string, string> | undefined): { audit?: Record<string, string> } {
  return a === undefined ? {} : { audit: { ...a } };
}

/** Validates an ad's terms (the engine's bounds; the server gives friendlier messages first). */
function termsValid(t: unknown): t is OtcAdTerms {
  if (t === null || typeof t !== 'object') return false;
  const x = t as OtcAdTerms;
  if (x.priceType === 'FIXED') {
    if (!isAmount(x.price) || x.floatPpm !== null) return false;
  } else if (x.priceType === 'FLOAT') {
    if (x.price !== null || !isInt(x.floatPpm, OTC_MIN_FLOAT_PPM, OTC_MAX_FLOAT_PPM)) return false;
  } else {
    return false;
  }
  return isAmount(x.minFiat) && isAmount(x.maxFiat) && x.minFiat <= x.maxFiat && isInt(x.paymentWindowMs, OTC_MIN_PAYMENT_WINDOW_MS, OTC_MAX_PAYMENT_WINDOW_MS);
}
function copyTerms(t: OtcAdTerms): OtcAdTerms {
  return { priceType: t.priceType, price: t.price, floatPpm: t.floatPpm, minFiat: t.minFiat, maxFiat: t.maxFiat, paymentWindowMs: t.paymentWindowMs };
}

/** Snapshot of the OTC state: views with bigints as decimal strings (JSON-safe), in id order. */
export interface OtcSnapshot {
  config: (Omit<OtcConfig, 'merchantDeposit'> & { merchantDeposit: string }) | null;
  adSeq: number;
  orderSeq: number;
  merchants: Record<string, unknown>[];
  ads: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  /** [userId, day, count] */
  cancels: [string, number, number][];
}

const BIG_FIELDS = ['deposit', 'price', 'minFiat', 'maxFiat', 'totalQty', 'remainingQty', 'quantity', 'fiatAmount'];
function toRow(v: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = typeof x === 'bigint' ? x.toString() : k === 'meta' ? { ...(x as Record<string, string>) } : x;
  return out;
}
function fromRow<T>(r: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...r };
  for (const k of BIG_FIELDS) if (typeof out[k] === 'string') out[k] = BigInt(out[k]);
  // The state's own meta map: an order's meta is merged in place later, which must never reach the snapshot object
  // (or another engine restored from it).
  if (out.meta !== null && typeof out.meta === 'object') out.meta = { ...(out.meta as Record<string, string>) };
  return out as T;
}

/** The command types OTC handles (the engine routes them here; `OtcCommand` in types.ts is their union). */
export const OTC_COMMANDS = [
  'otcConfigure',
  'otcApplyMerchant',
  'otcReviewMerchant',
  'otcSetMerchantStatus',
  'otcLeaveMerchant',
  'otcPublishAd',
  'otcUpdateAd',
  'otcSetAdStatus',
  'otcTakeAd',
  'otcMarkPaid',
  'otcRelease',
  'otcCancelOrder',
  'otcAppeal',
  'otcCancelAppeal',
  'otcResolveAppeal',
] as const satisfies readonly OtcCommand['type'][];

/** The OTC state and its commands (see the file comment). */
export class OtcState implements OtcReads {
  private config: OtcConfig | null = null;
  private adSeq = 0;
  private orderSeq = 0;
  private readonly merchants = new Map<string, OtcMerchantView>();
  /** ads not CLOSED */
  private readonly ads = new Map<string, OtcAdView>();
  /** open orders */
  private readonly orders = new Map<string, OtcOrderView>();
  /** userId -> cancels on a day */
  private readonly cancels = new Map<string, { day: number; count: number }>();
  private host!: OtcHost;

  constructor(private readonly ledger: Ledger) {}

  // ---- reads ----------------------------------------------------------------------------------------------------

  otcConfig(): OtcConfig | undefined {
    return this.config === null ? undefined : { ...this.config };
  }
  otcMerchant(userId: string): OtcMerchantView | undefined {
    const m = this.merchants.get(userId);
    return m === undefined ? undefined : { ...m };
  }
  otcAd(adId: string): OtcAdView | undefined {
    const a = this.ads.get(adId);
    return a === undefined ? undefined : copyView(a);
  }
  otcAds(userId?: string): OtcAdView[] {
    const out: OtcAdView[] = [];
    for (const a of this.ads.values()) if (userId === undefined || a.userId === userId) out.push(copyView(a));
    return out;
  }
  otcOrder(orderId: string): OtcOrderView | undefined {
    const o = this.orders.get(orderId);
    return o === undefined ? undefined : copyView(o);
  }
  otcOpenOrders(userId?: string): OtcOrderView[] {
    const out: OtcOrderView[] = [];
    for (const o of this.orders.values()) if (userId === undefined || o.makerId === userId || o.takerId === userId) out.push(copyView(o));
    return out;
  }
  otcCancelsOn(userId: string, ts: number): number {
    const c = this.cancels.get(userId);
    return c !== undefined && c.day === otcDay(ts) ? c.count : 0;
  }

  // ---- commands -------------------------------------------------------------------------------------------------

  /** Apply one OTC command (the engine started the command: events, ledger touch list). */
  execute(cmd: OtcCommand, host: OtcHost): CommandResult {
    this.host = host;
    if (cmd.type === 'otcConfigure') return this.configure(cmd);
    if (this.config === null) return reject('otc_disabled');
    switch (cmd.type) {
      case 'otcApplyMerchant':
        return this.applyMerchant(cmd);
      case 'otcReviewMerchant':
        return this.reviewMerchant(cmd);
      case 'otcSetMerchantStatus':
        return this.setMerchantStatus(cmd);
      case 'otcLeaveMerchant':
        return this.leaveMerchant(cmd);
      case 'otcPublishAd':
        return this.publishAd(cmd);
      case 'otcUpdateAd':
        return this.updateAd(cmd);
      case 'otcSetAdStatus':
        return this.setAdStatus(cmd);
      case 'otcTakeAd':
        return this.takeAd(cmd);
      case 'otcMarkPaid':
        return this.markPaid(cmd);
      case 'otcRelease':
        return this.release(cmd);
      case 'otcCancelOrder':
        return this.cancelOrder(cmd);
      case 'otcAppeal':
        return this.appeal(cmd);
      case 'otcCancelAppeal':
        return this.cancelAppeal(cmd);
      case 'otcResolveAppeal':
        return this.resolveAppeal(cmd);
      default:
        return reject('invalid_order');
    }
  }

  private ok(extra: Partial<CommandResult> = {}): CommandResult {
    return { code: 'ok', events: this.host.events, ...extra };
  }

  private otcAccount(userId: string) {
    return this.ledger.account(userId, 'OTC', (this.config as OtcConfig).asset);
  }

  private configure(cmd: Extract<OtcCommand, { type: 'otcConfigure' }>): CommandResult {
    const c = cmd.config;
    if (
      c === null ||
      typeof c !== 'object' ||
      !isKey(c.asset) ||
      !isKey(c.fiat) ||
      typeof c.merchantDeposit !== 'bigint' ||
      c.merchantDeposit < 0n ||
      c.merchantDeposit > MAX_AMOUNT ||
      !isInt(c.appealAfterMs, 0, MAX_APPEAL_AFTER_MS) ||
      !isInt(c.cancelLimit, 1, MAX_CANCEL_LIMIT) ||
      !isAudit(cmd.audit)
    ) {
      return reject('invalid_config');
    }
    if (this.host.hasAsset(c.asset) === undefined) return reject('asset_not_found');
    // The traded asset is fixed once anything holds it (deposits, ads, orders are in that asset).
    if (this.config !== null && this.config.asset !== c.asset && (this.merchants.size > 0 || this.ads.size > 0 || this.orders.size > 0)) {
      return reject('invalid_config');
    }
    this.config = { asset: c.asset, fiat: c.fiat, merchantDeposit: c.merchantDeposit, appealAfterMs: c.appealAfterMs, cancelLimit: c.cancelLimit };
    this.host.events.push({ type: 'otcConfigured', ts: cmd.ts, config: { ...this.config }, ...copyAudit(cmd.audit) });
    return this.ok();
  }

  private merchantChanged(m: OtcMerchantView, ts: number, audit?: Record<string, string>): CommandResult {
    m.updatedTs = ts;
    this.host.events.push({ type: 'otcMerchantChanged', ts, merchant: { ...m }, ...copyAudit(audit) });
    return this.ok();
  }

  private applyMerchant(cmd: Extract<OtcCommand, { type: 'otcApplyMerchant' }>): CommandResult {
    const { userId } = cmd;
    if (!isUserId(userId)) return reject('invalid_config');
    if (!this.host.isUser(userId)) return reject('user_not_found');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const prev = this.merchants.get(userId);
    if (prev !== undefined && prev.state !== 'REJECTED' && prev.state !== 'LEFT') return reject('otc_merchant_state_invalid');
    const cfg = this.config as OtcConfig;
    const acc = this.otcAccount(userId);
    if (acc.available < cfg.merchantDeposit) return reject('insufficient_balance');
    this.ledger.hold(acc, cfg.merchantDeposit);
    const m: OtcMerchantView = {
      userId,
      state: 'PENDING',
      deposit: cfg.merchantDeposit,
      operatorId: null,
      reason: null,
      createdTs: prev?.createdTs ?? cmd.ts,
      updatedTs: cmd.ts,
    };
    this.merchants.set(userId, m);
    return this.merchantChanged(m, cmd.ts);
  }

  private reviewMerchant(cmd: Extract<OtcCommand, { type: 'otcReviewMerchant' }>): CommandResult {
    const { userId, operatorId, approve, reason, audit } = cmd;
    if (!isKey(operatorId) || typeof approve !== 'boolean' || !isReason(reason) || !isAudit(audit)) return reject('invalid_config');
    const m = typeof userId === 'string' ? this.merchants.get(userId) : undefined;
    if (m === undefined) return reject('otc_not_merchant');
    if (m.state !== 'PENDING') return reject('otc_merchant_state_invalid');
    if (approve) {
      m.state = 'ACTIVE';
    } else {
      this.ledger.release(this.otcAccount(m.userId), m.deposit);
      m.deposit = 0n;
      m.state = 'REJECTED';
    }
    m.operatorId = operatorId;
    m.reason = reason;
    return this.merchantChanged(m, cmd.ts, audit);
  }

  private setMerchantStatus(cmd: Extract<OtcCommand, { type: 'otcSetMerchantStatus' }>): CommandResult {
    const { userId, operatorId, status, reason, audit } = cmd;
    if (!isKey(operatorId) || (status !== 'ACTIVE' && status !== 'SUSPENDED') || !isReason(reason) || !isAudit(audit)) return reject('invalid_config');
    const m = typeof userId === 'string' ? this.merchants.get(userId) : undefined;
    if (m === undefined) return reject('otc_not_merchant');
    const from = status === 'SUSPENDED' ? 'ACTIVE' : 'SUSPENDED';
    if (m.state !== from) return reject('otc_merchant_state_invalid');
    m.state = status;
    m.operatorId = operatorId;
    m.reason = reason;
    return this.merchantChanged(m, cmd.ts, audit);
  }

  private leaveMerchant(cmd: Extract<OtcCommand, { type: 'otcLeaveMerchant' }>): CommandResult {
    const m = typeof cmd.userId === 'string' ? this.merchants.get(cmd.userId) : undefined;
    if (m === undefined) return reject('otc_not_merchant');
    if (m.state !== 'ACTIVE' && m.state !== 'SUSPENDED') return reject('otc_merchant_state_invalid');
    for (const a of this.ads.values()) if (a.userId === m.userId) return reject('otc_ads_open');
    for (const o of this.orders.values()) if (o.makerId === m.userId) return reject('otc_ads_open');
    this.ledger.release(this.otcAccount(m.userId), m.deposit);
    m.deposit = 0n;
    m.state = 'LEFT';
    m.operatorId = null;
    m.reason = null;
    return this.merchantChanged(m, cmd.ts);
  }

  private adChanged(a: OtcAdView, ts: number, audit?: Record<string, string>): CommandResult {
    a.updatedTs = ts;
    if (a.status === 'CLOSED') this.ads.delete(a.adId);
    this.host.events.push({ type: 'otcAdChanged', ts, ad: copyView(a), ...copyAudit(audit) });
    return this.ok();
  }

  private publishAd(cmd: Extract<OtcCommand, { type: 'otcPublishAd' }>): CommandResult {
    const { userId, side, quantity, terms, clientId, meta } = cmd;
    if (!isUserId(userId) || (side !== 'BUY' && side !== 'SELL') || (clientId !== undefined && !isKey(clientId)) || !isAudit(meta))
      return reject('invalid_config');
    if (clientId !== undefined) {
      const seq = this.host.otcKeyLookup('ad', userId, clientId, cmd.ts);
      if (seq !== undefined) return { code: 'ok', events: [], duplicate: true };
    }
    if (!termsValid(terms) || !isAmount(quantity)) return reject('invalid_order');
    const m = this.merchants.get(userId);
    if (m === undefined || m.state !== 'ACTIVE') return reject('otc_not_merchant');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const cfg = this.config as OtcConfig;
    if (side === 'SELL') {
      const acc = this.otcAccount(userId);
      if (acc.available < quantity) return reject('insufficient_balance');
      this.ledger.hold(acc, quantity);
    }
    const id = ++this.adSeq;
    const a: OtcAdView = {
      adId: `${id}`,
      userId,
      side,
      asset: cfg.asset,
      fiat: cfg.fiat,
      ...copyTerms(terms),
      totalQty: quantity,
      remainingQty: quantity,
      status: 'ONLINE',
      meta: { ...meta },
      createdTs: cmd.ts,
      updatedTs: cmd.ts,
    };
    this.ads.set(a.adId, a);
    if (clientId !== undefined) this.host.otcKeyAdd('ad', userId, clientId, cmd.ts, id);
    return this.adChanged(a, cmd.ts);
  }

  private updateAd(cmd: Extract<OtcCommand, { type: 'otcUpdateAd' }>): CommandResult {
    const { userId, adId, remainingQty, terms, meta } = cmd;
    if (!isUserId(userId) || !isAudit(meta)) return reject('invalid_config');
    const a = typeof adId === 'string' ? this.ads.get(adId) : undefined;
    if (a === undefined || a.userId !== userId) return reject('otc_ad_not_found');
    if (!termsValid(terms) || typeof remainingQty !== 'bigint' || remainingQty < 0n || remainingQty > MAX_AMOUNT) return reject('invalid_order');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const delta = remainingQty - a.remainingQty;
    if (a.side === 'SELL') {
      const acc = this.otcAccount(userId);
      if (delta > 0n) {
        if (acc.available < delta) return reject('insufficient_balance');
        this.ledger.hold(acc, delta);
      } else if (delta < 0n) {
        this.ledger.release(acc, -delta);
      }
    }
    if (delta > 0n) a.totalQty += delta;
    a.remainingQty = remainingQty;
    Object.assign(a, copyTerms(terms));
    if (meta !== undefined) a.meta = { ...meta };
    return this.adChanged(a, cmd.ts);
  }

  private setAdStatus(cmd: Extract<OtcCommand, { type: 'otcSetAdStatus' }>): CommandResult {
    const { adId, status, userId, operatorId, audit } = cmd;
    if ((userId === undefined) === (operatorId === undefined) || (operatorId !== undefined && !isKey(operatorId)) || !isAudit(audit))
      return reject('invalid_config');
    if (status !== 'ONLINE' && status !== 'PAUSED' && status !== 'CLOSED') return reject('invalid_config');
    const a = typeof adId === 'string' ? this.ads.get(adId) : undefined;
    if (a === undefined || (userId !== undefined && a.userId !== userId)) return reject('otc_ad_not_found');
    if (status === 'ONLINE' && userId !== undefined) {
      const m = this.merchants.get(a.userId);
      if (m === undefined || m.state !== 'ACTIVE') return reject('otc_not_merchant');
    }
    if (a.status === status) return this.ok();
    if (status === 'CLOSED' && a.side === 'SELL') this.ledger.release(this.otcAccount(a.userId), a.remainingQty);
    if (status === 'CLOSED') a.remainingQty = 0n;
    a.status = status;
    return this.adChanged(a, cmd.ts, audit);
  }

  private orderChanged(o: OtcOrderView, ts: number, audit?: Record<string, string>, meta?: Record<string, string>): CommandResult {
    o.updatedTs = ts;
    if (meta !== undefined) Object.assign(o.meta, meta);
    if (o.state === 'COMPLETED' || o.state === 'CANCELLED') this.orders.delete(o.orderId);
    this.host.events.push({ type: 'otcOrderChanged', ts, order: copyView(o), ...copyAudit(audit) });
    return this.ok({ otcOrder: copyView(o) });
  }

  private takeAd(cmd: Extract<OtcCommand, { type: 'otcTakeAd' }>): CommandResult {
    const { userId, adId, fiatAmount, indexPrice, clientId, meta } = cmd;
    if (!isUserId(userId) || !isKey(clientId) || !isAudit(meta)) return reject('invalid_config');
    const seq = this.host.otcKeyLookup('order', userId, clientId, cmd.ts);
    if (seq !== undefined) {
      const first = this.orders.get(`${seq}`);
      return { code: 'ok', events: [], duplicate: true, ...(first !== undefined ? { otcOrder: copyView(first) } : {}) };
    }
    if (!this.host.isUser(userId)) return reject('user_not_found');
    const a = typeof adId === 'string' ? this.ads.get(adId) : undefined;
    if (a === undefined) return reject('otc_ad_not_found');
    if (a.userId === userId) return reject('otc_own_ad');
    if (!isAmount(fiatAmount) || (indexPrice !== undefined && !isAmount(indexPrice))) return reject('amount_invalid');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const m = this.merchants.get(a.userId);
    if (a.status !== 'ONLINE' || m === undefined || m.state !== 'ACTIVE' || this.host.isFrozen(a.userId)) return reject('otc_ad_unavailable');
    const cfg = this.config as OtcConfig;
    if (this.otcCancelsOn(userId, cmd.ts) >= cfg.cancelLimit) return reject('otc_cancel_limit');
    let price: bigint;
    if (a.priceType === 'FIXED') {
      price = a.price as bigint;
    } else {
      if (indexPrice === undefined) return reject('price_required');
      price = otcFloatPrice(indexPrice, a.floatPpm as number);
      if (price <= 0n) return reject('amount_invalid');
    }
    const scale = this.host.hasAsset(a.asset) as number;
    const quantity = otcQuantity(fiatAmount, price, scale);
    if (fiatAmount < a.minFiat || fiatAmount > a.maxFiat || quantity <= 0n || quantity > a.remainingQty) return reject('otc_amount_out_of_limits');
    const buyerId = a.side === 'SELL' ? userId : a.userId;
    const sellerId = a.side === 'SELL' ? a.userId : userId;
    if (a.side === 'BUY') {
      // The taker sells: the order holds the taker's coins now (a SELL ad's remainder is held already).
      const acc = this.otcAccount(userId);
      if (acc.available < quantity) return reject('insufficient_balance');
      this.ledger.hold(acc, quantity);
    }
    a.remainingQty -= quantity;
    const id = ++this.orderSeq;
    const o: OtcOrderView = {
      orderId: `${id}`,
      clientId,
      adId: a.adId,
      makerId: a.userId,
      takerId: userId,
      buyerId,
      sellerId,
      asset: a.asset,
      fiat: a.fiat,
      price,
      quantity,
      fiatAmount,
      state: 'PENDING_PAYMENT',
      createdTs: cmd.ts,
      deadlineTs: cmd.ts + a.paymentWindowMs,
      paidTs: null,
      appealBy: null,
      appealTs: null,
      endReason: null,
      resolvedBy: null,
      reason: null,
      meta: { ...meta },
      updatedTs: cmd.ts,
    };
    this.orders.set(o.orderId, o);
    this.host.otcKeyAdd('order', userId, clientId, cmd.ts, id);
    this.adChanged(a, cmd.ts);
    return this.orderChanged(o, cmd.ts);
  }

  /** The open order `orderId` seen by `userId` (a party), or the rejection; another user's order is not found. */
  private orderOf(orderId: unknown, userId: unknown): OtcOrderView | OtcRejectCode {
    const o = typeof orderId === 'string' ? this.orders.get(orderId) : undefined;
    if (o === undefined || (userId !== undefined && o.buyerId !== userId && o.sellerId !== userId)) return 'otc_order_not_found';
    return o;
  }

  private markPaid(cmd: Extract<OtcCommand, { type: 'otcMarkPaid' }>): CommandResult {
    if (!isAudit(cmd.meta)) return reject('invalid_config');
    const o = this.orderOf(cmd.orderId, cmd.userId);
    if (typeof o === 'string') return reject(o);
    if (o.buyerId !== cmd.userId || o.state !== 'PENDING_PAYMENT') return reject('otc_order_state_invalid');
    if (cmd.ts >= o.deadlineTs) return reject('otc_payment_expired');
    o.state = 'PAID';
    o.paidTs = cmd.ts;
    return this.orderChanged(o, cmd.ts, undefined, cmd.meta);
  }

  /** The escrow goes to the buyer (the seller's hold leaves the seller). */
  private settle(o: OtcOrderView, reason: OtcEndReason): void {
    this.ledger.post(this.otcAccount(o.sellerId), 'frozen', this.otcAccount(o.buyerId), 'available', o.quantity);
    o.state = 'COMPLETED';
    o.endReason = reason;
  }

  /** The escrow goes back: to the ad while it is open (its remainder), else to the seller's available. */
  private unwind(o: OtcOrderView, reason: OtcEndReason, ts: number): void {
    const a = this.ads.get(o.adId);
    if (a !== undefined) {
      // An open ad offers the quantity again; a BUY ad's taker gets the coins back (the ad held none).
      a.remainingQty += o.quantity;
      if (a.side === 'BUY') this.ledger.release(this.otcAccount(o.sellerId), o.quantity);
      this.adChanged(a, ts);
    } else {
      this.ledger.release(this.otcAccount(o.sellerId), o.quantity);
    }
    o.state = 'CANCELLED';
    o.endReason = reason;
  }

  private release(cmd: Extract<OtcCommand, { type: 'otcRelease' }>): CommandResult {
    const o = this.orderOf(cmd.orderId, cmd.userId);
    if (typeof o === 'string') return reject(o);
    if (o.sellerId !== cmd.userId || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID')) return reject('otc_order_state_invalid');
    this.settle(o, 'RELEASED');
    return this.orderChanged(o, cmd.ts);
  }

  private countCancel(userId: string, ts: number): void {
    const day = otcDay(ts);
    const c = this.cancels.get(userId);
    if (c === undefined || c.day !== day) this.cancels.set(userId, { day, count: 1 });
    else c.count++;
  }

  private cancelOrder(cmd: Extract<OtcCommand, { type: 'otcCancelOrder' }>): CommandResult {
    const byBuyer = cmd.userId !== undefined;
    if ((byBuyer && !isUserId(cmd.userId)) || !isAudit(cmd.meta)) return reject('invalid_config');
    const o = this.orderOf(cmd.orderId, cmd.userId);
    if (typeof o === 'string') return reject(o);
    if (byBuyer) {
      if (o.buyerId !== cmd.userId || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID')) return reject('otc_order_state_invalid');
    } else if (o.state !== 'PENDING_PAYMENT' || cmd.ts < o.deadlineTs) {
      return reject('otc_order_state_invalid');
    }
    this.unwind(o, byBuyer ? 'BUYER_CANCELLED' : 'TIMEOUT', cmd.ts);
    this.countCancel(o.buyerId, cmd.ts);
    return this.orderChanged(o, cmd.ts, undefined, cmd.meta);
  }

  private appeal(cmd: Extract<OtcCommand, { type: 'otcAppeal' }>): CommandResult {
    if (!isAudit(cmd.meta)) return reject('invalid_config');
    const o = this.orderOf(cmd.orderId, cmd.userId);
    if (typeof o === 'string') return reject(o);
    if (o.state !== 'PAID') return reject('otc_order_state_invalid');
    if (cmd.ts < (o.paidTs as number) + (this.config as OtcConfig).appealAfterMs) return reject('otc_appeal_too_early');
    o.state = 'APPEAL';
    o.appealBy = cmd.userId;
    o.appealTs = cmd.ts;
    return this.orderChanged(o, cmd.ts, undefined, cmd.meta);
  }

  private cancelAppeal(cmd: Extract<OtcCommand, { type: 'otcCancelAppeal' }>): CommandResult {
    const o = this.orderOf(cmd.orderId, cmd.userId);
    if (typeof o === 'string') return reject(o);
    if (o.state !== 'APPEAL' || o.appealBy !== cmd.userId) return reject('otc_order_state_invalid');
    o.state = 'PAID';
    return this.orderChanged(o, cmd.ts);
  }

  private resolveAppeal(cmd: Extract<OtcCommand, { type: 'otcResolveAppeal' }>): CommandResult {
    const { operatorId, outcome, reason, audit, meta } = cmd;
    if (!isKey(operatorId) || (outcome !== 'RELEASE' && outcome !== 'RETURN') || !isReason(reason) || !isAudit(audit) || !isAudit(meta))
      return reject('invalid_config');
    const o = this.orderOf(cmd.orderId, undefined);
    if (typeof o === 'string') return reject(o);
    if (o.state !== 'APPEAL') return reject('otc_order_state_invalid');
    if (outcome === 'RELEASE') this.settle(o, 'APPEAL_RELEASED');
    else this.unwind(o, 'APPEAL_RETURNED', cmd.ts);
    o.resolvedBy = operatorId;
    o.reason = reason;
    return this.orderChanged(o, cmd.ts, audit, meta);
  }

  // ---- snapshot -------------------------------------------------------------------------------------------------

  /** True when there is nothing to snapshot (OTC never configured). */
  get isEmpty(): boolean {
    return this.config === null;
  }

  /** Canonical rows (id order; cancels by user id). */
  rows(): OtcSnapshot {
    const cancels: [string, number, number][] = [...this.cancels.entries()]
      .map(([u, c]): [string, number, number] => [u, c.day, c.count])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return {
      config: this.config === null ? null : { ...this.config, merchantDeposit: this.config.merchantDeposit.toString() },
      adSeq: this.adSeq,
      orderSeq: this.orderSeq,
      merchants: [...this.merchants.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)).map(toRow),
      ads: [...this.ads.values()].map(toRow),
      orders: [...this.orders.values()].map(toRow),
      cancels,
    };
  }

  /** Restore from `rows()` output (possibly after a JSON round trip). Throws on a malformed snapshot. */
  static restore(s: OtcSnapshot, ledger: Ledger): OtcState {
    if (s === null || typeof s !== 'object' || !Array.isArray(s.merchants) || !Array.isArray(s.ads) || !Array.isArray(s.orders) || !Array.isArray(s.cancels)) {
      throw new Error('restore: malformed otc state');
    }
    const o = new OtcState(ledger);
    o.config = s.config === null ? null : { ...s.config, merchantDeposit: BigInt(s.config.merchantDeposit) };
    o.adSeq = s.adSeq;
    o.orderSeq = s.orderSeq;
    for (const r of s.merchants) {
      const m = fromRow<OtcMerchantView>(r);
      o.merchants.set(m.userId, m);
    }
    for (const r of s.ads) {
      const a = fromRow<OtcAdView>(r);
      o.ads.set(a.adId, a);
    }
    for (const r of s.orders) {
      const x = fromRow<OtcOrderView>(r);
      o.orders.set(x.orderId, x);
    }
    for (const [u, day, count] of s.cancels) o.cancels.set(u, { day, count });
    return o;
  }
}
