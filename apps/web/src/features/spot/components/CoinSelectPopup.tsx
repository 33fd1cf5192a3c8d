/**
 * Coin-selection popup of the trading screen (spec section 2 "Other screens"): main-currency tabs and
 * the pairs with price and change; selecting a pair stores it as `pairsName` and closes. Closes when
 * the app closes every popup (session expiry: ui-store overlayEpoch).
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { Popup, SearchBar } from 'antd-mobile';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore } from '../../../shared/storage';
import { formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { EmptyState, isAwaiting, ListSkeleton } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useMainCurs, usePairsByMainCur } from '../../../shared/market-api';

/** Props of CoinSelectPopup. */
export interface CoinSelectPopupProps {
  visible: boolean;
  onClose: () => void;
  current: string;
}

/** The popup. */
export function CoinSelectPopup({ visible, onClose, current }: CoinSelectPopupProps) {
  const { t } = useTranslation('spot');
  const setPairsName = useAppStore((s) => s.setPairsName);
  const epoch = useUiStore((s) => s.overlayEpoch);
  const curs = useMainCurs();
  const [mainCur, setMainCur] = useState('');
  const [query, setQuery] = useState('');
  const active = mainCur || current.split('/')[1] || curs.data?.[0] || 'USDT';
  const pairs = usePairsByMainCur(active, 'SPOT', visible);

  // Only an epoch change closes the popup: the parent's onClose (a new function on every render) is read at the time.
  const closeForEpoch = useEffectEvent(() => onClose());
  useEffect(() => {
    if (epoch) closeForEpoch();
  }, [epoch]);

  const q = query.trim().toUpperCase();
  const list = (pairs.data ?? []).filter((p) => !q || p.tokenCur.includes(q) || p.pairsName.replace('/', '').includes(q.replace('/', '')));
  const select = (p: Pair) => {
    setPairsName(p.pairsName);
    onClose();
  };
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="left" bodyClassName="sp-coins-body" destroyOnClose>
      <div className="sp-coins" role="dialog" aria-label={t('pairs')}>
        <h2 className="sp-coins-title">{t('pairs')}</h2>
        <SearchBar value={query} onChange={setQuery} placeholder={t('pairs')} className="sp-coins-search" />
        <SegTabs
          classPrefix="sp"
          label={t('pairs')}
          variant="text"
          items={(curs.data ?? []).map((m) => ({ key: m, label: m }))}
          active={active}
          onChange={setMainCur}
        />
        {isAwaiting(pairs) ? (
          <ListSkeleton />
        ) : list.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="sp-coins-list">
            {list.map((p) => (
              <li key={p.pairsName}>
                <button type="button" className={`sp-coin${p.pairsName === current ? ' sp-coin-on' : ''}`} onClick={() => select(p)} aria-label={p.pairsName}>
                  <span className="sp-coin-name">
                    <b>{p.tokenCur}</b>
                    <span className="text-3">/{p.mainCur}</span>
                  </span>
                  <span className="num sp-coin-price">{formatFixed(p.price, p.priceDecimals, { group: true })}</span>
                  <span className={`num sp-coin-chg ${trendClass(trendOf(p.updown))}`}>{formatPercent(p.updown)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Popup>
  );
}
