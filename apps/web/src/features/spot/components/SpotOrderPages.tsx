/**
 * The user's spot orders of one list (getEntrustList `current` = open, `history` = ended), paged ("Load more"), each
 * expandable to its fills; open orders can be cancelled. The legs of an OCO list show as one card (OcoCard), cancelled
 * together. Used by /transaction/allTransaction and /orderManger.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { useEntrustPages, type EntrustListType } from '../api/get-entrust-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { useCancelOcoEntrust } from '../api/cancel-oco-entrust';
import { groupOrders } from '../lib/oco-order';
import { OcoCard } from './OcoCard';
import { OrderCard } from './OrderCard';

/** The orders of list `type`. */
export function SpotOrderPages({ type }: { type: EntrustListType }) {
  const { t } = useTranslation('spot');
  const q = useEntrustPages(type);
  const cancel = useCancelEntrust();
  const cancelOco = useCancelOcoEntrust();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const onCancel = (o: Entrust) => {
    setCancellingId(o.id);
    cancel.mutate(o.id, { onSuccess: () => showToast(t('orderCancelled')), onSettled: () => setCancellingId(null) });
  };
  const onCancelOco = (orderListId: string) => {
    setCancellingId(`list:${orderListId}`);
    cancelOco.mutate(orderListId, { onSuccess: () => showToast(t('oco.cancelled')), onSettled: () => setCancellingId(null) });
  };
  if (isAwaiting(q)) return <ListSkeleton />;
  const records = q.data?.pages.flatMap((p) => p.records) ?? [];
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  if (records.length === 0) return <EmptyState text={t('noOrders')} />;
  return (
    <>
      <ul className="sp-order-list" aria-label={type === 'current' ? t('currentOrders') : t('history')}>
        {groupOrders(records).map((r) =>
          r.kind === 'oco' ? (
            <OcoCard
              key={`list:${r.orderListId}`}
              orderListId={r.orderListId}
              legs={r.legs}
              onCancel={type === 'current' ? onCancelOco : undefined}
              cancelling={cancellingId === `list:${r.orderListId}`}
            />
          ) : (
            <OrderCard
              key={r.order.id}
              order={r.order}
              expandable
              onCancel={type === 'current' ? onCancel : undefined}
              cancelling={cancellingId === r.order.id}
            />
          ),
        )}
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
