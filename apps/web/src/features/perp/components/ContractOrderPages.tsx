/**
 * The user's contract orders of one tab (matched, unmatched = open, cancelled, history), paged ("Load more"), each
 * with every field of spec section 3's contract order; open orders can be cancelled. Used by /contract/allContract
 * and /orderManger.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { ContractOrder, ContractOrderTab } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { useContractOrderPages } from '../api/get-orders';
import { useCancelContractOrder } from '../api/cancel-order';
import { useContractMarkets } from '../api/get-markets';
import { ContractOrderCard } from './ContractOrderCard';

/** The orders of `tab`. */
export function ContractOrderPages({ tab }: { tab: ContractOrderTab }) {
  const { t } = useTranslation('contract');
  const q = useContractOrderPages(tab);
  const markets = useContractMarkets();
  const decimals = new Map((markets.data ?? []).map((m) => [m.symbol, m.priceDecimals]));
  const cancel = useCancelContractOrder();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const onCancel = (o: ContractOrder) => {
    setCancelling(o.orderId);
    cancel.mutate(o.orderId, { onSuccess: () => showToast(t('orderCancelled')), onSettled: () => setCancelling(null) });
  };
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const records = q.data?.pages.flatMap((p) => p.records) ?? [];
  if (records.length === 0) return <EmptyState text={t('noOrders')} />;
  return (
    <>
      <ul className="ct-list" aria-label={t(`tab.${tab}`)}>
        {records.map((o) => (
          <ContractOrderCard
            key={o.orderId}
            order={o}
            priceDecimals={decimals.get(o.symbol)}
            onCancel={tab === 'unmatched' ? onCancel : undefined}
            cancelling={cancelling === o.orderId}
          />
        ))}
      </ul>
      <div className="ct-more">
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
