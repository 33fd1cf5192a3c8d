/** POST admin/auth/logout: revokes the session on the server, then forgets it here (also when the call fails). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';
import { clearSession } from '../../../shared/session';

/** Logs out. */
export async function logout(): Promise<void> {
  try {
    await apiPost<null>(ADMIN_PATHS.logout);
  } finally {
    clearSession();
  }
}

/** The logout mutation; clears every cached answer. */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: logout, onSettled: () => qc.clear() });
}
