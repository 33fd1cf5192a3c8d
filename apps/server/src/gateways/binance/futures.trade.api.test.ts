/**
 * Binance USDⓈ-M futures signed routes under /fapi against the real engine, database and key verifier (HMAC keys
 * created through the API key service): leverage, margin type (-4046 when unchanged), LIMIT/MARKET orders with
 * GTC/IOC/FOK/GTX, reduce-only close, query by id and client id, openOrders, allOrders, cancel and cancel-all,
 * positionRisk v2/v3, balance and account v2/v3, userTrades, the close-position STOP_MARKET/TAKE_PROFIT_MARKET as the
 * position's stop loss/take profit, and Binance's errors for bad input. Two users A and B trade with each other:
 * a key of A never reads or cancels B's orders, positions or balances (checked per endpoint), and a read-only key
 * cannot trade.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { createTestKey, signedCaller, type BinanceAnswer, type TestUserKey } from '../../domains/api-keys/api-keys.test-keys';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { eq } from 'drizzle-orm';
import { perpFundingPayments } from '../../domains/perp/perp.tables';

let t: TestApp;
const SYM = 'BTC/USDT';
const px = (v: number) => BigInt(v) * 100n;
type Key = TestUserKey;
const keys: Record<'A' | 'B' | 'Aread', Key> = {} as never;

type Res = BinanceAnswer;
/** A signed request of `k` (api-keys.test-keys.ts signedCaller). */
const call = signedCaller(() => t);
const list = (r: Res) => r.body as unknown as Array<Record<string, unknown>>;
async function fails(k: Key, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string | number>, code: number): Promise<string> {
  const r = await call(k, method, path, params);
  expect(r.body.code, JSON.stringify(r.body)).toBe(code);
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  return r.body.msg!;
}
const order = (k: Key, params: Record<string, string>) => call(k, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', ...params });

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  const users: Record<string, string> = {};
  for (const name of ['a', 'b']) {
    const { userId } = await t.ctx.members.ensureEmailUser(`fut-${name}@example.com`, 'secret-pass-1', '');
    users[name] = userId;
    await fundContract(t.ctx.host, userId, 100_000n);
  }
  await t.ctx.host.projected();
  const make = async (userId: string, futuresTrade: boolean): Promise<Key> => ({
    ...(await createTestKey(t, userId, { spotTrade: false, futuresTrade })),
    userId,
  });
  keys.A = await make(users.a!, true);
  keys.B = await make(users.b!, true);
  keys.Aread = await make(users.a!, false);
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('/fapi signed routes', () => {
  it('sets leverage and margin type as Binance answers them', async () => {
    expect((await call(keys.A, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 10 })).body).toEqual({
      leverage: 10,
      maxNotionalValue: '20000000',
      symbol: 'BTCUSDT',
    });
    expect(t.ctx.host.engine.perpSettings(keys.A.userId, SYM).leverage).toBe(10);
    expect(await fails(keys.A, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 200 }, -4028)).toBe('Leverage 200 is not valid');
    await fails(keys.A, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 0 }, -4028);
    await fails(keys.A, 'POST', '/fapi/v1/leverage', { symbol: 'NOPEUSDT', leverage: 5 }, -1121);
    expect(await fails(keys.A, 'POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'CROSSED' }, -4046)).toBe('No need to change margin type.');
    expect((await call(keys.A, 'POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' })).body).toEqual({ code: 200, msg: 'success' });
    expect(t.ctx.host.engine.perpSettings(keys.A.userId, SYM).marginMode).toBe('ISOLATED');
    await fails(keys.A, 'POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' }, -4046);
    await fails(keys.A, 'POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'HALF' }, -1100);
    // B's settings did not move.
    expect(t.ctx.host.engine.perpSettings(keys.B.userId, SYM)).toEqual({ leverage: 20, marginMode: 'CROSS' });
    expect((await call(keys.A, 'GET', '/fapi/v1/positionSide/dual')).body).toEqual({ dualSidePosition: false });
    await fails(keys.A, 'POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }, -4059);
    const br = list(await call(keys.A, 'GET', '/fapi/v1/leverageBracket', { symbol: 'BTCUSDT' }));
    expect(br[0]!.brackets).toEqual(
      expect.arrayContaining([
        { bracket: 1, initialLeverage: 125, notionalCap: 50000, notionalFloor: 0, maintMarginRatio: 0.004, cum: 0 },
        { bracket: 2, initialLeverage: 100, notionalCap: 250000, notionalFloor: 50000, maintMarginRatio: 0.005, cum: 50 },
      ]),
    );
    // symbolConfig shows what was set, each user their own; accountConfig and multiAssetsMargin the account's modes.
    expect(list(await call(keys.A, 'GET', '/fapi/v1/symbolConfig', { symbol: 'BTCUSDT' }))).toEqual([
      { symbol: 'BTCUSDT', marginType: 'ISOLATED', isAutoAddMargin: false, leverage: 10, maxNotionalValue: '20000000' },
    ]);
    const bAll = list(await call(keys.B, 'GET', '/fapi/v1/symbolConfig'));
    expect(bAll.length).toBe(t.ctx.host.engine.perpMarkets().length);
    expect(bAll.find((c) => c.symbol === 'BTCUSDT')).toMatchObject({ marginType: 'CROSSED', leverage: 20 });
    await fails(keys.A, 'GET', '/fapi/v1/symbolConfig', { symbol: 'NOPEUSDT' }, -1121);
    expect((await call(keys.A, 'GET', '/fapi/v1/accountConfig')).body).toMatchObject({
      dualSidePosition: false,
      multiAssetsMargin: false,
      feeTier: 0,
      canTrade: true,
    });
    expect((await call(keys.A, 'GET', '/fapi/v1/multiAssetsMargin')).body).toEqual({ multiAssetsMargin: false });
  });

  it("answers commissionRate with the market's maker and taker rates (0.02 % and 0.05 %)", async () => {
    expect((await call(keys.A, 'GET', '/fapi/v1/commissionRate', { symbol: 'BTCUSDT' })).body).toEqual({
      symbol: 'BTCUSDT',
      makerCommissionRate: '0.000200',
      takerCommissionRate: '0.000500',
    });
    await fails(keys.A, 'GET', '/fapi/v1/commissionRate', {}, -1102);
    await fails(keys.A, 'GET', '/fapi/v1/commissionRate', { symbol: 'NOPEUSDT' }, -1121);
    expect((await t.app.inject({ method: 'GET', url: '/fapi/v1/commissionRate?symbol=BTCUSDT' })).json()).toMatchObject({ code: -2014 });
  });

  it('places, queries and cancels a LIMIT order; another key sees and cancels nothing of it', async () => {
    const r = await order(keys.A, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '49000', quantity: '0.01', newClientOrderId: 'my-order_1' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'NEW',
      clientOrderId: 'my-order_1',
      price: '49000.00',
      origQty: '0.01000',
      executedQty: '0.00000',
      cumQuote: '0.00000000',
      avgPrice: '0',
      timeInForce: 'GTC',
      type: 'LIMIT',
      origType: 'LIMIT',
      side: 'BUY',
      positionSide: 'BOTH',
      reduceOnly: false,
      closePosition: false,
    });
    const id = r.body.orderId as number;
    expect(id).toBeGreaterThan(0);
    const byId = await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id });
    expect(byId.body).toMatchObject({ orderId: id, status: 'NEW', clientOrderId: 'my-order_1' });
    expect(typeof byId.body.time).toBe('number');
    expect((await call(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my-order_1' })).body).toMatchObject({ orderId: id });
    expect(list(await call(keys.A, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).map((o) => o.orderId)).toEqual([id]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/openOrders')).map((o) => o.orderId)).toEqual([id]);
    // B: not found, not cancelled, not listed; read-only A: cannot cancel.
    await fails(keys.B, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id }, -2013);
    await fails(keys.B, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my-order_1' }, -2013);
    await fails(keys.B, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id }, -2011);
    await fails(keys.B, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my-order_1' }, -2011);
    expect(list(await call(keys.B, 'GET', '/fapi/v1/openOrders'))).toEqual([]);
    expect(list(await call(keys.B, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' }))).toEqual([]);
    expect((await call(keys.B, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' })).body).toMatchObject({ code: 200 });
    await fails(keys.Aread, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id }, -2015);
    await fails(keys.Aread, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }, -2015);
    expect((await call(keys.Aread, 'GET', '/fapi/v1/openOrders')).status).toBe(200);
    expect(t.ctx.host.engine.perpOrder(String(id))!.status).toBe('NEW');
    // A cancels it.
    const c = await call(keys.A, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'my-order_1' });
    expect(c.body).toMatchObject({ orderId: id, status: 'CANCELED' });
    await fails(keys.A, 'DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id }, -2011);
    await fails(keys.A, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT' }, -1102);
    const all = list(await call(keys.A, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' }));
    expect(all.map((o) => [o.orderId, o.status])).toEqual([[id, 'CANCELED']]);
  });

  it('trades: MARKET fill, positions v2/v3, balances, userTrades; then a reduce-only close', async () => {
    const maker = await order(keys.B, { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.02' });
    expect(maker.body.status).toBe('NEW');
    const taker = await order(keys.A, { side: 'BUY', type: 'MARKET', quantity: '0.02' });
    expect(taker.body).toMatchObject({
      status: 'FILLED',
      type: 'MARKET',
      timeInForce: 'IOC',
      executedQty: '0.02000',
      cumQuote: '1000.00000000',
      avgPrice: '50000.00000',
    });

    const v2 = list(await call(keys.A, 'GET', '/fapi/v2/positionRisk', { symbol: 'BTCUSDT' }));
    const mark = formatDecimal(t.ctx.host.engine.perpMarkState(SYM)!.markPrice!, 2);
    expect(v2).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        positionAmt: '0.02000',
        entryPrice: '50000.00',
        markPrice: mark,
        leverage: '10',
        marginType: 'isolated',
        isolatedWallet: '100.00000000',
        positionSide: 'BOTH',
        maxNotionalValue: '20000000.00000000',
      }),
    ]);
    expect(list(await call(keys.A, 'GET', '/fapi/v2/positionRisk'))).toHaveLength(7);
    const v3 = list(await call(keys.A, 'GET', '/fapi/v3/positionRisk'));
    expect(v3).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        positionAmt: '0.02000',
        initialMargin: '100.00000000',
        isolatedWallet: '100.00000000',
        marginAsset: 'USDT',
      }),
    ]);
    const bv3 = list(await call(keys.B, 'GET', '/fapi/v3/positionRisk'));
    expect(bv3).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', positionAmt: '-0.02000', isolatedMargin: '0.00000000', isolatedWallet: '0.00000000' })]);
    expect(String(bv3[0]!.notional).startsWith('-')).toBe(true);

    // Balances: A paid the taker fee 0.05% of 1,000 = 0.5 USDT; B the maker fee 0.2.
    const bal = list(await call(keys.A, 'GET', '/fapi/v2/balance'));
    expect(bal).toEqual([expect.objectContaining({ asset: 'USDT', balance: '99999.50000000', crossWalletBalance: '99899.50000000' })]);
    expect(bal[0]!.updateTime).toBeGreaterThan(0);
    const accA = t.ctx.perp.account(keys.A.userId);
    expect(bal[0]!.availableBalance).toBe(accA.availableBalance);
    const acc3 = (await call(keys.A, 'GET', '/fapi/v3/account')).body as Record<string, unknown> & {
      assets: Array<Record<string, unknown>>;
      positions: Array<Record<string, unknown>>;
    };
    expect(acc3).toMatchObject({ totalWalletBalance: '99999.50000000', totalPositionInitialMargin: '100.00000000', availableBalance: accA.availableBalance });
    expect(acc3.assets).toEqual([expect.objectContaining({ asset: 'USDT', walletBalance: '99999.50000000', positionInitialMargin: '100.00000000' })]);
    expect(acc3.positions.map((p) => [p.symbol, p.positionAmt])).toEqual([['BTCUSDT', '0.02000']]);
    const acc2 = (await call(keys.B, 'GET', '/fapi/v2/account')).body as Record<string, unknown> & { positions: Array<Record<string, unknown>> };
    expect(acc2).toMatchObject({ totalWalletBalance: '99999.80000000', canTrade: true, multiAssetsMargin: false });
    expect(acc2.positions.find((p) => p.symbol === 'BTCUSDT')).toMatchObject({ positionAmt: '-0.02000', leverage: '20', isolated: false });

    // userTrades: each side sees its own side of the fill only.
    const ta = list(await call(keys.A, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' }));
    expect(ta).toEqual([
      expect.objectContaining({
        side: 'BUY',
        buyer: true,
        maker: false,
        price: '50000.00',
        qty: '0.02000',
        quoteQty: '1000.00000000',
        commission: '0.50000000',
        commissionAsset: 'USDT',
        realizedPnl: '0.00000000',
        orderId: taker.body.orderId,
      }),
    ]);
    const tb = list(await call(keys.B, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' }));
    expect(tb).toEqual([
      expect.objectContaining({ side: 'SELL', buyer: false, maker: true, commission: '0.20000000', orderId: maker.body.orderId, id: ta[0]!.id }),
    ]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', orderId: maker.body.orderId as number }))).toEqual([]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', orderId: taker.body.orderId as number }))).toHaveLength(1);

    // Reduce-only: B cannot reduce by selling more; A closes at B's bid.
    expect(
      await fails(keys.B, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01', reduceOnly: 'true' }, -2022),
    ).toBe('ReduceOnly Order is rejected.');
    await order(keys.B, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50100', quantity: '0.02' });
    const close = await order(keys.A, { side: 'SELL', type: 'MARKET', quantity: '0.02', reduceOnly: 'true' });
    expect(close.body).toMatchObject({ status: 'FILLED', reduceOnly: true, executedQty: '0.02000', avgPrice: '50100.00000' });
    expect(list(await call(keys.A, 'GET', '/fapi/v3/positionRisk'))).toEqual([]);
    const closeFill = list(await call(keys.A, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).at(-1)!;
    expect(closeFill).toMatchObject({ side: 'SELL', realizedPnl: '2.00000000' });
  });

  it('income: realized PnL, commissions and a funding fee, each user their own, oldest first, paged', async () => {
    // A opens a long against B's short; at the next funding time the engine settles the funding.
    await order(keys.B, { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.01' });
    expect((await order(keys.A, { side: 'BUY', type: 'MARKET', quantity: '0.01' })).body.status).toBe('FILLED');
    const next = t.ctx.host.engine.perpMarkState(SYM)!.nextFundingTs;
    t.ctx.clock.advance(next - t.ctx.clock.now() + 1000);
    expect((await t.ctx.host.submit({ type: 'perpFunding', symbol: SYM, fundingTs: next })).code).toBe('ok');
    await t.ctx.host.projected();
    const paid = await t.ctx.db.select().from(perpFundingPayments).where(eq(perpFundingPayments.fundingTs, next));
    const amountOf = (k: Key) => paid.find((f) => f.userId === k.userId)!;
    expect(paid).toHaveLength(2);
    // The long pays the short (a positive rate): equal amounts, opposite signs.
    expect(BigInt(amountOf(keys.A).amount)).toBeLessThan(0n);
    expect(BigInt(amountOf(keys.B).amount)).toBe(-BigInt(amountOf(keys.A).amount));

    const fundA = list(await call(keys.A, 'GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE' }));
    expect(fundA).toEqual([
      {
        symbol: 'BTCUSDT',
        incomeType: 'FUNDING_FEE',
        income: formatDecimal(BigInt(amountOf(keys.A).amount), 8),
        asset: 'USDT',
        info: 'FUNDING_FEE',
        time: amountOf(keys.A).ts,
        tranId: amountOf(keys.A).seq,
        tradeId: '',
      },
    ]);
    const fundB = list(await call(keys.B, 'GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE', symbol: 'BTCUSDT' }));
    expect(fundB.map((r) => r.income)).toEqual([formatDecimal(BigInt(amountOf(keys.B).amount), 8)]);

    // The realized PnL of the earlier close (A +2, B -2) and each fill's commission, as userTrades report them.
    const pnlA = list(await call(keys.A, 'GET', '/fapi/v1/income', { incomeType: 'REALIZED_PNL' }));
    const fillsA = list(await call(keys.A, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' }));
    expect(pnlA.map((r) => [r.income, r.tradeId])).toEqual(fillsA.filter((f) => f.realizedPnl !== '0.00000000').map((f) => [f.realizedPnl, String(f.id)]));
    expect(pnlA.map((r) => r.income)).toEqual(['2.00000000']);
    expect(list(await call(keys.B, 'GET', '/fapi/v1/income', { incomeType: 'REALIZED_PNL' })).map((r) => r.income)).toEqual(['-2.00000000']);
    const feesA = list(await call(keys.A, 'GET', '/fapi/v1/income', { incomeType: 'COMMISSION' }));
    expect(feesA.map((r) => [r.income, r.tradeId])).toEqual(fillsA.map((f) => [`-${f.commission as string}`, String(f.id)]));

    // Everything, oldest first; limit and page walk it; a window before it all is empty.
    const all = list(await call(keys.A, 'GET', '/fapi/v1/income'));
    expect(all).toHaveLength(pnlA.length + feesA.length + fundA.length);
    expect(all.map((r) => r.time)).toEqual([...all.map((r) => r.time as number)].sort((x, y) => x - y));
    expect(all.at(-1)).toEqual(fundA[0]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/income', { limit: 1 }))).toEqual([all[0]]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/income', { limit: 1, page: 2 }))).toEqual([all[1]]);
    expect(list(await call(keys.A, 'GET', '/fapi/v1/income', { startTime: 1, endTime: 2 }))).toEqual([]);
    await fails(keys.A, 'GET', '/fapi/v1/income', { incomeType: 'BOGUS' }, -1130);
    await fails(keys.A, 'GET', '/fapi/v1/income', { startTime: 5, endTime: 4 }, -1128);
    await fails(keys.A, 'GET', '/fapi/v1/income', { page: 11 }, -1100);
    await fails(keys.A, 'GET', '/fapi/v1/income', { limit: 1001 }, -1100);
  });

  it('time in force: IOC and FOK end at once, GTX that would take is -5022', async () => {
    await order(keys.B, { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '50200', quantity: '0.01' });
    const fok = await order(keys.A, { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '50200', quantity: '0.05' });
    expect(fok.body).toMatchObject({ status: 'EXPIRED', timeInForce: 'FOK', executedQty: '0.00000' });
    await fails(
      keys.A,
      'POST',
      '/fapi/v1/order',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTX', price: '50200', quantity: '0.01' },
      -5022,
    );
    const ioc = await order(keys.A, { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '50200', quantity: '0.05' });
    expect(ioc.body).toMatchObject({ status: 'EXPIRED', timeInForce: 'IOC', executedQty: '0.01000' });
    const gtx = await order(keys.A, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTX', price: '49000', quantity: '0.01' });
    expect(gtx.body).toMatchObject({ status: 'NEW', timeInForce: 'GTX' });
  });

  it('STOP_MARKET / TAKE_PROFIT_MARKET with closePosition set the position stop loss / take profit; cancel-all clears them', async () => {
    // A holds 0.01 long from the IOC above.
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)?.side).toBe('LONG');
    const sl = await order(keys.A, { side: 'SELL', type: 'STOP_MARKET', stopPrice: '45000', closePosition: 'true' });
    expect(sl.body).toMatchObject({ type: 'STOP_MARKET', closePosition: true, stopPrice: '45000.00', status: 'NEW', side: 'SELL' });
    const tp = await order(keys.A, { side: 'SELL', type: 'TAKE_PROFIT_MARKET', stopPrice: '60000', closePosition: 'true' });
    expect(tp.body).toMatchObject({ type: 'TAKE_PROFIT_MARKET', stopPrice: '60000.00' });
    const pos = t.ctx.host.engine.position(keys.A.userId, SYM)!;
    expect([pos.stopLoss, pos.takeProfit]).toEqual([px(45_000), px(60_000)]);
    await fails(keys.A, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', stopPrice: '45000', closePosition: 'true' }, -2022);
    await fails(
      keys.A,
      'POST',
      '/fapi/v1/order',
      { symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT_MARKET', stopPrice: '40000', closePosition: 'true' },
      -2021,
    );
    // A conditional order without its stop price (futures.conditional.api.test.ts places them).
    await fails(keys.A, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01' }, -1102);
    await fails(
      keys.A,
      'POST',
      '/fapi/v1/order',
      { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP', price: '45000', quantity: '0.01', timeInForce: 'GTC' },
      -1102,
    );
    await fails(keys.A, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', closePosition: 'true' }, -1102);
    // B has no position: its close-position orders are rejected and A's stay.
    await fails(keys.B, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', stopPrice: '45000', closePosition: 'true' }, -2022);
    await call(keys.B, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    expect(t.ctx.host.engine.position(keys.A.userId, SYM)!.stopLoss).toBe(px(45_000));
    expect(t.ctx.host.engine.perpOpenOrders(keys.A.userId, SYM)).toHaveLength(1);
    expect(t.ctx.host.engine.perpOpenOrders(keys.B.userId, SYM)).toHaveLength(0);
    expect((await call(keys.A, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' })).body).toEqual({
      code: 200,
      msg: 'The operation of cancel all open order is done.',
    });
    const after = t.ctx.host.engine.position(keys.A.userId, SYM)!;
    expect([after.stopLoss, after.takeProfit, t.ctx.host.engine.perpOpenOrders(keys.A.userId).length]).toEqual([null, null, 0]);
  });

  it('answers bad orders with Binance errors and changes nothing', async () => {
    const before = t.ctx.host.engine.perpOpenOrders(keys.A.userId).length;
    const wallet = t.ctx.perp.account(keys.A.userId).walletBalance;
    const base = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '49000', quantity: '0.01' };
    const bad: Array<[Record<string, string>, number]> = [
      [{ ...base, side: '' }, -1102],
      [{ ...base, side: 'HOLD' }, -1117],
      [{ ...base, type: 'ICEBERG' }, -1116],
      [{ ...base, type: 'TRAILING_STOP_MARKET' }, -1106],
      [{ ...base, stopPrice: '48000' }, -1106],
      [{ ...base, timeInForce: '' }, -1102],
      [{ ...base, timeInForce: 'GTD' }, -1115],
      [{ ...base, positionSide: 'LONG' }, -4061],
      [{ ...base, price: '' }, -1102],
      [{ ...base, quantity: '0' }, -4003],
      [{ ...base, quantity: '0.000001' }, -1111],
      [{ ...base, price: '49000.001' }, -1111],
      [{ ...base, price: '-1' }, -1100],
      [{ ...base, quantity: '1e3' }, -1100],
      [{ ...base, price: '90000' }, -4016],
      [{ ...base, side: 'SELL', price: '10000' }, -4024],
      [{ ...base, quantity: '100' }, -2019],
      [{ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', price: '50000' }, -1106],
      [{ ...base, symbol: 'NOPEUSDT' }, -1121],
      [{ ...base, newClientOrderId: 'bad id!' }, -1100],
      [{ ...base, reduceOnly: 'maybe' }, -1100],
    ];
    for (const [params, code] of bad) {
      const r = await call(keys.A, 'POST', '/fapi/v1/order', params);
      expect([r.body.code, JSON.stringify(params)], JSON.stringify(r.body)).toEqual([code, JSON.stringify(params)]);
    }
    expect(await fails(keys.A, 'POST', '/fapi/v1/order', { ...base, price: '90000' }, -4016)).toMatch(/^Limit price can't be higher than \d+\.\d{2}\.$/);
    expect(t.ctx.host.engine.perpOpenOrders(keys.A.userId).length).toBe(before);
    expect(t.ctx.perp.account(keys.A.userId).walletBalance).toBe(wallet);
    await fails(keys.A, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT', startTime: 0, endTime: 8 * 86_400_000 }, -1127);
    await fails(keys.A, 'GET', '/fapi/v1/userTrades', {}, -1102);
  });
});
