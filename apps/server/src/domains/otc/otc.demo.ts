/**
 * The demo's OTC merchant (so that the market is not empty): in demo mode only, once, a user
 * otc-merchant@exchange.local verified (KYC basic PASS through updateUser, as an operator's approval does, with a demo
 * real name), a bank card, 20,000 USDT in the OTC account from '@faucet', a merchant application approved by the
 * system, and two ads: SELL 5,000 USDT at 7.20 CNY and BUY 5,000 USDT at 7.05 CNY, 100 to 50,000 CNY per order.
 * Every money move is an engine command like any user's; a restart finds the ads and seeds nothing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { MemberService } from '../member/member.service';
import type { OtcService } from './otc.service';
import { createPaymentRepository } from '../payment/payment.repository';

/** The demo merchant's e-mail and nickname (its password is random: nobody signs in as it). */
export const OTC_DEMO_MERCHANT = 'otc-merchant@exchange.local';
const NICK = 'DemoMerchant';
const U = 100_000_000n;

/** Seeds the demo merchant and its two ads unless it has ads already; returns true when it seeded. */
export async function ensureOtcDemoMerchant(ctx: {
  config: Pick<Config, 'demoMode'>;
  members: Pick<MemberService, 'ensureEmailUser'>;
  host: EnginePort;
  db: Db;
  otc: OtcService;
  log: FastifyBaseLogger;
}): Promise<boolean> {
  const { host } = ctx;
  const engine = host.engine;
  if (!ctx.config.demoMode || !engine.otcConfig()) return false;
  const { userId } = await ctx.members.ensureEmailUser(OTC_DEMO_MERCHANT, `otc-${Date.now().toString(36)}-demo`, NICK);
  if (engine.otcAds(userId).length > 0 || engine.otcMerchant(userId)?.state === 'ACTIVE') return false;
  const profile = engine.user(userId)?.profile;
  if (profile?.cardState !== 'PASS') {
    const r = await host.submit({
      type: 'updateUser',
      userId,
      profile: { cardState: 'PASS', realName: '演示商家', kycCountry: 'CN', kycIdType: 'ID_CARD', kycLevel: 'BASIC' },
    });
    if (r.code !== 'ok') throw new Error(`otc demo merchant: updateUser refused: ${r.code}`);
  }
  const payments = createPaymentRepository(ctx.db);
  const methods = await payments.list(BigInt(userId));
  const now = new Date();
  const bankId =
    methods.find((m) => m.enabled)?.id ??
    (await payments.insert(
      BigInt(userId),
      { payType: 'BANK', realName: '演示商家', bankName: '中国工商银行', branch: '上海分行', cardNo: '6222020000000000006', account: '', qrImageId: null },
      now,
    ));
  const dep = await host.submit({ type: 'deposit', userId, asset: 'USDT', account: 'OTC', amount: 20_000n * U, from: '@faucet' });
  if (dep.code !== 'ok') throw new Error(`otc demo merchant: deposit refused: ${dep.code}`);
  if (engine.otcMerchant(userId)?.state !== 'PENDING') {
    const a = await host.submit({ type: 'otcApplyMerchant', userId });
    if (a.code !== 'ok') throw new Error(`otc demo merchant: apply refused: ${a.code}`);
  }
  const rv = await host.submit({ type: 'otcReviewMerchant', userId, operatorId: 'system', approve: true, reason: 'demo merchant' });
  if (rv.code !== 'ok') throw new Error(`otc demo merchant: review refused: ${rv.code}`);
  const meta = { pm: bankId.toString(), pt: 'BANK', remarks: '演示商家：仅限银行卡转账。Demo merchant: bank transfer only.' };
  for (const [side, price] of [
    ['SELL', 720n],
    ['BUY', 705n],
  ] as const) {
    const r = await host.submit({
      type: 'otcPublishAd',
      userId,
      side,
      quantity: 5_000n * U,
      terms: { priceType: 'FIXED', price, floatPpm: null, minFiat: 10_000n, maxFiat: 5_000_000n, paymentWindowMs: 15 * 60_000 },
      clientId: `demo-${side}`,
      meta: { ...meta, clientId: `demo-${side}` },
    });
    if (r.code !== 'ok') throw new Error(`otc demo merchant: ${side} ad refused: ${r.code}`);
  }
  ctx.log.info({ userId }, 'otc: demo merchant seeded with a SELL and a BUY ad');
  return true;
}

/**
 * How the demo merchant behaves as a good merchant would (Binance P2P: a merchant checks the payment and releases,
 * or pays a selling user, within minutes): `payAfterMs` after a user takes its BUY ad it marks the order paid into the
 * user's payment method; `releaseAfterMs` after a buyer of its SELL ad marked the order paid it releases the coins.
 * Both in milliseconds of the process clock; an order under appeal is left to the operator.
 */
export interface OtcDemoMerchantTiming {
  payAfterMs: number;
  releaseAfterMs: number;
}

/** The demo merchant's default timing: it pays 20 s after an order is taken and releases 30 s after "I have paid". */
export const OTC_DEMO_MERCHANT_TIMING: OtcDemoMerchantTiming = { payAfterMs: 20_000, releaseAfterMs: 30_000 };

/**
 * One pass of the demo merchant over its open orders at `now` (Unix ms): pays the due PENDING_PAYMENT orders where it
 * buys (OtcService.markPaid, with the first of the seller's payment methods) and releases the due PAID orders where it
 * sells (OtcService.automatedRelease: the release command without the password a person types). Through the OTC
 * service as a person's actions go, so the engine's rules, the system notes and the pushes are the same. Returns how
 * many orders it acted on; an action the service refuses (the order moved on meanwhile) is logged and skipped.
 */
export async function runOtcDemoMerchant(
  ctx: {
    host: EnginePort;
    otc: Pick<OtcService, 'markPaid' | 'automatedRelease'>;
    log: FastifyBaseLogger;
  },
  now: number,
  timing: OtcDemoMerchantTiming = OTC_DEMO_MERCHANT_TIMING,
): Promise<number> {
  const engine = ctx.host.engine;
  if (!engine.otcConfig()) return 0;
  const merchantId = engine.userByKey(`mail:${OTC_DEMO_MERCHANT}`);
  if (merchantId === undefined) return 0;
  let acted = 0;
  for (const o of engine.otcOpenOrders(merchantId)) {
    try {
      if (o.state === 'PENDING_PAYMENT' && o.buyerId === merchantId && now - o.createdTs >= timing.payAfterMs) {
        const pm = (o.meta.sellerPm ?? '').split(',').find((id) => id !== '');
        if (pm === undefined) continue;
        await ctx.otc.markPaid(merchantId, { orderId: o.orderId, paymentMethodId: pm });
        acted++;
      } else if (o.state === 'PAID' && o.sellerId === merchantId && o.paidTs !== null && now - o.paidTs >= timing.releaseAfterMs) {
        await ctx.otc.automatedRelease(merchantId, o.orderId);
        acted++;
      }
    } catch (err) {
      ctx.log.warn({ err, orderId: o.orderId }, 'otc: the demo merchant could not act on an order');
    }
  }
  return acted;
}
