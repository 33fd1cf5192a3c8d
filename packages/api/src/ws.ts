/**
 * WebSocket protocol at `/ws/websocket` (JSON text frames).
 *
 * Client -> server:
 *   { op: 'subscribe' | 'unsubscribe', channel: 'ticker' | 'depth' | 'trades' | 'kline', pairsName, type?: 'SPOT'|'CONTRACT', period? }
 *   { op: 'auth', token, userId }   then private channels arrive without subscribing: 'orders', 'balances', and the
 *                                    contracts' 'contractOrders', 'positions', 'contractAccount' (contract.ts); OTC's 'otcOrder',
 *                                    'otcChat' (otc.ts); customer service's 'supportChat' (support.ts)
 *   { op: 'ping' }                   -> { channel: 'pong' }
 * Server -> client: one of `WsServerMessage`. Depth: a 'snapshot' first, then 'delta's whose `prevSeq`
 * equals the previous message's `seq`; on a gap the client re-subscribes (or calls getDepth) to resync.
 * Delta rows carry the new total quantity at a price level; "0" removes the level. Updates are coalesced (a delta
 * may span several seqs, a trades push several trades, newest first), and a 'snapshot' may also come mid-stream: it
 * replaces the book (sent to a socket whose backlog made the server skip its updates, once it has drained).
 *
 * When the session a socket authenticated with ends (logout, password reset or change, 2FA change, account freeze),
 * the server sends { channel: 'sessionEnded' }: the private channels stop at once and the socket is unauthenticated
 * (public subscriptions stay); the client logs in again and re-sends auth.
 *
 * Limits (configurable on the server): sockets per client IP (beyond it the upgrade is refused with HTTP 429),
 * messages per second per socket with a burst (beyond it an error 'rate_limited', then close 1008 "message rate
 * exceeded"), failed auth attempts per socket (the last is answered, then close 1008 "too many failed auth attempts").
 * A client that falls behind is skipped (its trades/ticker/kline pushes dropped, its depth resynced by a snapshot),
 * and closed with 1013 "slow consumer" if it stays behind for 10 s.
 */
import type { Depth, Entrust, Kline, Pair, PublicTrade, KlinePeriod, MarketType } from './schemas';
import type { ContractConditionalState, ContractOrder, ContractWsMessage } from './contract';
import type { ContractMarketWsMessage, ContractWsChannel } from './contract-market';

export type WsPublicChannel = 'ticker' | 'depth' | 'trades' | 'kline';

/** Why a socket's session ended. */
export type WsSessionEndReason = 'logout' | 'password_reset' | 'password_change' | 'security_change' | 'account_frozen';

export type WsClientMessage =
  | { op: 'subscribe' | 'unsubscribe'; channel: WsPublicChannel; pairsName: string; type?: MarketType; period?: KlinePeriod }
  /** the contracts' public channels (contract-market.ts): pairsName is the perpetual market */
  | { op: 'subscribe' | 'unsubscribe'; channel: ContractWsChannel; pairsName: string }
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
  | { channel: 'sessionEnded'; reason: WsSessionEndReason; errorCode: 'SYS.0015'; errorMessage: string }
  | { channel: 'error'; errorCode: string; errorMessage: string }
  | { channel: 'pong' }
  /** contract private pushes: 'contractOrders', 'positions', 'contractAccount' (contract.ts) */
  | ContractWsMessage
  /** a conditional contract order's change on the contract orders topic (see ContractConditionalWsMessage) */
  | ContractConditionalWsMessage
  /** contract public pushes: 'contractTicker', 'contractDepth', 'contractTrades', 'contractMark' (contract-market.ts) */
  | ContractMarketWsMessage
  /** the in-app inbox (inbox.ts): a message of the user arrived or changed; refetch the unread count and the list */
  | { channel: 'inbox' };

/**
 * A conditional contract order's change, pushed on the user's contract orders topic ('contractOrders', after auth): the
 * order as 'contractOrders' carries it, and `conditional` its id, market and state as getConditionalOrders lists it
 * (PENDING when placed, CANCELLED, TRIGGERED, EXPIRED at the trigger). Sent for every event of a conditional order
 * (placed, cancelled, triggered, and the fills and end of the order it became); clients refresh their conditional
 * lists on it. A plain order's push has no `conditional`.
 */
export type ContractConditionalWsMessage = {
  channel: 'contractOrders';
  data: ContractOrder;
  conditional: { orderId: string; symbol: string; state: ContractConditionalState };
};
