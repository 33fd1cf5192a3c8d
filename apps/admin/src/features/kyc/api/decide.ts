/** POST admin/kyc/approve and admin/kyc/reject (reason in zh and en); refreshes the queue, the user and the audit log. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PATHS } from '@exchange/api';
import { apiPost } from '../../../shared/api';

/** A decision on an application. */
export type KycDecision = { id: string; approve: true } | { id: string; approve: false; reasonZh: string; reasonEn: string };

/** Sends the decision. */
export function decide(d: KycDecision): Promise<null> {
  return d.approve
    ? apiPost<null>(ADMIN_PATHS.kycApprove, { id: d.id })
    : apiPost<null>(ADMIN_PATHS.kycReject, { id: d.id, reasonZh: d.reasonZh, reasonEn: d.reasonEn });
}

/** The decision mutation. */
export function useKycDecide() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: decide, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
