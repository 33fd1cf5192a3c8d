/** POST otc/otc/publishAd, updateAd and setAdStatus (login, ACTIVE merchants): the merchant's ads. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTC_PATHS, type OtcAd, type OtcAdStatus, type PublishAdBody, type UpdateAdBody } from '@exchange/api';
import { apiPost, type Params } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { invalidateOtc } from './keys';

function form(body: PublishAdBody | UpdateAdBody): Params {
  const { paymentMethodIds, ...rest } = body;
  return { ...rest, paymentMethodIds: Array.isArray(paymentMethodIds) ? paymentMethodIds.join(',') : paymentMethodIds };
}

/** Publishes an ad; throws ApiError (toasted). */
export function publishAd(body: PublishAdBody): Promise<OtcAd> {
  return apiPost<OtcAd>(OTC_PATHS.publishAd, form(body));
}

/** Changes an ad (its quantity = the new remaining quantity); throws ApiError (toasted). */
export function updateAd(body: UpdateAdBody): Promise<OtcAd> {
  return apiPost<OtcAd>(OTC_PATHS.updateAd, form(body));
}

/** Pauses, resumes or closes an ad; throws ApiError (toasted). */
export function setAdStatus(v: { adId: string; status: OtcAdStatus }): Promise<OtcAd> {
  return apiPost<OtcAd>(OTC_PATHS.setAdStatus, v);
}

/** Mutations of the ad screens; each refreshes the OTC data. */
export function useAdActions() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const onSettled = () => invalidateOtc(qc, userId);
  return {
    publish: useMutation({ mutationFn: publishAd, onSettled }),
    update: useMutation({ mutationFn: updateAd, onSettled }),
    setStatus: useMutation({ mutationFn: setAdStatus, onSettled }),
  };
}
