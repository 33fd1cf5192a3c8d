/**
 * Binance stream names: parsing `<symbol>@<kind>[...]` into what a stream carries and how often, for the
 * spot streams (https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams) and the USDT
 * perpetuals' (https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams).
 * Symbols are case-insensitive here (Binance documents them lowercase); the canonical name has the symbol lowercase
 * and the rest as Binance spells it, and is what combined streams and LIST_SUBSCRIPTIONS show.
 */
import type { KlinePeriod } from '@exchange/api';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AGGREGATED_INTERVALS } from '../../domains/market-data/bar-aggregate';
import { findPerpMarket, findSpotMarket, KLINE_INTERVALS, klinePeriod, toBinanceSymbol } from './binance.symbols';

/** Which namespace a connection serves: spot (/ws, /stream) or the USDT perpetuals (/fstream/...). */
export type StreamMarket = 'spot' | 'futures';

/** Our period -> Binance's interval name. */
export const INTERVAL_OF: Readonly<Record<KlinePeriod, string>> = Object.fromEntries(Object.entries(KLINE_INTERVALS).map(([i, p]) => [p, i])) as Record<
  KlinePeriod,
  string
>;
/** What a stream carries. */
export type StreamKind =
  | 'trade'
  | 'aggTrade'
  | 'depth'
  | 'partial'
  | 'kline'
  | 'continuousKline'
  | 'bookTicker'
  | 'ticker'
  | 'miniTicker'
  | 'markPrice'
  | 'allMarkPrice'
  | 'allTicker'
  | 'allMiniTicker'
  | 'allBookTicker';

/** Push interval (ms) of the all-market ticker arrays (!ticker@arr, !miniTicker@arr): Binance's 1000 ms. */
export const ALL_TICKERS_MS = 1000;

/** A parsed stream name. */
export interface StreamSpec {
  /** Canonical name (symbol lowercase), e.g. "btcusdt@depth@100ms". */
  name: string;
  market: StreamMarket;
  kind: StreamKind;
  /** Our market ("BTC/USDT"); '' for the all-market streams. */
  symbol: string;
  /** Binance's symbol ("BTCUSDT"); '' for the all-market streams. */
  bsym: string;
  /** Push interval (ms) of the batched streams (depth, partial depth, mark price); 0 = every update. */
  intervalMs: number;
  /** Levels of a partial book stream (5, 10, 20). */
  levels: number;
  /** A kline stream's period when market data stores it (1m 5m 15m 30m 1h 1d 1w). */
  period?: KlinePeriod;
  /** A kline stream's interval as Binance names it ("4h"): a stored period or one of AGGREGATED_INTERVALS. */
  interval?: string;
}

/**
 * The kline streams' intervals: every interval the REST klines answer, the stored periods and those built from them
 * (domains/market-data/bar-aggregate.ts); `1s` and any other name is no stream.
 */
export function klineInterval(name: string): { interval: string; period?: KlinePeriod } | undefined {
  const period = klinePeriod(name);
  if (period) return { interval: name, period };
  return Object.hasOwn(AGGREGATED_INTERVALS, name) ? { interval: name } : undefined;
}

/** The suffix of a perpetual's pair in a continuous kline stream name (`btcusdt_perpetual@continuousKline_1m`). */
const PERPETUAL_SUFFIX = '_perpetual';

/** Futures `<pair>_perpetual@continuousKline_<interval>`: the perpetual's trade bars, as its kline stream. */
function parseContinuous(raw: string, at: number, host: EnginePort): StreamSpec | undefined {
  const pair = raw.slice(0, at - PERPETUAL_SUFFIX.length);
  const head = raw.slice(at + 1);
  if (!head.startsWith('continuousKline_')) return undefined;
  const m = findPerpMarket(host, pair);
  const k = klineInterval(head.slice('continuousKline_'.length));
  if (!m || !k) return undefined;
  const bsym = toBinanceSymbol(m.symbol);
  const name = `${bsym.toLowerCase()}${PERPETUAL_SUFFIX}@continuousKline_${k.interval}`;
  return { name, market: 'futures', kind: 'continuousKline', symbol: m.symbol, bsym, intervalMs: 0, levels: 0, ...k };
}

/** Diff and partial depth intervals per namespace: [default, allowed suffixes]. Spot 1000 ms / 100 ms; futures 250 / 500 / 100. */
const DEPTH_SPEEDS: Record<StreamMarket, { def: number; allowed: Record<string, number> }> = {
  spot: { def: 1000, allowed: { '100ms': 100, '1000ms': 1000 } },
  futures: { def: 250, allowed: { '100ms': 100, '250ms': 250, '500ms': 500 } },
};

/**
 * The all-market streams: `!ticker@arr` and `!miniTicker@arr` (both namespaces, each second the symbols whose ticker
 * changed), futures `!bookTicker` (every change of any best level, real time) and `!markPrice@arr[@1s]`. Spot's
 * `!bookTicker` is not served: Binance retired it in November 2022 (spot changelog; CCXT refuses watchBidsAsks
 * without symbols on spot). Spot's `!ticker@arr` is served though Binance deprecated it on 2025-11-14. The rolling
 * window arrays (`!ticker_1h@arr`, ...) are not served: there are no window tickers here.
 */
function parseAllMarket(raw: string, market: StreamMarket): StreamSpec | undefined {
  const base = { name: raw, market, symbol: '', bsym: '', levels: 0 };
  if (raw === '!ticker@arr') return { ...base, kind: 'allTicker', intervalMs: ALL_TICKERS_MS };
  if (raw === '!miniTicker@arr') return { ...base, kind: 'allMiniTicker', intervalMs: ALL_TICKERS_MS };
  if (market !== 'futures') return undefined;
  if (raw === '!bookTicker') return { ...base, kind: 'allBookTicker', intervalMs: 0 };
  if (raw === '!markPrice@arr' || raw === '!markPrice@arr@1s') return { ...base, kind: 'allMarkPrice', intervalMs: raw.endsWith('@1s') ? 1000 : 3000 };
  return undefined;
}

/**
 * Parses a stream name of namespace `market` against the engine's markets: the spec, or undefined for a name that is
 * no Binance stream we serve (unknown kind, unknown symbol, a symbol of the other namespace). Pure apart from the
 * market lookup.
 */
export function parseStream(raw: string, market: StreamMarket, host: EnginePort): StreamSpec | undefined {
  if (raw.length === 0 || raw.length > 64) return undefined;
  if (raw.startsWith('!')) return parseAllMarket(raw, market);
  const at = raw.indexOf('@');
  if (at <= 0) return undefined;
  if (market === 'futures' && raw.slice(0, at).toLowerCase().endsWith(PERPETUAL_SUFFIX)) return parseContinuous(raw, at, host);
  const m = market === 'spot' ? findSpotMarket(host, raw.slice(0, at)) : findPerpMarket(host, raw.slice(0, at));
  if (!m) return undefined;
  const bsym = toBinanceSymbol(m.symbol);
  const rest = raw.slice(at + 1);
  const name = `${bsym.toLowerCase()}@${rest}`;
  const base = { name, market, symbol: m.symbol, bsym, intervalMs: 0, levels: 0 };
  const parts = rest.split('@');
  const head = parts[0] as string;
  const speed = parts[1];
  if (parts.length > 2) return undefined;
  const speeds = DEPTH_SPEEDS[market];
  const depthMs = speed === undefined ? speeds.def : speeds.allowed[speed];
  if (head === 'depth') return depthMs === undefined ? undefined : { ...base, kind: 'depth', intervalMs: depthMs };
  if (head === 'depth5' || head === 'depth10' || head === 'depth20') {
    return depthMs === undefined ? undefined : { ...base, kind: 'partial', intervalMs: depthMs, levels: Number(head.slice(5)) };
  }
  if (head === 'markPrice') {
    if (market !== 'futures' || (speed !== undefined && speed !== '1s')) return undefined;
    return { ...base, kind: 'markPrice', intervalMs: speed === '1s' ? 1000 : 3000 };
  }
  if (speed !== undefined) return undefined;
  if (head === 'trade' || head === 'aggTrade' || head === 'bookTicker' || head === 'ticker' || head === 'miniTicker') return { ...base, kind: head };
  if (head.startsWith('kline_')) {
    const k = klineInterval(head.slice(6));
    return k ? { ...base, kind: 'kline', ...k } : undefined;
  }
  return undefined;
}
