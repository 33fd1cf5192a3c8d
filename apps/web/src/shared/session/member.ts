/**
 * The signed-in user's info (spec section 3 "User info (member)") shared by every feature:
 * GET member/member/getMember?member=<userId>, cached under memberQueryKey(userId).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Member } from '@exchange/api';
import { apiGet, apiPost, endSession } from '../api-client';
import { useAppStore } from '../storage';

/** Query key of the member of `userId`. */
export const memberQueryKey = (userId: string) => ['member', userId] as const;

/** queryOptions of the member of `userId` (disabled without a user). */
export function memberQueryOptions(userId: string) {
  return queryOptions({
    queryKey: memberQueryKey(userId),
    queryFn: ({ signal }) => apiGet<Member>(API_PATHS.getMember, { member: userId }, { signal }),
    enabled: !!userId,
    staleTime: 30_000,
  });
}

/** The member while logged in, else undefined. */
export function useMember(): { member: Member | undefined; isLoading: boolean; isLogin: boolean } {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const q = useQuery({ ...memberQueryOptions(userId), enabled: isLogin && !!userId });
  return { member: isLogin ? q.data : undefined, isLoading: q.isLoading, isLogin };
}

/** Logs out: tells the server (errors ignored), then clears the session locally. */
export async function logout(): Promise<void> {
  try {
    await apiPost(API_PATHS.logout, {}, { silent: true });
  } catch {
    /* the local session is cleared anyway */
  }
  endSession();
}
