/**
 * ReferencePath implementations (price-source.ts) over a wall-clock bar series: the live price at any ms and
 * OHLCV bars of any period, both computed from the same seeded bridge inside each bar, so k-line history and
 * the live replay agree. Floats inside the model; every price leaves as a decimal string.
 */
import { formatDecimal } from '@exchange/core';
import { bridgeKnots, clamp } from './bridge';
import type { WallBarSeries } from './bar-series';
import { mixSeed } from './prng';
import type { PathProvenance, PriceBar, ReferencePath } from '../market-data/price-source';

/** One bar in floats (quote currency, base volume); time = bar open, Unix ms. */
export interface FloatBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** One week in ms; weekly bars open on Monday 00:00 UTC. */
export const WEEK_MS = 604_800_000;
/** 1970-01-05T00:00Z, the first Monday after the epoch: the origin of weekly bars. */
export const WEEK_ORIGIN_TS = 345_600_000;
/** Most bars one `bars()` call may return (protects the server from a runaway range). */
export const MAX_BARS_PER_CALL = 200_000;

function mod(a: number, m: number): number {
  const r = a % m;
  return r < 0 ? r + m : r;
}

/** Start of the period of `periodMs` that contains ts: weeks from Monday 00:00 UTC, others from the epoch. */
export function periodStart(ts: number, periodMs: number): number {
  const origin = periodMs === WEEK_MS ? WEEK_ORIGIN_TS : 0;
  return ts - mod(ts - origin, periodMs);
}

/** A float as an integer count of 10^-decimals units (round half away from zero; monotone in x). */
export function toUnits(x: number, decimals: number): bigint {
  return BigInt(Math.round(x * 10 ** decimals));
}

/** A float as a decimal string with exactly `decimals` fraction digits (via integer units, no float formatting). */
export function formatFloat(x: number, decimals: number): string {
  return formatDecimal(toUnits(x, decimals), decimals);
}

/** Float bars as PriceBar strings. */
function formatBars(bars: FloatBar[], priceDecimals: number, volumeDecimals: number): PriceBar[] {
  return bars.map((b) => ({
    time: b.time,
    open: formatFloat(b.open, priceDecimals),
    high: formatFloat(b.high, priceDecimals),
    low: formatFloat(b.low, priceDecimals),
    close: formatFloat(b.close, priceDecimals),
    volume: formatFloat(b.volume, volumeDecimals),
  }));
}

/** Checks the arguments of bars() and returns the first period start. Throws RangeError on bad input. */
function checkRange(periodMs: number, fromTs: number, toTs: number): number {
  if (!Number.isSafeInteger(periodMs) || periodMs < 60_000 || periodMs > WEEK_MS) throw new RangeError(`bad periodMs ${periodMs}`);
  if (!Number.isSafeInteger(fromTs) || !Number.isSafeInteger(toTs)) throw new RangeError('bad time range');
  const first = periodStart(fromTs, periodMs);
  if (toTs > first && (toTs - first) / periodMs > MAX_BARS_PER_CALL) throw new RangeError('too many bars requested');
  return first;
}

/** A path that can also answer in floats (used to derive cross pairs). */
export interface FloatPath extends ReferencePath {
  readonly priceDecimals: number;
  /** Model value (float) at wall ts. */
  valueAt(ts: number): number;
  /** Float bars of `periodMs` covering [fromTs, toTs), aligned as `periodStart`. */
  floatBars(periodMs: number, fromTs: number, toTs: number): FloatBar[];
}

interface KnotEntry {
  knots: Float64Array;
  /** Total path length (sum of |steps|) of the bar. */
  length: number;
}

/** Options of a series-backed path. */
export interface SeriesPathOptions {
  base: string;
  quote: string;
  provenance: PathProvenance;
  series: WallBarSeries;
  /** Seed of the coin; the bridge of data bar i is seeded by mixSeed(seed, i). */
  seed: number;
  /** Knots per bar (the bridge's resolution): barMs / knots must be a whole number of ms. */
  knotsPerBar: number;
  priceDecimals: number;
  volumeDecimals: number;
}

/** The reference path of one coin over a bar series (real replay or seeded model). */
export class SeriesPath implements FloatPath {
  readonly base: string;
  readonly quote: string;
  readonly provenance: PathProvenance;
  readonly priceDecimals: number;
  readonly volumeDecimals: number;
  readonly series: WallBarSeries;
  private readonly seed: number;
  private readonly K: number;
  private readonly knotMs: number;
  private readonly cache = new Map<number, KnotEntry>();

  constructor(o: SeriesPathOptions) {
    this.base = o.base;
    this.quote = o.quote;
    this.provenance = o.provenance;
    this.priceDecimals = o.priceDecimals;
    this.volumeDecimals = o.volumeDecimals;
    this.series = o.series;
    this.seed = o.seed;
    this.K = o.knotsPerBar;
    this.knotMs = o.series.barMs / o.knotsPerBar;
    if (!Number.isInteger(this.knotMs)) throw new RangeError('barMs must be a multiple of knotsPerBar');
  }

  /** The bridge knots of data bar i (forward orientation), cached (LRU of 512 bars). */
  private knotsOf(dataIndex: number): KnotEntry {
    const hit = this.cache.get(dataIndex);
    if (hit) {
      this.cache.delete(dataIndex);
      this.cache.set(dataIndex, hit);
      return hit;
    }
    const knots = bridgeKnots(this.series.dataBar(dataIndex), this.K, mixSeed(this.seed, dataIndex));
    let length = 0;
    for (let j = 1; j <= this.K; j++) length += Math.abs((knots[j] as number) - (knots[j - 1] as number));
    const entry = { knots, length };
    this.cache.set(dataIndex, entry);
    if (this.cache.size > 512) this.cache.delete(this.cache.keys().next().value as number);
    return entry;
  }

  /** Value at a knot position (0..K, fractional) inside wall bar k's knots in wall orientation. */
  private static interp(knots: Float64Array, K: number, reversed: boolean, pos: number): number {
    const at = (j: number) => (reversed ? (knots[K - j] as number) : (knots[j] as number));
    if (pos >= K) return at(K);
    const i = Math.floor(pos);
    const f = pos - i;
    const a = at(i);
    if (f === 0) return a;
    const b = at(i + 1);
    return clamp(a + (b - a) * f, Math.min(a, b), Math.max(a, b));
  }

  valueAt(ts: number): number {
    const s = this.series;
    const k = Math.floor((ts - s.originTs) / s.barMs);
    const offset = ts - s.originTs - k * s.barMs;
    const wb = s.wallBar(k);
    const { knots } = this.knotsOf(wb.dataIndex);
    return SeriesPath.interp(knots, this.K, wb.reversed, offset / this.knotMs);
  }

  priceAt(ts: number): string {
    return formatFloat(this.valueAt(ts), this.priceDecimals);
  }

  /**
   * OHLC of wall bar k over [so, eo) ms offsets inside it: open = value at so, close = the value just before eo,
   * high/low over every knot in between (the path is linear between knots, so these are its exact extremes);
   * volume = the bar's volume spread half by time and half by path length.
   */
  private segment(k: number, so: number, eo: number): FloatBar {
    const wb = this.series.wallBar(k);
    const { knots, length } = this.knotsOf(wb.dataIndex);
    const K = this.K;
    const ps = so / this.knotMs;
    const pe = eo / this.knotMs;
    const open = SeriesPath.interp(knots, K, wb.reversed, ps);
    const close = SeriesPath.interp(knots, K, wb.reversed, pe);
    let high = Math.max(open, close);
    let low = Math.min(open, close);
    let prev = open;
    let len = 0;
    for (let j = Math.floor(ps) + 1; j < pe; j++) {
      const v = wb.reversed ? (knots[K - j] as number) : (knots[j] as number);
      if (v > high) high = v;
      if (v < low) low = v;
      len += Math.abs(v - prev);
      prev = v;
    }
    len += Math.abs(close - prev);
    const timeShare = (eo - so) / this.series.barMs;
    const pathShare = length > 0 ? len / length : timeShare;
    return { time: 0, open, high, low, close, volume: wb.bar.volume * (0.5 * timeShare + 0.5 * pathShare) };
  }

  floatBars(periodMs: number, fromTs: number, toTs: number): FloatBar[] {
    const s = this.series;
    const out: FloatBar[] = [];
    for (let p = checkRange(periodMs, fromTs, toTs); p < toTs; p += periodMs) {
      const end = p + periodMs;
      if (periodMs >= s.barMs && periodMs % s.barMs === 0 && mod(p - s.originTs, s.barMs) === 0) {
        // Whole real bars: OHLC from the bars themselves.
        const k1 = (p - s.originTs) / s.barMs;
        const k2 = k1 + periodMs / s.barMs;
        const agg = s.aggregate(k1, k2);
        out.push({ time: p, open: s.wallBar(k1).bar.open, high: agg.high, low: agg.low, close: s.wallBar(k2 - 1).bar.close, volume: agg.volume });
        continue;
      }
      let bar: FloatBar | null = null;
      for (let k = Math.floor((p - s.originTs) / s.barMs); ; k++) {
        const barStart = s.originTs + k * s.barMs;
        if (barStart >= end) break;
        const seg = this.segment(k, Math.max(p, barStart) - barStart, Math.min(end, barStart + s.barMs) - barStart);
        if (bar === null) bar = { ...seg, time: p };
        else {
          bar.high = Math.max(bar.high, seg.high);
          bar.low = Math.min(bar.low, seg.low);
          bar.close = seg.close;
          bar.volume += seg.volume;
        }
      }
      if (bar) out.push(bar);
    }
    return out;
  }

  bars(periodMs: number, fromTs: number, toTs: number): PriceBar[] {
    return this.memo.get(`${periodMs}:${fromTs}:${toTs}`, () => formatBars(this.floatBars(periodMs, fromTs, toTs), this.priceDecimals, this.volumeDecimals));
  }
  /** Recent bars() answers: the spot and the contract listing of a coin ask for the same history at start. */
  private readonly memo = new BarsMemo();
}

/** A small memo of bars() answers (the path is deterministic, so an answer never goes stale). */
class BarsMemo {
  private readonly map = new Map<string, PriceBar[]>();
  get(key: string, compute: () => PriceBar[]): PriceBar[] {
    let v = this.map.get(key);
    if (!v) {
      v = compute();
      this.map.set(key, v);
      if (this.map.size > 64) this.map.delete(this.map.keys().next().value as string);
    }
    return v.map((b) => ({ ...b }));
  }
}

/**
 * A cross pair (e.g. ETH/BTC) derived from two USDT paths: price = base / quote at every ms. Bars: open and
 * close are the ratios of the legs' opens and closes; high = base high / quote low and low = base low / quote
 * high, the tightest bounds that are sure to contain every ratio inside the bar (so wicks can be a little wider
 * than the ratio's own path). Volume = `volumeShare` of the base leg's volume.
 */
export class CrossPath implements FloatPath {
  readonly base: string;
  readonly quote: string;
  readonly provenance: PathProvenance;
  constructor(
    private readonly baseLeg: FloatPath,
    private readonly quoteLeg: FloatPath,
    readonly priceDecimals: number,
    private readonly volumeDecimals: number,
    private readonly volumeShare: number,
  ) {
    this.base = baseLeg.base;
    this.quote = quoteLeg.base;
    this.provenance = {
      demoData: baseLeg.provenance.demoData || quoteLeg.provenance.demoData,
      source: `derived: ${baseLeg.base}/${baseLeg.quote} divided by ${quoteLeg.base}/${quoteLeg.quote} (${baseLeg.provenance.source}; ${quoteLeg.provenance.source})`,
    };
  }
  valueAt(ts: number): number {
    return this.baseLeg.valueAt(ts) / this.quoteLeg.valueAt(ts);
  }
  priceAt(ts: number): string {
    return formatFloat(this.valueAt(ts), this.priceDecimals);
  }
  floatBars(periodMs: number, fromTs: number, toTs: number): FloatBar[] {
    const a = this.baseLeg.floatBars(periodMs, fromTs, toTs);
    const b = this.quoteLeg.floatBars(periodMs, fromTs, toTs);
    return a.map((x, i) => {
      const y = b[i] as FloatBar;
      return { time: x.time, open: x.open / y.open, high: x.high / y.low, low: x.low / y.high, close: x.close / y.close, volume: x.volume * this.volumeShare };
    });
  }
  bars(periodMs: number, fromTs: number, toTs: number): PriceBar[] {
    return formatBars(this.floatBars(periodMs, fromTs, toTs), this.priceDecimals, this.volumeDecimals);
  }
}
