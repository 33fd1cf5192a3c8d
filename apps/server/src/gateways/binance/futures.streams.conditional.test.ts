/**
 * The futures user data stream's ORDER_TRADE_UPDATE of conditional orders (streams.user.ts userEvents over the events of
 * real engine commands): a pending STOP_MARKET is reported NEW with `o` and `ot` STOP_MARKET, its stop price `sp`,
 * working type `wt`, `cp` and `pP`; a trailing order carries `AP` (activation price) and `cr` (callback rate, percent);
 * at the trigger by a mark-price move the fill is reported under the same order id `i` with `o` MARKET and `ot`
 * STOP_MARKET. Another user's events are never in the owner's reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, CommandResult } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { userEvents } from './streams.user';

const SYM = 'BTC/USDT';
const ALICE = 'u-alice-fstream';
const BOB = 'u-bob-fstream';
const px = (v: number) => BigInt(v) * 100n;
let t: TestApp;

type Report = Record<string, unknown>;
async function submit(cmd: Record<string, unknown>): Promise<CommandResult> {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
  return r;
}
/** The ORDER_TRADE_UPDATE `o` parts `user` gets of a command's events. */
function updatesOf(r: CommandResult, user: string): Report[] {
  return userEvents(t.ctx.host.engine, r.events, (u, m) => u === user && m === 'futures', 1)
    .map((e) => JSON.parse(e.json) as Report)
    .filter((e) => e.e === 'ORDER_TRADE_UPDATE')
    .map((e) => e.o as Report);
}

beforeAll(async () => {
  t = await makeTestApp();
  for (const u of [ALICE, BOB]) await fundContract(t.ctx.host, u, 100_000n);
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('ORDER_TRADE_UPDATE of conditional perpetual orders', () => {
  it('reports a pending STOP_MARKET with sp/wt/ot, a trailing one with AP/cr, and the fill at the trigger under the same id', async () => {
    const base = { type: 'perpPlaceOrder', userId: ALICE, symbol: SYM, side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: 1000n };
    const placed = await submit({ ...base, condition: 'STOP_MARKET', stopPrice: px(48_000), workingType: 'MARK_PRICE' });
    const [nw, ...more] = updatesOf(placed, ALICE);
    expect(more).toEqual([]);
    const id = Number(placed.perpOrder?.orderId ?? (nw!.i as number));
    expect(nw).toMatchObject({ x: 'NEW', X: 'NEW', o: 'STOP_MARKET', ot: 'STOP_MARKET', sp: '48000.00', wt: 'MARK_PRICE', cp: false, pP: false, i: id });
    expect(nw).not.toHaveProperty('AP');
    expect(updatesOf(placed, BOB)).toEqual([]);

    const trailing = await submit({ ...base, condition: 'TRAILING_STOP_MARKET', callbackRateBps: 150, activationPrice: px(52_000) });
    expect(updatesOf(trailing, ALICE)[0]).toMatchObject({ o: 'TRAILING_STOP_MARKET', ot: 'TRAILING_STOP_MARKET', AP: '52000.00', cr: '1.50', sp: '0.00' });

    await submit({ type: 'perpPlaceOrder', userId: BOB, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px(49_000), quantity: 1000n });
    const move = await t.ctx.host.submit({ type: 'perpMarkPrice', symbol: SYM, indexPrice: px(47_900) } as unknown as Command);
    expect(move.code).toBe('ok');
    const mine = updatesOf(move, ALICE).filter((o) => o.i === id);
    expect(mine.at(-1)).toMatchObject({ x: 'TRADE', X: 'FILLED', o: 'MARKET', ot: 'STOP_MARKET', sp: '48000.00', l: '0.01000', L: '49000.00' });
    expect(updatesOf(move, BOB).every((o) => o.i !== id)).toBe(true);
  });
});
