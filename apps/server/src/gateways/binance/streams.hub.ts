/**
 * The Binance stream hub: market streams and user data streams over the Binance WebSocket protocol
 * (https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams), fed by the same sources as the
 * app's WebSocket (gateways/ws/ws.hub.ts): market data's updates (trades, depth deltas with the book's `seq`, tickers,
 * k-lines), the contract market's pushes (trades, mark price, tickers, and its depth deltas with their own sequence
 * where the service offers them) and the engine's events for the user streams. No second feed.
 *
 * Topics are streams by canonical name per namespace ("spot|btcusdt@depth@100ms"). An update is serialized once
 * per topic (and once more as the combined wrapper `{"stream","data"}` when a combined connection listens), the same
 * Buffer sent to every subscriber. Diff depth is batched per topic over its interval (spot 1000 / 100 ms, futures
 * 250 / 500 / 100 ms): one event whose U..u covers the contiguous book updates of the window, each changed level
 * with its last quantity, so a client syncing from GET /api/v3/depth (lastUpdateId = the same seq) follows Binance's
 * documented procedure. Partial books and mark prices are pushed on their interval when they changed; a new
 * subscriber of a partial book, book ticker or mark price gets the current state at once. The all-market ticker
 * arrays (`!ticker@arr`, `!miniTicker@arr`) collect the symbols whose ticker changed and push, each second, an array
 * of those symbols' per-symbol payloads; the futures `!bookTicker` pushes a symbol's bookTicker event whenever its
 * best levels moved (and every perpetual's current one to a new subscriber).
 *
 * Limits as Binance's: 5 incoming messages per second per connection (control messages and ping/pong frames; over
 * it the connection is closed, 1008), 1024 streams per spot connection and 200 per futures one; a ping frame every
 * 20 s and a close when no pong came back within a minute. A connection whose unsent data exceeds
 * MAX_BUFFERED_BYTES is closed (1013) rather than silently skipped, since a gap would break a client's book.
 *
 * This file is the wire format (stream names, payloads, control messages, listenKeys); the connections, topics, user
 * sinks, sends with backpressure, the message rate and the heartbeat are the platform's fan-out core
 * (platform/fanout/fanout.ts), with the limits above as its policy.
 */
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { KLINE_PERIOD_MS, type ContractDepth, type Kline, type KlinePeriod } from '@exchange/api';
import { formatDecimal, type Command, type EngineEvent } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { MarketDataService, MarketUpdate } from '../../domains/market-data/market-data.service';
import type { PerpMarketService, PerpMarketUpdate } from '../../domains/market-data/perp/perp-market.service';
import { CLOSE_POLICY_VIOLATION, createFanout, type FanoutConn, type FanoutSink, type FanoutTopic, type MessageHandlers } from '../../platform/fanout/fanout';
import { toBinanceSymbol } from './binance.symbols';
import {
  bookTickerJson,
  depthUpdateJson,
  futuresAggTradeJson,
  futuresFigures,
  futuresTradeJson,
  continuousKlineJson,
  klineJson,
  markPriceObject,
  storedBar,
  miniTickerJson,
  partialDepthJson,
  spotAggTradeJson,
  spotFigures,
  spotTradeJson,
  tickerJson,
  type MarkFigures,
  type Rows,
  type StreamBar,
  type TickerFigures,
} from './streams.market';
import { LiveAggregatedBar } from './streams.klines';
import { AGGREGATED_INTERVALS } from '../../domains/market-data/bar-aggregate';
import { INTERVAL_OF, parseStream, type StreamMarket, type StreamSpec } from './streams.names';
import type { ListenKeys } from './streams.listen-keys';
import { userEvents, type UserEventEngine } from './streams.user';

/** Incoming messages (and ping/pong frames) per second per connection (Binance: 5). */
export const MESSAGES_PER_SEC = 5;
/** Streams one connection may hold: spot 1024, futures 200 (Binance's limits). */
export const MAX_STREAMS: Record<StreamMarket, number> = { spot: 1024, futures: 200 };
/** A connection with more unsent bytes than this is closed (1013). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Server ping frame interval, and how long a connection may stay without a pong (Binance: 20 s, 1 minute). */
export const PING_EVERY_MS = 20_000;
export const PONG_TIMEOUT_MS = 60_000;
/** The timer of the batched streams (the shortest interval). */
const TICK_MS = 100;

/** A depth delta of one engine command, either namespace. */
interface DepthDelta {
  seq: number;
  prevSeq: number;
  bids: Rows;
  asks: Rows;
}

/**
 * The contract market's depth deltas (domains/market-data/perp): the book's sequence and one call per command that
 * changed it. Optional: without them the futures diff depth streams are refused and partial books and book tickers
 * follow the coalesced contractDepth push.
 */
export interface ContractDepthSource {
  depthSeq(symbol: string): number;
  onDepthDelta(listener: (d: DepthDelta & { symbol: string }) => void): () => void;
}

/**
 * A connection: the core's (its market streams as topics keyed `${market}|${name}`, its user streams as sinks: listenKey
 * streams and WebSocket API subscriptions) and its market and payload form.
 */
interface Conn extends FanoutConn<Topic, UserSink> {
  readonly market: StreamMarket;
  /** Combined payloads ({stream, data}): /stream connections, or SET_PROPERTY combined. */
  combined: boolean;
}

/** A user stream bound to a connection. */
export interface UserSink extends FanoutSink<Conn> {
  market: StreamMarket;
  /** The listenKey of a listenKey stream (its name in combined payloads). */
  listenKey?: string;
  /** The WebSocket API subscription id: events are sent as {subscriptionId, event}. */
  subscriptionId?: number;
}

/** A stream and its subscribers, with the state of its batching. */
interface Topic extends FanoutTopic<Conn> {
  spec: StreamSpec;
  /** Diff depth: the batch of the current window. */
  batch: { U: number; u: number; bids: Map<string, string>; asks: Map<string, string> } | null;
  /** Clock ms at which the batched topic is next flushed. */
  due: number;
  /** Partial book / book ticker: the seq (or a change counter) last pushed; futures partial: the u last pushed. */
  pushed: number;
  /** Partial book / mark price: changed since the last push. */
  dirty: boolean;
  /** Book ticker: the last best levels pushed, "bid|ask". */
  top: string;
  /** Kline of a stored period: the last bar pushed. */
  bar: Kline | null;
  /** Kline of an interval built from a finer period (3m 2h 4h 6h 8h 12h 3d 1M): its current bucket. */
  live: LiveAggregatedBar | null;
  /** All-market ticker arrays: the symbols (ours) whose ticker was updated since the last push. */
  changed: Set<string>;
  /**
   * All-market streams: the last state pushed per symbol (ours): the book ticker's best levels "bid|ask", or the
   * ticker's figures as JSON, so that a symbol whose ticker market data re-sent unchanged is left out.
   */
  tops: Map<string, string>;
}

/** Ports of the hub. */
export interface StreamHubDeps {
  host: EnginePort;
  marketData: Pick<MarketDataService, 'subscribe' | 'depth' | 'pair' | 'open24h' | 'klines'>;
  perpMarket?: Pick<PerpMarketService, 'subscribe' | 'depth' | 'market' | 'markTick' | 'figures'> & Partial<ContractDepthSource>;
  listenKeys: ListenKeys;
  log: FastifyBaseLogger;
  /** Clock (ms); Date.now by default. */
  now?: () => number;
}

/** Counts for tests and metrics. */
export interface StreamHubStats {
  connections: number;
  topics: number;
  userSinks: number;
}

/** The hub. */
export interface StreamHub {
  /**
   * Accepts a market/user stream connection of `market`: `streams` from the URL (raw /ws/<name>: one name, which may
   * also be a listenKey; combined: the list), `combined` for /stream connections. Unknown names in the URL are
   * ignored, as Binance does (CCXT dials /ws/<n> and subscribes afterwards).
   */
  connect(socket: WebSocket, market: StreamMarket, streams: string[], combined: boolean): void;
  /** Binds a user stream (a WebSocket API subscription) to the connection of `socket`; returns the sink. */
  bindUser(sink: Omit<UserSink, 'conn'>, socket: WebSocket): UserSink | undefined;
  /** Unbinds a user stream. */
  unbindUser(sink: UserSink): void;
  /** Registers a WebSocket API connection (its messages are handled by the caller); returns the send and close. */
  attachApi(socket: WebSocket, onText: (text: string) => void): void;
  stats(): StreamHubStats;
  close(): void;
}

/** The kinds pushed on the timer: batched diffs, partial books, mark prices and the all-market ticker arrays. */
const TIMED_KINDS: ReadonlySet<StreamSpec['kind']> = new Set(['depth', 'partial', 'markPrice', 'allMarkPrice', 'allTicker', 'allMiniTicker']);
/** The intervals built from each stored period (3m from 1m; 2h ... 12h from 1h; 3d and 1M from 1d). */
const AGGREGATED_BY_SOURCE: Readonly<Record<KlinePeriod, readonly string[]>> = (() => {
  const out: Record<KlinePeriod, string[]> = { '1min': [], '5min': [], '15min': [], '30min': [], '1hour': [], '1day': [], '1week': [] };
  for (const [interval, iv] of Object.entries(AGGREGATED_INTERVALS)) out[iv.source].push(interval);
  return out;
})();
/** The name of the futures all-market book ticker stream. */
const ALL_BOOK_TICKER = '!bookTicker';

/** Best bid and ask of `rows`, or undefined when a side is empty. */
function bestOf(bids: Rows, asks: Rows): { bid: [string, string]; ask: [string, string] } | undefined {
  const bid = bids[0];
  const ask = asks[0];
  return bid && ask ? { bid, ask } : undefined;
}

/** Creates the hub and attaches it to its sources. */
export function createStreamHub(deps: StreamHubDeps): StreamHub {
  const { host, marketData, perpMarket, listenKeys, log } = deps;
  const now = deps.now ?? (() => Date.now());
  const byWs = new WeakMap<WebSocket, Conn>();
  /** Depth-related topics (diff, partial, book ticker) per `${market}|${symbol}`. */
  const depthTopics = new Map<string, Set<Topic>>();
  /** Topics pushed on the timer (diff and partial depth, mark prices). */
  const timed = new Set<Topic>();
  const lower = new Map<string, string>();
  /** The latest mark figures per perpetual (for the mark price streams). */
  const marks = new Map<string, MarkFigures>();

  const lc = (symbol: string): string => {
    let s = lower.get(symbol);
    if (s === undefined) lower.set(symbol, (s = toBinanceSymbol(symbol).toLowerCase()));
    return s;
  };
  const keyOf = (market: StreamMarket, name: string) => `${market}|${name}`;

  const fanout = createFanout<Conn, Topic, UserSink>({
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    messagesPerSec: MESSAGES_PER_SEC,
    messageBurst: MESSAGES_PER_SEC,
    onOverRate: (c) => closeConn(c, CLOSE_POLICY_VIOLATION, 'too many messages'),
    heartbeat: { pingEveryMs: PING_EVERY_MS, pongTimeoutMs: PONG_TIMEOUT_MS },
    onTopicEmpty(t) {
      timed.delete(t);
      depthTopics.get(`${t.spec.market}|${t.spec.symbol}`)?.delete(t);
    },
    log,
    now,
  });

  const topicOf = (market: StreamMarket, name: string) => fanout.topic(keyOf(market, name));

  // ---------------------------------------------------------------- sending

  const closeConn = (c: Conn, code: number, reason: string) => fanout.closeConn(c, code, reason);
  const sendBuf = (c: Conn, buf: Buffer) => fanout.send(c, buf);
  const sendJson = (c: Conn, v: unknown) => sendBuf(c, Buffer.from(JSON.stringify(v)));

  /** Sends the payload text of `t` to each subscriber: one Buffer raw, one combined, built at most once. */
  function publish(t: Topic, payload: string): void {
    let raw: Buffer | undefined;
    let wrapped: Buffer | undefined;
    for (const c of t.subs.keys()) {
      if (c.combined) sendBuf(c, (wrapped ??= Buffer.from(`{"stream":${JSON.stringify(t.spec.name)},"data":${payload}}`)));
      else sendBuf(c, (raw ??= Buffer.from(payload)));
    }
  }
  /** Sends a payload of `t` to one connection (the first message after its subscription). */
  function publishTo(c: Conn, t: Topic, payload: string): void {
    sendBuf(c, Buffer.from(c.combined ? `{"stream":${JSON.stringify(t.spec.name)},"data":${payload}}` : payload));
  }

  // ---------------------------------------------------------------- topics

  /** A new topic of `spec`, filed with the depth-related topics of its book and the timed ones as its kind says. */
  function newTopic(key: string, spec: StreamSpec): Topic {
    const t: Topic = {
      key,
      spec,
      subs: new Map(),
      batch: null,
      due: now() + spec.intervalMs,
      pushed: -1,
      dirty: true,
      top: '',
      bar: null,
      live: null,
      changed: new Set(),
      tops: new Map(),
    };
    if (spec.kind === 'depth' || spec.kind === 'partial' || spec.kind === 'bookTicker') {
      const dk = `${spec.market}|${spec.symbol}`;
      let set = depthTopics.get(dk);
      if (!set) depthTopics.set(dk, (set = new Set()));
      set.add(t);
    }
    if (TIMED_KINDS.has(spec.kind)) timed.add(t);
    if ((spec.kind === 'kline' || spec.kind === 'continuousKline') && spec.period === undefined) t.live = liveBarOf(spec);
    // The ticker arrays start from the current tickers: a symbol goes out once its figures move from them.
    if (spec.kind === 'allTicker' || spec.kind === 'allMiniTicker') {
      const symbols = spec.market === 'spot' ? host.engine.markets() : host.engine.perpMarkets();
      for (const m of symbols) {
        const f = tickerFigures(spec.market, m.symbol);
        if (f) t.tops.set(m.symbol, tickerState(spec.kind, f));
      }
    }
    return t;
  }

  /** Subscribes `c` to `spec` (the callers keep within MAX_STREAMS); a new subscriber of a state gets it at once. */
  function subscribe(c: Conn, spec: StreamSpec): void {
    const key = keyOf(c.market, spec.name);
    const t = fanout.join(c, key, () => newTopic(key, spec));
    if (typeof t === 'string') return;
    // The current state first, for the streams that are a state (not a change).
    if (spec.kind === 'partial') {
      const p = partialOf(t);
      if (p) publishTo(c, t, p.json);
    } else if (spec.kind === 'bookTicker') {
      const b = bookTickerOf(t);
      if (b) publishTo(c, t, b.json);
    } else if (spec.kind === 'markPrice' || spec.kind === 'allMarkPrice') {
      const m = markJson(t);
      if (m) publishTo(c, t, m);
    } else if (spec.kind === 'allBookTicker') {
      // As the per-symbol book tickers: each perpetual's current best levels, one event each.
      for (const m of host.engine.perpMarkets()) {
        const b = bookTickerFor(spec.market, m.symbol, toBinanceSymbol(m.symbol));
        if (!b) continue;
        if (!t.tops.has(m.symbol)) t.tops.set(m.symbol, b.top);
        publishTo(c, t, b.json);
      }
    }
  }

  const unsubscribe = (c: Conn, name: string) => fanout.leave(c, keyOf(c.market, name));

  // ---------------------------------------------------------------- depth

  /** Top levels and update id of a book. */
  function bookOf(market: StreamMarket, symbol: string, levels: number): { seq: number; bids: Rows; asks: Rows } | undefined {
    if (market === 'spot') return marketData.depth(symbol, 'SPOT', levels);
    const d: ContractDepth | undefined = perpMarket?.depth(symbol, levels);
    if (!d) return undefined;
    return { seq: perpMarket?.depthSeq?.(symbol) ?? 0, bids: d.bids, asks: d.asks };
  }

  function partialOf(t: Topic): { seq: number; json: string } | undefined {
    const b = bookOf(t.spec.market, t.spec.symbol, t.spec.levels);
    if (!b) return undefined;
    const prevU = t.pushed < 0 ? b.seq : t.pushed;
    return { seq: b.seq, json: partialDepthJson(t.spec.market, t.spec.bsym, b.seq, prevU, b.bids, b.asks, now()) };
  }

  /** The book ticker of `symbol` (Binance symbol `bsym`): its best levels as "bid|ask" and the payload; undefined while a side is empty. */
  function bookTickerFor(market: StreamMarket, symbol: string, bsym: string): { top: string; json: string } | undefined {
    const b = bookOf(market, symbol, 1);
    const best = b && bestOf(b.bids, b.asks);
    if (!b || !best) return undefined;
    return { top: `${best.bid.join(',')}|${best.ask.join(',')}`, json: bookTickerJson(market, bsym, b.seq, best.bid, best.ask, now()) };
  }
  const bookTickerOf = (t: Topic) => bookTickerFor(t.spec.market, t.spec.symbol, t.spec.bsym);

  /** The futures all-market book ticker: `symbol`'s event when its best levels moved since the last one pushed. */
  function onAllBookTicker(symbol: string): void {
    const t = topicOf('futures', ALL_BOOK_TICKER);
    if (!t) return;
    const b = bookTickerFor('futures', symbol, toBinanceSymbol(symbol));
    if (!b || b.top === t.tops.get(symbol)) return;
    t.tops.set(symbol, b.top);
    publish(t, b.json);
  }

  /** A depth delta of one command: merged into the diff batches, partial books marked, book tickers pushed if the top moved. */
  function onDepth(market: StreamMarket, symbol: string, d: DepthDelta | null): void {
    if (market === 'futures') onAllBookTicker(symbol);
    const set = depthTopics.get(`${market}|${symbol}`);
    if (!set || set.size === 0) return;
    for (const t of set) {
      if (t.spec.kind === 'depth') {
        if (!d) continue;
        let b = t.batch;
        if (!b) t.batch = b = { U: d.prevSeq + 1, u: d.seq, bids: new Map(), asks: new Map() };
        b.u = d.seq;
        for (const [p, q] of d.bids) b.bids.set(p, q);
        for (const [p, q] of d.asks) b.asks.set(p, q);
      } else if (t.spec.kind === 'partial') {
        t.dirty = true;
      } else {
        const b = bookTickerOf(t);
        if (b && b.top !== t.top) {
          t.top = b.top;
          publish(t, b.json);
        }
      }
    }
  }

  // ---------------------------------------------------------------- mark price

  function markFiguresOf(symbol: string): MarkFigures | undefined {
    const st = host.engine.perpMarkState(symbol);
    const m = host.engine.perpMarket(symbol);
    if (!st || !m || st.markPrice === null) return undefined;
    return {
      bsym: toBinanceSymbol(symbol),
      mark: formatDecimal(st.markPrice, m.priceDecimals),
      index: st.indexPrice === null ? formatDecimal(st.markPrice, m.priceDecimals) : formatDecimal(st.indexPrice, m.priceDecimals),
      rate: formatDecimal(BigInt(st.predictedFundingRateE8), 8),
      nextFundingTime: st.nextFundingTs,
    };
  }

  function markJson(t: Topic): string | undefined {
    const at = now();
    if (t.spec.kind === 'allMarkPrice') {
      const all = host.engine.perpMarkets().flatMap((m) => {
        const f = marks.get(m.symbol) ?? markFiguresOf(m.symbol);
        return f ? [markPriceObject(f, at)] : [];
      });
      return all.length > 0 ? JSON.stringify(all) : undefined;
    }
    const f = marks.get(t.spec.symbol) ?? markFiguresOf(t.spec.symbol);
    return f ? JSON.stringify(markPriceObject(f, at)) : undefined;
  }

  // ---------------------------------------------------------------- the timer

  function tick(): void {
    const at = now();
    for (const t of timed) {
      if (at < t.due) continue;
      t.due = Math.max(t.due + t.spec.intervalMs, at);
      if (t.spec.kind === 'depth') {
        const b = t.batch;
        if (!b) continue;
        t.batch = null;
        publish(t, depthUpdateJson(t.spec.market, t.spec.bsym, b.U, b.u, [...b.bids], [...b.asks], at));
      } else if (t.spec.kind === 'partial') {
        if (!t.dirty) continue;
        t.dirty = false;
        const p = partialOf(t);
        if (!p || p.seq === t.pushed) continue;
        t.pushed = p.seq;
        publish(t, p.json);
      } else if (t.spec.kind === 'allTicker' || t.spec.kind === 'allMiniTicker') {
        if (t.changed.size === 0) continue;
        const symbols = [...t.changed];
        t.changed.clear();
        const arr = allTickersJson(t, t.spec.kind, symbols, at);
        if (arr) publish(t, arr);
      } else if (t.dirty) {
        t.dirty = false;
        const m = markJson(t);
        if (m) publish(t, m);
      }
    }
  }

  // ---------------------------------------------------------------- sources

  function tickerFigures(market: StreamMarket, symbol: string): TickerFigures | undefined {
    if (market === 'spot') {
      const p = marketData.pair(symbol, 'SPOT');
      if (!p) return undefined;
      const d = marketData.depth(symbol, 'SPOT', 1);
      return spotFigures(p, marketData.open24h(symbol, 'SPOT') ?? null, bestOf(d.bids, d.asks));
    }
    const m = perpMarket?.market(symbol);
    return m ? futuresFigures(m, perpMarket?.figures(symbol)?.open ?? null) : undefined;
  }

  /** What a symbol's entry in a ticker array shows, to tell a change (the mini ticker carries no best levels). */
  const tickerState = (kind: 'allTicker' | 'allMiniTicker', f: TickerFigures): string => JSON.stringify(kind === 'allTicker' ? f : { ...f, best: undefined });

  /**
   * The array payload of an all-market ticker topic `t` (`kind` allTicker or allMiniTicker) for the symbols updated
   * in its interval whose figures differ from the last pushed (market data re-sends every ticker periodically; Binance
   * sends only the tickers that changed), each element the per-symbol stream's payload; undefined when none changed.
   */
  function allTickersJson(t: Topic, kind: 'allTicker' | 'allMiniTicker', symbols: string[], at: number): string | undefined {
    const market = t.spec.market;
    const parts: string[] = [];
    for (const symbol of symbols) {
      const f = tickerFigures(market, symbol);
      if (!f) continue;
      const state = tickerState(kind, f);
      if (t.tops.get(symbol) === state) continue;
      t.tops.set(symbol, state);
      const bsym = toBinanceSymbol(symbol);
      parts.push(kind === 'allTicker' ? tickerJson(market, bsym, f, at) : miniTickerJson(bsym, f, at));
    }
    return parts.length > 0 ? `[${parts.join(',')}]` : undefined;
  }

  function onTicker(market: StreamMarket, symbol: string): void {
    for (const name of ['!ticker@arr', '!miniTicker@arr']) topicOf(market, name)?.changed.add(symbol);
    const s = lc(symbol);
    const full = topicOf(market, `${s}@ticker`);
    const mini = topicOf(market, `${s}@miniTicker`);
    if (!full && !mini) return;
    const f = tickerFigures(market, symbol);
    if (!f) return;
    const bsym = toBinanceSymbol(symbol);
    const at = now();
    if (full) publish(full, tickerJson(market, bsym, f, at));
    if (mini) publish(mini, miniTickerJson(bsym, f, at));
  }

  /**
   * The current bucket of an aggregated kline stream (`spec.interval` one of AGGREGATED_INTERVALS), seeded from the
   * k-line store with the bucket's earlier source bars (streams.klines.ts); null for an unknown market.
   */
  function liveBarOf(spec: StreamSpec): LiveAggregatedBar | null {
    const iv = AGGREGATED_INTERVALS[spec.interval ?? ''];
    const m = spec.market === 'spot' ? host.engine.markets().find((x) => x.symbol === spec.symbol) : host.engine.perpMarket(spec.symbol);
    if (!iv || !m) return null;
    const live = new LiveAggregatedBar(iv, m);
    const at = now();
    const count = Math.ceil((at - iv.open(at)) / KLINE_PERIOD_MS[iv.source]) + 1;
    marketData
      .klines(spec.symbol, spec.market === 'spot' ? 'SPOT' : 'CONTRACT', iv.source, count)
      .then((bars) => live.seed(bars, now()))
      .catch((err: unknown) => {
        log.error({ err }, 'kline stream seed failed');
        live.seed([], now());
      });
    return live;
  }

  /** The kline payload of topic `t` (a kline or continuous kline stream). */
  function klinePayload(t: Topic, bar: StreamBar, closed: boolean, at: number): string {
    const interval = t.spec.interval ?? '';
    return t.spec.kind === 'continuousKline' ? continuousKlineJson(t.spec.bsym, interval, bar, closed, at) : klineJson(t.spec.bsym, interval, bar, closed, at);
  }

  /**
   * A pushed state of the `period` bar of `symbol`: to the kline (and futures continuous kline) streams of that
   * period, and of each interval built from it. A bar is sent with x = false on every change and once more with
   * x = true when a newer bar opens (its last state).
   */
  function onKline(market: StreamMarket, symbol: string, period: KlinePeriod, bar: Kline): void {
    const s = lc(symbol);
    const at = now();
    const topics = (interval: string) => {
      const kl = topicOf(market, `${s}@kline_${interval}`);
      const ck = market === 'futures' ? topicOf(market, `${s}_perpetual@continuousKline_${interval}`) : undefined;
      return [kl, ck].filter((t): t is Topic => t !== undefined);
    };
    for (const t of topics(INTERVAL_OF[period])) {
      if (t.bar && t.bar.time < bar.time) publish(t, klinePayload(t, storedBar(period, t.bar), true, at));
      t.bar = bar;
      publish(t, klinePayload(t, storedBar(period, bar), false, at));
    }
    for (const interval of AGGREGATED_BY_SOURCE[period]) {
      for (const t of topics(interval)) {
        const out = t.live?.push(bar);
        if (out?.closed) publish(t, klinePayload(t, out.closed, true, at));
        if (out?.current) publish(t, klinePayload(t, out.current, false, at));
      }
    }
  }

  /** New trades (newest first) to the trade and aggTrade streams of `symbol`, oldest first. */
  function onTrades<T>(
    market: StreamMarket,
    symbol: string,
    list: readonly T[],
    trade: (bsym: string, t: T, now: number) => string,
    agg: (bsym: string, t: T, now: number) => string,
  ): void {
    const s = lc(symbol);
    const tt = topicOf(market, `${s}@trade`);
    const at = topicOf(market, `${s}@aggTrade`);
    if (!tt && !at) return;
    const bsym = toBinanceSymbol(symbol);
    const ts = now();
    for (let i = list.length - 1; i >= 0; i--) {
      const x = list[i] as T;
      if (tt) publish(tt, trade(bsym, x, ts));
      if (at) publish(at, agg(bsym, x, ts));
    }
  }

  const onMarket = (u: MarketUpdate) => {
    switch (u.kind) {
      case 'depth':
        onDepth('spot', u.symbol, u);
        break;
      case 'trades':
        onTrades('spot', u.symbol, u.trades, spotTradeJson, spotAggTradeJson);
        break;
      case 'ticker':
        if (u.type === 'SPOT') onTicker('spot', u.symbol);
        break;
      case 'kline':
        onKline(u.type === 'SPOT' ? 'spot' : 'futures', u.symbol, u.period, u.bar);
        break;
    }
  };

  const onContract = (u: PerpMarketUpdate) => {
    switch (u.kind) {
      case 'contractTrades':
        onTrades('futures', u.symbol, u.data, futuresTradeJson, futuresAggTradeJson);
        break;
      case 'contractMark': {
        const f = markFiguresOf(u.symbol);
        if (!f) break;
        marks.set(u.symbol, f);
        const t = topicOf('futures', `${lc(u.symbol)}@markPrice`);
        const t1 = topicOf('futures', `${lc(u.symbol)}@markPrice@1s`);
        if (t) t.dirty = true;
        if (t1) t1.dirty = true;
        for (const name of ['!markPrice@arr', '!markPrice@arr@1s']) {
          const all = topicOf('futures', name);
          if (all) all.dirty = true;
        }
        break;
      }
      case 'contractTicker':
        onTicker('futures', u.symbol);
        break;
      case 'contractDepth':
        // Without the depth deltas, the coalesced book push drives the partial books and book tickers.
        if (!perpMarket?.onDepthDelta) onDepth('futures', u.symbol, null);
        break;
    }
  };

  // ---------------------------------------------------------------- user streams

  const unbind = (s: UserSink) => fanout.unbind(s);
  const bind = (s: UserSink) => fanout.bind(s);
  const wanted = (userId: string, market: StreamMarket): boolean => {
    const set = fanout.sinksOf(userId);
    if (!set) return false;
    for (const s of set) if (s.market === market) return true;
    return false;
  };

  const onEngine = (events: EngineEvent[], cmd: Command) => {
    if (!fanout.anySink()) return;
    const out = userEvents(host.engine as UserEventEngine, events, wanted, now(), cmd);
    for (const ev of out) {
      for (const s of fanout.sinksOf(ev.userId) ?? []) {
        if (s.market !== ev.market) continue;
        if (s.subscriptionId !== undefined) sendBuf(s.conn, Buffer.from(`{"subscriptionId":${s.subscriptionId},"event":${ev.json}}`));
        else if (s.conn.combined && s.listenKey) sendBuf(s.conn, Buffer.from(`{"stream":${JSON.stringify(s.listenKey)},"data":${ev.json}}`));
        else sendBuf(s.conn, Buffer.from(ev.json));
      }
    }
  };

  /** A listenKey ended: its streams are told (expiry) and closed, as Binance does. */
  const offKeys = listenKeys.onEnd((k, reason) => {
    const set = fanout.sinksOf(k.userId);
    if (!set) return;
    for (const s of [...set]) {
      if (s.listenKey !== k.key) continue;
      if (reason === 'expired') {
        const ev = `{"e":"listenKeyExpired","E":${now()},"listenKey":${JSON.stringify(k.key)}}`;
        sendBuf(s.conn, Buffer.from(s.conn.combined ? `{"stream":${JSON.stringify(k.key)},"data":${ev}}` : ev));
      }
      unbind(s);
      if (s.conn.topics.size === 0 && s.conn.sinks.size === 0) closeConn(s.conn, 1000, 'listenKey ended');
    }
  });

  // ---------------------------------------------------------------- control messages

  type Id = number | string | null;
  const validId = (id: unknown): id is Id =>
    id === null || (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && /^[A-Za-z0-9-]{1,36}$/.test(id));
  const fail = (c: Conn, code: number, msg: string, id: Id) => sendJson(c, { error: { code, msg }, id });

  /** Names of a SUBSCRIBE / UNSUBSCRIBE: every param a string, else undefined. */
  const namesOf = (params: unknown): string[] | undefined =>
    Array.isArray(params) && params.length <= MAX_STREAMS.spot && params.every((p) => typeof p === 'string') ? (params as string[]) : undefined;

  function onControl(c: Conn, text: string): void {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      return fail(c, 3, 'Invalid JSON: expected value at line 1 column 1', null);
    }
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return fail(c, 3, 'Invalid JSON: expected an object', null);
    const req = m as { method?: unknown; params?: unknown; id?: unknown };
    const id = req.id === undefined ? null : req.id;
    if (!validId(id)) return fail(c, 2, 'Invalid request: request ID must be an unsigned integer', null);
    if (typeof req.method !== 'string') return fail(c, 2, 'Invalid request: missing field `method`', id);
    switch (req.method) {
      case 'SUBSCRIBE': {
        const names = namesOf(req.params);
        if (!names) return fail(c, 2, 'Invalid request: params must be a list of stream names', id);
        const specs: StreamSpec[] = [];
        for (const n of names) {
          const key = listenKeys.get(n, c.market);
          if (key) {
            if (![...c.sinks].some((s) => s.listenKey === key.key)) bind({ conn: c, userId: key.userId, market: c.market, listenKey: key.key });
            continue;
          }
          const spec = parseStream(n, c.market, host);
          if (!spec) return fail(c, 2, `Invalid request: invalid stream name '${n.slice(0, 80)}'`, id);
          if (spec.kind === 'depth' && c.market === 'futures' && !perpMarket?.onDepthDelta)
            return fail(c, 2, `Invalid request: stream '${spec.name}' is not available`, id);
          specs.push(spec);
        }
        const fresh = specs.filter((s) => !c.topics.has(keyOf(c.market, s.name)));
        if (c.topics.size + new Set(fresh.map((s) => s.name)).size > MAX_STREAMS[c.market])
          return fail(c, 2, `Invalid request: too many streams (at most ${MAX_STREAMS[c.market]})`, id);
        // The answer first, then the current state of the new streams (CCXT keys its snapshot fetch on the answer).
        sendJson(c, { result: null, id });
        for (const s of specs) subscribe(c, s);
        return;
      }
      case 'UNSUBSCRIBE': {
        const names = namesOf(req.params);
        if (!names) return fail(c, 2, 'Invalid request: params must be a list of stream names', id);
        for (const n of names) {
          const spec = parseStream(n, c.market, host);
          if (spec) unsubscribe(c, spec.name);
          for (const s of [...c.sinks]) if (s.listenKey === n) unbind(s);
        }
        return sendJson(c, { result: null, id });
      }
      case 'LIST_SUBSCRIPTIONS': {
        const names = [...c.topics.values()].map((t) => t.spec.name);
        for (const s of c.sinks) if (s.listenKey) names.push(s.listenKey);
        return sendJson(c, { result: names, id });
      }
      case 'SET_PROPERTY': {
        const p = req.params;
        if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string') return fail(c, 2, 'Invalid request: property name must be a string', id);
        if (p[0] !== 'combined') return fail(c, 0, 'Unknown property', id);
        if (typeof p[1] !== 'boolean') return fail(c, 1, 'Invalid value type: expected Boolean', id);
        c.combined = p[1];
        return sendJson(c, { result: null, id });
      }
      case 'GET_PROPERTY': {
        const p = req.params;
        if (!Array.isArray(p) || p.length !== 1 || typeof p[0] !== 'string') return fail(c, 2, 'Invalid request: property name must be a string', id);
        if (p[0] !== 'combined') return fail(c, 0, 'Unknown property', id);
        return sendJson(c, { result: c.combined, id });
      }
      default:
        return fail(
          c,
          2,
          `Invalid request: unknown variant ${req.method.slice(0, 40)}, expected one of \`SUBSCRIBE\`, \`UNSUBSCRIBE\`, \`LIST_SUBSCRIPTIONS\`, \`SET_PROPERTY\`, \`GET_PROPERTY\``,
          id,
        );
    }
  }

  // ---------------------------------------------------------------- connections

  /** Registers a connection of `market` with its message handlers. */
  function newConn(socket: WebSocket, market: StreamMarket, combined: boolean, handlers: MessageHandlers<Conn>): Conn {
    const c = fanout.open(socket, { market, combined }, MAX_STREAMS[market], handlers);
    byWs.set(socket, c);
    return c;
  }

  const offMarket = marketData.subscribe(onMarket);
  const offContract = perpMarket?.subscribe(onContract);
  const offDepth = perpMarket?.onDepthDelta?.((d) => onDepth('futures', d.symbol, d));
  const offEngine = host.onEvents(onEngine);
  const tickTimer = setInterval(tick, TICK_MS);
  tickTimer.unref();
  const sweepTimer = setInterval(() => listenKeys.sweep(), 10_000);
  sweepTimer.unref();

  return {
    connect(socket, market, streams, combined) {
      const c = newConn(socket, market, combined, {
        binary: (c) => fail(c, 3, 'Invalid JSON: binary frame', null),
        text(c, text) {
          try {
            onControl(c, text);
          } catch (err) {
            log.error({ err }, 'binance stream message failed');
            fail(c, -1000, 'An unknown error occurred while processing the request.', null);
          }
        },
      });
      let count = 0;
      for (const n of streams) {
        const key = listenKeys.get(n, market);
        if (key) {
          bind({ conn: c, userId: key.userId, market, listenKey: key.key });
          continue;
        }
        const spec = parseStream(n, market, host);
        if (!spec || (spec.kind === 'depth' && market === 'futures' && !perpMarket?.onDepthDelta)) continue;
        if (++count > MAX_STREAMS[market]) break;
        subscribe(c, spec);
      }
    },
    bindUser(sink, socket) {
      const c = byWs.get(socket);
      if (!c || c.closed) return undefined;
      const s: UserSink = { ...sink, conn: c };
      bind(s);
      return s;
    },
    unbindUser: unbind,
    attachApi(socket, onText) {
      // Its messages are the WebSocket API's requests, not counted here; its ping and pong frames are.
      newConn(socket, 'spot', false, {
        rated: false,
        binary: (c) => sendJson(c, { id: null, status: 400, error: { code: -1000, msg: 'Binary frames are not supported.' } }),
        text: (_c, text) => onText(text),
      });
    },
    stats() {
      const core = fanout.stats();
      return { connections: core.connections, topics: core.topics, userSinks: core.sinks };
    },
    close() {
      clearInterval(tickTimer);
      clearInterval(sweepTimer);
      offMarket();
      offContract?.();
      offDepth?.();
      offEngine();
      offKeys();
      fanout.close();
    },
  };
}
