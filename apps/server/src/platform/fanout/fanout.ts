/**
 * The WebSocket fan-out core shared by the app's hub (gateways/ws/ws.hub.ts) and the Binance-compatible streams
 * (gateways/binance/streams.hub.ts): the machinery that names no channel and no message shape. A hub keeps its wire
 * format (channel names, payloads, the auth of its private streams) and hands the rest to one `Fanout`:
 *
 * - connections: `open` registers an accepted socket, `close`/`error` drop it, `closeConn` closes it once with a code;
 * - the topic registry: a topic (the hub's own record, keyed by the hub) and its subscribers, joined and left per
 *   connection, the topic forgotten (`onTopicEmpty`) when its last subscriber leaves or drops;
 * - the user registry: sinks (a private stream of one user bound to one connection), bound and unbound, found by user;
 * - sends with backpressure: a connection whose unsent bytes exceed `maxBufferedBytes` at a send is closed 1013
 *   "slow consumer" (counted); optionally a batched push skips a connection over `slowBytes` and closes it once it
 *   stayed over that `stallCloseMs` (`flushable`);
 * - limits: incoming messages per connection through a token bucket (`onOverRate` decides the answer), topics per
 *   connection (`join` answers 'full');
 * - the heartbeat (optional): a ping frame every `pingEveryMs`, a close 1008 "pong timeout" when no pong came back
 *   within `pongTimeoutMs`; ping and pong frames then count against the message rate;
 * - metrics: connections, topics, sinks, bytes waiting and slow consumers closed.
 *
 * Connections, topics and sinks are the hub's own types extending `FanoutConn`, `FanoutTopic` and `FanoutSink`, so
 * the hub reads its fields without a second lookup.
 */
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { createTokenBucket, type TokenBucket } from '../rate-limit/slots-and-buckets';

/** WebSocket close code for a slow consumer (1013: try again later). */
export const CLOSE_SLOW_CONSUMER = 1013;
/** WebSocket close code for a connection over a limit (1008: policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;
/** WebSocket close code on shutdown (1001: going away). */
export const CLOSE_GOING_AWAY = 1001;

/** A topic: the hub's record of one stream, keyed by the hub, and its subscribers. */
export interface FanoutTopic<C> {
  readonly key: string;
  /**
   * Subscribers, in the order they joined, each with a number the hub keeps for it (-1 on join; the app's depth
   * channel notes there the book sequence the subscriber has).
   */
  readonly subs: Map<C, number>;
}

/** A private stream of one user bound to one connection (an authenticated socket, a listenKey stream). */
export interface FanoutSink<C> {
  readonly conn: C;
  readonly userId: string;
}

/** The core's part of a connection; a hub's connection type extends it with its own fields. */
export interface FanoutConn<T, S> {
  readonly socket: WebSocket;
  /** True once dropped (closed by either side, or by the hub): nothing is sent to it any more. */
  closed: boolean;
  /** Topics joined, by key, in the order joined. */
  readonly topics: Map<string, T>;
  /** Sinks bound to this connection. */
  readonly sinks: Set<S>;
  /** Topics this connection may join (`join` answers 'full' beyond it). */
  readonly maxTopics: number;
  /** Incoming messages (and, with a heartbeat, ping and pong frames). */
  readonly messages: TokenBucket;
  /** Clock ms of the last pong (or of the open). */
  lastPong: number;
  /** The skip decision of `flushable`: the round it was made in, the answer, and since when (ms, 0 = not) it is slow. */
  readonly backlog: { round: number; writable: boolean; slowSince: number };
}

/** What a hub hands `open` for a connection's incoming messages. */
export interface MessageHandlers<C> {
  /** A text message, decoded as UTF-8. */
  text(c: C, text: string): void;
  /** A binary message (both hubs answer with an error). */
  binary(c: C): void;
  /** Whether messages count against the message rate (default true). */
  rated?: boolean;
}

/** The policy of a fan-out. Byte counts are of the socket's `bufferedAmount`; times are in ms of `now`. */
export interface FanoutOptions<C, T> {
  /** A connection with more unsent bytes than this at a send is closed 1013 "slow consumer". */
  maxBufferedBytes: number;
  /** `flushable` skips a connection with more unsent bytes than this (default: maxBufferedBytes). */
  slowBytes?: number;
  /** `flushable` closes a connection skipped for this long without draining (default: never). */
  stallCloseMs?: number;
  /** Incoming messages per second and burst of each connection's token bucket (0 = unlimited). */
  messagesPerSec: number;
  messageBurst: number;
  /** Called when a connection sends over its rate (the hub answers and closes it). */
  onOverRate(c: C): void;
  /** Ping frames and the pong timeout (absent: no heartbeat, ping/pong frames not counted). */
  heartbeat?: { pingEveryMs: number; pongTimeoutMs: number };
  /** Called after a topic's last subscriber left it and it left the registry (the hub forgets its batches). */
  onTopicEmpty?(t: T): void;
  /** Called after a connection was dropped (out of its topics and sinks). */
  onDrop?(c: C): void;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Clock in ms. */
  now(): number;
}

/** The core's counts (for /metrics and tests). */
export interface FanoutStats {
  /** Open connections. */
  connections: number;
  /** Topics with at least one subscriber. */
  topics: number;
  /** Sinks bound (a user with two sockets counts twice). */
  sinks: number;
  /** Bytes queued on all connections, not yet written to the kernel (sum of bufferedAmount). */
  bufferedBytes: number;
  /** Connections closed as slow consumers (1013) since start. */
  closedSlow: number;
}

/** The fan-out core of one hub. */
export interface Fanout<C extends FanoutConn<T, S>, T extends FanoutTopic<C>, S extends FanoutSink<C>> {
  /**
   * Registers an accepted socket: `fields` are the hub's own fields of the connection, `maxTopics` its topic limit,
   * `handlers` (optional) its incoming messages. Returns the connection.
   */
  open(socket: WebSocket, fields: Omit<C, keyof FanoutConn<T, S>>, maxTopics: number, handlers?: MessageHandlers<C>): C;
  /** Open connections. */
  connections(): ReadonlySet<C>;
  /** Drops `c` (out of its topics and sinks) and closes its socket with `code` and `reason`; once. */
  closeConn(c: C, code: number, reason: string): void;
  /**
   * Whether a message may be sent to `c` now: open, and not over maxBufferedBytes (one over it is closed as a slow
   * consumer, and false is answered).
   */
  sendable(c: C): boolean;
  /** Sends a text message to `c` when `sendable`. */
  send(c: C, data: string | Buffer): void;
  /**
   * Whether a batched push of round `round` may be written to `c` (decided once per round): open and under
   * slowBytes. One over it since stallCloseMs is closed as a slow consumer.
   */
  flushable(c: C, round: number, at: number): boolean;
  /** The topic of `key`, if anyone subscribes to it. */
  topic(key: string): T | undefined;
  /** Every topic with a subscriber. */
  topics(): IterableIterator<T>;
  /**
   * Adds `c` to the topic of `key`, made by `create` if new: the topic, or 'joined' when `c` already is a subscriber
   * (nothing changes), or 'full' when `c` holds maxTopics topics (nothing changes).
   */
  join(c: C, key: string, create: () => T): T | 'joined' | 'full';
  /** Takes `c` out of the topic of `key` (the topic goes when it has no subscriber left). */
  leave(c: C, key: string): void;
  /** Binds a sink to its connection and user. */
  bind(s: S): void;
  /** Unbinds a sink (no-op if not bound). */
  unbind(s: S): void;
  /** The sinks of `userId`, in the order bound; undefined when none. */
  sinksOf(userId: string): ReadonlySet<S> | undefined;
  /** Whether any sink is bound. */
  anySink(): boolean;
  stats(): FanoutStats;
  /** Stops the heartbeat and closes every connection 1001 "server shutting down". */
  close(): void;
}

/** The text of a `ws` message event's data. */
export function messageText(data: WebSocket.RawData): string {
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString();
}

/** Creates the fan-out core of one hub, with its policy. */
export function createFanout<C extends FanoutConn<T, S>, T extends FanoutTopic<C>, S extends FanoutSink<C>>(opts: FanoutOptions<C, T>): Fanout<C, T, S> {
  const { maxBufferedBytes, now, log } = opts;
  const slowBytes = opts.slowBytes ?? maxBufferedBytes;
  const stallCloseMs = opts.stallCloseMs ?? Infinity;
  const conns = new Set<C>();
  const topics = new Map<string, T>();
  const users = new Map<string, Set<S>>();
  let closedSlow = 0;

  function leave(c: C, key: string): void {
    const t = c.topics.get(key);
    if (!t) return;
    c.topics.delete(key);
    t.subs.delete(c);
    if (t.subs.size > 0) return;
    topics.delete(key);
    opts.onTopicEmpty?.(t);
  }

  function unbind(s: S): void {
    s.conn.sinks.delete(s);
    const set = users.get(s.userId);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) users.delete(s.userId);
  }

  function drop(c: C): void {
    if (c.closed) return;
    c.closed = true;
    conns.delete(c);
    for (const key of [...c.topics.keys()]) leave(c, key);
    for (const s of [...c.sinks]) unbind(s);
    opts.onDrop?.(c);
  }

  function closeConn(c: C, code: number, reason: string): void {
    if (c.closed) return;
    drop(c);
    try {
      c.socket.close(code, reason);
    } catch {
      c.socket.terminate();
    }
  }

  function closeSlow(c: C): void {
    log.warn({ buffered: c.socket.bufferedAmount }, 'closing a slow WebSocket consumer');
    closedSlow++;
    closeConn(c, CLOSE_SLOW_CONSUMER, 'slow consumer');
  }

  function sendable(c: C): boolean {
    if (c.closed || c.socket.readyState !== 1) return false;
    if (c.socket.bufferedAmount <= maxBufferedBytes) return true;
    closeSlow(c);
    return false;
  }

  /** Spends a message token of `c`; over the rate the hub's onOverRate runs and false is answered. */
  function takeMessage(c: C): boolean {
    if (c.messages.take(now())) return true;
    opts.onOverRate(c);
    return false;
  }

  const hb = opts.heartbeat;
  const pingTimer = hb
    ? setInterval(() => {
        const at = now();
        for (const c of conns) {
          if (at - c.lastPong > hb.pongTimeoutMs) {
            closeConn(c, CLOSE_POLICY_VIOLATION, 'pong timeout');
            c.socket.terminate();
          } else if (c.socket.readyState === 1) c.socket.ping();
        }
      }, hb.pingEveryMs)
    : undefined;
  pingTimer?.unref();

  return {
    open(socket, fields, maxTopics, handlers) {
      const base: FanoutConn<T, S> = {
        socket,
        closed: false,
        topics: new Map(),
        sinks: new Set(),
        maxTopics,
        messages: createTokenBucket(opts.messagesPerSec, opts.messageBurst, now()),
        lastPong: now(),
        backlog: { round: 0, writable: false, slowSince: 0 },
      };
      const c = Object.assign(base, fields) as C;
      conns.add(c);
      if (handlers) {
        const rated = handlers.rated ?? true;
        socket.on('message', (data, isBinary) => {
          if (c.closed) return;
          if (rated && !takeMessage(c)) return;
          if (isBinary) return handlers.binary(c);
          handlers.text(c, messageText(data));
        });
      }
      if (hb) {
        socket.on('ping', () => void takeMessage(c));
        socket.on('pong', () => {
          c.lastPong = now();
          takeMessage(c);
        });
      }
      socket.on('close', () => drop(c));
      socket.on('error', () => drop(c));
      return c;
    },
    connections: () => conns,
    closeConn,
    sendable,
    send(c, data) {
      if (sendable(c)) c.socket.send(data, { binary: false });
    },
    flushable(c, round, at) {
      const b = c.backlog;
      if (b.round === round) return b.writable;
      b.round = round;
      if (c.closed || c.socket.readyState !== 1) return (b.writable = false);
      if (c.socket.bufferedAmount <= slowBytes) {
        b.slowSince = 0;
        return (b.writable = true);
      }
      if (b.slowSince === 0) b.slowSince = at;
      else if (at - b.slowSince >= stallCloseMs) closeSlow(c);
      return (b.writable = false);
    },
    topic: (key) => topics.get(key),
    topics: () => topics.values(),
    join(c, key, create) {
      if (c.topics.has(key)) return 'joined';
      if (c.topics.size >= c.maxTopics) return 'full';
      let t = topics.get(key);
      if (!t) topics.set(key, (t = create()));
      t.subs.set(c, -1);
      c.topics.set(key, t);
      return t;
    },
    leave,
    bind(s) {
      s.conn.sinks.add(s);
      let set = users.get(s.userId);
      if (!set) users.set(s.userId, (set = new Set()));
      set.add(s);
    },
    unbind,
    sinksOf: (userId) => users.get(userId),
    anySink: () => users.size > 0,
    stats() {
      let sinks = 0;
      for (const set of users.values()) sinks += set.size;
      let bufferedBytes = 0;
      for (const c of conns) bufferedBytes += c.socket.bufferedAmount;
      return { connections: conns.size, topics: topics.size, sinks, bufferedBytes, closedSlow };
    },
    close() {
      clearInterval(pingTimer);
      for (const c of [...conns]) closeConn(c, CLOSE_GOING_AWAY, 'server shutting down');
    },
  };
}
