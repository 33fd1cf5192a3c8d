/**
 * Tickers: the Pair of every listing (spec section 3) from its 24 h window and its last price, the rankings of
 * getIndexCoin, and the index prices of the contract listings (set by the index job; their bars follow them).
 * The last price of a spot listing is its last trade, else the reference price, else its last bar. A contract
 * listing whose perpetual market feeds market data (contract-feed.ts) shows that market's own figures: last price,
 * 24 h change, high, low and volumes of its trades, exactly as contract/market/getMarket (one source); without a
 * feed, the last trade of its perpetual, else its mark price, else its index price, then the spot fallbacks over
 * its index bars. Prices are bigint price units (10^-priceDecimals quote); decimal strings only on the way out.
 */
import type { MarketType, Pair } from '@exchange/api';
import type { Config } from '../../platform/config/env';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { Catalogue, Listing } from './catalogue';
import type { ContractFeed, ContractFigures } from './contract-feed';
import { fromUnits, maxB, minB, percentChange, pow10, rescale, toUnits } from '../../platform/shared/decimal';
import type { ReferencePrices } from './reference-prices';
import { ASSET_SCALE, TOP_PAIRS } from './seed/catalog';
import type { Series, SeriesSet } from './series';

/** Rankings of getIndexCoin (spec section 7). */
export type IndexCoinType = 'UPDOWN' | 'VOLUME' | 'PROJECT' | 'TOP';

/** What the tickers need. */
export interface TickersDeps {
  config: Config;
  /** The engine: last traded price of a spot market. */
  host: EnginePort;
  catalogue: Catalogue;
  series: SeriesSet;
  reference: ReferencePrices;
  /** Clock (ms). */
  now: () => number;
  /** The perpetual markets' feed of the contract listings, once attached (contract-feed.ts). */
  contracts?: () => ContractFeed | undefined;
}

/** Pairs, rankings, index and reference prices. */
export interface Tickers {
  /** The Pair of series `s` at `ts` (ms). */
  pairOf(s: Series, ts: number): Pair;
  /** The Pair of a listing now; undefined for an unknown listing. */
  pair(symbol: string, type: MarketType): Pair | undefined;
  /** Pairs of one quote currency and type, display order. */
  pairs(mainCur: string, type: MarketType): Pair[];
  /** A ranking (UPDOWN by change desc, VOLUME by 24 h quote volume desc, PROJECT new listings, TOP headline pairs). */
  indexCoin(kind: IndexCoinType): Pair[];
  /** Sets the index price (decimal string in quote) of the contract listing `symbol` at ts (ms); ignores <= 0. */
  setIndexPrice(symbol: string, price: string, ts?: number): void;
  /** Index price of a contract listing as a decimal string, or null before the index job ran. */
  indexPrice(symbol: string): string | null;
  /** Reference price of a listing now (decimal string at its priceDecimals), or null without reference paths. */
  referencePrice(symbol: string, type?: MarketType): string | null;
}

/** Tickers over the live series. */
export function createTickers(deps: TickersDeps): Tickers {
  const { config, host, catalogue, series, reference, now } = deps;
  const indexPrices = new Map<string, bigint>(); // contract symbol -> price units

  /** The fed figures of contract listing `l` at `ts`, or undefined (no feed, no price yet, other decimals). */
  function fedFigures(l: Listing, ts: number): (ContractFigures & { last: bigint }) | undefined {
    if (l.type !== 'CONTRACT') return undefined;
    const f = deps.contracts?.()?.figures(l.symbol, ts);
    if (!f || f.last === null || f.priceDecimals !== l.priceDecimals || f.qtyDecimals !== l.qtyDecimals) return undefined;
    return { ...f, last: f.last };
  }

  /** Last price of a listing in price units: spot = last trade, else reference, else last bar; contract = index. */
  function lastUnits(s: Series, ts: number): bigint | null {
    const l = s.listing;
    if (l.type === 'SPOT') {
      const traded = host.engine.lastPrice(l.symbol);
      if (traded !== null) return traded;
    } else {
      // The perpetual contract of that symbol: its last trade, else its mark price, else the index.
      const st = host.engine.perpMarket(l.symbol)?.priceDecimals === l.priceDecimals ? host.engine.perpMarkState(l.symbol) : undefined;
      const perp = st?.lastPrice ?? st?.markPrice ?? null;
      if (perp !== null) return perp;
      const idx = indexPrices.get(l.symbol);
      if (idx !== undefined) return idx;
    }
    const ref = reference.units(l, ts);
    if (ref !== null) return ref;
    const cur = s.current.get('1min');
    if (cur) return cur.close;
    return s.window.stats(ts).close;
  }

  /** CNY value of `priceUnits` of listing `l`: 2 decimals, or 4 below 1 CNY; '0.00' when a BTC rate is missing. */
  function cnyOf(l: Listing, priceUnits: bigint, ts: number): string {
    const rate = toUnits(config.usdtCnyRate, ASSET_SCALE);
    let value: bigint; // CNY in 10^-(decimals) units
    let decimals: number;
    if (l.quote === 'USDT') {
      value = priceUnits * rate;
      decimals = l.priceDecimals + ASSET_SCALE;
    } else {
      const q = series.get('SPOT', `${l.quote}/USDT`);
      const qp = q ? lastUnits(q, ts) : null;
      if (!q || qp === null) return '0.00';
      value = priceUnits * qp * rate;
      decimals = l.priceDecimals + q.listing.priceDecimals + ASSET_SCALE;
    }
    const one = pow10(decimals);
    const out = value >= one ? 2 : 4;
    return fromUnits(rescale(value, decimals, out), out);
  }

  function pairOf(s: Series, ts: number): Pair {
    const l = s.listing;
    const fed = fedFigures(l, ts);
    // A fed contract listing: the perpetual's figures (already including its last price in high and low).
    const st = fed ?? s.window.stats(ts);
    const last = fed ? fed.last : (lastUnits(s, ts) ?? 0n);
    const high = st.high === null ? last : fed ? st.high : maxB(st.high, last);
    const low = st.low === null ? last : fed ? st.low : minB(st.low, last);
    const pair: Pair = {
      pairsName: l.symbol,
      tokenCur: l.base,
      mainCur: l.quote,
      type: l.type,
      price: fromUnits(last, l.priceDecimals),
      chPrice: cnyOf(l, last, ts),
      updown: st.open === null ? '0.00' : percentChange(st.open, last),
      volume: fromUnits(st.volume, l.qtyDecimals),
      quoteVolume: fromUnits(st.quoteVolume, ASSET_SCALE),
      high: fromUnits(high, l.priceDecimals),
      low: fromUnits(low, l.priceDecimals),
      priceDecimals: l.priceDecimals,
      qtyDecimals: l.qtyDecimals,
      tickSize: l.tickSize,
      stepSize: l.stepSize,
      minQty: l.minQty,
      minNotional: l.minNotional,
      isNew: l.isNew,
      demoData: l.demoData,
    };
    if (l.type === 'CONTRACT') {
      const idx = fed?.index ?? indexPrices.get(l.symbol);
      pair.indexPrice = fromUnits(idx ?? last, l.priceDecimals);
    }
    return pair;
  }

  return {
    pairOf,
    pair(symbol, type) {
      const s = series.get(type, symbol);
      return s ? pairOf(s, now()) : undefined;
    },
    pairs(mainCur, type) {
      const t = now();
      return [...series.all()].filter((s) => s.listing.type === type && s.listing.quote === mainCur).map((s) => pairOf(s, t));
    },
    indexCoin(kind) {
      const t = now();
      if (kind === 'TOP') {
        return TOP_PAIRS.map((sym) => series.get('SPOT', sym))
          .filter((s): s is Series => s !== undefined)
          .map((s) => pairOf(s, t));
      }
      const usdtSpot = [...series.all()].filter((s) => s.listing.type === 'SPOT' && s.listing.quote === 'USDT');
      if (kind === 'PROJECT') {
        return usdtSpot
          .filter((s) => s.listing.isNew)
          .sort((a, b) => b.listing.listedAt - a.listing.listedAt)
          .map((s) => pairOf(s, t));
      }
      const pairs = usdtSpot.map((s) => pairOf(s, t));
      const key = (p: Pair) => (kind === 'UPDOWN' ? toUnits(p.updown, 2) : toUnits(p.quoteVolume, ASSET_SCALE));
      // Stable sort: ties keep display order.
      return pairs
        .map((p, i) => ({ p, i, k: key(p) }))
        .sort((a, b) => (a.k > b.k ? -1 : a.k < b.k ? 1 : a.i - b.i))
        .map((x) => x.p);
    },
    setIndexPrice(symbol, price, ts = now()) {
      const s = series.get('CONTRACT', symbol);
      if (!s) return;
      const units = toUnits(price, s.listing.priceDecimals);
      if (units <= 0n) return;
      indexPrices.set(symbol, units);
      // A fed listing's bars are its perpetual's trade bars; without a feed its bars follow the index (no volume).
      if (deps.contracts?.()?.figures(symbol, ts) === undefined) series.applyTick(s, ts, units);
    },
    indexPrice(symbol) {
      const l = catalogue.listing(symbol, 'CONTRACT');
      const v = indexPrices.get(symbol);
      return l && v !== undefined ? fromUnits(v, l.priceDecimals) : null;
    },
    referencePrice(symbol, type = 'SPOT') {
      const l = catalogue.listing(symbol, type);
      if (!l) return null;
      const v = reference.units(l, now());
      return v === null ? null : fromUnits(v, l.priceDecimals);
    },
  };
}
