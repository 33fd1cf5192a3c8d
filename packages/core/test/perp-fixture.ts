/**
 * Shared fixture of the perpetual tests (property test, FTX replay, bench): a BTC/USDT perpetual with price 10^-1 USDT,
 * quantity 10^-3 BTC, USDT of scale 8 (so price * qty * 10^4 is quote units), maker 0.02%, taker 0.05%, 1,000 USDT per
 * lot, Binance-like brackets scaled down so that the tests reach several tiers, funding every 8 h at 0.01% interest,
 * capped at 0.3%, a 50% price band, and a basis average of 5 samples.
 */
import { Engine } from '../src/engine';
import type { LeverageBracket, PerpMarketConfig } from '../src/perp/types';
import type { Command, CommandResult, EngineEvent } from '../src/types';

/** 1 USDT in quote units. */
export const USDT = 100_000_000n;
export const HOUR = 3_600_000;
/** 2022-01-01T00:00:00Z */
export const T0 = 1_640_995_200_000;

/** cap (USDT), maintenance margin rate ppm, max leverage */
export const BRACKETS: LeverageBracket[] = (
  [
    [5_000, 4_000, 125],
    [25_000, 5_000, 100],
    [100_000, 10_000, 50],
    [1_000_000, 25_000, 20],
    [10_000_000_000, 100_000, 1],
  ] as const
).map(([cap, mmr, lev]) => ({ notionalCap: BigInt(cap) * USDT, maintMarginPpm: mmr, maxLeverage: lev }));

/** The test market (see the file comment); `over` replaces fields. */
export function perpMarket(over: Partial<PerpMarketConfig> = {}): PerpMarketConfig {
  return {
    symbol: 'BTC/USDT',
    base: 'BTC',
    quote: 'USDT',
    priceDecimals: 1,
    qtyDecimals: 3,
    tickSize: 1n,
    stepSize: 1n,
    minQty: 1n,
    makerFeePpm: 200,
    takerFeePpm: 500,
    lotNotional: 1000n * USDT,
    brackets: BRACKETS,
    priceBandPpm: 500_000,
    fundingIntervalMs: 8 * HOUR,
    interestRateE8: 10_000,
    fundingCapE8: 300_000,
    impactNotional: USDT,
    markBasisSamples: 5,
    status: 'TRADING',
    ...over,
  };
}

/** Execute and throw unless accepted. */
export function must(e: Engine, cmd: Command): CommandResult {
  const r = e.execute(cmd);
  if (r.code !== 'ok') throw new Error(`expected ok for ${cmd.type}, got ${r.code}`);
  return r;
}

/** Engine with USDT and the perpetual market; each user gets `amount` USDT in CONTRACT (via SPOT and a transfer). */
export function perpEngine(users: [string, bigint][], over: Partial<PerpMarketConfig> = {}, ts = T0): Engine {
  const e = new Engine();
  must(e, { type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
  must(e, { type: 'addPerpMarket', ts, market: perpMarket(over) });
  for (const [u, amount] of users) {
    must(e, { type: 'deposit', ts, userId: u, asset: 'USDT', account: 'SPOT', amount, from: '@faucet' });
    must(e, { type: 'transfer', ts, userId: u, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount });
  }
  return e;
}

/** A LIMIT GTC (MARKET IOC when `price` is null) perpetual order command of the test market, `extra` fields over it. */
export function order(
  userId: string,
  side: 'BUY' | 'SELL',
  price: bigint | null,
  quantity: bigint,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'perpPlaceOrder',
    userId,
    symbol: 'BTC/USDT',
    side,
    orderType: price === null ? 'MARKET' : 'LIMIT',
    timeInForce: price === null ? 'IOC' : 'GTC',
    ...(price === null ? {} : { price }),
    quantity,
    ...extra,
  };
}

/** The events of type `t` of a command's result. */
export function ev<T extends EngineEvent['type']>(r: CommandResult, t: T): Extract<EngineEvent, { type: T }>[] {
  return r.events.filter((x) => x.type === t) as Extract<EngineEvent, { type: T }>[];
}
