/**
 * Live public data of a perpetual market: the REST answers (market list, book, trades) with the WebSocket pushes on
 * top (contractTicker, contractMark every second, contractDepth snapshots, contractTrades), and a clock for the
 * funding countdown.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ContractDepth, ContractMarket, ContractMarkTick, ContractTrade } from '@exchange/api';
import { useWsChannel, wsQueryKeys } from '../../../shared/ws-client';
import { useContractMarkets } from '../api/get-markets';
import { useContractDepthSnapshot } from '../api/get-depth';
import { useContractTradesSnapshot } from '../api/get-trades';

function useCacheOnly<T>(queryKey: readonly unknown[]): T | undefined {
  return useQuery<T>({ queryKey, queryFn: () => new Promise<T>(() => {}), enabled: false, staleTime: Infinity }).data;
}

/** `market` with a newer ticker and mark tick applied (the latest of each wins by time). */
export function mergeMarket(
  market: ContractMarket | undefined,
  ticker: ContractMarket | undefined,
  mark: ContractMarkTick | undefined,
): ContractMarket | undefined {
  let m = market;
  if (ticker && (!m || ticker.time >= m.time)) m = ticker;
  if (m && mark && mark.time >= m.time) {
    m = { ...m, markPrice: mark.markPrice, indexPrice: mark.indexPrice, fundingRate: mark.fundingRate, nextFundingTime: mark.nextFundingTime, time: mark.time };
    // a mark tick says whether the index is stale: the pause starts or ends with it (the next ticker brings its time)
    if (mark.indexStale !== undefined && mark.indexStale !== (m.paused ?? false)) {
      m = { ...m, paused: mark.indexStale, pauseReason: mark.indexStale ? 'index_stale' : '', pausedSince: mark.indexStale ? (m.pausedSince ?? 0) : 0 };
    }
  }
  return m;
}

/** The market `symbol` kept live (undefined while loading or unknown), and the list it came from. */
export function useContractMarket(symbol: string) {
  const list = useContractMarkets();
  useWsChannel(symbol ? { channel: 'contractTicker', pairsName: symbol } : null);
  useWsChannel(symbol ? { channel: 'contractMark', pairsName: symbol } : null);
  const ticker = useCacheOnly<ContractMarket>(wsQueryKeys.contract('contractTicker', symbol));
  const mark = useCacheOnly<ContractMarkTick>(wsQueryKeys.contract('contractMark', symbol));
  const market = mergeMarket(
    list.data?.find((m) => m.symbol === symbol),
    ticker,
    mark,
  );
  return { market, list };
}

/** The live book of `symbol`: the latest push, else the REST snapshot. */
export function useContractDepth(symbol: string): ContractDepth | undefined {
  useWsChannel(symbol ? { channel: 'contractDepth', pairsName: symbol } : null);
  const pushed = useCacheOnly<ContractDepth>(wsQueryKeys.contract('contractDepth', symbol));
  const snap = useContractDepthSnapshot(symbol);
  return pushed ?? snap.data;
}

/** The latest trades of `symbol`, newest first: pushes before the REST snapshot, without duplicates. */
export function useContractTrades(symbol: string, keep = 30): ContractTrade[] {
  useWsChannel(symbol ? { channel: 'contractTrades', pairsName: symbol } : null);
  const pushed = useCacheOnly<ContractTrade[]>(wsQueryKeys.contract('contractTrades', symbol)) ?? [];
  const snap = useContractTradesSnapshot(symbol).data ?? [];
  const seen = new Set<string>();
  const out: ContractTrade[] = [];
  for (const t of [...pushed, ...snap]) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    out.push(t);
    if (out.length >= keep) break;
  }
  return out;
}

/** Unix ms now, updated every `ms` (the funding countdown). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}
