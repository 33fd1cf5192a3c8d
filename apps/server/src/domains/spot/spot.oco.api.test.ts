/**
 * API test of spot OCO lists (docs/conditional-orders.md, OCO order lists) through the app API and app.inject()
 * (PGlite by default; PostgreSQL when DATABASE_URL is set). Alice places a sell OCO as the Binance app does (a limit
 * maker leg above the last price, a stop-limit leg below it): both legs are open orders of one list, with its id and
 * their roles, her coin held once. Bob can neither read nor cancel them. Bob buying at the limit price fills the limit
 * leg and the stop leg is cancelled by the same command (both legs' projected rows carry that command's journal
 * position), her hold released exactly; a trade between bob and carol at the trigger price triggers the stop leg of
 * another list and cancels its limit leg; cancelling either leg, or the list, cancels both. Bad inputs give a clear
 * code in both languages and leave the engine's state unchanged (its state hash).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { formatDecimal, pow10 } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { spotOrders } from './spot.tables';
import { apiCaller, apiOk, loginUser, testMarket, type TestUser } from './spot-test-support';

// A lot of 0.001 (minQty 10 qty units): an amount of 0.0005 is below it.
const MARKET = { ...testMarket('TSTO'), minQty: 10n };
const PAIR = 'TSTO/USDT';

let t: TestApp;
let base: number;
let quote: number;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);
const ok = apiOk(call);

interface Leg {
  id: string;
  status: string;
  listLeg: string;
  orderListId: string;
  triggerState: string;
}

function bal(user: string, coin: string): { available: bigint; frozen: bigint } {
  return t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin);
}

/** A LIMIT order of `user` that must be accepted. */
function limit(user: string, side: 'BUY' | 'SELL', price: string, amount: string) {
  return ok(user, 'POST', 'entrust/entrust/setEntrust', { pairsName: PAIR, side, orderType: 'LIMIT', price, amount });
}

/** A sell OCO of alice that must be accepted. */
function sellOco(price: string, stopPrice: string, stopLimitPrice: string, amount = '1', extra: Record<string, string> = {}) {
  return ok('alice', 'POST', 'entrust/entrust/setOcoEntrust', { pairsName: PAIR, side: 'SELL', amount, price, stopPrice, stopLimitPrice, ...extra });
}

/** The journal positions (seq) of the projected rows of `ids`, by id. */
async function seqs(ids: string[]): Promise<Record<string, number>> {
  await t.ctx.host.projected();
  const rows = await t.ctx.db
    .select({ id: spotOrders.id, seq: spotOrders.seq })
    .from(spotOrders)
    .where(
      inArray(
        spotOrders.id,
        ids.map((i) => BigInt(i)),
      ),
    );
  return Object.fromEntries(rows.map((r) => [r.id.toString(), r.seq]));
}

const ONE = () => pow10(base);

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  base = t.ctx.host.engine.asset('TSTO')!.scale;
  quote = t.ctx.host.engine.asset('USDT')!.scale;
  users.alice = await loginUser(t, 'oco-alice@example.com');
  users.bob = await loginUser(t, 'oco-bob@example.com');
  users.carol = await loginUser(t, 'oco-carol@example.com');
  for (const [u, asset, amount] of [
    ['alice', 'TSTO', 5n],
    ['carol', 'TSTO', 5n],
    ['alice', 'USDT', 50n],
    ['bob', 'USDT', 2000n],
  ] as const) {
    const scale = t.ctx.host.engine.asset(asset)!.scale;
    const r = await t.ctx.host.submit({ type: 'deposit', userId: users[u]!.userId, asset, account: 'SPOT', amount: amount * pow10(scale), from: '@chain' });
    expect(r.code).toBe('ok');
  }
  // A first trade between carol and bob sets the last price at 100.
  await limit('carol', 'SELL', '100', '0.1');
  expect((await limit('bob', 'BUY', '100', '0.1')).status).toBe('FILLED');
});
afterAll(async () => {
  await t?.close();
});

describe('spot OCO lists through the app API', () => {
  let list = '';
  let tp: Leg;
  let sl: Leg;

  it('a sell OCO is two open legs of one list, the limit leg in the book, the stop leg pending, the coin held once', async () => {
    const placed = await sellOco('110', '95', '94', '1', { clientOrderId: 'alice-oco-1' });
    expect(placed).toMatchObject({ clientOrderId: 'alice-oco-1', pairsName: PAIR, side: 'SELL', listStatus: 'EXECUTING' });
    list = placed.orderListId;
    expect(list).toMatch(/^[0-9]+$/);
    [tp, sl] = placed.orders;
    expect(placed.orders[0]).toMatchObject({
      listLeg: 'TAKE_PROFIT',
      orderListId: list,
      orderType: 'LIMIT',
      timeInForce: 'POST_ONLY',
      price: '110.00',
      amount: '1.0000',
      status: 'NEW',
      stopType: '',
      triggerState: 'NONE',
    });
    expect(placed.orders[1]).toMatchObject({
      listLeg: 'STOP_LOSS',
      orderListId: list,
      orderType: 'LIMIT',
      price: '94.00',
      amount: '1.0000',
      status: 'NEW',
      stopType: 'STOP_LOSS',
      stopPrice: '95.00',
      triggerState: 'PENDING',
    });
    // One hold for the list: 1 TSTO, not 2.
    expect(bal('alice', 'TSTO')).toEqual({ available: 4n * ONE(), frozen: ONE() });
    const open = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(open.total).toBe(2);
    expect(open.records.map((r: Leg) => [r.id, r.orderListId, r.listLeg])).toEqual([
      [sl.id, list, 'STOP_LOSS'],
      [tp.id, list, 'TAKE_PROFIT'],
    ]);
    const depth = t.ctx.host.engine.depth(PAIR, 20);
    expect(depth.asks.map((l) => l.price)).toEqual([11000n]);
    // A retry with the same client id answers the same list and places nothing.
    const again = await sellOco('110', '95', '94', '1', { clientOrderId: 'alice-oco-1' });
    expect(again.orderListId).toBe(list);
    expect(bal('alice', 'TSTO').frozen).toBe(ONE());
    // An ordinary order shows no list.
    const plain = await ok('bob', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: PAIR });
    expect(plain.records[0]).toMatchObject({ orderListId: '', listLeg: '' });
  });

  it('another user can neither read nor cancel the list or its legs', async () => {
    const before = t.ctx.host.engine.stateHash();
    for (const [path, data] of [
      ['entrust/entrust/cancelOcoEntrust', { orderListId: list }],
      ['entrust/entrust/cancelOcoEntrust', { clientOrderId: 'alice-oco-1' }],
      ['entrust/entrust/cancelEntrust', { id: tp.id }],
      ['entrust/entrust/cancelEntrust', { id: sl.id }],
    ] as const) {
      const r = await call('bob', 'POST', path, data);
      expect([r.status, r.body.errorCode], `${path} ${JSON.stringify(data)}`).toEqual([404, 'order_not_found']);
    }
    const read = await call('bob', 'GET', 'entrust/entrust/getEntrustDetail', { id: sl.id });
    expect([read.status, read.body.errorCode]).toEqual([404, 'order_not_found']);
    const bobOpen = await ok('bob', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(bobOpen.records.map((r: Leg) => r.id)).not.toContain(tp.id);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
  });

  it("a fill of the limit leg by another user's trade cancels the stop leg in the same command, the hold released exactly", async () => {
    const usdtBefore = bal('alice', 'USDT');
    const buy = await limit('bob', 'BUY', '110', '1');
    expect(buy.status).toBe('FILLED');
    const filled = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: tp.id });
    expect(filled).toMatchObject({ status: 'FILLED', dealAmount: '1.0000', dealTotal: formatDecimal(110n * pow10(quote), quote), listLeg: 'TAKE_PROFIT' });
    const cancelled = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: sl.id });
    expect(cancelled).toMatchObject({ status: 'CANCELED', dealAmount: '0.0000', triggerState: 'PENDING', listLeg: 'STOP_LOSS', orderListId: list });
    // The same command: bob's order, the fill and the cancel of the stop leg share one journal position.
    const at = await seqs([buy.id, tp.id, sl.id]);
    expect(at[tp.id]).toBe(at[buy.id]);
    expect(at[sl.id]).toBe(at[buy.id]);
    // The hold is gone and nothing else: 1 TSTO sold, 110 USDT less the 0.1% maker fee received.
    expect(bal('alice', 'TSTO')).toEqual({ available: 4n * ONE(), frozen: 0n });
    const fee = (110n * pow10(quote)) / 1000n;
    expect(bal('alice', 'USDT')).toEqual({ available: usdtBefore.available + 110n * pow10(quote) - fee, frozen: 0n });
    const open = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(open.total).toBe(0);
    const history = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: PAIR });
    const legs = history.records.filter((r: Leg) => r.orderListId === list).map((r: Leg) => [r.listLeg, r.status]);
    expect(legs.sort()).toEqual([
      ['STOP_LOSS', 'CANCELED'],
      ['TAKE_PROFIT', 'FILLED'],
    ]);
    // The list has ended: cancelling it now finds nothing to cancel.
    const late = await call('alice', 'POST', 'entrust/entrust/cancelOcoEntrust', { orderListId: list });
    expect([late.status, late.body.errorCode]).toEqual([404, 'order_not_found']);
  });

  it('a price move to the trigger triggers the stop leg and cancels the limit leg; the stop leg fills at its limit', async () => {
    // The last price is 110 now.
    const placed = await sellOco('120', '105', '104');
    const [limitLeg, stopLeg] = placed.orders as Leg[];
    expect(bal('alice', 'TSTO')).toEqual({ available: 3n * ONE(), frozen: ONE() });
    const bid = await limit('bob', 'BUY', '104', '1');
    expect(bid.status).toBe('NEW');
    // Carol and bob trade at 106: above the trigger, nothing happens.
    await limit('carol', 'SELL', '106', '0.1');
    await limit('bob', 'BUY', '106', '0.1');
    let d = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: stopLeg!.id });
    expect(d).toMatchObject({ status: 'NEW', triggerState: 'PENDING' });
    // At 105 the stop condition (last <= 105) holds.
    await limit('carol', 'SELL', '105', '0.1');
    const move = await limit('bob', 'BUY', '105', '0.1');
    d = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: stopLeg!.id });
    expect(d).toMatchObject({ status: 'FILLED', triggerState: 'TRIGGERED', dealAmount: '1.0000', listLeg: 'STOP_LOSS' });
    expect(d.fills).toHaveLength(1);
    expect(d.fills[0]).toMatchObject({ price: '104.00', amount: '1.0000', role: 'TAKER' });
    const l = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: limitLeg!.id });
    expect(l).toMatchObject({ status: 'CANCELED', dealAmount: '0.0000', listLeg: 'TAKE_PROFIT' });
    const at = await seqs([move.id, limitLeg!.id, stopLeg!.id]);
    expect([at[limitLeg!.id], at[stopLeg!.id]]).toEqual([at[move.id], at[move.id]]);
    expect(t.ctx.host.engine.depth(PAIR, 20).asks.some((x) => x.price === 12000n)).toBe(false);
    expect(bal('alice', 'TSTO')).toEqual({ available: 3n * ONE(), frozen: 0n });
  });

  it('cancelling either leg, or the list by its id, cancels both legs and releases the hold', async () => {
    // The last price is 104 now.
    const a = await sellOco('110', '100', '99');
    const b = await sellOco('111', '101', '100');
    expect(bal('alice', 'TSTO')).toEqual({ available: ONE(), frozen: 2n * ONE() });
    const viaLeg = await ok('alice', 'POST', 'entrust/entrust/cancelEntrust', { id: a.orders[1].id });
    expect(viaLeg).toMatchObject({ status: 'CANCELED', listLeg: 'STOP_LOSS' });
    expect(await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: a.orders[0].id })).toMatchObject({ status: 'CANCELED' });
    const viaList = await ok('alice', 'POST', 'entrust/entrust/cancelOcoEntrust', { orderListId: b.orderListId });
    expect(viaList).toMatchObject({ orderListId: b.orderListId, listStatus: 'ALL_DONE' });
    expect(viaList.orders.map((o: Leg) => [o.listLeg, o.status])).toEqual([
      ['TAKE_PROFIT', 'CANCELED'],
      ['STOP_LOSS', 'CANCELED'],
    ]);
    expect(bal('alice', 'TSTO')).toEqual({ available: 3n * ONE(), frozen: 0n });
    const open = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(open.total).toBe(0);
  });

  it('pages of open orders never cut a list in two: the legs arrive together, every order once', async () => {
    // The last price is 104 now. Newest first: a plain sell, the OCO's two legs, a plain sell.
    const first = await limit('alice', 'SELL', '120', '0.1');
    const list = await sellOco('110', '100', '99', '0.1');
    const last = await limit('alice', 'SELL', '121', '0.1');
    const page = async (n: number) =>
      (await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR, page: String(n), pageSize: '2' })) as {
        records: Leg[];
        total: number;
      };
    const p1 = await page(1);
    const p2 = await page(2);
    // a cut after the second order would split the list: page 1 takes its second leg too
    expect(p1.records.map((o) => o.id)).toEqual([last.id, list.orders[1].id, list.orders[0].id]);
    expect(p2.records.map((o) => o.id)).toEqual([first.id]);
    expect([p1.total, p2.total]).toEqual([4, 4]);
    await ok('alice', 'POST', 'entrust/entrust/cancelOcoEntrust', { orderListId: list.orderListId });
    for (const o of [first, last]) await ok('alice', 'POST', 'entrust/entrust/cancelEntrust', { id: o.id });
  });

  it('a buy OCO holds the larger leg in USDT once and is cancelled as a list', async () => {
    // Last 104: buy limit below it, trigger above it.
    const placed = await ok('alice', 'POST', 'entrust/entrust/setOcoEntrust', {
      pairsName: PAIR,
      side: 'BUY',
      amount: '0.1',
      price: '100',
      stopPrice: '108',
      stopLimitPrice: '109',
    });
    expect(placed.orders.map((o: Leg & { price: string }) => [o.listLeg, o.price])).toEqual([
      ['TAKE_PROFIT', '100.00'],
      ['STOP_LOSS', '109.00'],
    ]);
    // The hold is the larger of the legs' needs, 109 x 0.1 = 10.9 USDT, not their sum.
    expect(bal('alice', 'USDT').frozen).toBe((109n * pow10(quote)) / 10n);
    await ok('alice', 'POST', 'entrust/entrust/cancelOcoEntrust', { orderListId: placed.orderListId });
    expect(bal('alice', 'USDT').frozen).toBe(0n);
  });

  it('rejects bad OCO inputs with a clear code in both languages and changes nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    const balances = [bal('alice', 'TSTO'), bal('alice', 'USDT')];
    // The last price is 104. [fields, errorCode, en message]
    const sell = { side: 'SELL', amount: '1', price: '110', stopPrice: '100', stopLimitPrice: '99' };
    const buy = { side: 'BUY', amount: '0.1', price: '100', stopPrice: '108', stopLimitPrice: '109' };
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...sell, amount: '' }, 'quantity_required', 'Please enter an amount'],
      [{ ...sell, price: '' }, 'price_required', 'Please enter a price'],
      [{ ...sell, stopPrice: '' }, 'trigger_price_required', 'Please enter a trigger price'],
      [{ ...sell, stopLimitPrice: '0' }, 'stop_limit_price_required', 'Please enter the stop-limit price'],
      [{ ...sell, price: '103' }, 'oco_sell_prices', 'For a sell OCO, the limit price must be above the last price (104 USDT) and the trigger price below it'],
      [
        { ...sell, stopPrice: '104' },
        'oco_sell_prices',
        'For a sell OCO, the limit price must be above the last price (104 USDT) and the trigger price below it',
      ],
      [
        { ...sell, price: '90', stopPrice: '110' },
        'oco_sell_prices',
        'For a sell OCO, the limit price must be above the last price (104 USDT) and the trigger price below it',
      ],
      [{ ...buy, price: '105' }, 'oco_buy_prices', 'For a buy OCO, the limit price must be below the last price (104 USDT) and the trigger price above it'],
      [{ ...buy, stopPrice: '103' }, 'oco_buy_prices', 'For a buy OCO, the limit price must be below the last price (104 USDT) and the trigger price above it'],
      [{ ...sell, amount: '0.0005' }, 'quantity_below_minimum', 'Minimum amount is 0.001 TSTO'],
      [{ ...sell, amount: '0.00001' }, 'too_many_decimals', 'The amount must be a multiple of 0.0001 TSTO'],
      [{ ...sell, price: '110.001' }, 'too_many_decimals', 'The price must be a multiple of 0.01 USDT'],
      [{ ...sell, stopLimitPrice: '99.001' }, 'too_many_decimals', 'The stop-limit price must be a multiple of 0.01 USDT'],
      [{ ...sell, amount: '100' }, 'insufficient_balance', 'Insufficient balance'],
      [{ ...buy, amount: '1000' }, 'insufficient_balance', 'Insufficient balance'],
      [{ ...sell, side: 'HOLD' }, 'validation_failed', 'Invalid request parameters: order side'],
    ];
    for (const [fields, code, message] of cases) {
      const data = { pairsName: PAIR, ...fields };
      const en = await call('alice', 'POST', 'entrust/entrust/setOcoEntrust', data, 'en');
      expect([en.status, en.body.status, en.body.errorCode, en.body.errorMessage], JSON.stringify(fields)).toEqual([400, 'FAILED', code, message]);
      const zh = await call('alice', 'POST', 'entrust/entrust/setOcoEntrust', data, 'zh');
      expect(zh.body.errorCode).toBe(code);
      expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
      expect(zh.body.errorMessage).not.toMatch(/[a-z]{4,}/);
    }
    const missing = await call('alice', 'POST', 'entrust/entrust/cancelOcoEntrust', { orderListId: '99999999' }, 'zh');
    expect([missing.status, missing.body.errorCode, missing.body.errorMessage]).toEqual([404, 'order_not_found', '委托不存在或已结束']);
    const visitor = await call(null, 'POST', 'entrust/entrust/setOcoEntrust', { pairsName: PAIR, ...sell });
    expect(visitor.status).toBe(401);
    expect(t.ctx.host.engine.stateHash()).toBe(before);
    expect([bal('alice', 'TSTO'), bal('alice', 'USDT')]).toEqual(balances);
  });
});
