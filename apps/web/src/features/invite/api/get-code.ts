/** GET member/member/code (spec section 7): the caller's invitation code record, `welCode`. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { inviteKeys } from './keys';

/** Fetches the caller's invitation code. */
export async function getInviteCode(userId: string, signal?: AbortSignal): Promise<string> {
  const r = await apiGet<{ welCode: string }>(API_PATHS.memberCode, { memberId: userId }, { signal });
  return r.welCode;
}

/** Query options of the code (it never changes). */
export const inviteCodeQuery = (userId: string) =>
  queryOptions({ queryKey: [...inviteKeys.code, userId], queryFn: ({ signal }) => getInviteCode(userId, signal), staleTime: Infinity, enabled: userId !== '' });

/** The logged-in user's invitation code. */
export function useInviteCode() {
  const userId = useAppStore((s) => (s.isLogin ? s.userId : ''));
  return useQuery(inviteCodeQuery(userId));
}
