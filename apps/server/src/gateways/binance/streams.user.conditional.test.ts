/**
 * The spot user data stream's executionReport of conditional orders (streams.user.ts userEvents over the events of
 * real engine commands, submitted through the test app's engine host): a STOP_LOSS_LIMIT SELL is reported NEW with its
 * type `o`, stop price `P`, not working (`w` false, no `W`); at its trigger, in the command of the trade that reached
 * the stop, a NEW report with `W` (its working time) then a TRADE report FILLED, under the same order id `i`; a trailing
 * STOP_LOSS carries `d`; a triggered MARKET order that finds no book is reported EXPIRED. Another user's events are
 * never in the owner's reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pow10, type Command, type CommandResult } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { testMarket } from '../../domains/spot/spot-test-support';
import { userEvents } from './streams.user';

const MARKET = testMarket('TSTD');
const ALICE = 'u-alice-stream';
const BOB = 'u-bob-stream';
const CAROL = 'u-carol-stream';
let t: TestApp;

type Report = Record<string, unknown>;
/** Submits `cmd` (must be accepted) and answers the command's result. */
async function submit(cmd: Record<string, unknown>): Promise<CommandResult> {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
  return r;
}
/** The executionReports `user` gets of a command's events. */
function reportsOf(r: CommandResult, user: string): Report[] {
  return userEvents(t.ctx.host.engine, r.events, (u, m) => u === user && m === 'spot', 1)
    .map((e) => JSON.parse(e.json) as Report)
    .filter((e) => e.e === 'executionReport');
}
const limit = (userId: string, side: 'BUY' | 'SELL', price: bigint, quantity: bigint, extra: Record<string, unknown> = {}) =>
  submit({ type: 'placeOrder', userId, symbol: MARKET.symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity, ...extra });

beforeAll(async () => {
  t = await makeTestApp();
  await ensureMarket(t.ctx.host, MARKET);
  const usdt = t.ctx.host.engine.asset('USDT')!.scale;
  const base = t.ctx.host.engine.asset('TSTD')!.scale;
  for (const u of [ALICE, BOB, CAROL]) {
    await submit({ type: 'deposit', userId: u, asset: 'TSTD', account: 'SPOT', amount: 100n * pow10(base), from: '@chain' });
    await submit({ type: 'deposit', userId: u, asset: 'USDT', account: 'SPOT', amount: 100_000n * pow10(usdt), from: '@chain' });
  }
  // Last price 100.00 (price units of 0.01).
  await limit(CAROL, 'SELL', 10000n, 1000n);
  await limit(BOB, 'BUY', 10000n, 1000n);
});
afterAll(async () => {
  await t?.close();
});

describe('executionReport of conditional spot orders', () => {
  it('reports the stop-limit pending, then NEW with W and TRADE at its trigger, under the same id', async () => {
    const placed = await limit(ALICE, 'SELL', 9400n, 10000n, { condition: 'STOP_LOSS', stopPrice: 9500n });
    const [acc, ...more] = reportsOf(placed, ALICE);
    expect(more).toEqual([]);
    expect(acc).toMatchObject({ x: 'NEW', X: 'NEW', o: 'STOP_LOSS_LIMIT', P: '95.00', p: '94.00', w: false, i: Number(placed.order!.orderId) });
    expect(acc).not.toHaveProperty('W');
    expect(acc).not.toHaveProperty('d');
    // Bob's bid at 94, then carol and bob trade at 95: the stop triggers in that command.
    await limit(BOB, 'BUY', 9400n, 10000n);
    await limit(CAROL, 'SELL', 9500n, 1000n);
    const trade = await limit(BOB, 'BUY', 9500n, 1000n);
    const reports = reportsOf(trade, ALICE);
    expect(reports.map((r) => [r.x, r.X, r.o, r.i, r.P])).toEqual([
      ['NEW', 'NEW', 'STOP_LOSS_LIMIT', acc!.i, '95.00'],
      ['TRADE', 'FILLED', 'STOP_LOSS_LIMIT', acc!.i, '95.00'],
    ]);
    expect(reports[0]!.W).toBe(trade.events.find((e) => e.type === 'orderUpdated')!.ts);
    expect(reports[0]!.w).toBe(true);
    expect(reports[1]).toMatchObject({ l: '1.0000', L: '94.00', z: '1.0000', m: false });
    // Bob's own reports of that command are his, not alice's.
    expect(reportsOf(trade, BOB).every((r) => r.i !== acc!.i)).toBe(true);
  });

  it('carries d for a trailing stop, and reports EXPIRED when a triggered MARKET order finds no book', async () => {
    // Last price 94.00 now; the book has no bid. A trailing SELL stop of 100 BIPS tracks from 94.00.
    const placed = await submit({
      type: 'placeOrder',
      userId: ALICE,
      symbol: MARKET.symbol,
      side: 'SELL',
      orderType: 'MARKET',
      timeInForce: 'IOC',
      quantity: 1000n,
      condition: 'STOP_LOSS',
      trailingDelta: 100,
    });
    const [acc] = reportsOf(placed, ALICE);
    expect(acc).toMatchObject({ x: 'NEW', o: 'STOP_LOSS', d: 100, P: '0.00', w: false });
    // Carol and bob trade at 93.00 (more than 1% below 94.00): the stop triggers with no bid left: EXPIRED.
    await limit(CAROL, 'SELL', 9300n, 1000n);
    const trade = await limit(BOB, 'BUY', 9300n, 1000n);
    const reports = reportsOf(trade, ALICE);
    expect(reports.map((r) => [r.x, r.X, r.o, r.d])).toEqual([
      ['NEW', 'NEW', 'STOP_LOSS', 100],
      ['EXPIRED', 'EXPIRED', 'STOP_LOSS', 100],
    ]);
    expect(t.ctx.host.engine.order(String(acc!.i))?.trigger?.expireReason).toBe('no_liquidity');
  });
});
