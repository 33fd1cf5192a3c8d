/**
 * The WebSocket fan-out (packages/api ws.ts): public topics (ticker, depth, trades, kline per period) fed by the
 * market-data service's updates, and per-user private pushes the domains declare (platform/shared/private-push.ts: a
 * spot order, a balance, the contracts' orders and positions, the inbox, OTC and support messages) after
 * `{op:'auth'}`. Depth: a snapshot on subscribe, then deltas with seq/prevSeq, so a client detects a gap. Malformed
 * messages are answered with an error message in the socket's language, never a crash.
 *
 * This file is the wire format (channels, message shapes, the auth of the private channels); the fan-out machinery
 * (connections, topics, user sinks, sends with backpressure, the message rate, the flushes) is the platform's
 * (platform/fanout).
 *
 * Public pushes are coalesced per flush (built for 10,000 subscribers of depth + trades): updates of a topic are
 * merged until the next flush (depth: one delta over the whole seq range, each changed level with its last quantity;
 * trades: one list, newest first; ticker and kline: the latest), and a flush runs at the end of the engine batch that
 * made them but never sooner than `flushMs` after the previous one (platform/fanout/frames.ts). Each message is
 * serialized and framed once per topic and flush, the same bytes written to every subscriber's TCP socket, several
 * topics of one socket in one write.
 *
 * Slow consumers (bounded send backlog): a socket whose unsent bytes exceed SLOW_BUFFERED_BYTES is skipped by the
 * flush (its trades, ticker and kline pushes are dropped and counted; for depth it is marked out of date and gets a
 * fresh snapshot instead of the next delta once it has drained); one still over that limit STALL_CLOSE_MS after it
 * first was, or over MAX_BUFFERED_BYTES at any send, is closed with 1013 "slow consumer" (it reconnects and
 * resubscribes), counted. Private pushes are never skipped (up to the close).
 *
 * Abuse limits (connections per IP are counted at the upgrade, ws.routes.ts): each socket's
 * messages go through a token bucket (over it: an error 'rate_limited', then close 1008), and a socket's failed auth
 * attempts, counted with those still in flight, are capped (the last is answered, then close 1008). Session lookups
 * are cached by the member service, so repeated forged tokens cost no database round trip.
 *
 * Sessions end everywhere at once: on hooks.sessionsEnded (logout: one token; password reset and the
 * like: every session of the user) the matching sockets are unbound from the private channels and told
 * { channel: 'sessionEnded' }; they may authenticate again. An auth whose session ends while it is being checked is
 * checked again, so a socket is never bound to a session that has already ended.
 */
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { errorMessage, type ContractTrade, type Lang, type MarketType, type WsServerMessage, type KlinePeriod, type PublicTrade } from '@exchange/api';
import type { EngineEvent } from '@exchange/core';
import type { Hooks, SessionsEnded } from '../../platform/shared/hooks';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { MarketDataService, MarketUpdate } from '../../domains/market-data/market-data.service';
import type { PerpMarketService, PerpMarketUpdate } from '../../domains/market-data/perp/perp-market.service';
import type { MemberService } from '../../domains/member/member.service';
import { sha256Hex } from '../../platform/shared/secrets';
import type { DomainPushes, PrivatePush, PushSource } from '../../platform/shared/private-push';
import { CLOSE_POLICY_VIOLATION, createFanout, type FanoutConn, type FanoutSink, type FanoutTopic } from '../../platform/fanout/fanout';
import { createFlusher, jsonFrame, rawSocketOf, writeFrameInOrder, type FramedConn } from '../../platform/fanout/frames';
import { PERIODS } from '../../domains/market-data/kline-math';

export { CLOSE_POLICY_VIOLATION, CLOSE_SLOW_CONSUMER } from '../../platform/fanout/fanout';
export { textFrame, WRITE_SLICE } from '../../platform/fanout/frames';

/** A socket whose unsent data exceeds this many bytes at a send is closed (slow consumer). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A socket with more unsent bytes than this is skipped by the public pushes (see the module comment). */
export const SLOW_BUFFERED_BYTES = 256 * 1024;
/** A socket skipped for this long without draining under SLOW_BUFFERED_BYTES is closed (slow consumer). */
export const STALL_CLOSE_MS = 10_000;
/** Default least time between two flushes of the public pushes (WsHubDeps.flushMs). */
export const FLUSH_MS = 20;
/** Most trades in one coalesced trades push (the newest; older ones stay in getTrades). */
export const MAX_TRADES_PER_PUSH = 200;
/** Subscriptions one socket may hold. */
export const MAX_SUBSCRIPTIONS = 200;
/** Depth levels per side in a snapshot. */
export const SNAPSHOT_LEVELS = 500;
/** Trades sent on subscribe. */
export const TRADES_ON_SUBSCRIBE = 50;

const CHANNELS = new Set(['ticker', 'depth', 'trades', 'kline']);
/**
 * The contracts' public channels (packages/api contract-market.ts): topics `<channel>|CONTRACT|<symbol>` of the
 * perpetual market, never mixed with spot's. Ticker, depth and mark pushes carry the latest state (a newer one
 * replaces a pending one), trades are merged like spot's.
 */
const CONTRACT_CHANNELS = new Set(['contractTicker', 'contractDepth', 'contractTrades', 'contractMark']);
type ContractChannel = 'contractTicker' | 'contractDepth' | 'contractTrades' | 'contractMark';
/** The spot counter of /metrics each contract channel is counted in. */
const COUNTED_AS = { contractTicker: 'ticker', contractDepth: 'depth', contractTrades: 'trades', contractMark: 'ticker' } as const;
const PAIR_RE = /^[A-Z0-9]{2,12}\/[A-Z0-9]{2,12}$/;

/** A socket: the core's connection, its pre-framed writes, its language and its auth state. */
interface Client extends FanoutConn<Topic, Session>, FramedConn {
  lang: Lang;
  /** The private channels' binding, once authenticated. */
  session: Session | null;
  authFailures: number;
  authsInFlight: number;
}

/** The binding of a socket to a user's private channels, with the sha256 of its token (the sessions table's key). */
interface Session extends FanoutSink<Client> {
  readonly tokenHash: string;
}

type PublicChannel = 'ticker' | 'depth' | 'trades' | 'kline' | ContractChannel;

/** Updates of a topic waiting for the next flush, merged. */
type Pending =
  | { channel: 'depth'; prevSeq: number; seq: number; bids: Map<string, string>; asks: Map<string, string> }
  | { channel: 'trades'; trades: PublicTrade[] }
  | { channel: 'ticker' | 'kline' | 'contract'; msg: WsServerMessage }
  | { channel: 'contractTrades'; trades: ContractTrade[] };

/**
 * A public topic and its subscribers. For depth, a subscriber's number is the seq of the book the socket has (its
 * last snapshot or delta), or -1 once it was skipped: a delta is only sent to a socket whose seq is the delta's
 * prevSeq, any other gets a snapshot.
 */
interface Topic extends FanoutTopic<Client> {
  channel: PublicChannel;
  type: MarketType;
  pairsName: string;
  pending: Pending | null;
  /** Depth: the snapshot frame of the current book, until the next update of the topic. */
  snapshot: { seq: number; frame: Buffer } | null;
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
  /** The contracts' public market data (contract channels); without it they answer market_not_found. */
  perpMarket?: Pick<PerpMarketService, 'subscribe' | 'market' | 'depth' | 'trades' | 'markTick'>;
  /** The domains' private pushes made of engine events (platform/shared/private-push.ts); absent = none. */
  pushes?: readonly DomainPushes<never>[];
  /** The domains' services' own private pushes (an OTC order's chat, a support reply), subscribed once; absent = none. */
  sources?: readonly PushSource[];
  host: EnginePort;
  members: Pick<MemberService, 'authenticate'>;
  hooks: Pick<Hooks, 'sessionsEnded'>;
  limits: WsSocketLimits;
  log: FastifyBaseLogger;
  /** Clock in ms (default performance.now), for the message rate, the flush interval and slow consumers. */
  now?: () => number;
  /** Least ms between two flushes of the public pushes (default FLUSH_MS; 0: one flush per engine batch). */
  flushMs?: number;
}

/** The hub's counts (for /metrics and the fan-out benchmark). */
export interface WsHubStats {
  /** Connected sockets. */
  sockets: number;
  /** Subscriptions per public channel (a socket on two pairs counts twice), and authenticated sockets ('private'). */
  subscribers: Record<'ticker' | 'depth' | 'trades' | 'kline' | 'private', number>;
  /** Bytes queued on all sockets, not yet written to the kernel (sum of bufferedAmount). */
  bufferedBytes: number;
  /** Sockets closed as slow consumers (1013) since start. */
  closedSlow: number;
  /** Public pushes not sent to a socket because it was over SLOW_BUFFERED_BYTES, since start. */
  skippedPushes: number;
  /** Depth snapshots sent instead of a delta to a socket that had been skipped, since start. */
  resyncs: number;
  /** Flushes since start, and the duration of the last one (serialize + write to every subscriber), in ms. */
  flushes: number;
  lastFlushMs: number;
}

/** The hub: `connect` each accepted socket; `close` on shutdown. */
export interface WsHub {
  connect(socket: WebSocket, lang: Lang): void;
  /** Number of connected sockets. */
  size(): number;
  /** The current counts; O(sockets + topics), meant for a scrape, not for every message. */
  stats(): WsHubStats;
  close(): void;
}

const topicOf = (channel: string, type: MarketType, pairsName: string, period?: string) =>
  channel === 'kline' ? `kline|${type}|${pairsName}|${period}` : `${channel}|${type}|${pairsName}`;

/** Creates the hub and attaches it to market updates and engine events. */
export function createWsHub(deps: WsHubDeps): WsHub {
  const { marketData, perpMarket, host, members, hooks, limits, log } = deps;
  const now = deps.now ?? (() => performance.now());
  /** Topics with pending updates, in the order they first got one since the last flush. */
  const dirty = new Set<Topic>();
  let skippedPushes = 0;
  let resyncs = 0;
  const pendingAuths = new Set<PendingAuth>();

  const fanout = createFanout<Client, Topic, Session>({
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    slowBytes: SLOW_BUFFERED_BYTES,
    stallCloseMs: STALL_CLOSE_MS,
    messagesPerSec: limits.messagesPerSec,
    messageBurst: limits.messageBurst,
    onOverRate(c) {
      error(c, 'rate_limited');
      fanout.closeConn(c, CLOSE_POLICY_VIOLATION, 'message rate exceeded');
    },
    onTopicEmpty: (t) => dirty.delete(t),
    onDrop(c) {
      c.out.length = 0;
      c.session = null;
    },
    log,
    now,
  });
  const flusher = createFlusher<Client>({ collect, pending: () => dirty.size > 0 }, now, deps.flushMs ?? FLUSH_MS);

  /** Removes `c` from the private channels of its user. */
  function unbind(c: Client): void {
    if (c.session === null) return;
    fanout.unbind(c.session);
    c.session = null;
  }

  const send = (c: Client, msg: WsServerMessage | string): void => fanout.send(c, typeof msg === 'string' ? msg : JSON.stringify(msg));

  function error(c: Client, code: string): void {
    send(c, { channel: 'error', errorCode: code, errorMessage: errorMessage(code, c.lang) });
  }

  /** Merges an update into its topic's pending push and makes sure a flush is coming. */
  function enqueue(key: string, merge: (t: Topic) => void): void {
    const t = fanout.topic(key);
    if (!t) return;
    merge(t);
    dirty.add(t);
    flusher.schedule();
  }

  const onMarket = (u: MarketUpdate) => {
    switch (u.kind) {
      case 'ticker':
        enqueue(topicOf('ticker', u.type, u.symbol), (t) => {
          t.pending = { channel: 'ticker', msg: { channel: 'ticker', pairsName: u.symbol, type: u.type, data: u.pair } };
        });
        break;
      case 'depth':
        enqueue(topicOf('depth', 'SPOT', u.symbol), (t) => {
          t.snapshot = null;
          let p = t.pending;
          if (p?.channel !== 'depth') t.pending = p = { channel: 'depth', prevSeq: u.prevSeq, seq: u.seq, bids: new Map(), asks: new Map() };
          p.seq = u.seq;
          for (const [price, qty] of u.bids) p.bids.set(price, qty);
          for (const [price, qty] of u.asks) p.asks.set(price, qty);
        });
        break;
      case 'trades':
        enqueue(topicOf('trades', 'SPOT', u.symbol), (t) => {
          const older = t.pending?.channel === 'trades' ? t.pending.trades : [];
          const trades = u.trades.concat(older);
          if (trades.length > MAX_TRADES_PER_PUSH) trades.length = MAX_TRADES_PER_PUSH;
          t.pending = { channel: 'trades', trades };
        });
        break;
      case 'kline':
        enqueue(topicOf('kline', u.type, u.symbol, u.period), (t) => {
          t.pending = { channel: 'kline', msg: { channel: 'kline', pairsName: u.symbol, type: u.type, period: u.period, data: u.bar } };
        });
        break;
    }
  };

  const onContract = (u: PerpMarketUpdate) => {
    const key = topicOf(u.kind, 'CONTRACT', u.symbol);
    if (u.kind === 'contractTrades') {
      enqueue(key, (t) => {
        const older = t.pending?.channel === 'contractTrades' ? t.pending.trades : [];
        const trades = u.data.concat(older);
        if (trades.length > MAX_TRADES_PER_PUSH) trades.length = MAX_TRADES_PER_PUSH;
        t.pending = { channel: 'contractTrades', trades };
      });
    } else {
      enqueue(key, (t) => {
        t.pending = { channel: 'contract', msg: { channel: u.kind, pairsName: u.symbol, data: u.data } as WsServerMessage };
      });
    }
  };

  /** The depth snapshot of `t`'s current book as a frame, built once per book state. */
  function snapshotOf(t: Topic): { seq: number; frame: Buffer } {
    if (t.snapshot) return t.snapshot;
    const d = marketData.depth(t.pairsName, t.type, SNAPSHOT_LEVELS);
    const msg: WsServerMessage = {
      channel: 'depth',
      pairsName: t.pairsName,
      type: t.type,
      kind: 'snapshot',
      seq: d.seq,
      prevSeq: d.seq,
      data: { bids: d.bids, asks: d.asks },
    };
    return (t.snapshot = { seq: d.seq, frame: jsonFrame(msg) });
  }

  /** A flush's frames: each dirty topic's pending push, serialized once, queued to its subscribers. */
  function collect(queue: (c: Client, frame: Buffer) => void, round: number, at: number): void {
    for (const t of dirty) {
      const p = t.pending;
      t.pending = null;
      if (!p) continue;
      if (p.channel === 'depth') {
        const msg: WsServerMessage = {
          channel: 'depth',
          pairsName: t.pairsName,
          type: t.type,
          kind: 'delta',
          seq: p.seq,
          prevSeq: p.prevSeq,
          data: { bids: [...p.bids], asks: [...p.asks] },
        };
        let frame: Buffer | undefined;
        for (const [c, has] of t.subs) {
          if (has >= p.seq) continue; // its snapshot already holds these changes
          if (!fanout.flushable(c, round, at)) {
            if (!c.closed) t.subs.set(c, -1);
            skippedPushes++;
          } else if (has === p.prevSeq) {
            queue(c, (frame ??= jsonFrame(msg)));
            t.subs.set(c, p.seq);
          } else {
            const snap = snapshotOf(t);
            queue(c, snap.frame);
            t.subs.set(c, snap.seq);
            resyncs++;
          }
        }
      } else {
        const msg: WsServerMessage =
          p.channel === 'trades'
            ? { channel: 'trades', pairsName: t.pairsName, type: t.type, data: p.trades }
            : p.channel === 'contractTrades'
              ? { channel: 'contractTrades', pairsName: t.pairsName, data: p.trades }
              : p.msg;
        const frame = jsonFrame(msg);
        for (const c of t.subs.keys()) {
          if (fanout.flushable(c, round, at)) queue(c, frame);
          else skippedPushes++;
        }
      }
    }
    dirty.clear();
  }

  /** Sends a private push to every socket of its user. */
  const toUser = (p: PrivatePush) => {
    const set = fanout.sinksOf(p.userId);
    if (!set || set.size === 0) return;
    const text = JSON.stringify(p.message);
    for (const s of set) send(s.conn, text);
  };
  const pushes = deps.pushes ?? [];
  const eventPushes = pushes.flatMap((p) => (p.event ? [p.event] : []));

  const onEngine = (events: EngineEvent[]) => {
    if (!fanout.anySink()) return;
    // Pushes sent once the batch is written (the inbox: its new messages are readable then).
    const later = pushes.flatMap((p) => p.afterProjection?.(events, wantsPrivate) ?? []);
    if (later.length > 0) {
      void host
        .projected()
        .catch(() => {})
        .then(() => {
          for (const p of later) toUser(p);
        });
    }
    // Each event's private pushes, event by event (a spot order, a balance, the contracts' orders and positions).
    for (const e of events) {
      for (const p of eventPushes) {
        const push = p(host.engine, e, wantsPrivate);
        if (push) toUser(push);
      }
    }
  };
  function wantsPrivate(userId: string): boolean {
    const set = fanout.sinksOf(userId);
    return set !== undefined && set.size > 0;
  }

  const onSessionsEnded = (e: SessionsEnded) => {
    const ends = (userId: string, tokenHash: string | null) => userId === e.userId && (e.tokenHash === undefined || tokenHash === e.tokenHash);
    for (const p of pendingAuths) if (ends(p.userId, p.tokenHash)) p.stale = true;
    const set = fanout.sinksOf(e.userId);
    if (!set) return;
    for (const s of [...set]) {
      if (!ends(e.userId, s.tokenHash)) continue;
      const c = s.conn;
      unbind(c);
      send(c, { channel: 'sessionEnded', reason: e.reason, errorCode: 'SYS.0015', errorMessage: errorMessage('SYS.0015', c.lang) });
    }
  };

  const offMarket = marketData.subscribe(onMarket);
  const offContract = perpMarket?.subscribe(onContract);
  const offEngine = host.onEvents(onEngine);
  // Pushes the domains' services make on their own (an OTC order's change or chat, a support reply).
  const offSources = (deps.sources ?? []).map((source) => source(toUser));
  hooks.sessionsEnded.push(onSessionsEnded);

  async function subscribe(c: Client, channel: PublicChannel, type: MarketType, pairsName: string, period: KlinePeriod | undefined): Promise<void> {
    const key = topicOf(channel, type, pairsName, period);
    const t = fanout.join(c, key, () => ({ key, channel, type, pairsName, subs: new Map(), pending: null, snapshot: null }));
    if (t === 'joined') return;
    if (t === 'full') return error(c, 'rate_limited');
    // The first message of a subscription is the current state. For depth its seq is noted: a pending delta it
    // already holds is not sent to this socket, and the next one starts at its seq.
    if (channel === 'depth') {
      const snap = snapshotOf(t);
      t.subs.set(c, snap.seq);
      // Behind frames a flush still has to write to this socket, if any, so the snapshot comes after them.
      if (fanout.sendable(c)) writeFrameInOrder(c, snap.frame);
    } else if (perpMarket && CONTRACT_CHANNELS.has(channel)) {
      // The current state first: the market row, the book, the latest trades or the mark price.
      const first: WsServerMessage | undefined =
        channel === 'contractTicker'
          ? (() => {
              const data = perpMarket.market(pairsName);
              return data ? { channel, pairsName, data } : undefined;
            })()
          : channel === 'contractDepth'
            ? (() => {
                const data = perpMarket.depth(pairsName, 20);
                return data ? { channel, pairsName, data } : undefined;
              })()
            : channel === 'contractTrades'
              ? { channel, pairsName, data: perpMarket.trades(pairsName, TRADES_ON_SUBSCRIBE) }
              : (() => {
                  const data = perpMarket.markTick(pairsName);
                  return data ? { channel: 'contractMark' as const, pairsName, data } : undefined;
                })();
      if (first) send(c, first);
    } else if (channel === 'ticker') {
      const pair = marketData.pair(pairsName, type);
      if (pair) send(c, { channel: 'ticker', pairsName, type, data: pair });
    } else if (channel === 'trades') {
      send(c, { channel: 'trades', pairsName, type, data: marketData.trades(pairsName, type, TRADES_ON_SUBSCRIBE) });
    } else if (channel === 'kline' && period) {
      const bars = await marketData.klines(pairsName, type, period, 1);
      const bar = bars[bars.length - 1];
      if (bar && c.topics.has(key)) send(c, { channel: 'kline', pairsName, type, period, data: bar });
    }
  }

  const unsubscribe = (c: Client, key: string): void => fanout.leave(c, key);

  /** Counts a failed auth of `c`; at the limit the socket is closed (after the answer already sent). */
  function authFailed(c: Client): void {
    c.authFailures++;
    const max = limits.authFailuresPerSocket;
    if (max > 0 && c.authFailures >= max) fanout.closeConn(c, CLOSE_POLICY_VIOLATION, 'too many failed auth attempts');
  }

  async function auth(c: Client, token: unknown, userId: unknown): Promise<void> {
    // Attempts in flight count as failures until answered, so a burst of auth messages cannot outrun the limit.
    const max = limits.authFailuresPerSocket;
    if (max > 0 && c.authFailures + c.authsInFlight >= max) return fanout.closeConn(c, CLOSE_POLICY_VIOLATION, 'too many failed auth attempts');
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
    c.session = { conn: c, userId: id, tokenHash: pending.tokenHash };
    fanout.bind(c.session);
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
    if (typeof channel !== 'string' || (!CHANNELS.has(channel) && !CONTRACT_CHANNELS.has(channel))) return error(c, 'validation_failed');
    const pairsName = m.pairsName;
    if (typeof pairsName !== 'string' || !PAIR_RE.test(pairsName)) return error(c, 'validation_failed');
    if (CONTRACT_CHANNELS.has(channel)) {
      if (!perpMarket || !host.engine.perpMarket(pairsName)) return error(c, 'market_not_found');
      if (m.op === 'subscribe') return subscribe(c, channel as ContractChannel, 'CONTRACT', pairsName, undefined);
      return unsubscribe(c, topicOf(channel, 'CONTRACT', pairsName));
    }
    const type = m.type === undefined ? 'SPOT' : m.type;
    if (type !== 'SPOT' && type !== 'CONTRACT') return error(c, 'validation_failed');
    let period: KlinePeriod | undefined;
    if (channel === 'kline') {
      if (typeof m.period !== 'string' || !(PERIODS as readonly string[]).includes(m.period)) return error(c, 'validation_failed');
      period = m.period as KlinePeriod;
    }
    if (!marketData.listing(pairsName, type)) return error(c, 'market_not_found');
    if (m.op === 'subscribe') return subscribe(c, channel as PublicChannel, type, pairsName, period);
    unsubscribe(c, topicOf(channel, type, pairsName, period));
  }

  return {
    connect(socket, lang) {
      const fields = { raw: rawSocketOf(socket), out: [], lang, session: null, authFailures: 0, authsInFlight: 0 };
      fanout.open(socket, fields, MAX_SUBSCRIPTIONS, {
        binary: (c) => error(c, 'validation_failed'),
        text(c, text) {
          onMessage(c, text).catch((err: unknown) => {
            log.error({ err }, 'WebSocket message failed');
            error(c, 'internal_error');
          });
        },
      });
    },
    size: () => fanout.connections().size,
    stats() {
      const subscribers = { ticker: 0, depth: 0, trades: 0, kline: 0, private: 0 };
      for (const t of fanout.topics()) {
        const counted = t.channel in COUNTED_AS ? COUNTED_AS[t.channel as ContractChannel] : (t.channel as 'ticker' | 'depth' | 'trades' | 'kline');
        subscribers[counted] += t.subs.size;
      }
      const core = fanout.stats();
      subscribers.private = core.sinks;
      return {
        sockets: core.connections,
        subscribers,
        bufferedBytes: core.bufferedBytes,
        closedSlow: core.closedSlow,
        skippedPushes,
        resyncs,
        ...flusher.stats(),
      };
    },
    close() {
      flusher.cancel();
      offMarket();
      offContract?.();
      offEngine();
      for (const off of offSources) off();
      const i = hooks.sessionsEnded.indexOf(onSessionsEnded);
      if (i >= 0) hooks.sessionsEnded.splice(i, 1);
      fanout.close();
    },
  };
}
