/**
 * Reference prices: the price paths of real history (ReferencePaths, attached by the feeds job) read as prices
 * and bars of a listing. USDT pairs read their base coin's path; cross pairs (X/BTC) read a pair path when the
 * paths have one, else divide X/USDT by BTC/USDT. Prices are bigint price units of the listing (10^-priceDecimals
 * quote), volumes qty units, quote volumes quote asset units (10^-ASSET_SCALE); no floats.
 */
import type { FastifyBaseLogger } from 'fastify';
import { KLINE_PERIOD_MS, type KlinePeriod } from '@exchange/api';
import type { PriceBar, ReferencePaths } from './price-source';
import type { Listing } from './catalogue';
import { divRound, maxB, minB, pow10, rescale, toUnits } from '../../platform/shared/decimal';
import type { Bar } from './kline-math';
import { ASSET_SCALE } from './seed/catalog';

/** Quote units of `qty` (qty units) at `price` (price units) in listing `l`: exact (pd + qd <= 8). */
function quoteOf(l: Listing, price: bigint, qty: bigint): bigint {
  return price * qty * pow10(ASSET_SCALE - l.priceDecimals - l.qtyDecimals);
}

/** Converts a reference bar (decimal strings) into a bar of listing `l`, keeping high >= open, close >= low. */
export function barFromReference(l: Listing, p: PriceBar): Bar {
  const open = toUnits(p.open, l.priceDecimals);
  const close = toUnits(p.close, l.priceDecimals);
  const high = maxB(toUnits(p.high, l.priceDecimals), maxB(open, close));
  const low = minB(toUnits(p.low, l.priceDecimals), minB(open, close));
  const volume = toUnits(p.volume, l.qtyDecimals);
  // The reference carries no VWAP: the quote volume of a history bar uses the bar's mean of O, H, L, C.
  const typical = (open + high + low + close) / 4n;
  return { time: p.time, open, high, low, close, volume, quoteVolume: quoteOf(l, typical, volume) };
}

/** The reference paths as prices and bars of listings; empty answers until paths are attached. */
export interface ReferencePrices {
  /** The attached paths, or undefined before the feeds job attached them. */
  paths: ReferencePaths | undefined;
  /** Reference price of `l` at `ts` (ms) in price units, or null (no paths, no path of a coin, a failing path). */
  units(l: Listing, ts: number): bigint | null;
  /** Bars of `l` and `period` opening in [from, to) ms, oldest first; cross pairs derived from two USDT paths. */
  bars(l: Listing, period: KlinePeriod, from: number, to: number): Bar[];
}

/** Reference prices over `paths` (may be attached later by assigning `paths`); failures are logged to `log`. */
export function createReferencePrices(log: FastifyBaseLogger, paths?: ReferencePaths): ReferencePrices {
  const ref: ReferencePrices = {
    paths,
    units(l, ts) {
      const p = ref.paths;
      if (!p) return null;
      try {
        const pairPath = l.quote === 'USDT' ? undefined : p.pair?.(l.base, l.quote);
        if (pairPath) return toUnits(pairPath.priceAt(ts), l.priceDecimals);
        const basePath = p.get(l.base);
        if (!basePath) return null;
        const baseUsdt = toUnits(basePath.priceAt(ts), ASSET_SCALE);
        if (l.quote === 'USDT') return rescale(baseUsdt, ASSET_SCALE, l.priceDecimals);
        const quotePath = p.get(l.quote);
        if (!quotePath) return null;
        const quoteUsdt = toUnits(quotePath.priceAt(ts), ASSET_SCALE);
        if (quoteUsdt <= 0n) return null;
        return divRound(baseUsdt * pow10(l.priceDecimals), quoteUsdt);
      } catch (err) {
        log.warn({ err, symbol: l.symbol }, 'reference price unavailable');
        return null;
      }
    },
    bars(l, period, from, to) {
      const p = ref.paths;
      if (!p) return [];
      const ms = KLINE_PERIOD_MS[period];
      const basePath = p.get(l.base);
      if (!basePath) return [];
      if (l.quote === 'USDT') return basePath.bars(ms, from, to).map((b) => barFromReference(l, b));
      const pairPath = p.pair?.(l.base, l.quote);
      if (pairPath) return pairPath.bars(ms, from, to).map((b) => barFromReference(l, b));
      const quotePath = p.get(l.quote);
      if (!quotePath) return [];
      const quoteBars = new Map(quotePath.bars(ms, from, to).map((b) => [b.time, b]));
      const out: Bar[] = [];
      const ratio = (a: string, b: string): bigint | null => {
        const den = toUnits(b, ASSET_SCALE);
        return den > 0n ? divRound(toUnits(a, ASSET_SCALE) * pow10(l.priceDecimals), den) : null;
      };
      for (const x of basePath.bars(ms, from, to)) {
        const q = quoteBars.get(x.time);
        if (!q) continue;
        const open = ratio(x.open, q.open);
        const close = ratio(x.close, q.close);
        const hi = ratio(x.high, q.high);
        const lo = ratio(x.low, q.low);
        if (open === null || close === null || hi === null || lo === null) continue;
        const high = maxB(hi, maxB(open, close));
        const low = minB(lo, minB(open, close));
        // Derived history: the cross pair's base volume is taken as 5% of the base coin's USDT-market volume.
        const volume = toUnits(x.volume, l.qtyDecimals) / 20n;
        out.push({ time: x.time, open, high, low, close, volume, quoteVolume: quoteOf(l, (open + high + low + close) / 4n, volume) });
      }
      return out;
    },
  };
  return ref;
}
