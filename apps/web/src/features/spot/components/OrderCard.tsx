/**
 * One spot order: pair, side, type, time and status; price, amount, filled and average price; a
 * Cancel button while it is open; and, when `expandable`, its fills loaded with getEntrustDetail on
 * demand (price, amount, fee, maker/taker, time). Prices and amounts come at the market's precision
 * and are grouped; totals and fees keep every digit but no trailing zeros ("97.50018 USDT", "0.00 USDT",
 * "0.000015 BTC": formatCoin exact). A conditional order (docs/conditional-orders.md) is tagged with its type
 * (Stop-limit, Stop-market, Trailing stop) and shows its trigger ("≤ 59,000.00", the kind's condition), its trailing
 * delta, and its trigger state: waiting for trigger (cancellable), triggered, or expired at trigger with the reason.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatCoin, formatDateTime, groupThousands } from '../../../shared/format';
import { InlineLoading } from '../../../shared/ui';
import { OrderGrid, OrderHead } from './OrderParts';
import { useEntrustDetail } from '../api/get-entrust-detail';
import { isOpenStatus } from '../hooks/use-spot-live';
import { bipsToPct, conditionalOf, conditionSign, orderFormType, type ConditionalView } from '../lib/conditional-order';

/** The trigger state as the user reads it: waiting, triggered, or expired at trigger with its reason. */
function triggerStateText(c: ConditionalView, t: (k: string, o?: Record<string, string>) => string): string {
  const state = t(`trigger.${c.triggerState}`, { defaultValue: c.triggerState });
  if (c.triggerState !== 'EXPIRED_AT_TRIGGER' || !c.expireReason) return state;
  return t('trigger.expiredWith', { state, reason: t(`expireReason.${c.expireReason}`, { defaultValue: c.expireReason }) });
}

/** Props of OrderCard. */
export interface OrderCardProps {
  order: Entrust;
  onCancel?: (order: Entrust) => void;
  cancelling?: boolean;
  expandable?: boolean;
}

const show = (v: string) => (v ? groupThousands(v) : EMPTY_VALUE);
/** A total or fee of `coin`: every digit, no trailing zeros, grouped. */
const money = (v: string, coin: string) => (v ? formatCoin(v, coin, { exact: true }) : EMPTY_VALUE);

function Fills({ id }: { id: string }) {
  const { t } = useTranslation('spot');
  const q = useEntrustDetail(id, true);
  if (q.isLoading) return <InlineLoading />;
  const fills = q.data?.fills ?? [];
  if (fills.length === 0) return <div className="sp-fills-empty">{t('noFills')}</div>;
  return (
    <ul className="sp-fills" aria-label={t('details')}>
      {fills.map((fl) => (
        <li key={fl.tradeId} className="sp-fill num">
          <span className="text-3">{formatDateTime(fl.time)}</span>
          <span>
            {show(fl.price)} × {show(fl.amount)}
          </span>
          <span className="text-2">
            {t('fee')} {money(fl.fee, fl.feeCur)} {fl.feeCur} · {t(`fillRole.${fl.role}`)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The order card. */
export function OrderCard({ order, onCancel, cancelling, expandable }: OrderCardProps) {
  const { t } = useTranslation('spot');
  const [open, setOpen] = useState(false);
  const [token = '', main = ''] = order.pairsName.split('/');
  const buy = order.side === 'BUY';
  const amountLabel = order.amount ? `${show(order.amount)} ${token}` : `${money(order.total, main)} ${main}`;
  const cond = conditionalOf(order);
  const tag = cond ? t(`types.${orderFormType(cond)}`) : order.orderType === 'LIMIT' ? t('limit') : t('market');
  const condCells: [string, string][] = cond
    ? [
        ...(cond.stopPrice
          ? [
              [
                `${cond.trailingDelta > 0 ? t('activationPrice') : t('trigger.label')} (${main})`,
                `${conditionSign(cond.stopType || 'STOP_LOSS', cond.side)} ${show(cond.stopPrice)}`,
              ] as [string, string],
            ]
          : []),
        ...(cond.trailingDelta > 0 ? [[t('trailingDelta'), `${bipsToPct(cond.trailingDelta)}%`] as [string, string]] : []),
        [t('trigger.state'), triggerStateText(cond, t)],
      ]
    : [];
  return (
    <li className="sp-order" data-trigger-state={cond?.triggerState} aria-label={`${order.pairsName} ${buy ? t('buy') : t('sell')}`}>
      <OrderHead buy={buy} pairsName={order.pairsName} tag={tag} time={order.createTime}>
        {onCancel && isOpenStatus(order.status) ? (
          <Button size="mini" className="sp-cancel" loading={cancelling} onClick={() => onCancel(order)}>
            {t('cancel')}
          </Button>
        ) : (
          <span className="sp-order-status text-2">{t(`status.${order.status}`, { defaultValue: order.status })}</span>
        )}
      </OrderHead>
      <OrderGrid
        cells={[
          [`${t('price')} (${main})`, order.orderType === 'MARKET' ? t('market') : show(order.price)],
          [t('amount'), amountLabel],
          [`${t('filled')} (${token})`, show(order.dealAmount)],
          [`${t('avgPrice')} (${main})`, show(order.avgPrice)],
          [`${t('total')} (${main})`, money(order.dealTotal, main)],
          [t('fee'), `${money(order.fee, order.feeCur)} ${order.feeCur}`],
          ...condCells,
        ]}
      />
      {expandable && (
        <>
          <button type="button" className="sp-order-expand" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? t('hideDetails') : t('details')} {open ? '▴' : '▾'}
          </button>
          {open && <Fills id={order.id} />}
        </>
      )}
    </li>
  );
}
