/**
 * Index price of a contract (spec section 9; ARCHITECTURE.md section 9): the weighted average of the
 * external sources' prices, each first clamped to the sources' median +-3%, stale sources dropped.
 * Integer arithmetic only; prices are bigints in any one fixed price unit shared by all sources.
 */

/** One external price source. */
export interface IndexSource {
  /** Last price, price units (> 0n; other values are ignored). */
  price: bigint;
  /** Non-negative integer weight (e.g. the source's volume share); fractional or negative weights are ignored. */
  weight: number;
  /** Unix ms of the price. */
  ts: number;
}

/** Clamp band around the median: 3% = 300 basis points (spec section 9). */
export const INDEX_CLAMP_BPS = 300n;

/**
 * The index price in the sources' price units, or null when no usable source is left.
 * 1. Drop sources older than `maxAgeMs` (nowTs - ts > maxAgeMs), with a non-positive price or a
 *    weight that is not a non-negative integer.
 * 2. Median of the remaining prices (unweighted; even count: mean of the two middle ones, rounded half up).
 * 3. Clamp each price to [ceil(median * 0.97), floor(median * 1.03)].
 * 4. Weighted average sum(price * weight) / sum(weight), rounded half up; null when the weights sum to 0.
 */
export function computeIndexPrice(sources: readonly IndexSource[], nowTs: number, maxAgeMs: number): bigint | null {
  return indexPriceDetail(sources, nowTs, maxAgeMs).price;
}

/** What the rule of computeIndexPrice did with one source: used as is, used clamped to the band, or dropped. */
export type IndexSourceStatus = 'used' | 'clamped' | 'dropped';

/**
 * computeIndexPrice with each source's part, for showing an index's components: `price` is computeIndexPrice's
 * answer, `statuses[i]` what its rule did with `sources[i]` (dropped: too old, non-positive price or a weight that is
 * not a non-negative integer).
 */
export function indexPriceDetail(sources: readonly IndexSource[], nowTs: number, maxAgeMs: number): { price: bigint | null; statuses: IndexSourceStatus[] } {
  const usable = (s: IndexSource) => nowTs - s.ts <= maxAgeMs && s.price > 0n && s.weight >= 0 && Math.floor(s.weight) === s.weight && s.weight <= 2 ** 53;
  const live = sources.filter(usable);
  if (live.length === 0) return { price: null, statuses: sources.map(() => 'dropped') };
  const prices = live.map((s) => s.price).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = prices.length >> 1;
  const median = prices.length % 2 === 1 ? (prices[mid] as bigint) : ((prices[mid - 1] as bigint) + (prices[mid] as bigint) + 1n) / 2n;
  const low = (median * (10_000n - INDEX_CLAMP_BPS) + 9_999n) / 10_000n;
  const high = (median * (10_000n + INDEX_CLAMP_BPS)) / 10_000n;
  let num = 0n;
  let den = 0n;
  for (const s of live) {
    const w = BigInt(s.weight);
    const p = s.price < low ? low : s.price > high ? high : s.price;
    num += p * w;
    den += w;
  }
  const statuses = sources.map((s): IndexSourceStatus => (!usable(s) ? 'dropped' : s.price < low || s.price > high ? 'clamped' : 'used'));
  return { price: den === 0n ? null : (2n * num + den) / (2n * den), statuses };
}
