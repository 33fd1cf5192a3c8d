/**
 * Binance spot market data in Binance's shapes (see
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints), computed from the same
 * sources as the app's market data: the market-data service (depth with its sequence, pairs and the 24 h window,
 * bars, latest trades), the engine's markets and the projected trades (spot.repository.ts).
 * Units: prices bigint price units (10^-priceDecimals), quantities qty units, quote volumes units of 10^-8
 * (ASSET_SCALE); decimal strings only on the way out. No floating point.
 */
import { KLINE_PERIOD_MS, type KlinePeriod } from '@exchange/api';
import { formatDecimal, pow10, type MarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { MarketDataService } from '../../domains/market-data/market-data.service';
import { divRound, toUnits } from '../../platform/shared/decimal';
import { ASSET_SCALE } from '../../domains/market-data/seed/catalog';
import { DAY_MS } from '../../domains/market-data/ticker-window';
import { BX } from './binance.errors';
import { aggregatedKlines, type AggregatedInterval } from '../../domains/market-data/bar-aggregate';
import { findSpotMarket, klinePeriod, toBinanceSymbol } from './binance.symbols';
import { projectionCaughtUp, type SpotRepository, type SpotTradeRow } from './spot.repository';

/** What the spot market answers read: the engine (markets, assets, last prices) and market data (depth, trades, k-lines). */
export interface SpotMarketDeps {
  host: EnginePort;
  marketData: MarketDataService;
}

/** Our stored period of a Binance interval; -1120 for any other (the aggregated ones are looked up before). */
export function periodOf(interval: string): KlinePeriod {
  const p = klinePeriod(interval);
  if (!p) throw BX.invalidInterval();
  return p;
}

/** A zero at `decimals` decimals ("0.00"). */
const zero = (decimals: number) => formatDecimal(0n, decimals);

/** The spot markets a `symbol`/`symbols` selection names (all when neither): -1121 for an unknown one. */
export function selectMarkets(deps: SpotMarketDeps, symbol: string | undefined, symbols: string[] | undefined): MarketConfig[] {
  const wanted = symbol !== undefined ? [symbol] : symbols;
  if (wanted === undefined) return deps.host.engine.markets();
  return wanted.map((s) => {
    const m = findSpotMarket(deps.host, s);
    if (!m || toBinanceSymbol(m.symbol) !== s) throw BX.invalidSymbol();
    return m;
  });
}

/** Best bid and ask of a market as Binance's bookTicker fields. */
export function bookTicker(deps: SpotMarketDeps, m: MarketConfig) {
  const d = deps.marketData.depth(m.symbol, 'SPOT', 1);
  const bid = d.bids[0];
  const ask = d.asks[0];
  return {
    symbol: toBinanceSymbol(m.symbol),
    bidPrice: bid?.[0] ?? zero(m.priceDecimals),
    bidQty: bid?.[1] ?? zero(m.qtyDecimals),
    askPrice: ask?.[0] ?? zero(m.priceDecimals),
    askQty: ask?.[1] ?? zero(m.qtyDecimals),
  };
}

/** Last price of a market as a decimal string: the pair's price (last trade, else reference price, else last bar). */
export function lastPrice(deps: SpotMarketDeps, m: MarketConfig): string {
  const pair = deps.marketData.pair(m.symbol, 'SPOT');
  if (pair) return pair.price;
  const p = deps.host.engine.lastPrice(m.symbol);
  return formatDecimal(p ?? 0n, m.priceDecimals);
}

/** Trade counts of the 24 h window per market (firstId, lastId, count), read once per request. */
export type TradeStats = Awaited<ReturnType<SpotRepository['tradeStats']>>;

/**
 * GET /api/v3/ticker/24hr of one market (FULL or MINI) at `now`: the pair's rolling 24 h window (open, high, low,
 * last, volumes) with the best bid and ask, the last trade's quantity and the window's trade ids and count.
 * priceChangePercent has 3 decimals, rounded half away from zero; weightedAvgPrice = quoteVolume / volume rounded
 * down at priceDecimals; prevClosePrice is the window's open. An empty window: open = last, change 0.
 */
export function ticker24h(deps: SpotMarketDeps, m: MarketConfig, stats: TradeStats, now: number, type: 'FULL' | 'MINI') {
  const md = deps.marketData;
  const pair = md.pair(m.symbol, 'SPOT');
  const pd = m.priceDecimals;
  const last = pair ? toUnits(pair.price, pd) : (deps.host.engine.lastPrice(m.symbol) ?? 0n);
  const openStr = md.open24h(m.symbol, 'SPOT');
  const open = openStr === null ? last : toUnits(openStr, pd);
  const volume = pair ? toUnits(pair.volume, m.qtyDecimals) : 0n;
  const quoteVolume = pair ? toUnits(pair.quoteVolume, ASSET_SCALE) : 0n;
  const s = stats.get(m.symbol);
  const core = {
    symbol: toBinanceSymbol(m.symbol),
    openPrice: formatDecimal(open, pd),
    highPrice: pair?.high ?? formatDecimal(last, pd),
    lowPrice: pair?.low ?? formatDecimal(last, pd),
    lastPrice: formatDecimal(last, pd),
    volume: formatDecimal(volume, m.qtyDecimals),
    quoteVolume: formatDecimal(quoteVolume, ASSET_SCALE),
    openTime: now - DAY_MS,
    closeTime: now,
    firstId: s ? Number(s.firstId) : -1,
    lastId: s ? Number(s.lastId) : -1,
    count: s?.count ?? 0,
  };
  if (type === 'MINI') return core;
  const shift = pd + m.qtyDecimals - ASSET_SCALE;
  const wavg = volume === 0n ? 0n : shift >= 0 ? (quoteVolume * pow10(shift)) / volume : quoteVolume / (volume * pow10(-shift));
  const book = bookTicker(deps, m);
  const lastTrade = md.trades(m.symbol, 'SPOT', 1)[0];
  const { symbol, lastPrice: last_, ...rest } = core;
  return {
    symbol,
    priceChange: formatDecimal(last - open, pd),
    priceChangePercent: open === 0n ? '0.000' : formatDecimal(divRound((last - open) * 100_000n, open), 3),
    weightedAvgPrice: formatDecimal(wavg, pd),
    prevClosePrice: formatDecimal(open, pd),
    lastPrice: last_,
    lastQty: lastTrade?.amount ?? zero(m.qtyDecimals),
    bidPrice: book.bidPrice,
    bidQty: book.bidQty,
    askPrice: book.askPrice,
    askQty: book.askQty,
    ...rest,
  };
}

/**
 * GET /api/v3/avgPrice: the volume-weighted price of the trades of the last `mins` minutes (quote / quantity, rounded
 * down at priceDecimals) and the last of those trades' time; without trades in that window, the last price and the
 * last trade's time (0 when the market never traded).
 */
export async function avgPrice(deps: SpotMarketDeps, repo: SpotRepository, m: MarketConfig, now: number, mins = 5) {
  await projectionCaughtUp(deps.host);
  const v = await repo.volumeSince(m.symbol, now - mins * 60_000);
  const quoteScale = deps.host.engine.asset(m.quote)?.scale ?? ASSET_SCALE;
  if (v && BigInt(v.qty) > 0n) {
    const shift = m.priceDecimals + m.qtyDecimals - quoteScale;
    const q = BigInt(v.quote);
    const n = BigInt(v.qty);
    const price = shift >= 0 ? (q * pow10(shift)) / n : q / (n * pow10(-shift));
    return { mins, price: formatDecimal(price, m.priceDecimals), closeTime: v.lastTs };
  }
  const lastTrade = deps.marketData.trades(m.symbol, 'SPOT', 1)[0];
  return { mins, price: lastPrice(deps, m), closeTime: lastTrade?.time ?? 0 };
}

/** A projected trade as a Binance public trade (GET /api/v3/trades). */
export function publicTrade(t: SpotTradeRow, m: MarketConfig, quoteScale: number) {
  return {
    id: Number(t.id),
    price: formatDecimal(BigInt(t.price), m.priceDecimals),
    qty: formatDecimal(BigInt(t.quantity), m.qtyDecimals),
    quoteQty: formatDecimal(BigInt(t.quoteAmount), quoteScale),
    time: t.ts,
    isBuyerMaker: t.takerSide === 'SELL',
    isBestMatch: true,
  };
}

/** A projected trade as a Binance aggregate trade: one aggregate per trade (ours are not aggregated). */
export function aggTrade(t: SpotTradeRow, m: MarketConfig) {
  const id = Number(t.id);
  return {
    a: id,
    p: formatDecimal(BigInt(t.price), m.priceDecimals),
    q: formatDecimal(BigInt(t.quantity), m.qtyDecimals),
    f: id,
    l: id,
    T: t.ts,
    m: t.takerSide === 'SELL',
    M: true,
  };
}

/**
 * GET /api/v3/klines rows of a market: bars of `period` with open time in [startTime, endTime] (ms, both inclusive),
 * at most `limit`: from startTime on when it is given, else the latest up to endTime (or now). Row fields Binance
 * has and our bars do not (quote volume, trade count, taker buy volumes) are zero.
 */
export async function klineRows(
  deps: SpotMarketDeps,
  m: MarketConfig,
  period: KlinePeriod,
  q: { startTime?: number; endTime?: number; limit: number },
): Promise<Array<[number, string, string, string, string, string, number, string, number, string, string, string]>> {
  const ms = KLINE_PERIOD_MS[period];
  let end = q.endTime !== undefined ? q.endTime + 1 : undefined; // exclusive
  if (q.startTime !== undefined) {
    const fromStart = q.startTime + q.limit * ms;
    end = end === undefined ? fromStart : Math.min(end, fromStart);
  }
  if (end !== undefined && q.startTime !== undefined && end <= q.startTime) return [];
  const bars = await deps.marketData.klines(m.symbol, 'SPOT', period, q.limit, end);
  const quoteScale = deps.host.engine.asset(m.quote)?.scale ?? ASSET_SCALE;
  const zq = zero(quoteScale);
  const zb = zero(m.qtyDecimals);
  return bars
    .filter((b) => q.startTime === undefined || b.time >= q.startTime)
    .map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume, b.time + ms - 1, zq, 0, zb, zq, '0']);
}

/**
 * GET /api/v3/klines rows of an interval market data does not store (bar-aggregate.ts: 3m, 2h, 4h, 6h, 8h, 12h, 3d,
 * 1M), built exactly from the stored finer bars; chosen as klineRows chooses, the same zero fields.
 */
export async function aggregatedKlineRows(
  deps: SpotMarketDeps,
  m: MarketConfig,
  iv: AggregatedInterval,
  q: { startTime?: number; endTime?: number; limit: number },
): Promise<Array<[number, string, string, string, string, string, number, string, number, string, string, string]>> {
  const read = (period: KlinePeriod, count: number, end: number | undefined) => deps.marketData.klines(m.symbol, 'SPOT', period, count, end);
  const bars = await aggregatedKlines(read, iv, m, q);
  const quoteScale = deps.host.engine.asset(m.quote)?.scale ?? ASSET_SCALE;
  const zq = zero(quoteScale);
  const zb = zero(m.qtyDecimals);
  return bars.map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume, b.closeTime, zq, 0, zb, zq, '0']);
}

/** Reads `limit` trades after the projection caught up (public trades and aggTrades). */
export async function projectedTrades(
  deps: SpotMarketDeps,
  repo: SpotRepository,
  m: MarketConfig,
  q: Parameters<SpotRepository['trades']>[1],
): Promise<SpotTradeRow[]> {
  await projectionCaughtUp(deps.host);
  return repo.trades(m.symbol, q);
}
