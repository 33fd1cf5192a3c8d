/** Up to four top pairs with price, percent change and CNY equivalent (spec section 2). */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pair } from '@exchange/api';
import { formatCny, formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { TOP_PAIRS } from '../api/index-coin';
import { useOpenPair } from '../hooks/use-open-pair';

/** The top-pairs row. */
export const TopPairs = memo(function TopPairs({ pairs }: { pairs: Pair[] | undefined }) {
  const { t } = useTranslation('home');
  const openPair = useOpenPair();
  const list = (pairs ?? []).slice(0, TOP_PAIRS);
  return (
    <section className="home-top" aria-label={t('topPairs')}>
      {list.length === 0
        ? Array.from({ length: TOP_PAIRS }, (_, i) => <div key={i} className="home-top-item skeleton" aria-hidden="true" />)
        : list.map((p) => {
            const cls = trendClass(trendOf(p.updown));
            return (
              <button type="button" key={p.pairsName} className="home-top-item" aria-label={p.pairsName} onClick={() => openPair(p)}>
                <div className="home-top-name">
                  {p.tokenCur}
                  <span className="text-3">/{p.mainCur}</span>
                </div>
                <div className={`home-top-price num ${cls}`}>{formatFixed(p.price, p.priceDecimals, { group: true })}</div>
                <div className={`home-top-pct num ${cls}`}>{formatPercent(p.updown)}</div>
                <div className="home-top-cny num text-3">≈{formatCny(p.chPrice)}</div>
              </button>
            );
          })}
    </section>
  );
});
