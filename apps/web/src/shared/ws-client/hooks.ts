/**
 * React hooks over the WebSocket client: `useWsChannel(spec, onMessage)` subscribes while the
 * component is mounted (spec null = nothing); `useLiveTicker/useLiveDepth/useLiveTrades` return the
 * latest pushes from the TanStack Query cache.
 */
import { useEffect, useEffectEvent, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MarketType, Pair, PublicTrade } from '@exchange/api';
import { channelKey, wsClient, wsQueryKeys, type WsChannelSpec, type WsDelivered } from './ws-client';
import type { DepthState } from './depth-book';

/** Subscribes to `spec` while mounted; `onMessage` may change between renders without resubscribing. */
export function useWsChannel(spec: WsChannelSpec | null, onMessage?: (msg: WsDelivered) => void): void {
  const cb = useRef(onMessage);
  cb.current = onMessage;
  const key = spec ? channelKey(spec) : null;
  // `key` captures everything that identifies the subscription; `spec` (a new object on every render) is read at the
  // time, so it is not a dependency.
  const specNow = useEffectEvent(() => spec);
  useEffect(() => {
    const s = specNow();
    if (!s) return;
    return wsClient.subscribe(s, (m) => cb.current?.(m));
  }, [key]);
}

function useCacheOnly<T>(queryKey: readonly unknown[]): T | undefined {
  return useQuery<T>({ queryKey, queryFn: () => new Promise<T>(() => {}), enabled: false, staleTime: Infinity }).data;
}

/** Latest ticker push of a pair (undefined until the first push). */
export function useLiveTicker(pairsName: string, type: MarketType = 'SPOT'): Pair | undefined {
  useWsChannel({ channel: 'ticker', pairsName, type });
  return useCacheOnly<Pair>(wsQueryKeys.ticker(type, pairsName));
}

/** Live order book of a pair (undefined until the first snapshot). */
export function useLiveDepth(pairsName: string, type: MarketType = 'SPOT'): DepthState | undefined {
  useWsChannel({ channel: 'depth', pairsName, type });
  return useCacheOnly<DepthState>(wsQueryKeys.depth(type, pairsName));
}

/** Latest public trades of a pair, newest first (up to 50). */
export function useLiveTrades(pairsName: string, type: MarketType = 'SPOT'): PublicTrade[] | undefined {
  useWsChannel({ channel: 'trades', pairsName, type });
  return useCacheOnly<PublicTrade[]>(wsQueryKeys.trades(type, pairsName));
}
