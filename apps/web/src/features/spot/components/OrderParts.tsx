/**
 * The parts an order card and a fill card share: the head line (side in its colour, pair, a tag such as the order
 * type or the maker/taker role, time, and what stands at the end) and the grid of labelled values.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';

/** Props of OrderHead. */
export interface OrderHeadProps {
  buy: boolean;
  pairsName: string;
  /** The small tag after the pair ("Limit", "Taker"). */
  tag: string;
  /** Unix ms. */
  time: number;
  /** At the end of the line (status or Cancel), optional. */
  children?: ReactNode;
}

/** The head line of a card. */
export function OrderHead({ buy, pairsName, tag, time, children }: OrderHeadProps) {
  const { t } = useTranslation('spot');
  return (
    <div className="sp-order-top">
      <span className={`sp-order-side ${buy ? 'c-up' : 'c-down'}`}>{buy ? t('buy') : t('sell')}</span>
      <b className="sp-order-pair">{pairsName}</b>
      <span className="sp-order-type">{tag}</span>
      <span className="sp-order-time num text-3">{formatDateTime(time)}</span>
      {children}
    </div>
  );
}

/** The grid of a card: [label, value] cells, three a row. */
export function OrderGrid({ cells }: { cells: readonly (readonly [ReactNode, ReactNode])[] }) {
  return (
    <dl className="sp-order-grid num">
      {cells.map(([label, value], i) => (
        <div key={i}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
