/**
 * Private WebSocket pushes of the contract screens written into the query cache: a 'positions' push replaces the
 * position (quantity "0": removed); a 'contractOrders' push replaces the order in the open-orders lists (removed when
 * it ended) and invalidates the other tabs; a 'contractAccount' push replaces the account.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ContractAccount, ContractOrder, ContractOrderPage, ContractPosition } from '@exchange/api';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from '../api/keys';

/** True for an order that is still open (pending or partially filled). */
export function isOpenOrder(status: string): boolean {
  return status === 'NEW' || status === 'PARTIALLY_FILLED';
}

/** True when a position push says the position is closed. */
export function isClosedPosition(p: Pick<ContractPosition, 'quantity'>): boolean {
  return /^0*(\.0*)?$/.test(p.quantity);
}

/** The positions list with `p` applied: replaced, added (in symbol order) or removed (closed). */
export function applyPositionPush(list: readonly ContractPosition[], p: ContractPosition): ContractPosition[] {
  const rest = list.filter((x) => x.symbol !== p.symbol);
  if (isClosedPosition(p)) return rest;
  const had = rest.length !== list.length;
  if (had) return list.map((x) => (x.symbol === p.symbol ? p : x));
  return [...rest, p].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/**
 * An open-orders page with `o` applied: replaced, added at the top (open) or removed (ended). `waiting` marks a
 * conditional order that has not triggered (its push carries `conditional` with a state other than TRIGGERED): it is
 * open in the engine but not a plain open order (getOrders leaves it out; the Conditional tab lists it), so it is
 * never added here.
 */
export function applyOrderPush(page: ContractOrderPage, o: ContractOrder, symbol: string, waiting = false): ContractOrderPage {
  const rest = page.records.filter((x) => x.orderId !== o.orderId);
  const had = rest.length !== page.records.length;
  const belongs = !symbol || o.symbol === symbol;
  if (isOpenOrder(o.status) && belongs && !waiting) {
    const records = had ? page.records.map((x) => (x.orderId === o.orderId ? o : x)) : [o, ...page.records];
    return { ...page, records, total: had ? page.total : page.total + 1 };
  }
  return { ...page, records: rest, total: had ? Math.max(0, page.total - 1) : page.total };
}

/** Subscribes to the private contract channels while mounted (only when logged in). */
export function useContractLive(): void {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'positions' } : null, (msg) => {
    if (msg.channel !== 'positions') return;
    qc.setQueryData<ContractPosition[]>(contractKeys.positions(userId), (old) => (old ? applyPositionPush(old, msg.data) : old));
  });
  useWsChannel(isLogin ? { channel: 'contractOrders' } : null, (msg) => {
    if (msg.channel !== 'contractOrders') return;
    const o = msg.data;
    const waiting = 'conditional' in msg && msg.conditional.state !== 'TRIGGERED';
    for (const [key, data] of qc.getQueriesData<ContractOrderPage>({ queryKey: ['contract', userId, 'orders', 'unmatched'] })) {
      if (!data || !('records' in data)) continue;
      qc.setQueryData<ContractOrderPage>(key, applyOrderPush(data, o, String(key[4] ?? ''), waiting));
    }
    for (const tab of ['matched', 'cancelled', 'history'] as const) void qc.invalidateQueries({ queryKey: ['contract', userId, 'orders', tab] });
    void qc.invalidateQueries({ queryKey: contractKeys.orderPages(userId, 'unmatched') });
  });
  useWsChannel(isLogin ? { channel: 'contractAccount' } : null, (msg) => {
    if (msg.channel !== 'contractAccount') return;
    qc.setQueryData<ContractAccount>(contractKeys.account(userId), msg.data);
  });
}
