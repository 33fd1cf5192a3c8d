/**
 * Order book of the pair detail (spec section 1 "order list"): bids left, asks right, each level with
 * its depth bar, live from the WebSocket depth channel (snapshot + sequenced deltas, gaps resynced by
 * the shared ws-client) and the REST snapshot until the first push.
 */
import type { MarketType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useLiveDepth } from '../../../shared/ws-client';
import { formatFixed } from '../../../shared/format';
import { EmptyState } from '../../../shared/ui';
import { useDepthSnapshot } from '../api/get-depth';
import { useContractBook } from '../api/get-contract-market';
import { depthView } from '../lib/depth-view';

/** Props of DepthBook. */
export interface DepthBookProps {
  pairsName: string;
  type: MarketType;
  priceDecimals: number;
  qtyDecimals: number;
  rows?: number;
}

/** The two-column order book. */
export function DepthBook({ pairsName, type, priceDecimals, qtyDecimals, rows = 15 }: DepthBookProps) {
  const { t } = useTranslation('quotes');
  const live = useLiveDepth(pairsName, type);
  const rest = useDepthSnapshot(pairsName, type, 50);
  // A perpetual contract's book comes from its own channel (contractDepth).
  const perp = useContractBook(pairsName, type === 'CONTRACT');
  const book = type === 'CONTRACT' ? perp : (live ?? rest.data);
  const view = depthView(book?.bids ?? [], book?.asks ?? [], rows);
  if (book && view.bids.length === 0 && view.asks.length === 0) return <EmptyState />;
  return (
    <div className="qt-book" aria-label={t('tabBook')} data-seq={book && 'seq' in book ? book.seq : ''}>
      <div className="qt-book-head">
        <span>{t('bid')}</span>
        <span>{t('amount')}</span>
        <span className="qt-book-mid">{t('price')}</span>
        <span>{t('amount')}</span>
        <span>{t('ask')}</span>
      </div>
      <div className="qt-book-cols">
        <ul className="qt-book-side" aria-label={t('bid')}>
          {view.bids.map((r) => (
            <li key={r.price} className="qt-book-row num">
              <span className="qt-book-bar bg-up-soft" style={{ width: `${r.barPct}%`, right: 0 }} />
              <span className="qt-book-qty">{formatFixed(r.qty, qtyDecimals, { group: true })}</span>
              <span className="c-up">{formatFixed(r.price, priceDecimals, { group: true })}</span>
            </li>
          ))}
        </ul>
        <ul className="qt-book-side" aria-label={t('ask')}>
          {view.asks.map((r) => (
            <li key={r.price} className="qt-book-row num">
              <span className="qt-book-bar bg-down-soft" style={{ width: `${r.barPct}%`, left: 0 }} />
              <span className="c-down">{formatFixed(r.price, priceDecimals, { group: true })}</span>
              <span className="qt-book-qty">{formatFixed(r.qty, qtyDecimals, { group: true })}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
