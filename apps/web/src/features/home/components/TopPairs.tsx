/** Up to four top pairs with price, percent change and CNY equivalent (spec section 2). */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Pair } from '@exchange/api';
import { formatCny, formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { useAppStore } from '../../../shared/storage';
import { TOP_PAIRS } from '../api/index-coin';
import { pairDetailPath } from './pair-link';

/** The top-pairs row. */
export function TopPairs({ pairs }: { pairs: Pair[] | undefined }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const setPairsName = useAppStore((s) => s.setPairsName);
  const list = (pairs ?? []).slice(0, TOP_PAIRS);
  return (
    <section className="home-top" aria-label={t('topPairs')}>
      {list.length === 0
        ? Array.from({ length: TOP_PAIRS }, (_, i) => <div key={i} className="home-top-item skeleton" aria-hidden="true" />)
        : list.map((p) => {
            const cls = trendClass(trendOf(p.updown));
            return (
              <button
                type="button"
                key={p.pairsName}
                className="home-top-item"
                aria-label={p.pairsName}
                onClick={() => {
                  setPairsName(p.pairsName);
                  navigate(pairDetailPath(p.pairsName, p.type));
                }}
              >
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
}
