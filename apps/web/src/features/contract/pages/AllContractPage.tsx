/**
 * /contract/allContract (login required by the router; spec section 2 "contract list tabs"): every contract order of
 * the user in the tabs matched (orders with fills), unmatched (open: cancel here too), cancelled (without a fill),
 * and history (every ended order), paged ("Load more"), each with every field of spec section 3's contract order.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { ContractOrder, ContractOrderTab } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useContractOrderPages } from '../api/get-orders';
import { useCancelContractOrder } from '../api/cancel-order';
import { useContractMarkets } from '../api/get-markets';
import { ContractOrderCard } from '../components/ContractOrderCard';
import { useContractLive } from '../hooks/use-contract-live';
import '../contract.css';

/** The tabs in the spec's order, history last. */
export const ALL_CONTRACT_TABS: readonly ContractOrderTab[] = ['matched', 'unmatched', 'cancelled', 'history'];

function OrderPages({ tab }: { tab: ContractOrderTab }) {
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
  if (q.isLoading) return <InlineLoading />;
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

/** The all-contract-orders page. */
export default function AllContractPage() {
  const { t } = useTranslation('contract');
  const [tab, setTab] = useState<ContractOrderTab>('matched');
  useContractLive();
  return (
    <div className="ct-page">
      <PageHeader title={t('allOrders')} fallback="/contract" />
      <SegTabs
        classPrefix="ct"
        label={t('allOrders')}
        className="ct-all-tabs"
        items={ALL_CONTRACT_TABS.map((k) => ({ key: k, label: t(`tab.${k}`) }))}
        active={tab}
        onChange={setTab}
      />
      <div role="tabpanel">
        <OrderPages key={tab} tab={tab} />
      </div>
    </div>
  );
}
