/**
 * /transaction (spec section 2, tab "trade"): header with the stored spot pair (`pairsName`) opening
 * the coin-selection popup, its 24 h change and a link to its chart; the order form beside the live
 * mini order book (tap a level to use its price); the tabs open orders (with Cancel), order history and trade
 * history of the pair, and the link to all orders. `?side=buy|sell` preselects the side (Buy / Sell of the pair detail).
 */
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { useLiveTicker } from '../../../shared/ws-client';
import { formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { usePairsByMainCur } from '../../../shared/market-api';
import { CoinSelectPopup } from '../components/CoinSelectPopup';
import { OrderForm } from '../components/OrderForm';
import { MiniOrderBook } from '../components/MiniOrderBook';
import { OrderTabs } from '../components/OrderTabs';
import { useSpotLive } from '../hooks/use-spot-live';
import type { Side } from '../lib/order-form';
import '../spot.css';

/** The trading page. */
export default function TransactionPage() {
  const { t } = useTranslation('spot');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const pairsName = useAppStore((s) => s.pairsName) || 'BTC/USDT';
  const setPairsName = useAppStore((s) => s.setPairsName);
  const mainCur = pairsName.split('/')[1] ?? 'USDT';
  const pairs = usePairsByMainCur(mainCur, 'SPOT');
  const live = useLiveTicker(pairsName, 'SPOT');
  const listed = pairs.data?.find((p) => p.pairsName === pairsName);
  const pair: Pair | undefined = listed ? { ...listed, ...(live ?? {}) } : undefined;
  const [side, setSide] = useState<Side>(params.get('side') === 'sell' ? 'SELL' : 'BUY');
  const [popup, setPopup] = useState(false);
  const [priceFill, setPriceFill] = useState<{ price: string; n: number } | null>(null);
  useSpotLive();

  useEffect(() => {
    const s = params.get('side');
    if (s === 'sell' || s === 'buy') {
      setSide(s === 'sell' ? 'SELL' : 'BUY');
      setParams({}, { replace: true });
    }
  }, [params, setParams]);

  // A stored pair that is not listed (delisted or mistyped) falls back to the first pair.
  useEffect(() => {
    if (pairs.data && pairs.data.length > 0 && !listed) setPairsName(pairs.data[0]!.pairsName);
  }, [pairs.data, listed, setPairsName]);

  return (
    <div className="sp-page">
      <header className="sp-header">
        <button type="button" className="sp-pair-btn" aria-label={t('selectPair', { pair: pairsName })} onClick={() => setPopup(true)}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 6h16M4 12h16M4 18h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <b>{pairsName}</b>
        </button>
        {pair && <span className={`num sp-header-chg ${trendClass(trendOf(pair.updown))}`}>{formatPercent(pair.updown)}</span>}
        <button
          type="button"
          className="sp-icon-btn"
          aria-label={t('openChart', { pair: pairsName })}
          onClick={() => navigate(`/quotes/quotesDetail?type=bibi&pairsName=${encodeURIComponent(pairsName)}`)}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M7 4v16M17 4v16M4 8h6v8H4zM14 6h6v8h-6z" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
          </svg>
        </button>
        <button
          type="button"
          className="sp-icon-btn"
          style={{ marginLeft: 0, width: 'auto', padding: '0 6px', fontSize: 13, fontWeight: 600, color: 'var(--ex-primary)' }}
          aria-label={t('p2pHint')}
          onClick={() => navigate('/transaction/transactionFabi')}
        >
          {t('p2p')}
        </button>
      </header>
      {!pair ? (
        pairs.isError ? (
          <LoadFailed error={pairs.error} onRetry={() => void pairs.refetch()} />
        ) : (
          <InlineLoading />
        )
      ) : (
        <>
          <div className="sp-main">
            <OrderForm pair={pair} side={side} onSideChange={setSide} priceFill={priceFill} />
            <MiniOrderBook pair={pair} onPrice={(price) => setPriceFill((f) => ({ price, n: (f?.n ?? 0) + 1 }))} />
          </div>
          <div className="sp-gap" />
          <OrderTabs pairsName={pairsName} />
        </>
      )}
      <CoinSelectPopup visible={popup} onClose={() => setPopup(false)} current={pairsName} />
    </div>
  );
}
