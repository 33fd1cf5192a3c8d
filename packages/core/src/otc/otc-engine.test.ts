/**
 * OTC engine unit tests: each transition of otc/types.ts's life cycle with exact balances, the
 * rejections, idempotency, time-out, the cancel limit, appeals, and a snapshot round trip.
 */
import { describe, expect, it } from 'vitest';
import { otcTerms } from '../../test/otc-fixture';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import { otcDay, otcFloatPrice, otcQuantity } from './types';

const U = 100_000_000n; // 1 USDT in units (scale 8)
const MIN = 60_000;

function setup() {
  const e = new Engine();
  let ts = 1_700_000_000_000;
  const run = (c: Record<string, unknown>): CommandResult => e.execute({ ts, ...c } as unknown as Command);
  const at = (t: number) => {
    ts = t;
  };
  const now = () => ts;
  run({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  for (const a of ['merchant', 'buyer', 'seller', 'other']) run({ type: 'registerUser', account: a, uniqueKeys: [], profile: {} });
  // users "1".."4"
  for (const u of ['1', '2', '3', '4']) run({ type: 'deposit', userId: u, asset: 'USDT', account: 'OTC', amount: 100_000n * U, from: '@faucet' });
  return { e, run, at, now };
}
const M = '1';
const B = '2';
const S = '3';
const X = '4';
const terms = otcTerms;
const config = { asset: 'USDT', fiat: 'CNY', merchantDeposit: 1_000n * U, appealAfterMs: 5 * MIN, cancelLimit: 3 };

function merchantReady() {
  const t = setup();
  expect(t.run({ type: 'otcConfigure', config }).code).toBe('ok');
  expect(t.run({ type: 'otcApplyMerchant', userId: M }).code).toBe('ok');
  expect(t.run({ type: 'otcReviewMerchant', userId: M, operatorId: 'op1', approve: true, reason: '' }).code).toBe('ok');
  return t;
}
const otc = (e: Engine, u: string) => e.balance(u, 'OTC', 'USDT');

describe('otc math', () => {
  it('quantity is the fiat amount over the price, rounded down to a unit', () => {
    expect(otcQuantity(72_000n, 720n, 8)).toBe(100n * U); // 720 CNY at 7.20 = 100 USDT
    expect(otcQuantity(100n, 700n, 8)).toBe(14_285_714n); // 1 CNY at 7.00 = 0.14285714...
    expect(otcQuantity(1n, 10n ** 12n, 8)).toBe(0n);
    expect(() => otcQuantity(1n, 0n, 8)).toThrow(RangeError);
  });
  it('a floating price is the index times the ratio, half up to a cent', () => {
    expect(otcFloatPrice(720n, 1_010_000)).toBe(727n); // 727.2
    expect(otcFloatPrice(710n, 1_005_000)).toBe(714n); // 713.55 -> 714
    expect(otcFloatPrice(700n, 995_000)).toBe(697n); // 696.5 -> 697
  });
  it('the cancel day is Asia/Shanghai (UTC+8)', () => {
    const utcMidnight = 1_795_478_400_000; // 2026-11-24T00:00:00Z
    expect(otcDay(utcMidnight - 8 * 3_600_000)).toBe(otcDay(utcMidnight - 1)); // 16:00 UTC is 00:00 in Shanghai
    expect(otcDay(utcMidnight - 8 * 3_600_000 - 1)).toBe(otcDay(utcMidnight) - 1);
  });
});

describe('otc merchants', () => {
  it('needs otcConfigure first', () => {
    const t = setup();
    expect(t.run({ type: 'otcApplyMerchant', userId: M }).code).toBe('otc_disabled');
  });
  it('holds the deposit on application, keeps it when approved and releases it when rejected or on leaving', () => {
    const t = setup();
    t.run({ type: 'otcConfigure', config });
    const r = t.run({ type: 'otcApplyMerchant', userId: M });
    expect(r.events[0]).toMatchObject({ type: 'otcMerchantChanged', merchant: { userId: M, state: 'PENDING', deposit: 1_000n * U } });
    expect(otc(t.e, M)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
    expect(t.run({ type: 'otcApplyMerchant', userId: M }).code).toBe('otc_merchant_state_invalid');
    expect(
      t.run({ type: 'otcReviewMerchant', userId: M, operatorId: 'op1', approve: false, reason: 'incomplete', audit: { action: 'x' } }).events[0],
    ).toMatchObject({
      merchant: { state: 'REJECTED', deposit: 0n, reason: 'incomplete', operatorId: 'op1' },
      audit: { action: 'x' },
    });
    expect(otc(t.e, M)).toEqual({ available: 100_000n * U, frozen: 0n });
    // apply again, approve, suspend, reinstate, leave
    expect(t.run({ type: 'otcApplyMerchant', userId: M }).code).toBe('ok');
    expect(t.run({ type: 'otcReviewMerchant', userId: M, operatorId: 'op1', approve: true, reason: '' }).code).toBe('ok');
    expect(t.run({ type: 'otcSetMerchantStatus', userId: M, operatorId: 'op2', status: 'SUSPENDED', reason: 'complaints' }).code).toBe('ok');
    expect(t.run({ type: 'otcSetMerchantStatus', userId: M, operatorId: 'op2', status: 'SUSPENDED', reason: '' }).code).toBe('otc_merchant_state_invalid');
    expect(t.run({ type: 'otcSetMerchantStatus', userId: M, operatorId: 'op2', status: 'ACTIVE', reason: '' }).code).toBe('ok');
    expect(t.run({ type: 'otcLeaveMerchant', userId: M }).code).toBe('ok');
    expect(t.e.otcMerchant(M)).toMatchObject({ state: 'LEFT', deposit: 0n });
    expect(otc(t.e, M)).toEqual({ available: 100_000n * U, frozen: 0n });
  });
  it('refuses an application without the deposit, and a non-merchant publishing', () => {
    const t = setup();
    t.run({ type: 'otcConfigure', config: { ...config, merchantDeposit: 200_000n * U } });
    expect(t.run({ type: 'otcApplyMerchant', userId: M }).code).toBe('insufficient_balance');
    expect(t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: U, terms: terms() }).code).toBe('otc_not_merchant');
    expect(otc(t.e, M)).toEqual({ available: 100_000n * U, frozen: 0n });
  });
});

describe('otc ads and orders', () => {
  it('a SELL ad holds its quantity; a buyer takes it, pays, the merchant releases: exact balances', () => {
    const t = merchantReady();
    const pub = t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms(), clientId: 'ad-1' });
    expect(pub.code).toBe('ok');
    expect(otc(t.e, M)).toEqual({ available: 98_000n * U, frozen: 2_000n * U });
    expect(t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms(), clientId: 'ad-1' })).toMatchObject({
      code: 'ok',
      events: [],
      duplicate: true,
    });
    const take = t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'o-1' });
    expect(take.code).toBe('ok');
    expect(take.otcOrder).toMatchObject({
      orderId: '1',
      buyerId: B,
      sellerId: M,
      makerId: M,
      takerId: B,
      price: 720n,
      quantity: 100n * U,
      fiatAmount: 72_000n,
      state: 'PENDING_PAYMENT',
      deadlineTs: t.now() + 15 * MIN,
    });
    expect(t.e.otcAd('1')?.remainingQty).toBe(900n * U);
    expect(otc(t.e, M).frozen).toBe(2_000n * U); // the hold moved from the ad to the order
    // retry: same order, nothing changed
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'o-1' })).toMatchObject({
      duplicate: true,
      events: [],
      otcOrder: { orderId: '1' },
    });
    // only the buyer marks paid; the other user does not see the order
    expect(t.run({ type: 'otcMarkPaid', userId: M, orderId: '1' }).code).toBe('otc_order_state_invalid');
    expect(t.run({ type: 'otcMarkPaid', userId: X, orderId: '1' }).code).toBe('otc_order_not_found');
    expect(t.run({ type: 'otcMarkPaid', userId: B, orderId: '1' }).otcOrder).toMatchObject({ state: 'PAID', paidTs: t.now() });
    expect(t.run({ type: 'otcRelease', userId: B, orderId: '1' }).code).toBe('otc_order_state_invalid');
    const rel = t.run({ type: 'otcRelease', userId: M, orderId: '1' });
    expect(rel.otcOrder).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED' });
    expect(otc(t.e, B)).toEqual({ available: 100_100n * U, frozen: 0n });
    expect(otc(t.e, M)).toEqual({ available: 98_000n * U, frozen: 1_900n * U });
    expect(t.e.otcOrder('1')).toBeUndefined();
    expect(t.run({ type: 'otcRelease', userId: M, orderId: '1' }).code).toBe('otc_order_not_found');
    // closing the ad releases its remainder
    expect(t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'CLOSED' }).code).toBe('ok');
    expect(otc(t.e, M)).toEqual({ available: 98_900n * U, frozen: 1_000n * U });
    expect(t.e.otcAds()).toEqual([]);
  });

  it("a BUY ad: the taker sells, the taker's coins are held at creation and go to the merchant on release", () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'BUY', quantity: 500n * U, terms: terms() });
    expect(otc(t.e, M).frozen).toBe(1_000n * U); // a BUY ad holds nothing
    const take = t.run({ type: 'otcTakeAd', userId: S, adId: '1', fiatAmount: 36_000n, clientId: 'o' });
    expect(take.otcOrder).toMatchObject({ buyerId: M, sellerId: S, quantity: 50n * U });
    expect(otc(t.e, S)).toEqual({ available: 99_950n * U, frozen: 50n * U });
    expect(t.run({ type: 'otcMarkPaid', userId: M, orderId: '1' }).code).toBe('ok');
    expect(t.run({ type: 'otcRelease', userId: S, orderId: '1' }).code).toBe('ok');
    expect(otc(t.e, S)).toEqual({ available: 99_950n * U, frozen: 0n });
    expect(otc(t.e, M)).toEqual({ available: 99_050n * U, frozen: 1_000n * U });
  });

  it('refuses out-of-limit amounts, own ads, paused ads and suspended merchants, and a seller without coins', () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 100n * U, terms: terms() });
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 9_999n, clientId: 'a' }).code).toBe('otc_amount_out_of_limits');
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_001n, clientId: 'a' }).code).toBe('otc_amount_out_of_limits'); // > 100 USDT left
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '9', fiatAmount: 72_000n, clientId: 'a' }).code).toBe('otc_ad_not_found');
    expect(t.run({ type: 'otcTakeAd', userId: M, adId: '1', fiatAmount: 72_000n, clientId: 'a' }).code).toBe('otc_own_ad');
    t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'PAUSED' });
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'a' }).code).toBe('otc_ad_unavailable');
    t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'ONLINE' });
    t.run({ type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: '' });
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'a' }).code).toBe('otc_ad_unavailable');
    expect(t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'PAUSED' }).code).toBe('ok');
    expect(t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'ONLINE' }).code).toBe('otc_not_merchant');
    t.run({ type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'ACTIVE', reason: '' });
    t.run({ type: 'otcPublishAd', userId: M, side: 'BUY', quantity: 1_000_000n * U, terms: terms({ maxFiat: 10n ** 12n }) });
    expect(t.run({ type: 'otcTakeAd', userId: S, adId: '2', fiatAmount: 72_000_001n, clientId: 'b' }).code).toBe('insufficient_balance');
    expect(t.e.otcOpenOrders()).toEqual([]);
  });

  it('a floating ad prices from the index given with the take', () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms({ priceType: 'FLOAT', price: null, floatPpm: 1_010_000 }) });
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_720n, clientId: 'a' }).code).toBe('price_required');
    const r = t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_720n, indexPrice: 720n, clientId: 'a' });
    expect(r.otcOrder).toMatchObject({ price: 727n, quantity: otcQuantity(72_720n, 727n, 8) });
  });

  it('time-out: only at the deadline and only unpaid; the escrow returns to the ad; 3 cancels a day bar taking', () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms() });
    const t0 = t.now();
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'a' });
    t.at(t0 + 15 * MIN - 1);
    expect(t.run({ type: 'otcCancelOrder', orderId: '1' }).code).toBe('otc_order_state_invalid');
    t.at(t0 + 15 * MIN);
    expect(t.run({ type: 'otcMarkPaid', userId: B, orderId: '1' }).code).toBe('otc_payment_expired');
    expect(t.run({ type: 'otcCancelOrder', orderId: '1' }).otcOrder).toMatchObject({ state: 'CANCELLED', endReason: 'TIMEOUT' });
    expect(t.e.otcAd('1')?.remainingQty).toBe(1_000n * U);
    expect(otc(t.e, M)).toEqual({ available: 98_000n * U, frozen: 2_000n * U });
    // two buyer cancels more (one after paying): the third cancel of the day bars taking
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'b' });
    expect(t.run({ type: 'otcCancelOrder', userId: B, orderId: '2' }).otcOrder).toMatchObject({ endReason: 'BUYER_CANCELLED' });
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'c' });
    t.run({ type: 'otcMarkPaid', userId: B, orderId: '3' });
    expect(t.run({ type: 'otcCancelOrder', userId: M, orderId: '3' }).code).toBe('otc_order_state_invalid'); // the seller cannot cancel
    expect(t.run({ type: 'otcCancelOrder', userId: B, orderId: '3' }).code).toBe('ok');
    expect(t.e.otcCancelsOn(B, t.now())).toBe(3);
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'd' }).code).toBe('otc_cancel_limit');
    // the next Shanghai day
    t.at((otcDay(t.now()) + 1) * 86_400_000 - 8 * 3_600_000);
    expect(t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'd' }).code).toBe('ok');
  });

  it('appeal: after the wait, by either side; the appellant may withdraw; an operator releases or returns', () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms() });
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'a' });
    expect(t.run({ type: 'otcAppeal', userId: B, orderId: '1' }).code).toBe('otc_order_state_invalid');
    t.run({ type: 'otcMarkPaid', userId: B, orderId: '1' });
    const paid = t.now();
    expect(t.run({ type: 'otcAppeal', userId: B, orderId: '1' }).code).toBe('otc_appeal_too_early');
    t.at(paid + 5 * MIN);
    expect(t.run({ type: 'otcAppeal', userId: X, orderId: '1' }).code).toBe('otc_order_not_found');
    expect(t.run({ type: 'otcAppeal', userId: M, orderId: '1' }).otcOrder).toMatchObject({ state: 'APPEAL', appealBy: M });
    expect(t.run({ type: 'otcRelease', userId: M, orderId: '1' }).code).toBe('otc_order_state_invalid'); // frozen while under appeal
    expect(t.run({ type: 'otcCancelAppeal', userId: B, orderId: '1' }).code).toBe('otc_order_state_invalid');
    expect(t.run({ type: 'otcCancelAppeal', userId: M, orderId: '1' }).otcOrder).toMatchObject({ state: 'PAID' });
    t.run({ type: 'otcAppeal', userId: B, orderId: '1' });
    const r = t.run({ type: 'otcResolveAppeal', orderId: '1', operatorId: 'op9', outcome: 'RELEASE', reason: 'payment proven', audit: { a: '1' } });
    expect(r.otcOrder).toMatchObject({ state: 'COMPLETED', endReason: 'APPEAL_RELEASED', resolvedBy: 'op9', reason: 'payment proven' });
    expect(otc(t.e, B).available).toBe(100_100n * U);
    // a second order returned to the seller after its ad was closed: the coins go to the seller's available
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'b' });
    t.run({ type: 'otcMarkPaid', userId: B, orderId: '2' });
    t.at(t.now() + 5 * MIN);
    t.run({ type: 'otcAppeal', userId: B, orderId: '2' });
    t.run({ type: 'otcSetAdStatus', userId: M, adId: '1', status: 'CLOSED' });
    expect(otc(t.e, M)).toEqual({ available: 98_800n * U, frozen: 1_100n * U });
    expect(t.run({ type: 'otcResolveAppeal', orderId: '2', operatorId: 'op9', outcome: 'RETURN', reason: 'no payment' }).otcOrder).toMatchObject({
      state: 'CANCELLED',
      endReason: 'APPEAL_RETURNED',
    });
    expect(otc(t.e, M)).toEqual({ available: 98_900n * U, frozen: 1_000n * U });
    expect(otc(t.e, B).available).toBe(100_100n * U);
  });

  it('update changes terms and the hold; a merchant with open ads cannot leave; the state survives a snapshot', () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 100n * U, terms: terms() });
    expect(t.run({ type: 'otcUpdateAd', userId: M, adId: '1', remainingQty: 300n * U, terms: terms({ price: 730n }) }).code).toBe('ok');
    expect(t.e.otcAd('1')).toMatchObject({ totalQty: 300n * U, remainingQty: 300n * U, price: 730n });
    expect(otc(t.e, M).frozen).toBe(1_300n * U);
    expect(t.run({ type: 'otcUpdateAd', userId: M, adId: '1', remainingQty: 50n * U, terms: terms() }).code).toBe('ok');
    expect(otc(t.e, M).frozen).toBe(1_050n * U);
    expect(t.run({ type: 'otcUpdateAd', userId: B, adId: '1', remainingQty: 50n * U, terms: terms() }).code).toBe('otc_ad_not_found');
    expect(t.run({ type: 'otcLeaveMerchant', userId: M }).code).toBe('otc_ads_open');
    t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 7_300n * 2n, clientId: 'a' });
    const snap = JSON.parse(JSON.stringify(t.e.snapshot()));
    const copy = Engine.restore(snap);
    expect(copy.stateHash()).toBe(t.e.stateHash());
    expect(copy.otcOrder('1')).toEqual(t.e.otcOrder('1'));
    expect(copy.otcAd('1')).toEqual(t.e.otcAd('1'));
    expect(copy.otcMerchant(M)).toEqual(t.e.otcMerchant(M));
    expect([...t.e.assetTotals().values()]).toEqual([0n]);
  });

  it("keeps the server's meta of ads and orders (merged per command) through a snapshot", () => {
    const t = merchantReady();
    t.run({ type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 100n * U, terms: terms(), meta: { payIds: '7,8', remarks: 'fast' } });
    expect(t.e.otcAd('1')?.meta).toEqual({ payIds: '7,8', remarks: 'fast' });
    t.run({ type: 'otcUpdateAd', userId: M, adId: '1', remainingQty: 100n * U, terms: terms(), meta: { payIds: '7' } });
    expect(t.e.otcAd('1')?.meta).toEqual({ payIds: '7' });
    const r = t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'a', meta: { note: 'x' } });
    expect(r.otcOrder?.meta).toEqual({ note: 'x' });
    t.run({ type: 'otcMarkPaid', userId: B, orderId: '1', meta: { paidWith: '7', proof: 'u1' } });
    expect(t.e.otcOrder('1')?.meta).toEqual({ note: 'x', paidWith: '7', proof: 'u1' });
    expect(t.run({ type: 'otcMarkPaid', userId: B, orderId: '1', meta: 'bad' }).code).toBe('invalid_config');
    const copy = Engine.restore(JSON.parse(JSON.stringify(t.e.snapshot())));
    expect(copy.otcOrder('1')?.meta).toEqual({ note: 'x', paidWith: '7', proof: 'u1' });
    // views are copies: changing one does not change the engine
    t.e.otcOrder('1')!.meta.paidWith = 'changed';
    expect(t.e.otcOrder('1')?.meta.paidWith).toBe('7');
  });
});
