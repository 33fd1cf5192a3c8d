/**
 * /kline?pairsName=BTC/USDT&type=bibi|contract&period=15min (spec section 2): the k-line chart full screen.
 * Header with the pair, its market and the live last price and 24 h change; the spec's intervals; the indicators
 * users expect (over the candles MA, EMA or BOLL; below VOL, MACD or RSI: lib/chart-indicators.ts); the chart takes
 * the rest of the viewport and is rebuilt at the new size when the phone turns (landscape-friendly). Opened from the
 * pair detail's full-screen button; the pair defaults to the stored one as on the detail page. Contracts draw the
 * mark price as a dashed line, as on the detail page.
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { KlinePeriod, MarketType, Pair } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { useLiveTicker } from '../../../shared/ws-client';
import { formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useCoinInfo } from '../api/get-coin-info';
import { useMarkKlines } from '../api/get-contract-market';
import { KlineChart } from '../components/KlineChart';
import { IntervalTabs, PairTitle } from '../components/ChartHeadings';
import { KLINE_INTERVALS } from '../lib/kline-math';
import { MAIN_INDICATORS, SUB_INDICATORS, type MainIndicator, type SubIndicator } from '../lib/chart-indicators';
import '../quotes.css';

/** Height of what sits above the chart: header 46, intervals 38, indicators 38, legend 16 (CSS px). */
const CHROME_PX = 46 + 38 + 38 + 16;
/** The chart never gets smaller than this (a landscape phone is about 360 px high). */
const MIN_CHART_PX = 200;

/** The viewport's inner height, followed on resize and orientation change. */
function useViewportHeight(): number {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    window.addEventListener('orientationchange', on);
    return () => {
      window.removeEventListener('resize', on);
      window.removeEventListener('orientationchange', on);
    };
  }, []);
  return h;
}

/** The full-screen chart page. */
export default function KlinePage() {
  const { t } = useTranslation('quotes');
  const [params] = useSearchParams();
  const type: MarketType = params.get('type') === 'contract' ? 'CONTRACT' : 'SPOT';
  const stored = useAppStore((s) => (type === 'SPOT' ? s.pairsName : s.pairsName1));
  const pairsName = (params.get('pairsName') || stored || 'BTC/USDT').toUpperCase();
  const asked = params.get('period') as KlinePeriod | null;
  const [period, setPeriod] = useState<KlinePeriod>(asked && KLINE_INTERVALS.includes(asked) ? asked : '15min');
  const [main, setMain] = useState<MainIndicator>('MA');
  const [sub, setSub] = useState<SubIndicator>('VOL');
  const info = useCoinInfo(pairsName, type);
  const live = useLiveTicker(pairsName, type);
  const pair: Pair | undefined = live ?? info.data?.pair;
  const markBars = useMarkKlines(pairsName, period, type === 'CONTRACT');
  const viewport = useViewportHeight();
  const height = Math.max(MIN_CHART_PX, viewport - CHROME_PX);
  const back = `/quotes/quotesDetail?type=${type === 'SPOT' ? 'bibi' : 'contract'}&pairsName=${encodeURIComponent(pairsName)}`;

  return (
    <div className="qt-kline-page">
      <PageHeader
        fallback={back}
        title={<PairTitle pairsName={pairsName} type={type} />}
        right={
          pair ? (
            <span className={`qt-kline-last num c-${trendOf(pair.updown)}`} data-testid="kline-last">
              {formatFixed(pair.price, pair.priceDecimals, { group: true })} <small>{formatPercent(pair.updown)}</small>
            </span>
          ) : null
        }
      />
      {!pair ? (
        info.isError ? (
          <LoadFailed error={info.error} onRetry={() => void info.refetch()} />
        ) : (
          <InlineLoading />
        )
      ) : (
        <>
          <IntervalTabs period={period} onChange={setPeriod} />
          <div className="qt-indicator-bar">
            <SegTabs
              classPrefix="qt"
              label={t('indicatorMain')}
              variant="pill"
              items={MAIN_INDICATORS.map((k) => ({ key: k, label: k }))}
              active={main}
              onChange={setMain}
            />
            <SegTabs
              classPrefix="qt"
              label={t('indicatorSub')}
              variant="pill"
              items={SUB_INDICATORS.map((k) => ({ key: k, label: k }))}
              active={sub}
              onChange={setSub}
            />
          </div>
          <KlineChart
            pairsName={pairsName}
            type={type}
            period={period}
            priceDecimals={pair.priceDecimals}
            height={height}
            main={main}
            sub={sub}
            overlay={type === 'CONTRACT' ? { label: t('markPrice'), bars: markBars.data ?? [] } : undefined}
          />
        </>
      )}
    </div>
  );
}
