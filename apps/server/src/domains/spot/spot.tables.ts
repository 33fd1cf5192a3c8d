/**
 * Tables of the trading area, written by the engine host's projector (domains/entrust/entrust.projection.ts and domains/member/member.projection.ts through platform/engine-host/projector.ts) and read by
 * order history queries. The engine is the source of truth; these are projections, rebuilt idempotently by
 * replaying the journal (rows are upserted by their engine ids).
 *
 * Amounts are integers in the engine's units, stored as `numeric(40,0)` (exact, never float):
 * prices in 10^-priceDecimals of the quote asset, quantities in 10^-qtyDecimals of the base asset, quote
 * amounts and fees in the smallest unit of their asset (packages/core types.ts). Times are Unix ms.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** Spot orders of users (the liquidity bots' orders are not projected). One row per engine order id. */
export const spotOrders = pgTable(
  'spot_orders',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    clientOrderId: text('client_order_id'),
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    orderType: text('order_type').notNull(),
    timeInForce: text('time_in_force').notNull(),
    price: units('price'),
    quantity: units('quantity'),
    quoteAmount: units('quote_amount'),
    filledQty: units('filled_qty').notNull(),
    filledQuote: units('filled_quote').notNull(),
    fee: units('fee').notNull(),
    feeAsset: text('fee_asset').notNull(),
    status: text('status').notNull(),
    /** true once the order reached FILLED, CANCELED or EXPIRED (history). */
    closed: boolean('closed').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    /** Journal sequence number of the command that produced this state. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /**
     * A conditional order's trigger (docs/conditional-orders.md; all null on other orders): its kind (STOP_LOSS or
     * TAKE_PROFIT), stop price (price units) and/or trailing delta (basis points), the time it triggered (Unix ms,
     * null while pending) and why it expired at its trigger (an engine reject code, else null).
     */
    stopKind: text('stop_kind'),
    stopPrice: units('stop_price'),
    trailingDelta: integer('trailing_delta'),
    workingTs: bigint('working_ts', { mode: 'number' }),
    expireReason: text('expire_reason'),
    /** The OCO list of a leg (docs/conditional-orders.md, OCO order lists; Binance orderListId), null on other orders. */
    orderListId: bigint('order_list_id', { mode: 'bigint' }),
  },
  // The retention rule's delete finds the old rows through the index led by its time column.
  (t) => [index('spot_orders_user_closed_idx').on(t.userId, t.closed, t.updatedTs), index('spot_orders_closed_updated_idx').on(t.closed, t.updatedTs)],
);

/** Every spot trade (fill), with both sides' orders, users and fees. */
export const spotTrades = pgTable(
  'spot_trades',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    symbol: text('symbol').notNull(),
    price: units('price').notNull(),
    quantity: units('quantity').notNull(),
    quoteAmount: units('quote_amount').notNull(),
    takerSide: text('taker_side').notNull(),
    makerOrderId: bigint('maker_order_id', { mode: 'bigint' }).notNull(),
    takerOrderId: bigint('taker_order_id', { mode: 'bigint' }).notNull(),
    makerUserId: text('maker_user_id').notNull(),
    takerUserId: text('taker_user_id').notNull(),
    makerFee: units('maker_fee').notNull(),
    makerFeeAsset: text('maker_fee_asset').notNull(),
    takerFee: units('taker_fee').notNull(),
    takerFeeAsset: text('taker_fee_asset').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('spot_trades_maker_order_idx').on(t.makerOrderId),
    index('spot_trades_taker_order_idx').on(t.takerOrderId),
    index('spot_trades_symbol_ts_idx').on(t.symbol, t.ts),
    // The retention rule's delete finds the old rows through the index led by its time column.
    index('spot_trades_ts_idx').on(t.ts),
    // A user's own fills, newest first (entrust/entrust/getTradeList): one index per role.
    index('spot_trades_maker_user_idx').on(t.makerUserId, t.id),
    index('spot_trades_taker_user_idx').on(t.takerUserId, t.id),
  ],
);

/** A fill between two liquidity bots: neither side is a registered user (their ids are digits; platform/engine-host/projection.ts isProjectedUser). */
const betweenBots = (t: { makerUserId: typeof spotTrades.makerUserId; takerUserId: typeof spotTrades.takerUserId }) =>
  sql`${t.makerUserId} !~ '^[0-9]+$' and ${t.takerUserId} !~ '^[0-9]+$'`;

/**
 * What the retention job (platform/db/retention.ts) deletes of the spot tables: the bots' fills after
 * RETENTION_MARKET_TRADES_DAYS (the market's public trade list); a user's fills after RETENTION_USER_TRADES_DAYS (kept by
 * default, the user's trade history); closed orders without a fill after RETENTION_UNFILLED_ORDERS_DAYS (90 days, as
 * Binance archives canceled and expired orders that never filled), and with a fill after RETENTION_FILLED_ORDERS_DAYS
 * (kept by default). An open order is never deleted.
 */
export const spotRetention: readonly RetentionRule[] = [
  {
    name: 'spot_trades:market',
    table: spotTrades,
    horizonDays: (r) => r.marketTradesDays,
    expired: (cutoffMs) => sql`${spotTrades.ts} < ${cutoffMs} and ${betweenBots(spotTrades)}`,
  },
  {
    name: 'spot_trades:user',
    table: spotTrades,
    horizonDays: (r) => r.userTradesDays,
    expired: (cutoffMs) => sql`${spotTrades.ts} < ${cutoffMs} and not (${betweenBots(spotTrades)})`,
  },
  {
    name: 'spot_orders:unfilled',
    table: spotOrders,
    horizonDays: (r) => r.unfilledOrdersDays,
    expired: (cutoffMs) => and(eq(spotOrders.closed, true), eq(spotOrders.filledQty, '0'), lt(spotOrders.updatedTs, cutoffMs))!,
  },
  {
    name: 'spot_orders:filled',
    table: spotOrders,
    horizonDays: (r) => r.filledOrdersDays,
    expired: (cutoffMs) => and(eq(spotOrders.closed, true), sql`${spotOrders.filledQty} > 0`, lt(spotOrders.updatedTs, cutoffMs))!,
  },
];
