/**
 * Tables of peer-to-peer fiat trading (domains/otc). Merchants, ads and orders are projections of the
 * engine's OTC events (domains/otc/otc.projection.ts, written by the projector in its batches), rebuilt by replaying
 * the journal: each row is the record's last state (`seq`: the journal position of the command that produced it; an
 * older state never replaces a newer one). The server's own fields of an ad or order (payment method ids, remarks,
 * proof and evidence images, the appeal's text) travel in the engine's `meta` and land in the `meta` column.
 *
 * The chat is not money and not journaled: otc_messages and otc_chat_reads are written by the OTC service only.
 *
 * Amounts are integers in engine units, `numeric(40,0)`, never float: coin quantities in the asset's smallest unit
 * (USDT: 10^-8), fiat amounts and prices in fiat cents (packages/core otc/types.ts). Times are Unix ms.
 */
import { bigint, bigserial, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** Merchant records (OtcMerchantView): every user who ever applied, by user id. */
export const otcMerchants = pgTable(
  'otc_merchants',
  {
    userId: text('user_id').primaryKey(),
    /** PENDING, ACTIVE, SUSPENDED, REJECTED, LEFT */
    state: text('state').notNull(),
    /** the security deposit held now, asset units */
    deposit: units('deposit').notNull(),
    operatorId: text('operator_id'),
    reason: text('reason'),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('otc_merchants_state_idx').on(t.state, t.updatedTs)],
);

/** Advertisements (OtcAdView), by ad id, every status (CLOSED ones stay: orders refer to them). */
export const otcAds = pgTable(
  'otc_ads',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    userId: text('user_id').notNull(),
    /** the merchant's side: SELL = the merchant sells coins */
    side: text('side').notNull(),
    asset: text('asset').notNull(),
    fiat: text('fiat').notNull(),
    priceType: text('price_type').notNull(),
    /** FIXED: fiat cents per coin */
    price: units('price'),
    /** FLOAT: ppm of the index */
    floatPpm: integer('float_ppm'),
    minFiat: units('min_fiat').notNull(),
    maxFiat: units('max_fiat').notNull(),
    paymentWindowMs: integer('payment_window_ms').notNull(),
    totalQty: units('total_qty').notNull(),
    remainingQty: units('remaining_qty').notNull(),
    /** ONLINE, PAUSED, CLOSED */
    status: text('status').notNull(),
    /** the server's fields (JSON object of strings): paymentMethodIds, payTypes, remarks, clientId */
    meta: text('meta').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('otc_ads_status_side_idx').on(t.status, t.side), index('otc_ads_user_idx').on(t.userId, t.updatedTs)],
);

/** Orders (OtcOrderView), by order id, their last state (open and final). */
export const otcOrders = pgTable(
  'otc_orders',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    clientId: text('client_id').notNull(),
    adId: bigint('ad_id', { mode: 'bigint' }).notNull(),
    makerId: text('maker_id').notNull(),
    takerId: text('taker_id').notNull(),
    buyerId: text('buyer_id').notNull(),
    sellerId: text('seller_id').notNull(),
    asset: text('asset').notNull(),
    fiat: text('fiat').notNull(),
    /** fiat cents per coin */
    price: units('price').notNull(),
    /** asset units */
    quantity: units('quantity').notNull(),
    /** fiat cents */
    fiatAmount: units('fiat_amount').notNull(),
    /** PENDING_PAYMENT, PAID, APPEAL, COMPLETED, CANCELLED */
    state: text('state').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    deadlineTs: bigint('deadline_ts', { mode: 'number' }).notNull(),
    paidTs: bigint('paid_ts', { mode: 'number' }),
    appealBy: text('appeal_by'),
    appealTs: bigint('appeal_ts', { mode: 'number' }),
    /** RELEASED, BUYER_CANCELLED, TIMEOUT, APPEAL_RELEASED, APPEAL_RETURNED or null while open */
    endReason: text('end_reason'),
    resolvedBy: text('resolved_by'),
    reason: text('reason'),
    /** the server's fields (JSON object of strings): taker's method, paidWith, proof, appeal text and evidence */
    meta: text('meta').notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('otc_orders_buyer_idx').on(t.buyerId, t.createdTs),
    index('otc_orders_seller_idx').on(t.sellerId, t.createdTs),
    index('otc_orders_maker_idx').on(t.makerId, t.updatedTs),
    index('otc_orders_state_idx').on(t.state, t.createdTs),
  ],
);

/** Chat messages of an order (not journaled): the two sides, operators and SYSTEM notes of state changes. */
export const otcMessages = pgTable(
  'otc_messages',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'bigint' }).notNull(),
    /** BUYER, SELLER, OPERATOR, SYSTEM */
    sender: text('sender').notNull(),
    /** the author's user or operator id ('' for SYSTEM) */
    authorId: text('author_id').notNull(),
    text: text('text').notNull(),
    /** an upload id ('' for text) */
    imageId: text('image_id').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
  },
  (t) => [index('otc_messages_order_idx').on(t.orderId, t.id)],
);

/** The last message id a side has read in an order (the unread count of the order lists). */
export const otcChatReads = pgTable(
  'otc_chat_reads',
  {
    orderId: bigint('order_id', { mode: 'bigint' }).notNull(),
    userId: text('user_id').notNull(),
    lastId: bigint('last_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.userId] })],
);
