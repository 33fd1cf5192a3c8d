/**
 * One reconnecting WebSocket to /ws/websocket (spec section 9; protocol in packages/api ws.ts).
 * - subscribe/unsubscribe are reference-counted per channel key: the first listener of a key sends
 *   'subscribe', the last one leaving sends 'unsubscribe';
 * - after (re)connecting it sends { op: 'auth', token, userId } when logged in, then re-subscribes
 *   every key; private channels 'orders' and 'balances' arrive after auth without subscribing;
 * - depth: snapshot + deltas sequenced by seq/prevSeq; on a gap the key is re-subscribed and the
 *   book rebuilt from the next snapshot. Depth listeners get the WHOLE book in `data`;
 * - pushes also go into the TanStack Query cache (see wsQueryKeys) when a QueryClient is attached;
 * - ping every 25 s; reconnect with backoff 1 s doubling to 15 s.
 */
import type { QueryClient } from '@tanstack/react-query';
import type {
  ContractMarketWsMessage,
  ContractWsChannel,
  KlinePeriod,
  MarketType,
  WsClientMessage,
  WsPublicChannel,
  WsServerMessage,
  PublicTrade,
  Pair,
  Kline,
  OtcChatMessage,
  OtcOrder,
  SupportMessage,
} from '@exchange/api';
import { useAppStore } from '../storage';
import { applyDepth, type DepthState } from './depth-book';
import { API_ORIGIN } from '../origin';

/** What a feature subscribes to: a public channel of a pair, or a private channel. */
export type WsChannelSpec =
  | { channel: WsPublicChannel; pairsName: string; type?: MarketType; period?: KlinePeriod }
  | { channel: PrivateChannel }
  /** the contracts' public channels (contract-market.ts): keyed by channel and symbol, no market type */
  | { channel: ContractWsChannel; pairsName: string };

const CONTRACT_CHANNELS: ReadonlySet<string> = new Set<ContractWsChannel>(['contractTicker', 'contractDepth', 'contractTrades', 'contractMark']);

/** True for the contracts' public channels. */
export function isContractChannel(spec: WsChannelSpec): spec is { channel: ContractWsChannel; pairsName: string } {
  return CONTRACT_CHANNELS.has(spec.channel);
}

/** Private channels (after auth, no subscribe message): spot orders and balances, the contracts' orders, positions and account. */
export type PrivateChannel = 'orders' | 'balances' | 'contractOrders' | 'positions' | 'contractAccount' | 'otcOrder' | 'otcChat' | 'supportChat' | 'inbox';
const PRIVATE_CHANNELS: ReadonlySet<string> = new Set<PrivateChannel>([
  'orders',
  'balances',
  'contractOrders',
  'positions',
  'contractAccount',
  'otcOrder',
  'otcChat',
  'supportChat',
  'inbox',
]);

/** The OTC private pushes (packages/api otc.ts OTC_WS_TOPICS): an order of the user changed, a chat message arrived. */
export type OtcWsMessage = { channel: 'otcOrder'; data: OtcOrder } | { channel: 'otcChat'; data: OtcChatMessage };

/** The customer-service private push (packages/api support.ts SUPPORT_WS_TOPIC): a message of the user's conversation. */
export type SupportWsMessage = { channel: 'supportChat'; data: SupportMessage };

/** Messages delivered to listeners; depth messages carry the merged whole book. */
export type WsDelivered = WsServerMessage | ContractMarketWsMessage | OtcWsMessage | SupportWsMessage;

type Listener = (msg: WsDelivered) => void;

/** True for the private channels that arrive after auth without a subscribe message. */
export function isPrivateChannel(spec: WsChannelSpec): spec is { channel: PrivateChannel } {
  return PRIVATE_CHANNELS.has(spec.channel);
}

/** Key of a channel subscription: "depth:SPOT:BTC/USDT", "kline:SPOT:BTC/USDT:1min", "orders". */
export function channelKey(spec: WsChannelSpec): string {
  if (isPrivateChannel(spec)) return spec.channel;
  if (isContractChannel(spec)) return `${spec.channel}:${spec.pairsName}`;
  const base = `${spec.channel}:${spec.type ?? 'SPOT'}:${spec.pairsName}`;
  return spec.channel === 'kline' ? `${base}:${spec.period ?? '1min'}` : base;
}

function keyOfServerMessage(m: WsDelivered): string | null {
  switch (m.channel) {
    case 'contractTicker':
    case 'contractDepth':
    case 'contractTrades':
    case 'contractMark':
      return `${m.channel}:${m.pairsName}`;
    case 'ticker':
    case 'depth':
    case 'trades':
      return `${m.channel}:${m.type}:${m.pairsName}`;
    case 'kline':
      return `kline:${m.type}:${m.pairsName}:${m.period}`;
    case 'orders':
    case 'balances':
    case 'contractOrders':
    case 'positions':
    case 'contractAccount':
    case 'otcOrder':
    case 'otcChat':
    case 'supportChat':
    case 'inbox':
      return m.channel;
    default:
      return null;
  }
}

/** Query keys under which pushes are stored (useLiveTicker/useLiveDepth/useLiveTrades read them). */
export const wsQueryKeys = {
  ticker: (type: MarketType, pairsName: string) => ['ws', 'ticker', type, pairsName] as const,
  depth: (type: MarketType, pairsName: string) => ['ws', 'depth', type, pairsName] as const,
  trades: (type: MarketType, pairsName: string) => ['ws', 'trades', type, pairsName] as const,
  kline: (type: MarketType, pairsName: string, period: KlinePeriod) => ['ws', 'kline', type, pairsName, period] as const,
  /** the latest push of a contract channel (contractTrades: the latest trades, newest first) */
  contract: (channel: ContractWsChannel, symbol: string) => ['ws', channel, symbol] as const,
};

/** Latest trades kept in the cache per pair. */
export const WS_TRADES_KEEP = 50;

/** Constructor of WebSocket-like objects (tests inject a fake). */
export type SocketFactory = (url: string) => WebSocket;

interface Sub {
  spec: WsChannelSpec;
  listeners: Set<Listener>;
}

/** The WebSocket client; use the singleton `wsClient`. */
export class WsClient {
  private ws: WebSocket | null = null;
  private readonly subs = new Map<string, Sub>();
  private readonly books = new Map<string, DepthState | null>();
  private retryMs = 1000;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private queryClient: QueryClient | null = null;
  private authedToken = '';
  private closedByUs = false;

  constructor(
    private readonly url: () => string = defaultUrl,
    private readonly factory: SocketFactory = (u) => new WebSocket(u),
  ) {}

  /** Lets pushes be written into the TanStack Query cache. */
  attachQueryClient(qc: QueryClient): void {
    this.queryClient = qc;
  }

  /** Adds a listener for `spec`; returns the function that removes it. */
  subscribe(spec: WsChannelSpec, listener: Listener): () => void {
    const key = channelKey(spec);
    let sub = this.subs.get(key);
    if (!sub) {
      sub = { spec, listeners: new Set() };
      this.subs.set(key, sub);
      this.sendSubscribe(spec, 'subscribe');
    }
    sub.listeners.add(listener);
    this.ensureConnected();
    return () => {
      const s = this.subs.get(key);
      if (!s) return;
      s.listeners.delete(listener);
      if (s.listeners.size === 0) {
        this.subs.delete(key);
        this.books.delete(key);
        this.sendSubscribe(spec, 'unsubscribe');
      }
    };
  }

  /** Number of listeners of a key (tests and diagnostics). */
  refCount(spec: WsChannelSpec): number {
    return this.subs.get(channelKey(spec))?.listeners.size ?? 0;
  }

  /** Re-sends auth (after login) or reconnects without it (after logout). */
  reauth(): void {
    const { token } = useAppStore.getState();
    if (token === this.authedToken) return;
    if (!token && this.authedToken) {
      // Drop the private stream of the previous user.
      this.authedToken = '';
      this.restart();
      return;
    }
    this.sendAuth();
  }

  /** Closes the socket for good (tests). */
  close(): void {
    this.closedByUs = true;
    this.clearTimers();
    this.ws?.close();
    this.ws = null;
  }

  private restart(): void {
    const ws = this.ws;
    this.ws = null;
    this.clearTimers();
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
    this.ensureConnected();
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
  }

  private ensureConnected(): void {
    if (this.ws || this.reconnectTimer) return;
    const needed = this.subs.size > 0 || !!useAppStore.getState().token;
    if (!needed) return;
    this.closedByUs = false;
    let ws: WebSocket;
    try {
      ws = this.factory(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retryMs = 1000;
      this.authedToken = '';
      this.sendAuth();
      for (const [key, sub] of this.subs) {
        this.books.set(key, null);
        this.sendSubscribe(sub.spec, 'subscribe');
      }
      this.pingTimer = setInterval(() => this.send({ op: 'ping' }), 25_000);
    };
    ws.onmessage = (ev: MessageEvent) => {
      let msg: WsDelivered;
      try {
        msg = JSON.parse(String(ev.data)) as WsDelivered;
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      if (!this.closedByUs) this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 15_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.ensureConnected();
    }, delay);
  }

  private send(msg: WsClientMessage): void {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  private sendAuth(): void {
    const { token, userId } = useAppStore.getState();
    if (!token || !userId) return;
    this.authedToken = token;
    this.send({ op: 'auth', token, userId });
  }

  private sendSubscribe(spec: WsChannelSpec, op: 'subscribe' | 'unsubscribe'): void {
    if (isPrivateChannel(spec)) return;
    if (isContractChannel(spec)) {
      // The contracts' channels take no market type (contract-market.ts).
      this.send({ op, channel: spec.channel, pairsName: spec.pairsName } as unknown as WsClientMessage);
      return;
    }
    const msg: WsClientMessage = { op, channel: spec.channel, pairsName: spec.pairsName, type: spec.type ?? 'SPOT' };
    if (spec.channel === 'kline') msg.period = spec.period ?? '1min';
    this.send(msg);
  }

  /** Routes one server message (public for tests). */
  handle(msg: WsDelivered): void {
    const key = keyOfServerMessage(msg);
    if (!key) return;
    const sub = this.subs.get(key);
    let delivered: WsDelivered = msg;
    if (msg.channel === 'depth') {
      if (!sub) return;
      const res = applyDepth(this.books.get(key) ?? null, msg);
      if (!res.ok) {
        // Gap: drop the book and ask for a fresh snapshot.
        this.books.set(key, null);
        this.sendSubscribe(sub.spec, 'unsubscribe');
        this.sendSubscribe(sub.spec, 'subscribe');
        return;
      }
      this.books.set(key, res.state);
      delivered = { ...msg, data: { bids: res.state.bids, asks: res.state.asks } };
    }
    this.toCache(delivered);
    if (!sub) return;
    for (const l of [...sub.listeners]) l(delivered);
  }

  private toCache(msg: WsDelivered): void {
    const qc = this.queryClient;
    if (!qc) return;
    switch (msg.channel) {
      case 'ticker':
        qc.setQueryData<Pair>(wsQueryKeys.ticker(msg.type, msg.pairsName), msg.data);
        break;
      case 'depth':
        qc.setQueryData(wsQueryKeys.depth(msg.type, msg.pairsName), { seq: msg.seq, bids: msg.data.bids, asks: msg.data.asks });
        break;
      case 'trades':
        qc.setQueryData<PublicTrade[]>(wsQueryKeys.trades(msg.type, msg.pairsName), (old) => [...msg.data, ...(old ?? [])].slice(0, WS_TRADES_KEEP));
        break;
      case 'kline':
        qc.setQueryData<Kline>(wsQueryKeys.kline(msg.type, msg.pairsName, msg.period), msg.data);
        break;
      case 'contractTrades':
        qc.setQueryData<unknown[]>(wsQueryKeys.contract(msg.channel, msg.pairsName), (old) => [...msg.data, ...(old ?? [])].slice(0, WS_TRADES_KEEP));
        break;
      case 'contractTicker':
      case 'contractDepth':
      case 'contractMark':
        qc.setQueryData(wsQueryKeys.contract(msg.channel, msg.pairsName), msg.data);
        break;
      default:
        break;
    }
  }
}

function defaultUrl(): string {
  if (API_ORIGIN) return `${API_ORIGIN.replace(/^http/, 'ws')}/ws/websocket`;
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${window.location.host}/ws/websocket`;
}

/** The app's single WebSocket client. */
export const wsClient = new WsClient();

// Follow login/logout for the private channels.
useAppStore.subscribe((s, prev) => {
  if (s.token !== prev.token) wsClient.reauth();
});
