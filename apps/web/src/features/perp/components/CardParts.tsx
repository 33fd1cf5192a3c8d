/** The parts position and order cards share: the grid of labelled values, and a signed amount in its trend colour. */
import type { ReactNode } from 'react';
import { EMPTY_VALUE, formatFixed, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';

/** The grid of a card: [label, value] cells, three a row. */
export function CardGrid({ cells }: { cells: readonly (readonly [ReactNode, ReactNode])[] }) {
  return (
    <dl className="ct-grid num">
      {cells.map(([label, value], i) => (
        <div key={i}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A signed value at `decimals` ("+12.30", "-4.00") coloured by its sign; '--' when empty. */
export function Signed({ value, decimals, suffix = '' }: { value: string; decimals: number; suffix?: string }) {
  if (!value) return <span>{EMPTY_VALUE}</span>;
  const trend = trendOf(value);
  const text = formatFixed(value, decimals, { group: true });
  return <span className={trendClass(trend)}>{`${trend === 'up' ? '+' : ''}${text}${suffix}`}</span>;
}

/** A price at the market's decimals, grouped, or '--' when empty. */
export const priceText = (v: string, decimals: number) => (v ? formatFixed(v, decimals, { group: true }) : EMPTY_VALUE);
