/** POST admin/operator/create: a new operator; the answer holds the password and TOTP key, shown once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS, type OperatorCredentials, type OperatorRole } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** Creates an operator. */
export function createOperator(input: { email: string; name: string; role: OperatorRole }): Promise<OperatorCredentials> {
  return apiPost<OperatorCredentials>(ADMIN_PATHS.operatorCreate, { ...input });
}

/** The create mutation; refreshes the list. */
export function useCreateOperator() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createOperator, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
