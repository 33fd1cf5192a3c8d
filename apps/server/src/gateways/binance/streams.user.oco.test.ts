/**
 * The spot user data stream of OCO lists (streams.user.ts userEvents over the events of real engine commands through
 * the test app's engine host): placing a list gives both legs' executionReports with `g` the list id, then a
 * `listStatus` EXEC_STARTED / EXECUTING naming both legs with their client ids; a BUY filling the LIMIT_MAKER leg gives
 * its TRADE report, the stop leg's CANCELED report (both with `g`) and a listStatus ALL_DONE; another user gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10, type Command, type CommandResult } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { testMarket } from '../../domains/spot/spot-test-support';
import { userEvents } from './streams.user';

const MARKET = testMarket('TSTO');
const ALICE = 'u-alice-oco-stream';
const BOB = 'u-bob-oco-stream';
const CAROL = 'u-carol-oco-stream';
let t: TestApp;

type Report = Record<string, unknown>;
async function submit(cmd: Record<string, unknown>): Promise<CommandResult> {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code, JSON.stringify(r.code)).toBe('ok');
  return r;
}
/** The spot stream events `user` gets of a command's events. */
const eventsOf = (r: CommandResult, user: string): Report[] =>
  userEvents(t.ctx.host.engine, r.events, (u, m) => u === user && m === 'spot', 1)
    .map((e) => JSON.parse(e.json) as Report)
    .filter((e) => e.e === 'executionReport' || e.e === 'listStatus');
const limit = (userId: string, side: 'BUY' | 'SELL', price: bigint, quantity: bigint) =>
  submit({ type: 'placeOrder', userId, symbol: MARKET.symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity });

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  const usdt = t.ctx.host.engine.asset('USDT')!.scale;
  const base = t.ctx.host.engine.asset('TSTO')!.scale;
  for (const u of [ALICE, BOB, CAROL]) {
    await submit({ type: 'deposit', userId: u, asset: 'TSTO', account: 'SPOT', amount: 100n * pow10(base), from: '@chain' });
    await submit({ type: 'deposit', userId: u, asset: 'USDT', account: 'SPOT', amount: 100_000n * pow10(usdt), from: '@chain' });
  }
  // Last price 100.00 (price units of 0.01).
  await limit(CAROL, 'SELL', 10000n, 1000n);
  await limit(BOB, 'BUY', 10000n, 1000n);
});
afterAll(async () => {
  await t?.close();
});

describe('user data stream of OCO lists', () => {
  it('reports the legs with g and a listStatus at placement and at the fill that ends the list', async () => {
    const placed = await submit({
      type: 'placeOrderList',
      userId: ALICE,
      symbol: MARKET.symbol,
      contingencyType: 'OCO',
      side: 'SELL',
      quantity: 10000n,
      above: { type: 'LIMIT_MAKER', price: 10500n, clientOrderId: 'up' },
      below: { type: 'STOP_LOSS_LIMIT', stopPrice: 9500n, price: 9400n, clientOrderId: 'down' },
      listClientOrderId: 'list-1',
    });
    const g = Number(placed.orderList!.orderListId);
    const [up, down] = placed.listOrders!.map((o) => Number(o.orderId));
    const atPlace = eventsOf(placed, ALICE);
    expect(atPlace.map((e) => [e.e, e.c, e.g])).toEqual([
      ['executionReport', 'up', g],
      ['executionReport', 'down', g],
      ['listStatus', 'OCO', g],
    ]);
    expect(atPlace[2]).toMatchObject({
      l: 'EXEC_STARTED',
      L: 'EXECUTING',
      C: 'list-1',
      O: [
        { i: up, c: 'up' },
        { i: down, c: 'down' },
      ],
    });
    expect(eventsOf(placed, BOB)).toEqual([]);

    const fill = await limit(BOB, 'BUY', 10500n, 10000n);
    const alice = eventsOf(fill, ALICE);
    expect(alice.map((e) => [e.e, e.i ?? e.g, e.X ?? e.L])).toEqual([
      ['executionReport', up, 'FILLED'],
      ['executionReport', down, 'CANCELED'],
      ['listStatus', g, 'ALL_DONE'],
    ]);
    expect(alice.slice(0, 2).map((e) => e.g)).toEqual([g, g]);
    expect(alice[2]).toMatchObject({ l: 'ALL_DONE', O: [{ c: 'up' }, { c: 'down' }] });
    expect(eventsOf(fill, BOB).filter((e) => e.e === 'listStatus')).toEqual([]);
  });
});
