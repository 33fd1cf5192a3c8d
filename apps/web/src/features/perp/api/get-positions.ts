/**
 * GET contract/contract/getPositions (login required): the caller's open positions with every field of spec section
 * 3. 'positions' pushes replace a position (quantity "0": removed); the list is re-read every 5 s for the mark
 * price's PnL (spec section 9 polling), as the server pushes no per-user mark moves.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type ContractPosition } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from './keys';

/** Fetches the positions; throws ApiError on failure. */
export function getPositions(signal?: AbortSignal): Promise<ContractPosition[]> {
  return apiGet<ContractPosition[]>(CONTRACT_PATHS.getPositions, undefined, { signal, silent: true });
}

/** queryOptions of the positions (disabled when logged out). */
export function positionsOptions(userId: string, enabled: boolean) {
  return queryOptions({
    queryKey: contractKeys.positions(userId),
    queryFn: ({ signal }) => getPositions(signal),
    enabled: enabled && !!userId,
    refetchInterval: 5_000,
  });
}

/** Every open position of the caller. */
export function usePositions() {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(positionsOptions(userId, isLogin));
}
