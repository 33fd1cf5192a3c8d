/**
 * Binance's wallet endpoints (sapi.wallet.routes.ts) through app.inject() on PGlite, signed with real HMAC keys:
 * universal transfers move exactly the amount between the engine's accounts (read back through the app API too) and
 * are listed in the caller's history only; the deposit address is the caller's own (the same as the app's screen);
 * deposit history shows the caller's deposits only, with Binance's status codes and filters; a withdrawal is held at
 * once, retried by withdrawOrderId without a second hold, and listed in the caller's history only. Each protection
 * (key without withdraw, key without an IP whitelist, a call from outside the whitelist, identity verification,
 * minimum, decimals, maximum, balance, daily limit, the 24 h lock, addresses, unknown coin or network) refuses with
 * Binance's code and leaves the engine's state hash unchanged; above the review threshold two operators must approve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, mainlandId, verifyBasic, type TestUser } from '../../domains/kyc/kyc-test-support';
import { createApiKeyService } from '../../domains/api-keys/api-keys.service';
import { apiKeys as apiKeysTable } from '../../domains/api-keys/api-keys.tables';
import type { SecurityService } from '../../domains/security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { signedCaller, type TestKey } from '../../domains/api-keys/api-keys.test-keys';
import { recordSeenDeposit } from '../../domains/wallet/chain.repository';
import { walletWithdrawals } from '../../domains/wallet/wallet.tables';

const U = 100_000_000n; // one coin in engine units (scale 8)
const DEST = '0x52908400098527886E0F7030069857D2E4169EE7';
let t: TestApp;
let ann: TestUser; // verified, funded
let ben: TestUser; // verified, another user
let cid: TestUser; // not verified
const keys: Record<string, TestKey & { id: string }> = {};
const call = signedCaller(() => t);
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

/** Creates an HMAC key of `userId` with the given permissions and IP whitelist. */
async function keyOf(userId: string, opts: { spotTrade?: boolean; futuresTrade?: boolean; withdraw?: boolean; ipWhitelist?: string }) {
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(userId, { label: 'w', keyType: 'HMAC_SHA256', ...opts }, { ip: '127.0.0.1', userAgent: 'test' });
  return { apiKey: c.key.apiKey, secret: c.secretKey!, id: c.key.id };
}

const bal = (u: TestUser, account: 'ASSETS' | 'SPOT' | 'CONTRACT', coin: string) => t.ctx.host.engine.balance(u.userId, account, coin);
const hash = () => t.ctx.host.engine.stateHash();
/** The app API's view of one account's coin (available, frozen) for `u`. */
async function appBalance(u: TestUser, account: string, coin: string): Promise<{ available: string; frozen: string }> {
  const r = await t.app.inject({ method: 'GET', url: '/api/asset/asset/getAssets', headers: u.headers });
  const acc = r.json<{ result: { accounts: Array<{ type: string; items: Array<{ coin: string; available: string; frozen: string }> }> } }>();
  const item = acc.result.accounts.find((a) => a.type === account)!.items.find((i) => i.coin === coin)!;
  return { available: item.available, frozen: item.frozen };
}
async function deposit(u: TestUser, account: 'ASSETS' | 'SPOT', asset: string, amount: bigint) {
  const r = await t.ctx.host.submit({ type: 'deposit', userId: u.userId, asset, account, amount, from: '@faucet', ref: `sapi-${crypto.randomUUID()}` });
  expect(r.code).toBe('ok');
}

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, binanceWeightPerMin: 0, withdrawDualApprovalUsdt: '5000' });
  ann = await loginUser(t, 'ann@sapi-wallet.test');
  ben = await loginUser(t, 'ben@sapi-wallet.test');
  cid = await loginUser(t, 'cid@sapi-wallet.test');
  await verifyBasic(t, ann, '张伟', mainlandId('19880808', '021'));
  await verifyBasic(t, ben, '李娜', mainlandId('19920202', '022'));
  for (const u of [ann, ben, cid]) {
    await deposit(u, 'SPOT', 'USDT', 1_000n * U);
    await deposit(u, 'ASSETS', 'USDT', 20_000n * U);
  }
  const all = { spotTrade: true, futuresTrade: true, withdraw: true, ipWhitelist: '127.0.0.1' };
  keys.ann = await keyOf(ann.userId, all);
  keys.annNoWithdraw = await keyOf(ann.userId, { spotTrade: true, futuresTrade: true });
  keys.annSpotOnly = await keyOf(ann.userId, { spotTrade: true });
  keys.annNoIp = await keyOf(ann.userId, all);
  // A key that withdraws must carry a whitelist (creation refuses one without); this row loses it afterwards, as an
  // operator's or a migration's edit could, and the route still refuses it.
  await t.ctx.db
    .update(apiKeysTable)
    .set({ ipWhitelist: [] })
    .where(eq(apiKeysTable.id, BigInt(keys.annNoIp.id)));
  keys.ben = await keyOf(ben.userId, all);
  keys.cid = await keyOf(cid.userId, all);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('universal transfer', () => {
  let tranId = 0;
  it('MAIN_UMFUTURE moves exactly the amount from spot to futures, as the app API shows', async () => {
    const spot = bal(ann, 'SPOT', 'USDT');
    const fut = bal(ann, 'CONTRACT', 'USDT');
    expect(await appBalance(ann, 'SPOT', 'USDT')).toEqual({ available: formatDecimal(spot.available, 8), frozen: formatDecimal(spot.frozen, 8) });
    const r = await call(keys.ann!, 'POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '123.45' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body)).toEqual(['tranId']);
    tranId = r.body.tranId;
    expect(bal(ann, 'SPOT', 'USDT').available).toBe(spot.available - 12_345n * (U / 100n));
    expect(bal(ann, 'CONTRACT', 'USDT').available).toBe(fut.available + 12_345n * (U / 100n));
    expect((await appBalance(ann, 'SPOT', 'USDT')).available).toBe(formatDecimal(spot.available - 12_345n * (U / 100n), 8));
    expect((await appBalance(ann, 'CONTRACT', 'USDT')).available).toBe(formatDecimal(fut.available + 12_345n * (U / 100n), 8));
  });

  it('UMFUTURE_MAIN, FUNDING_MAIN and MAIN_FUNDING move back and forth; history lists each type, newest first', async () => {
    const [spot, fut, funding] = [bal(ann, 'SPOT', 'USDT'), bal(ann, 'CONTRACT', 'USDT'), bal(ann, 'ASSETS', 'USDT')];
    for (const [type, amount] of [
      ['UMFUTURE_MAIN', '23.45'],
      ['FUNDING_MAIN', '500'],
      ['MAIN_FUNDING', '0.5'],
    ]) {
      const r = await call(keys.ann!, 'POST', '/sapi/v1/asset/transfer', { type: type!, asset: 'USDT', amount: amount! });
      expect(r.status, JSON.stringify([type, r.body])).toBe(200);
    }
    expect(bal(ann, 'CONTRACT', 'USDT').available).toBe(fut.available - 2_345n * (U / 100n));
    expect(bal(ann, 'SPOT', 'USDT').available).toBe(spot.available + 2_345n * (U / 100n) + 500n * U - U / 2n);
    expect(bal(ann, 'ASSETS', 'USDT').available).toBe(funding.available - 500n * U + U / 2n);
    const h = await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE' });
    expect(h.status).toBe(200);
    expect(h.body.total).toBe(1);
    expect(h.body.rows).toEqual([{ asset: 'USDT', amount: '123.45000000', type: 'MAIN_UMFUTURE', status: 'CONFIRMED', tranId, timestamp: expect.any(Number) }]);
    const back = await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN', size: '5', current: '1' });
    expect(back.body.rows.map((x: { amount: string }) => x.amount)).toEqual(['23.45000000']);
    // page 2 of a one-row history is empty, its total still 1
    expect((await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', { type: 'FUNDING_MAIN', size: '1', current: '2' })).body).toEqual({ total: 1, rows: [] });
    // a window that ended before the transfers holds none
    const early = await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', startTime: '1000', endTime: '2000' });
    expect(early.body).toEqual({ total: 0, rows: [] });
  });

  it("another user's history never shows them", async () => {
    for (const type of ['MAIN_UMFUTURE', 'UMFUTURE_MAIN', 'FUNDING_MAIN', 'MAIN_FUNDING']) {
      expect((await call(keys.ben!, 'GET', '/sapi/v1/asset/transfer', { type })).body).toEqual({ total: 0, rows: [] });
    }
  });

  it('refusals change nothing: insufficient balance -5013, unknown type -1100, zero -5007, coin not allowed -5010, permission -2015, bad inputs', async () => {
    const h0 = hash();
    const cases: Array<[Record<string, string>, number, TestKey?]> = [
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '100000' }, -5013],
      [{ type: 'UMFUTURE_MAIN', asset: 'USDT', amount: '100.00000001' }, -5013],
      [{ type: 'MAIN_MARGIN', asset: 'USDT', amount: '1' }, -1100],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '0' }, -5007],
      [{ type: 'MAIN_UMFUTURE', asset: 'ETH', amount: '1' }, -5010],
      [{ type: 'MAIN_UMFUTURE', asset: 'NOPE', amount: '1' }, -4018],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1.123456789' }, -1111],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT' }, -1102],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '-1' }, -1100],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1', fooBar: '1' }, -1104],
      [{ type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1' }, -2015, keys.annSpotOnly],
    ];
    for (const [params, code, key] of cases) {
      const r = await call(key ?? keys.ann!, 'POST', '/sapi/v1/asset/transfer', params);
      expect([r.status >= 400, r.body.code], JSON.stringify([params, r.body])).toEqual([true, code]);
    }
    expect((await call(keys.ann!, 'POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '100000' })).body.msg).toBe(
      'Asset transfer failed: insufficient balance',
    );
    expect(hash()).toBe(h0);
    // the spot-only key may move between spot and funding
    expect((await call(keys.annSpotOnly!, 'POST', '/sapi/v1/asset/transfer', { type: 'MAIN_FUNDING', asset: 'USDT', amount: '1' })).status).toBe(200);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', {})).body.code).toBe(-1102);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', size: '0' })).body.code).toBe(-1100);
  });
});

describe('deposits', () => {
  it("answers the caller's own deposit address, the same as the app's deposit screen; the network defaults", async () => {
    const r = await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'USDT', network: 'ETH' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const app = await t.app.inject({ method: 'GET', url: '/api/asset/wallet/getDepositAddress?coin=USDT&chain=ETH', headers: ann.headers });
    const appAddress = app.json<{ result: { address: string } }>().result.address;
    expect(r.body).toEqual({ address: appAddress, coin: 'USDT', tag: '', url: expect.any(String) });
    expect(r.body.address).toBe(t.ctx.chain.depositAddress(ann.userId));
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'USDT' })).body.address).toBe(appAddress);
    const b = await call(keys.ben!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'USDT' });
    expect(b.body.address).toBe(t.ctx.chain.depositAddress(ben.userId));
    expect(b.body.address).not.toBe(appAddress);
  });

  it('a coin without a network, an unknown coin or network, a missing coin: Binance errors', async () => {
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'BTC' })).body).toEqual({
      code: -4019,
      msg: 'Current asset is not open for deposit.',
    });
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'BTC', network: 'BTC' })).body.code).toBe(-4019);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'NOPE' })).body.code).toBe(-4018);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'USDT', network: 'TRX' })).body.code).toBe(-4019);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', {})).body.code).toBe(-1102);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/address', { coin: 'usdt!' })).body.code).toBe(-1100);
  });

  it("lists the caller's deposits only, with Binance's shape, status codes and filters", async () => {
    const tx = `0x${'ab'.repeat(32)}`;
    await recordSeenDeposit(
      t.ctx.db,
      {
        userId: BigInt(ann.userId),
        coin: 'USDT',
        chain: 'ETH',
        txHash: tx,
        logIndex: 1,
        blockNumber: 10,
        blockHash: `0x${'cd'.repeat(32)}`,
        fromAddress: DEST,
        toAddress: t.ctx.chain.depositAddress(ann.userId),
        amount: 2_500_000_000n,
        chainAmount: 25_000_000n,
        status: 'CONFIRMING',
      },
      new Date(),
    );
    const r = await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({
      amount: '25.00000000',
      coin: 'USDT',
      network: 'ETH',
      status: 0,
      address: t.ctx.chain.depositAddress(ann.userId),
      addressTag: '',
      txId: tx,
      transferType: 0,
      walletType: 1,
    });
    expect(r.body[0].confirmTimes).toMatch(new RegExp(`^[0-9]+/${t.ctx.config.chainConfirmations}$`));
    expect(Math.abs(r.body[0].insertTime - Date.now())).toBeLessThan(60_000);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { status: '0', coin: 'USDT' })).body).toHaveLength(1);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { status: '1' })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { coin: 'ETH' })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { offset: '1' })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { startTime: String(Date.now() + 60_000) })).body).toEqual([]);
    expect((await call(keys.ben!, 'GET', '/sapi/v1/capital/deposit/hisrec', {})).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { startTime: '0', endTime: String(Date.now()) })).body.code).toBe(-4047);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { status: '9' })).body.code).toBe(-1100);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/deposit/hisrec', { txId: tx })).body.code).toBe(-1104);
  });
});

describe('withdrawals', () => {
  let firstId = '';
  const apply = (key: TestKey, params: Record<string, string>) => call(key, 'POST', '/sapi/v1/capital/withdraw/apply', params);
  const rows = async (u: TestUser) =>
    Number(
      (
        await t.ctx.db
          .select({ n: count() })
          .from(walletWithdrawals)
          .where(eq(walletWithdrawals.userId, BigInt(u.userId)))
      )[0]!.n,
    );

  it('holds the amount at once (fee included), answers the id; a retried withdrawOrderId holds nothing more', async () => {
    const before = bal(ann, 'ASSETS', 'USDT');
    const r = await apply(keys.ann!, { coin: 'USDT', network: 'ETH', address: DEST, amount: '100', withdrawOrderId: 'bot-w-1' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/) });
    firstId = r.body.id;
    expect(bal(ann, 'ASSETS', 'USDT')).toEqual({ available: before.available - 100n * U, frozen: before.frozen + 100n * U });
    const again = await apply(keys.ann!, { coin: 'USDT', network: 'ETH', address: DEST, amount: '100', withdrawOrderId: 'bot-w-1' });
    expect(again.body).toEqual({ id: firstId });
    expect(bal(ann, 'ASSETS', 'USDT')).toEqual({ available: before.available - 100n * U, frozen: before.frozen + 100n * U });
    expect(await rows(ann)).toBe(1);
    // the app's records show the same withdrawal
    const app = await t.app.inject({ method: 'GET', url: '/api/asset/wallet/getRecords?type=withdrawCoin', headers: ann.headers });
    const list = app.json<{ result: { withdrawals: Array<{ id: string; amount: string; fee: string; status: string; clientId: string }> } }>().result
      .withdrawals;
    expect(list.map((w) => [w.id, w.amount, w.fee, w.status, w.clientId])).toEqual([[firstId, '100', '1', 'REVIEW', 'bot-w-1']]);
  });

  it("history answers Binance's shape for the caller only, with its filters", async () => {
    const h = await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', {});
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    expect(h.body).toEqual([
      {
        id: firstId,
        amount: '100.00000000',
        transactionFee: '1.00000000',
        coin: 'USDT',
        status: 2,
        address: DEST,
        txId: '',
        applyTime: expect.stringMatching(/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/),
        network: 'ETH',
        transferType: 0,
        withdrawOrderId: 'bot-w-1',
        info: '',
        confirmNo: 0,
        walletType: 1,
        txKey: '',
      },
    ]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { withdrawOrderId: 'bot-w-1' })).body).toHaveLength(1);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { idList: `${firstId},999999` })).body).toHaveLength(1);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { status: '6' })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { coin: 'ETH' })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { startTime: String(Date.now() + 60_000) })).body).toEqual([]);
    expect((await call(keys.ben!, 'GET', '/sapi/v1/capital/withdraw/history', {})).body).toEqual([]);
    expect((await call(keys.ben!, 'GET', '/sapi/v1/capital/withdraw/history', { idList: firstId })).body).toEqual([]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { idList: 'x' })).body.code).toBe(-1100);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { startTime: '0', endTime: String(Date.now()) })).body.code).toBe(-4047);
  });

  it('each protection refuses with Binance code and changes nothing', async () => {
    const ok = { coin: 'USDT', network: 'ETH', address: DEST, amount: '100' };
    await deposit(ann, 'ASSETS', 'USDT', 100_000n * U); // enough to reach the daily limit (50000 USDT at this level)
    const h0 = hash();
    const n0 = await rows(ann);
    const cases: Array<[string, TestKey, Record<string, string>, number]> = [
      ['key without withdraw', keys.annNoWithdraw!, ok, -2015],
      ['key without an IP whitelist', keys.annNoIp!, ok, -2015],
      ['unverified user', keys.cid!, ok, -4015],
      ['below the minimum', keys.ann!, { ...ok, amount: '5' }, -4022],
      ['too many decimals', keys.ann!, { ...ok, amount: '10.1234567' }, -4021],
      ['above the maximum', keys.ann!, { ...ok, amount: '1000001' }, -1130],
      ['insufficient balance', keys.ann!, { ...ok, amount: '900000' }, -4026],
      ['daily limit', keys.ann!, { ...ok, amount: '60000' }, -4023],
      ['illegal address', keys.ann!, { ...ok, address: '0x1234' }, -4033],
      ['own deposit address', keys.ann!, { ...ok, address: t.ctx.chain.depositAddress(ben.userId) }, -4033],
      ['unknown coin', keys.ann!, { ...ok, coin: 'NOPE' }, -4018],
      ['coin without a network', keys.ann!, { ...ok, coin: 'BTC', network: 'BTC' }, -4019],
      ['unknown network', keys.ann!, { ...ok, network: 'TRX' }, -4019],
      ['a tag', keys.ann!, { ...ok, addressTag: '12' }, -1106],
      ['bad withdrawOrderId', keys.ann!, { ...ok, withdrawOrderId: 'a.b' }, -1100],
      ['zero', keys.ann!, { ...ok, amount: '0' }, -1100],
      ['missing address', keys.ann!, { coin: 'USDT', amount: '100' }, -1102],
      ['unread parameter', keys.ann!, { ...ok, walletType: '0' }, -1104],
    ];
    for (const [name, key, params, code] of cases) {
      const r = await apply(key, params);
      expect([r.status >= 400, r.body.code], `${name}: ${JSON.stringify(r.body)}`).toEqual([true, code]);
    }
    // a call from an address outside the key's whitelist
    const q = new URLSearchParams({ ...ok, timestamp: String(t.ctx.clock.now()) }).toString();
    const sig = crypto.createHmac('sha256', keys.ann!.secret).update(q).digest('hex');
    const far = await t.app.inject({
      method: 'POST',
      url: '/sapi/v1/capital/withdraw/apply',
      remoteAddress: '10.9.8.7',
      headers: { 'x-mbx-apikey': keys.ann!.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${q}&signature=${sig}`,
    });
    expect(far.json()).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    // the 24 h lock after a security change
    const until = Date.now() + 3_600_000;
    expect(
      (
        await t.ctx.host.submit({
          type: 'updateUser',
          userId: ann.userId,
          profile: { withdrawLockUntil: String(until), withdrawLockReason: 'PASSWORD_CHANGED' },
        })
      ).code,
    ).toBe('ok');
    const h1 = hash();
    try {
      const r = await apply(keys.ann!, ok);
      expect(r.body.code).toBe(-4016);
      expect(r.body.msg).toContain('withdrawal is prohibited');
      expect(hash()).toBe(h1);
    } finally {
      await t.ctx.host.submit({ type: 'updateUser', userId: ann.userId, profile: { withdrawLockUntil: '0' } });
    }
    expect(await rows(ann)).toBe(n0);
    expect(hash()).not.toBe(h0); // the lock's own commands changed the user's profile ...
    expect(bal(ann, 'ASSETS', 'USDT').frozen).toBe(100n * U); // ... but no refusal held anything
  });

  it('refusals before the lock leave the state hash unchanged', async () => {
    const h0 = hash();
    for (const amount of ['5', '900000', '60000']) expect((await apply(keys.ann!, { coin: 'USDT', network: 'ETH', address: DEST, amount })).status).toBe(400);
    expect((await apply(keys.annNoWithdraw!, { coin: 'USDT', network: 'ETH', address: DEST, amount: '100' })).status).toBe(401);
    expect(hash()).toBe(h0);
  });

  it('above the review threshold two operators must approve; an owner cancel reads status 1, an operator rejection 3 with the reason', async () => {
    const r = await apply(keys.ann!, { coin: 'USDT', address: DEST, amount: '6000', withdrawOrderId: 'bot-big' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [row] = await t.ctx.db
      .select()
      .from(walletWithdrawals)
      .where(eq(walletWithdrawals.id, BigInt(r.body.id)));
    expect([row!.approvalsRequired, row!.status, row!.amount]).toEqual([2, 'REVIEW', String(6000n * U)]);
    await t.ctx.wallet.cancelWithdraw(ann.userId, r.body.id, 'en');
    const h = await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { withdrawOrderId: 'bot-big' });
    expect(h.body.map((x: { status: number }) => x.status)).toEqual([1]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { status: '1' })).body.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
    expect((await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { status: '2' })).body.map((x: { id: string }) => x.id)).toEqual([firstId]);
    // an operator's rejection: status 3 with the reason in `info`, the hold released
    const frozen = bal(ann, 'ASSETS', 'USDT').frozen;
    const rej = await apply(keys.ann!, { coin: 'USDT', address: DEST, amount: '20', withdrawOrderId: 'bot-rej' });
    expect(bal(ann, 'ASSETS', 'USDT').frozen).toBe(frozen + 20n * U);
    await t.ctx.wallet.reject({ id: 1n, email: 'ops@sapi-wallet.test', ip: '127.0.0.1', userAgent: 'test' }, rej.body.id, '地址错误', 'Wrong address');
    const rh = await call(keys.ann!, 'GET', '/sapi/v1/capital/withdraw/history', { withdrawOrderId: 'bot-rej' });
    expect(rh.body.map((x: { id: string; status: number; info: string }) => [x.id, x.status, x.info])).toEqual([[rej.body.id, 3, 'Wrong address']]);
    expect(bal(ann, 'ASSETS', 'USDT').frozen).toBe(frozen);
  });
});
