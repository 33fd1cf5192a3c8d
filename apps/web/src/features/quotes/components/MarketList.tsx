/**
 * The markets list: a sortable header (name / vol, last price, 24 h change; tap cycles descending,
 * ascending, off) and one row per pair: favourite star, base/quote and abbreviated volume (spec
 * section 9: >= 10,000 as 万/亿 or K/M), last price at the market's precision with its CNY price,
 * and the change as a pill in the user's colour convention. Tapping a row opens its detail.
 */
import { useState, type ReactNode } from 'react';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatCny, formatCompact, formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { EmptyState } from '../../../shared/ui';
import { nextSort, sortPairs, type SortKey, type SortState } from '../lib/market-list';
import { FavoriteButton } from './FavoriteButton';

/** Props of MarketList. */
export interface MarketListProps {
  pairs: readonly Pair[];
  favorites: Set<string>;
  onOpen: (pair: Pair) => void;
  /** Shown when the list is empty. */
  empty?: ReactNode;
  /** Contract rows show the index price under the last price. */
  showIndex?: boolean;
}

function SortHeader({ k, label, sort, onSort, align }: { k: SortKey; label: string; sort: SortState; onSort: (k: SortKey) => void; align?: 'right' }) {
  const { t } = useTranslation('quotes');
  const dir = sort.key === k ? sort.dir : null;
  return (
    <button
      type="button"
      className={`qt-sort${align === 'right' ? ' qt-sort-right' : ''}${dir ? ' qt-sort-on' : ''}`}
      aria-label={t('sortBy', { col: label })}
      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
      onClick={() => onSort(k)}
    >
      {label}
      <span className="qt-sort-arrows" aria-hidden="true">
        <i className={dir === 'asc' ? 'on' : ''}>▲</i>
        <i className={dir === 'desc' ? 'on' : ''}>▼</i>
      </span>
    </button>
  );
}

/** One pair row. */
export function PairRow({ pair, favorite, onOpen, showIndex }: { pair: Pair; favorite: boolean; onOpen: (p: Pair) => void; showIndex?: boolean }) {
  const { t } = useTranslation('quotes');
  const lang = useAppStore((s) => s.currentLangue);
  const trend = trendOf(pair.updown);
  return (
    <li className="qt-row">
      <FavoriteButton pairsName={pair.pairsName} type={pair.type} on={favorite} size={15} />
      <button type="button" className="qt-row-main" onClick={() => onOpen(pair)} aria-label={pair.pairsName}>
        <span className="qt-row-name">
          <span className="qt-row-pair">
            <b>{pair.tokenCur}</b>
            <span className="text-3">/{pair.mainCur}</span>
            {pair.type === 'CONTRACT' && <span className="qt-tag">{t('perpetual')}</span>}
          </span>
          <span className="qt-row-sub num">{t('vol', { v: formatCompact(pair.volume, lang) })}</span>
        </span>
        <span className="qt-row-price">
          <span className="num qt-row-last">{formatFixed(pair.price, pair.priceDecimals, { group: true })}</span>
          <span className="qt-row-sub num">
            {showIndex && pair.indexPrice ? t('indexShort', { v: formatFixed(pair.indexPrice, pair.priceDecimals, { group: true }) }) : formatCny(pair.chPrice)}
          </span>
        </span>
        <span className={`qt-chg num bg-${trend}`}>{formatPercent(pair.updown)}</span>
      </button>
    </li>
  );
}

/** The sortable list. */
export function MarketList({ pairs, favorites, onOpen, empty, showIndex }: MarketListProps) {
  const { t } = useTranslation('quotes');
  const [sort, setSort] = useState<SortState>({ key: null, dir: null });
  const onSort = (k: SortKey) => setSort((s) => nextSort(s, k));
  const rows = sortPairs(pairs, sort);
  return (
    <div className="qt-list">
      <div className="qt-list-head">
        <span className="qt-head-name">
          <SortHeader k="name" label={t('colName')} sort={sort} onSort={onSort} />
          <span className="qt-head-sep">/</span>
          <SortHeader k="volume" label={t('colVol')} sort={sort} onSort={onSort} />
        </span>
        <SortHeader k="price" label={t('colPrice')} sort={sort} onSort={onSort} align="right" />
        <SortHeader k="change" label={t('colChange')} sort={sort} onSort={onSort} align="right" />
      </div>
      {rows.length === 0 ? (
        (empty ?? <EmptyState />)
      ) : (
        <ul className="qt-rows" aria-label={t('title')}>
          {rows.map((p) => (
            <PairRow key={`${p.type}:${p.pairsName}`} pair={p} favorite={favorites.has(p.pairsName)} onOpen={onOpen} showIndex={showIndex} />
          ))}
        </ul>
      )}
    </div>
  );
}
