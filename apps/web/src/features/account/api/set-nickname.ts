/** POST member/member/setNickName (spec section 7): sets the nickname once; refreshes the member. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { memberQueryKey } from '../../../shared/session';

/** Sends the nickname of the signed-in member. Throws ApiError on FAILED (already toasted). */
export function setNickName(member: string, nickName: string): Promise<unknown> {
  return apiPost(API_PATHS.setNickName, { member, nickName });
}

/** Mutation hook; on success the member query is refetched. */
export function useSetNickName() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: (nickName: string) => setNickName(userId, nickName),
    onSuccess: () => qc.invalidateQueries({ queryKey: memberQueryKey(userId) }),
  });
}
