/**
 * Which indicators the k-line chart draws and with which parameters (on the full-screen chart: MA, EMA, BOLL over
 * the candles; VOL, MACD, RSI below), as lines of decimal-string points for KlineChart. The maths is in
 * kline-math.ts (MA) and indicators.ts (EMA, BOLL, MACD, RSI); the parameters are Binance's and TradingView's
 * defaults, the averages' windows the chart's MA windows.
 */
import type { Kline } from '@exchange/api';
import { MA_WINDOWS, movingAverage } from './kline-math';
import { bollinger, ema, macd, rsi, type IndicatorPoint } from './indicators';

/** The lines over the candles. */
export type MainIndicator = 'MA' | 'EMA' | 'BOLL';
/** The lower pane: VOL (the volume only, no pane), MACD or RSI. */
export type SubIndicator = 'VOL' | 'MACD' | 'RSI';
export const MAIN_INDICATORS: readonly MainIndicator[] = ['MA', 'EMA', 'BOLL'];
export const SUB_INDICATORS: readonly SubIndicator[] = ['VOL', 'MACD', 'RSI'];

/** Bollinger bands: 20 bars, 2 standard deviations. */
export const BOLL_PARAMS = { n: 20, k: 2 } as const;
/** MACD: EMA 12 and 26, signal EMA 9. */
export const MACD_PARAMS = { fast: 12, slow: 26, signal: 9 } as const;
/** RSI: 14 bars. */
export const RSI_PERIOD = 14;

/**
 * The three lines over the candles at `decimals` places: MA or EMA of MA_WINDOWS (shortest first), or the Bollinger
 * middle, upper and lower band.
 */
export function mainLines(bars: readonly Kline[], main: MainIndicator, decimals: number): IndicatorPoint[][] {
  if (main === 'BOLL') {
    const b = bollinger(bars, BOLL_PARAMS.n, BOLL_PARAMS.k, decimals);
    return [
      b.map((p) => ({ time: p.time, value: p.middle })),
      b.map((p) => ({ time: p.time, value: p.upper })),
      b.map((p) => ({ time: p.time, value: p.lower })),
    ];
  }
  return MA_WINDOWS.map((w) => (main === 'EMA' ? ema(bars, w, decimals) : movingAverage(bars, w, decimals)));
}

/**
 * The lower pane at `decimals` places (RSI at 2): MACD's DIF and DEA lines and its histogram (DIF - DEA), RSI's one
 * line; nothing for VOL.
 */
export function subLines(bars: readonly Kline[], sub: SubIndicator, decimals: number): { lines: IndicatorPoint[][]; hist: IndicatorPoint[] } {
  if (sub === 'MACD') {
    const m = macd(bars, MACD_PARAMS.fast, MACD_PARAMS.slow, MACD_PARAMS.signal, decimals);
    return {
      lines: [m.map((p) => ({ time: p.time, value: p.dif })), m.map((p) => ({ time: p.time, value: p.dea }))],
      hist: m.map((p) => ({ time: p.time, value: p.hist })),
    };
  }
  if (sub === 'RSI') return { lines: [rsi(bars, RSI_PERIOD)], hist: [] };
  return { lines: [], hist: [] };
}
