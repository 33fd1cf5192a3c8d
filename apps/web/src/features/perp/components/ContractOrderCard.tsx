/**
 * One contract order (spec section 3 "Contract order"): trade type (open long, open short, close long, close short,
 * force close, normal close) and what triggered it, market, order type, leverage; entrust price, match price, entrust
 * hands, match quantity, entrust value, revocable hands, margin, fee, profit/loss, profit rate, open and close time,
 * order number and status (filled, cancelled, partially filled, pending). An open order has a Cancel button.
 */
import { Button } from 'antd-mobile';
import type { ContractOrder } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatCoin, formatDateTime, groupThousands } from '../../../shared/format';
import { isOpenOrder } from '../hooks/use-contract-live';
import { CardGrid, priceText, Signed } from './CardParts';

/** Props of ContractOrderCard. */
export interface ContractOrderCardProps {
  order: ContractOrder;
  /** price decimals of the market ('' prices stay '--') */
  priceDecimals?: number;
  onCancel?: (order: ContractOrder) => void;
  cancelling?: boolean;
}

/** True when the trade type opens or adds to a long / closes a short (shown in the rising colour). */
export function isBuyish(order: Pick<ContractOrder, 'side'>): boolean {
  return order.side === 'BUY';
}

/** The order card. */
export function ContractOrderCard({ order: o, priceDecimals, onCancel, cancelling }: ContractOrderCardProps) {
  const { t } = useTranslation('contract');
  const d = priceDecimals ?? (o.price.split('.')[1] ?? o.avgPrice.split('.')[1] ?? '').length;
  const money = (v: string) => (v ? formatCoin(v, 'USDT') : EMPTY_VALUE);
  return (
    <li className="ct-card" aria-label={`${o.symbol} ${t(`tradeType.${o.tradeType}`)}`} data-testid="contract-order">
      <div className="ct-card-top">
        <span className={`ct-card-side ${isBuyish(o) ? 'c-up' : 'c-down'}`} data-testid="trade-type">
          {t(`tradeType.${o.tradeType}`)}
        </span>
        <b className="ct-card-pair">{o.symbol}</b>
        <span className="ct-chip">{o.orderType === 'LIMIT' ? t('limit') : t('market')}</span>
        <span className="ct-chip num">{t('leverageX', { n: o.leverage })}</span>
        {o.trigger && <span className="ct-chip">{t(`trigger.${o.trigger}`)}</span>}
        {onCancel && isOpenOrder(o.status) ? (
          <Button size="mini" className="ct-card-end" loading={cancelling} onClick={() => onCancel(o)}>
            {t('revoke')}
          </Button>
        ) : (
          <span className="ct-card-end" data-testid="order-status">
            {t(`status.${o.status}`)}
          </span>
        )}
      </div>
      <CardGrid
        cells={[
          [t('entrustPrice'), o.orderType === 'MARKET' ? t('market') : priceText(o.price, d)],
          [t('matchPrice'), priceText(o.avgPrice, d)],
          [t('entrustHands'), String(o.lots)],
          [t('matchQty'), groupThousands(o.filledQty)],
          [t('entrustValue'), money(o.entrustValue)],
          [t('revocableHands'), String(o.revocableLots)],
          [t('margin'), money(o.margin)],
          [t('fee'), o.fee ? formatCoin(o.fee, 'USDT', { exact: true }) : EMPTY_VALUE],
          [t('pnl'), <Signed key="pnl" value={o.realizedPnl} decimals={2} />],
          [t('profitRate'), <Signed key="pr" value={o.profitRate} decimals={2} suffix="%" />],
          [t('openTime'), formatDateTime(o.openTime)],
          [t('closeTime'), o.closeTime ? formatDateTime(o.closeTime) : EMPTY_VALUE],
          [t('orderNo'), o.orderId],
          [t('statusLabel'), t(`status.${o.status}`)],
          [t('takeProfit') + ' / ' + t('stopLoss'), `${priceText(o.takeProfit, d)} / ${priceText(o.stopLoss, d)}`],
        ]}
      />
    </li>
  );
}
