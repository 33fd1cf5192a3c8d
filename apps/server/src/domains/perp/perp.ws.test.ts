/**
 * The contracts' private WebSocket pushes over a real socket: after auth, the user's contract orders
 * ('contractOrders'), positions ('positions', quantity zero when closed) and contract account ('contractAccount') are
 * pushed as the routes answer them; another user's activity is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { registerEmail } from '../member/member-test-app';
import { Client } from '../../gateways/ws/ws-test-support';
import { PERP, ensurePerpMarket, fundContract, tick } from './perp-test-support';

let t: TestApp;
let base: string;
const SYM = PERP.symbol;
const money = (whole: bigint) => `${whole}.00000000`;

beforeAll(async () => {
  t = await makeTestApp();
  await ensurePerpMarket(t.ctx.host);
  await tick(t.ctx.host, 5_000_000n);
  await fundContract(t.ctx.host, 'mm-ws-perp', 10_000n);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace(/^http/, 'ws') + '/ws/websocket';
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('contract private channels', () => {
  it('push orders, positions and the contract account of the user only', async () => {
    const s = await registerEmail(t, `ws-perp-${Date.now()}@example.com`);
    await fundContract(t.ctx.host, s.userId, 1000n);
    const c = await Client.open(`${base}?lang=en`);
    c.send({ op: 'auth', token: s.token, userId: s.userId });
    expect(await c.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });

    // A bot's resting sell, then the user's market buy of 1 lot fills against it.
    expect(
      (
        await t.ctx.host.submit({
          type: 'perpPlaceOrder',
          userId: 'mm-ws-perp',
          symbol: SYM,
          side: 'SELL',
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: 5_000_000n,
          quantity: 20n,
        })
      ).code,
    ).toBe('ok');
    const order = await t.ctx.perp.placeOrder(s.userId, { symbol: SYM, side: 'BUY', orderType: 'MARKET', lots: 1 });
    const pushed = await c.next((m) => m.channel === 'contractOrders' && (m.data as { status: string }).status === 'FILLED');
    expect(pushed.data).toEqual(order);
    const pos = await c.next((m) => m.channel === 'positions');
    expect(pos.data).toEqual(t.ctx.perp.positions(s.userId)[0]);
    expect(pos.data).toMatchObject({ symbol: SYM, side: 'LONG', quantity: '0.020', lots: 1, margin: money(50n) });
    // The last account push is the account as the route answers it.
    await t.ctx.host.projected();
    c.send({ op: 'ping' });
    await c.next((m) => m.channel === 'pong');
    const accounts = c.messages.filter((m) => m.channel === 'contractAccount');
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts.at(-1)!.data).toEqual(t.ctx.perp.account(s.userId));
    expect(accounts.at(-1)!.data).toMatchObject({ walletBalance: '999.50000000', positionMargin: money(50n) });

    // Another user's order (the bot's bid the close will fill against) is not pushed here.
    const before = c.messages.length;
    expect(
      (
        await t.ctx.host.submit({
          type: 'perpPlaceOrder',
          userId: 'mm-ws-perp',
          symbol: SYM,
          side: 'BUY',
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: 5_000_000n,
          quantity: 20n,
        })
      ).code,
    ).toBe('ok');
    c.send({ op: 'ping' });
    await c.next((m) => m.channel === 'pong');
    expect(c.messages.slice(before).filter((m) => m.channel !== 'pong')).toEqual([]);

    // Closing pushes the position with quantity "0".
    await t.ctx.perp.closePosition(s.userId, { symbol: SYM });
    const closed = await c.next((m) => m.channel === 'positions' && (m.data as { quantity: string }).quantity === '0.000');
    expect(closed.data).toMatchObject({ symbol: SYM, side: 'LONG', lots: 0 });
    expect(t.ctx.host.engine.balance(s.userId, 'CONTRACT', 'USDT').frozen).toBe(0n);
    c.close();
  }, 60_000);
});
