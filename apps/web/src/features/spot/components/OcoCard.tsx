/**
 * One OCO list in the order lists (Binance app's OCO order): the head (side, pair, "OCO", time) with one Cancel for
 * the list while it is open, else its outcome (take profit filled, stop triggered, cancelled); then its two legs, each
 * a line with its role (Limit, the take-profit leg; Stop-limit, the stop-loss leg), its price (and the stop leg's
 * trigger "≤ 59,000.00"), amount, filled amount and status. The legs come grouped by lib/oco-order groupOrders.
 */
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, groupThousands } from '../../../shared/format';
import { isOpenStatus } from '../hooks/use-spot-live';
import { conditionSign } from '../lib/conditional-order';
import { ocoOutcome } from '../lib/oco-order';
import { OrderGrid, OrderHead } from './OrderParts';

/** Props of OcoCard. */
export interface OcoCardProps {
  orderListId: string;
  /** The list's legs shown, the take-profit leg first. */
  legs: Entrust[];
  /** Cancels the list (shown while a leg is open). */
  onCancel?: (orderListId: string) => void;
  cancelling?: boolean;
}

const show = (v: string) => (v ? groupThousands(v) : EMPTY_VALUE);

/** The card. */
export function OcoCard({ orderListId, legs, onCancel, cancelling }: OcoCardProps) {
  const { t } = useTranslation('spot');
  const first = legs[0]!;
  const [token = '', main = ''] = first.pairsName.split('/');
  const buy = first.side === 'BUY';
  const open = legs.some((o) => isOpenStatus(o.status));
  const outcome = ocoOutcome(legs);
  return (
    <li className="sp-order sp-oco" data-order-list-id={orderListId} aria-label={`${first.pairsName} ${buy ? t('buy') : t('sell')} ${t('tabs.OCO')}`}>
      <OrderHead buy={buy} pairsName={first.pairsName} tag={t('tabs.OCO')} time={first.createTime}>
        {onCancel && open ? (
          <Button size="mini" className="sp-cancel" loading={cancelling} onClick={() => onCancel(orderListId)}>
            {t('cancel')}
          </Button>
        ) : (
          <span className="sp-order-status text-2" data-testid="oco-outcome">
            {t(`oco.outcome.${outcome}`)}
          </span>
        )}
      </OrderHead>
      <ul className="sp-oco-legs">
        {legs.map((o) => {
          const stop = o.listLeg === 'STOP_LOSS';
          const trigger = stop && o.stopPrice ? `${conditionSign('STOP_LOSS', o.side)} ${show(o.stopPrice)}` : EMPTY_VALUE;
          return (
            <li key={o.id} className="sp-oco-leg" aria-label={stop ? t('oco.stopLeg') : t('oco.limitLeg')} data-status={o.status}>
              <div className="sp-oco-leg-head">
                <span className="sp-order-type">{stop ? t('oco.stopLeg') : t('oco.limitLeg')}</span>
                <span className="sp-order-status text-2">{t(`status.${o.status}`, { defaultValue: o.status })}</span>
              </div>
              <OrderGrid
                cells={[
                  [`${t('trigger.label')} (${main})`, trigger],
                  [`${t('price')} (${main})`, show(o.price)],
                  [`${t('filled')} / ${t('amount')} (${token})`, `${show(o.dealAmount)} / ${show(o.amount)}`],
                ]}
              />
            </li>
          );
        })}
      </ul>
    </li>
  );
}
