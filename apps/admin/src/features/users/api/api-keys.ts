/** GET admin/apiKey/list?userId=: a user's API keys for the Binance-compatible API (never a secret). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API_KEY_PATHS, type ApiKeyView } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of one user's keys. */
export function userApiKeysOptions(userId: string) {
  return queryOptions({ queryKey: ['admin', 'users', 'apiKeys', userId], queryFn: () => apiGet<ApiKeyView[]>(ADMIN_API_KEY_PATHS.list, { userId }) });
}

/** One user's keys, newest first as the server sends them. */
export function useUserApiKeys(userId: string) {
  return useQuery(userApiKeysOptions(userId));
}
