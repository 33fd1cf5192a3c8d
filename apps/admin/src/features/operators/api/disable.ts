/** POST admin/operator/disable: disables (ending its sessions) or enables an operator. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** Sets an operator's disabled flag. */
export function setOperatorDisabled(input: { operatorId: string; disabled: boolean }): Promise<null> {
  return apiPost<null>(ADMIN_PATHS.operatorDisable, { ...input });
}

/** The mutation; refreshes the list. */
export function useSetOperatorDisabled() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setOperatorDisabled, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
