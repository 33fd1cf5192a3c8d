/**
 * The index price job (spec section 9: weighted average of the sources, each clamped to their median +-3%, stale
 * sources dropped; ARCHITECTURE.md section 9). Every second, for each contract listing, the sources are: the reference
 * path (the simulated outside market, weight 2), our own spot market's last trade (weight 1, dropped when older
 * than maxAgeMs) and our own spot mid price (weight 1, only with both sides quoted). The index goes to market
 * data (setIndexPrice), which publishes it with the contract's ticker and bars.
 */
import type { FastifyBaseLogger } from 'fastify';
import { computeIndexPrice, formatDecimal, indexPriceDetail, pow10, type IndexSource } from '@exchange/core';
import { pinnedComponents, replayComponents, silencedComponents, type IndexComponentsBoard, type NamedIndexSource } from '../index-price/index-components';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ReferencePaths } from '../market-data/price-source';
import { referenceToTicks } from './ladder';

/** Weights of the sources (integers, as computeIndexPrice requires). */
export const INDEX_WEIGHTS = { reference: 2, lastTrade: 1, mid: 1 } as const;
/** A source older than this is dropped (ms). */
export const INDEX_MAX_AGE_MS = 30_000;

/** What the index of one listing is computed from; prices in the listing's price units. */
export interface IndexInputs {
  now: number;
  reference: bigint | null;
  lastTrade: { price: bigint; ts: number } | null;
  bestBid: bigint | null;
  bestAsk: bigint | null;
  maxAgeMs?: number;
}

/** The sources of one listing's index (reference, last trade, mid), each with its name, as computeIndexPrice takes them. */
export function namedIndexSources(i: IndexInputs): NamedIndexSource[] {
  const out: NamedIndexSource[] = [];
  if (i.reference !== null) out.push({ name: 'reference', source: { price: i.reference, weight: INDEX_WEIGHTS.reference, ts: i.now } });
  if (i.lastTrade !== null) out.push({ name: 'lastTrade', source: { price: i.lastTrade.price, weight: INDEX_WEIGHTS.lastTrade, ts: i.lastTrade.ts } });
  if (i.bestBid !== null && i.bestAsk !== null && i.bestBid > 0n && i.bestAsk > i.bestBid) {
    out.push({ name: 'mid', source: { price: (i.bestBid + i.bestAsk + 1n) / 2n, weight: INDEX_WEIGHTS.mid, ts: i.now } });
  }
  return out;
}

/** The sources of one listing's index as computeIndexPrice takes them. */
export function indexSources(i: IndexInputs): IndexSource[] {
  return namedIndexSources(i).map((n) => n.source);
}

/** The index price (price units) of one listing, or null when no source is usable. */
export function indexPriceOf(i: IndexInputs): bigint | null {
  return computeIndexPrice(indexSources(i), i.now, i.maxAgeMs ?? INDEX_MAX_AGE_MS);
}

/** A contract listing as the job needs it (a subset of market data's Listing). */
export interface IndexListing {
  symbol: string;
  base: string;
  quote: string;
  priceDecimals: number;
}

/** The parts of market data the job uses. */
export interface IndexSink {
  listings(type?: 'SPOT' | 'CONTRACT'): IndexListing[];
  setIndexPrice(symbol: string, price: string, ts?: number): void;
}

/** Converts a price between decimal precisions (rounding half up when narrowing). */
function rescale(v: bigint, from: number, to: number): bigint {
  if (to >= from) return v * pow10(to - from);
  const d = pow10(from - to);
  return (2n * v + d) / (2n * d);
}

/**
 * Starts the job: computes every contract listing's index every `intervalMs` (default 1000) and hands it to
 * `sink.setIndexPrice`. Listens to trade events for the last-trade source. `now` (Unix ms) is the time of each tick:
 * the server passes its process clock (ctx.clock.now, the clock of the engine's `ts` and so of the trades' times the
 * last-trade source is aged against); the wall clock only when not given (tests). Returns stop().
 */
export function startIndexJob(deps: {
  host: EnginePort;
  sink: IndexSink;
  paths: ReferencePaths;
  log: FastifyBaseLogger;
  now?: () => number;
  intervalMs?: number;
  /** A pinned reference (test-only control, reference-override.ts): when it answers, it is the index exactly. */
  pinned?: (base: string, quote: string) => string | undefined;
  /**
   * Called with each listing's index (price units at the listing's priceDecimals): the mark price job. `stale` is true
   * for a stale live index (its price, informative, or 0n when it has none): the engine then holds the mark and pauses
   * the contract (perpMarkPrice indexStale).
   */
  onIndex?: (listing: IndexListing, index: bigint, ts: number, stale?: boolean) => void;
  /**
   * True while a contract's index sources are silenced (the demo's test-only control, reference-override.ts): its index
   * is then stale with no sources, as when every source stops: the mark holds and the contract pauses.
   */
  silenced?: (base: string, quote: string) => boolean;
  /**
   * The live index (INDEX_SOURCE=live, domains/index-price/live-index.ts): when it answers for a listing, its price is
   * the index; a stale answer publishes no index to market data and goes to `onIndex` as stale, so the mark holds and
   * the contract pauses until a fresh answer.
   */
  live?: (listing: IndexListing) => { price: string | null; stale: boolean } | undefined;
  /** Where each replayed or pinned tick's components go (a live tick's are put there by the live index's caller). */
  board?: IndexComponentsBoard;
}): { stop(): void; tick(): void } {
  const now = deps.now ?? Date.now;
  const lastTrades = new Map<string, { price: bigint; ts: number }>();
  const unsubscribe = deps.host.onEvents((events) => {
    for (const e of events) if (e.type === 'trade') lastTrades.set(e.symbol, { price: e.price, ts: e.ts });
  });
  let warned = false;
  const tick = () => {
    const ts = now();
    for (const l of deps.sink.listings('CONTRACT')) {
      try {
        const spot = deps.host.engine.market(l.symbol);
        const pd = spot?.priceDecimals ?? l.priceDecimals;
        const path = deps.paths.pair?.(l.base, l.quote) ?? (l.quote === 'USDT' ? deps.paths.get(l.base) : undefined);
        const refStr = path?.priceAt(ts);
        const reference = refStr ? referenceToTicks(refStr, pd, 1n) : null;
        const depth = spot ? deps.host.engine.depth(l.symbol, 1) : { bids: [], asks: [] };
        /** The replay's sources at this tick (the reference, the spot market's last trade and mid). */
        const replaySources = () =>
          namedIndexSources({
            now: ts,
            reference,
            lastTrade: spot ? (lastTrades.get(l.symbol) ?? null) : null,
            bestBid: depth.bids[0]?.price ?? null,
            bestAsk: depth.asks[0]?.price ?? null,
          });
        if (deps.silenced?.(l.base, l.quote)) {
          deps.board?.set(silencedComponents(l.symbol, ts, replaySources(), pd));
          deps.onIndex?.(l, 0n, ts, true);
          continue;
        }
        const pin = deps.pinned?.(l.base, l.quote);
        const live = pin === undefined ? deps.live?.(l) : undefined;
        if (live !== undefined && (live.stale || live.price === null)) {
          const informative = live.price === null ? 0n : referenceToTicks(live.price, pd, 1n);
          deps.onIndex?.(l, informative > 0n ? rescale(informative, pd, l.priceDecimals) : 0n, ts, true);
          continue;
        }
        let index: bigint | null;
        if (pin !== undefined) {
          index = referenceToTicks(pin, pd, 1n);
          deps.board?.set(pinnedComponents(l.symbol, ts, formatDecimal(index, pd)));
        } else if (live !== undefined) {
          index = referenceToTicks(live.price as string, pd, 1n);
        } else {
          const named = replaySources();
          const detail = indexPriceDetail(
            named.map((n) => n.source),
            ts,
            INDEX_MAX_AGE_MS,
          );
          index = detail.price;
          deps.board?.set(replayComponents(l.symbol, ts, named, detail.statuses, index, pd));
        }
        if (index !== null && index > 0n) {
          const units = rescale(index, pd, l.priceDecimals);
          deps.sink.setIndexPrice(l.symbol, formatDecimal(units, l.priceDecimals), ts);
          deps.onIndex?.(l, units, ts);
        }
      } catch (err) {
        if (!warned) deps.log.warn({ err, symbol: l.symbol }, 'index price failed');
        warned = true;
      }
    }
  };
  const timer = setInterval(tick, deps.intervalMs ?? 1000);
  timer.unref();
  tick();
  return {
    tick,
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}
