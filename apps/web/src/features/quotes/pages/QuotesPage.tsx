/**
 * /quotes (spec section 2): spot and contract tabs; main-currency sub-tabs (contract = USDT) plus a
 * favourites tab (login guard); sortable list re-polled every 5 s while visible; search across the
 * pairs of the market. Tapping a row stores the pair (pairsName for spot, pairsName1 for contract)
 * and opens /quotes/quotesDetail.
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, SearchBar } from 'antd-mobile';
import { SearchOutline } from 'antd-mobile-icons';
import type { MarketType, Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { MarketList } from '../components/MarketList';
import { useMarketPairs } from '../hooks/use-market-pairs';
import { useFavorites } from '../api/get-favorites';
import { detailPath, searchPairs } from '../lib/market-list';
import '../quotes.css';

const FAV = '__fav__';

/** The markets page. */
export default function QuotesPage() {
  const { t } = useTranslation('quotes');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const type: MarketType = params.get('type') === 'contract' ? 'CONTRACT' : 'SPOT';
  const [sub, setSub] = useState<Record<MarketType, string>>({ SPOT: '', CONTRACT: '' });
  const [searching, setSearching] = useState(false);
  const [query, setQuery] = useState('');
  const isLogin = useAppStore((s) => s.isLogin);
  const setPairsName = useAppStore((s) => s.setPairsName);
  const setPairsName1 = useAppStore((s) => s.setPairsName1);
  const market = useMarketPairs(type);
  const fav = useFavorites(type);

  const active = sub[type] || market.mainCurs[0] || '';
  const subTabs = [{ key: FAV, label: t('favorites') }, ...market.mainCurs.map((m) => ({ key: m, label: m }))];

  const open = (p: Pair) => {
    if (p.type === 'SPOT') setPairsName(p.pairsName);
    else setPairsName1(p.pairsName);
    navigate(detailPath(p.pairsName, p.type));
  };

  let pairs: Pair[];
  if (query.trim()) pairs = searchPairs(market.all, query);
  else if (active === FAV) pairs = market.all.filter((p) => fav.names.has(p.pairsName));
  else pairs = market.byMainCur.get(active) ?? [];

  let empty = <EmptyState text={query.trim() ? t('noResult') : undefined} />;
  if (market.isError) {
    // Nothing loaded: the section 8 text of the failure with Retry, never an empty list that looks like no market.
    empty = <LoadFailed error={market.error} onRetry={market.refetch} />;
  } else if (!query.trim() && active === FAV) {
    empty = isLogin ? (
      <EmptyState text={t('noFavorites')} />
    ) : (
      <EmptyState
        text={t('loginForFavorites')}
        action={
          <Button size="small" color="primary" onClick={() => navigate('/login?redirect=%2Fquotes')}>
            {t('logIn')}
          </Button>
        }
      />
    );
  }

  return (
    <div className="qt-page">
      <header className="qt-header">
        {searching ? (
          <div className="qt-search">
            <SearchBar autoFocus value={query} onChange={setQuery} placeholder={t('searchPlaceholder')} aria-label={t('search')} style={{ flex: 1 }} />
            <button
              type="button"
              className="qt-link"
              onClick={() => {
                setSearching(false);
                setQuery('');
              }}
            >
              {t('common:cancel')}
            </button>
          </div>
        ) : (
          <>
            <SegTabs
              classPrefix="qt"
              label={t('title')}
              className="qt-type-tabs"
              items={[
                { key: 'SPOT' as const, label: t('spot') },
                { key: 'CONTRACT' as const, label: t('contract') },
              ]}
              active={type}
              onChange={(k) => setParams(k === 'CONTRACT' ? { type: 'contract' } : {}, { replace: true })}
            />
            <button type="button" className="qt-icon-btn" aria-label={t('search')} onClick={() => setSearching(true)}>
              <SearchOutline fontSize={20} />
            </button>
          </>
        )}
      </header>
      {!query.trim() && (
        <SegTabs
          classPrefix="qt"
          label={t('colName')}
          variant="text"
          className="qt-sub-tabs"
          items={subTabs}
          active={active}
          onChange={(k) => setSub((s) => ({ ...s, [type]: k }))}
        />
      )}
      {market.isLoading && pairs.length === 0 ? (
        <ListSkeleton rows={8} />
      ) : (
        <MarketList pairs={pairs} favorites={fav.names} onOpen={open} empty={empty} showIndex={type === 'CONTRACT'} />
      )}
    </div>
  );
}
