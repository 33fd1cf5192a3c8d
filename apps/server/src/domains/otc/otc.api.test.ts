/**
 * API test of peer-to-peer fiat trading through app.inject() on a real database (PGlite files in a data
 * directory, or PostgreSQL when DATABASE_URL is set), the real engine and the journal. Four users: a merchant, a buyer, a seller and an outsider, all
 * verified (KYC basic PASS), with bank cards and OTC USDT from the demo faucet. Checked with exact balances (OTC
 * account, available and frozen): the merchant applies (deposit held), an operator approves, a SELL ad holds its
 * quantity, a buyer takes it, sees the real name and full card number, chats, marks paid, the merchant releases with
 * the transaction password; a BUY ad taken by a user who sells (the taker's coins held, the merchant pays into the
 * taker's card); an unpaid order cancelled by the time-out job at its deadline (the clock is Date.now, moved by the
 * test); appeals too early, then resolved both ways by an operator with the audit log written; the outsider sees and
 * changes nothing of an order, its chat or its images (404); rejections in zh and en; finally the database is deleted
 * and merchants, ads and orders are rebuilt from the journal, equal to before.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { formatDecimal } from '@exchange/core';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { otcAds, otcMerchants, otcOrders } from './otc.tables';
import { jpeg, loginUser, mainlandId, setTransPassword, uploadRequest, verifyBasic, type TestUser } from '../kyc/kyc-test-support';

const U = 100_000_000n; // 1 USDT in units
const PW = '135790';
const OP = { id: 1n, email: 'op@otc.test', ip: '127.0.0.1', userAgent: 'test' };
const MIN = 60_000;
const real = Date.now.bind(Date);
let offset = 0;
const clock = vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);

let t: TestApp;
let setup: DurableTestSetup | undefined;
const u: Record<string, TestUser> = {};
const mails: Record<string, string> = { m: 'merchant@otc.test', b: 'buyer@otc.test', s: 'seller@otc.test', x: 'outsider@otc.test' };
const bank: Record<string, string> = {};

async function call(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}, lang = 'en') {
  const headers: Record<string, string> = { lang, ...(who ? u[who]!.headers : {}) };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/otc/otc/${p}?${new URLSearchParams(data).toString()}`, headers })
      : await t.app.inject({
          method,
          url: `/api/otc/otc/${p}`,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(data).toString(),
        });
  return { status: res.statusCode, body: res.json() };
}
async function ok(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}) {
  const r = await call(who, method, p, data);
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}
async function fails(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, string>, code: string, status = 400) {
  const en = await call(who, method, p, data, 'en');
  const zh = await call(who, method, p, data, 'zh');
  expect(en.body.errorCode, JSON.stringify(en.body)).toBe(code);
  expect(en.status).toBe(status);
  expect(zh.body.errorCode).toBe(code);
  expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
}
const otc = (who: string) => {
  const b = t.ctx.host.engine.balance(u[who]!.userId, 'OTC', 'USDT');
  return [formatDecimal(b.available, 8), formatDecimal(b.frozen, 8)];
};

beforeAll(async () => {
  setup = await durableTestSetup('exch-otc-');
  t = await setup.open({ otcAppealAfterMs: 2 * MIN });
  let n = 0;
  for (const k of ['m', 'b', 's', 'x']) {
    u[k] = await loginUser(t, mails[k]!);
    await verifyBasic(t, u[k]!, `测试${k}`, mainlandId('19900307', String(101 + n++)));
    await setTransPassword(t, u[k]!, mails[k]!, PW);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/member/payment/addPayment',
      headers: u[k]!.headers,
      payload: {
        payType: 'BANK',
        bankName: '中国工商银行',
        branch: '北京分行',
        cardNo: ['6222021234567890128', '6222021234567890136', '6222021234567890144', '6222021234567890151'][n - 1]!,
        transPassword: PW,
      },
    });
    expect(res.json().status, res.body).toBe('SUCCEED');
    bank[k] = res.json().result.id;
  }
  for (const [k, amount] of [
    ['m', 10_000n],
    ['s', 1_000n],
  ] as const) {
    expect((await t.ctx.host.submit({ type: 'deposit', userId: u[k]!.userId, asset: 'USDT', account: 'OTC', amount: amount * U, from: '@faucet' })).code).toBe(
      'ok',
    );
  }
}, 120_000);
afterAll(async () => {
  clock.mockRestore();
  await t?.close();
  await setup?.dispose();
});

const adBody = (over: Record<string, string> = {}) => ({
  side: 'SELL',
  priceType: 'FIXED',
  price: '7.20',
  quantity: '500',
  minFiat: '100.00',
  maxFiat: '3600',
  paymentWindowMinutes: '15',
  paymentMethodIds: bank.m!,
  remarks: 'Bank transfer only',
  ...over,
});
let sellAd = '';
let buyAd = '';

describe('OTC API', () => {
  it('answers the settings; refuses visitors and unverified merchants', async () => {
    const c = await ok(null, 'GET', 'getConfig');
    expect(c).toEqual({
      enabled: true,
      coin: 'USDT',
      fiat: 'CNY',
      merchantDeposit: '1000.00000000',
      appealAfterMinutes: 2,
      cancelLimit: 3,
      paymentWindows: [15, 30, 45, 60, 120],
      indexPrice: '7.10',
    });
    expect((await call(null, 'GET', 'getMerchant')).status).toBe(401);
    await fails('m', 'POST', 'applyMerchant', { agree: '1', transPassword: '000000' }, 'trans_password_wrong');
    await fails('m', 'POST', 'publishAd', adBody(), 'otc_not_merchant');
  });

  it('a merchant applies (deposit held), an operator approves (audited), the SELL ad holds its quantity', async () => {
    const applied = await ok('m', 'POST', 'applyMerchant', { agree: '1', transPassword: PW });
    expect(applied).toMatchObject({ state: 'PENDING', deposit: '1000.00000000', requiredDeposit: '1000.00000000' });
    expect(otc('m')).toEqual(['9000.00000000', '1000.00000000']);
    const m = await t.ctx.otc.reviewMerchant(OP, u.m!.userId, true, '');
    expect(m).toMatchObject({ state: 'ACTIVE', realName: '测试m', deposit: '1000.00000000' });
    await t.ctx.host.projected();
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'otc_merchant_approve'));
    expect(audits.map((a) => [a.targetUserId?.toString(), a.operatorEmail])).toEqual([[u.m!.userId, 'op@otc.test']]);

    await fails('m', 'POST', 'publishAd', adBody({ paymentMethodIds: bank.b! }), 'otc_payment_method_invalid');
    await fails('m', 'POST', 'publishAd', adBody({ paymentWindowMinutes: '7' }), 'otc_payment_window_invalid');
    await fails('m', 'POST', 'publishAd', adBody({ minFiat: '5000' }), 'otc_limits_invalid');
    const ad = await ok('m', 'POST', 'publishAd', adBody({ clientId: 'ad-1' }));
    expect(ad).toMatchObject({
      side: 'SELL',
      price: '7.20',
      remaining: '500.00000000',
      minFiat: '100.00',
      maxFiat: '3600.00',
      payTypes: ['BANK'],
      remarks: 'Bank transfer only',
      status: 'ONLINE',
      paymentWindowMinutes: 15,
    });
    expect(ad.merchant).toMatchObject({ userId: u.m!.userId, orders30d: 0, completionRate30d: '0.00', avgReleaseSeconds: 0 });
    sellAd = ad.adId;
    // The same clientId answers the same ad.
    expect((await ok('m', 'POST', 'publishAd', adBody({ clientId: 'ad-1' }))).adId).toBe(sellAd);
    expect(otc('m')).toEqual(['8500.00000000', '1500.00000000']);
    const list = await ok(null, 'GET', 'getAds', { side: 'BUY' });
    expect(list.records.map((a: { adId: string }) => a.adId)).toEqual([sellAd]);
    expect((await ok(null, 'GET', 'getAds', { side: 'BUY', amount: '50' })).records).toEqual([]);
  });

  let o1 = '';
  it('a buyer takes the SELL ad, sees the payment details, chats, pays; the merchant releases: exact balances', async () => {
    await fails('b', 'POST', 'takeAd', { adId: sellAd, clientId: 'c1' }, 'otc_amount_required');
    await fails('b', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '50', clientId: 'c1' }, 'otc_amount_out_of_limits');
    await fails('m', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '720', clientId: 'c1' }, 'otc_own_ad');
    const order = await ok('b', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '720.00', clientId: 'c1' });
    o1 = order.orderId;
    expect(order).toMatchObject({
      mySide: 'BUY',
      myRole: 'TAKER',
      price: '7.20',
      quantity: '100.00000000',
      fiatAmount: '720.00',
      state: 'PENDING_PAYMENT',
      sellerRealName: '测试m',
      buyerRealName: '测试b',
      remarks: 'Bank transfer only',
    });
    expect(order.paymentMethods).toEqual([
      {
        id: bank.m,
        payType: 'BANK',
        realName: '测试m',
        bankName: '中国工商银行',
        branch: '北京分行',
        cardNo: '6222021234567890128',
        account: '',
        qrImageUrl: '',
      },
    ]);
    expect(order.deadline - order.createdAt).toBe(15 * MIN);
    // The hold moved from the ad to the order: the merchant's balances do not change.
    expect(otc('m')).toEqual(['8500.00000000', '1500.00000000']);
    expect((await ok(null, 'GET', 'getAd', { adId: sellAd })).remaining).toBe('400.00000000');

    await ok('b', 'POST', 'sendMessage', { orderId: o1, text: 'Paying now' });
    const msgs = await ok('m', 'GET', 'getMessages', { orderId: o1 });
    expect(msgs.map((x: { from: string; mine: boolean }) => [x.from, x.mine])).toEqual([
      ['SYSTEM', false],
      ['BUYER', false],
    ]);
    expect(msgs[1].text).toBe('Paying now');
    await fails('b', 'POST', 'sendMessage', { orderId: o1, text: '  ' }, 'otc_message_empty');
    // OTC_CHAT_PER_MIN (20) a minute per user, the refused empty ones (en and zh) counted: 17 more, then 429
    for (let i = 0; i < 17; i++) await ok('b', 'POST', 'sendMessage', { orderId: o1, text: `line ${i}` });
    await fails('b', 'POST', 'sendMessage', { orderId: o1, text: 'one too many' }, 'rate_limited', 429);
    // the other side has its own budget
    await ok('m', 'POST', 'sendMessage', { orderId: o1, text: 'Waiting for it' });

    await fails('b', 'POST', 'markPaid', { orderId: o1, paymentMethodId: bank.b! }, 'otc_payment_method_invalid');
    const up = await uploadRequest(t.app, u.b!, 'OTC', await jpeg(400, 400));
    const proof = up.json().result.imageId as string;
    const paid = await ok('b', 'POST', 'markPaid', { orderId: o1, paymentMethodId: bank.m!, proofImageId: proof });
    expect(paid).toMatchObject({ state: 'PAID', paidWith: bank.m, proofImageUrl: `/api/otc/otc/image?orderId=${o1}&imageId=${proof}` });
    expect(paid.appealableAt - paid.paidAt).toBe(2 * MIN);
    // Both sides get the proof; the outsider does not.
    const img = await t.app.inject({ method: 'GET', url: paid.proofImageUrl, headers: u.m!.headers });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await t.app.inject({ method: 'GET', url: paid.proofImageUrl, headers: u.x!.headers })).statusCode).toBe(404);

    await fails('b', 'POST', 'release', { orderId: o1, transPassword: PW }, 'otc_order_state_invalid');
    await fails('m', 'POST', 'release', { orderId: o1, transPassword: '000000' }, 'trans_password_wrong');
    const done = await ok('m', 'POST', 'release', { orderId: o1, transPassword: PW });
    expect(done).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED', mySide: 'SELL', myRole: 'MAKER' });
    // the chat of an ended order is read-only
    await fails('m', 'POST', 'sendMessage', { orderId: o1, text: 'Thanks!' }, 'otc_chat_closed');
    expect((await ok('m', 'GET', 'getMessages', { orderId: o1 })).some((x: { text: string }) => x.text === 'Thanks!')).toBe(false);
    expect(otc('b')).toEqual(['100.00000000', '0.00000000']);
    expect(otc('m')).toEqual(['8500.00000000', '1400.00000000']);
    const list = await ok('b', 'GET', 'getOrders', { tab: 'COMPLETED' });
    expect(list.records.map((x: { orderId: string; counterparty: string }) => x.orderId)).toEqual([o1]);
    expect((await ok('b', 'GET', 'getOrders', { tab: 'PENDING' })).records).toEqual([]);
    const stats = (await ok('m', 'GET', 'getMerchant')).stats;
    expect(stats).toMatchObject({ orders30d: 1, completionRate30d: '100.00' });
  });

  it('an outsider sees and changes nothing of the order, its chat or its images', async () => {
    await fails('x', 'GET', 'getOrderDetail', { orderId: o1 }, 'otc_order_not_found', 404);
    await fails('x', 'GET', 'getMessages', { orderId: o1 }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'sendMessage', { orderId: o1, text: 'hi' }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'markPaid', { orderId: o1, paymentMethodId: bank.m! }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'release', { orderId: o1, transPassword: PW }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'cancelOrder', { orderId: o1 }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'appeal', { orderId: o1, reason: 'OTHER', description: 'x' }, 'otc_order_not_found', 404);
    await fails('x', 'POST', 'cancelAppeal', { orderId: o1 }, 'otc_order_not_found', 404);
    expect((await ok('x', 'GET', 'getOrders', { tab: 'ALL' })).records).toEqual([]);
    await fails('x', 'POST', 'setAdStatus', { adId: sellAd, status: 'PAUSED' }, 'otc_ad_not_found', 404);
  });

  it("a BUY ad taken by a seller: the taker's coins held, the merchant pays into the taker's card", async () => {
    const ad = await ok('m', 'POST', 'publishAd', adBody({ side: 'BUY', price: '7.10', quantity: '200', minFiat: '71', maxFiat: '1420' }));
    buyAd = ad.adId;
    expect(otc('m')).toEqual(['8500.00000000', '1400.00000000']);
    expect((await ok(null, 'GET', 'getAds', { side: 'SELL' })).records.map((a: { adId: string }) => a.adId)).toEqual([buyAd]);
    await fails('s', 'POST', 'takeAd', { adId: buyAd, fiatAmount: '710', clientId: 's1' }, 'otc_payment_method_required');
    await fails(
      's',
      'POST',
      'takeAd',
      { adId: buyAd, fiatAmount: '710', paymentMethodId: bank.b!, transPassword: PW, clientId: 's1' },
      'otc_payment_method_invalid',
    );
    await fails(
      's',
      'POST',
      'takeAd',
      { adId: buyAd, fiatAmount: '710', paymentMethodId: bank.s!, transPassword: '000000', clientId: 's1' },
      'trans_password_wrong',
    );
    const o = await ok('s', 'POST', 'takeAd', { adId: buyAd, quantity: '100', paymentMethodId: bank.s!, transPassword: PW, clientId: 's1' });
    expect(o).toMatchObject({ mySide: 'SELL', myRole: 'TAKER', fiatAmount: '710.00', quantity: '100.00000000', sellerRealName: '测试s' });
    expect(o.paymentMethods.map((p: { id: string }) => p.id)).toEqual([bank.s]);
    expect(otc('s')).toEqual(['900.00000000', '100.00000000']);
    const buyerView = await ok('m', 'GET', 'getOrderDetail', { orderId: o.orderId });
    expect(buyerView).toMatchObject({ mySide: 'BUY', myRole: 'MAKER', counterparty: expect.any(String) });
    expect(buyerView.paymentMethods[0].cardNo).toBe('6222021234567890144');
    await ok('m', 'POST', 'markPaid', { orderId: o.orderId, paymentMethodId: bank.s! });
    await ok('s', 'POST', 'release', { orderId: o.orderId, transPassword: PW });
    expect(otc('s')).toEqual(['900.00000000', '0.00000000']);
    expect(otc('m')).toEqual(['8600.00000000', '1400.00000000']);
  });

  it('an unpaid order is cancelled by the time-out job at its deadline, not before', async () => {
    const o = await ok('b', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '144', clientId: 'c2' });
    expect(o.quantity).toBe('20.00000000');
    expect((await ok(null, 'GET', 'getAd', { adId: sellAd })).remaining).toBe('380.00000000');
    expect(await t.ctx.otc.cancelExpired(Date.now())).toBe(0);
    offset += 15 * MIN;
    expect(await t.ctx.otc.cancelExpired(Date.now())).toBe(1);
    const after = await ok('b', 'GET', 'getOrderDetail', { orderId: o.orderId });
    expect(after).toMatchObject({ state: 'CANCELLED', endReason: 'TIMEOUT', deadline: 0 });
    expect((await ok(null, 'GET', 'getAd', { adId: sellAd })).remaining).toBe('400.00000000');
    expect(otc('m')).toEqual(['8600.00000000', '1400.00000000']);
    const msgs = await ok('b', 'GET', 'getMessages', { orderId: o.orderId });
    expect(msgs.map((x: { from: string }) => x.from)).toEqual(['SYSTEM', 'SYSTEM']);
  });

  it('appeals: too early, then resolved for the buyer and for the seller, audited', async () => {
    const a = await ok('b', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '360', clientId: 'c3' });
    await ok('b', 'POST', 'markPaid', { orderId: a.orderId, paymentMethodId: bank.m! });
    await fails('b', 'POST', 'appeal', { orderId: a.orderId, reason: 'PAID_NOT_RELEASED', description: 'I paid' }, 'otc_appeal_too_early');
    offset += 2 * MIN;
    const ev = (await uploadRequest(t.app, u.b!, 'OTC', await jpeg(400, 400))).json().result.imageId as string;
    await fails('b', 'POST', 'appeal', { orderId: a.orderId, reason: 'PAID_NOT_RELEASED', description: 'I paid', imageIds: 'nope' }, 'otc_image_invalid');
    const ap = await ok('b', 'POST', 'appeal', { orderId: a.orderId, reason: 'PAID_NOT_RELEASED', description: 'I paid', imageIds: ev });
    expect(ap.state).toBe('APPEAL');
    expect(ap.appeal).toMatchObject({
      by: 'BUYER',
      reason: 'PAID_NOT_RELEASED',
      description: 'I paid',
      images: [`/api/otc/otc/image?orderId=${a.orderId}&imageId=${ev}`],
      outcome: '',
    });
    await fails('m', 'POST', 'release', { orderId: a.orderId, transPassword: PW }, 'otc_order_state_invalid');
    const admin = await t.ctx.otc.adminOrderDetail(a.orderId);
    expect(admin.messages.map((m) => m.from)).toEqual(['SYSTEM', 'SYSTEM', 'SYSTEM']);
    expect(admin.appeal?.images).toEqual([`/api/admin/otc/image?orderId=${a.orderId}&imageId=${ev}`]);
    const r1 = await t.ctx.otc.resolveAppeal(OP, a.orderId, 'RELEASE', 'Payment verified');
    expect(r1).toMatchObject({ state: 'COMPLETED', endReason: 'APPEAL_RELEASED', appeal: { outcome: 'RELEASE', resolution: 'Payment verified' } });
    expect(otc('b')).toEqual(['150.00000000', '0.00000000']);
    expect(otc('m')).toEqual(['8600.00000000', '1350.00000000']);

    const b2 = await ok('b', 'POST', 'takeAd', { adId: sellAd, fiatAmount: '216', clientId: 'c5' });
    await ok('b', 'POST', 'markPaid', { orderId: b2.orderId, paymentMethodId: bank.m! });
    offset += 2 * MIN;
    await ok('m', 'POST', 'appeal', { orderId: b2.orderId, reason: 'NOT_RECEIVED', description: 'Nothing arrived' });
    const r2 = await t.ctx.otc.resolveAppeal(OP, b2.orderId, 'RETURN', 'No payment found');
    expect(r2).toMatchObject({ state: 'CANCELLED', endReason: 'APPEAL_RETURNED', appeal: { by: 'SELLER', outcome: 'RETURN' } });
    expect(otc('b')).toEqual(['150.00000000', '0.00000000']);
    expect(otc('m')).toEqual(['8600.00000000', '1350.00000000']);
    expect((await ok(null, 'GET', 'getAd', { adId: sellAd })).remaining).toBe('350.00000000');
    await t.ctx.host.projected();
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'otc_appeal_resolve'));
    expect(audits.length).toBe(2);
  });

  it('the console over HTTP: merchants, the appeal queue, an order with chat and evidence, closing an ad (audited), roles', async () => {
    const { totpAt } = await import('../admin/totp');
    const login = async (email: string, role: 'admin' | 'support') => {
      const op = await t.ctx.admin.createOperator(null, { email, name: email, role });
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { email, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
      });
      expect(r.json().status, r.body).toBe('SUCCEED');
      return { 'x-admin-token': r.json().result.token as string, lang: 'en' };
    };
    const admin = await login('admin@otc.test', 'admin');
    const support = await login('support@otc.test', 'support');
    const get = async (h: Record<string, string>, p: string, q: Record<string, string> = {}) =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/otc/${p}?${new URLSearchParams(q).toString()}`, headers: h })).json();
    const post = async (h: Record<string, string>, p: string, body: Record<string, unknown>) =>
      (await t.app.inject({ method: 'POST', url: `/api/admin/otc/${p}`, headers: h, payload: body })).json();
    const ms = await get(support, 'merchants', { state: 'ACTIVE' });
    expect(ms.result.records.map((m: { userId: string; state: string }) => [m.userId, m.state])).toEqual([[u.m!.userId, 'ACTIVE']]);
    expect(ms.result.records[0].stats).toMatchObject({ orders30d: 3, completionRate30d: '60.00' });
    const done = await get(support, 'orders', { state: 'COMPLETED', userId: u.b!.userId });
    expect(done.result.total).toBe(2);
    const d = await get(support, 'orderDetail', { orderId: done.result.records[0].orderId });
    expect(d.result).toMatchObject({ state: 'COMPLETED', endReason: 'APPEAL_RELEASED', buyerId: u.b!.userId, sellerId: u.m!.userId, makerId: u.m!.userId });
    expect(d.result.messages.map((m: { from: string }) => m.from)).toEqual(['SYSTEM', 'SYSTEM', 'SYSTEM', 'SYSTEM', 'OPERATOR']);
    const img = await t.app.inject({ method: 'GET', url: d.result.appeal.images[0], headers: support });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await post(support, 'closeAd', { adId: buyAd, reason: 'risk' })).errorCode).toBe('admin_forbidden');
    expect((await post(support, 'resolveAppeal', { orderId: d.result.orderId, outcome: 'RELEASE', reason: 'x' })).errorCode).toBe('admin_forbidden');
    const closed = await post(admin, 'closeAd', { adId: buyAd, reason: 'risk' });
    expect(closed.result).toMatchObject({ adId: buyAd, status: 'CLOSED' });
    await t.ctx.host.projected();
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'otc_ad_close'));
    expect(audits.map((x) => x.operatorEmail)).toEqual(['admin@otc.test']);
    expect((await get(admin, 'ads', { status: 'CLOSED' })).result.records.map((x: { adId: string }) => x.adId)).toEqual([buyAd]);
  });

  it('rebuilds merchants, ads and orders from the journal after the database is lost', async () => {
    await t.ctx.host.projected();
    const dump = async () => ({
      merchants: await t.ctx.db.select().from(otcMerchants).orderBy(asc(otcMerchants.userId)),
      ads: await t.ctx.db.select().from(otcAds).orderBy(asc(otcAds.id)),
      orders: await t.ctx.db.select().from(otcOrders).orderBy(asc(otcOrders.id)),
    });
    const before = await dump();
    expect([before.merchants.length, before.ads.length, before.orders.length]).toEqual([1, 2, 5]);
    await t.close();
    await setup!.loseDatabase();
    t = await setup!.open({ otcAppealAfterMs: 2 * MIN });
    await t.ctx.host.projected();
    expect(await dump()).toEqual(before);
  }, 60_000);
});

describe('OTC demo', () => {
  it('seeds a verified demo merchant with a SELL and a BUY ad once', async () => {
    const { ensureOtcDemoMerchant } = await import('./otc.demo');
    expect(await ensureOtcDemoMerchant(t.ctx)).toBe(true);
    expect(await ensureOtcDemoMerchant(t.ctx)).toBe(false);
    const sells = (await ok(null, 'GET', 'getAds', { side: 'BUY' })).records;
    const demo = sells.find((a: { merchant: { nickName: string } }) => a.merchant.nickName === 'DemoMerchant');
    expect(demo).toMatchObject({ side: 'SELL', price: '7.20', remaining: '5000.00000000', minFiat: '100.00', maxFiat: '50000.00', payTypes: ['BANK'] });
    const buys = (await ok(null, 'GET', 'getAds', { side: 'SELL' })).records;
    expect(buys.map((a: { price: string }) => a.price)).toContain('7.05');
  });

  it('the demo merchant releases a paid order after 30 s and pays a selling user after 20 s, as a good merchant does', async () => {
    const { runOtcDemoMerchant } = await import('./otc.demo');
    // sessions were lost with the database in the rebuild test: log in again
    for (const k of ['b', 's']) u[k] = { ...u[k]!, ...(await loginUser(t, mails[k]!)) };
    // payment methods live in the database only (not in the journal), so the seller adds a card again
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/member/payment/addPayment',
      headers: u.s!.headers,
      payload: { payType: 'BANK', bankName: '中国工商银行', branch: '北京分行', cardNo: '6222021234567890136', transPassword: PW },
    });
    expect(card.json().status, card.body).toBe('SUCCEED');
    bank.s = card.json().result.id;
    const ads = (side: string) =>
      ok(null, 'GET', 'getAds', { side }).then((p) => p.records.filter((a: { merchant: { nickName: string } }) => a.merchant.nickName === 'DemoMerchant'));
    const [sellAd] = await ads('BUY');
    const [buyAd] = await ads('SELL');
    const [b0] = otc('b');
    const bought = await ok('b', 'POST', 'takeAd', { adId: sellAd.adId, fiatAmount: '720.00', clientId: 'demo-buy-1' });
    const pm = bought.paymentMethods[0].id;
    await ok('b', 'POST', 'markPaid', { orderId: bought.orderId, paymentMethodId: pm });
    const sold = await ok('s', 'POST', 'takeAd', {
      adId: buyAd.adId,
      fiatAmount: '705.00',
      clientId: 'demo-sell-1',
      paymentMethodId: bank.s!,
      transPassword: PW,
    });
    const state = async (who: string, id: string) => (await ok(who, 'GET', 'getOrderDetail', { orderId: id })).state;
    // nothing is due yet: the merchant is "checking its bank"
    expect(await runOtcDemoMerchant(t.ctx, Date.now())).toBe(0);
    expect(await state('b', bought.orderId)).toBe('PAID');
    expect(await state('s', sold.orderId)).toBe('PENDING_PAYMENT');
    offset += 20_000;
    expect(await runOtcDemoMerchant(t.ctx, Date.now())).toBe(1);
    expect(await state('s', sold.orderId)).toBe('PAID');
    expect(await state('b', bought.orderId)).toBe('PAID');
    offset += 11_000;
    expect(await runOtcDemoMerchant(t.ctx, Date.now())).toBe(1);
    expect(await state('b', bought.orderId)).toBe('COMPLETED');
    // the buyer received the 100 USDT in the OTC account
    expect(otc('b')[0]).toBe(formatDecimal(BigInt(b0!.replace('.', '')) + 100n * U, 8));
    // the ad shows the merchant's release time and completion rate, computed from its orders
    const [after] = await ads('BUY');
    expect(after.merchant.orders30d).toBe(1);
    expect(after.merchant.completionRate30d).toBe('100.00');
    expect(after.merchant.avgReleaseSeconds).toBeGreaterThanOrEqual(31);
    expect(after.merchant.avgReleaseSeconds).toBeLessThan(40);
  });
});
