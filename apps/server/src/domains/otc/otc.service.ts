/**
 * Peer-to-peer fiat trading, server side (packages/api otc.ts; the engine's rules: packages/core
 * otc/types.ts). Everything that moves money is an engine command through the journal (merchant deposit, ads' holds,
 * escrow, release, cancel, appeal resolution); this service checks first what the engine cannot know:
 * - only verified users (KYC basic PASS) take ads or apply as merchants; an enabled payment method is needed to apply,
 *   to publish and to sell; an ad's payment methods are the merchant's own enabled ones;
 * - the transaction password to apply, leave, sell and release (and the Google code on release when bound);
 * - fiat amounts in cents (2 decimals); a FLOAT ad priced from the USDT index in CNY: config.usdtCnyRate (the rate of
 *   the asset pages today), passed to the engine as `indexPrice` in cents.
 * The server's own fields of ads and orders travel in the commands' `meta` (so they are rebuilt from the journal):
 * ads `pm` (payment method ids, comma-separated), `pt` (their types), `remarks`, `clientId`; orders `sellerPm` (the
 * seller's methods the buyer may pay into), `takerPm` (the selling taker's method), `paidWith`, `proof` (upload id),
 * `cancelReason`, `appealReason`, `appealDesc`, `appealImages` (upload ids), `appealOutcome`.
 * The chat (text or an uploaded image; SYSTEM notes of each state change) is not money: a database table, written
 * by the gateway that handles the request (or the time-out job), visible to the two sides and operators only.
 * Images (payment QR codes, proof, evidence, chat) are served by `image` to the order's two sides and operators.
 */
import { otcFloatPrice, OTC_FIAT_DECIMALS, type CommandResult, type OtcAdTerms, type OtcAdView, type OtcCommand, type OtcOrderView } from '@exchange/core';
import type { Static } from '@sinclair/typebox';
import type {
  AdminOtcMerchant,
  AdminOtcOrderDetail,
  AppealBody,
  GetOtcAdsQuery,
  OtcAd,
  OtcAdPage,
  OtcAppealView,
  OtcChatMessage,
  OtcConfigView,
  OtcMerchantBrief,
  OtcMerchantView,
  OtcOrder,
  OtcOrderDetail,
  OtcOrderPage,
  OtcPaymentDetail,
  OtcPayType,
  PublishAdBody,
  TakeAdBody,
  UpdateAdBody,
} from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { Config } from '../../platform/config/env';
import { AppError } from '../../platform/shared/errors';
import { FixedWindowCounter } from '../../platform/rate-limit/fixed-window';
import type { SecurityService } from '../security/security.service';
import type { KycService } from '../kyc/kyc.service';
import type { UploadsService } from '../uploads/uploads.service';
import type { PaymentService, StoredPaymentMethod } from '../payment/payment.service';
import { engineAuditRecord } from '../../platform/shared/operator';
import { createOtcRepository, type OtcMessageRecord } from './otc.repository';
import {
  adOfRow,
  coinText,
  fiatText,
  idList,
  indexCents,
  merchantOfRow,
  OTC_PAYMENT_WINDOWS_MIN,
  orderOfRow,
  percentPpm,
  percentText,
  positiveUnits,
  toOtcOrder,
} from './otc.format';
import { maskAccount } from '../../platform/shared/account';

/** Chat messages one user may send per minute, over all its orders (a flood is refused 429 rate_limited). */
export const OTC_CHAT_PER_MIN = 20;

/** An OTC command without its timestamp (the host stamps it). */
type OtcInput = OtcCommand extends infer C ? (C extends OtcCommand ? Omit<C, 'ts'> : never) : never;

/** Who acts in the console (domains/admin Actor: the fields the audit record takes). */
export interface OtcActor {
  id: bigint;
  email: string;
  ip: string;
  userAgent: string;
}

/** A private push for the WebSocket hub: the user and the message (channel otcOrder or otcChat). */
export interface OtcPush {
  userId: string;
  message: { channel: 'otcOrder'; data: OtcOrder } | { channel: 'otcChat'; data: OtcChatMessage };
}

/** The OTC service (see the file comment). Every method throws AppError with the user's message code. */
export interface OtcService {
  /** Submits otcConfigure when the engine has no OTC config and the coin is listed (start of a process). */
  ensureConfigured(): Promise<void>;
  config(): OtcConfigView;
  ads(query: Static<typeof GetOtcAdsQuery>): Promise<OtcAdPage>;
  ad(adId: string): Promise<OtcAd>;
  merchant(userId: string): Promise<OtcMerchantView>;
  applyMerchant(userId: string, transPassword: string): Promise<OtcMerchantView>;
  leaveMerchant(userId: string, transPassword: string): Promise<OtcMerchantView>;
  myAds(userId: string): Promise<OtcAd[]>;
  publishAd(userId: string, body: PublishAdBody): Promise<OtcAd>;
  updateAd(userId: string, body: UpdateAdBody): Promise<OtcAd>;
  setAdStatus(userId: string, adId: string, status: 'ONLINE' | 'PAUSED' | 'CLOSED'): Promise<OtcAd>;
  takeAd(userId: string, body: TakeAdBody): Promise<OtcOrderDetail>;
  orders(userId: string, tab: 'PENDING' | 'COMPLETED' | 'CANCELLED' | 'ALL', page: number, pageSize: number): Promise<OtcOrderPage>;
  orderDetail(userId: string, orderId: string): Promise<OtcOrderDetail>;
  markPaid(userId: string, body: { orderId: string; paymentMethodId: string; proofImageId?: string }): Promise<OtcOrderDetail>;
  release(userId: string, body: { orderId: string; transPassword: string; googleCode?: string }): Promise<OtcOrderDetail>;
  /**
   * The seller's release of a PAID order without the transaction password and Google code: for the demo merchant's
   * automation only (otc.demo.ts; no route reaches it). Otherwise as `release`: the same engine command, system note
   * and pushes; otc_order_state_invalid unless `userId` is the order's seller.
   */
  automatedRelease(userId: string, orderId: string): Promise<OtcOrderDetail>;
  cancelOrder(userId: string, body: { orderId: string; reason?: string }): Promise<OtcOrderDetail>;
  appeal(userId: string, body: Static<typeof AppealBody>): Promise<OtcOrderDetail>;
  cancelAppeal(userId: string, orderId: string): Promise<OtcOrderDetail>;
  messages(userId: string, orderId: string, afterId?: string): Promise<OtcChatMessage[]>;
  sendMessage(userId: string, body: { orderId: string; text?: string; imageId?: string }): Promise<OtcChatMessage>;
  /** An image of an order (QR code of a shown method, proof, evidence, chat) for its two sides or an operator. */
  image(viewer: { userId: string } | { operatorId: string }, orderId: string, imageId: string): Promise<{ bytes: Buffer; mime: string }>;
  /** Cancels every unpaid order past its deadline (the time-out job); returns how many were cancelled. */
  cancelExpired(now: number): Promise<number>;
  adminMerchants(
    state: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ total: number; page: number; pageSize: number; records: AdminOtcMerchant[] }>;
  reviewMerchant(actor: OtcActor, userId: string, approve: boolean, reason: string): Promise<AdminOtcMerchant>;
  setMerchantStatus(actor: OtcActor, userId: string, status: 'ACTIVE' | 'SUSPENDED', reason: string): Promise<AdminOtcMerchant>;
  adminAds(f: { status?: string; userId?: string }, page: number, pageSize: number): Promise<OtcAdPage>;
  closeAd(actor: OtcActor, adId: string, reason: string): Promise<OtcAd>;
  adminOrders(
    f: { state?: string; userId?: string },
    page: number,
    pageSize: number,
  ): Promise<{ total: number; page: number; pageSize: number; records: AdminOtcOrderDetail[] }>;
  adminOrderDetail(orderId: string): Promise<AdminOtcOrderDetail>;
  resolveAppeal(actor: OtcActor, orderId: string, outcome: 'RELEASE' | 'RETURN', reason: string): Promise<AdminOtcOrderDetail>;
  /** Listeners of the private pushes (the WebSocket hub); returns the unsubscribe function. */
  onPush(listener: (p: OtcPush) => void): () => void;
  close(): void;
}

/** Longest wait for the projection before a read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;
const DAY_MS = 86_400_000;
/** The coin and fiat of the first otcConfigure. */
const OTC_COIN = 'USDT';
const OTC_FIAT = 'CNY';
const OTC_CANCEL_LIMIT = 3;
const MAX_EVIDENCE = 5;

/** HTTP status of an engine rejection: 404 for a missing ad or order, 400 for every other. */
function rejectStatus(code: string): number {
  return code === 'otc_ad_not_found' || code === 'otc_order_not_found' ? 404 : 400;
}

/** The engine's rejection as an AppError (codes the user should never see become validation_failed). */
function rejection(code: string): AppError {
  const known = code.startsWith('otc_') || code === 'insufficient_balance' || code === 'account_frozen' || code === 'amount_invalid';
  return new AppError((known ? code : 'validation_failed') as ConstructorParameters<typeof AppError>[0], rejectStatus(code));
}

/** The last order of a command's events, or undefined. */
function orderOf(r: CommandResult): OtcOrderView | undefined {
  let found: OtcOrderView | undefined;
  for (const e of r.events) if (e.type === 'otcOrderChanged') found = e.order;
  return found ?? (r as { otcOrder?: OtcOrderView }).otcOrder;
}

/** The last ad of a command's events, or undefined. */
function adOf(r: CommandResult): OtcAdView | undefined {
  let found: OtcAdView | undefined;
  for (const e of r.events) if (e.type === 'otcAdChanged') found = e.ad;
  return found;
}

/**
 * SYSTEM notes of the chat on each state change, stored as these keys (the message's text): the app and the console
 * show each in their user's language (packages/api otc.ts OtcChatMessage).
 */
const SYSTEM_NOTES: ReadonlySet<string> = new Set([
  'PENDING_PAYMENT',
  'PAID',
  'APPEAL',
  'RELEASED',
  'BUYER_CANCELLED',
  'TIMEOUT',
  'APPEAL_RELEASED',
  'APPEAL_RETURNED',
  'APPEAL_CANCELLED',
]);

/** Builds the OTC service over the engine port, the database and the services it asks. */
export function createOtcService(deps: {
  config: Pick<Config, 'usdtCnyRate' | 'otcMerchantDeposit' | 'otcAppealAfterMs'>;
  db: Db;
  host: EnginePort;
  kyc: Pick<KycService, 'verifiedRealName'>;
  uploads: Pick<UploadsService, 'ownImage' | 'imageFor'>;
  security: () => Pick<SecurityService, 'verifyTransactionPassword' | 'totpBound' | 'verifyTotp'>;
  /** the users' payment methods as stored (a seller's enabled methods, the details an ad and an order show) */
  payments: Pick<PaymentService, 'storedMethod' | 'storedMethods'>;
  log?: { warn(o: object, msg: string): void; info(o: object, msg: string): void };
  /** the process clock (Unix ms; platform/shared/clock.ts), the one the engine stamps commands with; Date.now by default */
  now?: () => number;
}): OtcService {
  const clockNow = deps.now ?? Date.now;
  // each user's chat messages, over all its orders, per minute (OTC_CHAT_PER_MIN)
  const chatRate = new FixedWindowCounter(60_000, 'first-event', 50_000);
  const { host, config } = deps;
  const engine = host.engine;
  const repo = createOtcRepository(deps.db);
  const { payments } = deps;
  const listeners = new Set<(p: OtcPush) => void>();

  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }
  function cfg() {
    const c = engine.otcConfig();
    if (!c) throw new AppError('otc_disabled', 400);
    return c;
  }
  function scale(): number {
    return engine.asset(cfg().asset)?.scale ?? 8;
  }
  const index = () => indexCents(config.usdtCnyRate);
  function nick(userId: string): string {
    const p = engine.user(userId)?.profile;
    return p?.nickName || maskAccount(p?.mail || p?.phone || userId);
  }
  function requireVerified(userId: string): string {
    const name = deps.kyc.verifiedRealName(userId);
    if (name === null) throw new AppError('real_name_required', 400);
    return name;
  }
  async function submit(cmd: OtcInput): Promise<CommandResult> {
    const r = await host.submit(cmd as Parameters<EnginePort['submit']>[0]);
    if (r.code !== 'ok') throw rejection(r.code);
    return r;
  }
  function emit(p: OtcPush): void {
    for (const l of listeners) l(p);
  }
  /** A console filter's user id: a positive id below 2^63 (validation_failed, field userId, else). */
  function filterUser(userId: string | undefined): string | undefined {
    if (userId === undefined || userId === '') return undefined;
    if (!/^[1-9][0-9]{0,18}$/.test(userId) || BigInt(userId) >= 2n ** 63n) throw new AppError('validation_failed', 400, 'userId');
    return userId;
  }
  function parseId(id: string, code: 'otc_ad_not_found' | 'otc_order_not_found'): bigint {
    if (!/^[1-9][0-9]{0,18}$/.test(id) || BigInt(id) >= 2n ** 63n) throw new AppError(code, 404);
    return BigInt(id);
  }

  /** The caller's enabled methods among `ids`; throws otc_payment_method_invalid when one is not. */
  async function ownEnabledMethods(userId: string, ids: string[]): Promise<StoredPaymentMethod[]> {
    const out: StoredPaymentMethod[] = [];
    for (const id of ids) {
      if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new AppError('otc_payment_method_invalid', 400, 'paymentMethodIds');
      const r = await payments.storedMethod(BigInt(userId), BigInt(id));
      if (!r || !r.enabled) throw new AppError('otc_payment_method_invalid', 400, 'paymentMethodIds');
      out.push(r);
    }
    return out;
  }
  async function hasEnabledMethod(userId: string): Promise<boolean> {
    return (await payments.storedMethods(BigInt(userId))).some((m) => m.enabled);
  }

  // ------------------------------------------------------------------ merchants
  const statsCache = new Map<string, { at: number; brief: OtcMerchantBrief }>();
  async function brief(userId: string, fresh = false): Promise<OtcMerchantBrief> {
    const now = clockNow();
    const hit = statsCache.get(userId);
    if (!fresh && hit && now - hit.at < 10_000) return hit.brief;
    const s = await repo.merchantStats(userId, now - 30 * DAY_MS);
    const ended = s.completed + s.cancelled;
    const b: OtcMerchantBrief = {
      userId,
      nickName: nick(userId),
      orders30d: s.completed,
      completionRate30d: ended === 0 ? '0.00' : fiatText((BigInt(s.completed) * 10_000n) / BigInt(ended)),
      avgReleaseSeconds: s.releaseCount === 0 ? 0 : Number(s.releaseMsSum / BigInt(s.releaseCount) / 1000n),
    };
    statsCache.set(userId, { at: now, brief: b });
    return b;
  }
  async function merchantView(userId: string): Promise<OtcMerchantView> {
    const c = engine.otcConfig();
    const m = engine.otcMerchant(userId);
    const sc = scale();
    return {
      state: m?.state ?? 'NONE',
      deposit: coinText(m?.deposit ?? 0n, sc),
      requiredDeposit: coinText(c?.merchantDeposit ?? 0n, sc),
      reason: m?.reason ?? '',
      stats: await brief(userId, true),
      appliedAt: m?.createdTs ?? 0,
      updatedAt: m?.updatedTs ?? 0,
    };
  }
  async function adminMerchant(userId: string): Promise<AdminOtcMerchant> {
    const m = engine.otcMerchant(userId) ?? (await repo.merchant(userId).then((r) => (r ? merchantOfRow(r) : undefined)));
    const p = engine.user(userId)?.profile;
    return {
      userId,
      account: maskAccount(p?.mail || p?.phone || ''),
      nickName: nick(userId),
      realName: deps.kyc.verifiedRealName(userId) ?? '',
      state: m?.state ?? 'NONE',
      deposit: coinText(m?.deposit ?? 0n, scale()),
      reason: m?.reason ?? '',
      stats: await brief(userId, true),
      appliedAt: m?.createdTs ?? 0,
      updatedAt: m?.updatedTs ?? 0,
    };
  }

  // ------------------------------------------------------------------ ads
  function priceNow(a: OtcAdView): bigint {
    return a.priceType === 'FIXED' ? (a.price as bigint) : otcFloatPrice(index(), a.floatPpm as number);
  }
  async function adView(a: OtcAdView): Promise<OtcAd> {
    const sc = engine.asset(a.asset)?.scale ?? 8;
    return {
      adId: a.adId,
      side: a.side,
      coin: a.asset,
      fiat: a.fiat,
      priceType: a.priceType,
      price: fiatText(priceNow(a)),
      floatPercent: a.floatPpm === null ? '' : percentText(a.floatPpm),
      remaining: coinText(a.remainingQty, sc),
      total: coinText(a.totalQty, sc),
      minFiat: fiatText(a.minFiat),
      maxFiat: fiatText(a.maxFiat),
      paymentWindowMinutes: Math.round(a.paymentWindowMs / 60_000),
      payTypes: idList(a.meta.pt) as OtcPayType[],
      remarks: a.meta.remarks ?? '',
      status: a.status,
      merchant: await brief(a.userId),
      createdAt: a.createdTs,
      updatedAt: a.updatedTs,
    };
  }
  async function findAd(adId: string): Promise<OtcAdView> {
    const id = parseId(adId, 'otc_ad_not_found');
    const live = engine.otcAd(adId);
    if (live) return live;
    await caughtUp();
    const r = await repo.ad(id);
    if (!r) throw new AppError('otc_ad_not_found', 404);
    return adOfRow(r);
  }
  /** The engine terms and meta of a publish or update body (the caller's own enabled methods). */
  async function adTerms(userId: string, body: UpdateAdBody | PublishAdBody): Promise<{ terms: OtcAdTerms; quantity: bigint; meta: Record<string, string> }> {
    let price: bigint | null = null;
    let floatPpm: number | null = null;
    if (body.priceType === 'FIXED') {
      if (body.price === undefined) throw new AppError('otc_price_invalid', 400, 'price');
      price = positiveUnits(body.price, OTC_FIAT_DECIMALS, 'price');
    } else {
      if (body.floatPercent === undefined) throw new AppError('otc_price_invalid', 400, 'floatPercent');
      floatPpm = percentPpm(body.floatPercent);
      if (floatPpm < 500_000 || floatPpm > 2_000_000) throw new AppError('otc_price_invalid', 400, 'floatPercent');
    }
    const quantity = positiveUnits(body.quantity, scale(), 'quantity');
    const minFiat = positiveUnits(body.minFiat, OTC_FIAT_DECIMALS, 'minFiat');
    const maxFiat = positiveUnits(body.maxFiat, OTC_FIAT_DECIMALS, 'maxFiat');
    if (minFiat > maxFiat) throw new AppError('otc_limits_invalid', 400, 'minFiat');
    if (!(OTC_PAYMENT_WINDOWS_MIN as readonly number[]).includes(body.paymentWindowMinutes))
      throw new AppError('otc_payment_window_invalid', 400, 'paymentWindowMinutes');
    const ids = idList(body.paymentMethodIds);
    if (ids.length === 0 || ids.length > 10) throw new AppError('otc_payment_method_required', 400, 'paymentMethodIds');
    const methods = await ownEnabledMethods(userId, ids);
    const meta: Record<string, string> = {
      pm: methods.map((m) => m.id.toString()).join(','),
      pt: [...new Set(methods.map((m) => m.payType))].join(','),
      remarks: body.remarks ?? '',
    };
    return { terms: { priceType: body.priceType, price, floatPpm, minFiat, maxFiat, paymentWindowMs: body.paymentWindowMinutes * 60_000 }, quantity, meta };
  }

  // ------------------------------------------------------------------ orders
  async function findOrder(orderId: string): Promise<OtcOrderView> {
    const id = parseId(orderId, 'otc_order_not_found');
    const live = engine.otcOrder(orderId);
    if (live) return live;
    await caughtUp();
    const r = await repo.order(id);
    if (!r) throw new AppError('otc_order_not_found', 404);
    return orderOfRow(r);
  }
  /** The order when `userId` is one of its two sides; otc_order_not_found (404) for anyone else. */
  async function partyOrder(userId: string, orderId: string): Promise<OtcOrderView> {
    const o = await findOrder(orderId);
    if (o.buyerId !== userId && o.sellerId !== userId) throw new AppError('otc_order_not_found', 404);
    return o;
  }
  /** The release of `o` by its seller `userId` once authenticated (or automated): the command, the system note, the detail. */
  async function releaseOrder(userId: string, o: OtcOrderView): Promise<OtcOrderDetail> {
    const r = await submit({ type: 'otcRelease', userId, orderId: o.orderId });
    const after = orderOf(r) ?? o;
    await systemNote(after, noteKey(after));
    return detailFor(after, userId);
  }
  function imageUrl(orderId: string, imageId: string, admin: boolean): string {
    if (imageId === '') return '';
    const q = `orderId=${orderId}&imageId=${encodeURIComponent(imageId)}`;
    return admin ? `/api/admin/otc/image?${q}` : `/api/otc/otc/image?${q}`;
  }
  async function paymentDetails(o: OtcOrderView, admin: boolean): Promise<OtcPaymentDetail[]> {
    const out: OtcPaymentDetail[] = [];
    for (const id of idList(o.meta.sellerPm)) {
      const m = await payments.storedMethod(BigInt(o.sellerId), BigInt(id));
      if (!m) continue;
      out.push({
        id,
        payType: m.payType as OtcPayType,
        realName: m.realName,
        bankName: m.bankName,
        branch: m.branch,
        cardNo: m.cardNo,
        account: m.account,
        qrImageUrl: m.qrImageId ? imageUrl(o.orderId, m.qrImageId, admin) : '',
      });
    }
    return out;
  }
  function appealView(o: OtcOrderView, admin: boolean): OtcAppealView | null {
    if (o.appealBy === null && o.meta.appealReason === undefined) return null;
    const outcome = o.endReason === 'APPEAL_RELEASED' ? 'RELEASE' : o.endReason === 'APPEAL_RETURNED' ? 'RETURN' : '';
    return {
      by: (o.meta.appealBy ?? o.appealBy) === o.sellerId ? 'SELLER' : 'BUYER',
      reason: o.meta.appealReason ?? '',
      description: o.meta.appealDesc ?? '',
      images: idList(o.meta.appealImages).map((i) => imageUrl(o.orderId, i, admin)),
      createdAt: Number(o.meta.appealTs ?? o.appealTs ?? 0),
      outcome,
      resolution: outcome === '' ? '' : (o.reason ?? ''),
      resolvedAt: outcome === '' ? 0 : o.updatedTs,
    };
  }
  async function detailCore(o: OtcOrderView, admin: boolean) {
    const ad = engine.otcAd(o.adId) ?? (await repo.ad(BigInt(o.adId)).then((r) => (r ? adOfRow(r) : undefined)));
    const sellerProfile = engine.user(o.sellerId)?.profile;
    return {
      buyerNickName: nick(o.buyerId),
      sellerNickName: nick(o.sellerId),
      sellerRealName: deps.kyc.verifiedRealName(o.sellerId) ?? '',
      sellerPhone: sellerProfile?.phone ? maskAccount(sellerProfile.phone) : '',
      buyerRealName: deps.kyc.verifiedRealName(o.buyerId) ?? '',
      paymentMethods: await paymentDetails(o, admin),
      paidWith: o.meta.paidWith ?? '',
      proofImageUrl: imageUrl(o.orderId, o.meta.proof ?? '', admin),
      remarks: ad?.meta.remarks ?? '',
      appeal: appealView(o, admin),
    };
  }
  async function orderFor(o: OtcOrderView, viewerId: string): Promise<OtcOrder> {
    const unread = (await repo.unread(viewerId, [BigInt(o.orderId)])).get(o.orderId) ?? 0;
    const other = o.buyerId === viewerId ? o.sellerId : o.buyerId;
    return toOtcOrder(o, viewerId, engine.asset(o.asset)?.scale ?? 8, engine.otcConfig()?.appealAfterMs ?? config.otcAppealAfterMs, nick(other), unread);
  }
  async function detailFor(o: OtcOrderView, viewerId: string): Promise<OtcOrderDetail> {
    return { ...(await orderFor(o, viewerId)), ...(await detailCore(o, false)) };
  }
  async function adminDetail(o: OtcOrderView, withMessages = true): Promise<AdminOtcOrderDetail> {
    const sc = engine.asset(o.asset)?.scale ?? 8;
    const base = toOtcOrder(o, o.buyerId, sc, engine.otcConfig()?.appealAfterMs ?? config.otcAppealAfterMs, '', 0);
    const { mySide: _s, myRole: _r, unread: _u, counterparty: _c, ...rest } = base;
    const msgs = withMessages ? await repo.messages(BigInt(o.orderId), 0n, 500) : [];
    return {
      ...rest,
      ...(await detailCore(o, true)),
      buyerId: o.buyerId,
      sellerId: o.sellerId,
      makerId: o.makerId,
      messages: msgs.map((m) => chatView(m, '', true)),
    };
  }

  // ------------------------------------------------------------------ chat
  function chatView(m: OtcMessageRecord, viewerId: string, admin = false): OtcChatMessage {
    return {
      id: m.id.toString(),
      orderId: m.orderId.toString(),
      from: m.sender as OtcChatMessage['from'],
      mine: viewerId !== '' && m.authorId === viewerId,
      text: m.text,
      imageUrl: imageUrl(m.orderId.toString(), m.imageId, admin),
      createdAt: m.createdTs,
    };
  }
  async function post(o: OtcOrderView, sender: OtcChatMessage['from'], authorId: string, text: string, imageId = ''): Promise<OtcMessageRecord> {
    const m = await repo.addMessage({ orderId: BigInt(o.orderId), sender, authorId, text, imageId, createdTs: clockNow() });
    for (const u of [o.buyerId, o.sellerId]) emit({ userId: u, message: { channel: 'otcChat', data: chatView(m, u) } });
    return m;
  }
  async function systemNote(o: OtcOrderView, key: string): Promise<void> {
    if (!SYSTEM_NOTES.has(key)) return;
    try {
      await post(o, 'SYSTEM', '', key);
    } catch (err) {
      deps.log?.warn({ err, orderId: o.orderId }, 'otc: system chat note not written');
    }
  }
  /** The state-change note of an order after a command. */
  function noteKey(o: OtcOrderView): string {
    return o.state === 'COMPLETED' || o.state === 'CANCELLED' ? (o.endReason ?? '') : o.state;
  }

  /** An OTC image for `owner`, or throws otc_image_invalid. */
  async function ownOtcImage(userId: string, imageId: string, field: string): Promise<string> {
    if ((await deps.uploads.ownImage(userId, imageId, 'OTC')) === null && (await deps.uploads.ownImage(userId, imageId, 'PAY_QR')) === null) {
      throw new AppError('otc_image_invalid', 400, field);
    }
    return imageId;
  }

  // Live pushes of orders: every gateway sees the engine's events and pushes to its own sockets.
  const offEvents = host.onEvents((events) => {
    if (listeners.size === 0) return;
    for (const e of events) {
      if (e.type !== 'otcOrderChanged') continue;
      const o = e.order;
      for (const u of [o.buyerId, o.sellerId]) {
        void orderFor(o, u)
          .then((data) => emit({ userId: u, message: { channel: 'otcOrder', data } }))
          .catch(() => {});
      }
    }
  });

  const service: OtcService = {
    async ensureConfigured() {
      if (engine.otcConfig()) return;
      const asset = engine.asset(OTC_COIN);
      if (!asset) {
        deps.log?.warn({ coin: OTC_COIN }, 'otc: the coin is not listed; fiat trading stays off');
        return;
      }
      const deposit = positiveUnits(config.otcMerchantDeposit, asset.scale, 'OTC_MERCHANT_DEPOSIT');
      const r = await host.submit({
        type: 'otcConfigure',
        config: { asset: OTC_COIN, fiat: OTC_FIAT, merchantDeposit: deposit, appealAfterMs: config.otcAppealAfterMs, cancelLimit: OTC_CANCEL_LIMIT },
      });
      if (r.code !== 'ok') deps.log?.warn({ code: r.code }, 'otc: otcConfigure refused');
      else deps.log?.info({ deposit: config.otcMerchantDeposit, appealAfterMs: config.otcAppealAfterMs }, 'otc: fiat trading configured');
    },

    config() {
      const c = engine.otcConfig();
      const sc = c ? (engine.asset(c.asset)?.scale ?? 8) : 8;
      return {
        enabled: c !== undefined,
        coin: c?.asset ?? OTC_COIN,
        fiat: c?.fiat ?? OTC_FIAT,
        merchantDeposit: coinText(c?.merchantDeposit ?? 0n, sc),
        appealAfterMinutes: Math.ceil((c?.appealAfterMs ?? config.otcAppealAfterMs) / 60_000),
        cancelLimit: c?.cancelLimit ?? OTC_CANCEL_LIMIT,
        paymentWindows: [...OTC_PAYMENT_WINDOWS_MIN],
        indexPrice: fiatText(index()),
      };
    },

    async ads(q) {
      cfg();
      const adSide = q.side === 'BUY' ? 'SELL' : 'BUY';
      const amount = q.amount === undefined ? undefined : positiveUnits(q.amount, OTC_FIAT_DECIMALS, 'amount');
      const rows = engine
        .otcAds()
        .filter((a) => a.side === adSide && a.status === 'ONLINE' && a.remainingQty > 0n && engine.otcMerchant(a.userId)?.state === 'ACTIVE')
        .filter((a) => amount === undefined || (a.minFiat <= amount && amount <= a.maxFiat))
        .filter((a) => q.payType === undefined || idList(a.meta.pt).includes(q.payType))
        .map((a) => ({ a, p: priceNow(a) }))
        .sort((x, y) => (x.p === y.p ? x.a.createdTs - y.a.createdTs : (adSide === 'SELL' ? x.p < y.p : x.p > y.p) ? -1 : 1));
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      const list = await Promise.all(rows.slice((page - 1) * pageSize, page * pageSize).map((r) => adView(r.a)));
      return { total: rows.length, page, pageSize, records: list };
    },

    async ad(adId) {
      return adView(await findAd(adId));
    },

    async merchant(userId) {
      return merchantView(userId);
    },

    async applyMerchant(userId, transPassword) {
      cfg();
      requireVerified(userId);
      if (!(await hasEnabledMethod(userId))) throw new AppError('otc_payment_method_required', 400);
      await deps.security().verifyTransactionPassword(userId, transPassword);
      await submit({ type: 'otcApplyMerchant', userId });
      return merchantView(userId);
    },

    async leaveMerchant(userId, transPassword) {
      cfg();
      const m = engine.otcMerchant(userId);
      if (m === undefined || (m.state !== 'ACTIVE' && m.state !== 'SUSPENDED')) throw new AppError('otc_not_merchant', 400);
      await deps.security().verifyTransactionPassword(userId, transPassword);
      await submit({ type: 'otcLeaveMerchant', userId });
      return merchantView(userId);
    },

    async myAds(userId) {
      await caughtUp();
      const rows = await repo.adsOf(userId);
      const byId = new Map(rows.map((r) => [r.id.toString(), adOfRow(r)]));
      for (const a of engine.otcAds(userId)) byId.set(a.adId, a);
      const ads = [...byId.values()].sort((x, y) => Number(BigInt(y.adId) - BigInt(x.adId)));
      return Promise.all(ads.map(adView));
    },

    async publishAd(userId, body) {
      cfg();
      requireVerified(userId);
      const { terms, quantity, meta } = await adTerms(userId, body);
      if (body.clientId !== undefined) {
        meta.clientId = body.clientId;
        const dup = engine.otcAds(userId).find((a) => a.meta.clientId === body.clientId);
        if (dup) return adView(dup);
      }
      const r = await submit({
        type: 'otcPublishAd',
        userId,
        side: body.side,
        quantity,
        terms,
        ...(body.clientId !== undefined ? { clientId: body.clientId } : {}),
        meta,
      });
      const a = adOf(r) ?? engine.otcAds(userId).find((x) => x.meta.clientId === body.clientId);
      if (!a) throw new AppError('otc_ad_not_found', 404);
      return adView(a);
    },

    async updateAd(userId, body) {
      cfg();
      if (engine.otcAd(body.adId)?.userId !== userId) throw new AppError('otc_ad_not_found', 404);
      const { terms, quantity, meta } = await adTerms(userId, body);
      const prev = engine.otcAd(body.adId);
      if (prev?.meta.clientId !== undefined) meta.clientId = prev.meta.clientId;
      const r = await submit({ type: 'otcUpdateAd', userId, adId: body.adId, remainingQty: quantity, terms, meta });
      return adView(adOf(r) ?? (await findAd(body.adId)));
    },

    async setAdStatus(userId, adId, status) {
      cfg();
      const r = await submit({ type: 'otcSetAdStatus', adId, status, userId });
      return adView(adOf(r) ?? (await findAd(adId)));
    },

    async takeAd(userId, body) {
      cfg();
      requireVerified(userId);
      const a = await findAd(body.adId);
      if (a.status === 'CLOSED') throw new AppError('otc_ad_unavailable', 400);
      if ((body.fiatAmount === undefined) === (body.quantity === undefined)) throw new AppError('otc_amount_required', 400, 'fiatAmount');
      const price = priceNow(a);
      const sc = engine.asset(a.asset)?.scale ?? 8;
      let fiatAmount: bigint;
      if (body.fiatAmount !== undefined) {
        fiatAmount = positiveUnits(body.fiatAmount, OTC_FIAT_DECIMALS, 'fiatAmount');
      } else {
        const qty = positiveUnits(body.quantity as string, sc, 'quantity');
        const one = 10n ** BigInt(sc);
        fiatAmount = (qty * price + one - 1n) / one;
      }
      const meta: Record<string, string> = {};
      if (a.side === 'BUY') {
        // The user sells: the method the merchant pays into (the user's own, enabled, of a type the ad accepts).
        if (body.paymentMethodId === undefined) throw new AppError('otc_payment_method_required', 400, 'paymentMethodId');
        const [m] = await ownEnabledMethods(userId, [body.paymentMethodId]).catch(() => {
          throw new AppError('otc_payment_method_invalid', 400, 'paymentMethodId');
        });
        if (!m || !idList(a.meta.pt).includes(m.payType)) throw new AppError('otc_payment_method_invalid', 400, 'paymentMethodId');
        await deps.security().verifyTransactionPassword(userId, body.transPassword ?? '');
        meta.takerPm = m.id.toString();
        meta.sellerPm = m.id.toString();
      } else {
        meta.sellerPm = a.meta.pm ?? '';
      }
      const r = await submit({
        type: 'otcTakeAd',
        userId,
        adId: a.adId,
        fiatAmount,
        ...(a.priceType === 'FLOAT' ? { indexPrice: index() } : {}),
        clientId: body.clientId,
        meta,
      });
      const o = orderOf(r);
      if (!o) throw new AppError('otc_order_not_found', 404);
      if (!r.duplicate) await systemNote(o, 'PENDING_PAYMENT');
      return detailFor(o, userId);
    },

    async orders(userId, tab, page, pageSize) {
      await caughtUp();
      const { total, rows } = await repo.ordersOf(userId, tab, page, pageSize);
      const unread = await repo.unread(
        userId,
        rows.map((r) => r.id),
      );
      const sc = scale();
      const after = engine.otcConfig()?.appealAfterMs ?? config.otcAppealAfterMs;
      const list = rows.map((r) => {
        const o = engine.otcOrder(r.id.toString()) ?? orderOfRow(r);
        return toOtcOrder(o, userId, sc, after, nick(o.buyerId === userId ? o.sellerId : o.buyerId), unread.get(o.orderId) ?? 0);
      });
      return { total, page, pageSize, records: list };
    },

    async orderDetail(userId, orderId) {
      return detailFor(await partyOrder(userId, orderId), userId);
    },

    async markPaid(userId, body) {
      const o = await partyOrder(userId, body.orderId);
      if (o.buyerId !== userId) throw new AppError('otc_order_state_invalid', 400);
      if (!idList(o.meta.sellerPm).includes(body.paymentMethodId)) throw new AppError('otc_payment_method_invalid', 400, 'paymentMethodId');
      const meta: Record<string, string> = { paidWith: body.paymentMethodId };
      if (body.proofImageId) meta.proof = await ownOtcImage(userId, body.proofImageId, 'proofImageId');
      const r = await submit({ type: 'otcMarkPaid', userId, orderId: o.orderId, meta });
      const after = orderOf(r) ?? o;
      await systemNote(after, noteKey(after));
      return detailFor(after, userId);
    },

    async release(userId, body) {
      const o = await partyOrder(userId, body.orderId);
      if (o.sellerId !== userId) throw new AppError('otc_order_state_invalid', 400);
      const s = deps.security();
      await s.verifyTransactionPassword(userId, body.transPassword);
      if (s.totpBound(userId)) {
        const g = body.googleCode ?? '';
        if (g === '') throw new AppError('google_code_required', 400, 'googleCode');
        await s.verifyTotp(userId, g);
      }
      return releaseOrder(userId, o);
    },

    async automatedRelease(userId, orderId) {
      const o = await partyOrder(userId, orderId);
      if (o.sellerId !== userId) throw new AppError('otc_order_state_invalid', 400);
      return releaseOrder(userId, o);
    },

    async cancelOrder(userId, body) {
      const o = await partyOrder(userId, body.orderId);
      if (o.buyerId !== userId) throw new AppError('otc_order_state_invalid', 400);
      const r = await submit({ type: 'otcCancelOrder', userId, orderId: o.orderId, ...(body.reason ? { meta: { cancelReason: body.reason } } : {}) });
      const after = orderOf(r) ?? o;
      await systemNote(after, noteKey(after));
      return detailFor(after, userId);
    },

    async appeal(userId, body) {
      const o = await partyOrder(userId, body.orderId);
      const images = idList(body.imageIds);
      if (images.length > MAX_EVIDENCE) throw new AppError('validation_failed', 400, 'imageIds');
      for (const i of images) await ownOtcImage(userId, i, 'imageIds');
      const meta = { appealReason: body.reason, appealDesc: body.description, appealImages: images.join(','), appealBy: userId, appealTs: String(clockNow()) };
      const r = await submit({ type: 'otcAppeal', userId, orderId: o.orderId, meta });
      const after = orderOf(r) ?? o;
      await systemNote(after, 'APPEAL');
      return detailFor(after, userId);
    },

    async cancelAppeal(userId, orderId) {
      const o = await partyOrder(userId, orderId);
      const r = await submit({ type: 'otcCancelAppeal', userId, orderId: o.orderId });
      const after = orderOf(r) ?? o;
      await systemNote(after, 'APPEAL_CANCELLED');
      return detailFor(after, userId);
    },

    async messages(userId, orderId, afterId) {
      const o = await partyOrder(userId, orderId);
      const after = afterId ? BigInt(afterId) : 0n;
      if (after >= 2n ** 63n) return [];
      const rows = await repo.messages(BigInt(o.orderId), after);
      const last = rows[rows.length - 1];
      if (last) await repo.markRead(BigInt(o.orderId), userId, last.id);
      return rows.map((m) => chatView(m, userId));
    },

    async sendMessage(userId, body) {
      const o = await partyOrder(userId, body.orderId);
      // Binance P2P: the chat of a completed or cancelled order is read-only (the SYSTEM notes are the service's own).
      if (o.state === 'COMPLETED' || o.state === 'CANCELLED') throw new AppError('otc_chat_closed', 400, 'orderId');
      if (chatRate.add(userId, 1, clockNow()) > OTC_CHAT_PER_MIN) throw new AppError('rate_limited', 429);
      const text = (body.text ?? '').trim();
      const imageId = body.imageId ? await ownOtcImage(userId, body.imageId, 'imageId') : '';
      if (text === '' && imageId === '') throw new AppError('otc_message_empty', 400, 'text');
      const m = await post(o, o.buyerId === userId ? 'BUYER' : 'SELLER', userId, text, imageId);
      await repo.markRead(BigInt(o.orderId), userId, m.id);
      return chatView(m, userId);
    },

    async image(viewer, orderId, imageId) {
      const o = 'userId' in viewer ? await partyOrder(viewer.userId, orderId) : await findOrder(orderId);
      const allowed = new Set<string>([o.meta.proof ?? '', ...idList(o.meta.appealImages)]);
      for (const id of idList(o.meta.sellerPm)) {
        const m = await payments.storedMethod(BigInt(o.sellerId), BigInt(id));
        if (m?.qrImageId) allowed.add(m.qrImageId);
      }
      allowed.delete('');
      if (!allowed.has(imageId) && !(await repo.chatHasImage(BigInt(o.orderId), imageId))) throw new AppError('not_found', 404);
      const img = await deps.uploads.imageFor(imageId, { operatorId: 'otc' });
      return { bytes: img.bytes, mime: img.mime };
    },

    async cancelExpired(now) {
      if (!engine.otcConfig()) return 0;
      let n = 0;
      for (const o of engine.otcOpenOrders()) {
        if (o.state !== 'PENDING_PAYMENT' || o.deadlineTs > now) continue;
        const r = await host.submit({ type: 'otcCancelOrder', orderId: o.orderId });
        if (r.code !== 'ok') continue;
        n++;
        const after = orderOf(r) ?? o;
        await systemNote(after, noteKey(after));
      }
      return n;
    },

    async adminMerchants(state, page, pageSize) {
      await caughtUp();
      const { total, rows } = await repo.merchants(state === 'NONE' ? '-' : state, page, pageSize);
      return { total, page, pageSize, records: await Promise.all(rows.map((r) => adminMerchant(r.userId))) };
    },

    async reviewMerchant(actor, userId, approve, reason) {
      cfg();
      const before = engine.otcMerchant(userId);
      if (!before) throw new AppError('otc_not_merchant', 404);
      const audit = engineAuditRecord(
        actor,
        approve ? 'otc_merchant_approve' : 'otc_merchant_reject',
        { userId, state: before.state },
        { userId, state: approve ? 'ACTIVE' : 'REJECTED', reason },
      );
      await submit({ type: 'otcReviewMerchant', userId, operatorId: actor.id.toString(), approve, reason, audit });
      return adminMerchant(userId);
    },

    async setMerchantStatus(actor, userId, status, reason) {
      cfg();
      const before = engine.otcMerchant(userId);
      if (!before) throw new AppError('otc_not_merchant', 404);
      const audit = engineAuditRecord(
        actor,
        status === 'SUSPENDED' ? 'otc_merchant_suspend' : 'otc_merchant_reinstate',
        { userId, state: before.state },
        { userId, state: status, reason },
      );
      await submit({ type: 'otcSetMerchantStatus', userId, operatorId: actor.id.toString(), status, reason, audit });
      return adminMerchant(userId);
    },

    async adminAds(f, page, pageSize) {
      await caughtUp();
      const userId = filterUser(f.userId);
      const { total, rows } = await repo.adsPage({ ...(f.status ? { status: f.status } : {}), ...(userId ? { userId } : {}) }, page, pageSize);
      const list = await Promise.all(rows.map((r) => adView(engine.otcAd(r.id.toString()) ?? adOfRow(r))));
      return { total, page, pageSize, records: list };
    },

    async closeAd(actor, adId, reason) {
      cfg();
      const before = await findAd(adId);
      const audit = engineAuditRecord(actor, 'otc_ad_close', { adId, status: before.status }, { adId, status: 'CLOSED', reason });
      const r = await submit({ type: 'otcSetAdStatus', adId, status: 'CLOSED', operatorId: actor.id.toString(), audit });
      return adView(adOf(r) ?? (await findAd(adId)));
    },

    async adminOrders(f, page, pageSize) {
      await caughtUp();
      const userId = filterUser(f.userId);
      const { total, rows } = await repo.ordersPage({ ...(f.state ? { state: f.state } : {}), ...(userId ? { userId } : {}) }, page, pageSize);
      const list = await Promise.all(rows.map((r) => adminDetail(engine.otcOrder(r.id.toString()) ?? orderOfRow(r), false)));
      return { total, page, pageSize, records: list };
    },

    async adminOrderDetail(orderId) {
      return adminDetail(await findOrder(orderId));
    },

    async resolveAppeal(actor, orderId, outcome, reason) {
      cfg();
      const o = await findOrder(orderId);
      const audit = engineAuditRecord(actor, 'otc_appeal_resolve', { orderId, state: o.state }, { orderId, outcome, reason });
      const r = await submit({
        type: 'otcResolveAppeal',
        orderId: o.orderId,
        operatorId: actor.id.toString(),
        outcome,
        reason,
        audit,
        meta: { appealOutcome: outcome },
      });
      const after = orderOf(r) ?? o;
      await systemNote(after, noteKey(after));
      try {
        await post(after, 'OPERATOR', actor.id.toString(), reason);
      } catch (err) {
        deps.log?.warn({ err, orderId }, 'otc: resolution note not written');
      }
      return adminDetail(after);
    },

    onPush(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      offEvents();
      listeners.clear();
    },
  };
  return service;
}
