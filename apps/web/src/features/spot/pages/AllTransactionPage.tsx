/**
 * /transaction/allTransaction (login required by the router): all spot orders in two tabs, current
 * and history, paged ("Load more"), each order expandable to its fills (getEntrustDetail); open
 * orders can be cancelled here too.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, InlineLoading, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useEntrustPages, type EntrustListType } from '../api/get-entrust-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { OrderCard } from '../components/OrderCard';
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
  if (records.length === 0) return <EmptyState text={t('noOrders')} />;
  return (
    <>
      <ul className="sp-order-list" aria-label={type === 'current' ? t('currentOrders') : t('history')}>
        {records.map((o) => (
          <OrderCard key={o.id} order={o} expandable onCancel={type === 'current' ? onCancel : undefined} cancelling={cancellingId === o.id} />
        ))}
      </ul>
      <div className="sp-more">
        {q.hasNextPage ? (
          <Button size="small" fill="outline" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
            {t('loadMore')}
          </Button>
        ) : (
          <span className="text-3">{t('noMore')}</span>
        )}
      </div>
    </>
  );
}

/** The all-orders page. */
export default function AllTransactionPage() {
  const { t } = useTranslation('spot');
  const [tab, setTab] = useState<EntrustListType>('current');
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
        ]}
        active={tab}
        onChange={setTab}
      />
      <div role="tabpanel">
        <OrderPages key={tab} type={tab} />
      </div>
    </div>
  );
}
