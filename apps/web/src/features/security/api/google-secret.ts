/** GET member/security/googleSecret: the pending TOTP secret to bind (the same one for 10 minutes). */
import { API_PATHS } from '@exchange/api';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../shared/api-client';
import { type GoogleSecret } from './contract';

/** Fetches the pending secret. Throws ApiError. */
export function getGoogleSecret(signal?: AbortSignal): Promise<GoogleSecret> {
  return apiGet<GoogleSecret>(API_PATHS.googleSecret, undefined, { signal });
}

/** The pending secret; not refetched in the background (a new one would invalidate the scanned QR). */
export function useGoogleSecret(enabled: boolean) {
  return useQuery({ queryKey: ['security', 'googleSecret'], queryFn: ({ signal }) => getGoogleSecret(signal), enabled, staleTime: Infinity, gcTime: 0 });
}
