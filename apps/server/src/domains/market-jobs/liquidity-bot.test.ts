/**
 * Runs the liquidity bot against the real engine host and spot order service on a fresh PGlite context: it funds
 * its users once (idempotent refs), builds a one-tick ladder shaped on the Binance profile around the reference,
 * re-quotes on a move, and its taker order prints a real trade in the direction of the move, sized from the
 * reference minute's volume (none in a quiet minute); startJobs wires bots and the index price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { BOT_LEVELS, BOT_REQUOTE_BUDGET, centerHysteresisPpm, LiquidityBot, requoteBudget, takerQuantity, takerSlice } from './liquidity-bot';
import { BINANCE_BTCUSDT, BINANCE_ETHUSDT, ladderProfile } from './depth-profile';
import { startJobs } from './index';
import type { MarketConfig, TradeEvent } from '@exchange/core';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('takerQuantity', () => {
  it('trades the reference minute volume pro rata, times the window factor, on the step', () => {
    // 6 BTC a minute (qty units of 0.00001), 3 s, the mean window: 0.3 BTC
    expect(takerQuantity(600_000n, 3000, 1000n, [1000n], 1n)).toBe(30_000n);
    // deciles 500 and 1500 (mean 1000): the heavy one trades 1.5x
    expect(takerQuantity(600_000n, 3000, 1500n, [500n, 1500n], 1n)).toBe(45_000n);
    expect(takerQuantity(600_000n, 3000, 1500n, [500n, 1500n], 1000n)).toBe(45_000n);
    expect(takerQuantity(600_000n, 3000, 1500n, [500n, 1500n], 7_000n)).toBe(42_000n);
    // a quiet reference minute or no deciles: nothing
    expect(takerQuantity(0n, 3000, 1000n, [1000n], 1n)).toBe(0n);
    expect(takerQuantity(600_000n, 3000, 1000n, [], 1n)).toBe(0n);
    // the Binance BTCUSDT deciles average about 1x of the minute
    const d = BINANCE_BTCUSDT.windowDecilesPermille;
    const perMinute = d.reduce((a, x) => a + takerQuantity(600_000n, 60_000, x, d, 1n), 0n) / BigInt(d.length);
    expect(perMinute >= 599_990n && perMinute <= 600_000n).toBe(true);
  });
});

describe('taker and re-quote rules', () => {
  it('takes the best level only and owes the rest; walks to the limit without a level within it', () => {
    const best = { price: 10_000n, quantity: 300n };
    expect(takerSlice('BUY', 200n, best, 10_020n)).toEqual({ price: 10_000n, quantity: 200n, owed: 0n });
    expect(takerSlice('BUY', 500n, best, 10_020n)).toEqual({ price: 10_000n, quantity: 300n, owed: 200n });
    expect(takerSlice('SELL', 500n, best, 9_980n)).toEqual({ price: 10_000n, quantity: 300n, owed: 200n });
    expect(takerSlice('BUY', 500n, { price: 10_030n, quantity: 300n }, 10_020n)).toEqual({ price: 10_020n, quantity: 500n, owed: 0n });
    expect(takerSlice('SELL', 500n, undefined, 9_980n)).toEqual({ price: 9_980n, quantity: 500n, owed: 0n });
  });
  it('lets the centre lag three average moves, 2 to 10 bps', () => {
    expect(centerHysteresisPpm(0n)).toBe(200n);
    expect(centerHysteresisPpm(100n)).toBe(300n);
    expect(centerHysteresisPpm(1000n)).toBe(1000n);
  });
  it('raises the re-quote budget by two for each missing level in the core 0.1%', () => {
    const ladder = {
      bids: [
        { side: 'BUY' as const, price: 99_990n, quantity: 1n },
        { side: 'BUY' as const, price: 99_000n, quantity: 1n }, // 1% away: not core
      ],
      asks: [{ side: 'SELL' as const, price: 100_010n, quantity: 1n }],
    };
    expect(requoteBudget([], ladder, 100_000n)).toBe(BOT_REQUOTE_BUDGET + 4);
    expect(requoteBudget([{ side: 'BUY', price: 99_990n }], ladder, 100_000n)).toBe(BOT_REQUOTE_BUDGET + 2);
    expect(
      requoteBudget(
        [
          { side: 'BUY', price: 99_990n },
          { side: 'SELL', price: 100_010n },
        ],
        ladder,
        100_000n,
      ),
    ).toBe(BOT_REQUOTE_BUDGET);
  });
});

describe('LiquidityBot', () => {
  const profile = ladderProfile(BINANCE_BTCUSDT, 1000n, 8);

  it('quotes a one-tick ladder on the profile, re-quotes on a move and trades the reference volume', async () => {
    const engine = t.ctx.host.engine;
    const market = engine.market('BTC/USDT') as MarketConfig;
    expect(market).toBeDefined();
    let clock = 1_800_000_000_000;
    let ref = '98582.10';
    const deps = {
      host: t.ctx.host,
      orders: t.ctx.spot,
      log: t.ctx.log,
      reference: () => ref,
      profile,
      referenceVolume: () => '6.00000',
      now: () => clock,
    };
    const bot = new LiquidityBot(market, deps);
    await bot.cycle();
    const open = engine.openOrders('mm-BTC-USDT', 'BTC/USDT');
    const bids = open.filter((o) => o.side === 'BUY');
    const asks = open.filter((o) => o.side === 'SELL');
    // best + 2 cluster + 15 levels to 1% a side
    expect(bids.length).toBe(BOT_LEVELS);
    expect(asks.length).toBe(BOT_LEVELS);
    expect(open.length).toBeLessThanOrEqual(2 * BOT_LEVELS);
    const depth = engine.depth('BTC/USDT', 3);
    // one tick of spread at the reference, two more levels a tick apart behind each best price
    expect(depth.bids.map((l) => l.price)).toEqual([9_858_210n, 9_858_209n, 9_858_208n]);
    expect(depth.asks.map((l) => l.price)).toEqual([9_858_211n, 9_858_212n, 9_858_213n]);
    // the best level is about the profile's 122,529 USDT (+-30% variation): 0.87 .. 1.62 BTC
    const best = depth.bids[0]?.quantity ?? 0n;
    expect(best >= 87_000n && best <= 162_000n).toBe(true);
    // funded once: 3x the profile's depth to 1% (9,427,171 USDT) for the maker, a tenth for the taker
    const usdt = engine.balance('mm-BTC-USDT', 'SPOT', 'USDT');
    expect(usdt.available + usdt.frozen).toBe(2_828_151_300_000_000n);
    expect(engine.balance('mm-BTC-USDT-taker', 'SPOT', 'USDT').available).toBe(282_815_130_000_000n);

    // a second cycle with the same reference changes nothing
    const before = open.map((o) => o.orderId).sort();
    await bot.cycle();
    expect(
      engine
        .openOrders('mm-BTC-USDT', 'BTC/USDT')
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(before);

    // the reference rises 0.1% and a taker order is due: the taker buys the best ask (that level only), then the
    // ladder moves up and renews what the taker took
    const bestAsk = engine.depth('BTC/USDT', 1).asks[0] as { price: bigint; quantity: bigint };
    ref = '98680.68';
    clock += 10_000;
    const trades: TradeEvent[] = [];
    const off = t.ctx.host.onEvents((events) => trades.push(...events.filter((e): e is TradeEvent => e.type === 'trade')));
    await bot.cycle();
    off();
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((x) => x.takerSide === 'BUY' && x.takerUserId === 'mm-BTC-USDT-taker' && x.makerUserId === 'mm-BTC-USDT')).toBe(true);
    expect(trades.every((x) => x.price === 9_858_211n)).toBe(true);
    // 6 BTC a minute for the 10 s since the last order: 1 BTC times a window factor of 0.05 .. 4.4, at most the level
    const bought = trades.reduce((a, x) => a + x.quantity, 0n);
    expect(bought >= 5_000n && bought <= bestAsk.quantity).toBe(true);
    const newRef = 9_868_068n;
    const after = engine.depth('BTC/USDT', 1);
    expect([after.bids[0]?.price, after.asks[0]?.price]).toEqual([newRef, newRef + 1n]);
    // no old ask is left at or below the new best bid
    expect(engine.openOrders('mm-BTC-USDT', 'BTC/USDT').some((o) => o.side === 'SELL' && (o.price ?? 0n) <= newRef)).toBe(false);

    // funding is idempotent across a new bot instance (restart)
    const bot2 = new LiquidityBot(market, deps);
    await bot2.cycle();
    const taker = engine.balance('mm-BTC-USDT-taker', 'SPOT', 'USDT');
    expect(taker.available + taker.frozen < 282_815_130_000_000n).toBe(true); // it bought, and was not funded again
  });

  it('trades a busy minute in up to three slices a cycle, each on the renewed best level', async () => {
    const engine = t.ctx.host.engine;
    const market = engine.market('SOL/USDT') as MarketConfig;
    let clock = 1_800_000_200_000;
    const bot = new LiquidityBot(market, {
      host: t.ctx.host,
      orders: t.ctx.spot,
      log: t.ctx.log,
      reference: () => '160.00',
      profile: ladderProfile(BINANCE_ETHUSDT, 1000n, 8), // best level 26,452 USDT = about 165 SOL
      referenceVolume: () => '1000000.000', // a million SOL a minute: every order is far more than the best level
      now: () => clock,
    });
    await bot.cycle();
    const firstBest = engine.depth('SOL/USDT', 1);
    clock += 5_000;
    const trades: TradeEvent[] = [];
    const takerOrders = new Set<string>();
    const off = t.ctx.host.onEvents((events) => trades.push(...events.filter((e): e is TradeEvent => e.type === 'trade')));
    const off2 = t.ctx.host.onEvents((_e, cmd) => {
      if (cmd.type === 'placeOrder' && cmd.userId === 'mm-SOL-USDT-taker') takerOrders.add(cmd.clientOrderId ?? '');
    });
    await bot.cycle();
    off();
    off2();
    expect(takerOrders.size).toBe(3);
    const side = trades[0]?.takerSide;
    const best = side === 'BUY' ? firstBest.asks[0] : firstBest.bids[0];
    // each slice takes the whole best level at the same price (the reference did not move), renewed in between
    expect(trades.every((x) => x.takerSide === side && x.price === best?.price)).toBe(true);
    expect(trades.reduce((a, x) => a + x.quantity, 0n) > 2n * (best?.quantity ?? 0n)).toBe(true);
    expect(engine.depth('SOL/USDT', 1).asks[0]?.price).toBe(16_001n);
    expect(engine.depth('SOL/USDT', 1).bids[0]?.price).toBe(16_000n);
  });

  it('sends no taker order in a minute the reference traded nothing', async () => {
    const engine = t.ctx.host.engine;
    const market = engine.market('ETH/USDT') as MarketConfig;
    let clock = 1_800_000_100_000;
    const bot = new LiquidityBot(market, {
      host: t.ctx.host,
      orders: t.ctx.spot,
      log: t.ctx.log,
      reference: () => '3456.07',
      profile: ladderProfile(BINANCE_ETHUSDT, 1000n, 8),
      referenceVolume: () => '0.0000',
      now: () => clock,
    });
    await bot.cycle();
    clock += 5_000;
    const trades: TradeEvent[] = [];
    const off = t.ctx.host.onEvents((events) => trades.push(...events.filter((e): e is TradeEvent => e.type === 'trade')));
    await bot.cycle();
    off();
    expect(trades).toEqual([]);
    expect(engine.depth('ETH/USDT', 1).bids[0]?.price).toBe(345_607n);
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
