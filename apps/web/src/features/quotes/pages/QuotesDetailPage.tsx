/**
 * /quotes/quotesDetail?type=bibi|contract&pairsName=... (spec section 2; pair defaults to the stored
 * pairsName / pairsName1): ticker (price, CNY price, change, 24 h high, low, volume), k-line chart with
 * the spec's intervals, order book and latest deals live over the WebSocket, coin introduction,
 * favourite star, and Buy / Sell buttons that store the pair and open /transaction with the side
 * (contracts: one button to the /contract tab). Contracts also show the mark price, index price, funding rate and
 * countdown (ContractInfo) and the mark price as a dashed line over the candles. The button beside the
 * intervals opens the chart full screen with its indicators (/kline).
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import type { KlinePeriod, MarketType, Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { useLiveTicker } from '../../../shared/ws-client';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useCoinInfo } from '../api/get-coin-info';
import { useFavorites } from '../api/get-favorites';
import { FavoriteButton } from '../components/FavoriteButton';
import { TickerHeader } from '../components/TickerHeader';
import { KlineChart } from '../components/KlineChart';
import { IntervalTabs, PairTitle } from '../components/ChartHeadings';
import { DepthBook } from '../components/DepthBook';
import { LatestDeals } from '../components/LatestDeals';
import { CoinIntroPanel } from '../components/CoinIntroPanel';
import { ContractInfo } from '../components/ContractInfo';
import { useMarkKlines } from '../api/get-contract-market';
import '../quotes.css';

type Panel = 'book' | 'deals' | 'intro';

/** The pair detail page. */
export default function QuotesDetailPage() {
  const { t } = useTranslation('quotes');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const type: MarketType = params.get('type') === 'contract' ? 'CONTRACT' : 'SPOT';
  const stored = useAppStore((s) => (type === 'SPOT' ? s.pairsName : s.pairsName1));
  const setPairsName = useAppStore((s) => s.setPairsName);
  const setPairsName1 = useAppStore((s) => s.setPairsName1);
  const pairsName = (params.get('pairsName') || stored || 'BTC/USDT').toUpperCase();
  const [period, setPeriod] = useState<KlinePeriod>('15min');
  const [panel, setPanel] = useState<Panel>('book');
  const info = useCoinInfo(pairsName, type);
  const live = useLiveTicker(pairsName, type);
  const fav = useFavorites(type);
  const pair: Pair | undefined = live ?? info.data?.pair;
  const markBars = useMarkKlines(pairsName, period, type === 'CONTRACT');

  const trade = (side: 'buy' | 'sell') => {
    if (type === 'SPOT') {
      setPairsName(pairsName);
      navigate(`/transaction?side=${side}`);
    } else {
      setPairsName1(pairsName);
      navigate('/contract');
    }
  };

  return (
    <div className="qt-detail">
      <PageHeader
        fallback="/quotes"
        title={<PairTitle pairsName={pairsName} type={type} />}
        right={<FavoriteButton pairsName={pairsName} type={type} on={fav.names.has(pairsName)} size={20} />}
      />
      {!pair ? (
        info.isError ? (
          <LoadFailed error={info.error} onRetry={() => void info.refetch()} />
        ) : (
          <InlineLoading />
        )
      ) : (
        <>
          <TickerHeader pair={pair} />
          {type === 'CONTRACT' && <ContractInfo symbol={pairsName} />}
          <div className="qt-intervals-row">
            <IntervalTabs period={period} onChange={setPeriod} />
            <button
              type="button"
              className="qt-fullscreen"
              aria-label={t('fullScreen')}
              onClick={() => navigate(`/kline?type=${type === 'SPOT' ? 'bibi' : 'contract'}&pairsName=${encodeURIComponent(pairsName)}&period=${period}`)}
            >
              <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5">
                <path d="M1.5 5.5v-4h4M10.5 1.5h4v4M14.5 10.5v4h-4M5.5 14.5h-4v-4" />
              </svg>
            </button>
          </div>
          <KlineChart
            pairsName={pairsName}
            type={type}
            period={period}
            priceDecimals={pair.priceDecimals}
            overlay={type === 'CONTRACT' ? { label: t('markPrice'), bars: markBars.data ?? [] } : undefined}
          />
          <div className="qt-gap" />
          <SegTabs
            classPrefix="qt"
            label={pairsName}
            className="qt-panel-tabs"
            items={[
              { key: 'book' as const, label: t('tabBook') },
              { key: 'deals' as const, label: t('tabDeals') },
              { key: 'intro' as const, label: t('tabIntro') },
            ]}
            active={panel}
            onChange={setPanel}
          />
          <div role="tabpanel" className="qt-panel">
            {panel === 'book' && <DepthBook pairsName={pairsName} type={type} priceDecimals={pair.priceDecimals} qtyDecimals={pair.qtyDecimals} />}
            {panel === 'deals' && <LatestDeals pairsName={pairsName} type={type} priceDecimals={pair.priceDecimals} qtyDecimals={pair.qtyDecimals} />}
            {panel === 'intro' && (info.data ? <CoinIntroPanel coin={info.data.coin} /> : <InlineLoading />)}
          </div>
          <div className="qt-actions">
            {type === 'SPOT' ? (
              <>
                <Button block className="qt-buy" onClick={() => trade('buy')}>
                  {t('buyCoin', { coin: pair.tokenCur })}
                </Button>
                <Button block className="qt-sell" onClick={() => trade('sell')}>
                  {t('sellCoin', { coin: pair.tokenCur })}
                </Button>
              </>
            ) : (
              <Button block color="primary" onClick={() => trade('buy')}>
                {t('toContract')}
              </Button>
            )}
          </div>
        </>
      )}
    </div>
  );
}
