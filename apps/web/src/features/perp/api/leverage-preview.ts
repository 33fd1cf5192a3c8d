/**
 * GET contract/contract/leveragePreview?symbol&leverage (login required): what setLeverage would do to the caller's
 * position's margin (now, after, the signed change: > 0 held from the account, < 0 released) and whether it would be
 * accepted, with the refusal's message in the caller's language (leverage_margin_insufficient names the amounts). The
 * leverage sheet asks it as the chosen leverage changes, debounced so a run of taps or keystrokes asks once.
 */
import { useEffect, useState } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CONTRACT_PATHS, type LeveragePreview } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { contractKeys } from './keys';

export type { LeveragePreview } from '@exchange/api';

/** How long the chosen leverage must stay put before it is asked about, ms. */
export const LEVERAGE_PREVIEW_DEBOUNCE_MS = 300;

/** Fetches the preview of `leverage` in `symbol`; throws ApiError on failure (silent: the sheet still saves). */
export function getLeveragePreview(symbol: string, leverage: number, signal?: AbortSignal): Promise<LeveragePreview> {
  return apiGet<LeveragePreview>(CONTRACT_PATHS.leveragePreview, { symbol, leverage }, { signal, silent: true });
}

/**
 * queryOptions of the preview; keyed under the user's contract data (an order, a close or a setting change
 * invalidates it) and by the language (the message is in it). The previous leverage's answer stays shown while the
 * next one loads, so the line does not flicker.
 */
export function leveragePreviewOptions(userId: string, lang: string, symbol: string, leverage: number, enabled: boolean) {
  return queryOptions({
    queryKey: [...contractKeys.user(userId), 'leveragePreview', symbol, leverage, lang] as const,
    queryFn: ({ signal }) => getLeveragePreview(symbol, leverage, signal),
    enabled: enabled && !!userId && !!symbol && leverage > 0,
    staleTime: 2_000,
    placeholderData: keepPreviousData,
  });
}

/** `value`, once it has not changed for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return settled;
}

/** The preview of `leverage` (null: not a valid leverage) in `symbol`, asked when `enabled` and the value settled. */
export function useLeveragePreview(symbol: string, leverage: number | null, enabled: boolean) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  const lang = useAppStore((s) => s.currentLangue);
  const settled = useDebounced(leverage, LEVERAGE_PREVIEW_DEBOUNCE_MS);
  return useQuery(leveragePreviewOptions(userId, lang, symbol, settled ?? 0, enabled && isLogin && settled !== null));
}
