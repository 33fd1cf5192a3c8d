/**
 * Tables of the USDT perpetual contracts (domains/contract): projections of the engine's perp events
 * (domains/contract/contract.projection.ts through platform/engine-host/projector.ts), rebuilt idempotently by replaying the journal. Open positions,
 * settings and open orders are read from the engine; these tables keep the history: orders (one row per engine order
 * id, its last state), fills, closed positions, funding payments and liquidations, and each market's settled fundings
 * (fundingSettled events, read by domains/contract-market for getFundingHistory: the mark price in 10^-priceDecimals
 * USDT, the rate in 1e-8, E8).
 *
 * Amounts are integers in engine units, `numeric(40,0)`, never float: prices in 10^-priceDecimals USDT, quantities in
 * 10^-qtyDecimals of the base coin, amounts in the settle asset's smallest unit (packages/core perp/types.ts).
 * Times are Unix ms; `seq` is the journal position of the command that produced the row (or its state).
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RetentionRule } from '../../platform/db/retention';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** Perpetual orders of users (PerpOrderView), upserted by id, never replaced by an older state (`seq`). */
export const perpOrders = pgTable(
  'perp_orders',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    clientOrderId: text('client_order_id'),
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    orderType: text('order_type').notNull(),
    timeInForce: text('time_in_force').notNull(),
    price: units('price'),
    quantity: units('quantity').notNull(),
    lots: integer('lots').notNull(),
    reduceOnly: boolean('reduce_only').notNull(),
    tradeType: text('trade_type').notNull(),
    /** TAKE_PROFIT, STOP_LOSS, LIQUIDATION, ADL or null (the user's own order) */
    trigger: text('trigger'),
    leverage: integer('leverage').notNull(),
    marginMode: text('margin_mode').notNull(),
    filledQty: units('filled_qty').notNull(),
    filledQuote: units('filled_quote').notNull(),
    fee: units('fee').notNull(),
    realizedPnl: units('realized_pnl').notNull(),
    hold: units('hold').notNull(),
    takeProfit: units('take_profit'),
    stopLoss: units('stop_loss'),
    status: text('status').notNull(),
    /** true once FILLED, CANCELED or EXPIRED */
    closed: boolean('closed').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /**
     * A conditional order's condition (docs/perp-conditional-orders.md; all null on other orders): its Binance type
     * (STOP, TAKE_PROFIT, STOP_MARKET, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET), stop price, working type
     * (MARK_PRICE or CONTRACT_PRICE), priceProtect, closePosition, callback rate (basis points), activation price and
     * trailing reference (prices in price units), the time it triggered (Unix ms, null while pending) and why it expired
     * at its trigger (an engine reject code, else null).
     */
    condType: text('cond_type'),
    condStopPrice: units('cond_stop_price'),
    condWorkingType: text('cond_working_type'),
    condPriceProtect: boolean('cond_price_protect'),
    condClosePosition: boolean('cond_close_position'),
    condCallbackRateBps: integer('cond_callback_rate_bps'),
    condActivationPrice: units('cond_activation_price'),
    condTrailingRef: units('cond_trailing_ref'),
    condWorkingTs: bigint('cond_working_ts', { mode: 'number' }),
    condExpireReason: text('cond_expire_reason'),
  },
  // The retention rule's delete finds the old rows through the index led by its time column.
  (t) => [index('perp_orders_user_closed_idx').on(t.userId, t.closed, t.updatedTs), index('perp_orders_closed_updated_idx').on(t.closed, t.updatedTs)],
);

/** Every perpetual fill (perpTrade): BOOK, TAKEOVER or ADL, with both sides' orders (null: none), fees and PnL. */
export const perpTrades = pgTable(
  'perp_trades',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    symbol: text('symbol').notNull(),
    kind: text('kind').notNull(),
    price: units('price').notNull(),
    quantity: units('quantity').notNull(),
    quoteAmount: units('quote_amount').notNull(),
    takerSide: text('taker_side').notNull(),
    makerOrderId: bigint('maker_order_id', { mode: 'bigint' }),
    takerOrderId: bigint('taker_order_id', { mode: 'bigint' }),
    makerUserId: text('maker_user_id').notNull(),
    takerUserId: text('taker_user_id').notNull(),
    makerFee: units('maker_fee').notNull(),
    takerFee: units('taker_fee').notNull(),
    makerRealizedPnl: units('maker_realized_pnl').notNull(),
    takerRealizedPnl: units('taker_realized_pnl').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('perp_trades_maker_order_idx').on(t.makerOrderId),
    index('perp_trades_taker_order_idx').on(t.takerOrderId),
    index('perp_trades_symbol_ts_idx').on(t.symbol, t.ts),
    // The retention rule's delete finds the old rows through the index led by its time column.
    index('perp_trades_ts_idx').on(t.ts),
  ],
);

/** Closed positions (positionChanged with size 0): the position's life totals, once per journal position. */
export const perpPositionHistory = pgTable(
  'perp_position_history',
  {
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    marginMode: text('margin_mode').notNull(),
    leverage: integer('leverage').notNull(),
    entryPrice: units('entry_price').notNull(),
    realizedPnl: units('realized_pnl').notNull(),
    funding: units('funding').notNull(),
    fees: units('fees').notNull(),
    openTs: bigint('open_ts', { mode: 'number' }).notNull(),
    closeTs: bigint('close_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('perp_position_history_key').on(t.seq, t.userId, t.symbol), index('perp_position_history_user_idx').on(t.userId, t.closeTs)],
);

/** One position's funding (fundingPayment): amount signed (negative paid), once per user, market and funding time. */
export const perpFundingPayments = pgTable(
  'perp_funding_payments',
  {
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    fundingTs: bigint('funding_ts', { mode: 'number' }).notNull(),
    rateE8: integer('rate_e8').notNull(),
    amount: units('amount').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('perp_funding_payments_key').on(t.userId, t.symbol, t.fundingTs), index('perp_funding_payments_user_idx').on(t.userId, t.ts)],
);

/** A liquidation of a user's scope in a market (liquidated), once per journal position, user and market. */
export const perpLiquidations = pgTable(
  'perp_liquidations',
  {
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    marginMode: text('margin_mode').notNull(),
    side: text('side').notNull(),
    size: units('size').notNull(),
    markPrice: units('mark_price').notNull(),
    equity: units('equity').notNull(),
    insuranceDelta: units('insurance_delta').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('perp_liquidations_key').on(t.seq, t.userId, t.symbol), index('perp_liquidations_user_idx').on(t.userId, t.ts)],
);

/** One funding settlement of a perpetual market. */
export const perpFundingRates = pgTable(
  'perp_funding_rates',
  {
    symbol: text('symbol').notNull(),
    fundingTs: bigint('funding_ts', { mode: 'number' }).notNull(),
    rateE8: integer('rate_e8').notNull(),
    markPrice: numeric('mark_price', { precision: 40, scale: 0 }).notNull(),
    paid: numeric('paid', { precision: 40, scale: 0 }).notNull(),
    received: numeric('received', { precision: 40, scale: 0 }).notNull(),
    positions: integer('positions').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.fundingTs] })],
);

/** A fill between two liquidity bots: neither side is a registered user (their ids are digits; platform/engine-host/projection.ts isProjectedUser). */
const perpBetweenBots = sql`${perpTrades.makerUserId} !~ '^[0-9]+$' and ${perpTrades.takerUserId} !~ '^[0-9]+$'`;

/**
 * What the retention job (platform/db/retention.ts) deletes of the perpetuals' tables, by the spot rules
 * (domains/entrust/entrust.tables.ts entrustRetention): the bots' fills after RETENTION_MARKET_TRADES_DAYS, a user's
 * after RETENTION_USER_TRADES_DAYS (kept by default), closed orders without a fill after RETENTION_UNFILLED_ORDERS_DAYS
 * and with one after RETENTION_FILLED_ORDERS_DAYS (kept by default). Closed positions, funding payments, liquidations
 * and the markets' funding rates are the users' and the markets' history: kept.
 */
export const perpRetention: readonly RetentionRule[] = [
  {
    name: 'perp_trades:market',
    table: perpTrades,
    horizonDays: (r) => r.marketTradesDays,
    expired: (cutoffMs) => sql`${perpTrades.ts} < ${cutoffMs} and ${perpBetweenBots}`,
  },
  {
    name: 'perp_trades:user',
    table: perpTrades,
    horizonDays: (r) => r.userTradesDays,
    expired: (cutoffMs) => sql`${perpTrades.ts} < ${cutoffMs} and not (${perpBetweenBots})`,
  },
  {
    name: 'perp_orders:unfilled',
    table: perpOrders,
    horizonDays: (r) => r.unfilledOrdersDays,
    expired: (cutoffMs) => and(eq(perpOrders.closed, true), eq(perpOrders.filledQty, '0'), lt(perpOrders.updatedTs, cutoffMs))!,
  },
  {
    name: 'perp_orders:filled',
    table: perpOrders,
    horizonDays: (r) => r.filledOrdersDays,
    expired: (cutoffMs) => and(eq(perpOrders.closed, true), sql`${perpOrders.filledQty} > 0`, lt(perpOrders.updatedTs, cutoffMs))!,
  },
];
