/** GET otc/otc/getMessages?orderId (login, the two sides): the order's chat, oldest first; 'otcChat' pushes append. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcChatMessage } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { otcKeys } from './keys';

/** Fetches the messages; throws ApiError. */
export function getOtcMessages(orderId: string, signal?: AbortSignal): Promise<OtcChatMessage[]> {
  return apiGet<OtcChatMessage[] | { records: OtcChatMessage[] }>(OTC_PATHS.getMessages, { orderId }, { signal, silent: true }).then((r) =>
    Array.isArray(r) ? r : r.records,
  );
}

/** The chat of `orderId`, with a slow poll as the fallback of the pushes. */
export function useOtcMessages(orderId: string) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(
    queryOptions({
      queryKey: otcKeys.messages(userId, orderId),
      queryFn: ({ signal }) => getOtcMessages(orderId, signal),
      enabled: isLogin && !!userId && !!orderId,
      refetchInterval: 10_000,
    }),
  );
}

/** The list with `m` added once (by id), in time order. */
export function appendMessage(list: readonly OtcChatMessage[] | undefined, m: OtcChatMessage): OtcChatMessage[] {
  const rest = (list ?? []).filter((x) => x.id !== m.id);
  return [...rest, m].sort((a, b) => a.createdAt - b.createdAt || Number(BigInt(a.id) - BigInt(b.id)));
}
