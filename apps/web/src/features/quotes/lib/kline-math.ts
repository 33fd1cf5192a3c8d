/**
 * Pure helpers of the k-line chart: moving averages of closes computed exactly on decimal strings
 * (a sliding sum with addDecimal/subDecimal, divided with divDecimal), merging a live bar into the
 * series, and the conversion to the chart's numbers. lightweight-charts draws JS numbers, so values
 * become numbers only at that display boundary (`toChartNumber`), never for any computation.
 */
import type { Kline, KlinePeriod } from '@exchange/api';
import { addDecimal, divDecimal, formatChartNumber, subDecimal } from '../../../shared/format';

/** Moving-average windows drawn on the chart. */
export const MA_WINDOWS = [5, 10, 30] as const;

/** Chart intervals of the spec (section 2: 1, 5, 15, 30 minutes, 1 hour, 1 day, 1 week) as getKline periods (labels: quotes:interval.<period>). */
export const KLINE_INTERVALS: readonly KlinePeriod[] = ['1min', '5min', '15min', '30min', '1hour', '1day', '1week'];

/** One point of a moving average: bar open time (ms) and the average as a decimal string. */
export interface MaPoint {
  time: number;
  value: string;
}

/**
 * Simple moving average of the closes over `window` bars at `decimals` places (rounded half up);
 * the first point is at index window-1. movingAverage([1,2,3,4] closes, 2) -> 1.5, 2.5, 3.5.
 */
export function movingAverage(bars: readonly Kline[], window: number, decimals: number): MaPoint[] {
  const out: MaPoint[] = [];
  let sum = '0';
  for (let i = 0; i < bars.length; i++) {
    sum = addDecimal(sum, bars[i]!.close);
    if (i >= window) sum = subDecimal(sum, bars[i - window]!.close);
    if (i >= window - 1) out.push({ time: bars[i]!.time, value: divDecimal(sum, String(window), decimals, 'round') });
  }
  return out;
}

/** Merges a live bar into `bars` (oldest first): replaces the bar of the same time, appends a newer one, ignores older ones. */
export function mergeBar(bars: readonly Kline[], bar: Kline): Kline[] {
  const last = bars[bars.length - 1];
  if (!last || bar.time > last.time) return [...bars, bar];
  if (bar.time === last.time) return [...bars.slice(0, -1), bar];
  return [...bars];
}

/** Display-only conversion of a decimal string to the chart's number (never used for arithmetic). */
export function toChartNumber(value: string): number {
  return +value;
}

/** Chart time (UTC seconds) of a bar open time in ms. */
export function toChartTime(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Height of a price-axis label at the chart's 10 px font (px): a tick label nearer the last-price tag than this is under it. */
export const AXIS_LABEL_HEIGHT_PX = 18;

/**
 * The price axis's tick labels: each price at `decimals` places with thousands separators (the shared
 * formatChartNumber), left blank where the last-price tag sits on top of it (its centre within
 * `labelHeightPx` of the tag's, `lastY`), so no label shows half covered. `yOf` gives a price's y on the
 * axis (null when off the pane); without a last price every label is kept.
 */
export function axisTickLabels(
  prices: readonly number[],
  decimals: number,
  yOf: (price: number) => number | null,
  lastY: number | null,
  labelHeightPx = AXIS_LABEL_HEIGHT_PX,
): string[] {
  return prices.map((p) => {
    const y = lastY === null ? null : yOf(p);
    return y !== null && lastY !== null && Math.abs(y - lastY) < labelHeightPx ? '' : formatChartNumber(p, decimals);
  });
}
