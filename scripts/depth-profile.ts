/**
 * `npm run depth-profile`: derives the compact depth and taker-flow profile of Binance spot BTCUSDT and ETHUSDT
 * from the raw capture in ../shared/data/binance-ws-capture-hftbacktest (nkaz001/hftbacktest, MIT; see its
 * PROVENANCE.md) and prints it with the TypeScript constants that apps/server/src/domains/market-jobs/depth-profile.ts commits.
 * The raw files are read in place, never copied.
 *
 * Depth: the book is rebuilt with Binance's snapshot + diff procedure (bench/src/data/binance.ts) and sampled
 * once a second of exchange time (about 650 samples over 11 minutes). At each sample, per side: the notional of
 * the best level, the cumulative notional (quote value, price x quantity) of every level within 0.1 .. 100 bps of
 * the mid, and the number of levels within 10 and 100 bps; the spread in ticks. Each figure is the median over
 * the samples. The REST snapshot holds 1,000 levels a side, which can end before 100 bps (BTC asks end near
 * 35 bps): a distance beyond the snapshot's last level on a side is taken from the other side only, and one beyond
 * both (BTC past 35 bps) is the mean of what the diffs showed there, a lower bound (marked with >= below).
 * Taker flow: the trade tape (trades_spot_<sym>.csv.gz) in windows of TAKER_WINDOW_MS; each window's volume as
 * per mille of the mean window, and its deciles.
 * Exact integers throughout (prices and quantities scaled by 10^8 as bigint); no floating point.
 *
 *   npx tsx scripts/depth-profile.ts [--data DIR]   (default DIR: ../shared/data, or BENCH_DATA_DIR)
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { loadBinanceCapture, type RawLevel } from '../bench/src/data/binance';
import { toUnits } from '../bench/src/data/decimal';
import { dataRoot } from '../bench/src/data/paths';

/** Distances from the mid at which cumulative depth is measured, ppm of the mid (1 bps = 100 ppm). 0 = best level only. */
export const PROFILE_PPM = [0n, 10n, 25n, 50n, 100n, 200n, 500n, 1000n, 2500n, 5000n, 10000n] as const;
/** Sample the book once per this many ms of exchange time. */
const SAMPLE_MS = 1000;
/** Taker-flow window (ms): about one bot taker order. */
export const TAKER_WINDOW_MS = 3000;
/** Everything is scaled by 10^8 (Binance sends 8 decimals). */
const S = 100_000_000n;
/** Binance's tick of both symbols (0.01 USDT), in 10^-8 units. */
const TICK = 1_000_000n;

type Book = Map<bigint, bigint>;

function apply(book: Book, levels: RawLevel[]): void {
  for (const [p, q] of levels) {
    const price = toUnits(p, 8);
    const qty = toUnits(q, 8);
    if (qty === 0n) book.delete(price);
    else book.set(price, qty);
  }
}

/** Median of bigints (lower middle for an even count). */
function median(xs: bigint[]): bigint {
  const s = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[(s.length - 1) >> 1] ?? 0n;
}

/** One side of one sample: best-level notional, cumulative notional at each PROFILE_PPM (10^-8 USDT), level counts. */
interface SideSample {
  cum: bigint[];
  levels10Bps: number;
  levels100Bps: number;
}

/** Cumulative depth of one side around mid2 = best bid + best ask (twice the mid). Levels sorted best first. */
function sideSample(levels: Array<[bigint, bigint]>, mid2: bigint): SideSample {
  const cum = PROFILE_PPM.map(() => 0n);
  let levels10Bps = 0;
  let levels100Bps = 0;
  let i = 0;
  for (const [price, qty] of levels) {
    const notional = (price * qty) / S; // 10^-8 USDT
    const dist2 = (2n * price > mid2 ? 2n * price - mid2 : mid2 - 2n * price) * 1_000_000n; // |p - mid| * 2e6
    if (dist2 > 10_000n * mid2) break; // beyond 100 bps
    PROFILE_PPM.forEach((ppm, k) => {
      if (k === 0 ? i === 0 : dist2 <= ppm * mid2) cum[k] = (cum[k] as bigint) + notional;
    });
    if (dist2 <= 1000n * mid2) levels10Bps++;
    levels100Bps++;
    i++;
  }
  return { cum, levels10Bps, levels100Bps };
}

/** The profile of one symbol. */
export interface SymbolProfile {
  symbol: string;
  samples: number;
  /** Median cumulative notional per PROFILE_PPM, whole USDT: bids, asks, and the profile (mean of the sides covered). */
  bids: bigint[];
  asks: bigint[];
  profile: bigint[];
  /** Snapshot coverage per side, ppm of the mid. */
  coverageBidPpm: bigint;
  coverageAskPpm: bigint;
  spreadTicksMedian: bigint;
  spreadOneTickShare: string;
  levels10Bps: { bids: number; asks: number };
  levels100Bps: { bids: number; asks: number };
  midUsdt: string;
}

function medianInt(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1] ?? 0;
}

/** Rebuilds the book of one symbol and measures the profile. */
export function profileOf(dir: string, sym: string): SymbolProfile {
  const files = ['20240808', '20240809'].map((d) => path.join(dir, 'binance-ws-capture-hftbacktest', `spot_${sym}_${d}.jsonl.gz`));
  const { events } = loadBinanceCapture(files);
  const bids: Book = new Map();
  const asks: Book = new Map();
  const bidSamples: SideSample[] = [];
  const askSamples: SideSample[] = [];
  const spreads: bigint[] = [];
  const mids: bigint[] = [];
  let coverageBidPpm = 0n;
  let coverageAskPpm = 0n;
  let nextSample = 0;
  for (const e of events) {
    if (e.kind === 'snapshot') {
      apply(bids, e.bids);
      apply(asks, e.asks);
      const bb = [...bids.keys()].reduce((a, b) => (b > a ? b : a));
      const ba = [...asks.keys()].reduce((a, b) => (b < a ? b : a));
      const lowBid = [...bids.keys()].reduce((a, b) => (b < a ? b : a));
      const highAsk = [...asks.keys()].reduce((a, b) => (b > a ? b : a));
      const mid2 = bb + ba;
      coverageBidPpm = ((mid2 - 2n * lowBid) * 1_000_000n) / mid2;
      coverageAskPpm = ((2n * highAsk - mid2) * 1_000_000n) / mid2;
      continue;
    }
    if (e.kind !== 'depth') continue;
    apply(bids, e.bids);
    apply(asks, e.asks);
    if (e.time < nextSample) continue;
    nextSample = e.time - (e.time % SAMPLE_MS) + SAMPLE_MS;
    const b = [...bids.entries()].sort((x, y) => (x[0] > y[0] ? -1 : 1));
    const a = [...asks.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    const bb = b[0]?.[0];
    const ba = a[0]?.[0];
    if (bb === undefined || ba === undefined || bb >= ba) continue;
    const mid2 = bb + ba;
    bidSamples.push(sideSample(b, mid2));
    askSamples.push(sideSample(a, mid2));
    spreads.push((ba - bb) / TICK);
    mids.push(mid2 / 2n);
  }
  const med = (ss: SideSample[], k: number) => median(ss.map((s) => s.cum[k] as bigint)) / S;
  const bidsMed = PROFILE_PPM.map((_, k) => med(bidSamples, k));
  const asksMed = PROFILE_PPM.map((_, k) => med(askSamples, k));
  const profile = PROFILE_PPM.map((ppm, k) => {
    const b = ppm <= coverageBidPpm;
    const a = ppm <= coverageAskPpm;
    const bv = bidsMed[k] as bigint;
    const av = asksMed[k] as bigint;
    // Beyond both snapshots (BTC past ~35 bps) the levels seen are only those updated since: a lower bound.
    return b === a ? (bv + av) / 2n : b ? bv : av;
  });
  const oneTick = spreads.filter((s) => s === 1n).length;
  return {
    symbol: sym.toUpperCase(),
    samples: bidSamples.length,
    bids: bidsMed,
    asks: asksMed,
    profile,
    coverageBidPpm,
    coverageAskPpm,
    spreadTicksMedian: median(spreads),
    spreadOneTickShare: `${((oneTick * 1000) / Math.max(1, spreads.length) / 10).toFixed(1)}%`,
    levels10Bps: { bids: medianInt(bidSamples.map((s) => s.levels10Bps)), asks: medianInt(askSamples.map((s) => s.levels10Bps)) },
    levels100Bps: { bids: medianInt(bidSamples.map((s) => s.levels100Bps)), asks: medianInt(askSamples.map((s) => s.levels100Bps)) },
    midUsdt: (median(mids) / S).toString(),
  };
}

/** Taker flow of one symbol's trade tape: volume per minute and the deciles of window volume (per mille of the mean). */
export interface TakerFlow {
  symbol: string;
  trades: number;
  minutes: number;
  baseVolumePerMinute: string;
  usdtPerMinute: bigint;
  /** Deciles 5%, 15%, .., 95% of the window volume, per mille of the mean window volume. */
  windowDecilesPermille: bigint[];
  /** Share of windows with no trade, per mille. */
  emptyWindowsPermille: bigint;
}

export function takerFlowOf(dir: string, sym: string): TakerFlow {
  const file = path.join(dir, 'binance-ws-capture-hftbacktest', `trades_spot_${sym}.csv.gz`);
  const lines = zlib
    .gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.length > 0);
  const windows = new Map<number, bigint>();
  let total = 0n;
  let notional = 0n;
  let first = Infinity;
  let last = -Infinity;
  for (const l of lines) {
    const [, tStr, , p, q] = l.split(',');
    const t = Number.parseInt(tStr as string, 10);
    const qty = toUnits(q as string, 8);
    const w = Math.floor(t / TAKER_WINDOW_MS);
    windows.set(w, (windows.get(w) ?? 0n) + qty);
    total += qty;
    notional += (toUnits(p as string, 8) * qty) / S;
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  const w0 = Math.floor(first / TAKER_WINDOW_MS) + 1; // whole windows only
  const w1 = Math.floor(last / TAKER_WINDOW_MS) - 1;
  const vols: bigint[] = [];
  for (let w = w0; w <= w1; w++) vols.push(windows.get(w) ?? 0n);
  const sum = vols.reduce((a, b) => a + b, 0n);
  const mean = sum / BigInt(vols.length);
  const sorted = [...vols].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const deciles = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95].map((pct) => ((sorted[Math.floor((pct * sorted.length) / 100)] ?? 0n) * 1000n) / mean);
  const ms = BigInt(last - first);
  return {
    symbol: sym.toUpperCase(),
    trades: lines.length,
    minutes: Number(ms / 60_000n),
    baseVolumePerMinute: `${(total * 60_000n) / ms / S}.${(((total * 60_000n) / ms) % S).toString().padStart(8, '0').slice(0, 3)}`,
    usdtPerMinute: (notional * 60_000n) / ms / S,
    windowDecilesPermille: deciles,
    emptyWindowsPermille: (BigInt(vols.filter((v) => v === 0n).length) * 1000n) / BigInt(vols.length),
  };
}

function main(): void {
  const argDir = process.argv.indexOf('--data');
  const dir = argDir >= 0 ? process.argv[argDir + 1] : dataRoot();
  if (!dir || !fs.existsSync(path.join(dir, 'binance-ws-capture-hftbacktest'))) {
    console.log('skipped: the Binance capture (../shared/data/binance-ws-capture-hftbacktest) is not here');
    return;
  }
  const bps = PROFILE_PPM.map((p) => (p === 0n ? 'best' : `${Number(p) / 100}bps`));
  for (const sym of ['btcusdt', 'ethusdt']) {
    const p = profileOf(dir, sym);
    console.log(
      `\n${p.symbol}: ${p.samples} samples, mid ${p.midUsdt} USDT, spread median ${p.spreadTicksMedian} tick(s) (1 tick ${p.spreadOneTickShare} of samples)`,
    );
    console.log(`  snapshot covers bids to ${p.coverageBidPpm} ppm, asks to ${p.coverageAskPpm} ppm of the mid`);
    console.log(
      `  levels within 10 bps: bids ${p.levels10Bps.bids}, asks ${p.levels10Bps.asks}; within 100 bps: bids ${p.levels100Bps.bids}, asks ${p.levels100Bps.asks}`,
    );
    console.log(`  cumulative notional (USDT)  ${bps.map((b) => b.padStart(10)).join('')}`);
    console.log(`    bids                      ${p.bids.map((v) => v.toString().padStart(10)).join('')}`);
    console.log(`    asks                      ${p.asks.map((v) => v.toString().padStart(10)).join('')}`);
    const lower = (k: number) => (PROFILE_PPM[k] as bigint) > p.coverageBidPpm && (PROFILE_PPM[k] as bigint) > p.coverageAskPpm;
    console.log(`    profile                   ${p.profile.map((v, k) => `${lower(k) ? '>=' : ''}${v}`.padStart(10)).join('')}`);
    const t = takerFlowOf(dir, sym);
    console.log(`  trades: ${t.trades} in ${t.minutes} min, ${t.baseVolumePerMinute} ${p.symbol.replace('USDT', '')}/min = ${t.usdtPerMinute} USDT/min`);
    console.log(
      `  ${TAKER_WINDOW_MS / 1000} s window volume deciles (per mille of the mean): ${t.windowDecilesPermille.join(', ')}; empty windows ${t.emptyWindowsPermille} per mille`,
    );
    console.log('  as TypeScript:');
    console.log(`    points: [${PROFILE_PPM.map((ppm, k) => `[${ppm}n, ${p.profile[k]}n]`).join(', ')}],`);
    console.log(`    windowDecilesPermille: [${t.windowDecilesPermille.map((v) => `${v}n`).join(', ')}],`);
  }
}

main();
