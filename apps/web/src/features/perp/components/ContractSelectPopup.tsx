/**
 * Coin selection popup of the contract screen (spec section 2 "Other screens", contract tab): the settle-currency tabs
 * and the perpetual markets with last price and 24 h change, a search; selecting one stores it as the current
 * contract pair (`pairsName1`) and closes. Closes when the app closes every popup (ui-store overlayEpoch).
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { Popup, SearchBar } from 'antd-mobile';
import type { ContractMarket } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore } from '../../../shared/storage';
import { formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { EmptyState, isAwaiting, ListSkeleton } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useContractMarkets } from '../api/get-markets';

/** Props of ContractSelectPopup. */
export interface ContractSelectPopupProps {
  visible: boolean;
  onClose: () => void;
  current: string;
}

/** Markets of `quote` whose base or symbol contains `query` (case-insensitive, "/" optional). */
export function filterMarkets(markets: readonly ContractMarket[], quote: string, query: string): ContractMarket[] {
  const q = query.trim().toUpperCase().replace('/', '');
  return markets.filter((m) => m.quote === quote && (!q || m.base.includes(q) || m.symbol.replace('/', '').includes(q)));
}

/** The popup. */
export function ContractSelectPopup({ visible, onClose, current }: ContractSelectPopupProps) {
  const { t } = useTranslation('contract');
  const setPairsName1 = useAppStore((s) => s.setPairsName1);
  const epoch = useUiStore((s) => s.overlayEpoch);
  const markets = useContractMarkets(visible);
  const [quote, setQuote] = useState('');
  const [query, setQuery] = useState('');
  const quotes = [...new Set((markets.data ?? []).map((m) => m.quote))];
  const active = quote || current.split('/')[1] || quotes[0] || 'USDT';

  // Only an epoch change closes the popup: the parent's onClose (a new function on every render) is read at the time.
  const closeForEpoch = useEffectEvent(() => onClose());
  useEffect(() => {
    if (epoch) closeForEpoch();
  }, [epoch]);

  const list = filterMarkets(markets.data ?? [], active, query);
  const select = (m: ContractMarket) => {
    setPairsName1(m.symbol);
    onClose();
  };
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="left" bodyClassName="ct-coins-body" destroyOnClose>
      <div className="ct-coins" role="dialog" aria-label={t('pairs')}>
        <h2 className="ct-coins-title">
          {t('pairs')} <span className="ct-tag">{t('perpetual')}</span>
        </h2>
        <SearchBar value={query} onChange={setQuery} placeholder={t('search')} />
        <SegTabs classPrefix="ct" label={t('pairs')} variant="text" items={quotes.map((m) => ({ key: m, label: m }))} active={active} onChange={setQuote} />
        {isAwaiting(markets) ? (
          <ListSkeleton />
        ) : list.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="ct-coins-list">
            {list.map((m) => (
              <li key={m.symbol}>
                <button type="button" className={`ct-coin${m.symbol === current ? ' ct-coin-on' : ''}`} onClick={() => select(m)} aria-label={m.symbol}>
                  <span className="ct-coin-name">
                    <b>{m.base}</b>
                    <span className="text-3">/{m.quote}</span>
                  </span>
                  <span className="num ct-coin-price">{formatFixed(m.lastPrice || m.markPrice, m.priceDecimals, { group: true })}</span>
                  <span className={`num ct-coin-chg ${trendClass(trendOf(m.change24h))}`}>{formatPercent(m.change24h)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Popup>
  );
}
