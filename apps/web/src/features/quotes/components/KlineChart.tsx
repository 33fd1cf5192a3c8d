/**
 * K-line chart (TradingView lightweight-charts v5): candles, a volume histogram in the lower fifth and
 * MA5 / MA10 / MA30 lines of the closes, for one pair and interval. History from getKline; live bars
 * from the WebSocket kline channel replace or extend the last bar (and its moving averages). Colours
 * come from the theme CSS variables, so the chart follows day/night and the red-up/green-up choice. An optional overlay
 * line (the contracts' mark price, issue 12) is drawn dashed over the candles.
 */
import { useEffect, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  HistogramSeries,
  LineSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Kline, KlinePeriod, MarketType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { formatChartNumber, formatFixed } from '../../../shared/format';
import { useKline } from '../api/get-kline';
import { MA_WINDOWS, axisTickLabels, mergeBar, movingAverage, toChartNumber, toChartTime } from '../lib/kline-math';

/** Props of KlineChart. */
export interface KlineChartProps {
  pairsName: string;
  type: MarketType;
  period: KlinePeriod;
  priceDecimals: number;
  height?: number;
  /** A line drawn over the candles: the closes of `bars` (the contracts' mark price), named `label` in the legend. */
  overlay?: { label: string; bars: readonly Kline[] };
}

/** Colour of the overlay line (the mark price). */
const OVERLAY_COLOR = '#8c8c8c';

const MA_COLORS = ['#f0b90b', '#c86bf5', '#3d9df6'] as const;

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

interface Palette {
  up: string;
  down: string;
  text: string;
  grid: string;
  bg: string;
}

function readPalette(): Palette {
  return {
    up: cssVar('--ex-up', '#0ecb81'),
    down: cssVar('--ex-down', '#f6465d'),
    text: cssVar('--ex-text-2', '#707a8a'),
    grid: cssVar('--ex-border', '#eceef1'),
    bg: cssVar('--ex-bg', '#ffffff'),
  };
}

type Series = {
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  mas: ISeriesApi<'Line'>[];
};

function withAlpha(color: string, alpha: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? color + alpha : color;
}

/** The chart. */
export function KlineChart({ pairsName, type, period, priceDecimals, height = 300, overlay }: KlineChartProps) {
  const { t } = useTranslation('quotes');
  const theme = useAppStore((s) => s.theme);
  const upDown = useAppStore((s) => s.upDownColor);
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<Series | null>(null);
  const overlayRef = useRef<ISeriesApi<'Line'> | null>(null);
  const barsRef = useRef<Kline[]>([]);
  const paletteRef = useRef<Palette | null>(null);
  const [legend, setLegend] = useState<string[]>([]);
  const kline = useKline(pairsName, type, period);

  const draw = (bars: Kline[], full: boolean) => {
    const s = seriesRef.current;
    const p = paletteRef.current;
    if (!s || !p) return;
    const maDecimals = priceDecimals;
    const vol = (b: Kline) => ({
      time: toChartTime(b.time) as UTCTimestamp,
      value: toChartNumber(b.volume),
      color: withAlpha(toChartNumber(b.close) >= toChartNumber(b.open) ? p.up : p.down, '80'),
    });
    const candle = (b: Kline) => ({
      time: toChartTime(b.time) as UTCTimestamp,
      open: toChartNumber(b.open),
      high: toChartNumber(b.high),
      low: toChartNumber(b.low),
      close: toChartNumber(b.close),
    });
    const last = bars[bars.length - 1];
    const legendValues: string[] = [];
    MA_WINDOWS.forEach((w, i) => {
      const line = s.mas[i]!;
      if (full) {
        const pts = movingAverage(bars, w, maDecimals);
        line.setData(pts.map((pt) => ({ time: toChartTime(pt.time) as UTCTimestamp, value: toChartNumber(pt.value) })));
        legendValues.push(pts.length ? pts[pts.length - 1]!.value : '');
      } else if (last && bars.length >= w) {
        const pt = movingAverage(bars.slice(-w), w, maDecimals)[0]!;
        line.update({ time: toChartTime(pt.time) as UTCTimestamp, value: toChartNumber(pt.value) });
        legendValues.push(pt.value);
      } else legendValues.push('');
    });
    if (full) {
      s.candles.setData(bars.map(candle));
      s.volume.setData(bars.map(vol));
    } else if (last) {
      s.candles.update(candle(last));
      s.volume.update(vol(last));
    }
    setLegend(legendValues);
  };

  // Create the chart once per theme/colour convention.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const p = readPalette();
    paletteRef.current = p;
    const chart = createChart(box, {
      height,
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: p.bg }, textColor: p.text, fontSize: 10, attributionLogo: false },
      grid: { vertLines: { color: p.grid }, horzLines: { color: p.grid } },
      // entireTextOnly: no half-clipped label at the top or bottom edge of the pane.
      rightPriceScale: { borderColor: p.grid, entireTextOnly: true },
      timeScale: { borderColor: p.grid, timeVisible: true, secondsVisible: false, barSpacing: 6, rightOffset: 3 },
      crosshair: { mode: 0 },
      // Axis and crosshair labels at the market's price decimals with thousands separators (65,432.10); a tick label
      // under the last-price tag is left out rather than shown half covered.
      localization: {
        priceFormatter: (v: number) => formatChartNumber(v, priceDecimals),
        tickmarksPriceFormatter: (prices: number[]) => {
          const s = seriesRef.current;
          const last = barsRef.current[barsRef.current.length - 1];
          const lastY = s && last ? s.candles.priceToCoordinate(toChartNumber(last.close)) : null;
          return axisTickLabels(prices, priceDecimals, (v) => s?.candles.priceToCoordinate(v) ?? null, lastY);
        },
      },
    });
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: p.up,
      downColor: p.down,
      borderUpColor: p.up,
      borderDownColor: p.down,
      wickUpColor: p.up,
      wickDownColor: p.down,
      priceFormat: { type: 'price', precision: priceDecimals, minMove: 1 / 10 ** priceDecimals },
    });
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.24 } });
    const volume = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    const mas = MA_WINDOWS.map((_, i) =>
      chart.addSeries(LineSeries, { color: MA_COLORS[i], lineWidth: 1, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }),
    );
    chartRef.current = chart;
    seriesRef.current = { candles, volume, mas };
    overlayRef.current = overlay
      ? chart.addSeries(LineSeries, { color: OVERLAY_COLOR, lineWidth: 2, lineStyle: 2, priceLineVisible: false, lastValueVisible: true, crosshairMarkerVisible: false })
      : null;
    if (overlay) drawOverlay(overlay.bars);
    if (barsRef.current.length) {
      draw(barsRef.current, true);
      chart.timeScale().scrollToRealTime();
    }
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      overlayRef.current = null;
    };
    // draw reads refs only; the chart is rebuilt on theme, convention, precision or height changes.
  }, [theme, upDown, priceDecimals, height, !!overlay]);

  /** The overlay line: the closes of its bars. */
  function drawOverlay(bars: readonly Kline[]) {
    overlayRef.current?.setData(bars.map((b) => ({ time: toChartTime(b.time) as UTCTimestamp, value: toChartNumber(b.close) })));
  }
  useEffect(() => {
    if (overlay) drawOverlay(overlay.bars);
  }, [overlay?.bars]);

  // Another pair or interval: drop the bars of the previous one until its history arrives.
  useEffect(() => {
    barsRef.current = [];
    const s = seriesRef.current;
    if (s) {
      s.candles.setData([]);
      s.volume.setData([]);
      s.mas.forEach((m) => m.setData([]));
    }
  }, [pairsName, type, period]);

  // History.
  useEffect(() => {
    if (!kline.data) return;
    barsRef.current = kline.data;
    draw(kline.data, true);
    chartRef.current?.timeScale().scrollToRealTime();
  }, [kline.data]);

  // Live bars.
  useWsChannel({ channel: 'kline', pairsName, type, period }, (msg) => {
    if (msg.channel !== 'kline' || msg.pairsName !== pairsName || msg.period !== period) return;
    const prevLen = barsRef.current.length;
    const next = mergeBar(barsRef.current, msg.data);
    barsRef.current = next;
    draw(next, prevLen === 0);
  });

  const empty = kline.isSuccess && kline.data.length === 0 && barsRef.current.length === 0;
  return (
    <div className="qt-chart-wrap">
      <div className="qt-ma-legend num" aria-hidden="true">
        {MA_WINDOWS.map((w, i) => (
          <span key={w} style={{ color: MA_COLORS[i] }}>
            MA{w}: {legend[i] ? formatFixed(legend[i], priceDecimals, { group: true }) : '--'}
          </span>
        ))}
        {overlay && (
          <span style={{ color: OVERLAY_COLOR }} data-testid="overlay-legend">
            {overlay.label}: {overlay.bars.length ? formatFixed(overlay.bars[overlay.bars.length - 1]!.close, priceDecimals, { group: true }) : '--'}
          </span>
        )}
      </div>
      <div
        ref={boxRef}
        className="qt-chart"
        style={{ height }}
        role="img"
        aria-label={t('chartLabel', { pair: pairsName, period: t(`interval.${period}`) })}
        data-bars={barsRef.current.length}
        data-last-close={barsRef.current[barsRef.current.length - 1]?.close ?? ''}
        data-last-time={barsRef.current[barsRef.current.length - 1]?.time ?? ''}
      />
      {empty && <div className="qt-chart-empty">{t('chartEmpty')}</div>}
    </div>
  );
}
