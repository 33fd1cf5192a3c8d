/**
 * K-line chart (TradingView lightweight-charts v5): candles, a volume histogram in its own lower pane and three
 * indicator lines over the candles (`main`: MA5 / MA10 / MA30 by default, EMA5 / EMA10 / EMA30, or the Bollinger
 * bands), and optionally a second pane below (`sub`: MACD or RSI; VOL adds none), for one pair and interval. History
 * from getKline; live bars from the WebSocket kline channel replace or extend the last bar (and its indicators).
 * Colours come from the theme CSS variables, so the chart follows day/night and the red-up/green-up choice. An
 * optional overlay line (the contracts' mark price) is drawn dashed over the candles. Indicator values are
 * computed on decimal strings (lib/kline-math.ts, lib/indicators.ts) and become numbers only for drawing.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { CandlestickSeries, ColorType, HistogramSeries, LineSeries, createChart, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import type { Kline, KlinePeriod, MarketType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { formatChartNumber, formatFixed } from '../../../shared/format';
import { useKline } from '../api/get-kline';
import { MA_WINDOWS, axisTickLabels, mergeBar, movingAverage, toChartNumber, toChartTime } from '../lib/kline-math';
import { BOLL_PARAMS, MACD_PARAMS, RSI_PERIOD, mainLines, subLines, type MainIndicator, type SubIndicator } from '../lib/chart-indicators';

/** Props of KlineChart. */
export interface KlineChartProps {
  pairsName: string;
  type: MarketType;
  period: KlinePeriod;
  priceDecimals: number;
  height?: number;
  /** A line drawn over the candles: the closes of `bars` (the contracts' mark price), named `label` in the legend. */
  overlay?: { label: string; bars: readonly Kline[] };
  /** The lines over the candles (default MA). */
  main?: MainIndicator;
  /** The pane below the volume: MACD or RSI; VOL (default) adds none (the volume always has its own pane). */
  sub?: SubIndicator;
}

/** Colour of the overlay line (the mark price). */
const OVERLAY_COLOR = '#8c8c8c';

const MA_COLORS = ['#f0b90b', '#c86bf5', '#3d9df6'] as const;
/** Colours of the lower pane's lines (MACD: DIF, DEA; RSI). */
const SUB_COLORS = ['#f0b90b', '#c86bf5'] as const;
/**
 * Least time between two recomputations of the whole-history indicators (EMA, BOLL, MACD, RSI) on live bars, ms:
 * each costs about 15 ms for 1,500 bars (BOLL + MACD, measured in Node) and live bars can come several a second.
 * The candles and the MA lines still follow every live bar.
 */
const INDICATOR_LIVE_MS = 1000;

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
  /** The lower pane (MACD: histogram, DIF, DEA; RSI: one line), empty for VOL. */
  subHist: ISeriesApi<'Histogram'> | null;
  subLines: ISeriesApi<'Line'>[];
};

function withAlpha(color: string, alpha: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? color + alpha : color;
}

/** The legend labels of the lines over the candles, in the order of lib/chart-indicators mainLines. */
function mainLabels(main: MainIndicator): string[] {
  if (main === 'BOLL') return [`BOLL(${BOLL_PARAMS.n},${BOLL_PARAMS.k}) MID`, 'UP', 'DN'];
  return MA_WINDOWS.map((w) => `${main}${w}`);
}

/** The legend labels of the lower pane, in the order of lib/chart-indicators subLines (lines, then the histogram). */
function subLabels(sub: SubIndicator): string[] {
  if (sub === 'MACD') return [`MACD(${MACD_PARAMS.fast},${MACD_PARAMS.slow},${MACD_PARAMS.signal}) DIF`, 'DEA', 'MACD'];
  return sub === 'RSI' ? [`RSI(${RSI_PERIOD})`] : [];
}

/** The overlay line's points: the closes of its bars. */
function overlayPoints(bars: readonly Kline[]) {
  return bars.map((b) => ({ time: toChartTime(b.time) as UTCTimestamp, value: toChartNumber(b.close) }));
}

/** The chart. */
export function KlineChart({ pairsName, type, period, priceDecimals, height = 300, overlay, main = 'MA', sub = 'VOL' }: KlineChartProps) {
  const { t, i18n } = useTranslation('quotes');
  const lang = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const theme = useAppStore((s) => s.theme);
  const upDown = useAppStore((s) => s.upDownColor);
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<Series | null>(null);
  const overlayRef = useRef<ISeriesApi<'Line'> | null>(null);
  const barsRef = useRef<Kline[]>([]);
  const paletteRef = useRef<Palette | null>(null);
  const [legend, setLegend] = useState<string[]>([]);
  const [subLegend, setSubLegend] = useState<string[]>([]);
  const indicatorsAt = useRef(0);
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
    const pt = (p: { time: number; value: string }) => ({ time: toChartTime(p.time) as UTCTimestamp, value: toChartNumber(p.value) });
    const now = Date.now();
    const recompute = full || now - indicatorsAt.current >= INDICATOR_LIVE_MS;
    if (recompute) indicatorsAt.current = now;
    if (main !== 'MA' && recompute) {
      // EMA and BOLL depend on the whole history: recomputed and set again (at most once a second on live bars).
      mainLines(bars, main, maDecimals).forEach((pts, i) => {
        s.mas[i]!.setData(pts.map(pt));
        legendValues.push(pts.length ? pts[pts.length - 1]!.value : '');
      });
    }
    if ((s.subHist || s.subLines.length) && recompute) {
      const lines = subLines(bars, sub, maDecimals);
      if (s.subHist) s.subHist.setData(lines.hist.map((h) => ({ ...pt(h), color: withAlpha(h.value.startsWith('-') ? p.down : p.up, 'b0') })));
      lines.lines.forEach((pts, i) => s.subLines[i]?.setData(pts.map(pt)));
      setSubLegend([
        ...lines.lines.map((pts) => (pts.length ? pts[pts.length - 1]!.value : '')),
        ...(s.subHist ? [lines.hist.length ? lines.hist[lines.hist.length - 1]!.value : ''] : []),
      ]);
    }
    MA_WINDOWS.forEach((w, i) => {
      if (main !== 'MA') return;
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
    if (main === 'MA' || recompute) setLegend(legendValues);
  };
  const hasOverlay = overlay !== undefined;
  const overlayBars = overlay?.bars;
  // What the effects below draw with, as of the latest render: draw (a new function on every render) and the overlay's
  // bars are read at the time, so a new overlay or a re-render does not rebuild the chart or redraw the history.
  const drawNow = useEffectEvent((bars: Kline[], full: boolean) => draw(bars, full));
  const overlayBarsNow = useEffectEvent(() => overlay?.bars);

  // Create the chart once per theme/colour convention.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const p = readPalette();
    paletteRef.current = p;
    const chart = createChart(box, {
      height,
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: p.bg },
        textColor: p.text,
        fontSize: 10,
        attributionLogo: false,
        panes: { separatorColor: p.grid, separatorHoverColor: p.grid },
      },
      grid: { vertLines: { color: p.grid }, horzLines: { color: p.grid } },
      // entireTextOnly: no half-clipped label at the top or bottom edge of the pane.
      rightPriceScale: { borderColor: p.grid, entireTextOnly: true },
      timeScale: { borderColor: p.grid, timeVisible: true, secondsVisible: false, barSpacing: 6, rightOffset: 3 },
      crosshair: { mode: 0 },
      // Axis and crosshair labels at the market's price decimals with thousands separators (65,432.10); a tick label
      // under the last-price tag is left out rather than shown half covered.
      localization: {
        // Dates on the time axis in the app's language (the browser's by default: "26日" in an English app).
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
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
    // The volume has a pane of its own (pane 1, a fifth of the height): overlaid on the candles' lower fifth, the
    // candles' price axis went on labelling prices down through the volume bars (its margins are still its scale).
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.06 } });
    const volume = chart.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false }, 1);
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.1, bottom: 0 } });
    const mas = MA_WINDOWS.map((_, i) =>
      chart.addSeries(LineSeries, { color: MA_COLORS[i], lineWidth: 1, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }),
    );
    // The lowest pane (pane 2, under the volume) of MACD or RSI, a quarter of the chart's height.
    let subHist: ISeriesApi<'Histogram'> | null = null;
    const subSeries: ISeriesApi<'Line'>[] = [];
    if (sub !== 'VOL') {
      const line = (color: string) =>
        chart.addSeries(LineSeries, { color, lineWidth: 1, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }, 2);
      if (sub === 'MACD') subHist = chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false }, 2);
      subSeries.push(line(SUB_COLORS[0]));
      if (sub === 'MACD') subSeries.push(line(SUB_COLORS[1]));
    }
    // Shares of the height as stretch factors, set once every pane exists (setHeight on one pane takes from its
    // neighbour): candles the rest, volume a fifth, MACD / RSI a quarter (the sub legend sits at that quarter).
    const panes = chart.panes();
    const subShare = sub !== 'VOL' ? 0.25 : 0;
    panes[0]?.setStretchFactor(1 - 0.2 - subShare);
    panes[1]?.setStretchFactor(0.2);
    panes[2]?.setStretchFactor(subShare);
    chartRef.current = chart;
    seriesRef.current = { candles, volume, mas, subHist, subLines: subSeries };
    const overlaySeries = hasOverlay
      ? chart.addSeries(LineSeries, {
          color: OVERLAY_COLOR,
          lineWidth: 2,
          lineStyle: 2,
          priceLineVisible: false,
          lastValueVisible: true,
          crosshairMarkerVisible: false,
        })
      : null;
    overlayRef.current = overlaySeries;
    const bars = overlayBarsNow();
    if (overlaySeries && bars) overlaySeries.setData(overlayPoints(bars));
    if (barsRef.current.length) {
      drawNow(barsRef.current, true);
      chart.timeScale().scrollToRealTime();
    }
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      overlayRef.current = null;
    };
    // The chart is rebuilt on theme, convention, precision, height, overlay on/off, indicator or language changes.
  }, [theme, upDown, priceDecimals, height, hasOverlay, main, sub, lang]);

  // The overlay line follows its bars.
  useEffect(() => {
    if (overlayBars) overlayRef.current?.setData(overlayPoints(overlayBars));
  }, [overlayBars]);

  // Another pair or interval: drop the bars of the previous one until its history arrives.
  useEffect(() => {
    barsRef.current = [];
    const s = seriesRef.current;
    if (s) {
      s.candles.setData([]);
      s.volume.setData([]);
      s.mas.forEach((m) => m.setData([]));
      s.subHist?.setData([]);
      s.subLines.forEach((l) => l.setData([]));
    }
  }, [pairsName, type, period]);

  // History.
  useEffect(() => {
    if (!kline.data) return;
    barsRef.current = kline.data;
    drawNow(kline.data, true);
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
        {mainLabels(main).map((label, i) => (
          <span key={label} style={{ color: MA_COLORS[i] }}>
            {label}: {legend[i] ? formatFixed(legend[i], priceDecimals, { group: true }) : '--'}
          </span>
        ))}
        {overlay && (
          <span style={{ color: OVERLAY_COLOR }} data-testid="overlay-legend">
            {overlay.label}: {overlay.bars.length ? formatFixed(overlay.bars[overlay.bars.length - 1]!.close, priceDecimals, { group: true }) : '--'}
          </span>
        )}
      </div>
      <div className="qt-chart-area">
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
        {sub !== 'VOL' && (
          <div className="qt-ma-legend qt-sub-legend num" data-testid="sub-legend" style={{ top: height - Math.round(height / 4) + 2 }}>
            {subLabels(sub).map((label, i) => (
              <span key={label} style={{ color: SUB_COLORS[i] ?? 'var(--ex-text-2)' }}>
                {label}: {subLegend[i] ? formatFixed(subLegend[i], sub === 'RSI' ? 2 : priceDecimals, { group: true }) : '--'}
              </span>
            ))}
          </div>
        )}
      </div>
      {empty && <div className="qt-chart-empty">{t('chartEmpty')}</div>}
    </div>
  );
}
