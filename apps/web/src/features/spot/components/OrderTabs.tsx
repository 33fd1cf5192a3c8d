/**
 * The trading screen's order tabs under the form (Binance's): Open orders of the pair (with
 * their count and Cancel), Order history (its ended orders, expandable to their fills) and Trade history (the
 * user's own fills of the pair), each the first page, with the link to all orders. The two legs of an OCO list show
 * as one card (OcoCard) with one Cancel for the list, and its outcome in the history. Open orders follow the private
 * WebSocket (hooks/use-spot-live); the histories refresh on a fill or an ended order. Logged-out visitors see a
 * login prompt.
 */
import { useState, type ReactNode } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate } from 'react-router';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useEntrustList } from '../api/get-entrust-list';
import { useTradeList } from '../api/get-trade-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { useCancelOcoEntrust } from '../api/cancel-oco-entrust';
import { groupOrders } from '../lib/oco-order';
import { OcoCard } from './OcoCard';
import { OrderCard } from './OrderCard';
import { TradeList } from './TradeCard';

/** The tabs. */
export type OrderTab = 'current' | 'history' | 'trades';

/** The query state a tab's list needs: the first answer awaited, a failure without data, the records. */
interface ListedQuery<T> {
  isPending: boolean;
  fetchStatus: 'fetching' | 'paused' | 'idle';
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  data?: { records: T[] };
}

/** A list query's first page: the skeleton until the first answer, LoadFailed on a failure without data, its empty text, or `children` of the records. */
function Listed<T>({ q, empty, children }: { q: ListedQuery<T>; empty: string; children: (records: T[]) => ReactNode }) {
  const records = q.data?.records ?? [];
  if (isAwaiting(q)) return <ListSkeleton rows={2} />;
  if (q.isError && !q.data) return <LoadFailed compact error={q.error} onRetry={() => void q.refetch()} />;
  if (records.length === 0) return <EmptyState text={empty} />;
  return <>{children(records)}</>;
}

function OpenOrders({ pairsName }: { pairsName: string }) {
  const { t } = useTranslation('spot');
  const list = useEntrustList('current', pairsName);
  const cancel = useCancelEntrust();
  const cancelOco = useCancelOcoEntrust();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const onCancel = (o: Entrust) => {
    setCancellingId(o.id);
    cancel.mutate(o.id, {
      onSuccess: () => showToast(t('orderCancelled')),
      onSettled: () => setCancellingId(null),
    });
  };
  const onCancelOco = (orderListId: string) => {
    setCancellingId(`list:${orderListId}`);
    cancelOco.mutate(orderListId, {
      onSuccess: () => showToast(t('oco.cancelled')),
      onSettled: () => setCancellingId(null),
    });
  };
  return (
    <Listed q={list} empty={t('noOrders')}>
      {(records) => (
        <ul className="sp-order-list" aria-label={t('currentOrders')}>
          {groupOrders(records).map((r) =>
            r.kind === 'oco' ? (
              <OcoCard
                key={`list:${r.orderListId}`}
                orderListId={r.orderListId}
                legs={r.legs}
                onCancel={onCancelOco}
                cancelling={cancellingId === `list:${r.orderListId}`}
              />
            ) : (
              <OrderCard key={r.order.id} order={r.order} onCancel={onCancel} cancelling={cancellingId === r.order.id} />
            ),
          )}
        </ul>
      )}
    </Listed>
  );
}

function OrderHistory({ pairsName }: { pairsName: string }) {
  const { t } = useTranslation('spot');
  return (
    <Listed q={useEntrustList('history', pairsName)} empty={t('noOrders')}>
      {(records) => (
        <ul className="sp-order-list" aria-label={t('history')}>
          {groupOrders(records).map((r) =>
            r.kind === 'oco' ? (
              <OcoCard key={`list:${r.orderListId}`} orderListId={r.orderListId} legs={r.legs} />
            ) : (
              <OrderCard key={r.order.id} order={r.order} expandable />
            ),
          )}
        </ul>
      )}
    </Listed>
  );
}

function TradeHistory({ pairsName }: { pairsName: string }) {
  const { t } = useTranslation('spot');
  return (
    <Listed q={useTradeList(pairsName)} empty={t('noTrades')}>
      {(records) => <TradeList trades={records} />}
    </Listed>
  );
}

/** The order tabs of `pairsName`. */
export function OrderTabs({ pairsName }: { pairsName: string }) {
  const { t } = useTranslation('spot');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const [tab, setTab] = useState<OrderTab>('current');
  // The open count (logged in) is shown on its tab whichever tab is open (the query is shared with the list).
  const open = useEntrustList('current', pairsName);
  const openLabel = isLogin ? `${t('currentOrders')} (${open.data?.total ?? 0})` : t('currentOrders');
  return (
    <section className="sp-orders" aria-label={t('orderTabs')}>
      <div className="sp-orders-head">
        <SegTabs
          classPrefix="sp"
          label={t('orderTabs')}
          className="sp-order-tabs"
          items={[
            { key: 'current' as const, label: openLabel },
            { key: 'history' as const, label: t('history') },
            { key: 'trades' as const, label: t('tradeHistory') },
          ]}
          active={tab}
          onChange={setTab}
        />
        <Link to="/transaction/allTransaction" className="sp-all-link" aria-label={t('allOrders')}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 3h9l4 4v14H6z M14 3v5h5 M9 12h7M9 16h7" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
          </svg>
        </Link>
      </div>
      <div role="tabpanel">
        {!isLogin ? (
          <EmptyState
            text={t('loginToSee')}
            action={
              <Button size="small" color="primary" onClick={() => navigate('/login?redirect=%2Ftransaction')}>
                {t('logIn')}
              </Button>
            }
          />
        ) : tab === 'current' ? (
          <OpenOrders pairsName={pairsName} />
        ) : tab === 'history' ? (
          <OrderHistory pairsName={pairsName} />
        ) : (
          <TradeHistory pairsName={pairsName} />
        )}
      </div>
    </section>
  );
}
