/**
 * One of the user's fills (trade history, schemas.ts UserTrade): side, pair, maker/taker and time; price, amount,
 * total and fee. Price and amount come at the market's precision and are grouped; the total and the fee keep every
 * digit but no trailing zeros (formatCoin exact), as in OrderCard.
 */
import type { UserTrade } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatCoin, groupThousands } from '../../../shared/format';
import { OrderGrid, OrderHead } from './OrderParts';

/** A list of fills (newest first as given). */
export function TradeList({ trades }: { trades: readonly UserTrade[] }) {
  const { t } = useTranslation('spot');
  return (
    <ul className="sp-order-list" aria-label={t('tradeHistory')}>
      {trades.map((tr) => (
        <TradeCard key={`${tr.tradeId}-${tr.role}`} trade={tr} />
      ))}
    </ul>
  );
}

/** The fill card. */
export function TradeCard({ trade }: { trade: UserTrade }) {
  const { t } = useTranslation('spot');
  const [token = '', main = ''] = trade.pairsName.split('/');
  const buy = trade.side === 'BUY';
  return (
    <li className="sp-order" aria-label={`${trade.pairsName} ${buy ? t('buy') : t('sell')}`}>
      <OrderHead buy={buy} pairsName={trade.pairsName} tag={t(`fillRole.${trade.role}`)} time={trade.time} />
      <OrderGrid
        cells={[
          [`${t('price')} (${main})`, groupThousands(trade.price)],
          [`${t('amount')} (${token})`, groupThousands(trade.amount)],
          [`${t('total')} (${main})`, formatCoin(trade.total, main, { exact: true })],
          [t('fee'), `${formatCoin(trade.fee, trade.feeCur, { exact: true })} ${trade.feeCur}`],
        ]}
      />
    </li>
  );
}
