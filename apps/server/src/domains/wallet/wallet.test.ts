/**
 * Proves the wallet's user API and the console's withdrawal queue through app.inject on PGlite (PostgreSQL with
 * DATABASE_URL), with the real engine and the real security service: the catalogue and deposit addresses; transfers
 * conserve every asset, are exact and idempotent; each withdraw rule answers its code and changes nothing (balance,
 * rows); a withdrawal is held at once and a retried clientId answers the first one; one operator approves, a
 * withdrawal at or above the dual-approval amount needs a second, different operator; a rejection releases the hold
 * and the user reads the reason in their language; the owner cancels under review; user A can neither read nor
 * cancel B's records; the address book is per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { errorText, type ErrorCode } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { walletAddressBook, walletTransfers, walletWithdrawals } from './wallet.tables';
import { listOutbox } from '../verification/outbox.repository';
import { passPuzzle } from '../member/member-test-app';
import { loginUser, mainlandId, setTransPassword, verifyBasic, type TestUser } from '../kyc/kyc-test-support';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { newTotpSecret } from '../security/totp';
import { recordSeenDeposit } from './chain.repository';
import { utcMinute } from './wallet.service';

const PW = '246810';
const DEST = '0x52908400098527886E0F7030069857D2E4169EE7';
const DEST2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const U = 100_000_000n; // one coin in engine units
let t: TestApp;
let alice: TestUser; // unverified
let bob: TestUser; // verified, transaction password set
let carol: TestUser; // verified, transaction password set
const mailOf = new Map<string, string>();

interface Env<T = unknown> {
  status: string;
  errorCode: string;
  errorMessage: string;
  result: T;
}

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, codeResendMs: 0, codeIpPerHour: 100_000, withdrawDualApprovalUsdt: '5000' });
  alice = await loginUser(t, 'alice@wallet.test');
  bob = await loginUser(t, 'bob@wallet.test');
  carol = await loginUser(t, 'carol@wallet.test');
  mailOf.set(alice.userId, 'alice@wallet.test').set(bob.userId, 'bob@wallet.test').set(carol.userId, 'carol@wallet.test');
  await verifyBasic(t, bob, '张伟', mainlandId('19880808', '011'));
  await verifyBasic(t, carol, '李娜', mainlandId('19920202', '012'));
  await setTransPassword(t, bob, 'bob@wallet.test', PW);
  await setTransPassword(t, carol, 'carol@wallet.test', PW);
  for (const u of [alice, bob, carol]) {
    for (const [asset, amount] of [
      ['USDT', 20_000n * U],
      ['ETH', 10n * U],
    ] as const) {
      const r = await t.ctx.host.submit({
        type: 'deposit',
        userId: u.userId,
        asset,
        account: 'ASSETS',
        amount,
        from: '@faucet',
        ref: `wallet-test:${u.userId}:${asset}`,
      });
      expect(r.code).toBe('ok');
    }
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function get<T = unknown>(user: TestUser | null, path: string, query: Record<string, string> = {}, lang: 'zh' | 'en' = 'en') {
  const qs = new URLSearchParams(query).toString();
  return t.app
    .inject({ method: 'GET', url: `/api/asset/wallet/${path}${qs ? `?${qs}` : ''}`, headers: { ...(user?.headers ?? {}), lang } })
    .then((r) => ({ statusCode: r.statusCode, body: r.json<Env<T>>() }));
}
function post<T = unknown>(user: TestUser, path: string, payload: Record<string, string>, lang: 'zh' | 'en' = 'en') {
  return t.app
    .inject({ method: 'POST', url: `/api/asset/wallet/${path}`, headers: { ...user.headers, lang }, payload })
    .then((r) => ({ statusCode: r.statusCode, body: r.json<Env<T>>() }));
}
function expectFail(res: { statusCode: number; body: Env }, code: ErrorCode, status = 400): void {
  expect(res.body.status, JSON.stringify(res.body)).toBe('FAILED');
  expect(res.body.errorCode).toBe(code);
  expect(res.statusCode).toBe(status);
}
function ok<T>(res: { body: Env<T> }): T {
  expect(res.body.status, JSON.stringify(res.body)).toBe('SUCCEED');
  return res.body.result;
}
const bal = (u: TestUser, account: 'ASSETS' | 'SPOT' | 'CONTRACT' | 'OTC', asset: string) => t.ctx.host.engine.balance(u.userId, account, asset);

/** A fresh VERIFY code sent to the user's own e-mail (read back from the demo outbox). */
async function verifyCode(u: TestUser): Promise<string> {
  const pass = await passPuzzle(t);
  const sent = await t.app.inject({ method: 'POST', url: '/api/data/sms/sendCode', headers: u.headers, payload: { type: 'VERIFY', ...pass } });
  expect(sent.json<Env>().status, sent.body).toBe('SUCCEED');
  const [latest] = await listOutbox(t.ctx.db, mailOf.get(u.userId)!);
  return latest!.code;
}

let seq = 0;
async function withdrawBody(u: TestUser, over: Record<string, string> = {}): Promise<Record<string, string>> {
  return { coin: 'USDT', chain: 'ETH', address: DEST, amount: '100', transPassword: PW, code: await verifyCode(u), clientId: `w-${++seq}`, ...over };
}
async function rowsOf(table: typeof walletWithdrawals | typeof walletTransfers, userId: string): Promise<number> {
  const [r] = await t.ctx.db
    .select({ n: count() })
    .from(table)
    .where(eq(table.userId, BigInt(userId)));
  return Number(r!.n);
}

/** An operator of `role` logged in; its token. */
async function operator(role: 'support' | 'finance' | 'admin') {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@ops.wallet.test`;
  const c = await t.ctx.admin.createOperator(null, { email, name: `${role} op`, role });
  const code = await generate({ secret: c.totpSecret, epoch: Math.floor(Date.now() / 1000) });
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { email, password: c.password, totp: code } });
  expect(res.json<Env>().status, res.body).toBe('SUCCEED');
  return { email, token: res.json<Env<{ token: string }>>().result.token };
}
function admin<T = unknown>(token: string, method: 'GET' | 'POST', path: string, payload: Record<string, string> = {}) {
  const url = `/api/admin/wallet/${path}${method === 'GET' && Object.keys(payload).length ? `?${new URLSearchParams(payload)}` : ''}`;
  return t.app
    .inject({ method, url, headers: { 'x-admin-token': token, lang: 'en' }, ...(method === 'POST' ? { payload } : {}) })
    .then((r) => ({ statusCode: r.statusCode, body: r.json<Env<T>>() }));
}

describe('catalogue and deposit addresses', () => {
  it('getCoins (public): ETH on Ethereum, USDT on four networks with their own rules, other coins without a network here', async () => {
    const coins = ok(
      await get<Array<{ coin: string; chains: Array<{ chain: string; available: boolean; minWithdraw: string; withdrawFee: string; contract: string }> }>>(
        null,
        'getCoins',
      ),
    );
    const by = new Map(coins.map((c) => [c.coin, c.chains]));
    expect(by.get('USDT')!.map((c) => [c.chain, c.available, c.minWithdraw, c.withdrawFee])).toEqual([
      ['ETH', true, '10', '1'],
      ['BSC', true, '1', '0.1'],
      ['ARBITRUM', true, '2', '0.2'],
      ['MATIC', true, '2', '0.3'],
    ]);
    expect(by.get('ETH')!.map((c) => [c.chain, c.available, c.contract])).toEqual([['ETH', true, '']]);
    expect(by.get('BTC')!.map((c) => c.available)).toEqual([false]);
  });
  it("getDepositAddress: the caller's own EIP-55 address; chain_not_available for a coin without a network", async () => {
    const a = ok(await get<{ address: string; minDeposit: string; confirmations: number }>(bob, 'getDepositAddress', { coin: 'USDT', chain: 'ETH' }));
    expect(a.address).toBe(t.ctx.chain.depositAddress(bob.userId));
    expect(a.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect([a.minDeposit, a.confirmations]).toEqual(['1', t.ctx.config.chainConfirmations]);
    // one address on every EVM network, with that network's minimum
    const onBsc = ok(await get<{ address: string; minDeposit: string }>(bob, 'getDepositAddress', { coin: 'USDT', chain: 'BSC' }));
    expect([onBsc.address, onBsc.minDeposit]).toEqual([a.address, '0.01']);
    expectFail(await get(bob, 'getDepositAddress', { coin: 'ETH', chain: 'BSC' }), 'chain_not_available');
    const c = ok(await get<{ address: string }>(carol, 'getDepositAddress', { coin: 'ETH', chain: 'ETH' }));
    expect(c.address).not.toBe(a.address);
    expectFail(await get(bob, 'getDepositAddress', { coin: 'BTC', chain: 'BTC' }), 'chain_not_available');
    expectFail(await get(bob, 'getDepositAddress', { coin: 'NOPE', chain: 'ETH' }), 'asset_not_found');
    expectFail(await get(null, 'getDepositAddress', { coin: 'USDT', chain: 'ETH' }), 'unauthorized', 401);
  });
});

describe('transfers', () => {
  it('move exactly the amount, conserve every asset, and are idempotent by clientId', async () => {
    const before = t.ctx.host.engine.assetTotals();
    const r = ok(
      await post<{ id: string; amount: string; from: string; to: string }>(bob, 'transfer', {
        coin: 'USDT',
        from: 'ASSETS',
        to: 'SPOT',
        amount: '123.45678901',
        clientId: 't-1',
      }),
    );
    expect([r.amount, r.from, r.to]).toEqual(['123.45678901', 'ASSETS', 'SPOT']);
    const spot = bal(bob, 'SPOT', 'USDT').available;
    const assets = bal(bob, 'ASSETS', 'USDT').available;
    expect(assets).toBe(20_000n * U - 12_345_678_901n);
    // the retry answers the first transfer and moves nothing
    const again = ok(await post<{ id: string }>(bob, 'transfer', { coin: 'USDT', from: 'ASSETS', to: 'SPOT', amount: '123.45678901', clientId: 't-1' }));
    expect(again.id).toBe(r.id);
    expect([bal(bob, 'SPOT', 'USDT').available, bal(bob, 'ASSETS', 'USDT').available]).toEqual([spot, assets]);
    expect(await rowsOf(walletTransfers, bob.userId)).toBe(1);
    // back to ASSETS, and contract (USDT)
    ok(await post(bob, 'transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '23.45678901', clientId: 't-2' }));
    ok(await post(bob, 'transfer', { coin: 'USDT', from: 'CONTRACT', to: 'OTC', amount: '3.45678901', clientId: 't-3' }));
    expect(bal(bob, 'OTC', 'USDT').available).toBe(345_678_901n);
    expect(t.ctx.host.engine.assetTotals()).toEqual(before);
    for (const v of t.ctx.host.engine.assetTotals().values()) expect(v).toBe(0n);
    const list = ok(await get<{ total: number; transfers: Array<{ amount: string; from: string; to: string }> }>(bob, 'getRecords', { type: 'transfer' }));
    expect(list.total).toBe(3);
    expect(list.transfers.map((x) => [x.from, x.to, x.amount])).toEqual([
      ['CONTRACT', 'OTC', '3.45678901'],
      ['SPOT', 'CONTRACT', '23.45678901'],
      ['ASSETS', 'SPOT', '123.45678901'],
    ]);
  });
  it('refuses same account, a non-USDT coin into contract or OTC, an amount above available, bad amounts; nothing moves', async () => {
    const before = [bal(bob, 'ASSETS', 'ETH').available, bal(bob, 'SPOT', 'ETH').available];
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'SPOT', to: 'SPOT', amount: '1', clientId: 'tx-1' }), 'same_account');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'CONTRACT', amount: '1', clientId: 'tx-2' }), 'transfer_coin_not_allowed');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'OTC', amount: '1', clientId: 'tx-3' }), 'transfer_coin_not_allowed');
    const over = await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '10.00000001', clientId: 'tx-4' }, 'zh');
    expectFail(over, 'transfer_amount_exceeds');
    expect(over.body.errorMessage).toBe('超出最大可转数量');
    expect((await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '10.00000001', clientId: 'tx-4' })).body.errorMessage).toBe(
      'Amount exceeds maximum',
    );
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '0.000000001', clientId: 'tx-5' }), 'too_many_decimals');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '0', clientId: 'tx-6' }), 'amount_invalid');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '-1', clientId: 'tx-7' }), 'amount_invalid');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '1e3', clientId: 'tx-8' }), 'amount_invalid');
    expectFail(await post(bob, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '1', clientId: 'bad id!' }), 'validation_failed');
    expectFail(await post(bob, 'transfer', { coin: 'NOPE', from: 'ASSETS', to: 'SPOT', amount: '1', clientId: 'tx-9' }), 'asset_not_found');
    expect([bal(bob, 'ASSETS', 'ETH').available, bal(bob, 'SPOT', 'ETH').available]).toEqual(before);
    expect(await rowsOf(walletTransfers, bob.userId)).toBe(3);
  });
  it('the whole available amount can be moved, exact to the unit', async () => {
    ok(await post(carol, 'transfer', { coin: 'ETH', from: 'ASSETS', to: 'SPOT', amount: '10', clientId: 'all-1' }));
    expect([bal(carol, 'ASSETS', 'ETH').available, bal(carol, 'SPOT', 'ETH').available >= 10n * U]).toEqual([0n, true]);
    ok(await post(carol, 'transfer', { coin: 'ETH', from: 'SPOT', to: 'ASSETS', amount: '10', clientId: 'all-2' }));
    expect(bal(carol, 'ASSETS', 'ETH').available).toBe(10n * U);
  });
});

describe('withdraw rules: each refusal changes nothing', () => {
  it('an unverified user is asked to verify (kyc_required)', async () => {
    expectFail(await post(alice, 'withdraw', await withdrawBody(alice)), 'kyc_required', 403);
    const info = ok(await get<{ verified: boolean; dailyLimit: string; maxWithdraw: string }>(alice, 'getWithdrawInfo', { coin: 'USDT', chain: 'ETH' }));
    expect([info.verified, info.dailyLimit, info.maxWithdraw]).toEqual([false, '0', '0']);
    expect(await rowsOf(walletWithdrawals, alice.userId)).toBe(0);
  });
  it('bad addresses, amounts, passwords and codes', async () => {
    const before = bal(bob, 'ASSETS', 'USDT');
    const contract = t.ctx.chain.catalogue.usdtContract('ETH');
    const cases: Array<[Record<string, string>, ErrorCode, number?]> = [
      [{ address: '0x1234' }, 'address_invalid'],
      [{ address: '0x52908400098527886E0F7030069857D2E4169Ee7' }, 'address_invalid'], // one letter's case off
      [{ address: '0x0000000000000000000000000000000000000000' }, 'address_invalid'],
      [{ address: contract.toLowerCase() }, 'address_invalid'],
      [{ address: t.ctx.chain.depositAddress(carol.userId) }, 'address_internal'],
      [{ address: t.ctx.chain.depositAddress(bob.userId).toLowerCase() }, 'address_internal'],
      [{ amount: '9.999999' }, 'amount_below_minimum'],
      [{ amount: '1000000.000001' }, 'amount_above_maximum'],
      [{ amount: '10.0000001' }, 'too_many_decimals'],
      [{ amount: 'abc' }, 'amount_invalid'],
      [{ amount: '19999' }, 'insufficient_balance'],
      [{ coin: 'BTC', chain: 'BTC' }, 'chain_not_available'],
      [{ chain: 'TRX' }, 'chain_not_available'],
      [{ transPassword: '000000' }, 'trans_password_wrong'],
      [{ code: '000000' }, 'code_invalid'],
      [{ code: '' }, 'verify_code_required'],
    ];
    if (t.ctx.chain.hotWalletAddress) cases.push([{ address: t.ctx.chain.hotWalletAddress }, 'address_internal']);
    for (const [over, code, status] of cases) {
      const res = await post(bob, 'withdraw', await withdrawBody(bob, over));
      expectFail(res, code, status ?? 400);
    }
    const m = await post(bob, 'withdraw', await withdrawBody(bob, { amount: '5' }));
    expect(m.body.errorMessage).toBe(errorText('amount_below_minimum', 'en', 'amount', { min: '10', coin: 'USDT' }));
    expect(m.body.errorMessage).toBe('Minimum amount is 10 USDT');
    expect(bal(bob, 'ASSETS', 'USDT')).toEqual(before);
    expect(await rowsOf(walletWithdrawals, bob.userId)).toBe(0);
  });
  it('refused during the 24 h withdrawal lock, with its end time', async () => {
    const until = Date.now() + 3_600_000;
    const r = await t.ctx.host.submit({
      type: 'updateUser',
      userId: carol.userId,
      profile: { withdrawLockUntil: String(until), withdrawLockReason: 'PASSWORD_CHANGED' },
    });
    expect(r.code).toBe('ok');
    try {
      const res = await post(carol, 'withdraw', await withdrawBody(carol));
      expectFail(res, 'withdrawal_locked');
      expect(res.body.errorMessage).toBe(`Withdrawals are locked until ${utcMinute(until)} (UTC) after a security change`);
      const info = ok(await get<{ lock: { until: number; reason: string } | null }>(carol, 'getWithdrawInfo', { coin: 'USDT', chain: 'ETH' }));
      expect(info.lock).toEqual({ until, reason: 'PASSWORD_CHANGED' });
    } finally {
      await t.ctx.host.submit({ type: 'updateUser', userId: carol.userId, profile: { withdrawLockUntil: '0' } });
    }
    expect(await rowsOf(walletWithdrawals, carol.userId)).toBe(0);
    expect(bal(carol, 'ASSETS', 'USDT').frozen).toBe(0n);
  });
});

describe('withdrawals and the console queue', () => {
  let first = '';
  it('held at once (REVIEW); a retried clientId answers the first withdrawal and holds nothing more', async () => {
    const before = bal(bob, 'ASSETS', 'USDT');
    const body = await withdrawBody(bob, { amount: '100', clientId: 'same-1', address: DEST.toLowerCase() });
    const w = ok(
      await post<{ id: string; status: string; amount: string; fee: string; receive: string; address: string; reason: string }>(bob, 'withdraw', body),
    );
    expect([w.status, w.amount, w.fee, w.receive, w.address, w.reason]).toEqual(['REVIEW', '100', '1', '99', DEST, '']);
    expect(bal(bob, 'ASSETS', 'USDT')).toEqual({ available: before.available - 100n * U, frozen: before.frozen + 100n * U });
    const again = ok(await post<{ id: string }>(bob, 'withdraw', { ...body, code: '', transPassword: '' }));
    expect(again.id).toBe(w.id);
    expect(bal(bob, 'ASSETS', 'USDT')).toEqual({ available: before.available - 100n * U, frozen: before.frozen + 100n * U });
    expect(await rowsOf(walletWithdrawals, bob.userId)).toBe(1);
    const info = ok(await get<{ dailyUsed: string; dailyLimit: string; available: string }>(bob, 'getWithdrawInfo', { coin: 'USDT', chain: 'ETH' }));
    expect([info.dailyUsed, info.dailyLimit]).toEqual(['100', '50000']);
    first = w.id;
  });

  it('one operator approves; support may read but not decide; approved once per operator', async () => {
    const fin = await operator('finance');
    const sup = await operator('support');
    const queue = ok(
      await admin<{ total: number; list: Array<{ id: string; userId: string; approvalsRequired: number; amount: string }> }>(sup.token, 'GET', 'withdrawals'),
    );
    expect(queue.list.map((x) => [x.id, x.userId, x.approvalsRequired, x.amount])).toEqual([[first, bob.userId, 1, '100']]);
    expectFail(await admin(sup.token, 'POST', 'approveWithdrawal', { id: first }), 'admin_forbidden', 403);
    const a = ok(await admin<{ status: string; approvals: string[] }>(fin.token, 'POST', 'approveWithdrawal', { id: first }));
    expect([a.status, a.approvals]).toEqual(['APPROVED', [fin.email]]);
    expectFail(await admin(fin.token, 'POST', 'approveWithdrawal', { id: first }), 'withdrawal_state_invalid', 409);
    expectFail(await admin(fin.token, 'POST', 'approveWithdrawal', { id: '999999' }), 'withdrawal_not_found', 404);
    const rows = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'withdrawal_approve'));
    expect(rows.map((r) => [r.operatorEmail, r.targetUserId?.toString()])).toEqual([[fin.email, bob.userId]]);
    const rec = ok(await get<{ withdrawal: { status: string } }>(bob, 'getRecordDetail', { type: 'withdrawCoin', id: first }));
    expect(rec.withdrawal.status).toBe('APPROVED');
  });

  it('at or above the dual-approval amount two different operators must approve', async () => {
    const w = ok(await post<{ id: string; status: string }>(carol, 'withdraw', await withdrawBody(carol, { amount: '6000', clientId: 'dual-1' })));
    expect(w.status).toBe('REVIEW');
    const f1 = await operator('finance');
    const f2 = await operator('admin');
    const a1 = ok(await admin<{ status: string; approvalsRequired: number; approvals: string[] }>(f1.token, 'POST', 'approveWithdrawal', { id: w.id }));
    expect([a1.status, a1.approvalsRequired, a1.approvals]).toEqual(['REVIEW', 2, [f1.email]]);
    expectFail(await admin(f1.token, 'POST', 'approveWithdrawal', { id: w.id }), 'withdrawal_already_approved', 409);
    const a2 = ok(await admin<{ status: string; approvals: string[] }>(f2.token, 'POST', 'approveWithdrawal', { id: w.id }));
    expect([a2.status, a2.approvals]).toEqual(['APPROVED', [f1.email, f2.email]]);
    // still held: approved withdrawals wait for the broadcaster
    expect(bal(carol, 'ASSETS', 'USDT').frozen).toBe(6000n * U);
  });

  it('a rejection releases the hold and the user reads the reason in their language', async () => {
    const before = bal(bob, 'ASSETS', 'USDT');
    const w = ok(await post<{ id: string }>(bob, 'withdraw', await withdrawBody(bob, { amount: '50', clientId: 'rej-1', address: DEST2 })));
    expect(bal(bob, 'ASSETS', 'USDT').available).toBe(before.available - 50n * U);
    const fin = await operator('finance');
    expectFail(await admin(fin.token, 'POST', 'rejectWithdrawal', { id: w.id, reasonZh: ' ', reasonEn: 'x' }), 'reason_required');
    const r = ok(
      await admin<{ status: string; reason: string }>(fin.token, 'POST', 'rejectWithdrawal', { id: w.id, reasonZh: '地址有风险', reasonEn: 'Risky address' }),
    );
    expect([r.status, r.reason]).toEqual(['REJECTED', 'Risky address']);
    expect(bal(bob, 'ASSETS', 'USDT')).toEqual(before);
    const zh = ok(await get<{ withdrawal: { status: string; reason: string } }>(bob, 'getRecordDetail', { type: 'withdrawCoin', id: w.id }, 'zh'));
    const en = ok(await get<{ withdrawal: { reason: string } }>(bob, 'getRecordDetail', { type: 'withdrawCoin', id: w.id }, 'en'));
    expect([zh.withdrawal.status, zh.withdrawal.reason, en.withdrawal.reason]).toEqual(['REJECTED', '地址有风险', 'Risky address']);
    const rows = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'withdrawal_reject'));
    expect(rows.map((x) => [x.operatorEmail, (x.after as { reasonEn: string }).reasonEn])).toEqual([[fin.email, 'Risky address']]);
    // a rejected withdrawal is final
    expectFail(await admin(fin.token, 'POST', 'approveWithdrawal', { id: w.id }), 'withdrawal_not_found', 404);
    const all = ok(await admin<{ total: number; list: Array<{ id: string; status: string }> }>(fin.token, 'GET', 'withdrawals', { status: 'REJECTED' }));
    expect(all.list.map((x) => x.id)).toEqual([w.id]);
  });

  it('the owner cancels under review (hold released); A can neither read nor cancel B’s records', async () => {
    const before = bal(bob, 'ASSETS', 'USDT');
    const w = ok(await post<{ id: string }>(bob, 'withdraw', await withdrawBody(bob, { amount: '20', clientId: 'cancel-1' })));
    // carol: not found for every endpoint
    expectFail(await get(carol, 'getRecordDetail', { type: 'withdrawCoin', id: w.id }), 'record_not_found', 404);
    expectFail(await post(carol, 'cancelWithdraw', { id: w.id }), 'withdrawal_not_found', 404);
    const mine = ok(await get<{ withdrawals: Array<{ id: string }> }>(carol, 'getRecords', { type: 'withdrawCoin' }));
    expect(mine.withdrawals.map((x) => x.id)).not.toContain(w.id);
    const bobTransfer = ok(await get<{ transfers: Array<{ id: string }> }>(bob, 'getRecords', { type: 'transfer' })).transfers[0]!.id;
    expectFail(await get(carol, 'getRecordDetail', { type: 'transfer', id: bobTransfer }), 'record_not_found', 404);
    expect(ok(await get<{ transfer: { id: string } }>(bob, 'getRecordDetail', { type: 'transfer', id: bobTransfer })).transfer.id).toBe(bobTransfer);
    // bob cancels
    const c = ok(await post<{ status: string; reason: string }>(bob, 'cancelWithdraw', { id: w.id }));
    expect([c.status, c.reason]).toEqual(['REJECTED', 'Cancelled by you']);
    expect(bal(bob, 'ASSETS', 'USDT')).toEqual(before);
    expectFail(await post(bob, 'cancelWithdraw', { id: first }), 'withdrawal_state_invalid', 409); // approved: only operators
    expectFail(await post(bob, 'cancelWithdraw', { id: 'x' }), 'withdrawal_not_found', 404);
    const page = ok(
      await get<{ total: number; withdrawals: Array<{ id: string; status: string }> }>(bob, 'getRecords', { type: 'withdrawCoin', pageSize: '2', page: '1' }),
    );
    expect(page.total).toBe(3);
    expect(page.withdrawals.map((x) => x.status)).toEqual(['REJECTED', 'REJECTED']);
    expectFail(await get(bob, 'getRecords', { type: 'withdrawCoin', pageSize: '51' }), 'validation_failed');
  });
});

describe('address book', () => {
  it('add, list, delete, per user; checked for the network', async () => {
    const e = ok(
      await post<{ id: string; address: string; label: string }>(bob, 'addAddress', {
        coin: 'USDT',
        chain: 'ETH',
        address: DEST.toLowerCase(),
        label: ' My ledger ',
      }),
    );
    expect([e.address, e.label]).toEqual([DEST, 'My ledger']);
    expectFail(await post(bob, 'addAddress', { coin: 'USDT', chain: 'ETH', address: DEST, label: 'again' }), 'address_book_exists');
    expectFail(
      await post(bob, 'addAddress', { coin: 'USDT', chain: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169Ee7', label: 'x' }),
      'address_invalid',
    );
    expectFail(await post(bob, 'addAddress', { coin: 'USDT', chain: 'ETH', address: DEST2, label: '  ' }), 'address_label_required');
    expectFail(await post(bob, 'addAddress', { coin: 'BTC', chain: 'BTC', address: DEST2, label: 'btc' }), 'chain_not_available');
    ok(await post(carol, 'addAddress', { coin: 'ETH', chain: 'ETH', address: DEST2, label: 'carol' }));
    const list = ok(await get<Array<{ id: string; address: string }>>(bob, 'getAddressBook'));
    expect(list.map((x) => x.address)).toEqual([DEST]);
    expectFail(await post(carol, 'deleteAddress', { id: e.id }), 'address_book_not_found', 404);
    expect(ok(await get<unknown[]>(bob, 'getAddressBook')).length).toBe(1);
    ok(await post(bob, 'deleteAddress', { id: e.id }));
    expect(ok(await get<unknown[]>(bob, 'getAddressBook'))).toEqual([]);
    const [n] = await t.ctx.db.select({ n: count() }).from(walletAddressBook);
    expect(Number(n!.n)).toBe(1);
  });
});

describe('daily limit, Google authenticator, deposit records', () => {
  let dave: TestUser;
  beforeAll(async () => {
    dave = await loginUser(t, 'dave@wallet.test');
    mailOf.set(dave.userId, 'dave@wallet.test');
    await verifyBasic(t, dave, '王芳', mainlandId('19850505', '013'));
    await setTransPassword(t, dave, 'dave@wallet.test', PW);
    const r = await t.ctx.host.submit({
      type: 'deposit',
      userId: dave.userId,
      asset: 'ETH',
      account: 'ASSETS',
      amount: 30n * U,
      from: '@faucet',
      ref: `wallet-test:${dave.userId}:ETH30`,
    });
    expect(r.code).toBe('ok');
  }, 60_000);

  it('the basic level may withdraw 20 ETH a day: the form says what is left, the engine refuses beyond it and holds nothing', async () => {
    const w = ok(
      await post<{ status: string; amount: string; receive: string }>(
        dave,
        'withdraw',
        await withdrawBody(dave, { coin: 'ETH', amount: '15.12345678', clientId: 'eth-1' }),
      ),
    );
    expect([w.status, w.amount, w.receive]).toEqual(['REVIEW', '15.12345678', '15.12245678']);
    const info = ok(
      await get<{ dailyLimit: string; dailyUsed: string; maxWithdraw: string; available: string }>(dave, 'getWithdrawInfo', { coin: 'ETH', chain: 'ETH' }),
    );
    expect([info.dailyLimit, info.dailyUsed, info.maxWithdraw, info.available]).toEqual(['20', '15.12345678', '4.87654322', '14.87654322']);
    const before = bal(dave, 'ASSETS', 'ETH');
    expectFail(await post(dave, 'withdraw', await withdrawBody(dave, { coin: 'ETH', amount: '4.87654323', clientId: 'eth-2' })), 'daily_limit_exceeded');
    expect(bal(dave, 'ASSETS', 'ETH')).toEqual(before);
    expect(await rowsOf(walletWithdrawals, dave.userId)).toBe(1);
  });

  it('a request above the daily limit or of a frozen account spends no e-mail code: the same code then serves a request within it', async () => {
    const erin = await loginUser(t, 'erin@wallet.test');
    mailOf.set(erin.userId, 'erin@wallet.test');
    await verifyBasic(t, erin, '赵敏', mainlandId('19870707', '021'));
    await setTransPassword(t, erin, 'erin@wallet.test', PW);
    expect((await t.ctx.host.submit({ type: 'deposit', userId: erin.userId, asset: 'ETH', account: 'ASSETS', amount: 30n * U, from: '@faucet' })).code).toBe(
      'ok',
    );
    const over = await withdrawBody(erin, { coin: 'ETH', amount: '20.00000001', clientId: 'erin-1' });
    // Frozen by an operator: refused, code kept as well.
    expect((await t.ctx.host.submit({ type: 'updateUser', userId: erin.userId, profile: { frozen: '1' } })).code).toBe('ok');
    expectFail(await post(erin, 'withdraw', { ...over, amount: '2', clientId: 'erin-0' }), 'account_frozen', 403);
    expect((await t.ctx.host.submit({ type: 'updateUser', userId: erin.userId, profile: { frozen: '0' } })).code).toBe('ok');
    expectFail(await post(erin, 'withdraw', over), 'daily_limit_exceeded');
    expect(await rowsOf(walletWithdrawals, erin.userId)).toBe(0);
    const w = ok(await post<{ status: string }>(erin, 'withdraw', { ...over, amount: '2', clientId: 'erin-2' }));
    expect(w.status).toBe('REVIEW');
  });

  it('with Google authenticator bound, its code is required as well as the e-mail code', async () => {
    const secret = newTotpSecret();
    const box = secretBoxFromConfig(t.ctx.config)!;
    expect(
      (await t.ctx.host.submit({ type: 'updateUser', userId: dave.userId, profile: { googleSecret: box.seal(secret, `totp:${dave.userId}`) } })).code,
    ).toBe('ok');
    const info = ok(await get<{ googleBound: boolean; codeChannel: string }>(dave, 'getWithdrawInfo', { coin: 'ETH', chain: 'ETH' }));
    expect([info.googleBound, info.codeChannel]).toEqual([true, 'mail']);
    expectFail(await post(dave, 'withdraw', await withdrawBody(dave, { coin: 'ETH', amount: '1', clientId: 'g-1' })), 'google_code_required');
    expectFail(
      await post(dave, 'withdraw', await withdrawBody(dave, { coin: 'ETH', amount: '1', clientId: 'g-2', googleCode: '000000' })),
      'google_code_invalid',
    );
    expect(await rowsOf(walletWithdrawals, dave.userId)).toBe(1);
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const w = ok(await post<{ status: string }>(dave, 'withdraw', await withdrawBody(dave, { coin: 'ETH', amount: '1', clientId: 'g-3', googleCode: code })));
    expect(w.status).toBe('REVIEW');
  });

  it('deposits are listed for their owner only, with confirmations and the explorer link', async () => {
    const tx = `0x${'ab'.repeat(32)}`;
    await recordSeenDeposit(
      t.ctx.db,
      {
        userId: BigInt(dave.userId),
        coin: 'USDT',
        chain: 'ETH',
        txHash: tx,
        logIndex: 3,
        blockNumber: 10,
        blockHash: `0x${'cd'.repeat(32)}`,
        fromAddress: DEST2,
        toAddress: t.ctx.chain.depositAddress(dave.userId),
        amount: 2_500_000_000n,
        chainAmount: 25_000_000n,
        status: 'CONFIRMING',
      },
      new Date(),
    );
    const page = ok(
      await get<{ total: number; deposits: Array<{ id: string; amount: string; status: string; txHash: string; confirmationsRequired: number }> }>(
        dave,
        'getRecords',
        { type: 'coinCharging', coin: 'USDT' },
      ),
    );
    expect(page.total).toBe(1);
    expect(page.deposits.map((d) => [d.amount, d.status, d.txHash, d.confirmationsRequired])).toEqual([
      ['25', 'CONFIRMING', tx, t.ctx.config.chainConfirmations],
    ]);
    const id = page.deposits[0]!.id;
    const d = ok(await get<{ deposit: { address: string; fromAddress: string } }>(dave, 'getRecordDetail', { type: 'coinCharging', id }));
    expect([d.deposit.address, d.deposit.fromAddress]).toEqual([t.ctx.chain.depositAddress(dave.userId), DEST2]);
    expectFail(await get(carol, 'getRecordDetail', { type: 'coinCharging', id }), 'record_not_found', 404);
    expect(ok(await get<{ total: number }>(carol, 'getRecords', { type: 'coinCharging' })).total).toBe(0);
    expect(ok(await get<{ total: number }>(dave, 'getRecords', { type: 'coinCharging', coin: 'ETH' })).total).toBe(0);
  });
});
