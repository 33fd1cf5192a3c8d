/**
 * Technical indicators of the full-screen chart (/kline): EMA, Bollinger bands, MACD and RSI of the closes,
 * computed exactly on decimal strings. Each close is parsed into a bigint at WORK_SCALE decimals; every division
 * rounds half away from zero at that scale; results are formatted at the caller's decimals (rounded half up). Numbers
 * appear only at the chart's display boundary (kline-math toChartNumber), as for the moving averages.
 *
 * Definitions (the ones Binance's and TradingView's charts use, defaults as there):
 * - EMA(n): alpha = 2 / (n + 1), EMA_t = alpha * close_t + (1 - alpha) * EMA_{t-1}, seeded with the simple average of
 *   the first n closes (StockCharts ChartSchool, "Moving Averages - Simple and Exponential"); first point at bar n-1.
 * - BOLL(n = 20, k = 2): middle = SMA(n); upper/lower = middle +- k * sigma, sigma the population standard deviation
 *   of the last n closes (StockCharts, "Bollinger Bands"); first point at bar n-1.
 * - MACD(12, 26, 9): DIF = EMA(12) - EMA(26) (from bar 25), DEA = EMA(9) of DIF seeded like EMA, histogram =
 *   DIF - DEA (Binance and TradingView draw DIF - DEA; some Chinese apps draw twice that) (StockCharts, "MACD").
 * - RSI(n = 14), Wilder's smoothing: the first average gain/loss is the simple average of the first n changes,
 *   then avg_t = (avg_{t-1} * (n - 1) + x_t) / n; RSI = 100 - 100 / (1 + avgGain / avgLoss), 100 when avgLoss is 0
 *   and avgGain is not, 50 when both are 0 (J. Welles Wilder, "New Concepts in Technical Trading Systems", 1978;
 *   StockCharts, "Relative Strength Index"); first point at bar n.
 */
import type { Kline } from '@exchange/api';
import { decToString, parseDec, rescale } from '../../../shared/format';

/** Decimals of the intermediate values (closes have at most 8; 12 keeps every rounding far below a display unit). */
export const WORK_SCALE = 12;
const ONE = 10n ** BigInt(WORK_SCALE);

/** One point of an indicator line: bar open time (ms) and the value as a decimal string. */
export interface IndicatorPoint {
  time: number;
  value: string;
}

/** Bollinger bands at one bar. */
export interface BollPoint {
  time: number;
  middle: string;
  upper: string;
  lower: string;
}

/** MACD at one bar: DIF, DEA and the histogram (DIF - DEA). */
export interface MacdPoint {
  time: number;
  dif: string;
  dea: string;
  hist: string;
}

type Fixed = { time: number; v: bigint };

/** a / b rounded half away from zero (b > 0). */
function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n;
  const abs = neg ? -a : a;
  let q = abs / b;
  if ((abs % b) * 2n >= b) q += 1n;
  return neg ? -q : q;
}

/** floor(sqrt(n)) of a non-negative bigint (Newton's method). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number');
  if (n < 2n) return n;
  // 2^ceil(bits/2) is above the root; from above, Newton's integer steps descend to floor(sqrt(n)) and stop there.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) / 2n;
    if (y >= x) return x;
    x = y;
  }
}

function closes(bars: readonly Kline[]): Fixed[] {
  return bars.map((b) => ({ time: b.time, v: rescale(parseDec(b.close), WORK_SCALE).units }));
}

function out(v: bigint, decimals: number): string {
  return decToString(rescale({ units: v, scale: WORK_SCALE }, decimals, 'round'));
}

/** EMA(n) over fixed-point values (seeded with the simple average of the first n); [] when fewer than n. */
function emaFixed(values: readonly Fixed[], n: number): Fixed[] {
  if (n < 1 || values.length < n) return [];
  let sum = 0n;
  for (let i = 0; i < n; i++) sum += values[i]!.v;
  let prev = divRound(sum, BigInt(n));
  const res: Fixed[] = [{ time: values[n - 1]!.time, v: prev }];
  // EMA_t = prev + (x - prev) * 2 / (n + 1)
  const den = BigInt(n + 1);
  for (let i = n; i < values.length; i++) {
    prev = prev + divRound((values[i]!.v - prev) * 2n, den);
    res.push({ time: values[i]!.time, v: prev });
  }
  return res;
}

/** EMA(n) of the closes at `decimals` places. */
export function ema(bars: readonly Kline[], n: number, decimals: number): IndicatorPoint[] {
  return emaFixed(closes(bars), n).map((p) => ({ time: p.time, value: out(p.v, decimals) }));
}

/** Bollinger bands (n, k) of the closes at `decimals` places. */
export function bollinger(bars: readonly Kline[], n: number, k: number, decimals: number): BollPoint[] {
  const xs = closes(bars);
  const res: BollPoint[] = [];
  if (n < 1) return res;
  const N = BigInt(n);
  for (let i = n - 1; i < xs.length; i++) {
    let sum = 0n;
    for (let j = i - n + 1; j <= i; j++) sum += xs[j]!.v;
    const mean = divRound(sum, N);
    // variance at scale 2 * WORK_SCALE: sum((x - mean)^2) / n; its root is at WORK_SCALE
    let sq = 0n;
    for (let j = i - n + 1; j <= i; j++) {
      const d = xs[j]!.v - mean;
      sq += d * d;
    }
    const sigma = isqrt(divRound(sq, N));
    const band = sigma * BigInt(k);
    res.push({ time: xs[i]!.time, middle: out(mean, decimals), upper: out(mean + band, decimals), lower: out(mean - band, decimals) });
  }
  return res;
}

/** MACD (fast, slow, signal) of the closes at `decimals` places; points from the first DEA. */
export function macd(bars: readonly Kline[], fast: number, slow: number, signal: number, decimals: number): MacdPoint[] {
  const xs = closes(bars);
  const f = emaFixed(xs, fast);
  const s = emaFixed(xs, slow);
  const fastAt = new Map(f.map((p) => [p.time, p.v]));
  const dif: Fixed[] = s.map((p) => ({ time: p.time, v: fastAt.get(p.time)! - p.v }));
  const dea = emaFixed(dif, signal);
  const difAt = new Map(dif.map((p) => [p.time, p.v]));
  return dea.map((p) => {
    const d = difAt.get(p.time)!;
    return { time: p.time, dif: out(d, decimals), dea: out(p.v, decimals), hist: out(d - p.v, decimals) };
  });
}

/** RSI(n) of the closes, 0 to 100 at 2 decimals (Wilder's smoothing). */
export function rsi(bars: readonly Kline[], n: number): IndicatorPoint[] {
  const xs = closes(bars);
  const res: IndicatorPoint[] = [];
  if (n < 1 || xs.length <= n) return res;
  const N = BigInt(n);
  let gain = 0n;
  let loss = 0n;
  for (let i = 1; i <= n; i++) {
    const d = xs[i]!.v - xs[i - 1]!.v;
    if (d > 0n) gain += d;
    else loss -= d;
  }
  gain = divRound(gain, N);
  loss = divRound(loss, N);
  const value = (g: bigint, l: bigint): string => {
    if (l === 0n) return g === 0n ? '50.00' : '100.00';
    // 100 - 100 / (1 + g / l) = 100 * g / (g + l)
    return out(divRound(100n * ONE * g, g + l), 2);
  };
  res.push({ time: xs[n]!.time, value: value(gain, loss) });
  for (let i = n + 1; i < xs.length; i++) {
    const d = xs[i]!.v - xs[i - 1]!.v;
    gain = divRound(gain * (N - 1n) + (d > 0n ? d : 0n), N);
    loss = divRound(loss * (N - 1n) + (d < 0n ? -d : 0n), N);
    res.push({ time: xs[i]!.time, value: value(gain, loss) });
  }
  return res;
}
