/**
 * /transaction/allTransaction (login required by the router): all spot orders in tabs, open orders and order
 * history, paged ("Load more"), each order expandable to its fills (getEntrustDetail), open orders can be
 * cancelled here too; and the trade history, every fill of the user (getTradeList), paged.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import type { EntrustListType } from '../api/get-entrust-list';
import { useTradePages } from '../api/get-trade-list';
import { TradeList } from '../components/TradeCard';
import { MoreButton, SpotOrderPages } from '../components/SpotOrderPages';
import { useSpotLive } from '../hooks/use-spot-live';
import '../spot.css';

function TradePages() {
  const { t } = useTranslation('spot');
  const q = useTradePages();
  if (isAwaiting(q)) return <ListSkeleton />;
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
      <div role="tabpanel">{tab === 'trades' ? <TradePages /> : <SpotOrderPages key={tab} type={tab} />}</div>
    </div>
  );
}
