/**
 * Mini order book of the trading screen: asks above (best ask at the bottom), last price (coloured by
 * the 24 h change) with its CNY value in the middle, bids below, each level with a depth bar. Live from
 * the WebSocket depth channel (snapshot + sequenced deltas, resynced on gaps by the shared ws-client).
 * Tapping a level fills its price into the form.
 */
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useLiveDepth } from '../../../shared/ws-client';
import { addDecimal, compareDecimal, divDecimal, formatCny, formatFixed, isZeroDecimal, mulDecimal, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';

/** Levels shown per side. */
export const MINI_BOOK_ROWS = 7;

/** Rows of one side with cumulative quantity and bar percent (of the larger side's total), best first. */
export function bookSide(levels: readonly (readonly [string, string])[], rows: number, max: string): { price: string; qty: string; pct: string }[] {
  let cum = '0';
  return levels.slice(0, rows).map(([price, qty]) => {
    cum = addDecimal(cum, qty);
    return { price, qty, pct: isZeroDecimal(max) ? '0' : divDecimal(mulDecimal(cum, '100', 8), max, 2, 'down') };
  });
}

function sideTotal(levels: readonly (readonly [string, string])[], rows: number): string {
  return levels.slice(0, rows).reduce((s, [, q]) => addDecimal(s, q), '0');
}

/** Props of MiniOrderBook. */
export interface MiniOrderBookProps {
  pair: Pair;
  onPrice: (price: string) => void;
}

/** The mini book. */
export function MiniOrderBook({ pair, onPrice }: MiniOrderBookProps) {
  const { t } = useTranslation('spot');
  const depth = useLiveDepth(pair.pairsName, 'SPOT');
  const bidsAll = depth?.bids ?? [];
  const asksAll = depth?.asks ?? [];
  const bt = sideTotal(bidsAll, MINI_BOOK_ROWS);
  const at = sideTotal(asksAll, MINI_BOOK_ROWS);
  const max = compareDecimal(bt, at) >= 0 ? bt : at;
  const asks = bookSide(asksAll, MINI_BOOK_ROWS, max).reverse();
  const bids = bookSide(bidsAll, MINI_BOOK_ROWS, max);
  const pad = (n: number) => Array.from({ length: Math.max(0, MINI_BOOK_ROWS - n) }, (_, i) => i);
  const row = (r: { price: string; qty: string; pct: string }, side: 'ask' | 'bid') => (
    <li key={r.price}>
      <button
        type="button"
        className="sp-book-row num"
        aria-label={t('usePrice', { price: formatFixed(r.price, pair.priceDecimals) })}
        onClick={() => onPrice(formatFixed(r.price, pair.priceDecimals))}
      >
        <span className={`sp-book-bar ${side === 'ask' ? 'sp-bar-down' : 'sp-bar-up'}`} style={{ width: `${r.pct}%` }} />
        <span className={side === 'ask' ? 'c-down' : 'c-up'}>{formatFixed(r.price, pair.priceDecimals, { group: true })}</span>
        <span className="sp-book-qty">{formatFixed(r.qty, pair.qtyDecimals, { group: true })}</span>
      </button>
    </li>
  );
  const trend = trendOf(pair.updown);
  return (
    <section className="sp-book" aria-label={t('book')} data-seq={depth?.seq ?? ''}>
      <div className="sp-book-head">
        <span>{t('bookPrice', { cur: pair.mainCur })}</span>
        <span>{t('bookAmount', { cur: pair.tokenCur })}</span>
      </div>
      <ul className="sp-book-side" aria-label={t('sell')}>
        {pad(asks.length).map((i) => (
          <li key={`pa${i}`} className="sp-book-empty">
            <span>--</span>
            <span>--</span>
          </li>
        ))}
        {asks.map((r) => row(r, 'ask'))}
      </ul>
      <button type="button" className="sp-book-last" aria-label={t('lastPrice')} onClick={() => onPrice(formatFixed(pair.price, pair.priceDecimals))}>
        <span className={`num sp-book-last-price ${trendClass(trend)}`}>{formatFixed(pair.price, pair.priceDecimals, { group: true })}</span>
        <span className="num text-3">≈{formatCny(pair.chPrice)}</span>
      </button>
      <ul className="sp-book-side" aria-label={t('buy')}>
        {bids.map((r) => row(r, 'bid'))}
        {pad(bids.length).map((i) => (
          <li key={`pb${i}`} className="sp-book-empty">
            <span>--</span>
            <span>--</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
