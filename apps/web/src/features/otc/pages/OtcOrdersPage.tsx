/**
 * /transaction/otcOrder: the user's OTC orders in the tabs pending (pending payment, pending release, appeal),
 * completed, cancelled and all, live ('otcOrder' pushes refresh the lists), each card opening the order detail, with
 * its unread chat count.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge } from 'antd-mobile';
import type { OtcOrder } from '@exchange/api';
import { formatCny, formatCoin, formatDateTime } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useOtcOrders, type OtcOrderTab } from '../api/get-orders';
import { useOtcLive } from '../hooks/use-otc-live';
import '../otc.css';

const TABS: readonly OtcOrderTab[] = ['PENDING', 'COMPLETED', 'CANCELLED', 'ALL'];

/** One order of the list. */
export function OtcOrderCard({ o, onOpen }: { o: OtcOrder; onOpen: () => void }) {
  const { t } = useTranslation('otc');
  return (
    <li className="otc-card otc-order-card">
      <button type="button" className="otc-card-button" onClick={onOpen} aria-label={t('orders.open', { id: o.orderId })}>
        <div className="otc-card-top">
          <span className={o.mySide === 'BUY' ? 'c-up otc-strong' : 'c-down otc-strong'}>
            {t(o.mySide === 'BUY' ? 'order.buy' : 'order.sell')} {o.coin}
          </span>
          <span className={`otc-state otc-state-${o.state.toLowerCase()}`}>
            {t(`orderState.${o.state}`)}
            {o.unread > 0 && <Badge content={o.unread} className="otc-unread" />}
          </span>
        </div>
        <div className="otc-row">
          <span className="otc-row-label">{t('order.amount')}</span>
          <span className="otc-row-value otc-strong">{formatCny(o.fiatAmount)}</span>
        </div>
        <div className="otc-row">
          <span className="otc-row-label">{t('order.price')}</span>
          <span className="otc-row-value">{formatCny(o.price)}</span>
        </div>
        <div className="otc-row">
          <span className="otc-row-label">{t('order.quantity')}</span>
          <span className="otc-row-value">
            {formatCoin(o.quantity, o.coin)} {o.coin}
          </span>
        </div>
        <div className="otc-row text-3">
          <span>{o.counterparty}</span>
          <span>{formatDateTime(o.createdAt)}</span>
        </div>
      </button>
    </li>
  );
}

function OrderList({ tab }: { tab: OtcOrderTab }) {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const q = useOtcOrders(tab);
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const records = q.data?.records ?? [];
  if (records.length === 0) return <EmptyState text={t('orders.empty')} />;
  return (
    <ul className="otc-list" aria-label={t(`orders.tab.${tab}`)}>
      {records.map((o) => (
        <OtcOrderCard key={o.orderId} o={o} onOpen={() => navigate(`/transaction/orderDetail?orderId=${encodeURIComponent(o.orderId)}`)} />
      ))}
    </ul>
  );
}

/** The my-orders page. */
export default function OtcOrdersPage() {
  const { t } = useTranslation('otc');
  const [tab, setTab] = useState<OtcOrderTab>('PENDING');
  useOtcLive();
  return (
    <div className="otc-page">
      <PageHeader title={t('orders.title')} fallback="/transaction/transactionFabi" />
      <SegTabs classPrefix="otc" label={t('orders.title')} items={TABS.map((k) => ({ key: k, label: t(`orders.tab.${k}`) }))} active={tab} onChange={setTab} />
      <div role="tabpanel">
        <OrderList key={tab} tab={tab} />
      </div>
    </div>
  );
}
