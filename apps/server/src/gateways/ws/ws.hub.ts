/**
 * The WebSocket fan-out (packages/api ws.ts): public topics (ticker, depth, trades, kline per period) fed by the
 * market-data service's updates, and per-user private pushes the domains declare (platform/shared/private-push.ts: a
 * spot order, a balance, the contracts' orders and positions, the inbox, OTC and support messages) after
 * `{op:'auth'}`. Depth: a snapshot on subscribe, then deltas with seq/prevSeq, so a client detects a gap. Malformed
 * messages are answered with an error message in the socket's language, never a crash.
 *
 * Public pushes are coalesced per flush (built for 10,000 subscribers of depth + trades): updates of a topic are
 * merged until the next flush (depth: one delta over the whole seq range, each changed level with its last quantity;
 * trades: one list, newest first; ticker and kline: the latest), and a flush runs at the end of the engine batch that
 * made them (a microtask) but never sooner than `flushMs` after the previous one (one timer for the hub, none per
 * socket). Each message is serialized and framed once per topic and flush, the same bytes written to every
 * subscriber's TCP socket, several topics of one socket in one write (cork).
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
 * Sessions end everywhere at once (finding 4): on hooks.sessionsEnded (logout: one token; password reset and the
 * like: every session of the user) the matching sockets are unbound from the private channels and told
 * { channel: 'sessionEnded' }; they may authenticate again. An auth whose session ends while it is being checked is
 * checked again, so a socket is never bound to a session that has already ended.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import { errorMessage, type ContractTrade, type Lang, type MarketType, type WsServerMessage, type KlinePeriod, type PublicTrade } from '@exchange/api';
import type { EngineEvent } from '@exchange/core';
import type { Hooks, SessionsEnded } from '../../platform/shared/hooks';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { MarketDataService, MarketUpdate } from '../../domains/market-data/market-data.service';
import type { ContractMarketService, ContractMarketUpdate } from '../../domains/contract-market/contract-market.service';
import type { MemberService } from '../../domains/member/member.service';
import { sha256Hex } from '../../platform/shared/secrets';
import type { DomainPushes, PrivatePush, PushSource } from '../../platform/shared/private-push';
import { createTokenBucket, type TokenBucket } from '../../platform/rate-limit/slots-and-buckets';
import { PERIODS } from '../../domains/market-data/kline-math';

/** A socket whose unsent data exceeds this many bytes at a send is closed (slow consumer). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** A socket with more unsent bytes than this is skipped by the public pushes (see the module comment). */
export const SLOW_BUFFERED_BYTES = 256 * 1024;
/** A socket skipped for this long without draining under SLOW_BUFFERED_BYTES is closed (slow consumer). */
export const STALL_CLOSE_MS = 10_000;
/** Default least time between two flushes of the public pushes (WsHubDeps.flushMs). */
export const FLUSH_MS = 20;
/** Sockets written between two turns of the event loop by a flush. */
export const WRITE_SLICE = 1000;
/** Most trades in one coalesced trades push (the newest; older ones stay in getTrades). */
export const MAX_TRADES_PER_PUSH = 200;
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

interface Client {
  socket: WebSocket;
  /** The TCP socket the pre-framed public pushes are written to; null when an extension (compression) is on. */
  raw: Socket | null;
  /** Frames queued for this socket by the running flush. */
  out: Buffer[];
  /** Flush number at which `writable` was last decided, and the decision. */
  checkedAt: number;
  writable: boolean;
  /** When (hub clock, ms) the socket was first skipped as slow in its current episode; 0 when not. */
  slowSince: number;
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

type PublicChannel = 'ticker' | 'depth' | 'trades' | 'kline' | ContractChannel;

/** Updates of a topic waiting for the next flush, merged. */
type Pending =
  | { channel: 'depth'; prevSeq: number; seq: number; bids: Map<string, string>; asks: Map<string, string> }
  | { channel: 'trades'; trades: PublicTrade[] }
  | { channel: 'ticker' | 'kline' | 'contract'; msg: WsServerMessage }
  | { channel: 'contractTrades'; trades: ContractTrade[] };

/** A public topic and its subscribers. */
interface Topic {
  key: string;
  channel: PublicChannel;
  type: MarketType;
  pairsName: string;
  /**
   * Subscribers. For depth, the seq of the book the socket has (its last snapshot or delta), or -1 once it was
   * skipped: a delta is only sent to a socket whose seq is the delta's prevSeq, any other gets a snapshot.
   */
  subs: Map<Client, number>;
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
  contractMarket?: Pick<ContractMarketService, 'subscribe' | 'market' | 'depth' | 'trades' | 'markTick'>;
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

/**
 * One unfragmented, unmasked WebSocket text frame holding `payload` (RFC 6455 section 5.2: FIN + opcode 1, then the
 * payload length in 7 bits, or 126 + 16 bits, or 127 + 64 bits), as a server sends it.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(frame, head);
  return frame;
}

const frameOf = (msg: WsServerMessage): Buffer => textFrame(Buffer.from(JSON.stringify(msg), 'utf8'));

/** Creates the hub and attaches it to market updates and engine events. */
export function createWsHub(deps: WsHubDeps): WsHub {
  const { marketData, contractMarket, host, members, hooks, limits, log } = deps;
  const now = deps.now ?? (() => performance.now());
  const flushMs = deps.flushMs ?? FLUSH_MS;
  const clients = new Set<Client>();
  const topics = new Map<string, Topic>();
  /** Topics with pending updates, in the order they first got one since the last flush. */
  const dirty = new Set<Topic>();
  let flushScheduled = false;
  /** True while a flush's slices are being written (the next flush waits for it). */
  let writing = false;
  let flushTimer: NodeJS.Timeout | undefined;
  let lastFlushAt = -Infinity;
  let flushNo = 0;
  let skippedPushes = 0;
  let resyncs = 0;
  let lastFlushMs = 0;
  const users = new Map<string, Set<Client>>();
  const pendingAuths = new Set<PendingAuth>();
  let closedSlow = 0;

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
    for (const t of c.topics) leave(c, t);
    c.topics.clear();
    c.out.length = 0;
    unbind(c);
  }

  /** Closes `c` with a close code and reason, after what is already queued on it. */
  function closeWith(c: Client, code: number, reason: string): void {
    drop(c);
    c.socket.close(code, reason);
  }

  function send(c: Client, msg: WsServerMessage | string): void {
    if (c.closed || c.socket.readyState !== 1) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return closeSlow(c);
    c.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  function closeSlow(c: Client): void {
    log.warn({ buffered: c.socket.bufferedAmount }, 'closing a slow WebSocket consumer');
    closedSlow++;
    closeWith(c, CLOSE_SLOW_CONSUMER, 'slow consumer');
  }

  function error(c: Client, code: string): void {
    send(c, { channel: 'error', errorCode: code, errorMessage: errorMessage(code, c.lang) });
  }

  /** Takes `c` out of topic `key` (the topic goes when it has no subscriber left). */
  function leave(c: Client, key: string): void {
    const t = topics.get(key);
    if (!t) return;
    t.subs.delete(c);
    if (t.subs.size === 0) {
      topics.delete(key);
      dirty.delete(t);
    }
  }

  /** Merges an update into its topic's pending push and makes sure a flush is coming. */
  function enqueue(key: string, merge: (t: Topic) => void): void {
    const t = topics.get(key);
    if (!t) return;
    merge(t);
    dirty.add(t);
    scheduleFlush();
  }

  /** Schedules the next flush, unless one is scheduled or still writing (it schedules the next when done). */
  function scheduleFlush(): void {
    if (flushScheduled || writing) return;
    flushScheduled = true;
    const wait = lastFlushAt + flushMs - now();
    // A microtask runs once the engine batch being applied has published all its events.
    if (wait <= 0) queueMicrotask(flush);
    else flushTimer = setTimeout(flush, wait);
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

  const onContract = (u: ContractMarketUpdate) => {
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
    return (t.snapshot = { seq: d.seq, frame: frameOf(msg) });
  }

  /**
   * Whether the flush may write to `c` (decided once per flush): open and under SLOW_BUFFERED_BYTES. A socket over
   * it since STALL_CLOSE_MS is closed as a slow consumer.
   */
  function writable(c: Client, at: number): boolean {
    if (c.checkedAt === flushNo) return c.writable;
    c.checkedAt = flushNo;
    if (c.closed || c.socket.readyState !== 1) return (c.writable = false);
    if (c.socket.bufferedAmount <= SLOW_BUFFERED_BYTES) {
      c.slowSince = 0;
      return (c.writable = true);
    }
    if (c.slowSince === 0) c.slowSince = at;
    else if (at - c.slowSince >= STALL_CLOSE_MS) closeSlow(c);
    return (c.writable = false);
  }

  /** Sends every topic's pending push to its subscribers: one serialization per topic, one write per socket. */
  function flush(): void {
    flushScheduled = false;
    flushTimer = undefined;
    const at = now();
    lastFlushAt = at;
    flushNo++;
    const t0 = performance.now();
    const targets: Client[] = [];
    const queue = (c: Client, frame: Buffer) => {
      if (c.out.length === 0) targets.push(c);
      c.out.push(frame);
    };
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
          if (!writable(c, at)) {
            if (!c.closed) t.subs.set(c, -1);
            skippedPushes++;
          } else if (has === p.prevSeq) {
            queue(c, (frame ??= frameOf(msg)));
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
        const frame = frameOf(msg);
        for (const c of t.subs.keys()) {
          if (writable(c, at)) queue(c, frame);
          else skippedPushes++;
        }
      }
    }
    dirty.clear();
    writing = true;
    writeSlice(targets, 0, t0);
  }

  /**
   * Writes the queued frames of targets[from..] in slices of WRITE_SLICE sockets, the event loop running between
   * two slices (orders are answered while 10,000 sockets are written). A socket's frames queued by a later flush
   * before its turn go out with these, in order. Sockets with the same topics get the same frames: those are joined
   * once, so each socket costs one write of one buffer (one send system call, the bulk of a flush's cost).
   */
  function writeSlice(targets: Client[], from: number, t0: number): void {
    const ids = new Map<Buffer, number>();
    const joined = new Map<string, Buffer>();
    const end = Math.min(targets.length, from + WRITE_SLICE);
    for (let i = from; i < end; i++) {
      const c = targets[i] as Client;
      const out = c.out;
      if (out.length === 0) continue;
      if (!c.closed && c.socket.readyState === 1) {
        if (out.length === 1 || c.raw === null) write(c, out);
        else {
          let key = '';
          for (const f of out) {
            let id = ids.get(f);
            if (id === undefined) ids.set(f, (id = ids.size));
            key += `${id},`;
          }
          let buf = joined.get(key);
          if (!buf) joined.set(key, (buf = Buffer.concat(out)));
          c.raw.write(buf);
        }
      }
      out.length = 0;
    }
    if (end < targets.length) {
      setImmediate(() => writeSlice(targets, end, t0));
      return;
    }
    lastFlushMs = performance.now() - t0;
    writing = false;
    if (dirty.size > 0) scheduleFlush();
  }

  /** Writes pre-framed messages to `c`: straight to its TCP socket in one write, or through ws when it compresses. */
  function write(c: Client, frames: Buffer[]): void {
    const raw = c.raw;
    if (raw === null) {
      for (const f of frames) c.socket.send(f.subarray(f[1] === 127 ? 10 : f[1] === 126 ? 4 : 2), { binary: false });
      return;
    }
    if (frames.length === 1) {
      raw.write(frames[0] as Buffer);
      return;
    }
    raw.cork();
    for (const f of frames) raw.write(f);
    raw.uncork();
  }

  /** Sends a private push to every socket of its user. */
  const toUser = (p: PrivatePush) => {
    const set = users.get(p.userId);
    if (!set || set.size === 0) return;
    const text = JSON.stringify(p.message);
    for (const c of set) send(c, text);
  };
  const pushes = deps.pushes ?? [];
  const eventPushes = pushes.flatMap((p) => (p.event ? [p.event] : []));

  const onEngine = (events: EngineEvent[]) => {
    if (users.size === 0) return;
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
    const set = users.get(userId);
    return set !== undefined && set.size > 0;
  }

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
  const offContract = contractMarket?.subscribe(onContract);
  const offEngine = host.onEvents(onEngine);
  // Pushes the domains' services make on their own (an OTC order's change or chat, a support reply).
  const offSources = (deps.sources ?? []).map((source) => source(toUser));
  hooks.sessionsEnded.push(onSessionsEnded);

  async function subscribe(c: Client, channel: PublicChannel, type: MarketType, pairsName: string, period: KlinePeriod | undefined): Promise<void> {
    const key = topicOf(channel, type, pairsName, period);
    if (c.topics.has(key)) return;
    if (c.topics.size >= MAX_SUBSCRIPTIONS) return error(c, 'rate_limited');
    c.topics.add(key);
    let t = topics.get(key);
    if (!t) topics.set(key, (t = { key, channel, type, pairsName, subs: new Map(), pending: null, snapshot: null }));
    t.subs.set(c, -1);
    // The first message of a subscription is the current state. For depth its seq is noted: a pending delta it
    // already holds is not sent to this socket, and the next one starts at its seq.
    if (channel === 'depth') {
      const snap = snapshotOf(t);
      t.subs.set(c, snap.seq);
      if (c.closed || c.socket.readyState !== 1) return;
      if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return closeSlow(c);
      // Behind frames a flush still has to write to this socket, if any, so the snapshot comes after them.
      if (c.out.length > 0) c.out.push(snap.frame);
      else write(c, [snap.frame]);
    } else if (contractMarket && CONTRACT_CHANNELS.has(channel)) {
      // The current state first: the market row, the book, the latest trades or the mark price.
      const first: WsServerMessage | undefined =
        channel === 'contractTicker'
          ? (() => {
              const data = contractMarket.market(pairsName);
              return data ? { channel, pairsName, data } : undefined;
            })()
          : channel === 'contractDepth'
            ? (() => {
                const data = contractMarket.depth(pairsName, 20);
                return data ? { channel, pairsName, data } : undefined;
              })()
            : channel === 'contractTrades'
              ? { channel, pairsName, data: contractMarket.trades(pairsName, TRADES_ON_SUBSCRIBE) }
              : (() => {
                  const data = contractMarket.markTick(pairsName);
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

  function unsubscribe(c: Client, key: string): void {
    c.topics.delete(key);
    leave(c, key);
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
    if (typeof channel !== 'string' || (!CHANNELS.has(channel) && !CONTRACT_CHANNELS.has(channel))) return error(c, 'validation_failed');
    const pairsName = m.pairsName;
    if (typeof pairsName !== 'string' || !PAIR_RE.test(pairsName)) return error(c, 'validation_failed');
    if (CONTRACT_CHANNELS.has(channel)) {
      if (!contractMarket || !host.engine.perpMarket(pairsName)) return error(c, 'market_not_found');
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
      // Pre-framed pushes go straight to the TCP socket unless an extension (permessage-deflate) transforms frames.
      const tcp = (socket as unknown as { _socket?: Socket })._socket;
      const c: Client = {
        socket,
        raw: socket.extensions === '' && tcp !== undefined ? tcp : null,
        out: [],
        checkedAt: 0,
        writable: false,
        slowSince: 0,
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
    stats() {
      const subscribers = { ticker: 0, depth: 0, trades: 0, kline: 0, private: 0 };
      for (const t of topics.values()) {
        const counted = t.channel in COUNTED_AS ? COUNTED_AS[t.channel as ContractChannel] : (t.channel as 'ticker' | 'depth' | 'trades' | 'kline');
        subscribers[counted] += t.subs.size;
      }
      for (const set of users.values()) subscribers.private += set.size;
      let bufferedBytes = 0;
      for (const c of clients) bufferedBytes += c.socket.bufferedAmount;
      return { sockets: clients.size, subscribers, bufferedBytes, closedSlow, skippedPushes, resyncs, flushes: flushNo, lastFlushMs };
    },
    close() {
      clearTimeout(flushTimer);
      offMarket();
      offContract?.();
      offEngine();
      for (const off of offSources) off();
      const i = hooks.sessionsEnded.indexOf(onSessionsEnded);
      if (i >= 0) hooks.sessionsEnded.splice(i, 1);
      for (const c of [...clients]) {
        drop(c);
        c.socket.close(1001, 'server shutting down');
      }
    },
  };
}
