/**
 * GET contract/market/getMarket?symbol (public): a perpetual market with its mark and index prices and funding
 * (contract-market.ts), for the pair detail with type=contract; the contractMark pushes (every second) update the mark,
 * index, funding rate and next funding time (components/ContractInfo).
 */
import { useQuery } from '@tanstack/react-query';
import {
  CONTRACT_MARKET_PATHS,
  type ContractDepth,
  type ContractKlinePrice,
  type ContractMarket,
  type ContractTrade,
  type Kline,
  type KlinePeriod,
} from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useWsChannel, wsQueryKeys } from '../../../shared/ws-client';

/** Fetches the market; throws ApiError on failure. */
export function getContractMarket(symbol: string, signal?: AbortSignal): Promise<ContractMarket> {
  return apiGet<ContractMarket>(CONTRACT_MARKET_PATHS.getMarket, { symbol }, { signal, silent: true });
}

/** The perpetual market `symbol` (disabled when `enabled` is false), re-read every 5 s. */
export function useContractMarketInfo(symbol: string, enabled: boolean) {
  return useQuery({
    queryKey: ['quotes', 'contract-market', symbol],
    queryFn: ({ signal }) => getContractMarket(symbol, signal),
    enabled,
    refetchInterval: 5_000,
  });
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

/**
 * The perpetual book of `symbol` for the pair detail: the latest contractDepth push (a snapshot of the top levels after
 * each change), else GET contract/market/getDepth. Nothing when `enabled` is false (a spot pair).
 */
export function useContractBook(symbol: string, enabled: boolean): ContractDepth | undefined {
  useWsChannel(enabled ? { channel: 'contractDepth', pairsName: symbol } : null);
  const pushed = useQuery<ContractDepth>({
    queryKey: wsQueryKeys.contract('contractDepth', symbol),
    queryFn: () => new Promise(() => {}),
    enabled: false,
    staleTime: Infinity,
  }).data;
  const rest = useQuery({
    queryKey: ['quotes', 'contract-depth', symbol],
    queryFn: ({ signal }) => apiGet<ContractDepth>(CONTRACT_MARKET_PATHS.getDepth, { symbol, limit: 50 }, { signal, silent: true }),
    enabled,
    staleTime: 5_000,
  });
  return enabled ? (pushed ?? rest.data) : undefined;
}

/**
 * The latest trades of the perpetual `symbol` for the pair detail: contractTrades pushes (newest first) and the REST
 * list (GET contract/market/getTrades). Empty when `enabled` is false (a spot pair).
 */
export function useContractDeals(symbol: string, enabled: boolean, rows: number): { live: ContractTrade[]; rest: ContractTrade[]; loaded: boolean } {
  useWsChannel(enabled ? { channel: 'contractTrades', pairsName: symbol } : null);
  const live = useQuery<ContractTrade[]>({
    queryKey: wsQueryKeys.contract('contractTrades', symbol),
    queryFn: () => new Promise(() => {}),
    enabled: false,
    staleTime: Infinity,
  }).data;
  const rest = useQuery({
    queryKey: ['quotes', 'contract-trades', symbol, rows],
    queryFn: ({ signal }) => apiGet<ContractTrade[]>(CONTRACT_MARKET_PATHS.getTrades, { symbol, limit: rows }, { signal, silent: true }),
    enabled,
    staleTime: 5_000,
  });
  return { live: enabled ? (live ?? []) : [], rest: enabled ? (rest.data ?? []) : [], loaded: rest.isSuccess };
}
