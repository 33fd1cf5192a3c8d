/**
 * Convert quotes (domains/convert): not money, a quote the convert service gives (guaranteed amount, expiry), read
 * back when the user confirms it, written by the service only. The conversion itself is a journaled engine command (a
 * spot order). Amounts are integers in engine units, `numeric(40,0)`, never float. Times are Unix ms.
 */
import { bigint, index, numeric, pgTable, text } from 'drizzle-orm/pg-core';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/** Convert quotes: what was guaranteed to whom until when (domains/convert). */
export const convertQuotes = pgTable(
  'convert_quotes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    /** BUY (spend the quote coin) or SELL (sell the base coin) */
    side: text('side').notNull(),
    fromCoin: text('from_coin').notNull(),
    toCoin: text('to_coin').notNull(),
    /** what leaves the user, units of fromCoin */
    amount: units('amount').notNull(),
    /** the guaranteed amount received, units of toCoin, fee taken off */
    receive: units('receive').notNull(),
    fee: units('fee').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    expiresTs: bigint('expires_ts', { mode: 'number' }).notNull(),
  },
  (t) => [index('convert_quotes_expiry_idx').on(t.expiresTs)],
);
