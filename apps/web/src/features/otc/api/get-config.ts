/** GET otc/otc/getConfig (public): OTC settings (deposit, payment windows, appeal wait) and the index price. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTC_PATHS, type OtcConfigView } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { otcKeys } from './keys';

/** Fetches the settings; throws ApiError. */
export function getOtcConfig(signal?: AbortSignal): Promise<OtcConfigView> {
  return apiGet<OtcConfigView>(OTC_PATHS.getConfig, undefined, { signal, silent: true });
}

/** The OTC settings, refreshed every 30 s (the index price moves floating ads). */
export function useOtcConfig() {
  return useQuery(queryOptions({ queryKey: otcKeys.config(), queryFn: ({ signal }) => getOtcConfig(signal), refetchInterval: 30_000 }));
}
