/**
 * Runs the liquidity bot against the real engine host and entrust service on a fresh PGlite context: it funds
 * its users once (idempotent refs), builds a 12+12 ladder around the reference, re-quotes only what moved, and
 * its taker order prints a real trade in the direction of the move; startJobs wires bots and the index price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/helpers';
import { LiquidityBot } from './liquidity-bot';
import { startJobs } from './index';
import type { MarketConfig, TradeEvent } from '@exchange/core';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('LiquidityBot', () => {
  it('quotes a ladder, re-quotes on a move and prints a taker trade in its direction', async () => {
    const engine = t.ctx.host.engine;
    const market = engine.market('BTC/USDT') as MarketConfig;
    expect(market).toBeDefined();
    let clock = 1_800_000_000_000;
    let ref = '98582.10';
    const bot = new LiquidityBot(market, { host: t.ctx.host, entrust: t.ctx.entrust, log: t.ctx.log, reference: () => ref, now: () => clock });
    await bot.cycle();
    const open = engine.openOrders('mm-BTC-USDT', 'BTC/USDT');
    expect(open.filter((o) => o.side === 'BUY')).toHaveLength(12);
    expect(open.filter((o) => o.side === 'SELL')).toHaveLength(12);
    const depth = engine.depth('BTC/USDT', 1);
    // spread 3 bps and spacing 5 bps of 2^23 ticks: 2516 and 4194 ticks; grid 4194 ticks
    expect(depth.bids[0]?.price).toBe(9_851_706n); // floor((9858210 - 2516) / 4194) * 4194 = 2349 * 4194
    expect(depth.asks[0]?.price).toBe(9_864_288n); // ceil((9858210 + 2516) / 4194) * 4194 = 2352 * 4194
    // funded once: 1,200,000 USDT for the maker, a tenth for the taker
    const usdt = engine.balance('mm-BTC-USDT', 'SPOT', 'USDT');
    expect(usdt.available + usdt.frozen).toBe(120_000_000_000_000n);
    expect(engine.balance('mm-BTC-USDT-taker', 'SPOT', 'USDT').available).toBe(12_000_000_000_000n);

    // a second cycle with the same reference changes nothing
    const before = open.map((o) => o.orderId).sort();
    await bot.cycle();
    expect(engine.openOrders('mm-BTC-USDT', 'BTC/USDT').map((o) => o.orderId).sort()).toEqual(before);

    // the reference rises 0.1% and a taker order is due: the taker buys at the stale best ask
    ref = '98680.68';
    clock += 10_000;
    const trades: TradeEvent[] = [];
    const off = t.ctx.host.onEvents((events) => trades.push(...events.filter((e): e is TradeEvent => e.type === 'trade')));
    await bot.cycle();
    off();
    // IOC buy up to ref + 20 bps (9887804): it lifts the stale asks from the best one (9864288) upwards
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((x) => x.takerSide === 'BUY' && x.takerUserId === 'mm-BTC-USDT-taker' && x.makerUserId === 'mm-BTC-USDT')).toBe(true);
    expect(trades[0]?.price).toBe(9_864_288n);
    expect(trades.every((x) => x.price <= 9_887_804n)).toBe(true);
    const after = engine.depth('BTC/USDT', 1);
    expect((after.bids[0]?.price ?? 0n) < (after.asks[0]?.price ?? 0n)).toBe(true);
    // only what moved: at most 8 commands, so most of the 24 orders are still the old ones
    const still = engine.openOrders('mm-BTC-USDT', 'BTC/USDT').filter((o) => before.includes(o.orderId));
    expect(still.length).toBeGreaterThanOrEqual(24 - 8);
    // funding is idempotent across a new bot instance (restart)
    const bot2 = new LiquidityBot(market, { host: t.ctx.host, entrust: t.ctx.entrust, log: t.ctx.log, reference: () => ref, now: () => clock });
    await bot2.cycle();
    const taker = engine.balance('mm-BTC-USDT-taker', 'SPOT', 'USDT');
    expect(taker.available + taker.frozen < 12_000_000_000_000n).toBe(true); // it bought, and was not funded again
  });

  it('startJobs runs a bot on every market and the index price job', async () => {
    const jobs = await startJobs({ ...t.ctx, config: { ...t.ctx.config, marketMakers: true } });
    try {
      const deadline = Date.now() + 20_000;
      const ready = () =>
        t.ctx.host.engine.markets().every((m) => {
          const d = t.ctx.host.engine.depth(m.symbol, 1);
          return d.bids.length > 0 && d.asks.length > 0;
        });
      while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(ready()).toBe(true);
      expect(t.ctx.host.engine.markets()).toHaveLength(12);
      expect(t.ctx.marketData.indexPrice('BTC/USDT')).toMatch(/^[0-9]+\.[0-9]{2}$/);
    } finally {
      await jobs.stop();
    }
  });
});
