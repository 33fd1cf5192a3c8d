/**
 * Bar series laid on the wall clock. Wall bar k covers [originTs + k*barMs, originTs + (k+1)*barMs).
 * - `ReplaySeries`: real bars replayed at 1:1 speed, ping-ponging (forwards, then backwards) through the data so
 *   the path is continuous at both ends; a reversed bar runs from its close back to its open.
 * - `SyntheticSeries`: a seeded model evaluated per bar index with no state (demo coins).
 */
import type { SimBar } from './bridge';
import { gaussianAt, mixSeed, Prng } from './prng';

/** Wall bar k resolved: the bar as it runs on the wall clock, and which data bar (bridge seed) it comes from. */
export interface WallBar {
  bar: SimBar;
  /** Index of the underlying data bar (the bridge inside it is seeded by coin + this index). */
  dataIndex: number;
  /** true when the replay runs backwards through this bar (open and close swapped, path reversed). */
  reversed: boolean;
}

/** A series of bars on the wall clock. */
export interface WallBarSeries {
  readonly barMs: number;
  /** Wall ts where wall bar 0 opens; a multiple of barMs plus any phase the data has. */
  readonly originTs: number;
  /** The data bar (forward orientation) at a data index. */
  dataBar(dataIndex: number): SimBar;
  wallBar(k: number): WallBar;
  /** High, low and total volume over wall bars [k1, k2) (k2 > k1). */
  aggregate(k1: number, k2: number): { high: number; low: number; volume: number };
}

function mod(a: number, m: number): number {
  const r = a % m;
  return r < 0 ? r + m : r;
}

/** Range max/min tables (sparse tables) plus volume prefix sums over a fixed array of bars. */
class RangeIndex {
  private readonly maxT: Float64Array[] = [];
  private readonly minT: Float64Array[] = [];
  private readonly volPrefix: Float64Array;
  constructor(high: Float64Array, low: Float64Array, vol: Float64Array) {
    const n = high.length;
    this.maxT.push(high);
    this.minT.push(low);
    for (let p = 1; 1 << p <= n; p++) {
      const prevMax = this.maxT[p - 1] as Float64Array;
      const prevMin = this.minT[p - 1] as Float64Array;
      const len = n - (1 << p) + 1;
      const mx = new Float64Array(len);
      const mn = new Float64Array(len);
      const half = 1 << (p - 1);
      for (let i = 0; i < len; i++) {
        mx[i] = Math.max(prevMax[i] as number, prevMax[i + half] as number);
        mn[i] = Math.min(prevMin[i] as number, prevMin[i + half] as number);
      }
      this.maxT.push(mx);
      this.minT.push(mn);
    }
    this.volPrefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) this.volPrefix[i + 1] = (this.volPrefix[i] as number) + (vol[i] as number);
  }
  /** Inclusive range [a, b]. */
  query(a: number, b: number): { high: number; low: number; volume: number } {
    const p = 31 - Math.clz32(b - a + 1);
    const mx = this.maxT[p] as Float64Array;
    const mn = this.minT[p] as Float64Array;
    const j = b - (1 << p) + 1;
    return {
      high: Math.max(mx[a] as number, mx[j] as number),
      low: Math.min(mn[a] as number, mn[j] as number),
      volume: (this.volPrefix[b + 1] as number) - (this.volPrefix[a] as number),
    };
  }
}

/** Column arrays of a contiguous (gap-free) real series, oldest first. */
export interface BarColumns {
  /** Open time of bar 0 in data time (Unix ms). */
  startTs: number;
  barMs: number;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/**
 * Real bars replayed on the wall clock: wall ts t shows data time t - offsetMs, reflected at both ends of the
 * data (period 2N bars). offsetMs must be a multiple of barMs so wall bars line up with data bars.
 */
export class ReplaySeries implements WallBarSeries {
  readonly barMs: number;
  readonly originTs: number;
  readonly length: number;
  private readonly index: RangeIndex;
  constructor(
    private readonly cols: BarColumns,
    offsetMs: number,
  ) {
    if (offsetMs % cols.barMs !== 0) throw new RangeError('offsetMs must be a multiple of barMs');
    this.barMs = cols.barMs;
    this.originTs = cols.startTs + offsetMs;
    this.length = cols.open.length;
    if (this.length < 1) throw new RangeError('empty series');
    this.index = new RangeIndex(cols.high, cols.low, cols.volume);
  }
  dataBar(i: number): SimBar {
    const c = this.cols;
    return { open: c.open[i] as number, high: c.high[i] as number, low: c.low[i] as number, close: c.close[i] as number, volume: c.volume[i] as number };
  }
  wallBar(k: number): WallBar {
    const n = this.length;
    const m = mod(k, 2 * n);
    if (m < n) return { bar: this.dataBar(m), dataIndex: m, reversed: false };
    const i = 2 * n - 1 - m;
    const b = this.dataBar(i);
    return { bar: { open: b.close, high: b.high, low: b.low, close: b.open, volume: b.volume }, dataIndex: i, reversed: true };
  }
  aggregate(k1: number, k2: number): { high: number; low: number; volume: number } {
    const n = this.length;
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    let k = k1;
    // Whole cycles (2N wall bars) visit every data bar twice.
    const cycles = Math.floor((k2 - k1) / (2 * n));
    if (cycles > 0) {
      const all = this.index.query(0, n - 1);
      high = all.high;
      low = all.low;
      volume = 2 * cycles * all.volume;
      k += cycles * 2 * n;
    }
    while (k < k2) {
      const m = mod(k, 2 * n);
      let a: number;
      let b: number;
      let len: number;
      if (m < n) {
        len = Math.min(n - m, k2 - k);
        a = m;
        b = m + len - 1;
      } else {
        len = Math.min(2 * n - m, k2 - k);
        b = 2 * n - 1 - m;
        a = b - len + 1;
      }
      const r = this.index.query(a, b);
      if (r.high > high) high = r.high;
      if (r.low < low) low = r.low;
      volume += r.volume;
      k += len;
    }
    return { high, low, volume };
  }
}

/** Parameters of a demo coin's seeded model. */
export interface SyntheticModel {
  /** Seed of the coin (hash of its code). */
  seed: number;
  /** Price level the model reverts around (quote currency). */
  level: number;
  /** Standard deviation of the log price change per bar (e.g. 0.008 for 0.8% per hour). */
  sigmaPerBar: number;
  /** Typical traded value per bar in quote currency (volume in base = value / price). */
  valuePerBar: number;
}

/** Amplitude factor of each octave, calibrated so the hourly log-return deviation is close to sigmaPerBar. */
const OCTAVE_GAIN = 0.45;

/**
 * Evaluates the model's log price at bar boundaries. Keeps the lattice values of each octave it last used, so
 * walking k upwards costs about two normal deviates per bar instead of two per octave.
 */
class LogPriceWalker {
  private readonly lattice: Array<{ i: number; a: number; b: number }> = [];
  private readonly gains: number[] = [];
  private readonly logLevel: number;
  constructor(private readonly model: SyntheticModel) {
    for (let o = 0; o < OCTAVES; o++) {
      this.lattice.push({ i: Number.NaN, a: 0, b: 0 });
      this.gains.push(OCTAVE_GAIN * model.sigmaPerBar * Math.sqrt(2 ** o));
    }
    this.logLevel = Math.log(model.level);
  }
  at(k: number): number {
    let x = this.logLevel;
    for (let o = 0; o < OCTAVES; o++) {
      const pos = k / 2 ** o;
      const i = Math.floor(pos);
      const f = pos - i;
      const cell = this.lattice[o] as { i: number; a: number; b: number };
      if (cell.i !== i) {
        cell.a = cell.i === i - 1 ? cell.b : gaussianAt(mixSeed(this.model.seed, o, i));
        cell.b = gaussianAt(mixSeed(this.model.seed, o, i + 1));
        cell.i = i;
      }
      const s = f * f * (3 - 2 * f);
      x += (this.gains[o] as number) * (cell.a + (cell.b - cell.a) * s);
    }
    return x;
  }
}

/** Number of octaves of the model: bar length * 2^0 .. 2^11 (1 h .. 85 days for hourly bars). */
const OCTAVES = 12;

/**
 * Demo coin path: log price = ln(level) + a sum of value-noise octaves (bar length * 2^o), each octave's amplitude
 * growing like sqrt(2^o) as for a random walk, up to about three months; beyond that the noise has no more
 * variance, so the price reverts around `level`. Evaluated per bar boundary with no state, so any bar of any
 * time can be computed directly. The wall clock is aligned to the Unix epoch (origin 0).
 */
export class SyntheticSeries implements WallBarSeries {
  readonly originTs = 0;
  /** Recently computed bars and aggregates (LRU): k-line backfills ask for the same ranges per listing. */
  private readonly barCache = new Map<number, SimBar>();
  private readonly aggCache = new Map<string, { high: number; low: number; volume: number }>();
  constructor(
    readonly barMs: number,
    private readonly model: SyntheticModel,
  ) {}
  /** Log price at bar boundary k. */
  private logPriceAt(k: number): number {
    return new LogPriceWalker(this.model).at(k);
  }
  dataBar(k: number): SimBar {
    const hit = this.barCache.get(k);
    if (hit) return hit;
    const bar = this.barBetween(k, this.logPriceAt(k), this.logPriceAt(k + 1));
    remember(this.barCache, k, bar, 8192);
    return bar;
  }
  /** Bar k given its log open and log close (extremes and volume are seeded by k). */
  private barBetween(k: number, logOpen: number, logClose: number): SimBar {
    const open = Math.exp(logOpen);
    const close = Math.exp(logClose);
    const s = this.model.sigmaPerBar;
    const rng = new Prng(mixSeed(this.model.seed, 1001, k));
    const up = Math.abs(rng.nextGaussian());
    const down = Math.abs(rng.nextGaussian());
    const activity = Math.exp(0.4 * rng.nextGaussian());
    const move = Math.abs(logClose - logOpen) / s;
    const high = Math.max(open, close) * Math.exp(up * s * 0.6);
    const low = Math.min(open, close) * Math.exp(-down * s * 0.6);
    const volume = (this.model.valuePerBar * activity * (0.6 + 0.4 * move)) / ((open + close) / 2);
    return { open, high, low, close, volume };
  }
  wallBar(k: number): WallBar {
    return { bar: this.dataBar(k), dataIndex: k, reversed: false };
  }
  aggregate(k1: number, k2: number): { high: number; low: number; volume: number } {
    const key = `${k1}:${k2}`;
    const hit = this.aggCache.get(key);
    if (hit) return hit;
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    const walker = new LogPriceWalker(this.model);
    let logOpen = walker.at(k1);
    for (let k = k1; k < k2; k++) {
      const logClose = walker.at(k + 1);
      const b = this.barBetween(k, logOpen, logClose);
      logOpen = logClose;
      if (b.high > high) high = b.high;
      if (b.low < low) low = b.low;
      volume += b.volume;
    }
    const agg = { high, low, volume };
    remember(this.aggCache, key, agg, 4096);
    return agg;
  }
}

/** Puts a value in a bounded insertion-ordered cache, dropping the oldest entry beyond `max`. */
function remember<K, V>(cache: Map<K, V>, key: K, value: V, max: number): void {
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value as K);
}
