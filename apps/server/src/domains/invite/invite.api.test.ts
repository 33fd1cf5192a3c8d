/**
 * API test of the invitation and rebates through app.inject() on a real database (PGlite files in a data
 * directory, or PostgreSQL when DATABASE_URL is set), the real engine and the journal. An inviter A, two friends B and C registered with A's code (the real
 * register call), an uninvited counterparty D and an outsider X with no invitees. B and C trade perpetual contracts
 * with D during one Asia/Shanghai day; the daily job's step (settleDue) runs after 00:00 on the process clock
 * (Date.now, moved by the test). Checked with literal figures: the pending rebate before the settlement, A's CONTRACT
 * balance and the fee account after it, the summary, invitees (masked accounts, rebate per invitee), rebates by day,
 * the monthly ranking and the leaderboard; the job run twice pays once; a restart between the trades and the
 * settlement, and another after it, pays once; X sees none of A's data (cross-user, per endpoint) and a session of X
 * with A's user id is refused; bad input fails in zh and en; finally the database is deleted and the payouts and
 * lists are rebuilt from the journal, equal to before.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc } from 'drizzle-orm';
import { rebateDay, rebateDayStart } from '@exchange/core';
import { rebatePayouts } from './invite.tables';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { registerEmail } from '../member/member-test-app';
import { ensurePerpMarket, fundContract, PERP, tick, U } from '../perp/perp-test-support';
import { dayLabel, monthDays } from './invite.service';

const real = Date.now.bind(Date);
let offset = 0;
vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);

let t: TestApp;
let setup: DurableTestSetup | undefined;
const u: Record<string, TestUser> = {};
let welCode = '';
let tradeDay = 0;

async function call(who: string | null, p: string, data: Record<string, string> = {}, lang = 'en', headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/invite/invite/${p}?${new URLSearchParams(data).toString()}`,
    headers: { lang, ...(who ? u[who]!.headers : {}), ...headers },
  });
  return { status: res.statusCode, body: res.json() };
}
async function ok(who: string | null, p: string, data: Record<string, string> = {}) {
  const r = await call(who, p, data);
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}
async function fails(who: string | null, p: string, data: Record<string, string>, code: string, status = 400) {
  const en = await call(who, p, data, 'en');
  const zh = await call(who, p, data, 'zh');
  expect(en.body.errorCode, JSON.stringify(en.body)).toBe(code);
  expect(en.status).toBe(status);
  expect(zh.body.errorCode).toBe(code);
  expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
  expect(zh.body.errorMessage).toMatch(/[\u4e00-\u9fff]/);
}
const contract = (id: string) => t.ctx.host.engine.balance(id, 'CONTRACT', 'USDT').available;
const feeAccount = () => t.ctx.host.engine.balance('@fee', 'SYSTEM', 'USDT').available;

async function perp(userId: string, side: 'BUY' | 'SELL', price: bigint | null, quantity: bigint) {
  const r = await t.ctx.host.submit({
    type: 'perpPlaceOrder',
    userId,
    symbol: PERP.symbol,
    side,
    orderType: price === null ? 'MARKET' : 'LIMIT',
    timeInForce: price === null ? 'IOC' : 'GTC',
    ...(price === null ? {} : { price }),
    quantity,
  });
  expect(r.code).toBe('ok');
}

/** Moves the process clock to `ms` after 00:00 Asia/Shanghai of rebate day `day`. */
function clockTo(day: number, ms: number): void {
  offset = rebateDayStart(day) + ms - real();
}

async function reopen(): Promise<void> {
  await t.close();
  t = await setup!.open();
  for (const k of Object.keys(u)) u[k] = await loginUser(t, `${k}@invite.test`);
}

beforeAll(async () => {
  setup = await durableTestSetup('exch-invite-');
  t = await setup.open();
  // 10:00 of some day, so that the trades stay within it.
  tradeDay = rebateDay(real()) + 1;
  clockTo(tradeDay, 10 * 3_600_000);
  u.a = await loginUser(t, 'a@invite.test');
  u.d = await loginUser(t, 'd@invite.test');
  u.x = await loginUser(t, 'x@invite.test');
  const code = await t.app.inject({ method: 'GET', url: '/api/member/member/code', headers: u.a.headers });
  welCode = code.json().result.welCode;
  for (const k of ['b', 'c']) {
    await registerEmail(t, `${k}@invite.test`, 'secret-pass-1', { invitationCode: welCode });
    u[k] = await loginUser(t, `${k}@invite.test`);
  }
  await ensurePerpMarket(t.ctx.host);
  for (const k of ['b', 'c', 'd']) await fundContract(t.ctx.host, u[k]!.userId, 10_000n);
  await tick(t.ctx.host, 5_000_000n); // 50,000.00
  // The job's first run settles the (empty) day before.
  expect((await t.ctx.invite.settleDue(t.ctx.clock.now()))?.payouts).toBe(0);
}, 60_000);

afterAll(async () => {
  await t?.close();
  vi.restoreAllMocks();
  await setup?.dispose();
});

describe('invitation and rebates', () => {
  it('answers the rules (public) from the engine constants', async () => {
    expect(await ok(null, 'rules')).toEqual({
      ratioPercent: '30',
      asset: 'USDT',
      threshold: '5000',
      settleTime: '00:00',
      timeZone: 'Asia/Shanghai',
      registerPath: '/register?code=',
    });
  });

  it("pays 30% of the friends' contract fees of the day once, after 00:00, through a restart", async () => {
    const a = u.a!.userId;
    // B rests a bid of 0.010 at 50,000.00, D sells into it: B pays the maker fee 0.02% of 500 = 0.1 USDT.
    await perp(u.b!.userId, 'BUY', 5_000_000n, 10n);
    await perp(u.d!.userId, 'SELL', null, 10n);
    // D rests an ask of 0.007 at 50,000.01, C buys it: C pays the taker fee 0.05% of 350.00007 = 0.17500004 (ceil).
    await perp(u.d!.userId, 'SELL', 5_000_001n, 7n);
    await perp(u.c!.userId, 'BUY', null, 7n);
    // Pending before the settlement: floor(10,000,000 x 0.3) + floor(17,500,004 x 0.3) = 3,000,000 + 5,250,001.
    const before = await ok('a', 'summary');
    expect(before).toMatchObject({ welCode, inviteeCount: 2, totalRebate: '0.00000000', pendingRebate: '0.08250001', qualified: true });
    // Nothing is due on the same day.
    expect(await t.ctx.invite.settleDue(t.ctx.clock.now())).toBeNull();

    // A restart between the trades and the settlement.
    await reopen();
    const a0 = contract(a);
    const fee0 = feeAccount();
    clockTo(tradeDay + 1, 5_000); // 00:00:05 the next day
    const r = await t.ctx.invite.settleDue(t.ctx.clock.now());
    expect(r).toMatchObject({ day: tradeDay, code: 'ok', payouts: 2, paid: 8_250_001n });
    expect(contract(a) - a0).toBe(8_250_001n);
    expect(fee0 - feeAccount()).toBe(8_250_001n);
    // Run twice: nothing due; the engine refuses to pay the day again.
    expect(await t.ctx.invite.settleDue(t.ctx.clock.now())).toBeNull();
    expect(await t.ctx.host.submit({ type: 'settleRebates', day: tradeDay })).toMatchObject({ code: 'ok', duplicate: true, events: [] });
    // Another restart after it: the journal replays the one payment.
    await reopen();
    expect(await t.ctx.invite.settleDue(t.ctx.clock.now())).toBeNull();
    expect(contract(a) - a0).toBe(8_250_001n);
    expect(8_250_001n).toBe((10_000_000n * 3n) / 10n + (17_500_004n * 3n) / 10n);
    expect(U).toBe(100_000_000n);
  });

  it('shows the inviter the summary, invitees, rebates by day, ranking and leaderboard', async () => {
    expect(await ok('a', 'summary')).toMatchObject({
      welCode,
      inviteeCount: 2,
      totalRebate: '0.08250001',
      pendingRebate: '0.00000000',
      settledThrough: dayLabel(tradeDay),
    });
    const inv = await ok('a', 'invitees');
    expect(inv.total).toBe(2);
    expect(inv.records.map((r: { account: string; rebate: string }) => [r.account, r.rebate])).toEqual([
      ['c@i****test', '0.05250001'],
      ['b@i****test', '0.03000000'],
    ]);
    expect(inv.records[0].registeredAt).toBeGreaterThan(0);
    const days = await ok('a', 'rebates');
    expect(days).toMatchObject({ total: 1, records: [{ day: dayLabel(tradeDay), fee: '0.27500004', rebate: '0.08250001', paid: '0.08250001', invitees: 2 }] });
    // The ranking of the month holding the settled day: this month, or last month when 00:00 began a new month.
    const [first, , label] = monthDays(tradeDay, 0);
    const which = rebateDay(t.ctx.clock.now()) >= monthDays(tradeDay, 1)[0] ? 'last' : 'this';
    const rank = await ok('a', 'ranking', { month: which });
    expect(rank).toMatchObject({
      month: label,
      from: rebateDayStart(first),
      records: [{ rank: 1, account: 'a@i****test', rebate: '0.08250001', invitees: 2, me: true }],
      mine: { rank: 1, me: true },
    });
    const board = await ok('a', 'leaderboard');
    expect(board.records[0]).toEqual({ rank: 1, account: 'a@i****test', rebate: '0.08250001', invitees: 2, me: true });
    expect(board.mine.rank).toBe(1);
  });

  it("shows another user none of the inviter's data (every endpoint)", async () => {
    expect(await ok('x', 'summary')).toMatchObject({ inviteeCount: 0, totalRebate: '0.00000000', pendingRebate: '0.00000000' });
    expect(await ok('x', 'invitees')).toMatchObject({ total: 0, records: [] });
    expect(await ok('x', 'rebates')).toMatchObject({ total: 0, records: [] });
    // An invitee sees its own (empty) lists, not its inviter's.
    expect(await ok('b', 'invitees')).toMatchObject({ total: 0, records: [] });
    expect(await ok('b', 'rebates')).toMatchObject({ total: 0, records: [] });
    // Rankings show others masked, never as the caller's own.
    const which = rebateDay(t.ctx.clock.now()) >= monthDays(tradeDay, 1)[0] ? 'last' : 'this';
    const rank = await ok('x', 'ranking', { month: which });
    expect(rank.records).toEqual([{ rank: 1, account: 'a@i****test', rebate: '0.08250001', invitees: 2, me: false }]);
    expect(rank.mine).toMatchObject({ rank: 0, rebate: '0.00000000', me: true });
    const board = await ok('x', 'leaderboard');
    expect(board.records.every((r: { me: boolean }) => !r.me)).toBe(true);
    expect(board.mine.rank).toBe(0);
    // X's token with A's user id: refused, for every private route.
    for (const p of ['summary', 'invitees', 'rebates', 'ranking', 'leaderboard']) {
      const r = await call(null, p, {}, 'en', { token: u.x!.token, userId: u.a!.userId });
      expect(r.status, p).toBe(401);
      expect(r.body.status).toBe('FAILED');
    }
    // Logged out: refused.
    for (const p of ['summary', 'invitees', 'rebates', 'ranking', 'leaderboard']) expect((await call(null, p)).status, p).toBe(401);
  });

  it('refuses bad input in zh and en', async () => {
    await fails('a', 'ranking', { month: 'next' }, 'validation_failed');
    await fails('a', 'invitees', { page: '0' }, 'validation_failed');
    await fails('a', 'rebates', { pageSize: '101' }, 'validation_failed');
    await expect(t.ctx.invite.ranking(u.a!.userId, 'next', t.ctx.clock.now())).rejects.toMatchObject({ code: 'rebate_month_invalid' });
  });

  it('rebuilds the payouts and the invitees from the journal after the database is lost', async () => {
    await t.ctx.host.projected();
    const dump = async () => ({
      payouts: await t.ctx.db.select().from(rebatePayouts).orderBy(asc(rebatePayouts.day), asc(rebatePayouts.inviteeId)),
      lists: [await ok('a', 'invitees'), await ok('a', 'rebates')],
    });
    const before = await dump();
    expect(before.payouts.map((r) => [r.inviteeId.toString(), r.inviterId.toString(), r.fee, r.rebate, r.paid])).toEqual([
      [u.b!.userId, u.a!.userId, '10000000', '3000000', '3000000'],
      [u.c!.userId, u.a!.userId, '17500004', '5250001', '5250001'],
    ]);
    await t.close();
    await setup!.loseDatabase();
    t = await setup!.open();
    for (const k of Object.keys(u)) u[k] = await loginUser(t, `${k}@invite.test`);
    await t.ctx.host.projected();
    expect(await dump()).toEqual(before);
  }, 60_000);
});
