/**
 * Open interest samples of the perpetual markets (Binance "Open Interest Statistics", GET
 * /futures/data/openInterestHist): the engine keeps only the current open interest (`openInterest(symbol)`), so the
 * open interest job (open-interest.job.ts) records it every 5 minutes. Not an engine projection: a sample is a reading
 * taken at its time, not rebuilt from the journal; before the first sample there is no history to answer.
 * Quantities and prices are integers in engine units, `numeric(40,0)`, never float; times are Unix ms.
 */
import { lt } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/** One sample of a market's open interest at a 5-minute boundary; one row per (symbol, ts), whoever samples first. */
export const perpOpenInterestSamples = pgTable(
  'perp_open_interest_samples',
  {
    /** The engine's perpetual symbol, "BTC/USDT". */
    symbol: text('symbol').notNull(),
    /** The 5-minute boundary the sample belongs to (Unix ms, a multiple of 300000); it was read within the next minute. */
    ts: bigint('ts', { mode: 'number' }).notNull(),
    /** The total size of the market's long positions (= its short ones), in 10^-qtyDecimals base units. */
    openInterest: numeric('open_interest', { precision: 40, scale: 0 }).notNull(),
    /** The market's mark price when sampled (10^-priceDecimals quote units; the index price before the first mark). */
    markPrice: numeric('mark_price', { precision: 40, scale: 0 }).notNull(),
    /** The market's decimals when sampled, so a later change of the config does not reinterpret old rows. */
    qtyDecimals: integer('qty_decimals').notNull(),
    priceDecimals: integer('price_decimals').notNull(),
  },
  // ts: the retention rule's delete finds the old samples through it.
  (t) => [primaryKey({ columns: [t.symbol, t.ts] }), index('perp_open_interest_samples_ts_idx').on(t.ts)],
);

/** Days of samples kept: Binance answers openInterestHist for the latest month only, and so does the route (30 days). */
export const OPEN_INTEREST_KEEP_DAYS = 30;

/** The samples older than the month the route answers go (platform/db/retention.ts); a fixed horizon, not configured. */
export const openInterestRetention: readonly RetentionRule[] = [
  {
    name: 'perp_open_interest_samples',
    table: perpOpenInterestSamples,
    horizonDays: () => OPEN_INTEREST_KEEP_DAYS,
    expired: (cutoffMs) => lt(perpOpenInterestSamples.ts, cutoffMs),
  },
];
