/** GET member/security/getSessions and POST member/security/revokeSession: the devices signed in. */
import { API_PATHS } from '@exchange/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../shared/api-client';
import { type SessionEntry } from './contract';

const sessionsKey = ['security', 'sessions'] as const;

/** The signed-in devices, newest activity first as the server sends them. Throws ApiError. */
export function getSessions(signal?: AbortSignal): Promise<SessionEntry[]> {
  return apiGet<SessionEntry[]>(API_PATHS.getSessions, undefined, { signal });
}

/** The sessions query. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: ({ signal }) => getSessions(signal) });
}

/** Ends the session `id` everywhere. Throws ApiError (toasted). */
export function revokeSession(id: string): Promise<unknown> {
  return apiPost(API_PATHS.revokeSession, { id });
}

/** Mutation; refetches the list on success. */
export function useRevokeSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeSession, onSuccess: () => qc.invalidateQueries({ queryKey: sessionsKey }) });
}
