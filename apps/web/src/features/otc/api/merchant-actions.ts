/** POST otc/otc/applyMerchant and leaveMerchant (login): become a merchant (deposit held) or leave (deposit released). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTC_PATHS, type OtcMerchantView } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateOtc } from './keys';

/** Applies with the agreement accepted and the transaction password; throws ApiError (toasted). */
export function applyMerchant(transPassword: string): Promise<OtcMerchantView> {
  return apiPost<OtcMerchantView>(OTC_PATHS.applyMerchant, { agree: '1', transPassword });
}

/** Leaves (every ad closed, no open order); throws ApiError (toasted). */
export function leaveMerchant(transPassword: string): Promise<OtcMerchantView> {
  return apiPost<OtcMerchantView>(OTC_PATHS.leaveMerchant, { transPassword });
}

/** Mutations applying and leaving; both refresh the OTC data and balances. */
export function useMerchantActions() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const onSettled = () => invalidateOtc(qc, userId);
  return { apply: useMutation({ mutationFn: applyMerchant, onSettled }), leave: useMutation({ mutationFn: leaveMerchant, onSettled }) };
}
