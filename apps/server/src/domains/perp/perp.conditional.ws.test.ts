/**
 * A conditional contract order's changes pushed over a real socket (contract.push.ts, packages/api ws.ts
 * ContractConditionalWsMessage): on the user's contract orders topic ('contractOrders'), each change carries
 * `conditional` with the order's id, market and state as getConditionalOrders lists it: PENDING when placed, CANCELLED,
 * EXPIRED (a close-position stop without a position, at its trigger) and TRIGGERED (then filled). A plain order's push
 * has no `conditional`. Another user's socket receives none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { registerEmail } from '../member/member-test-app';
import { Client } from '../../gateways/ws/ws-test-support';
import { fundContract, tick } from './perp-test-support';

const SYM = 'BTC/USDT';
const MM = 'mm-ws-conditional';
const px = (v: number) => BigInt(v) * 100n;
let t: TestApp;
let base: string;

async function submit(cmd: Record<string, unknown>): Promise<string> {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
  return r.perpOrder?.orderId ?? '';
}
type Conditional = { orderId: string; symbol: string; state: string };
type Pushed = { channel: string; data: { orderId: string; status: string }; conditional?: Conditional };

beforeAll(async () => {
  t = await makeTestApp();
  await fundContract(t.ctx.host, MM, 100_000n);
  await tick(t.ctx.host, px(50_000), SYM);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace(/^http/, 'ws') + '/ws/websocket';
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('conditional contract orders on the contract orders topic', () => {
  it('pushes placed, cancelled, expired and triggered to the owner only', async () => {
    const alice = await registerEmail(t, `ws-cond-a-${Date.now()}@example.com`);
    const bob = await registerEmail(t, `ws-cond-b-${Date.now()}@example.com`);
    await fundContract(t.ctx.host, alice.userId, 100_000n);
    await fundContract(t.ctx.host, bob.userId, 100_000n);
    const a = await Client.open(`${base}?lang=en`);
    const b = await Client.open(`${base}?lang=en`);
    a.send({ op: 'auth', token: alice.token, userId: alice.userId });
    b.send({ op: 'auth', token: bob.token, userId: bob.userId });
    expect(await a.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });
    expect(await b.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });
    const conditionalOf = async (orderId: string, state: string): Promise<Pushed> =>
      (await a.next(
        (m) => m.channel === 'contractOrders' && (m as Pushed).conditional?.orderId === orderId && (m as Pushed).conditional?.state === state,
      )) as Pushed;
    const stop = {
      type: 'perpPlaceOrder',
      userId: alice.userId,
      symbol: SYM,
      orderType: 'MARKET',
      timeInForce: 'IOC',
      condition: 'STOP_MARKET',
      workingType: 'MARK_PRICE',
    };

    // placed, then cancelled
    const first = await submit({ ...stop, side: 'SELL', quantity: 1000n, stopPrice: px(48_000) });
    const placed = await conditionalOf(first, 'PENDING');
    expect(placed.conditional).toEqual({ orderId: first, symbol: SYM, state: 'PENDING' });
    expect(placed.data).toMatchObject({ orderId: first, status: 'NEW' });
    await submit({ type: 'perpCancelOrder', userId: alice.userId, orderId: first });
    expect((await conditionalOf(first, 'CANCELLED')).data).toMatchObject({ orderId: first, status: 'CANCELED' });

    // a close-position stop without a position expires at its trigger
    const close = await submit({ ...stop, side: 'BUY', quantity: 0n, closePosition: true, stopPrice: px(50_500) });
    await conditionalOf(close, 'PENDING');
    await tick(t.ctx.host, px(50_800), SYM);
    expect((await conditionalOf(close, 'EXPIRED')).data).toMatchObject({ orderId: close, status: 'EXPIRED' });

    // triggered by the mark, then filled against the market maker's bid
    await submit({ type: 'perpPlaceOrder', userId: MM, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: px(49_000), quantity: 1000n });
    const sell = await submit({ ...stop, side: 'SELL', quantity: 1000n, stopPrice: px(49_500) });
    await conditionalOf(sell, 'PENDING');
    await tick(t.ctx.host, px(49_000), SYM);
    const filled = (await a.next(
      (m) => m.channel === 'contractOrders' && (m as Pushed).data.orderId === sell && (m as Pushed).data.status === 'FILLED',
    )) as Pushed;
    expect(filled.conditional).toEqual({ orderId: sell, symbol: SYM, state: 'TRIGGERED' });

    // a plain order's push has no `conditional`
    const plain = await submit({
      type: 'perpPlaceOrder',
      userId: alice.userId,
      symbol: SYM,
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: px(45_000),
      quantity: 1000n,
    });
    const plainPush = (await a.next((m) => m.channel === 'contractOrders' && (m as Pushed).data.orderId === plain)) as Pushed;
    expect(plainPush).not.toHaveProperty('conditional');

    // Bob's socket got none of Alice's orders
    b.send({ op: 'ping' });
    await b.next((m) => m.channel === 'pong');
    const mine = new Set([first, close, sell, plain]);
    expect(b.messages.filter((m) => m.channel === 'contractOrders')).toEqual([]);
    expect(b.messages.some((m) => mine.has((m as Pushed).data?.orderId))).toBe(false);
    a.close();
    b.close();
  }, 60_000);
});
