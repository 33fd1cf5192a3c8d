/**
 * Current (open) orders of the trading screen for the selected pair (getEntrustList type=current),
 * each with a Cancel button, and the link to all orders. Logged-out visitors see a login prompt.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate } from 'react-router';
import type { Entrust } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, InlineLoading } from '../../../shared/ui';
import { useEntrustList } from '../api/get-entrust-list';
import { useCancelEntrust } from '../api/cancel-entrust';
import { OrderCard } from './OrderCard';

/** The current-orders section. */
export function CurrentOrders({ pairsName }: { pairsName: string }) {
  const { t } = useTranslation('spot');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const list = useEntrustList('current', pairsName);
  const cancel = useCancelEntrust();
  const [cancellingId, setCancellingId] = useState<string | null>(null);
  const onCancel = (o: Entrust) => {
    setCancellingId(o.id);
    cancel.mutate(o.id, {
      onSuccess: () => showToast(t('orderCancelled')),
      onSettled: () => setCancellingId(null),
    });
  };
  const records = list.data?.records ?? [];
  return (
    <section className="sp-orders">
      <div className="sp-orders-head">
        <h2>
          {t('currentOrders')}
          {records.length > 0 && <span className="sp-count num">({list.data?.total ?? records.length})</span>}
        </h2>
        <Link to="/transaction/allTransaction" className="sp-all-link">
          {t('allOrders')} ›
        </Link>
      </div>
      {!isLogin ? (
        <EmptyState
          text={t('loginToSee')}
          action={
            <Button size="small" color="primary" onClick={() => navigate('/login?redirect=%2Ftransaction')}>
              {t('logIn')}
            </Button>
          }
        />
      ) : list.isLoading ? (
        <InlineLoading />
      ) : records.length === 0 ? (
        <EmptyState text={t('noOrders')} />
      ) : (
        <ul className="sp-order-list" aria-label={t('currentOrders')}>
          {records.map((o) => (
            <OrderCard key={o.id} order={o} onCancel={onCancel} cancelling={cancellingId === o.id} />
          ))}
        </ul>
      )}
    </section>
  );
}
