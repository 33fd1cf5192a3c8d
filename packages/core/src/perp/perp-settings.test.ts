/**
 * The perpetuals' settings commands at their boundaries: listing a market (every field of PerpMarketConfig accepted at
 * its documented edge and refused one step beyond it, types.ts), funding the insurance fund, the margin mode switch,
 * and take profit / stop loss (set and triggered), on the shared test market (test/perp-fixture.ts: price in 0.1 USDT,
 * quantity in 0.001 BTC, USDT of scale 8).
 *
 * Rules and their sources:
 * - a market's brackets rise in notional cap, never raise the maximum leverage or lower the maintenance rate, and each
 *   bracket's initial margin rate (1 / max leverage) exceeds its maintenance rate (Binance "Leverage and Margin of
 *   USDⓈ-M Futures": a position opened at the bracket's maximum leverage must not be liquidatable at once);
 * - the margin mode of a symbol cannot change while the user holds a position or an open order in it (Binance: "you
 *   cannot change the margin mode when there are open orders or positions");
 * - a long's take profit is above the mark and its stop loss below; a short's the other way round; neither at the
 *   mark (Binance position TP/SL); a crossed trigger closes the whole position with a reduce-only MARKET order, and
 *   waits (stays armed) while the other side of the book is empty.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';
import type { LeverageBracket, PerpMarketConfig } from './types';
import { HOUR, T0, USDT, perpEngine, perpMarket, ev } from '../../test/perp-fixture';

const SYM = 'BTC/USDT';
const FUND = '@insurance';

function run(e: Engine, c: Record<string, unknown>, ts = T0 + 1000): CommandResult {
  const r = e.execute({ ts, ...c } as unknown as Command);
  for (const [asset, total] of e.assetTotals()) expect(total, `ledger total of ${asset}`).toBe(0n);
  return r;
}

/** An engine with USDT (scale `scale`) and nothing listed. */
function bare(scale = 8): Engine {
  const e = new Engine();
  expect(run(e, { type: 'addAsset', asset: { code: 'USDT', scale } }).code).toBe('ok');
  return e;
}

/** Lists the test market with `over` on a bare engine; the result code. */
function list(over: Record<string, unknown>, scale = 8, ts = T0 + 1000): string {
  return run(bare(scale), { type: 'addPerpMarket', market: { ...perpMarket(), ...over } }, ts).code;
}

const b = (cap: number, mmr: number, lev: number): LeverageBracket => ({ notionalCap: BigInt(cap) * USDT, maintMarginPpm: mmr, maxLeverage: lev });

describe('addPerpMarket: every field at its edge', () => {
  /** [field, accepted value(s), refused value(s)] on the test market (quote USDT of scale 8). */
  const edges: [string, unknown[], unknown[]][] = [
    ['symbol', ['X', 'X'.repeat(32)], ['', 'X'.repeat(33), 7]],
    ['base', ['B'], ['', 7]],
    ['priceDecimals', [0, 5], [-1, 1.5, '1']],
    ['qtyDecimals', [0, 5], [-1, 1.5, '3']],
    ['tickSize', [1n, 10n], [0n, -1n, 1]],
    ['stepSize', [1n, 10n], [0n, -1n, 1]],
    ['minQty', [0n, 1n], [-1n, 1]],
    ['makerFeePpm', [0, 100_000], [-1, 100_001, 0.5]],
    ['takerFeePpm', [0, 100_000], [-1, 100_001, 0.5]],
    ['lotNotional', [1n], [0n, -1n, 1]],
    ['priceBandPpm', [1, 999_999], [0, 1_000_000, 1.5]],
    ['fundingIntervalMs', [60_000, 7 * 86_400_000], [59_999, 7 * 86_400_000 + 1, 60_000.5]],
    ['interestRateE8', [-1_000_000, 1_000_000], [-1_000_001, 1_000_001]],
    ['fundingCapE8', [0, 10_000_000], [-1, 10_000_001]],
    ['impactNotional', [1n], [0n, -1n, 1]],
    ['markBasisSamples', [1, 3600], [0, 3601, 2.5]],
    ['status', ['TRADING', 'HALTED'], ['CLOSED', undefined]],
  ];
  for (const [field, good, bad] of edges) {
    it(`${field}: accepts ${good.map(String).join(', ')}; refuses ${bad.map(String).join(', ')}`, () => {
      for (const v of good) expect(list({ [field]: v }), `${field} = ${String(v)}`).toBe('ok');
      for (const v of bad) expect(list({ [field]: v }), `${field} = ${String(v)}`).toBe('invalid_config');
    });
  }

  it('decimals: up to 18 each, and together at most the settle asset scale', () => {
    // scale 36 holds 18 + 18; 19 is refused on its own even where the scale would hold it
    expect(list({ priceDecimals: 18, qtyDecimals: 18 }, 36)).toBe('ok');
    expect(list({ priceDecimals: 19, qtyDecimals: 0 }, 36)).toBe('invalid_config');
    expect(list({ priceDecimals: 0, qtyDecimals: 19 }, 36)).toBe('invalid_config');
    // scale 8: 5 + 3 = 8 fits, 5 + 4 does not
    expect(list({ priceDecimals: 5, qtyDecimals: 3 })).toBe('ok');
    expect(list({ priceDecimals: 5, qtyDecimals: 4 })).toBe('invalid_config');
    expect(list({ priceDecimals: 4, qtyDecimals: 5 })).toBe('invalid_config');
  });

  it('brackets: 1 to 20, rising caps, never more leverage or less maintenance, initial rate above maintenance', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => b((i + 1) * 1000, 4000, 125));
    expect(list({ brackets: [b(1000, 4000, 125)] })).toBe('ok');
    expect(list({ brackets: twenty })).toBe('ok');
    expect(list({ brackets: [...twenty, b(21_000, 4000, 125)] })).toBe('invalid_config');
    expect(list({ brackets: [] })).toBe('invalid_config');
    expect(list({ brackets: 'none' })).toBe('invalid_config');
    // each field of a bracket
    expect(list({ brackets: [{ ...b(1000, 4000, 125), notionalCap: 0n }] })).toBe('invalid_config');
    expect(list({ brackets: [{ ...b(1000, 4000, 125), notionalCap: 1000 }] })).toBe('invalid_config');
    expect(list({ brackets: [{ ...b(1000, 4000, 125), notionalCap: 1n }] })).toBe('ok');
    expect(list({ brackets: [b(1000, 4000, 126)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 0)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 1, 1)] })).toBe('ok');
    expect(list({ brackets: [b(1000, 0, 1)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 999_999, 1)] })).toBe('ok');
    expect(list({ brackets: [b(1000, 1_000_000, 1)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 2.5)] })).toBe('invalid_config');
    // the initial margin rate 1/125 = 8,000 ppm must exceed the maintenance rate
    expect(list({ brackets: [b(1000, 7999, 125)] })).toBe('ok');
    expect(list({ brackets: [b(1000, 8000, 125)] })).toBe('invalid_config');
    // 1/3 = 333,333.3 ppm: 333,333 is below it, 333,334 above
    expect(list({ brackets: [b(1000, 333_333, 3)] })).toBe('ok');
    expect(list({ brackets: [b(1000, 333_334, 3)] })).toBe('invalid_config');
    // the second bracket against the first: cap strictly higher, leverage not higher, maintenance not lower
    expect(list({ brackets: [b(1000, 4000, 100), b(1001, 4000, 100)] })).toBe('ok');
    expect(list({ brackets: [b(1000, 4000, 100), b(1000, 4000, 100)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 100), b(999, 4000, 100)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 100), b(2000, 4000, 101)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 100), b(2000, 3999, 100)] })).toBe('invalid_config');
    expect(list({ brackets: [b(1000, 4000, 100), b(2000, 5000, 50)] })).toBe('ok');
  });

  it('refuses a missing config, a listed symbol and an unknown settle asset', () => {
    expect(run(bare(), { type: 'addPerpMarket', market: null }).code).toBe('invalid_config');
    expect(run(bare(), { type: 'addPerpMarket', market: 'BTC' }).code).toBe('invalid_config');
    const e = bare();
    expect(run(e, { type: 'addPerpMarket', market: perpMarket() }).code).toBe('ok');
    expect(run(e, { type: 'addPerpMarket', market: perpMarket({ takerFeePpm: 400 }) }).code).toBe('market_exists');
    expect(e.perpMarket(SYM)?.takerFeePpm).toBe(500);
    expect(list({ quote: 'EUR' })).toBe('asset_not_found');
    expect(list({ quote: 8 })).toBe('asset_not_found');
    // an invalid field is reported before an unknown asset
    expect(list({ quote: 'EUR', tickSize: 0n })).toBe('invalid_config');
  });

  it('keeps its own copy of the config, emits it, and starts funding at the interval boundary', () => {
    const e = bare();
    const cfg = perpMarket({ symbol: 'ETH/USDT', base: 'ETH', fundingIntervalMs: 4 * HOUR, brackets: [b(5_000, 4000, 125), b(25_000, 5000, 100)] });
    const r = run(e, { type: 'addPerpMarket', market: cfg }, T0 + 5 * HOUR + 7);
    expect(r.code).toBe('ok');
    const added = ev(r, 'perpMarketAdded');
    expect(added).toHaveLength(1);
    expect(added[0]?.market).toEqual(cfg);
    expect(added[0]?.ts).toBe(T0 + 5 * HOUR + 7);
    // the caller's objects are not the engine's
    (cfg.brackets[0] as LeverageBracket).maxLeverage = 1;
    cfg.takerFeePpm = 9;
    expect(e.perpMarket('ETH/USDT')?.brackets[0]?.maxLeverage).toBe(125);
    expect(e.perpMarket('ETH/USDT')?.takerFeePpm).toBe(500);
    // T0 is a multiple of 4 h; listed at T0 + 5 h, the last funding time is T0 + 4 h and the next T0 + 8 h
    expect(e.perpMarkState('ETH/USDT')?.nextFundingTs).toBe(T0 + 8 * HOUR);
    // listed exactly at a boundary, that boundary is the last funding time
    const f = bare();
    expect(run(f, { type: 'addPerpMarket', market: perpMarket({ fundingIntervalMs: 4 * HOUR }) }, T0 + 8 * HOUR).code).toBe('ok');
    expect(f.perpMarkState(SYM)?.nextFundingTs).toBe(T0 + 12 * HOUR);
  });
});

describe('fundInsurance', () => {
  const fund = (e: Engine): bigint => e.balance(FUND, 'SYSTEM', 'USDT').available;
  const funded = (e: Engine, c: Record<string, unknown>): string =>
    run(e, { type: 'fundInsurance', asset: 'USDT', amount: 5n * USDT, from: '@faucet', ...c }).code;

  it('takes from @faucet or @fee only, a listed asset, a positive bigint amount', () => {
    const e = perpEngine([]);
    expect(funded(e, {})).toBe('ok');
    expect(fund(e)).toBe(5n * USDT);
    expect(funded(e, { from: '@fee', amount: 1n })).toBe('ok');
    expect(fund(e)).toBe(5n * USDT + 1n);
    expect(e.balance('@fee', 'SYSTEM', 'USDT').available).toBe(-1n);
    for (const from of ['@fund', 'alice', '@insurance', undefined]) expect(funded(e, { from }), String(from)).toBe('invalid_config');
    expect(funded(e, { asset: 'EUR' })).toBe('asset_not_found');
    expect(funded(e, { asset: 5 })).toBe('asset_not_found');
    for (const amount of [0n, -1n, 5]) expect(funded(e, { amount }), String(amount)).toBe('amount_invalid');
    // nothing refused moved anything
    expect(fund(e)).toBe(5n * USDT + 1n);
  });
});

describe('perpSetMarginMode', () => {
  const mode = (e: Engine, c: Record<string, unknown>): CommandResult =>
    run(e, { type: 'perpSetMarginMode', userId: 'alice', symbol: SYM, marginMode: 'ISOLATED', ...c });

  it('checks market, user and mode, and keeps the leverage', () => {
    const e = perpEngine([['alice', 1000n * USDT]]);
    expect(mode(e, { symbol: 'ETH/USDT' }).code).toBe('market_not_found');
    for (const userId of ['', '@insurance', 7]) expect(mode(e, { userId }).code, String(userId)).toBe('invalid_order');
    for (const marginMode of ['isolated', 'PORTFOLIO', undefined]) expect(mode(e, { marginMode }).code, String(marginMode)).toBe('invalid_order');
    expect(run(e, { type: 'perpSetLeverage', userId: 'alice', symbol: SYM, leverage: 7 }).code).toBe('ok');
    const r = mode(e, {});
    expect(r.code).toBe('ok');
    expect(ev(r, 'perpSettingsChanged')).toEqual([
      { type: 'perpSettingsChanged', ts: T0 + 1000, userId: 'alice', symbol: SYM, settings: { leverage: 7, marginMode: 'ISOLATED' } },
    ]);
    expect(e.perpSettings('alice', SYM)).toEqual({ leverage: 7, marginMode: 'ISOLATED' });
    expect(e.perpSettings('bob', SYM)).toEqual({ leverage: 20, marginMode: 'CROSS' });
    expect(mode(e, { marginMode: 'CROSS' }).code).toBe('ok');
    expect(e.perpSettings('alice', SYM).marginMode).toBe('CROSS');
  });

  it('is refused with an open order or a position in the symbol, not with one in another symbol', () => {
    const e = perpEngine([
      ['alice', 1000n * USDT],
      ['bob', 1000n * USDT],
    ]);
    expect(run(e, { type: 'addPerpMarket', market: perpMarket({ symbol: 'ETH/USDT', base: 'ETH' }) }).code).toBe('ok');
    for (const s of [SYM, 'ETH/USDT']) expect(run(e, { type: 'perpMarkPrice', symbol: s, indexPrice: 100_000n }).code).toBe('ok');
    const buy = (userId: string, symbol: string, price: bigint): CommandResult =>
      run(e, { type: 'perpPlaceOrder', userId, symbol, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 10n });
    // an order resting in ETH/USDT does not stop a switch in BTC/USDT
    expect(buy('alice', 'ETH/USDT', 99_000n).code).toBe('ok');
    expect(mode(e, {}).code).toBe('ok');
    const r = buy('alice', SYM, 99_000n);
    expect(r.code).toBe('ok');
    expect(mode(e, { marginMode: 'CROSS' }).code).toBe('position_exists');
    expect(run(e, { type: 'perpCancelOrder', userId: 'alice', symbol: SYM, orderId: r.perpOrder?.orderId }).code).toBe('ok');
    expect(mode(e, { marginMode: 'CROSS' }).code).toBe('ok');
    // a position (filled against bob) stops it too
    expect(buy('alice', SYM, 99_000n).code).toBe('ok');
    expect(run(e, { type: 'perpPlaceOrder', userId: 'bob', symbol: SYM, side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: 10n }).code).toBe(
      'ok',
    );
    expect(e.position('alice', SYM)?.size).toBe(10n);
    expect(e.perpOpenOrders('alice', SYM)).toHaveLength(0);
    expect(mode(e, {}).code).toBe('position_exists');
    expect(mode(e, { userId: 'bob' }).code).toBe('position_exists');
    expect(e.perpSettings('alice', SYM).marginMode).toBe('CROSS');
  });
});

describe('perpSetTpSl', () => {
  /** alice LONG and bob SHORT 0.010 BTC at 10,000.0 (price 100,000), the mark at 100,000. */
  function pair(over: Partial<PerpMarketConfig> = {}): Engine {
    const e = perpEngine(
      [
        ['alice', 1000n * USDT],
        ['bob', 1000n * USDT],
        ['mm', 1000n * USDT],
      ],
      over,
    );
    expect(run(e, { type: 'perpMarkPrice', symbol: SYM, indexPrice: 100_000n }).code).toBe('ok');
    const place = (userId: string, side: string, orderType: string, price?: bigint): void =>
      expect(
        run(e, {
          type: 'perpPlaceOrder',
          userId,
          symbol: SYM,
          side,
          orderType,
          timeInForce: orderType === 'LIMIT' ? 'GTC' : 'IOC',
          ...(price === undefined ? {} : { price }),
          quantity: 10n,
        }).code,
      ).toBe('ok');
    place('bob', 'SELL', 'LIMIT', 100_000n);
    place('alice', 'BUY', 'MARKET');
    return e;
  }
  const tpsl = (e: Engine, userId: string, takeProfit: unknown, stopLoss: unknown, extra: Record<string, unknown> = {}): CommandResult =>
    run(e, { type: 'perpSetTpSl', userId, symbol: SYM, takeProfit, stopLoss, ...extra });

  it("a long's take profit above the mark and stop loss below; a short's the other way; never at the mark", () => {
    const e = pair();
    // long
    expect(tpsl(e, 'alice', 100_001n, null).code).toBe('ok');
    expect(tpsl(e, 'alice', 100_000n, null).code).toBe('take_profit_invalid');
    expect(tpsl(e, 'alice', 99_999n, null).code).toBe('take_profit_invalid');
    expect(tpsl(e, 'alice', null, 99_999n).code).toBe('ok');
    expect(tpsl(e, 'alice', null, 100_000n).code).toBe('stop_loss_invalid');
    expect(tpsl(e, 'alice', null, 100_001n).code).toBe('stop_loss_invalid');
    // short
    expect(tpsl(e, 'bob', 99_999n, null).code).toBe('ok');
    expect(tpsl(e, 'bob', 100_000n, null).code).toBe('take_profit_invalid');
    expect(tpsl(e, 'bob', 100_001n, null).code).toBe('take_profit_invalid');
    expect(tpsl(e, 'bob', null, 100_001n).code).toBe('ok');
    expect(tpsl(e, 'bob', null, 100_000n).code).toBe('stop_loss_invalid');
    expect(tpsl(e, 'bob', null, 99_999n).code).toBe('stop_loss_invalid');
    // a refused pair leaves the last accepted one
    expect(tpsl(e, 'bob', 90_000n, 110_000n).code).toBe('ok');
    expect(tpsl(e, 'bob', 90_000n, 90_000n).code).toBe('stop_loss_invalid');
    expect(e.position('bob', SYM)).toMatchObject({ takeProfit: 90_000n, stopLoss: 110_000n });
    // both set, then both cleared; the change is announced
    const r = tpsl(e, 'alice', 120_000n, 80_000n);
    expect(r.code).toBe('ok');
    expect(ev(r, 'positionChanged').map((x) => [x.position.userId, x.position.takeProfit, x.position.stopLoss])).toEqual([['alice', 120_000n, 80_000n]]);
    expect(tpsl(e, 'alice', null, null).code).toBe('ok');
    expect(e.position('alice', SYM)).toMatchObject({ takeProfit: null, stopLoss: null });
  });

  it('checks the market, the user, the types, the tick and the position', () => {
    const e = pair({ tickSize: 5n });
    expect(tpsl(e, 'alice', 110_000n, null, { symbol: 'ETH/USDT' }).code).toBe('market_not_found');
    expect(tpsl(e, 7 as unknown as string, 110_000n, null).code).toBe('invalid_order');
    expect(tpsl(e, 'alice', 110_000, null).code).toBe('invalid_order');
    expect(tpsl(e, 'alice', null, '90000').code).toBe('invalid_order');
    expect(tpsl(e, 'alice', undefined, null).code).toBe('invalid_order');
    expect(tpsl(e, 'carol', 110_000n, null).code).toBe('no_position');
    expect(tpsl(e, 'alice', 110_001n, null).code).toBe('price_not_on_tick');
    expect(tpsl(e, 'alice', null, 90_003n).code).toBe('price_not_on_tick');
    expect(tpsl(e, 'alice', null, 0n).code).toBe('price_not_on_tick');
    expect(tpsl(e, 'alice', null, -5n).code).toBe('price_not_on_tick');
    expect(tpsl(e, 'alice', 110_005n, 89_995n).code).toBe('ok');
    expect(e.position('alice', SYM)).toMatchObject({ takeProfit: 110_005n, stopLoss: 89_995n });
  });
});

describe('take profit and stop loss triggers', () => {
  /**
   * alice LONG and bob SHORT 0.010 BTC at 10,000.0, both 10x isolated-free cross with 1,000 USDT; the mark is moved
   * while the book is one-sided (so the mark equals the index, see perp-risk-edges.test.ts), then mm quotes the side
   * the trigger's close needs.
   */
  function world(): { e: Engine; tick: (index: bigint) => CommandResult; quote: (side: 'BUY' | 'SELL', price: bigint) => void } {
    const e = perpEngine([
      ['alice', 1000n * USDT],
      ['bob', 1000n * USDT],
      ['mm', 10_000n * USDT],
    ]);
    let ts = T0 + 1000;
    const cmd = (c: Record<string, unknown>): CommandResult => run(e, c, ts++);
    const tick = (index: bigint): CommandResult => {
      const r = cmd({ type: 'perpMarkPrice', symbol: SYM, indexPrice: index });
      expect(r.code).toBe('ok');
      return r;
    };
    const quote = (side: 'BUY' | 'SELL', price: bigint): void => {
      expect(cmd({ type: 'perpPlaceOrder', userId: 'mm', symbol: SYM, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 10n }).code).toBe('ok');
    };
    tick(100_000n);
    expect(
      cmd({ type: 'perpPlaceOrder', userId: 'bob', symbol: SYM, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 100_000n, quantity: 10n }).code,
    ).toBe('ok');
    expect(cmd({ type: 'perpPlaceOrder', userId: 'alice', symbol: SYM, side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: 10n }).code).toBe('ok');
    for (const c of [
      { userId: 'alice', takeProfit: 101_000n, stopLoss: 99_000n },
      { userId: 'bob', takeProfit: 99_000n, stopLoss: 101_000n },
    ])
      expect(cmd({ type: 'perpSetTpSl', symbol: SYM, ...c }).code).toBe('ok');
    return { e, tick, quote };
  }
  const closes = (r: CommandResult): [string, string, string | null, bigint, boolean, string][] =>
    ev(r, 'perpOrderUpdated')
      .filter((x) => x.order.trigger !== null)
      .map((x) => [x.order.userId, x.order.side, x.order.trigger, x.order.quantity, x.order.reduceOnly, x.order.status]);

  it("the long's take profit fires when the mark reaches it (the short's stop loss with it), not one tick before", () => {
    const { e, tick, quote } = world();
    // mm quotes both sides; the mark is the median of the index, the index plus the basis average and the last price
    quote('BUY', 101_000n);
    quote('SELL', 101_001n);
    // basis mid 101,000 - 100,999 = 1: median(100,999, 101,000, 100,000) = 100,999, one tick short of both triggers
    expect(closes(tick(100_999n))).toEqual([]);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(100_999n);
    expect(e.position('alice', SYM)?.size).toBe(10n);
    expect(e.position('bob', SYM)?.size).toBe(10n);
    // basis samples 1 and 0 average 0: the mark is 101,000, alice's take profit and bob's stop loss
    const r = tick(101_000n);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(101_000n);
    expect(closes(r)).toEqual([
      ['alice', 'SELL', 'TAKE_PROFIT', 10n, true, 'FILLED'],
      ['bob', 'BUY', 'STOP_LOSS', 10n, true, 'FILLED'],
    ]);
    expect(e.position('alice', SYM)).toBeUndefined();
    expect(e.position('bob', SYM)).toBeUndefined();
  });

  it("the short's take profit and the long's stop loss fire when the mark falls to them", () => {
    const { e, tick, quote } = world();
    quote('BUY', 98_999n);
    quote('SELL', 99_000n);
    // mid 98,999 (rounded down), basis -2: median(99,001, 98,999, 100,000) = 99,001, one tick above both triggers
    expect(closes(tick(99_001n))).toEqual([]);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(99_001n);
    expect(e.positions('bob')).toHaveLength(1);
    expect(e.positions('alice')).toHaveLength(1);
    // basis samples -2 and -1 average -1 (truncated): median(99,000, 98,999, 100,000) = 99,000
    const r = tick(99_000n);
    expect(e.perpMarkState(SYM)?.markPrice).toBe(99_000n);
    expect(closes(r)).toEqual([
      ['alice', 'SELL', 'STOP_LOSS', 10n, true, 'FILLED'],
      ['bob', 'BUY', 'TAKE_PROFIT', 10n, true, 'FILLED'],
    ]);
    expect(e.positions('alice')).toEqual([]);
    expect(e.positions('bob')).toEqual([]);
  });

  it('stays armed while the other side of the book is empty, and fires at the next tick with liquidity', () => {
    const { e, tick, quote } = world();
    // the mark crosses alice's take profit with no bid: nothing is placed, the trigger stays
    let r = tick(102_000n);
    expect(closes(r).filter((c) => c[0] === 'alice')).toEqual([]);
    expect(e.position('alice', SYM)).toMatchObject({ size: 10n, takeProfit: 101_000n, stopLoss: 99_000n });
    quote('BUY', 101_500n);
    r = tick(102_000n);
    expect(closes(r).filter((c) => c[0] === 'alice')).toEqual([['alice', 'SELL', 'TAKE_PROFIT', 10n, true, 'FILLED']]);
    expect(e.position('alice', SYM)).toBeUndefined();
  });
});

describe('execute', () => {
  it('refuses an unknown perpetual command and emits depth and positions only for accepted ones', () => {
    const e = perpEngine([['alice', 1000n * USDT]]);
    expect(run(e, { type: 'perpSetMarginMode', userId: 'alice', symbol: SYM, marginMode: 'X' }).events).toEqual([]);
    expect(run(e, { type: 'perpMarkPrice', symbol: SYM, indexPrice: 100_000n }).code).toBe('ok');
    const r = run(e, {
      type: 'perpPlaceOrder',
      userId: 'alice',
      symbol: SYM,
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 99_000n,
      quantity: 10n,
    });
    expect(r.code).toBe('ok');
    // the order's own event first, then the depth of its level
    expect(r.events.map((x) => x.type).filter((t) => t.startsWith('perp'))).toEqual(['perpOrderAccepted', 'perpDepthChanged']);
    expect(ev(r, 'perpDepthChanged')).toEqual([{ type: 'perpDepthChanged', ts: T0 + 1000, symbol: SYM, side: 'BUY', price: 99_000n, quantity: 10n }]);
  });
});
