/** GET member/apiKey/list: the caller's API keys, newest first (never a secret). */
import { API_KEY_PATHS, type ApiKeyView } from '@exchange/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';

/** Query key of the user's keys (per user, so another login never sees a cached list). */
export function apiKeysQueryKey(userId: string) {
  return ['security', 'apiKeys', userId] as const;
}

/** The user's keys as the server sends them. Throws ApiError. */
export function listApiKeys(signal?: AbortSignal): Promise<ApiKeyView[]> {
  return apiGet<ApiKeyView[]>(API_KEY_PATHS.list, undefined, { signal });
}

/** Query options of the list for `userId`. */
export function apiKeysQueryOptions(userId: string) {
  return queryOptions({ queryKey: apiKeysQueryKey(userId), queryFn: ({ signal }) => listApiKeys(signal) });
}

/** The list query of the logged-in user. */
export function useApiKeys() {
  const userId = useAppStore((s) => s.userId);
  return useQuery(apiKeysQueryOptions(userId));
}
