/**
 * /contract (spec section 2, tab "contract"): header with the stored contract pair
 * (`pairsName1`) opening the contract coin popup, its 24 h change and a link to its chart; the mark price, index
 * price, funding rate and countdown; the order form beside the contract's order book and recent trades (tap a level
 * to use its price); positions and current orders below. A paused contract (stale index) shows why in a banner above
 * the prices, and the form's open button is disabled. Positions, orders and the account follow the private
 * WebSocket, prices the public one.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { EmptyState, InlineLoading, LoadFailed } from '../../../shared/ui';
import { usePositions } from '../api/get-positions';
import { ContractSelectPopup } from '../components/ContractSelectPopup';
import { ContractOrderForm } from '../components/ContractOrderForm';
import { ContractBook } from '../components/ContractBook';
import { MarkStrip } from '../components/MarkStrip';
import { ContractPauseBanner } from '../components/ContractPauseBanner';
import { PositionTabs } from '../components/PositionTabs';
import { useContractMarket } from '../hooks/use-contract-market';
import { useContractLive } from '../hooks/use-contract-live';
import '../contract.css';

/** The contract trading page. */
export default function ContractTradePage() {
  const { t } = useTranslation('contract');
  const navigate = useNavigate();
  const symbol = useAppStore((s) => s.pairsName1) || 'BTC/USDT';
  const setPairsName1 = useAppStore((s) => s.setPairsName1);
  const { market, list } = useContractMarket(symbol);
  const positions = usePositions();
  const [popup, setPopup] = useState(false);
  const [priceFill, setPriceFill] = useState<{ price: string; n: number } | null>(null);
  useContractLive();

  // A stored pair that is not a listed contract falls back to the first contract.
  useEffect(() => {
    if (list.data && list.data.length > 0 && !list.data.some((m) => m.symbol === symbol)) setPairsName1(list.data[0]!.symbol);
  }, [list.data, symbol, setPairsName1]);

  const position = positions.data?.find((p) => p.symbol === symbol);
  return (
    <div className="ct-page">
      <header className="ct-header">
        <button type="button" className="ct-pair-btn" aria-label={t('selectPair', { pair: symbol })} onClick={() => setPopup(true)}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 6h16M4 12h16M4 18h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <b>{symbol}</b>
        </button>
        <span className="ct-tag">{t('perpetual')}</span>
        {market && <span className={`num ct-header-chg ${trendClass(trendOf(market.change24h))}`}>{formatPercent(market.change24h)}</span>}
        <button
          type="button"
          className="ct-icon-btn"
          aria-label={t('openChart', { pair: symbol })}
          onClick={() => navigate(`/quotes/quotesDetail?type=contract&pairsName=${encodeURIComponent(symbol)}`)}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M7 4v16M17 4v16M4 8h6v8H4zM14 6h6v8h-6z" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
          </svg>
        </button>
      </header>
      {!market ? (
        list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data && list.data.length === 0 ? (
          <EmptyState />
        ) : (
          <InlineLoading />
        )
      ) : (
        <>
          <ContractPauseBanner market={market} />
          <MarkStrip market={market} />
          <div className="ct-main">
            <ContractOrderForm market={market} position={position} priceFill={priceFill} />
            <ContractBook market={market} onPrice={(price) => setPriceFill((f) => ({ price, n: (f?.n ?? 0) + 1 }))} />
          </div>
          <div className="ct-gap" />
          <PositionTabs market={market} markets={list.data ?? []} />
        </>
      )}
      <ContractSelectPopup visible={popup} onClose={() => setPopup(false)} current={symbol} />
    </div>
  );
}
