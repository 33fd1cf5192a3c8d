/**
 * /contract tab (issue 3 scope): the contract markets and the price ticker (with index price) of the
 * stored contract pair (pairsName1), and a plain note that contract trading arrives later. Rows and
 * the chart link open the contract pair detail.
 */
import { useNavigate } from 'react-router';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { useLiveTicker } from '../../../shared/ws-client';
import { InlineLoading } from '../../../shared/ui';
import { useMarketPairs } from '../hooks/use-market-pairs';
import { useFavorites } from '../api/get-favorites';
import { MarketList } from '../components/MarketList';
import { TickerHeader } from '../components/TickerHeader';
import { detailPath } from '../lib/market-list';
import '../quotes.css';

/** The contract tab page. */
export default function ContractPage() {
  const { t } = useTranslation('quotes');
  const navigate = useNavigate();
  const pairsName1 = useAppStore((s) => s.pairsName1);
  const setPairsName1 = useAppStore((s) => s.setPairsName1);
  const market = useMarketPairs('CONTRACT');
  const fav = useFavorites('CONTRACT');
  const live = useLiveTicker(pairsName1, 'CONTRACT');
  const current = live ?? market.all.find((p) => p.pairsName === pairsName1) ?? market.all[0];
  const open = (p: Pair) => {
    setPairsName1(p.pairsName);
    navigate(detailPath(p.pairsName, 'CONTRACT'));
  };
  return (
    <div className="qt-page">
      <header className="qt-header qt-header-title">
        <h1>{t('contractPage.title')}</h1>
        {current && (
          <button type="button" className="qt-link" onClick={() => open(current)}>
            {t('contractPage.detail')}
          </button>
        )}
      </header>
      <div className="qt-soon" role="note">
        {t('contractPage.soon')}
      </div>
      {current && (
        <div className="qt-contract-ticker">
          <div className="qt-contract-name">
            <b>{current.pairsName}</b>
            <span className="qt-tag">{t('perpetual')}</span>
          </div>
          <TickerHeader pair={current} />
        </div>
      )}
      <h2 className="qt-section-title">{t('contractPage.markets')}</h2>
      {market.isLoading && market.all.length === 0 ? (
        <InlineLoading />
      ) : (
        <MarketList pairs={market.all} favorites={fav.names} onOpen={open} showIndex />
      )}
    </div>
  );
}
