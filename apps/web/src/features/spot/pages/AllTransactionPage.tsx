/**
 * /transaction/allTransaction (login required by the router): all spot orders in tabs, open orders and order
 * history, paged ("Load more"), each order expandable to its fills (getEntrustDetail), open orders can be
 * cancelled here too; and the trade history, every fill of the user (getTradeList), paged.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useEntrustPages, type EntrustListType } from '../api/get-entrust-list';
import { useTradePages } from '../api/get-trade-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { OrderCard } from '../components/OrderCard';
import { TradeList } from '../components/TradeCard';
import { useSpotLive } from '../hooks/use-spot-live';
import '../spot.css';

function OrderPages({ type }: { type: EntrustListType }) {
  const { t } = useTranslation('spot');
  const q = useEntrustPages(type);
  const cancel = useCancelEntrust();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const onCancel = (o: Entrust) => {
    setCancellingId(o.id);
    cancel.mutate(o.id, { onSuccess: () => showToast(t('orderCancelled')), onSettled: () => setCancellingId(null) });
  };
  if (q.isLoading) return <InlineLoading />;
  const records = q.data?.pages.flatMap((p) => p.records) ?? [];
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  if (records.length === 0) return <EmptyState text={t('noOrders')} />;
  return (
    <>
      <ul className="sp-order-list" aria-label={type === 'current' ? t('currentOrders') : t('history')}>
        {records.map((o) => (
          <OrderCard key={o.id} order={o} expandable onCancel={type === 'current' ? onCancel : undefined} cancelling={cancellingId === o.id} />
        ))}
      </ul>
      <MoreButton hasNext={q.hasNextPage} loading={q.isFetchingNextPage} onMore={() => void q.fetchNextPage()} end={t('noMore')} />
    </>
  );
}

function TradePages() {
  const { t } = useTranslation('spot');
  const q = useTradePages();
  if (q.isLoading) return <InlineLoading />;
  const records = q.data?.pages.flatMap((p) => p.records) ?? [];
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  if (records.length === 0) return <EmptyState text={t('noTrades')} />;
  return (
    <>
      <TradeList trades={records} />
      <MoreButton hasNext={q.hasNextPage} loading={q.isFetchingNextPage} onMore={() => void q.fetchNextPage()} end={t('noMoreTrades')} />
    </>
  );
}

/** "Load more" while there is a next page, else `end` ("No more orders"). */
function MoreButton({ hasNext, loading, onMore, end }: { hasNext: boolean; loading: boolean; onMore: () => void; end: string }) {
  const { t } = useTranslation('spot');
  return (
    <div className="sp-more">
      {hasNext ? (
        <Button size="small" fill="outline" loading={loading} onClick={onMore}>
          {t('loadMore')}
        </Button>
      ) : (
        <span className="text-3">{end}</span>
      )}
    </div>
  );
}

/** The all-orders page. */
export default function AllTransactionPage() {
  const { t } = useTranslation('spot');
  const [tab, setTab] = useState<EntrustListType | 'trades'>('current');
  useSpotLive();
  return (
    <div className="sp-page">
      <PageHeader title={t('allOrders')} fallback="/transaction" />
      <SegTabs
        classPrefix="sp"
        label={t('allOrders')}
        className="sp-all-tabs"
        items={[
          { key: 'current' as const, label: t('currentOrders') },
          { key: 'history' as const, label: t('history') },
          { key: 'trades' as const, label: t('tradeHistory') },
        ]}
        active={tab}
        onChange={setTab}
      />
      <div role="tabpanel">{tab === 'trades' ? <TradePages /> : <OrderPages key={tab} type={tab} />}</div>
    </div>
  );
}
