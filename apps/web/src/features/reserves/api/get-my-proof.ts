/** GET asset/reserves/getMyProof (session): the caller's leaf (salt, balances) and path in the latest snapshot. */
import { useMutation } from '@tanstack/react-query';
import { API_PATHS, type ReservesProof } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the caller's proof. Throws ApiError (reserves_not_included when the snapshot predates the user's assets). */
export function getMyProof(): Promise<ReservesProof> {
  return apiGet<ReservesProof>(API_PATHS.getReservesProof, undefined, { silent: true });
}

/** "Verify my balances": downloads the proof on demand (a mutation: nothing is fetched before the user asks). */
export function useMyProof() {
  return useMutation({ mutationFn: getMyProof });
}
