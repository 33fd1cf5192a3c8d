/**
 * The components of a contract's index price (GET contract/market/getIndexComponents, Binance GET
 * /fapi/v1/constituents): each source of the last index tick with its price, its share of the weighted average and
 * what the rule did with it (spec section 9: "weighted average of top 10 exchanges, clamped to median +/-3%").
 *
 * The index job (market-jobs/index-price.job.ts) puts each tick's components on the board of the process that
 * computes the index; a process that does not (a scale-out gateway without the market jobs) answers a live index
 * from its last recorded tick (index_price_ticks), and the replay with no components. Weights are exact fractions
 * rounded down to 8 decimals; no floating point.
 */
import { formatDecimal, pow10, type IndexSource, type IndexSourceStatus } from '@exchange/core';
import type { IndexComponent, IndexComponents } from '@exchange/api';
import { toUnits } from '../../platform/shared/decimal';
import type { IndexInput, IndexResult } from './index-rule';
import type { LiveIndex, LiveIndexListing, LiveIndexTick } from './live-index';

/** Decimals of a component's weight (Binance's constituents give 8). */
export const WEIGHT_DECIMALS = 8;

/** The last index tick's components of every contract listing this process computes. */
export interface IndexComponentsBoard {
  set(snapshot: IndexComponents): void;
  /** The last snapshot of `symbol`, undefined before its first tick here. */
  get(symbol: string): IndexComponents | undefined;
}

/** An empty board. */
export function createIndexComponentsBoard(): IndexComponentsBoard {
  const last = new Map<string, IndexComponents>();
  return {
    set: (s) => void last.set(s.symbol, s),
    get: (symbol) => last.get(symbol),
  };
}

/** `part / whole` as a decimal fraction with WEIGHT_DECIMALS decimals, rounded down, trailing zeros trimmed; "0" when whole is 0. */
export function weightText(part: bigint, whole: bigint): string {
  if (whole <= 0n || part <= 0n) return '0';
  return trim(formatDecimal((part * pow10(WEIGHT_DECIMALS)) / whole, WEIGHT_DECIMALS));
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function volumeOf(i: IndexInput): bigint {
  try {
    return toUnits(i.volume24h, 18);
  } catch {
    return 0n;
  }
}

/**
 * The components of a live index tick (index-rule.ts IndexResult): every input, its weight its 24 h volume's share of
 * the used (and clamped) sources' volumes, 0 when dropped.
 */
export function liveComponents(symbol: string, ts: number, r: Pick<IndexResult, 'price' | 'stale' | 'reason' | 'inputs'>): IndexComponents {
  const entered = (i: IndexInput) => i.status === 'used' || i.status === 'clamped';
  const whole = r.inputs.reduce((sum, i) => (entered(i) ? sum + volumeOf(i) : sum), 0n);
  const components: IndexComponent[] = r.inputs.map((i) => ({
    source: i.source,
    price: i.price,
    weight: entered(i) ? weightText(volumeOf(i), whole) : '0',
    status: i.status,
  }));
  return { symbol, mode: 'live', time: ts, price: r.price ?? '', stale: r.stale, reason: r.reason, components };
}

/** One source of the replayed index (index-price.job.ts namedIndexSources). */
export interface NamedIndexSource {
  name: 'reference' | 'lastTrade' | 'mid';
  source: IndexSource;
}

/**
 * The components of a replayed index tick: the named sources with computeIndexPrice's verdicts (`statuses`, same
 * order), prices at `priceDecimals`; a dropped source is stale (the replay's sources are dropped only for age).
 * `index` the tick's index at `priceDecimals`, null when none.
 */
export function replayComponents(
  symbol: string,
  ts: number,
  named: readonly NamedIndexSource[],
  statuses: readonly IndexSourceStatus[],
  index: bigint | null,
  priceDecimals: number,
): IndexComponents {
  const whole = named.reduce((sum, n, k) => (statuses[k] === 'dropped' ? sum : sum + BigInt(n.source.weight)), 0n);
  const components: IndexComponent[] = named.map((n, k) => ({
    source: n.name,
    price: formatDecimal(n.source.price, priceDecimals),
    weight: statuses[k] === 'dropped' ? '0' : weightText(BigInt(n.source.weight), whole),
    status: statuses[k] === 'dropped' ? 'stale' : statuses[k] === 'clamped' ? 'clamped' : 'used',
  }));
  const price = index === null ? '' : formatDecimal(index, priceDecimals);
  // The replay never pauses a contract: without an index the tick publishes nothing and the mark holds.
  return { symbol, mode: 'replay', time: ts, price, stale: false, reason: null, components };
}

/** A pinned index (the test control demo/contract/setReferencePrice): one source, the whole weight. */
/**
 * A tick of the replayed index whose sources all stopped (the demo's silence control): the replay's sources listed
 * stale with no weight, no price, the index stale for want of sources.
 */
export function silencedComponents(symbol: string, ts: number, named: readonly NamedIndexSource[], priceDecimals: number): IndexComponents {
  const components: IndexComponent[] = named.map((n) => ({
    source: n.name,
    price: formatDecimal(n.source.price, priceDecimals),
    weight: '0',
    status: 'stale',
  }));
  return { symbol, mode: 'replay', time: ts, price: '', stale: true, reason: 'no_sources', components };
}

export function pinnedComponents(symbol: string, ts: number, price: string): IndexComponents {
  return { symbol, mode: 'replay', time: ts, price, stale: false, reason: null, components: [{ source: 'pinned', price, weight: '1', status: 'used' }] };
}

/** The live index's tick of `listing` (LiveIndex.tick), its components put on `board`. */
export function liveTickOnBoard(live: Pick<LiveIndex, 'tick'>, listing: LiveIndexListing, board: IndexComponentsBoard | undefined): LiveIndexTick | undefined {
  const t = live.tick(listing);
  if (t && board) board.set(liveComponents(listing.symbol, t.ts, t));
  return t;
}
