/**
 * The contracts' public WebSocket channels over a real socket: each subscription answers the current state first
 * (market row, book, latest trades, mark tick), then a mark price tick, a resting order and a book trade are pushed
 * on contractMark, contractDepth, contractTrades and contractTicker; the spot topics of the same symbol get none of
 * them (separate namespaces); an unknown perpetual market is market_not_found in the socket's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../../test/helpers';
import { Client } from '../../../gateways/ws/ws-test-support';

const U = 100_000_000n;
let t: TestApp;
let base: string;
const submit = async (cmd: Record<string, unknown>) => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
};

beforeAll(async () => {
  t = await makeTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace(/^http/, 'ws') + '/ws/websocket';
  for (const id of ['ws-c1', 'ws-c2'])
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'CONTRACT', amount: 100_000n * U, from: '@faucet', ref: `wsc-${id}` });
});
afterAll(async () => {
  await t?.close();
});

describe('contract channels', () => {
  it('answers the state first, then pushes mark ticks, depth, trades and tickers; spot topics stay apart', async () => {
    const c = await Client.open(`${base}?lang=en`);
    const sym = 'ETH/USDT';
    c.send({ op: 'subscribe', channel: 'contractTicker', pairsName: sym });
    expect(await c.next((m) => m.channel === 'contractTicker')).toMatchObject({ pairsName: sym, data: { symbol: sym, maxLeverage: 75, markPrice: '' } });
    c.send({ op: 'subscribe', channel: 'contractMark', pairsName: sym });
    expect(await c.next((m) => m.channel === 'contractMark')).toMatchObject({ pairsName: sym, data: { markPrice: '' } });
    c.send({ op: 'subscribe', channel: 'contractDepth', pairsName: sym });
    expect(await c.next((m) => m.channel === 'contractDepth')).toMatchObject({ pairsName: sym, data: { bids: [], asks: [] } });
    c.send({ op: 'subscribe', channel: 'contractTrades', pairsName: sym });
    expect(await c.next((m) => m.channel === 'contractTrades')).toMatchObject({ pairsName: sym, data: [] });
    c.send({ op: 'subscribe', channel: 'trades', pairsName: sym }); // spot
    await c.next((m) => m.channel === 'trades');
    const spotPushes: unknown[] = [];
    c.ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { channel: string };
      if (m.channel === 'trades' || m.channel === 'depth') spotPushes.push(m);
    });

    await submit({ type: 'perpMarkPrice', symbol: sym, indexPrice: 300_000n }); // 3,000.00
    expect(await c.next((m) => m.channel === 'contractMark' && (m.data as { markPrice: string }).markPrice !== '')).toMatchObject({
      data: { markPrice: '3000.00', indexPrice: '3000.00' },
    });
    // 1 ETH at 3,000 resting, then 0.5 ETH taken
    await submit({
      type: 'perpPlaceOrder',
      userId: 'ws-c2',
      symbol: sym,
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 300_000n,
      quantity: 10_000n,
    });
    expect(await c.next((m) => m.channel === 'contractDepth' && (m.data as { asks: unknown[] }).asks.length > 0)).toMatchObject({
      data: { asks: [['3000.00', '1.0000']] },
    });
    await submit({ type: 'perpPlaceOrder', userId: 'ws-c1', symbol: sym, side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: 5_000n });
    const trades = await c.next((m) => m.channel === 'contractTrades' && (m.data as unknown[]).length > 0);
    expect(trades).toMatchObject({ pairsName: sym, data: [{ price: '3000.00', amount: '0.5000', side: 'BUY' }] });
    expect(await c.next((m) => m.channel === 'contractTicker' && (m.data as { lastPrice: string }).lastPrice !== '')).toMatchObject({
      data: { lastPrice: '3000.00', volume24h: '0.5000', quoteVolume24h: '1500.00000000' },
    });
    await c.roundTrip();
    expect(spotPushes).toEqual([]);

    c.send({ op: 'unsubscribe', channel: 'contractMark', pairsName: sym });
    c.send({ op: 'subscribe', channel: 'contractDepth', pairsName: 'NOPE/USDT' });
    expect(await c.next((m) => m.channel === 'error')).toMatchObject({ errorCode: 'market_not_found', errorMessage: 'Trading pair not found' });
    c.send({ op: 'subscribe', channel: 'contractTicker', pairsName: 'ADA/USDT' }); // spot only
    expect(await c.next((m) => m.channel === 'error')).toMatchObject({ errorCode: 'market_not_found' });
    c.close();
  });
});
