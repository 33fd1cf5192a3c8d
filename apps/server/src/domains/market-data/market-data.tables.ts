/**
 * Tables of the market area: coin introductions, market listings (spot and contract) and k-line bars. Prices and volumes are `numeric` (exact decimals, read back as strings), never floating point.
 * Times are Unix milliseconds in `bigint` columns (mode number: safe integers until the year 287396).
 */
import { and, eq, lt } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/** One coin and its introduction (spec section 1, quotes: coin introduction), texts in zh and en. */
export const coins = pgTable('coins', {
  code: text('code').primaryKey(), // "BTC"
  fullName: text('full_name').notNull(),
  /** Smallest unit: 10^-scale of one coin (engine asset scale). */
  scale: integer('scale').notNull(),
  issueTime: text('issue_time').notNull(), // "2009-01-03"
  totalSupply: text('total_supply').notNull(),
  circulatingSupply: text('circulating_supply').notNull(),
  crowdfundingPrice: text('crowdfunding_price').notNull(), // "--" when there was none
  whitePaper: text('white_paper').notNull(),
  website: text('website').notNull(),
  blockExplorer: text('block_explorer').notNull(),
  introZh: text('intro_zh').notNull(),
  introEn: text('intro_en').notNull(),
  sort: integer('sort').notNull().default(0),
});

/** A listing: a spot market (also configured in the engine) or a USDT perpetual contract listing. */
export const markets = pgTable(
  'markets',
  {
    id: serial('id').primaryKey(),
    symbol: text('symbol').notNull(), // "BTC/USDT"
    type: text('type').notNull(), // SPOT | CONTRACT
    base: text('base').notNull(),
    quote: text('quote').notNull(),
    priceDecimals: integer('price_decimals').notNull(),
    qtyDecimals: integer('qty_decimals').notNull(),
    tickSize: text('tick_size').notNull(), // decimal string, "0.01"
    stepSize: text('step_size').notNull(),
    minQty: text('min_qty').notNull(),
    minNotional: text('min_notional').notNull(), // in quote
    makerFeePpm: integer('maker_fee_ppm').notNull(),
    takerFeePpm: integer('taker_fee_ppm').notNull(),
    listedAt: bigint('listed_at', { mode: 'number' }).notNull(), // ms
    isNew: boolean('is_new').notNull().default(false),
    demoData: boolean('demo_data').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('markets_symbol_type_uq').on(t.symbol, t.type)],
);

/** One OHLCV bar. time = bar open (ms, aligned to the period; weeks to Monday 00:00 UTC). */
export const klines = pgTable(
  'klines',
  {
    symbol: text('symbol').notNull(),
    type: text('type').notNull(), // SPOT | CONTRACT
    period: text('period').notNull(), // 1min 5min 15min 30min 1hour 1day 1week
    time: bigint('time', { mode: 'number' }).notNull(),
    open: numeric('open').notNull(),
    high: numeric('high').notNull(),
    low: numeric('low').notNull(),
    close: numeric('close').notNull(),
    /** Base volume. */
    volume: numeric('volume').notNull(),
    /** Quote volume (for the rolling 24 h ticker). */
    quoteVolume: numeric('quote_volume').notNull(),
  },
  // (period, time): the retention rules' deletes (one per period) find the old bars through it.
  (t) => [primaryKey({ columns: [t.symbol, t.type, t.period, t.time] }), index('klines_period_time_idx').on(t.period, t.time)],
);

/**
 * What the retention job (platform/db/retention.ts) deletes of the k-lines: per period, the bars that opened more than
 * RETENTION_KLINES's days of that period ago (defaults: 1min 30 days, 5min 180, 15min and 30min 365, 1hour and longer
 * kept). The start's backfill (reference-history.ts) writes only the last 1500 bars of a period at most, within those
 * horizons, so it does not write back what retention deleted.
 */
export const marketDataRetention: readonly RetentionRule[] = ['1min', '5min', '15min', '30min', '1hour', '1day', '1week'].map((period) => ({
  name: `klines:${period}`,
  table: klines,
  horizonDays: (r) => r.klinesDays[period] ?? 0,
  expired: (cutoffMs) => and(eq(klines.period, period), lt(klines.time, cutoffMs))!,
}));

// Banners and notices moved to content_items (schema/content.ts): edited in the console, draft and published.
