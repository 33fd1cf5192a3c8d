/**
 * Table of the perpetual contracts' public market data (domains/contract-market): the settled fundings of
 * each market (fundingSettled events), for getFundingHistory. Written by the contract market service as the events
 * arrive, once per market and funding time. Amounts are integers in engine units (`numeric(40,0)`): the mark price
 * in 10^-priceDecimals USDT, totals in the settle asset's smallest unit; the rate in 1e-8 (E8). Times Unix ms.
 */
import { bigint, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

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
