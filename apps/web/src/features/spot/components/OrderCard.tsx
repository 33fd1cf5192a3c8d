/**
 * One spot order: pair, side, type, time and status; price, amount, filled and average price; a
 * Cancel button while it is open; and, when `expandable`, its fills loaded with getEntrustDetail on
 * demand (price, amount, fee, maker/taker, time). Prices and amounts come at the market's precision
 * and are grouped; totals and fees keep every digit but no trailing zeros ("97.50018 USDT", "0.00 USDT",
 * "0.000015 BTC": formatCoin exact).
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
  return (
    <li className="sp-order" aria-label={`${order.pairsName} ${buy ? t('buy') : t('sell')}`}>
      <OrderHead buy={buy} pairsName={order.pairsName} tag={order.orderType === 'LIMIT' ? t('limit') : t('market')} time={order.createTime}>
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
