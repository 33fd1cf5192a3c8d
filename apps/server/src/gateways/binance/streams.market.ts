/**
 * Binance's market stream payloads from our market data: trade, aggTrade, diff and partial depth, kline,
 * 24 h ticker and mini ticker, book ticker, and the perpetuals' mark price, as the spot page
 * (https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams) and the USDT-M futures pages
 * ("Websocket Market Streams") document them. Each builder returns the JSON text once; the hub sends the same text
 * (or the same combined wrapper) to every subscriber. Prices and quantities are our decimal strings as they are;
 * derived values (price change, weighted average) are computed in bigint units, never in floating point.
 */
import { KLINE_PERIOD_MS, type ContractMarket, type ContractTrade, type Kline, type KlinePeriod, type Pair, type PublicTrade } from '@exchange/api';
import { formatDecimal } from '@exchange/core';
import { divRound, fromUnits, pow10, toUnits } from '../../platform/shared/decimal';
import type { StreamMarket } from './streams.names';

/** [price, quantity] rows. */
export type Rows = Array<[string, string]>;

/** a - b of two decimal strings at `places` decimals (each rounded half up to them first). */
export function subDecimal(a: string, b: string, places: number): string {
  return fromUnits(toUnits(a, places) - toUnits(b, places), places);
}

/** a / b of two non-negative decimal strings, rounded half up at `places` decimals; zero when b is zero. */
export function divDecimal(a: string, b: string, places: number): string {
  const bu = toUnits(b, 18);
  if (bu <= 0n) return fromUnits(0n, places);
  return fromUnits(divRound(toUnits(a, 18) * pow10(places), bu), places);
}

/** Trade ids are decimal strings of engine sequences, far below 2^53: JSON numbers as Binance sends them. */
const idNum = (id: string): number => Number(id);

/** Spot `<symbol>@trade`: one message per trade. `m` is true when the buyer was the maker (the taker sold). */
export function spotTradeJson(bsym: string, t: PublicTrade, now: number): string {
  return JSON.stringify({ e: 'trade', E: now, s: bsym, t: idNum(t.id), p: t.price, q: t.amount, T: t.time, m: t.side === 'SELL', M: true });
}

/** Spot `<symbol>@aggTrade`: each trade is its own aggregate (a = f = l = the trade id). */
export function spotAggTradeJson(bsym: string, t: PublicTrade, now: number): string {
  const id = idNum(t.id);
  return JSON.stringify({ e: 'aggTrade', E: now, s: bsym, a: id, p: t.price, q: t.amount, f: id, l: id, T: t.time, m: t.side === 'SELL', M: true });
}

/** Futures `<symbol>@trade` (X: MARKET, a book trade). */
export function futuresTradeJson(bsym: string, t: ContractTrade, now: number): string {
  return JSON.stringify({ e: 'trade', E: now, T: t.time, s: bsym, t: idNum(t.id), p: t.price, q: t.amount, X: 'MARKET', m: t.side === 'SELL' });
}

/** Futures `<symbol>@aggTrade`. */
export function futuresAggTradeJson(bsym: string, t: ContractTrade, now: number): string {
  const id = idNum(t.id);
  return JSON.stringify({ e: 'aggTrade', E: now, s: bsym, a: id, p: t.price, q: t.amount, f: id, l: id, T: t.time, m: t.side === 'SELL' });
}

/**
 * A diff depth event covering book updates U..u (Binance depthUpdate): changed levels with their new quantity
 * ("0": removed). Futures add T and pu (the previous event's u, here U - 1: our events are contiguous).
 */
export function depthUpdateJson(market: StreamMarket, bsym: string, U: number, u: number, bids: Rows, asks: Rows, now: number): string {
  if (market === 'spot') return JSON.stringify({ e: 'depthUpdate', E: now, s: bsym, U, u, b: bids, a: asks });
  return JSON.stringify({ e: 'depthUpdate', E: now, T: now, s: bsym, U, u, pu: U - 1, b: bids, a: asks });
}

/**
 * A partial book: spot `{ lastUpdateId, bids, asks }`; futures a depthUpdate whose b/a are the top levels, u the
 * book's update id and pu the u of the stream's previous message.
 */
export function partialDepthJson(market: StreamMarket, bsym: string, seq: number, prevU: number, bids: Rows, asks: Rows, now: number): string {
  if (market === 'spot') return JSON.stringify({ lastUpdateId: seq, bids, asks });
  return JSON.stringify({ e: 'depthUpdate', E: now, T: now, s: bsym, U: prevU + 1, u: seq, pu: prevU, b: bids, a: asks });
}

/** `<symbol>@bookTicker`: best bid and ask with the book's update id (futures add e, E, T). */
export function bookTickerJson(market: StreamMarket, bsym: string, seq: number, bid: [string, string], ask: [string, string], now: number): string {
  if (market === 'spot') return JSON.stringify({ u: seq, s: bsym, b: bid[0], B: bid[1], a: ask[0], A: ask[1] });
  return JSON.stringify({ e: 'bookTicker', u: seq, E: now, T: now, s: bsym, b: bid[0], B: bid[1], a: ask[0], A: ask[1] });
}

/** A kline stream's bar: the stored k-line fields and its close time (ms, the next bar's open - 1). */
export type StreamBar = Kline & { closeTime: number };

/** A stored period's bar with its close time (open + the period - 1). */
export function storedBar(period: KlinePeriod, bar: Kline): StreamBar {
  return { ...bar, closeTime: bar.time + KLINE_PERIOD_MS[period] - 1 };
}

/** The `k` object of a kline event: our bars carry OHLC and base volume only (f, L -1; n, q, V, Q, B "0" / 0). */
function klineObject(interval: string, bar: StreamBar, closed: boolean) {
  return {
    t: bar.time,
    T: bar.closeTime,
    i: interval,
    f: -1,
    L: -1,
    o: bar.open,
    c: bar.close,
    h: bar.high,
    l: bar.low,
    v: bar.volume,
    n: 0,
    x: closed,
    q: '0',
    V: '0',
    Q: '0',
    B: '0',
  };
}

/**
 * `<symbol>@kline_<interval>`: the bar of `interval` (Binance's name, "4h") with `closed` (x), `k.s` the symbol as
 * Binance sends it.
 */
export function klineJson(bsym: string, interval: string, bar: StreamBar, closed: boolean, now: number): string {
  const { t, T, ...rest } = klineObject(interval, bar, closed);
  return JSON.stringify({ e: 'kline', E: now, s: bsym, k: { t, T, s: bsym, ...rest } });
}

/**
 * Futures `<pair>_perpetual@continuousKline_<interval>` (Binance "Continuous Contract Kline/Candlestick Streams"):
 * `continuous_kline` with the pair (`ps`) and contract type PERPETUAL (`ct`), the perpetual's trade bar in `k`.
 */
export function continuousKlineJson(pair: string, interval: string, bar: StreamBar, closed: boolean, now: number): string {
  return JSON.stringify({ e: 'continuous_kline', E: now, ps: pair, ct: 'PERPETUAL', k: klineObject(interval, bar, closed) });
}

/** The 24 h figures both tickers need, as decimal strings. */
export interface TickerFigures {
  last: string;
  /** open of the 24 h window; '' when unknown (then the change is "0") */
  open: string;
  high: string;
  low: string;
  volume: string;
  quoteVolume: string;
  /** change percent as we print it ("-1.25") */
  percent: string;
  priceDecimals: number;
  best?: { bid: [string, string]; ask: [string, string] };
}

/** Spot figures from a Pair (and the window's open and best levels when known). */
export function spotFigures(p: Pair, open: string | null, best?: TickerFigures['best']): TickerFigures {
  return {
    last: p.price,
    open: open ?? '',
    high: p.high,
    low: p.low,
    volume: p.volume,
    quoteVolume: p.quoteVolume,
    percent: p.updown,
    priceDecimals: p.priceDecimals,
    ...(best ? { best } : {}),
  };
}

/**
 * Futures figures from a ContractMarket row and the 24 h window's exact open (bigint price units, from
 * ContractMarketService.figures, the source of the REST ticker too); open '' when the window is empty.
 */
export function futuresFigures(m: ContractMarket, open24h: bigint | null): TickerFigures {
  const last = m.lastPrice === '' ? m.markPrice : m.lastPrice;
  const open = open24h === null ? '' : fromUnits(open24h, m.priceDecimals);
  return {
    last,
    open,
    high: m.high24h,
    low: m.low24h,
    volume: m.volume24h,
    quoteVolume: m.quoteVolume24h,
    percent: m.change24h,
    priceDecimals: m.priceDecimals,
  };
}

/**
 * `<symbol>@ticker` (24hrTicker): change, percent, weighted average price (quote volume / volume), last, open, high,
 * low, volumes; open time E - 24 h, close time E. Fields we do not keep: last quantity "0", first/last trade id -1,
 * trade count 0; spot's best bid/ask from the book when given, else "0".
 */
export function tickerJson(market: StreamMarket, bsym: string, f: TickerFigures, now: number): string {
  const zero = formatDecimal(0n, f.priceDecimals);
  const last = f.last === '' ? zero : f.last;
  const open = f.open === '' ? last : f.open;
  const head = {
    e: '24hrTicker',
    E: now,
    s: bsym,
    p: subDecimal(last, open, f.priceDecimals),
    P: f.percent,
    w: divDecimal(f.quoteVolume, f.volume, f.priceDecimals),
  };
  const tail = { o: open, h: f.high || last, l: f.low || last, v: f.volume, q: f.quoteVolume, O: now - 86_400_000, C: now, F: -1, L: -1, n: 0 };
  if (market === 'futures') return JSON.stringify({ ...head, c: last, Q: '0', ...tail });
  const b = f.best;
  return JSON.stringify({ ...head, x: open, c: last, Q: '0', b: b?.bid[0] ?? '0', B: b?.bid[1] ?? '0', a: b?.ask[0] ?? '0', A: b?.ask[1] ?? '0', ...tail });
}

/** `<symbol>@miniTicker` (24hrMiniTicker). */
export function miniTickerJson(bsym: string, f: TickerFigures, now: number): string {
  const last = f.last === '' ? formatDecimal(0n, f.priceDecimals) : f.last;
  return JSON.stringify({
    e: '24hrMiniTicker',
    E: now,
    s: bsym,
    c: last,
    o: f.open === '' ? last : f.open,
    h: f.high || last,
    l: f.low || last,
    v: f.volume,
    q: f.quoteVolume,
  });
}

/** A mark price tick as the perpetuals' streams need it. */
export interface MarkFigures {
  bsym: string;
  mark: string;
  index: string;
  /** predicted funding rate as a fraction with 8 decimals ("0.00010000" = 0.01%) */
  rate: string;
  nextFundingTime: number;
}

/** The markPriceUpdate object (p mark, i index, P estimated settle price = the mark, r funding rate, T next funding). */
export function markPriceObject(m: MarkFigures, now: number) {
  return { e: 'markPriceUpdate', E: now, s: m.bsym, p: m.mark, ap: m.mark, P: m.mark, i: m.index, r: m.rate, T: m.nextFundingTime };
}
