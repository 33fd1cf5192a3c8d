/**
 * All pairs of one market type: the main currencies (contract = USDT only) and, for each, its pairs
 * polled every 5 s (spec section 9). Returns the pairs grouped by main currency and flattened.
 */
import { useQueries } from '@tanstack/react-query';
import type { MarketType, Pair } from '@exchange/api';
import { useMainCurs, pairsQueryOptions } from '../../../shared/market-api';
import { isAwaiting } from '../../../shared/ui/awaiting';

/** Main currencies of contracts (the spec's contracts are USDT perpetuals). */
export const CONTRACT_MAIN_CURS = ['USDT'] as const;

/** Result of useMarketPairs. */
export interface MarketPairs {
  mainCurs: string[];
  byMainCur: Map<string, Pair[]>;
  all: Pair[];
  /** True while the main currencies or a pair list has no answer yet and is fetching or waiting for the network. */
  isLoading: boolean;
  /** True when the main currencies or a pair list failed and nothing of it was loaded before. */
  isError: boolean;
  /** The first such failure (for LoadFailed's section 8 text), or null. */
  error: unknown;
  /** Loads the main currencies and every pair list again. */
  refetch: () => void;
}

/** The pairs of market `type`, polled while mounted. */
export function useMarketPairs(type: MarketType): MarketPairs {
  const curs = useMainCurs();
  const mainCurs = type === 'CONTRACT' ? [...CONTRACT_MAIN_CURS] : (curs.data ?? []);
  const results = useQueries({ queries: mainCurs.map((m) => pairsQueryOptions(m, type)) });
  const byMainCur = new Map<string, Pair[]>();
  mainCurs.forEach((m, i) => byMainCur.set(m, results[i]?.data ?? []));
  return {
    mainCurs,
    byMainCur,
    all: [...byMainCur.values()].flat(),
    isLoading: (type === 'SPOT' && isAwaiting(curs)) || results.some((r) => isAwaiting(r)),
    isError: curs.isError || results.some((r) => r.isError && !r.data),
    error: curs.error ?? results.find((r) => r.isError && !r.data)?.error ?? null,
    refetch: () => {
      void curs.refetch();
      for (const r of results) void r.refetch();
    },
  };
}
