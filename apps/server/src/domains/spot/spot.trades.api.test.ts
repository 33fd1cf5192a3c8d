/**
 * API test of entrust/entrust/getTradeList (the trade screen's "Trade history") through app.inject() on PGlite:
 * users trade on a test market TSTB/USDT; we check the exact values of a known fill for its maker and its taker
 * (order, side, role, price, amount, total, fee and fee coin), that one user never sees another's fills (the other
 * side of the same trade included), newest-first order, paging and its bounds, the pair filter, a self-trade giving
 * both of the user's sides, and that a visitor is refused. Expected amounts are computed with bigint from the
 * engine's scales.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal, pow10 } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { apiCaller, loginUser, testMarket, type TestUser } from './spot-test-support';

const MARKET = testMarket('TSTB');

let t: TestApp;
let usdtScale: number;
let baseScale: number;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

const trades = (user: string | null, q: Record<string, string> = {}) => call(user, 'GET', 'entrust/entrust/getTradeList', q);
const order = (user: string, fields: Record<string, string>) =>
  call(user, 'POST', 'entrust/entrust/setEntrust', { pairsName: 'TSTB/USDT', orderType: 'LIMIT', ...fields });

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  usdtScale = t.ctx.host.engine.asset('USDT')!.scale;
  baseScale = t.ctx.host.engine.asset('TSTB')!.scale;
  for (const name of ['alice', 'bob', 'carol', 'dave']) users[name] = await loginUser(t, `${name}.trades@example.com`);
  for (const name of ['alice', 'dave']) {
    const r = await t.ctx.host.submit({
      type: 'deposit',
      userId: users[name]!.userId,
      asset: 'TSTB',
      account: 'SPOT',
      amount: 10n * pow10(baseScale),
      from: '@chain',
    });
    expect(r.code).toBe('ok');
  }
});
afterAll(async () => {
  await t?.close();
});

describe('getTradeList', () => {
  let aliceSell = '';
  let bobBuy = '';

  it('gives the maker and the taker their own side of a known fill, exactly', async () => {
    const sell = await order('alice', { side: 'SELL', price: '100.50', amount: '2' });
    aliceSell = sell.body.result.id;
    const buy = await order('bob', { side: 'BUY', price: '101.00', amount: '1.5' });
    expect(buy.body.result.status).toBe('FILLED');
    bobBuy = buy.body.result.id;

    const total = formatDecimal(150n * pow10(usdtScale) + 75n * pow10(usdtScale - 2), usdtScale); // 1.5 x 100.50
    const a = await trades('alice');
    expect(a.status).toBe(200);
    expect(a.body.result).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    const [fill] = a.body.result.records;
    expect(fill).toEqual({
      tradeId: expect.stringMatching(/^\d+$/),
      orderId: aliceSell,
      pairsName: 'TSTB/USDT',
      side: 'SELL',
      price: '100.50',
      amount: '1.5000',
      total,
      // The maker receives USDT and pays 0.1% of it: 0.15075 USDT.
      fee: formatDecimal(15075n * pow10(usdtScale - 5), usdtScale),
      feeCur: 'USDT',
      role: 'MAKER',
      time: expect.any(Number),
    });
    const b = await trades('bob');
    expect(b.body.result.total).toBe(1);
    // The same trade from the taker's side: bob's order, BUY, and 0.1% of the 1.5 TSTB received.
    expect(b.body.result.records[0]).toEqual({
      ...fill,
      orderId: bobBuy,
      side: 'BUY',
      fee: formatDecimal(15n * pow10(baseScale - 4), baseScale),
      feeCur: 'TSTB',
      role: 'TAKER',
    });
    // The fill agrees with the order's own detail.
    const detail = await call('bob', 'GET', 'entrust/entrust/getEntrustDetail', { id: bobBuy });
    expect(detail.body.result.fills[0]).toMatchObject({ tradeId: fill.tradeId, price: '100.50', amount: '1.5000', role: 'TAKER' });
  });

  it("never shows one user another's fills", async () => {
    const carol = await trades('carol');
    expect(carol.body.result).toEqual({ records: [], total: 0, page: 1, pageSize: 20 });
    const carolPair = await trades('carol', { pairsName: 'TSTB/USDT' });
    expect(carolPair.body.result.total).toBe(0);
    // bob sees only his order of the shared trade, never alice's side of it.
    const bob = await trades('bob');
    expect(bob.body.result.records.map((r: { orderId: string }) => r.orderId)).toEqual([bobBuy]);
    const alice = await trades('alice');
    expect(alice.body.result.records.map((r: { orderId: string }) => r.orderId)).toEqual([aliceSell]);
    // Nothing in the query can name another user: such fields are dropped and carol still sees her own (none).
    const other = await call('carol', 'GET', 'entrust/entrust/getTradeList', { userId: users.alice!.userId, member: users.alice!.userId });
    expect([other.status, other.body.result]).toEqual([200, { records: [], total: 0, page: 1, pageSize: 20 }]);
    const anon = await trades(null);
    expect(anon.status).toBe(401);
    expect(anon.body.status).toBe('FAILED');
  });

  it('lists newest first, pages, filters by pair and bounds the page', async () => {
    // bob sweeps the rest of alice's sell (0.5 @ 100.50) and two more asks (1 @ 102, 1 @ 103), then buys 0.1 @ 104:
    // four new fills.
    await order('alice', { side: 'SELL', price: '102.00', amount: '1' });
    await order('alice', { side: 'SELL', price: '103.00', amount: '1' });
    const sweep = await call('bob', 'POST', 'entrust/entrust/setEntrust', { pairsName: 'TSTB/USDT', side: 'BUY', orderType: 'MARKET', amount: '2.5' });
    expect(sweep.body.result).toMatchObject({ status: 'FILLED', dealAmount: '2.5000' });
    await order('alice', { side: 'SELL', price: '104.00', amount: '0.1' });
    await order('bob', { side: 'BUY', price: '104.00', amount: '0.1' });

    const all = await trades('bob');
    expect(all.body.result.total).toBe(5);
    const recs: Array<{ tradeId: string; price: string; amount: string; orderId: string }> = all.body.result.records;
    const ids = recs.map((r) => BigInt(r.tradeId));
    expect(ids).toEqual([...ids].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)));
    expect(recs.map((r) => [r.price, r.amount])).toEqual([
      ['104.00', '0.1000'],
      ['103.00', '1.0000'],
      ['102.00', '1.0000'],
      ['100.50', '0.5000'],
      ['100.50', '1.5000'],
    ]);
    // The sweep's three fills carry the sweep's order id.
    expect(recs.slice(1, 4).map((r) => r.orderId)).toEqual(Array(3).fill(sweep.body.result.id));

    const p1 = await trades('bob', { page: '1', pageSize: '2' });
    const p2 = await trades('bob', { page: '2', pageSize: '2' });
    const p3 = await trades('bob', { page: '3', pageSize: '2' });
    expect([p1, p2, p3].map((p) => p.body.result.records.length)).toEqual([2, 2, 1]);
    expect([...p1.body.result.records, ...p2.body.result.records, ...p3.body.result.records]).toEqual(recs);
    expect(p3.body.result).toMatchObject({ total: 5, page: 3, pageSize: 2 });
    const beyond = await trades('bob', { page: '9', pageSize: '2' });
    expect(beyond.body.result).toMatchObject({ records: [], total: 5 });

    const bad: Record<string, string>[] = [{ pageSize: '101' }, { pageSize: '0' }, { page: '0' }, { page: '100001' }, { page: 'x' }];
    for (const q of bad) {
      const r = await trades('bob', q);
      expect([r.status, r.body.errorCode], JSON.stringify(q)).toEqual([400, 'validation_failed']);
    }
    const unknown = await trades('bob', { pairsName: 'NOPE/USDT' });
    expect([unknown.status, unknown.body.errorCode]).toEqual([400, 'market_not_found']);
    await ensureMarket(t.ctx.host, { ...MARKET, symbol: 'TSTB/USDC', quote: 'USDC' });
    const otherPair = await trades('bob', { pairsName: 'TSTB/USDC' });
    expect(otherPair.body.result).toMatchObject({ records: [], total: 0 });
  });

  it('gives both sides of a self-trade (self-trade prevention off) as two fills of the user', async () => {
    const uid = users.dave!.userId;
    const sell = await t.ctx.host.submit({
      type: 'placeOrder',
      userId: uid,
      symbol: 'TSTB/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 9000n,
      quantity: 10000n,
    });
    const buy = await t.ctx.host.submit({
      type: 'placeOrder',
      userId: uid,
      symbol: 'TSTB/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 9000n,
      quantity: 10000n,
      stp: 'NONE',
    });
    expect([sell.code, buy.code]).toEqual(['ok', 'ok']);
    const r = await trades('dave');
    expect(r.body.result.total).toBe(2);
    const [first, second] = r.body.result.records;
    expect(first.tradeId).toBe(second.tradeId);
    expect([first, second].map((f: { role: string; side: string; orderId: string }) => [f.role, f.side, f.orderId])).toEqual([
      ['MAKER', 'SELL', sell.order!.orderId],
      ['TAKER', 'BUY', buy.order!.orderId],
    ]);
    expect(first).toMatchObject({ price: '90.00', amount: '1.0000' });
  });
});
