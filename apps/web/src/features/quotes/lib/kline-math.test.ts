// Proves the chart helpers: moving averages are exact decimal averages over a sliding window, live
// bars replace or extend the series, chart times are seconds, and the price axis labels carry thousands
// separators and give way to the last-price tag.
import { describe, expect, it } from 'vitest';
import type { Kline } from '@exchange/api';
import { axisTickLabels, mergeBar, movingAverage, toChartTime } from './kline-math';

const bar = (time: number, close: string): Kline => ({ time, open: close, high: close, low: close, close, volume: '1' });
const bars = [bar(1, '0.1'), bar(2, '0.2'), bar(3, '0.3'), bar(4, '0.4'), bar(5, '0.5')];

describe('movingAverage', () => {
  it('averages closes exactly (0.1 + 0.2 = 0.3, no float error)', () => {
    expect(movingAverage(bars, 2, 3)).toEqual([
      { time: 2, value: '0.150' },
      { time: 3, value: '0.250' },
      { time: 4, value: '0.350' },
      { time: 5, value: '0.450' },
    ]);
    expect(movingAverage(bars, 3, 2)).toEqual([
      { time: 3, value: '0.20' },
      { time: 4, value: '0.30' },
      { time: 5, value: '0.40' },
    ]);
  });
  it('has no points when there are fewer bars than the window', () => {
    expect(movingAverage(bars, 30, 2)).toEqual([]);
  });
});

describe('mergeBar', () => {
  it('replaces the current bar, appends a new one, ignores an older one', () => {
    expect(mergeBar(bars, bar(5, '9')).map((b) => b.close)).toEqual(['0.1', '0.2', '0.3', '0.4', '9']);
    expect(mergeBar(bars, bar(6, '7')).map((b) => b.time)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mergeBar(bars, bar(2, '7'))).toEqual(bars);
    expect(mergeBar([], bar(1, '1'))).toEqual([bar(1, '1')]);
  });
  it('converts ms to chart seconds', () => {
    expect(toChartTime(1_700_000_060_999)).toBe(1_700_000_060);
  });
});

describe('axisTickLabels', () => {
  // 1 px per 10 USDT, 97,000 at y = 100 (prices grow upwards)
  const yOf = (p: number) => 100 - (p - 97_000) / 10;
  it('formats every tick with thousands separators at the market decimals', () => {
    expect(axisTickLabels([96_750, 97_000, 97_250], 2, yOf, null)).toEqual(['96,750.00', '97,000.00', '97,250.00']);
    expect(axisTickLabels([0.19, 0.2], 5, () => 0, null)).toEqual(['0.19000', '0.20000']);
  });
  it('leaves blank the tick under the last-price tag only', () => {
    // last price 96,979.10 -> y 102.09: 97,000 (y 100) is under the tag, 96,750 (y 125) and 97,250 (y 75) are not
    expect(axisTickLabels([96_750, 97_000, 97_250], 2, yOf, yOf(96_979.1))).toEqual(['96,750.00', '', '97,250.00']);
    // 17.9 px away is still under it, 18 px is not
    expect(axisTickLabels([97_000], 2, yOf, 117.9)).toEqual(['']);
    expect(axisTickLabels([97_000], 2, yOf, 118)).toEqual(['97,000.00']);
    // a tick off the pane keeps its label
    expect(axisTickLabels([97_000], 2, () => null, 100)).toEqual(['97,000.00']);
  });
});
