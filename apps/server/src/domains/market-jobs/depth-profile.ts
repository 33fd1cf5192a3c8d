/**
 * The shape of a real order book, for the liquidity bots' ladders: Binance spot BTCUSDT and ETHUSDT as captured on
 * 2024-08-08 23:54 .. 2024-08-09 00:05 UTC (../shared/data/binance-ws-capture-hftbacktest, from nkaz001/hftbacktest,
 * MIT; see NOTICE). Derived by `npm run depth-profile` (scripts/depth-profile.ts): the book rebuilt from the REST
 * snapshot and the 100 ms diffs, sampled once a second (651 samples), medians over the samples. Only these few
 * figures are committed, not the capture.
 *
 * Other markets take the ETH shape scaled by their traded value against ETH's (`depthScalePermille`): the
 * reference paths' 24 h quote volume, real for BTC/ETH/LTC (Coinbase history) and the model's for the demo coins.
 * Notionals are whole USDT (bigint); distances ppm of the mid (1 bps = 100 ppm).
 */
import { parseDecimal, pow10 } from '@exchange/core';
import type { DepthPoint } from './ladder';
import type { ReferencePaths } from '../market-data/price-source';

/** One symbol's measured book. */
export interface BinanceBookProfile {
  symbol: string;
  /** Median mid over the capture, whole USDT. */
  midUsdt: bigint;
  /** Cumulative quote value within `ppm` of the mid on one side (mean of both sides), whole USDT; ppm 0 = the best level alone. */
  points: ReadonlyArray<readonly [ppm: bigint, usdt: bigint]>;
  /** Median spread in ticks (0.01 USDT) and the share of samples at one tick. */
  spreadTicks: bigint;
  spreadOneTickPct: string;
  /** Median number of price levels within 10 bps and 100 bps of the mid, per side [bids, asks]. */
  levelsWithin10Bps: readonly [number, number];
  levelsWithin100Bps: readonly [number, number];
  /** Median cumulative quote value within 10 bps and 100 bps per side [bids, asks], whole USDT. */
  depth10Bps: readonly [bigint, bigint];
  depth100Bps: readonly [bigint, bigint];
  /** Traded value per minute over the capture, whole USDT (every @trade message). */
  tradedUsdtPerMinute: bigint;
  /**
   * Volume of 3-second windows of the trade tape as per mille of the mean window: the deciles 5%, 15% .. 95%.
   * The bots draw their taker order sizes from these (liquidity-bot.ts).
   */
  windowDecilesPermille: readonly bigint[];
  /** What the figures leave out. */
  caveat: string;
}

/** Binance spot BTCUSDT (mid about 61,687 USDT). */
export const BINANCE_BTCUSDT: BinanceBookProfile = {
  symbol: 'BTCUSDT',
  midUsdt: 61_687n,
  points: [
    [0n, 122_529n],
    [10n, 141_022n],
    [25n, 152_645n],
    [50n, 183_228n],
    [100n, 260_622n],
    [200n, 429_299n],
    [500n, 1_394_347n],
    [1000n, 2_808_929n],
    [2500n, 6_209_568n],
    [5000n, 7_503_709n],
    [10000n, 9_427_171n],
  ],
  spreadTicks: 1n,
  spreadOneTickPct: '99.2',
  levelsWithin10Bps: [204, 250],
  levelsWithin100Bps: [967, 1856],
  depth10Bps: [2_461_264n, 3_156_594n],
  depth100Bps: [8_170_985n, 10_683_357n],
  tradedUsdtPerMinute: 2_491_192n,
  windowDecilesPermille: [51n, 107n, 165n, 278n, 364n, 502n, 728n, 1183n, 1746n, 3963n],
  caveat: 'the REST snapshot ends near 35 bps on both sides, so 50 and 100 bps count only the levels the diffs updated: lower bounds',
};

/** Binance spot ETHUSDT (mid about 2,681 USDT). */
export const BINANCE_ETHUSDT: BinanceBookProfile = {
  symbol: 'ETHUSDT',
  midUsdt: 2_681n,
  points: [
    [0n, 26_452n],
    [10n, 29_463n],
    [25n, 33_971n],
    [50n, 43_836n],
    [100n, 74_752n],
    [200n, 176_775n],
    [500n, 689_931n],
    [1000n, 1_543_828n],
    [2500n, 4_829_147n],
    [5000n, 6_864_739n],
    [10000n, 9_373_563n],
  ],
  spreadTicks: 1n,
  spreadOneTickPct: '98.9',
  levelsWithin10Bps: [108, 125],
  levelsWithin100Bps: [941, 942],
  depth10Bps: [1_302_044n, 1_785_613n],
  depth100Bps: [8_011_596n, 9_373_563n],
  tradedUsdtPerMinute: 1_058_286n,
  windowDecilesPermille: [34n, 107n, 170n, 261n, 364n, 547n, 765n, 997n, 1443n, 3223n],
  caveat: 'the REST snapshot ends at 86 bps on the bid side: 100 bps is the ask side alone',
};

/** Smallest and largest depth scale of a market against the profile it borrows (per mille). */
export const DEPTH_SCALE_MIN_PERMILLE = 5n;
export const DEPTH_SCALE_MAX_PERMILLE = 1000n;

/** The measured book a market's ladder is shaped on: BTC/USDT on BTCUSDT, every other market on ETHUSDT. */
export function profileSourceOf(base: string, quote: string): BinanceBookProfile {
  return base === 'BTC' && quote === 'USDT' ? BINANCE_BTCUSDT : BINANCE_ETHUSDT;
}

/** Quote value (USDT units of 10^-8) traded over the 24 hourly reference bars before `ts` on the USDT path of `base`. */
function usdtVolume24h(paths: ReferencePaths, base: string, ts: number): bigint {
  const p = paths.get(base);
  if (!p) return 0n;
  const hour = 3_600_000;
  const end = ts - (ts % hour);
  let sum = 0n;
  for (const b of p.bars(hour, end - 24 * hour, end)) sum += (parseDecimal(b.volume, 8) * parseDecimal(b.close, 8)) / pow10(8);
  return sum;
}

/**
 * How deep a market's book is against the profile it borrows, per mille: 1000 for BTC/USDT and ETH/USDT (their
 * own capture); otherwise the market's 24 h traded value over ETH's, from the reference paths (a cross pair such
 * as ETH/BTC trades `crossShare` per mille of its base coin's USDT value, as its reference path assumes),
 * clamped to [DEPTH_SCALE_MIN_PERMILLE, DEPTH_SCALE_MAX_PERMILLE]. 1000 when the volumes are unknown.
 */
export function depthScalePermille(paths: ReferencePaths, base: string, quote: string, ts: number, crossShare = 100n): bigint {
  if ((base === 'BTC' || base === 'ETH') && quote === 'USDT') return 1000n;
  const eth = usdtVolume24h(paths, 'ETH', ts);
  const own = usdtVolume24h(paths, base, ts);
  if (eth <= 0n || own <= 0n) return 1000n;
  const share = quote === 'USDT' ? 1000n : crossShare;
  const scale = (own * share) / eth;
  return scale < DEPTH_SCALE_MIN_PERMILLE ? DEPTH_SCALE_MIN_PERMILLE : scale > DEPTH_SCALE_MAX_PERMILLE ? DEPTH_SCALE_MAX_PERMILLE : scale;
}

/**
 * The ladder profile of a market in its quote asset's units: the source profile's USDT notionals x scale / 1000,
 * converted at `quoteUsdt` (price of one quote coin in USDT, as 10^-8 units; 10^8 for USDT itself) into
 * 10^-quoteScale units.
 */
export function ladderProfile(source: BinanceBookProfile, scalePermille: bigint, quoteScale: number, quoteUsdt: bigint = pow10(8)): DepthPoint[] {
  return source.points.map(([ppm, usdt]) => ({ ppm, notional: (usdt * scalePermille * pow10(quoteScale) * pow10(8)) / (1000n * quoteUsdt) }));
}
