/**
 * Runs the liquidity bot on a perpetual market against the real engine and the perpetuals service (PGlite): it funds
 * USDT margin only (CONTRACT account, no base coin), runs at PERP_BOT_LEVERAGE, quotes a one-tick ladder around the
 * index of the mark ticks through the perpetuals service, and after the index rose its taker order buys at the best
 * ask: a real perpetual trade, a long position of the taker bot, and the ladder moved up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { LiquidityBot } from './liquidity-bot';
import { BINANCE_BTCUSDT, ladderProfile } from './depth-profile';
import { perpBotOrders, PERP_BOT_LEVERAGE, perpBotMarket, perpBotUserIds, perpReference, perpVenue, setBotLeverage } from './perp-bot';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('perpetual liquidity bot', () => {
  it('funds margin, quotes around the index through the perpetuals service and trades the move', async () => {
    const host = t.ctx.host;
    const engine = host.engine;
    const m = engine.perpMarket('BTC/USDT')!;
    expect(m).toBeDefined();
    const mark = async (index: bigint) =>
      expect((await host.submit({ type: 'perpMarkPrice', symbol: m.symbol, indexPrice: index } as unknown as Command)).code).toBe('ok');
    await mark(9_000_000n); // 90,000.00
    let clock = 1_800_000_000_000;
    const ids = perpBotUserIds(m);
    await setBotLeverage(t.ctx.perp, m, t.ctx.log);
    expect(engine.perpSettings(ids.maker, m.symbol).leverage).toBe(PERP_BOT_LEVERAGE);
    const bot = new LiquidityBot(perpBotMarket(m), {
      host,
      orders: perpBotOrders(t.ctx.perp),
      venue: perpVenue(host),
      userIds: ids,
      log: t.ctx.log,
      reference: perpReference(host, m),
      profile: ladderProfile(BINANCE_BTCUSDT, 1000n, 8),
      referenceVolume: () => '6.00000',
      now: () => clock,
    });
    await bot.cycle();
    const open = engine.perpOpenOrders(ids.maker, m.symbol);
    expect(open.length).toBeGreaterThan(10);
    const depth = engine.perpDepth(m.symbol, 1);
    const bid = depth.bids[0]!.price;
    const ask = depth.asks[0]!.price;
    expect(ask - bid).toBe(1n); // one tick
    expect(bid < 9_000_000n + 1n && ask > 9_000_000n - 1n).toBe(true);
    const usdt = engine.balance(ids.maker, 'CONTRACT', 'USDT');
    expect(usdt.available + usdt.frozen).toBeGreaterThan(0n);
    expect(usdt.frozen).toBeGreaterThan(0n); // the ladder's margin
    expect(engine.balance(ids.maker, 'CONTRACT', 'BTC')).toEqual({ available: 0n, frozen: 0n });
    expect(engine.balance(ids.maker, 'SPOT', 'USDT')).toEqual({ available: 0n, frozen: 0n });

    await mark(9_045_000n); // the index rises 0.5%
    expect(engine.perpMarkState(m.symbol)!.markPrice!).toBeGreaterThan(9_000_000n);
    clock += 5_000;
    await bot.cycle();
    const long = engine.position(ids.taker, m.symbol);
    expect(long?.side).toBe('LONG');
    expect(engine.position(ids.maker, m.symbol)?.side).toBe('SHORT');
    expect(engine.perpMarkState(m.symbol)!.lastPrice).not.toBeNull();
    // the ladder moved up with the mark
    expect(engine.perpDepth(m.symbol, 1).bids[0]!.price).toBeGreaterThan(bid);
    await bot.stop();
  });
});
