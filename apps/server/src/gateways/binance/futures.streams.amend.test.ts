/**
 * The futures user data stream's ORDER_TRADE_UPDATE of a modified order (streams.user.ts userEvents over the events of
 * real `perpAmendOrder` commands, given the command as the stream hub gives it): an accepted modify is one AMENDMENT
 * report under the same order id `i` with the new price `p` and quantity `q` and the status `X` unchanged (Binance's
 * "Event: Order Update", execution type "AMENDMENT - Order Modified"), never a NEW; a modify that crosses the book is
 * the AMENDMENT then a TRADE per fill; a modify down to the filled quantity is CANCELED alone. The other user (the
 * maker of the fill) gets only its own TRADE report, and none of the owner's AMENDMENT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, CommandResult } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fundContract, tick } from '../../domains/perp/perp-test-support';
import { userEvents } from './streams.user';

const SYM = 'BTC/USDT';
const ALICE = 'u-alice-famend';
const BOB = 'u-bob-famend';
const px = (v: number) => BigInt(v) * 100n;
let t: TestApp;

type Report = Record<string, unknown>;
async function submit(cmd: Record<string, unknown>): Promise<{ r: CommandResult; cmd: Command }> {
  const c = cmd as unknown as Command;
  const r = await t.ctx.host.submit(c);
  expect(r.code).toBe('ok');
  return { r, cmd: c };
}
/** The ORDER_TRADE_UPDATE `o` parts `user` gets of a command's events. */
function updatesOf({ r, cmd }: { r: CommandResult; cmd: Command }, user: string): Report[] {
  return userEvents(t.ctx.host.engine, r.events, (u, m) => u === user && m === 'futures', 1, cmd)
    .map((e) => JSON.parse(e.json) as Report)
    .filter((e) => e.e === 'ORDER_TRADE_UPDATE')
    .map((e) => e.o as Report);
}
const limit = (userId: string, side: 'BUY' | 'SELL', price: bigint, quantity: bigint) =>
  submit({ type: 'perpPlaceOrder', userId, symbol: SYM, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity });
const amend = (userId: string, orderId: string, price: bigint, quantity: bigint) => submit({ type: 'perpAmendOrder', userId, orderId, price, quantity });

beforeAll(async () => {
  t = await makeTestApp();
  for (const u of [ALICE, BOB]) await fundContract(t.ctx.host, u, 100_000n);
  await tick(t.ctx.host, px(50_000), SYM);
});
afterAll(async () => {
  await t?.close();
});

describe('ORDER_TRADE_UPDATE of a modified perpetual order', () => {
  it('reports an accepted modify as one AMENDMENT with the new price and quantity, status unchanged', async () => {
    const placed = await limit(ALICE, 'BUY', px(49_000), 1000n);
    const id = placed.r.perpOrder!.orderId;
    const m = await amend(ALICE, id, px(48_500), 2000n);
    const reports = updatesOf(m, ALICE);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ x: 'AMENDMENT', X: 'NEW', i: Number(id), p: '48500.00', q: '0.02000', z: '0.00000', l: '0.00000', o: 'LIMIT' });
    expect(updatesOf(m, BOB)).toEqual([]);
    // no wallet or position moved: no ACCOUNT_UPDATE, as on Binance
    expect(userEvents(t.ctx.host.engine, m.r.events, (u) => u === ALICE, 1, m.cmd).map((e) => (JSON.parse(e.json) as Report).e)).toEqual([
      'ORDER_TRADE_UPDATE',
    ]);
    // without the command (an older caller), the same update came out as NEW: the command is what tells them apart
    const plain = userEvents(t.ctx.host.engine, m.r.events, (u) => u === ALICE, 1).map((e) => (JSON.parse(e.json) as Report).o as Report);
    expect(plain.map((o) => o.x)).toContain('NEW');
  });

  it('reports a modify that crosses the book as AMENDMENT then TRADE; the maker gets its TRADE only', async () => {
    const bob = await limit(BOB, 'SELL', px(50_500), 500n);
    const bobId = Number(bob.r.perpOrder!.orderId);
    const placed = await limit(ALICE, 'BUY', px(49_000), 1000n);
    const id = Number(placed.r.perpOrder!.orderId);
    const m = await amend(ALICE, String(id), px(50_500), 1000n);
    const mine = updatesOf(m, ALICE);
    expect(mine.map((o) => [o.x, o.X])).toEqual([
      ['AMENDMENT', 'NEW'],
      ['TRADE', 'PARTIALLY_FILLED'],
    ]);
    expect(mine.every((o) => o.i === id)).toBe(true);
    expect(mine[0]).toMatchObject({ p: '50500.00', q: '0.01000', z: '0.00000' });
    expect(mine[1]).toMatchObject({ l: '0.00500', L: '50500.00', z: '0.00500', m: false });
    const theirs = updatesOf(m, BOB);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ x: 'TRADE', X: 'FILLED', i: bobId, m: true });

    // modified again down to its filled quantity: cancelled (Binance), reported CANCELED alone
    const c = await amend(ALICE, String(id), px(50_000), 500n);
    expect(updatesOf(c, ALICE).map((o) => [o.x, o.X, o.i])).toEqual([['CANCELED', 'CANCELED', id]]);
  });
});
