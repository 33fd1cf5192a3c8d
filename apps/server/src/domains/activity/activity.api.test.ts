/**
 * API test of activities through app.inject() on PGlite (PostgreSQL when DATABASE_URL is set), the real engine and its journal. An operator
 * (role admin; a support operator is refused) defines a trading competition and a deposit bonus over HTTP, with the
 * console's bad inputs refused in zh and en and every action in the audit log. Three users join (not before the start
 * of an upcoming one, not twice, not an unknown one), trade spot against each other; the leaderboard, each user's
 * progress and history are checked with exact figures, and no user sees another's progress. The operator ends the
 * competition early; the payout job pays the exact prize table once (run twice: paid once), the deposit bonus pays the
 * qualified users; then the process is restarted on the same data directory (engine recovered from snapshot and
 * journal), the job runs again and pays nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, like } from 'drizzle-orm';
import { formatDecimal } from '@exchange/core';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { totpAt } from '../admin/totp';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';

const U = 100_000_000n;
const HOUR = 3_600_000;
let t: TestApp;
let setup: DurableTestSetup | undefined;
const u: Record<string, TestUser> = {};
let adminToken = '';
let supportToken = '';

async function call(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, unknown> = {}, lang = 'en', admin?: string) {
  const headers: Record<string, string> = { lang, ...(who ? u[who]!.headers : {}), ...(admin ? { 'x-admin-token': admin } : {}) };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/${p}?${new URLSearchParams(data as Record<string, string>).toString()}`, headers })
      : await t.app.inject({ method, url: `/api/${p}`, headers, payload: data as Record<string, string> });
  return { status: res.statusCode, body: res.json() };
}
async function ok(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, unknown> = {}, admin?: string) {
  const r = await call(who, method, p, data, 'en', admin);
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}
async function fails(who: string | null, method: 'GET' | 'POST', p: string, data: Record<string, unknown>, code: string, status = 400, admin?: string) {
  const before = t.ctx.host.engine.stateHash();
  const en = await call(who, method, p, data, 'en', admin);
  const zh = await call(who, method, p, data, 'zh', admin);
  expect(en.body.errorCode, JSON.stringify(en.body)).toBe(code);
  expect(en.status).toBe(status);
  expect(zh.body.errorCode).toBe(code);
  expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
  expect(t.ctx.host.engine.stateHash()).toBe(before);
}
const assets = (who: string) => t.ctx.host.engine.balance(u[who]!.userId, 'ASSETS', 'USDT').available;
async function operator(email: string, role: 'admin' | 'support'): Promise<string> {
  const op = await t.ctx.admin.createOperator(null, { email, name: role, role });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { email, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
  });
  expect(res.json().status, res.body).toBe('SUCCEED');
  return res.json().result.token as string;
}
/** a spot fill worth `usdt` USDT at 50,000 USDT per BTC: the maker sells, the taker buys (units of the engine's market) */
async function fill(maker: string, taker: string, usdt: bigint) {
  const m = t.ctx.host.engine.market('BTC/USDT')!;
  const base = {
    symbol: 'BTC/USDT',
    orderType: 'LIMIT' as const,
    price: 50_000n * 10n ** BigInt(m.priceDecimals),
    quantity: (usdt * 10n ** BigInt(m.qtyDecimals)) / 50_000n,
  };
  expect((await t.ctx.host.submit({ type: 'placeOrder', userId: u[maker]!.userId, side: 'SELL', timeInForce: 'GTC', ...base })).code).toBe('ok');
  expect((await t.ctx.host.submit({ type: 'placeOrder', userId: u[taker]!.userId, side: 'BUY', timeInForce: 'IOC', ...base })).code).toBe('ok');
}
const competition = (over: Record<string, unknown> = {}) => ({
  kind: 'TRADING',
  titleZh: '交易大赛',
  titleEn: 'Trading cup',
  rulesZh: '按成交额排名',
  rulesEn: 'Ranked by traded volume',
  startTime: String(Date.now() - 1000),
  endTime: String(Date.now() + 2 * HOUR),
  coin: 'USDT',
  scope: 'SPOT',
  prizes: '300,200,100',
  budget: '600',
  ...over,
});

beforeAll(async () => {
  setup = await durableTestSetup('exch-activity-');
  t = await setup.open();
  await ensureMarket(t.ctx.host);
  for (const k of ['alice', 'bob', 'carol', 'dave']) {
    u[k] = await loginUser(t, `${k}@activity.test`);
    for (const [asset, amount] of [
      ['USDT', 100_000n * U],
      ['BTC', 10n * U],
    ] as const) {
      expect((await t.ctx.host.submit({ type: 'deposit', userId: u[k]!.userId, asset, account: 'SPOT', amount, from: '@faucet' })).code).toBe('ok');
    }
  }
  adminToken = await operator('admin@activity.test', 'admin');
  supportToken = await operator('support@activity.test', 'support');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

let cup = '';
let bonus = '';
let upcoming = '';

describe('activities API', () => {
  it('the console refuses bad definitions (zh and en) and roles without wallet_decide; creates with audit rows', async () => {
    const A = 'admin/activity/create';
    await fails(null, 'POST', A, competition(), 'admin_unauthorized', 401);
    await fails(null, 'POST', A, competition(), 'admin_forbidden', 403, supportToken);
    await fails('alice', 'POST', A, competition(), 'admin_unauthorized', 401);
    await fails(null, 'POST', A, competition({ endTime: String(Date.now() - 1) }), 'activity_time_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ startTime: String(Date.now() + 3 * HOUR) }), 'activity_time_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ prizes: '100,200' }), 'activity_prizes_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ prizes: '300,200,101' }), 'activity_prizes_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ prizes: '300,0' }), 'activity_prizes_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ prizes: '' }), 'activity_prizes_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ prizes: '1.000000001' }), 'too_many_decimals', 400, adminToken);
    await fails(null, 'POST', A, competition({ coin: 'NOPE' }), 'asset_not_found', 400, adminToken);
    await fails(null, 'POST', A, competition({ banner: 'javascript:alert(1)' }), 'activity_banner_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ kind: 'DEPOSIT', minDeposit: '100' }), 'activity_bonus_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ kind: 'DEPOSIT', minDeposit: '100', bonus: '601' }), 'activity_bonus_invalid', 400, adminToken);
    await fails(null, 'POST', A, competition({ kind: 'LOTTERY' }), 'validation_failed', 400, adminToken);

    const c = await ok(null, 'POST', A, competition({ banner: '/images/cup.png' }), adminToken);
    expect(c).toMatchObject({
      kind: 'TRADING',
      status: 'ONGOING',
      settled: false,
      titleEn: 'Trading cup',
      titleZh: '交易大赛',
      banner: '/images/cup.png',
      prizes: ['300.00000000', '200.00000000', '100.00000000'],
      budget: '600.00000000',
      participants: 0,
      paid: '0.00000000',
    });
    cup = c.activityId;
    bonus = (
      await ok(
        null,
        'POST',
        A,
        competition({ kind: 'DEPOSIT', titleEn: 'Deposit bonus', prizes: undefined, minDeposit: '100', bonus: '10', budget: '25' }),
        adminToken,
      )
    ).activityId;
    upcoming = (await ok(null, 'POST', A, competition({ titleEn: 'Next cup', startTime: String(Date.now() + HOUR) }), adminToken)).activityId;
    await t.ctx.host.projected();
    const rows = await t.ctx.db.select().from(auditLog).where(like(auditLog.action, 'activity_%')).orderBy(desc(auditLog.id));
    expect(rows.map((r) => r.action)).toEqual(['activity_create', 'activity_create', 'activity_create']);
    expect(rows[2]).toMatchObject({ operatorEmail: 'admin@activity.test', before: null });
    expect(rows[2]!.after).toMatchObject({
      kind: 'TRADING',
      titleEn: 'Trading cup',
      prizes: ['300.00000000', '200.00000000', '100.00000000'],
      budget: '600.00000000',
    });
  });

  it('lists by status in the request language; detail of an unknown id is 404', async () => {
    const all = await ok(null, 'GET', 'activity/activity/list');
    expect(all.map((a: { activityId: string }) => a.activityId)).toEqual([upcoming, bonus, cup]);
    const zh = await call(null, 'GET', 'activity/activity/list', { status: 'UPCOMING' }, 'zh');
    expect(zh.body.result.map((a: { title: string; status: string }) => [a.title, a.status])).toEqual([['交易大赛', 'UPCOMING']]);
    expect(await ok(null, 'GET', 'activity/activity/detail', { activityId: cup })).toMatchObject({
      title: 'Trading cup',
      rules: 'Ranked by traded volume',
      status: 'ONGOING',
      coin: 'USDT',
      scope: 'SPOT',
    });
    await fails(null, 'GET', 'activity/activity/detail', { activityId: '999' }, 'activity_not_found', 404);
    await fails(null, 'GET', 'activity/activity/detail', { activityId: 'x' }, 'validation_failed', 400);
  });

  it('join rules: login needed, not before the start, once, unknown refused', async () => {
    await fails(null, 'POST', 'activity/activity/join', { activityId: cup }, 'unauthorized', 401);
    await fails('alice', 'POST', 'activity/activity/join', { activityId: upcoming }, 'activity_not_started');
    await fails('alice', 'POST', 'activity/activity/join', { activityId: '999' }, 'activity_not_found', 404);
    for (const k of ['alice', 'bob', 'carol'])
      expect(await ok(k, 'POST', 'activity/activity/join', { activityId: cup })).toMatchObject({
        joined: true,
        progress: '0.00000000',
        rank: 0,
        reward: '0.00000000',
      });
    await fails('alice', 'POST', 'activity/activity/join', { activityId: cup }, 'activity_already_joined');
    for (const k of ['alice', 'bob', 'carol']) await ok(k, 'POST', 'activity/activity/join', { activityId: bonus });
    expect((await ok(null, 'GET', 'activity/activity/detail', { activityId: cup })).participants).toBe(3);
  });

  it('the live leaderboard: volume from fills, ties by who got there first, names masked; each user sees only their own progress', async () => {
    await fill('alice', 'bob', 200n); // 200 USDT each
    await fill('carol', 'dave', 100n); // carol 100 (dave has not joined)
    await fill('dave', 'carol', 100n); // carol 200: equal to alice and bob, reached later
    const board = await ok(null, 'GET', 'activity/activity/leaderboard', { activityId: cup });
    expect(board.records).toEqual([
      { rank: 1, name: 'alice', progress: '200.00000000', prize: '300.00000000' },
      { rank: 2, name: 'bob', progress: '200.00000000', prize: '200.00000000' },
      { rank: 3, name: 'carol', progress: '200.00000000', prize: '100.00000000' },
    ]);
    expect(JSON.stringify(board)).not.toContain('@activity.test');
    expect(await ok('carol', 'GET', 'activity/activity/my', { activityId: cup })).toEqual({
      activityId: cup,
      joined: true,
      joinedAt: expect.any(Number),
      progress: '200.00000000',
      rank: 3,
      qualified: false,
      reward: '100.00000000',
      paid: false,
    });
    expect(await ok('dave', 'GET', 'activity/activity/my', { activityId: cup })).toMatchObject({ joined: false, progress: '0.00000000', rank: 0 });
    // alice's token with bob's user id is no session; history lists only the caller's activities
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/activity/activity/my?activityId=${cup}`,
      headers: { token: u.alice!.token, userId: u.bob!.userId },
    });
    expect(forged.statusCode).toBe(401);
    expect((await ok('dave', 'GET', 'activity/activity/history')).length).toBe(0);
    const h = await ok('bob', 'GET', 'activity/activity/history');
    expect(h.map((r: { activity: { activityId: string }; mine: { progress: string } }) => [r.activity.activityId, r.mine.progress])).toEqual([
      [bonus, '0.00000000'],
      [cup, '200.00000000'],
    ]);
  });

  it('the operator ends the competition early (audited): joining stops, the job pays the prize table once', async () => {
    await fails(null, 'POST', 'admin/activity/end', { activityId: cup }, 'admin_forbidden', 403, supportToken);
    const ended = await ok(null, 'POST', 'admin/activity/end', { activityId: cup }, adminToken);
    expect(ended).toMatchObject({ status: 'ENDED', settled: false });
    await fails('dave', 'POST', 'activity/activity/join', { activityId: cup }, 'activity_ended');
    await fails(null, 'POST', 'admin/activity/end', { activityId: cup }, 'activity_ended', 400, adminToken);
    // a fill after the end counts for nothing
    await fill('carol', 'dave', 500n);
    expect(t.ctx.host.engine.activityEntry(cup, u.carol!.userId)?.progress).toBe(200n * U);
    // the deposit bonus: chain deposits of alice 100 and bob 150 qualify (in that order); carol's 99 does not
    const credit = async (who: string, amount: bigint, n: number) =>
      expect(
        (
          await t.ctx.host.submit({
            type: 'creditDeposit',
            userId: u[who]!.userId,
            asset: 'USDT',
            amount,
            chain: 'ETH',
            txHash: `0x${n.toString(16).padStart(64, '0')}`,
            logIndex: 0,
            address: `0x${'b'.repeat(40)}`,
            blockNumber: n,
          })
        ).code,
      ).toBe('ok');
    await credit('alice', 100n * U, 1);
    await credit('bob', 150n * U, 2);
    await credit('carol', 99n * U, 3);
    expect(await ok('bob', 'GET', 'activity/activity/my', { activityId: bonus })).toMatchObject({
      progress: '150.00000000',
      rank: 2,
      qualified: true,
      reward: '10.00000000',
    });
    await ok(null, 'POST', 'admin/activity/end', { activityId: bonus }, adminToken);

    const before = Object.fromEntries(['alice', 'bob', 'carol', 'dave'].map((k) => [k, assets(k)]));
    expect(await t.ctx.activity.settleDue(t.ctx.clock.now())).toBe(2);
    expect(await t.ctx.activity.settleDue(t.ctx.clock.now())).toBe(0); // run twice: pays once
    const delta = Object.fromEntries(['alice', 'bob', 'carol', 'dave'].map((k) => [k, formatDecimal(assets(k) - before[k]!, 8)]));
    expect(delta).toEqual({ alice: '310.00000000', bob: '210.00000000', carol: '100.00000000', dave: '0.00000000' });
    expect(t.ctx.host.engine.balance('@marketing', 'SYSTEM', 'USDT').available).toBe(-620n * U);
    const mine = await ok('alice', 'GET', 'activity/activity/my', { activityId: cup });
    expect(mine).toMatchObject({ rank: 1, reward: '300.00000000', paid: true });
    const detail = await ok(null, 'GET', 'admin/activity/detail', { activityId: cup }, adminToken);
    expect(detail.activity).toMatchObject({ settled: true, paid: '600.00000000' });
    expect(detail.ranking.map((r: { userId: string; prize: string }) => [r.userId, r.prize])).toEqual([
      [u.alice!.userId, '300.00000000'],
      [u.bob!.userId, '200.00000000'],
      [u.carol!.userId, '100.00000000'],
    ]);
    await t.ctx.host.projected();
    const rows = await t.ctx.db.select().from(auditLog).where(like(auditLog.action, 'activity_end'));
    expect(rows.length).toBe(2);
    expect(rows[0]!.after).toMatchObject({ activityId: cup });
  });

  it('after a restart on the same data directory the job pays nothing more; the figures are the same', async () => {
    const before = ['alice', 'bob', 'carol'].map(assets);
    const hash = t.ctx.host.engine.stateHash();
    await t.close();
    t = await setup!.open();
    expect(t.ctx.host.engine.stateHash()).toBe(hash);
    expect(await t.ctx.activity.settleDue(t.ctx.clock.now())).toBe(0);
    expect(['alice', 'bob', 'carol'].map(assets)).toEqual(before);
    expect(t.ctx.host.engine.activity(cup)?.payouts.map((p) => p.amount)).toEqual([300n * U, 200n * U, 100n * U]);
  });
});
