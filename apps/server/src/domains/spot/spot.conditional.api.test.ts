/**
 * API test of conditional spot orders (stop-loss / take-profit, docs/conditional-orders.md) through the app API and
 * app.inject() (PGlite by default; PostgreSQL when DATABASE_URL is set). Alice places a stop-limit SELL; we see it
 * pending in her open orders with its trigger price and her base coin held; bob and carol trade between themselves to
 * move the last price to the stop; the order triggers with the same id, fills against bob's resting bid, and the
 * history and detail (both read from the database projection) show its trigger. Bob can neither read nor cancel
 * Alice's pending order; cancelled pending orders keep their trigger in the history; bad inputs give a clear code in
 * both languages and leave the engine's state unchanged (its state hash).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10 } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { apiCaller, apiOk, loginUser, testMarket, type TestUser } from './spot-test-support';

const MARKET = testMarket('TSTC');
const PAIR = 'TSTC/USDT';

let t: TestApp;
let base: number;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);
const ok = apiOk(call);

function bal(user: string, coin: string): { available: bigint; frozen: bigint } {
  return t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin);
}

/** A LIMIT order of `user` that must be accepted. */
function limit(user: string, side: 'BUY' | 'SELL', price: string, amount: string, extra: Record<string, string> = {}) {
  return ok(user, 'POST', 'entrust/entrust/setEntrust', { pairsName: PAIR, side, orderType: 'LIMIT', price, amount, ...extra });
}

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  base = t.ctx.host.engine.asset('TSTC')!.scale;
  users.alice = await loginUser(t, 'cond-alice@example.com');
  users.bob = await loginUser(t, 'cond-bob@example.com');
  users.carol = await loginUser(t, 'cond-carol@example.com');
  for (const u of ['alice', 'carol']) {
    const r = await t.ctx.host.submit({ type: 'deposit', userId: users[u]!.userId, asset: 'TSTC', account: 'SPOT', amount: 5n * pow10(base), from: '@chain' });
    expect(r.code).toBe('ok');
  }
  // A first trade between carol and bob sets the last price at 100.
  await limit('carol', 'SELL', '100', '0.1');
  expect((await limit('bob', 'BUY', '100', '0.1')).status).toBe('FILLED');
});
afterAll(async () => {
  await t?.close();
});

describe('conditional spot orders through the app API', () => {
  let stopId = '';
  it('a stop-limit SELL waits as an open order with its trigger price and its amount held', async () => {
    const placed = await limit('alice', 'SELL', '94', '1', { stopType: 'STOP_LOSS', stopPrice: '95', clientOrderId: 'alice-stop-1' });
    expect(placed).toMatchObject({
      status: 'NEW',
      orderType: 'LIMIT',
      price: '94.00',
      amount: '1.0000',
      stopType: 'STOP_LOSS',
      stopPrice: '95.00',
      trailingDelta: 0,
      triggerState: 'PENDING',
      workingTime: 0,
      expireReason: '',
    });
    stopId = placed.id;
    expect(bal('alice', 'TSTC').frozen).toBe(pow10(base));
    const open = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(open.total).toBe(1);
    expect(open.records[0]).toMatchObject({ id: stopId, stopPrice: '95.00', triggerState: 'PENDING' });
    // Not in the book: the depth has no ask at 94.
    const depth = t.ctx.host.engine.depth(PAIR, 20);
    expect(depth.asks.some((l) => l.price === 9400n)).toBe(false);
  });

  it('another user can neither read nor cancel the pending order', async () => {
    const read = await call('bob', 'GET', 'entrust/entrust/getEntrustDetail', { id: stopId });
    expect([read.status, read.body.errorCode]).toEqual([404, 'order_not_found']);
    const cancel = await call('bob', 'POST', 'entrust/entrust/cancelEntrust', { id: stopId });
    expect([cancel.status, cancel.body.errorCode]).toEqual([404, 'order_not_found']);
    const bobOpen = await ok('bob', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(bobOpen.records.map((r: { id: string }) => r.id)).not.toContain(stopId);
    expect(bal('alice', 'TSTC').frozen).toBe(pow10(base));
  });

  it('triggers when a trade between two other users reaches the stop, then fills; history shows the trigger', async () => {
    // Bob's bid at 94 is what the triggered order will fill against.
    const bid = await limit('bob', 'BUY', '94', '1');
    expect(bid.status).toBe('NEW');
    // Carol and bob trade at 96: above the stop, nothing happens.
    await limit('carol', 'SELL', '96', '0.1');
    await limit('bob', 'BUY', '96', '0.1');
    let d = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: stopId });
    expect(d).toMatchObject({ status: 'NEW', triggerState: 'PENDING', workingTime: 0 });
    // At 95 the stop condition (last <= 95) holds.
    await limit('carol', 'SELL', '95', '0.1');
    await limit('bob', 'BUY', '95', '0.1');
    d = await ok('alice', 'GET', 'entrust/entrust/getEntrustDetail', { id: stopId });
    expect(d).toMatchObject({ id: stopId, status: 'FILLED', stopType: 'STOP_LOSS', stopPrice: '95.00', triggerState: 'TRIGGERED', dealAmount: '1.0000' });
    expect(d.workingTime).toBeGreaterThan(0);
    expect(d.fills).toHaveLength(1);
    expect(d.fills[0]).toMatchObject({ price: '94.00', amount: '1.0000', role: 'TAKER' });
    expect(bal('alice', 'TSTC')).toEqual({ available: 4n * pow10(base), frozen: 0n });
    const history = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: PAIR });
    const row = history.records.find((r: { id: string }) => r.id === stopId);
    expect(row).toMatchObject({ status: 'FILLED', stopType: 'STOP_LOSS', stopPrice: '95.00', triggerState: 'TRIGGERED', workingTime: d.workingTime });
    const open = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'current', pairsName: PAIR });
    expect(open.total).toBe(0);
  });

  it('a pending take-profit and a trailing stop can be cancelled by their owner; the history keeps their trigger', async () => {
    const tp = await limit('alice', 'SELL', '120', '0.5', { stopType: 'TAKE_PROFIT', stopPrice: '120' });
    expect(tp).toMatchObject({ status: 'NEW', stopType: 'TAKE_PROFIT', stopPrice: '120.00', triggerState: 'PENDING' });
    const trailing = await ok('alice', 'POST', 'entrust/entrust/setEntrust', {
      pairsName: PAIR,
      side: 'SELL',
      orderType: 'MARKET',
      amount: '0.5',
      stopType: 'STOP_LOSS',
      trailingDelta: '150',
    });
    expect(trailing).toMatchObject({ status: 'NEW', orderType: 'MARKET', stopType: 'STOP_LOSS', stopPrice: '', trailingDelta: 150, triggerState: 'PENDING' });
    expect(bal('alice', 'TSTC').frozen).toBe(pow10(base));
    for (const id of [tp.id, trailing.id]) {
      const c = await ok('alice', 'POST', 'entrust/entrust/cancelEntrust', { id });
      expect(c).toMatchObject({ status: 'CANCELED', triggerState: 'PENDING', workingTime: 0 });
    }
    expect(bal('alice', 'TSTC')).toEqual({ available: 4n * pow10(base), frozen: 0n });
    const history = await ok('alice', 'GET', 'entrust/entrust/getEntrustList', { type: 'history', pairsName: PAIR });
    expect(history.records.find((r: { id: string }) => r.id === tp.id)).toMatchObject({ status: 'CANCELED', stopType: 'TAKE_PROFIT', stopPrice: '120.00' });
    expect(history.records.find((r: { id: string }) => r.id === trailing.id)).toMatchObject({ status: 'CANCELED', stopPrice: '', trailingDelta: 150 });
  });

  it('rejects bad conditional orders with a clear code in both languages and changes nothing', async () => {
    const before = t.ctx.host.engine.stateHash();
    // The last price is 94 now (alice's fill). [fields, errorCode, en message]
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ stopPrice: '90' }, 'stop_type_required', 'Please choose stop loss or take profit for a trigger price or trailing delta'],
      [{ trailingDelta: '100' }, 'stop_type_required', 'Please choose stop loss or take profit for a trigger price or trailing delta'],
      [{ stopType: 'STOP_LOSS' }, 'stop_price_required', 'Please enter a trigger price or a trailing delta'],
      [{ stopType: 'STOP_LOSS', stopPrice: '90.001' }, 'too_many_decimals', 'The trigger price must be a multiple of 0.01 USDT'],
      [{ stopType: 'STOP_LOSS', stopPrice: '0' }, 'stop_price_not_on_tick', 'Trigger price must be a multiple of 0.01 USDT'],
      [
        { stopType: 'STOP_LOSS', trailingDelta: '5' },
        'trailing_delta_out_of_range',
        'Trailing delta must be between 10 and 2000 basis points, that is 0.1% to 20%',
      ],
      [
        { stopType: 'STOP_LOSS', trailingDelta: '2001' },
        'trailing_delta_out_of_range',
        'Trailing delta must be between 10 and 2000 basis points, that is 0.1% to 20%',
      ],
      [{ stopType: 'STOP_LOSS', stopPrice: '90', timeInForce: 'POST_ONLY' }, 'invalid_order', 'Invalid order parameters: time in force'],
      [{ stopType: 'STOP', stopPrice: '90' }, 'validation_failed', 'Invalid request parameters: trigger type'],
      // A SELL stop-loss above the last price, a SELL take-profit at it: each would trigger at once (Binance -2010).
      [{ stopType: 'STOP_LOSS', stopPrice: '96' }, 'would_trigger_immediately', 'The stop price would trigger the order immediately'],
      [{ stopType: 'TAKE_PROFIT', stopPrice: '94' }, 'would_trigger_immediately', 'The stop price would trigger the order immediately'],
      [{ stopType: 'STOP_LOSS', stopPrice: '90', amount: '100' }, 'insufficient_balance', 'Insufficient balance'],
    ];
    for (const [fields, code, message] of cases) {
      const data = { pairsName: PAIR, side: 'SELL', orderType: 'LIMIT', price: '89', amount: '1', ...fields };
      const en = await call('alice', 'POST', 'entrust/entrust/setEntrust', data, 'en');
      expect([en.status, en.body.status, en.body.errorCode, en.body.errorMessage], JSON.stringify(fields)).toEqual([400, 'FAILED', code, message]);
      const zh = await call('alice', 'POST', 'entrust/entrust/setEntrust', data, 'zh');
      expect(zh.body.errorCode).toBe(code);
      expect(zh.body.errorMessage).not.toBe(en.body.errorMessage);
      expect(zh.body.errorMessage).not.toMatch(/[a-z]{4,}/);
    }
    expect(t.ctx.host.engine.stateHash()).toBe(before);
    expect(bal('alice', 'TSTC')).toEqual({ available: 4n * pow10(base), frozen: 0n });
  });
});
