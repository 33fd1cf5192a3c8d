/**
 * API test of fixed-term savings and convert through app.inject() on a real database (PGlite files in a
 * data directory, or PostgreSQL when DATABASE_URL is set), the real engine and the journal. Two users (a and b) with USDT in ASSETS (savings) and SPOT
 * (convert), a maker with a BTC/USDT book. Checked with exact balances: an operator creates products over HTTP
 * (audited, roles), a lock moves the amount to '@earn', the daily settle on the server clock (moved by the test) pays
 * 1 day of interest exactly once however often it runs, an early redemption gives back the principal minus the
 * interest paid, maturity returns everything; the records lists; b never sees or redeems a's lock, nor confirms a's
 * quote; a convert within its guarantee, refused when the book moved (nothing changes) and when the quote expired;
 * rejections in zh and en; finally the database is deleted and the locks are rebuilt from the journal. Every rejection
 * code of the savings machine (its own, declared beside it, and those it shares) has a message in both languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { formatDecimal } from '@exchange/core';
import { EARN_DAY_MS, EARN_REJECT_CODES } from '@exchange/core/earn';
import { ERROR_MESSAGES } from '@exchange/api';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { earnLocks } from './earn.tables';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';

const U = 100_000_000n; // 1 USDT in units

let t: TestApp;
let setup: DurableTestSetup | undefined;
const u: Record<string, TestUser> = {};

async function call(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}, lang = 'en') {
  const headers: Record<string, string> = { lang, ...(who ? u[who]!.headers : {}) };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/${p}?${new URLSearchParams(data).toString()}`, headers })
      : await t.app.inject({
          method,
          url: `/api/${p}`,
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
const bal = (who: string, account: 'ASSETS' | 'SPOT', coin: string) => formatDecimal(t.ctx.host.engine.balance(u[who]!.userId, account, coin).available, 8);

beforeAll(async () => {
  setup = await durableTestSetup('exch-earn-');
  t = await setup.open();
  for (const k of ['a', 'b', 'mm']) u[k] = await loginUser(t, `${k}@earn.test`);
  for (const k of ['a', 'b']) {
    for (const account of ['ASSETS', 'SPOT'] as const) {
      const have = t.ctx.host.engine.balance(u[k]!.userId, account, 'USDT').available;
      if (have < 10_000n * U)
        expect(
          (await t.ctx.host.submit({ type: 'deposit', userId: u[k]!.userId, asset: 'USDT', account, amount: 10_000n * U - have, from: '@faucet' })).code,
        ).toBe('ok');
    }
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

let p7 = '';
let p30 = '';
let lockA = '';

describe('savings API', () => {
  it('an operator creates products over HTTP (audited; roles); users see the open ones', async () => {
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
    const admin = await login('admin@earn.test', 'admin');
    const support = await login('support@earn.test', 'support');
    const post = async (h: Record<string, string>, body: Record<string, unknown>) =>
      (await t.app.inject({ method: 'POST', url: '/api/admin/earn/saveProduct', headers: h, payload: body })).json();
    const body = {
      coin: 'USDT',
      termDays: 7,
      apr: '3.65',
      minAmount: '10',
      maxAmount: '5000',
      userQuota: '5500',
      totalQuota: '8000',
      earlyRedeem: 'FORFEIT_INTEREST',
      status: 'ON',
    };
    expect((await post(support, body)).errorCode).toBe('admin_forbidden');
    expect((await post({ lang: 'en' }, body)).errorCode).toBe('admin_unauthorized');
    expect((await post(admin, { ...body, apr: '100.5' })).errorCode).toBe('earn_apr_invalid');
    expect((await post(admin, { ...body, minAmount: '6000' })).errorCode).toBe('earn_limits_invalid');
    expect((await post(admin, { ...body, coin: 'NOPE' })).errorCode).toBe('asset_not_found');
    const a = await post(admin, body);
    expect(a.result).toMatchObject({
      coin: 'USDT',
      termDays: 7,
      apr: '3.65',
      minAmount: '10.00000000',
      remainingQuota: '8000.00000000',
      lockedTotal: '0.00000000',
      status: 'ON',
    });
    p7 = a.result.productId;
    const b = await post(admin, { ...body, termDays: 30, apr: '8', earlyRedeem: 'NOT_ALLOWED' });
    p30 = b.result.productId;
    const off = await post(admin, { ...body, status: 'OFF' });
    expect((await post(admin, { ...body, productId: '99' })).errorCode).toBe('earn_product_not_found');
    const list = await (await t.app.inject({ method: 'GET', url: '/api/admin/earn/products', headers: support })).json();
    expect(list.result.map((p: { productId: string }) => p.productId)).toEqual([p7, p30, off.result.productId]);
    await t.ctx.host.projected();
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'earn_product_create'));
    expect(audits.map((x) => x.operatorEmail)).toEqual(['admin@earn.test', 'admin@earn.test', 'admin@earn.test']);
    const pub = await ok(null, 'GET', 'earn/earn/getProducts');
    expect(pub.map((p: { productId: string; apr: string }) => [p.productId, p.apr])).toEqual([
      [p7, '3.65'],
      [p30, '8'],
    ]);
  });

  it('locks with exact balances; bad inputs refused in both languages; idempotent by clientId', async () => {
    expect((await call(null, 'POST', 'earn/earn/lock', { productId: p7, amount: '1000', clientId: 'x' })).status).toBe(401);
    await fails('a', 'POST', 'earn/earn/lock', { productId: '999', amount: '1000', clientId: 'x' }, 'earn_product_not_found', 404);
    await fails('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '5', clientId: 'x' }, 'earn_amount_out_of_limits');
    await fails('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '10.123456789', clientId: 'x' }, 'too_many_decimals');
    await fails('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '-1', clientId: 'x' }, 'validation_failed');
    const l = await ok('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '1000', clientId: 'lock-1' });
    expect(l).toMatchObject({
      coin: 'USDT',
      amount: '1000.00000000',
      apr: '3.65',
      termDays: 7,
      status: 'LOCKED',
      daysPaid: 0,
      interestPaid: '0.00000000',
      expectedInterest: '0.70000000',
      earlyReturn: '1000.00000000',
    });
    expect(l.endAt - l.startAt).toBe(7 * EARN_DAY_MS);
    lockA = l.lockId;
    expect((await ok('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '1000', clientId: 'lock-1' })).lockId).toBe(lockA);
    expect(bal('a', 'ASSETS', 'USDT')).toBe('9000.00000000');
    expect(t.ctx.host.engine.balance('@earn', 'SYSTEM', 'USDT').available).toBe(1000n * U);
    // Proof of reserves still counts the locked principal as owed to the user.
    const { readLiabilities } = await import('../reserves/reserves.service');
    const liab = readLiabilities(t.ctx.host.engine);
    const mine = liab.users.find((x) => x.userId === u.a!.userId)!;
    expect(mine.balances[liab.assets.indexOf('USDT')]).toBe(t.ctx.host.engine.balance(u.a!.userId, 'SPOT', 'USDT').available + 9_000n * U + 1_000n * U);
    await fails('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '5001', clientId: 'y' }, 'earn_amount_out_of_limits');
    await fails('a', 'POST', 'earn/earn/lock', { productId: p7, amount: '5000', clientId: 'y' }, 'earn_quota_exceeded');
    await ok('b', 'POST', 'earn/earn/lock', { productId: p30, amount: '100', clientId: 'lock-b' });
  });

  it('the daily settle pays one day exactly once, however often it runs', async () => {
    expect(await t.ctx.earn.settleDue(t.ctx.clock.now())).toBe(false);
    t.ctx.clock.advance(EARN_DAY_MS + 1000);
    expect(await t.ctx.earn.settleDue(t.ctx.clock.now())).toBe(true);
    expect(await t.ctx.earn.settleDue(t.ctx.clock.now())).toBe(false);
    // 1000 x 3.65% / 365 = 0.1 USDT
    expect(bal('a', 'ASSETS', 'USDT')).toBe('9000.10000000');
    // 100 x 8% / 365 = 0.02191780(8) -> rounded down
    expect(bal('b', 'ASSETS', 'USDT')).toBe('9900.02191780');
    const locks = await ok('a', 'GET', 'earn/earn/getLocks');
    expect(
      locks.records.map((x: { lockId: string; daysPaid: number; interestPaid: string; earlyReturn: string }) => [
        x.lockId,
        x.daysPaid,
        x.interestPaid,
        x.earlyReturn,
      ]),
    ).toEqual([[lockA, 1, '0.10000000', '999.90000000']]);
  });

  it('one user never sees or redeems another user’s lock', async () => {
    await fails('b', 'POST', 'earn/earn/redeem', { lockId: lockA }, 'earn_lock_not_found', 404);
    const bl = await ok('b', 'GET', 'earn/earn/getLocks', { status: 'ALL' });
    expect(bl.records.every((x: { lockId: string }) => x.lockId !== lockA)).toBe(true);
    expect(bl.total).toBe(1);
    await fails('b', 'POST', 'earn/earn/redeem', { lockId: bl.records[0].lockId }, 'earn_early_redeem_not_allowed');
    await fails('b', 'POST', 'earn/earn/redeem', { lockId: 'abc' }, 'validation_failed');
    expect((await call(null, 'GET', 'earn/earn/getRedemptions')).status).toBe(401);
  });

  it('early redemption gives back the principal minus the interest paid; the records list it', async () => {
    const r = await ok('a', 'POST', 'earn/earn/redeem', { lockId: lockA });
    expect(r).toMatchObject({ status: 'REDEEMED', redeemKind: 'EARLY', returned: '999.90000000', forfeited: '0.10000000', interestPaid: '0.10000000' });
    expect(bal('a', 'ASSETS', 'USDT')).toBe('10000.00000000');
    await fails('a', 'POST', 'earn/earn/redeem', { lockId: lockA }, 'earn_lock_not_found', 404);
    expect((await ok('a', 'GET', 'earn/earn/getLocks')).records).toEqual([]);
    const red = await ok('a', 'GET', 'earn/earn/getRedemptions');
    expect(red.records.map((x: { lockId: string; redeemKind: string }) => [x.lockId, x.redeemKind])).toEqual([[lockA, 'EARLY']]);
    expect((await ok('b', 'GET', 'earn/earn/getRedemptions')).records).toEqual([]);
  });

  it('maturity: the job returns the principal and the whole interest', async () => {
    t.ctx.clock.advance(29 * EARN_DAY_MS);
    expect(await t.ctx.earn.settleDue(t.ctx.clock.now())).toBe(true);
    // 100 x 8% x 30 / 365 = 0.65753424(6)
    expect(bal('b', 'ASSETS', 'USDT')).toBe('10000.65753424');
    const red = await ok('b', 'GET', 'earn/earn/getRedemptions');
    expect(red.records[0]).toMatchObject({
      redeemKind: 'MATURITY',
      returned: '100.00000000',
      interestPaid: '0.65753424',
      forfeited: '0.00000000',
      daysPaid: 30,
    });
    expect(t.ctx.host.engine.balance('@earn', 'SYSTEM', 'USDT').available).toBe(0n);
    expect(await t.ctx.earn.settleDue(t.ctx.clock.now())).toBe(false);
  });
});

describe('convert API', () => {
  let pairsQty = 0;
  beforeAll(async () => {
    const m = t.ctx.host.engine.market('BTC/USDT')!;
    pairsQty = m.qtyDecimals;
    const mm = u.mm!.userId;
    await t.ctx.host.submit({ type: 'deposit', userId: mm, asset: 'BTC', account: 'SPOT', amount: 10n * U, from: '@faucet' });
    await t.ctx.host.submit({ type: 'deposit', userId: mm, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
    const px = (usdt: bigint) => usdt * 10n ** BigInt(m.priceDecimals);
    const one = 10n ** BigInt(m.qtyDecimals);
    // 0.1 BTC at 50,000 then 1 BTC at 50,100; bids 1 BTC at 49,900 and 49,800.
    for (const [side, p, q] of [
      ['SELL', 50_000n, one / 10n],
      ['SELL', 50_100n, one],
      ['BUY', 49_900n, one],
      ['BUY', 49_800n, one],
    ] as const) {
      const r = await t.ctx.host.submit({
        type: 'placeOrder',
        userId: mm,
        symbol: 'BTC/USDT',
        side,
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: px(p),
        quantity: q,
      });
      expect(r.code).toBe('ok');
    }
  });

  it('lists the pairs with their taker fee', async () => {
    const p = await ok(null, 'GET', 'exchange/convert/getPairs');
    expect(p.coins).toContain('USDT');
    expect(p.pairs.find((x: { symbol: string }) => x.symbol === 'BTC/USDT')).toMatchObject({ base: 'BTC', quote: 'USDT' });
    expect(pairsQty).toBeGreaterThan(0);
  });

  it('quotes and converts USDT to BTC: receives at least the guaranteed amount, the fee shown', async () => {
    const before = t.ctx.host.engine.balance(u.a!.userId, 'SPOT', 'BTC').available;
    const q = await ok('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '1000' });
    expect(q).toMatchObject({ from: 'USDT', to: 'BTC', symbol: 'BTC/USDT', amount: '1000.00000000', spend: '1000.00000000' });
    expect(q.expiresAt - t.ctx.clock.now()).toBeGreaterThan(9_000);
    expect(Number(q.fee)).toBeGreaterThan(0);
    const r = await ok('a', 'POST', 'exchange/convert/confirm', { quoteId: q.quoteId });
    expect(r).toMatchObject({ from: 'USDT', to: 'BTC', spent: q.spend, received: q.receive, fee: q.fee });
    const got = t.ctx.host.engine.balance(u.a!.userId, 'SPOT', 'BTC').available - before;
    expect(formatDecimal(got, 8)).toBe(q.receive);
    // Confirming again converts nothing more.
    await ok('a', 'POST', 'exchange/convert/confirm', { quoteId: q.quoteId });
    expect(t.ctx.host.engine.balance(u.a!.userId, 'SPOT', 'BTC').available - before).toBe(got);
  });

  it('refuses when the book moved below the quote (nothing changes), an expired quote, another user’s quote', async () => {
    const q = await ok('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '2000' });
    // b takes the best ask first.
    const qb = await ok('b', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '5000' });
    await fails('a', 'POST', 'exchange/convert/confirm', { quoteId: qb.quoteId }, 'record_not_found', 404);
    await ok('b', 'POST', 'exchange/convert/confirm', { quoteId: qb.quoteId });
    const hash = t.ctx.host.engine.stateHash();
    const r = await call('a', 'POST', 'exchange/convert/confirm', { quoteId: q.quoteId });
    expect(r.body.errorCode).toBe('convert_slippage');
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    const q2 = await ok('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '100' });
    t.ctx.clock.advance(11_000);
    await fails('a', 'POST', 'exchange/convert/confirm', { quoteId: q2.quoteId }, 'convert_quote_expired');
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
  });

  it('refuses bad inputs in both languages', async () => {
    expect((await call(null, 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '1' })).status).toBe(401);
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'USDT', amount: '1' }, 'convert_pair_invalid');
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'NOPE', amount: '1' }, 'convert_pair_invalid');
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '0' }, 'amount_invalid');
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '1.123456789' }, 'too_many_decimals');
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '900000' }, 'convert_no_quote');
    await fails('a', 'POST', 'exchange/convert/quote', { from: 'BTC', to: 'USDT', amount: '1' }, 'insufficient_balance');
    await fails('a', 'POST', 'exchange/convert/confirm', { quoteId: 'cv000000000000000000000000' }, 'record_not_found', 404);
    await fails('a', 'POST', 'exchange/convert/confirm', { quoteId: 'nope' }, 'validation_failed');
  });
});

describe('savings projection', () => {
  it('rebuilds the locks from the journal after the database is lost', async () => {
    await t.ctx.host.projected();
    const dump = () => t.ctx.db.select().from(earnLocks).orderBy(asc(earnLocks.id));
    const before = await dump();
    expect(before.map((r) => r.status)).toEqual(['REDEEMED', 'REDEEMED']);
    await t.close();
    await setup!.loseDatabase();
    t = await setup!.open();
    await t.ctx.host.projected();
    expect(await dump()).toEqual(before);
  }, 60_000);
});

describe('the savings rejections', () => {
  it('each has a message in zh and en', () => {
    const messages = ERROR_MESSAGES as Record<string, { zh: string; en: string } | undefined>;
    for (const code of EARN_REJECT_CODES) {
      expect(messages[code]?.zh, code).toBeTruthy();
      expect(messages[code]?.en, code).toBeTruthy();
    }
  });
});
