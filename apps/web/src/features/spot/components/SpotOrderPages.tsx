/**
 * The user's spot orders of one list (getEntrustList `current` = open, `history` = ended), paged ("Load more"), each
 * expandable to its fills; open orders can be cancelled. Used by /transaction/allTransaction and /orderManger.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { useEntrustPages, type EntrustListType } from '../api/get-entrust-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { OrderCard } from './OrderCard';

/** The orders of list `type`. */
export function SpotOrderPages({ type }: { type: EntrustListType }) {
  const { t } = useTranslation('spot');
  const q = useEntrustPages(type);
  const cancel = useCancelEntrust();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const onCancel = (o: Entrust) => {
    setCancellingId(o.id);
    cancel.mutate(o.id, { onSuccess: () => showToast(t('orderCancelled')), onSettled: () => setCancellingId(null) });
  };
  if (isAwaiting(q)) return <ListSkeleton />;
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

/** "Load more" while there is a next page, else `end` ("No more orders"). */
export function MoreButton({ hasNext, loading, onMore, end }: { hasNext: boolean; loading: boolean; onMore: () => void; end: string }) {
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
