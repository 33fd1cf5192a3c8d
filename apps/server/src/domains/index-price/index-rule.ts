/**
 * The index price rule over live exchange quotes (spec section 9: "weighted average of top 10 exchanges, clamped to
 * median +/-3%"), with the protections Binance applies to its price index (Binance Futures "Price Index" FAQ: a
 * source whose price has not updated for a while, or that deviates abnormally from the others, gets weight zero; too
 * few sources left and the index is not trusted).
 *
 * Pure and exact: prices and volumes arrive as decimal strings (the exchanges' own), are read as bigint counts of
 * 10^-18 (WORK_DECIMALS) and never pass through a float. Every comparison and the clamp are done on integers scaled
 * by 2 * 10_000 (the median of an even count is a half-sum, the band is in basis points), so the result equals the
 * exact rational rule for prices of up to 16 decimals, rounded half up once at the end.
 */
import { formatDecimal, pow10 } from '@exchange/core';
import { toUnits } from '../../platform/shared/decimal';

/** The internal scale of prices and volumes: 10^-18. */
export const WORK_DECIMALS = 18;
/** The spec's clamp band: the median +/-3% = 300 basis points. */
export const INDEX_CLAMP_BPS = 300;

/** The last known quote of one source (one exchange's spot market of the coin). */
export interface SourceQuote {
  /** The source's name, e.g. "binance" (a CCXT exchange id). */
  source: string;
  /** Last trade (or last ticker) price, a decimal string in the quote coin per base coin ("61834.01"). */
  price: string;
  /** The source's 24 h volume in the quote coin, a decimal string: the source's weight. */
  volume24h: string;
  /** When the source's price was last seen (Unix ms; the exchange's timestamp, else the time it arrived). */
  ts: number;
}

/** The rule's parameters for one coin. */
export interface IndexRuleConfig {
  /** Decimals of the index price (the contract listing's priceDecimals, 0..18). */
  priceDecimals: number;
  /** A source older than this (now - ts > maxAgeMs), or this far in the future, is stale and dropped (ms). */
  maxAgeMs: number;
  /** A source further than this from the median (basis points, exclusive) has jumped and is dropped; within it, it is clamped. */
  jumpBps: number;
  /** The clamp band around the median (basis points); the spec's 3% unless a test says otherwise. */
  clampBps?: number;
  /** Fewer sources than this left after the filters and the index is stale (the mark price holds). */
  minSources: number;
}

/** What the rule did with one source: used as is, used clamped, or dropped for a reason. */
export type IndexInputStatus = 'used' | 'clamped' | 'stale' | 'jump' | 'invalid';

/** One source as the rule saw it: the audit record of an index tick keeps these. */
export interface IndexInput {
  source: string;
  /** The quote's price as received (decimal string). */
  price: string;
  /** The quote's 24 h quote volume as received (decimal string): its weight. */
  volume24h: string;
  /** The quote's time (Unix ms) and its age at the tick (ms). */
  ts: number;
  ageMs: number;
  status: IndexInputStatus;
  /** The price that entered the average (the clamped one when clamped; 18 decimals, trailing zeros trimmed), null when dropped. */
  usedPrice: string | null;
}

/** Why an index is stale: no source left at all, or fewer than the configured minimum. */
export type IndexStaleReason = 'no_sources' | 'too_few_sources';

/** The index of one tick: the price (null with no source left), whether it may be trusted, and every input. */
export interface IndexResult {
  /** The index price at `priceDecimals`, rounded half up; null when no source is left. */
  price: string | null;
  /** True when fewer than minSources sources were used: the price (if any) is informative only. */
  stale: boolean;
  reason: IndexStaleReason | null;
  /** The median of the fresh sources (18 decimals, trimmed), null with none. */
  median: string | null;
  /** How many sources entered the average. */
  used: number;
  inputs: IndexInput[];
}

const BPS = 10_000n;
/** Every price is compared and clamped multiplied by this: 2 (the half-sum median) x 10_000 (basis points). */
const SCALE_D = 2n * BPS;

function trim(units: bigint): string {
  const s = formatDecimal(units, WORK_DECIMALS);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function parsePositive(s: string): bigint | null {
  try {
    const v = toUnits(s, WORK_DECIMALS);
    return v > 0n ? v : null;
  } catch {
    return null;
  }
}

/**
 * Applies the rule at time `nowMs` (Unix ms) to the last quote of each source:
 * 1. a quote with a price or volume that is not a positive decimal is `invalid`; one older than maxAgeMs (or as far
 *    ahead) is `stale`;
 * 2. the median of the remaining prices (unweighted; an even count takes the mean of the two middle ones);
 * 3. a price further than jumpBps from the median has `jump`ed and is dropped;
 * 4. the others are clamped to [median x (1 - clampBps), median x (1 + clampBps)] (`clamped` when moved);
 * 5. the index is their average weighted by 24 h volume, rounded half up to priceDecimals;
 * 6. fewer than minSources used: stale 'too_few_sources' (none: price null, 'no_sources').
 * Throws RangeError on a bad config (negative bands, priceDecimals outside 0..18).
 */
export function applyIndexRule(quotes: readonly SourceQuote[], nowMs: number, config: IndexRuleConfig): IndexResult {
  const clampBps = BigInt(config.clampBps ?? INDEX_CLAMP_BPS);
  const jumpBps = BigInt(config.jumpBps);
  if (clampBps < 0n || clampBps >= BPS || jumpBps < 0n) throw new RangeError('index rule: bands must be 0 <= clampBps < 10000 and jumpBps >= 0');
  if (!Number.isInteger(config.priceDecimals) || config.priceDecimals < 0 || config.priceDecimals > WORK_DECIMALS) {
    throw new RangeError('index rule: priceDecimals must be an integer in 0..18');
  }
  const rows = quotes.map((q) => {
    const price = parsePositive(q.price);
    const weight = parsePositive(q.volume24h);
    const ageMs = nowMs - q.ts;
    const status: IndexInputStatus =
      price === null || weight === null || !Number.isFinite(q.ts) ? 'invalid' : Math.abs(ageMs) > config.maxAgeMs ? 'stale' : 'used';
    return { q, price: price ?? 0n, weight: weight ?? 0n, ageMs, status: status as IndexInputStatus, usedD: null as bigint | null };
  });
  const fresh = rows.filter((r) => r.status === 'used');
  const sorted = fresh.map((r) => r.price).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = sorted.length >> 1;
  // Twice the median, exact: the middle price doubled, or the sum of the two middle ones.
  const median2 = sorted.length === 0 ? null : sorted.length % 2 === 1 ? 2n * (sorted[mid] as bigint) : (sorted[mid - 1] as bigint) + (sorted[mid] as bigint);
  let num = 0n;
  let den = 0n;
  let used = 0;
  if (median2 !== null) {
    const centreD = median2 * BPS;
    const lowD = median2 * (BPS - clampBps);
    const highD = median2 * (BPS + clampBps);
    for (const r of fresh) {
      const pD = r.price * SCALE_D;
      const dev = pD > centreD ? pD - centreD : centreD - pD;
      if (dev > median2 * jumpBps) {
        r.status = 'jump';
        continue;
      }
      const clampedD = pD < lowD ? lowD : pD > highD ? highD : pD;
      if (clampedD !== pD) r.status = 'clamped';
      r.usedD = clampedD;
      num += clampedD * r.weight;
      den += r.weight;
      used += 1;
    }
  }
  const inputs: IndexInput[] = rows.map((r) => ({
    source: r.q.source,
    price: r.q.price,
    volume24h: r.q.volume24h,
    ts: r.q.ts,
    ageMs: r.ageMs,
    status: r.status,
    usedPrice: r.usedD === null ? null : trim((2n * r.usedD + SCALE_D) / (2n * SCALE_D)),
  }));
  const median = median2 === null ? null : trim((median2 + 1n) / 2n);
  if (used === 0) return { price: null, stale: true, reason: 'no_sources', median, used, inputs };
  // sum(clampedD * w) / (sum(w) * SCALE_D) is the average at 10^-18; one half-up division to priceDecimals.
  const div = den * SCALE_D * pow10(WORK_DECIMALS - config.priceDecimals);
  const price = formatDecimal((2n * num + div) / (2n * div), config.priceDecimals);
  const stale = used < config.minSources;
  return { price, stale, reason: stale ? 'too_few_sources' : null, median, used, inputs };
}
