/**
 * The contract's order book and recent trades beside the order form (as the spot screen's mini book): asks above, the
 * last price (mark price under it) in the middle, bids below, each level with a depth bar; tapping a level or the
 * last price fills the form's price. A second tab shows the latest trades. Live from contractDepth / contractTrades.
 */
import { useState } from 'react';
import type { ContractMarket } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { addDecimal, compareDecimal, divDecimal, formatDateTime, formatFixed, isZeroDecimal, mulDecimal, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useContractDepth, useContractTrades } from '../hooks/use-contract-market';

/** Levels shown per side. */
export const BOOK_ROWS = 7;

/** Rows of one side with the bar percent of the cumulative quantity (of the larger side's total), best first. */
export function bookRows(levels: readonly (readonly [string, string])[], rows: number, max: string): { price: string; qty: string; pct: string }[] {
  let cum = '0';
  return levels.slice(0, rows).map(([price, qty]) => {
    cum = addDecimal(cum, qty);
    return { price, qty, pct: isZeroDecimal(max) ? '0' : divDecimal(mulDecimal(cum, '100', 8), max, 2, 'down') };
  });
}

const total = (levels: readonly (readonly [string, string])[], rows: number) => levels.slice(0, rows).reduce((s, [, q]) => addDecimal(s, q), '0');

/** Props of ContractBook. */
export interface ContractBookProps {
  market: ContractMarket;
  onPrice: (price: string) => void;
}

function Book({ market, onPrice }: ContractBookProps) {
  const { t } = useTranslation('contract');
  const depth = useContractDepth(market.symbol);
  const bidsAll = depth?.bids ?? [];
  const asksAll = depth?.asks ?? [];
  const bt = total(bidsAll, BOOK_ROWS);
  const at = total(asksAll, BOOK_ROWS);
  const max = compareDecimal(bt, at) >= 0 ? bt : at;
  const asks = bookRows(asksAll, BOOK_ROWS, max).reverse();
  const bids = bookRows(bidsAll, BOOK_ROWS, max);
  const d = market.priceDecimals;
  const pad = (n: number, k: string) =>
    Array.from({ length: Math.max(0, BOOK_ROWS - n) }, (_, i) => (
      <li key={`${k}${i}`} className="ct-book-empty">
        <span>--</span>
        <span>--</span>
      </li>
    ));
  const row = (r: { price: string; qty: string; pct: string }, side: 'ask' | 'bid') => (
    <li key={r.price}>
      <button
        type="button"
        className="ct-book-row num"
        aria-label={t('usePrice', { price: formatFixed(r.price, d) })}
        onClick={() => onPrice(formatFixed(r.price, d))}
      >
        <span className={`ct-book-bar ${side === 'ask' ? 'ct-bar-down' : 'ct-bar-up'}`} style={{ width: `${r.pct}%` }} />
        <span className={side === 'ask' ? 'c-down' : 'c-up'}>{formatFixed(r.price, d, { group: true })}</span>
        <span>{formatFixed(r.qty, market.qtyDecimals, { group: true })}</span>
      </button>
    </li>
  );
  const last = market.lastPrice || market.markPrice;
  return (
    <>
      <div className="ct-book-head">
        <span>{t('bookPrice', { cur: market.quote })}</span>
        <span>{t('bookAmount', { cur: market.base })}</span>
      </div>
      <ul className="ct-book-side" aria-label={t('short')}>
        {pad(asks.length, 'a')}
        {asks.map((r) => row(r, 'ask'))}
      </ul>
      <button type="button" className="ct-book-last" aria-label={t('lastPrice')} onClick={() => last && onPrice(formatFixed(last, d))}>
        <span className={`num ct-book-last-price ${trendClass(trendOf(market.change24h))}`}>{last ? formatFixed(last, d, { group: true }) : '--'}</span>
        <span className="num text-3">
          {t('markPrice')} {market.markPrice ? formatFixed(market.markPrice, d, { group: true }) : '--'}
        </span>
      </button>
      <ul className="ct-book-side" aria-label={t('long')}>
        {bids.map((r) => row(r, 'bid'))}
        {pad(bids.length, 'b')}
      </ul>
    </>
  );
}

function Trades({ market }: { market: ContractMarket }) {
  const { t } = useTranslation('contract');
  const trades = useContractTrades(market.symbol, BOOK_ROWS * 2 + 2);
  return (
    <>
      <div className="ct-book-head">
        <span>{t('bookPrice', { cur: market.quote })}</span>
        <span>{t('bookAmount', { cur: market.base })}</span>
        <span>{t('time')}</span>
      </div>
      <ul className="ct-trades num" aria-label={t('trades')}>
        {trades.map((tr) => (
          <li key={tr.id}>
            <span className={tr.side === 'BUY' ? 'c-up' : 'c-down'}>{formatFixed(tr.price, market.priceDecimals, { group: true })}</span>
            <span>{formatFixed(tr.amount, market.qtyDecimals, { group: true })}</span>
            <span className="text-3">{formatDateTime(tr.time).slice(-8)}</span>
          </li>
        ))}
        {trades.length === 0 && <li className="ct-book-empty">--</li>}
      </ul>
    </>
  );
}

/** Book and trades in two tabs. */
export function ContractBook({ market, onPrice }: ContractBookProps) {
  const { t } = useTranslation('contract');
  const [tab, setTab] = useState<'book' | 'trades'>('book');
  return (
    <section className="ct-book" aria-label={t('book')}>
      <SegTabs
        classPrefix="ct"
        variant="text"
        label={t('book')}
        items={[
          { key: 'book' as const, label: t('book') },
          { key: 'trades' as const, label: t('trades') },
        ]}
        active={tab}
        onChange={setTab}
      />
      {tab === 'book' ? <Book market={market} onPrice={onPrice} /> : <Trades market={market} />}
    </section>
  );
}
