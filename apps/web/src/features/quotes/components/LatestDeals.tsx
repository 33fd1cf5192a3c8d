/**
 * Latest deals of a pair: time, price coloured by the taker side (buy = rise colour), amount. The
 * REST list first, then pushes of the WebSocket trades channel on top (deduplicated by trade id).
 */
import type { MarketType, PublicTrade } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useLiveTrades } from '../../../shared/ws-client';
import { formatFixed } from '../../../shared/format';
import { EmptyState } from '../../../shared/ui';
import { useTradesSnapshot } from '../api/get-trades';
import { useContractDeals } from '../api/get-contract-market';

/** Props of LatestDeals. */
export interface LatestDealsProps {
  pairsName: string;
  type: MarketType;
  priceDecimals: number;
  qtyDecimals: number;
  rows?: number;
}

/** Newest-first union of live and REST trades, without duplicates, at most `rows`. */
export function mergeTrades(live: readonly PublicTrade[], rest: readonly PublicTrade[], rows: number): PublicTrade[] {
  const seen = new Set<string>();
  const out: PublicTrade[] = [];
  for (const tr of [...live, ...rest]) {
    if (seen.has(tr.id)) continue;
    seen.add(tr.id);
    out.push(tr);
  }
  return out.sort((a, b) => b.time - a.time).slice(0, rows);
}

function hms(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The deals table. */
export function LatestDeals({ pairsName, type, priceDecimals, qtyDecimals, rows = 20 }: LatestDealsProps) {
  const { t } = useTranslation('quotes');
  const live = useLiveTrades(pairsName, type);
  const rest = useTradesSnapshot(pairsName, type, rows);
  // A perpetual contract's trades come from its own channel (contractTrades).
  const perp = useContractDeals(pairsName, type === 'CONTRACT', rows);
  const isPerp = type === 'CONTRACT';
  const list = isPerp ? mergeTrades(perp.live, perp.rest, rows) : mergeTrades(live ?? [], rest.data ?? [], rows);
  if ((isPerp ? perp.loaded : rest.isSuccess) && list.length === 0) return <EmptyState />;
  return (
    <table className="qt-deals num" aria-label={t('tabDeals')}>
      <thead>
        <tr>
          <th>{t('time')}</th>
          <th>{t('price')}</th>
          <th>{t('amount')}</th>
        </tr>
      </thead>
      <tbody>
        {list.map((tr) => (
          <tr key={tr.id}>
            <td className="text-2">{hms(tr.time)}</td>
            <td className={tr.side === 'BUY' ? 'c-up' : 'c-down'}>{formatFixed(tr.price, priceDecimals, { group: true })}</td>
            <td>{formatFixed(tr.amount, qtyDecimals, { group: true })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
