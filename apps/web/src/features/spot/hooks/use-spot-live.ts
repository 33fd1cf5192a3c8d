/**
 * Private WebSocket pushes of the trading screens written into the query cache: an 'orders' push
 * replaces the order in the current-orders lists (removed when it ended) and invalidates the order history (an
 * ended order) and the trade history (an order with fills);
 * a 'balances' push updates that coin's available/frozen/current in the assets cache (current =
 * available + frozen, exact) and schedules a refetch for the converted values.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { Assets, Entrust, EntrustPage } from '@exchange/api';
import { useWsChannel } from '../../../shared/ws-client';
import { addDecimal, isDecimal, isZeroDecimal } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from '../api/get-spot-assets';

/** True for statuses of an order that is still open. */
export function isOpenStatus(status: string): boolean {
  return status === 'NEW' || status === 'PARTIALLY_FILLED';
}

/** True when `order` has filled anything. */
export function hasFills(order: Pick<Entrust, 'dealAmount'>): boolean {
  return isDecimal(order.dealAmount) && !isZeroDecimal(order.dealAmount);
}

/** A current-orders page with `order` applied: replaced, added at the top (open) or removed (ended). */
export function applyOrderPush(page: EntrustPage, order: Entrust, pairsName: string): EntrustPage {
  const rest = page.records.filter((o) => o.id !== order.id);
  const belongs = !pairsName || order.pairsName === pairsName;
  const had = rest.length !== page.records.length;
  if (isOpenStatus(order.status) && belongs) {
    const records = had ? page.records.map((o) => (o.id === order.id ? order : o)) : [order, ...page.records];
    return { ...page, records, total: had ? page.total : page.total + 1 };
  }
  return { ...page, records: rest, total: had ? Math.max(0, page.total - 1) : page.total };
}

/** Subscribes to the private channels while mounted (only when logged in). */
export function useSpotLive(): void {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'orders' } : null, (msg) => {
    if (msg.channel !== 'orders') return;
    const order = msg.data;
    for (const [key, data] of qc.getQueriesData<EntrustPage>({ queryKey: ['entrust', userId, 'current'] })) {
      if (!data || !('records' in data)) continue;
      const pairsName = String(key[3] ?? '');
      qc.setQueryData<EntrustPage>(key, applyOrderPush(data, order, pairsName));
    }
    if (!isOpenStatus(order.status)) void qc.invalidateQueries({ queryKey: ['entrust', userId, 'history'] });
    // A push of an order with fills may carry a new one (as taker or as maker): the trade history refetches.
    if (hasFills(order)) void qc.invalidateQueries({ queryKey: ['entrust', userId, 'trades'] });
    void qc.invalidateQueries({ queryKey: ['entrust', userId, 'current', '', 'pages'] });
  });
  useWsChannel(isLogin ? { channel: 'balances' } : null, (msg) => {
    if (msg.channel !== 'balances') return;
    const b = msg.data;
    qc.setQueryData<Assets>(assetsQueryKey(userId), (old) =>
      old
        ? {
            ...old,
            accounts: old.accounts.map((a) =>
              a.type !== b.account
                ? a
                : {
                    ...a,
                    items: a.items.map((i) =>
                      i.coin === b.coin ? { ...i, available: b.available, frozen: b.frozen, current: addDecimal(b.available, b.frozen) } : i,
                    ),
                  },
            ),
          }
        : old,
    );
    void qc.invalidateQueries({ queryKey: assetsQueryKey(userId), refetchType: 'active' });
  });
}
