/**
 * GET contract/contract/getConditionalOrders?tab=open|history&symbol&page&pageSize (login required): the caller's
 * conditional orders, pending ones (open, oldest first) or triggered, cancelled and expired ones (history, newest
 * first). The lists follow the pushes of the user's contract orders topic: a 'contractOrders' push with `conditional`
 * (a conditional order placed, cancelled, triggered or expired, or the order it became filled; packages/api ws.ts
 * ContractConditionalWsMessage) refreshes them. A slow poll remains for a socket that was down.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractConditionalPage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { useWsChannel, type WsDelivered } from '../../../shared/ws-client';
import { contractKeys, type ConditionalTab } from './keys';
import { CONTRACT_PAGE_SIZE } from './get-orders';

/** Fetches one page; throws ApiError on failure. */
export function getContractConditional(tab: ConditionalTab, symbol: string | undefined, page: number, signal?: AbortSignal): Promise<ContractConditionalPage> {
  return apiGet<ContractConditionalPage>(CONTRACT_PATHS.getConditionalOrders, { tab, symbol, page, pageSize: CONTRACT_PAGE_SIZE }, { signal, silent: true });
}

/** The poll behind the pushes: only a missed push (the socket was down) waits this long (ms). */
export const CONDITIONAL_POLL_MS = 60_000;

/** True for a push of a conditional order's change (a 'contractOrders' push with `conditional`). */
export function isConditionalPush(msg: WsDelivered): boolean {
  return msg.channel === 'contractOrders' && 'conditional' in msg;
}

/** The first page of a tab, optionally of one market (disabled when logged out); refreshed by the conditional pushes. */
export function useContractConditional(tab: ConditionalTab, symbol?: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const qc = useQueryClient();
  useWsChannel(isLogin ? { channel: 'contractOrders' } : null, (msg) => {
    if (isConditionalPush(msg)) void qc.invalidateQueries({ queryKey: contractKeys.conditional(userId, tab, symbol) });
  });
  return useQuery(
    queryOptions({
      queryKey: contractKeys.conditional(userId, tab, symbol),
      queryFn: ({ signal }) => getContractConditional(tab, symbol, 1, signal),
      enabled: isLogin && !!userId,
      refetchInterval: CONDITIONAL_POLL_MS,
    }),
  );
}
