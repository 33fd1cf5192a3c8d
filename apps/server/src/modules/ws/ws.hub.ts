/**
 * The WebSocket fan-out (packages/api ws.ts): public topics (ticker, depth, trades, kline per period) fed by the
 * market-data service's updates, and per-user private pushes ('orders', 'balances') from the engine's events after
 * `{op:'auth'}`. Depth: a snapshot on subscribe, then the deltas of every engine command with seq/prevSeq, so a
 * client detects a gap. Each socket's outgoing buffer is bounded: a consumer that falls behind is disconnected
 * (it reconnects and resubscribes) rather than slowing everybody down. Malformed messages are answered with an
 * error message in the socket's language, never a crash.
 *
 * Abuse limits (issue 7 finding 3; connections per IP are counted at the upgrade, ws.routes.ts): each socket's
 * messages go through a token bucket (over it: an error 'rate_limited', then close 1008), and a socket's failed auth
 * attempts, counted with those still in flight, are capped (the last is answered, then close 1008). Session lookups
 * are cached by the member service, so repeated forged tokens cost no database round trip.
 *
 * Sessions end everywhere at once (finding 4): on hooks.sessionsEnded (logout: one token; password reset and the
 * like: every session of the user) the matching sockets are unbound from the private channels and told
 * { channel: 'sessionEnded' }; they may authenticate again. An auth whose session ends while it is being checked is
 * checked again, so a socket is never bound to a session that has already ended.
 */
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { errorMessage, type Lang, type MarketType, type WsServerMessage, type KlinePeriod } from '@exchange/api';
import type { EngineEvent } from '@exchange/core';
import type { Hooks, SessionsEnded } from '../../context';
import type { EngineHost } from '../../engine-host/engine-host';
import type { MarketDataService, MarketUpdate } from '../market-data/market-data.service';
import type { MemberService } from '../member/member.service';
import { sha256Hex } from '../member/secrets';
import { createTokenBucket, type TokenBucket } from './ws.limits';
import { fromUnits } from '../market-data/decimal';
import { PERIODS } from '../market-data/kline-math';
import { marketScales, toEntrust } from '../entrust/entrust.format';

/** A socket whose unsent data exceeds this many bytes is closed (slow consumer). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Subscriptions one socket may hold. */
export const MAX_SUBSCRIPTIONS = 200;
/** Depth levels per side in a snapshot. */
export const SNAPSHOT_LEVELS = 500;
/** Trades sent on subscribe. */
export const TRADES_ON_SUBSCRIBE = 50;
/** WebSocket close code for a slow consumer (1013: try again later). */
export const CLOSE_SLOW_CONSUMER = 1013;
/** WebSocket close code for a socket over the message rate or the auth-failure limit (1008: policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;

const CHANNELS = new Set(['ticker', 'depth', 'trades', 'kline']);
const PAIR_RE = /^[A-Z0-9]{2,12}\/[A-Z0-9]{2,12}$/;

interface Client {
  socket: WebSocket;
  lang: Lang;
  topics: Set<string>;
  userId: string | null;
  /** sha256 of the token the socket is authenticated with (the sessions table's key), with userId. */
  tokenHash: string | null;
  closed: boolean;
  messages: TokenBucket;
  authFailures: number;
  authsInFlight: number;
}

/** An auth being checked; `stale` once its session ended meanwhile (then it is checked again). */
interface PendingAuth {
  userId: string;
  tokenHash: string;
  stale: boolean;
}

/** Per-socket limits (config WS_MESSAGES_PER_SEC, WS_MESSAGE_BURST, WS_AUTH_FAILURES_PER_SOCKET; 0 = unlimited). */
export interface WsSocketLimits {
  messagesPerSec: number;
  messageBurst: number;
  authFailuresPerSocket: number;
}

/** Ports the hub uses. */
export interface WsHubDeps {
  marketData: MarketDataService;
  host: EngineHost;
  members: Pick<MemberService, 'authenticate'>;
  hooks: Pick<Hooks, 'sessionsEnded'>;
  limits: WsSocketLimits;
  log: FastifyBaseLogger;
  /** Clock in ms (default performance.now), for the message rate. */
  now?: () => number;
}

/** The hub: `connect` each accepted socket; `close` on shutdown. */
export interface WsHub {
  connect(socket: WebSocket, lang: Lang): void;
  /** Number of connected sockets. */
  size(): number;
  close(): void;
}

const topicOf = (channel: string, type: MarketType, pairsName: string, period?: string) =>
  channel === 'kline' ? `kline|${type}|${pairsName}|${period}` : `${channel}|${type}|${pairsName}`;

/** Creates the hub and attaches it to market updates and engine events. */
export function createWsHub(deps: WsHubDeps): WsHub {
  const { marketData, host, members, hooks, limits, log } = deps;
  const now = deps.now ?? (() => performance.now());
  const clients = new Set<Client>();
  const topics = new Map<string, Set<Client>>();
  const users = new Map<string, Set<Client>>();
  const pendingAuths = new Set<PendingAuth>();

  /** Removes `c` from the private channels of its user. */
  function unbind(c: Client): void {
    if (c.userId === null) return;
    const set = users.get(c.userId);
    set?.delete(c);
    if (set?.size === 0) users.delete(c.userId);
    c.userId = null;
    c.tokenHash = null;
  }

  function drop(c: Client): void {
    if (c.closed) return;
    c.closed = true;
    clients.delete(c);
    for (const t of c.topics) topics.get(t)?.delete(c);
    c.topics.clear();
    unbind(c);
  }

  /** Closes `c` with a close code and reason, after what is already queued on it. */
  function closeWith(c: Client, code: number, reason: string): void {
    drop(c);
    c.socket.close(code, reason);
  }

  function send(c: Client, msg: WsServerMessage | string): void {
    if (c.closed || c.socket.readyState !== 1) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log.warn({ buffered: c.socket.bufferedAmount }, 'closing a slow WebSocket consumer');
      drop(c);
      c.socket.close(CLOSE_SLOW_CONSUMER, 'slow consumer');
      return;
    }
    c.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  function error(c: Client, code: string): void {
    send(c, { channel: 'error', errorCode: code, errorMessage: errorMessage(code, c.lang) });
  }

  function publish(topic: string, msg: WsServerMessage): void {
    const set = topics.get(topic);
    if (!set || set.size === 0) return;
    const text = JSON.stringify(msg); // serialise once for every subscriber
    for (const c of set) send(c, text);
  }

  const onMarket = (u: MarketUpdate) => {
    switch (u.kind) {
      case 'ticker':
        publish(topicOf('ticker', u.type, u.symbol), { channel: 'ticker', pairsName: u.symbol, type: u.type, data: u.pair });
        break;
      case 'depth':
        publish(topicOf('depth', 'SPOT', u.symbol), {
          channel: 'depth',
          pairsName: u.symbol,
          type: 'SPOT',
          kind: 'delta',
          seq: u.seq,
          prevSeq: u.prevSeq,
          data: { bids: u.bids, asks: u.asks },
        });
        break;
      case 'trades':
        publish(topicOf('trades', 'SPOT', u.symbol), { channel: 'trades', pairsName: u.symbol, type: 'SPOT', data: u.trades });
        break;
      case 'kline':
        publish(topicOf('kline', u.type, u.symbol, u.period), { channel: 'kline', pairsName: u.symbol, type: u.type, period: u.period, data: u.bar });
        break;
    }
  };

  const onEngine = (events: EngineEvent[]) => {
    if (users.size === 0) return;
    for (const e of events) {
      if (e.type === 'orderAccepted' || e.type === 'orderUpdated') {
        const set = users.get(e.order.userId);
        if (!set || set.size === 0) continue;
        const market = host.engine.market(e.order.symbol);
        if (!market) continue;
        const data = toEntrust(e.order, marketScales(market, (code) => host.engine.asset(code)));
        const text = JSON.stringify({ channel: 'orders', data } satisfies WsServerMessage);
        for (const c of set) send(c, text);
      } else if (e.type === 'balanceChanged' && e.account !== 'SYSTEM') {
        const set = users.get(e.owner);
        if (!set || set.size === 0) continue;
        const scale = host.engine.asset(e.asset)?.scale ?? 8;
        const msg: WsServerMessage = {
          channel: 'balances',
          data: { account: e.account, coin: e.asset, available: fromUnits(e.available, scale), frozen: fromUnits(e.frozen, scale) },
        };
        const text = JSON.stringify(msg);
        for (const c of set) send(c, text);
      }
    }
  };

  const onSessionsEnded = (e: SessionsEnded) => {
    const ends = (userId: string, tokenHash: string | null) => userId === e.userId && (e.tokenHash === undefined || tokenHash === e.tokenHash);
    for (const p of pendingAuths) if (ends(p.userId, p.tokenHash)) p.stale = true;
    const set = users.get(e.userId);
    if (!set) return;
    for (const c of [...set]) {
      if (!ends(e.userId, c.tokenHash)) continue;
      unbind(c);
      send(c, { channel: 'sessionEnded', reason: e.reason, errorCode: 'SYS.0015', errorMessage: errorMessage('SYS.0015', c.lang) });
    }
  };

  const offMarket = marketData.subscribe(onMarket);
  const offEngine = host.onEvents(onEngine);
  hooks.sessionsEnded.push(onSessionsEnded);

  async function subscribe(c: Client, channel: string, type: MarketType, pairsName: string, period: KlinePeriod | undefined): Promise<void> {
    const topic = topicOf(channel, type, pairsName, period);
    if (c.topics.has(topic)) return;
    if (c.topics.size >= MAX_SUBSCRIPTIONS) return error(c, 'rate_limited');
    c.topics.add(topic);
    let set = topics.get(topic);
    if (!set) topics.set(topic, (set = new Set()));
    set.add(c);
    // The first message of a subscription is the current state; for depth it is taken in the same tick as
    // joining the topic, so the next delta's prevSeq equals the snapshot's seq.
    if (channel === 'depth') {
      const d = marketData.depth(pairsName, type, SNAPSHOT_LEVELS);
      send(c, { channel: 'depth', pairsName, type, kind: 'snapshot', seq: d.seq, prevSeq: d.seq, data: { bids: d.bids, asks: d.asks } });
    } else if (channel === 'ticker') {
      const pair = marketData.pair(pairsName, type);
      if (pair) send(c, { channel: 'ticker', pairsName, type, data: pair });
    } else if (channel === 'trades') {
      send(c, { channel: 'trades', pairsName, type, data: marketData.trades(pairsName, type, TRADES_ON_SUBSCRIBE) });
    } else if (channel === 'kline' && period) {
      const bars = await marketData.klines(pairsName, type, period, 1);
      const bar = bars[bars.length - 1];
      if (bar && c.topics.has(topic)) send(c, { channel: 'kline', pairsName, type, period, data: bar });
    }
  }

  function unsubscribe(c: Client, topic: string): void {
    c.topics.delete(topic);
    topics.get(topic)?.delete(c);
  }

  /** Counts a failed auth of `c`; at the limit the socket is closed (after the answer already sent). */
  function authFailed(c: Client): void {
    c.authFailures++;
    const max = limits.authFailuresPerSocket;
    if (max > 0 && c.authFailures >= max) closeWith(c, CLOSE_POLICY_VIOLATION, 'too many failed auth attempts');
  }

  async function auth(c: Client, token: unknown, userId: unknown): Promise<void> {
    // Attempts in flight count as failures until answered, so a burst of auth messages cannot outrun the limit.
    const max = limits.authFailuresPerSocket;
    if (max > 0 && c.authFailures + c.authsInFlight >= max) return closeWith(c, CLOSE_POLICY_VIOLATION, 'too many failed auth attempts');
    if (typeof token !== 'string' || typeof userId !== 'string' || token === '' || userId === '' || token.length > 256 || userId.length > 64) {
      send(c, { channel: 'auth', ok: false, errorCode: 'unauthorized' });
      return authFailed(c);
    }
    const pending: PendingAuth = { userId, tokenHash: sha256Hex(token), stale: false };
    let id: string | null = null;
    c.authsInFlight++;
    pendingAuths.add(pending);
    try {
      // Asked again when the session ended while it was being checked (a logout racing with this auth).
      for (let attempt = 0; attempt < 3; attempt++) {
        pending.stale = false;
        id = await members.authenticate(token, userId);
        if (!pending.stale) break;
        id = null;
      }
    } catch (err) {
      log.error({ err }, 'WebSocket auth failed');
    } finally {
      pendingAuths.delete(pending);
      c.authsInFlight--;
    }
    if (c.closed) return;
    if (id === null) {
      send(c, { channel: 'auth', ok: false, errorCode: 'SYS.0015' });
      return authFailed(c);
    }
    unbind(c);
    c.userId = id;
    c.tokenHash = pending.tokenHash;
    let set = users.get(id);
    if (!set) users.set(id, (set = new Set()));
    set.add(c);
    send(c, { channel: 'auth', ok: true });
  }

  async function onMessage(c: Client, raw: string): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return error(c, 'validation_failed');
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return error(c, 'validation_failed');
    const m = msg as Record<string, unknown>;
    if (m.op === 'ping') return send(c, { channel: 'pong' });
    if (m.op === 'auth') return auth(c, m.token, m.userId);
    if (m.op !== 'subscribe' && m.op !== 'unsubscribe') return error(c, 'validation_failed');
    const channel = m.channel;
    if (typeof channel !== 'string' || !CHANNELS.has(channel)) return error(c, 'validation_failed');
    const pairsName = m.pairsName;
    if (typeof pairsName !== 'string' || !PAIR_RE.test(pairsName)) return error(c, 'validation_failed');
    const type = m.type === undefined ? 'SPOT' : m.type;
    if (type !== 'SPOT' && type !== 'CONTRACT') return error(c, 'validation_failed');
    let period: KlinePeriod | undefined;
    if (channel === 'kline') {
      if (typeof m.period !== 'string' || !(PERIODS as readonly string[]).includes(m.period)) return error(c, 'validation_failed');
      period = m.period as KlinePeriod;
    }
    if (!marketData.listing(pairsName, type)) return error(c, 'market_not_found');
    if (m.op === 'subscribe') return subscribe(c, channel, type, pairsName, period);
    unsubscribe(c, topicOf(channel, type, pairsName, period));
  }

  return {
    connect(socket, lang) {
      const c: Client = {
        socket,
        lang,
        topics: new Set(),
        userId: null,
        tokenHash: null,
        closed: false,
        messages: createTokenBucket(limits.messagesPerSec, limits.messageBurst, now()),
        authFailures: 0,
        authsInFlight: 0,
      };
      clients.add(c);
      socket.on('message', (data, isBinary) => {
        if (c.closed) return;
        if (!c.messages.take(now())) {
          error(c, 'rate_limited');
          return closeWith(c, CLOSE_POLICY_VIOLATION, 'message rate exceeded');
        }
        if (isBinary) return error(c, 'validation_failed');
        const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString();
        onMessage(c, text).catch((err: unknown) => {
          log.error({ err }, 'WebSocket message failed');
          error(c, 'internal_error');
        });
      });
      socket.on('close', () => drop(c));
      socket.on('error', () => drop(c));
    },
    size: () => clients.size,
    close() {
      offMarket();
      offEngine();
      const i = hooks.sessionsEnded.indexOf(onSessionsEnded);
      if (i >= 0) hooks.sessionsEnded.splice(i, 1);
      for (const c of [...clients]) {
        drop(c);
        c.socket.close(1001, 'server shutting down');
      }
    },
  };
}
