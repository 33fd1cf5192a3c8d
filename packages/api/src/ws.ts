/**
 * WebSocket protocol at `/ws/websocket` (JSON text frames).
 *
 * Client -> server:
 *   { op: 'subscribe' | 'unsubscribe', channel: 'ticker' | 'depth' | 'trades' | 'kline', pairsName, type?: 'SPOT'|'CONTRACT', period? }
 *   { op: 'auth', token, userId }   then private channels arrive without subscribing: 'orders', 'balances'
 *   { op: 'ping' }                   -> { channel: 'pong' }
 * Server -> client: one of `WsServerMessage`. Depth: a 'snapshot' first, then 'delta's whose `prevSeq`
 * equals the previous message's `seq`; on a gap the client re-subscribes (or calls getDepth) to resync.
 * Delta rows carry the new total quantity at a price level; "0" removes the level.
 */
import type { Depth, Entrust, Kline, Pair, PublicTrade, KlinePeriod, MarketType } from './schemas';

export type WsPublicChannel = 'ticker' | 'depth' | 'trades' | 'kline';

export type WsClientMessage =
  | { op: 'subscribe' | 'unsubscribe'; channel: WsPublicChannel; pairsName: string; type?: MarketType; period?: KlinePeriod }
  | { op: 'auth'; token: string; userId: string }
  | { op: 'ping' };

export type WsServerMessage =
  | { channel: 'ticker'; pairsName: string; type: MarketType; data: Pair }
  | { channel: 'depth'; pairsName: string; type: MarketType; kind: 'snapshot' | 'delta'; seq: number; prevSeq: number; data: Pick<Depth, 'bids' | 'asks'> }
  | { channel: 'trades'; pairsName: string; type: MarketType; data: PublicTrade[] }
  | { channel: 'kline'; pairsName: string; type: MarketType; period: KlinePeriod; data: Kline }
  | { channel: 'orders'; data: Entrust }
  | { channel: 'balances'; data: { account: string; coin: string; available: string; frozen: string } }
  | { channel: 'auth'; ok: boolean; errorCode?: string }
  | { channel: 'error'; errorCode: string; errorMessage: string }
  | { channel: 'pong' };
