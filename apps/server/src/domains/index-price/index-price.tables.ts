/**
 * The audit record of the live index (INDEX_SOURCE=live): every tick of every coin's index with every input as the
 * rule saw it (index-rule.ts: each source's price, 24 h volume, age and what the rule did with it), so a liquidation
 * can be explained afterwards from the exact prices its mark price came from. Not an engine projection: a tick is
 * a reading of outside markets at its time and cannot be rebuilt from the journal. Prices are decimal strings, never
 * float; times are Unix ms.
 */
import { lt } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';
import type { IndexInput } from './index-rule';

/** One index tick of one contract listing; one row per (symbol, ts). */
export const indexPriceTicks = pgTable(
  'index_price_ticks',
  {
    /** The contract listing's symbol, "BTC/USDT". */
    symbol: text('symbol').notNull(),
    /** The tick's time on the process clock (Unix ms). */
    ts: bigint('ts', { mode: 'number' }).notNull(),
    /** The index price at the listing's decimals; null when no source was left. */
    price: numeric('price'),
    /** The sources' median (up to 18 decimals); null when no source was fresh. */
    median: numeric('median'),
    /** True when fewer than the configured minimum of sources were used (the mark price holds). */
    stale: boolean('stale').notNull(),
    /** Why stale: no_sources or too_few_sources; null when not stale. */
    reason: text('reason'),
    /** How many sources entered the average. */
    used: integer('used').notNull(),
    /** Every source's quote and the rule's verdict on it (IndexInput[]). */
    inputs: jsonb('inputs').$type<IndexInput[]>().notNull(),
  },
  // The retention's batches find old ticks by time alone: an index led by ts (the key is led by symbol).
  (t) => [primaryKey({ columns: [t.symbol, t.ts] }), index('index_price_ticks_ts_idx').on(t.ts)],
);

/** Days of index ticks kept: long enough to answer a dispute about a liquidation of the last month. */
export const INDEX_TICKS_KEEP_DAYS = 35;

/** Ticks older than INDEX_TICKS_KEEP_DAYS go (platform/db/retention.ts); a fixed horizon, not configured. */
export const indexTicksRetention: readonly RetentionRule[] = [
  {
    name: 'index_price_ticks',
    table: indexPriceTicks,
    horizonDays: () => INDEX_TICKS_KEEP_DAYS,
    expired: (cutoffMs) => lt(indexPriceTicks.ts, cutoffMs),
  },
];
