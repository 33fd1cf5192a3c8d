/**
 * GET contract/market/getMarket?symbol (public): a perpetual market with its mark and index prices and funding
 * (contract-market.ts), for the pair detail with type=contract; the contractMark pushes (every second) update the mark,
 * index, funding rate and next funding time (components/ContractInfo).
 */
import { useQuery } from '@tanstack/react-query';
import { CONTRACT_MARKET_PATHS, type ContractKlinePrice, type ContractMarket, type Kline, type KlinePeriod } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';

/** Fetches the market; throws ApiError on failure. */
export function getContractMarket(symbol: string, signal?: AbortSignal): Promise<ContractMarket> {
  return apiGet<ContractMarket>(CONTRACT_MARKET_PATHS.getMarket, { symbol }, { signal, silent: true });
}

/** The perpetual market `symbol` (disabled when `enabled` is false), re-read every 5 s. */
export function useContractMarketInfo(symbol: string, enabled: boolean) {
  return useQuery({ queryKey: ['quotes', 'contract-market', symbol], queryFn: ({ signal }) => getContractMarket(symbol, signal), enabled, refetchInterval: 5_000 });
}

/** GET contract/market/getKlines with price=mark|last: bars of the mark price (or the trades), oldest first. */
export function getContractKlines(symbol: string, period: KlinePeriod, price: ContractKlinePrice, signal?: AbortSignal): Promise<Kline[]> {
  return apiGet<Kline[]>(CONTRACT_MARKET_PATHS.getKlines, { symbol, period, price, limit: 300 }, { signal, silent: true });
}

/** The mark price bars of `symbol` at `period` (disabled when `enabled` is false), re-read every 5 s. */
export function useMarkKlines(symbol: string, period: KlinePeriod, enabled: boolean) {
  return useQuery({
    queryKey: ['quotes', 'mark-klines', symbol, period],
    queryFn: ({ signal }) => getContractKlines(symbol, period, 'mark', signal),
    enabled,
    refetchInterval: 5_000,
  });
}
