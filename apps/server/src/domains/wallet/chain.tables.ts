/**
 * Tables of the chain side of the wallet (domains/wallet chain-watcher.ts): the deposits the watcher saw on
 * chain, the recent blocks it followed (its cursor, for reorg detection) and operator alerts. Deposits are a record
 * of what the chain showed; the money moves only by the engine's creditDeposit command, whose depositCredited event
 * the projector writes here too (status CREDITED, journal position), so a lost database is rebuilt from the journal
 * and a rescan of the chain.
 */
import { bigint, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * A transfer to one of our deposit addresses. `amount` in engine units (scale 8, decimal string), `chainAmount` in
 * chain units (wei, or the token's units), both exact. `logIndex` is the ERC-20 Transfer log's index in its block,
 * -1 for a native transfer. Status: CONFIRMING (seen, waiting for confirmations), CREDITED (creditDeposit journaled
 * at `creditedSeq`), BELOW_MINIMUM (recorded, never credited), ORPHANED (its block was reorganised away).
 */
export const walletDeposits = pgTable(
  'wallet_deposits',
  {
    id: serial('id').primaryKey(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    coin: text('coin').notNull(),
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: text('amount').notNull(),
    chainAmount: text('chain_amount').notNull(),
    status: text('status').notNull(),
    /** Journal sequence number of the creditDeposit command (null until credited). */
    creditedSeq: bigint('credited_seq', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wallet_deposits_tx_uq').on(t.chain, t.txHash, t.logIndex),
    index('wallet_deposits_user_idx').on(t.userId, t.id),
    index('wallet_deposits_status_idx').on(t.status, t.id),
  ],
);

/**
 * The blocks the watcher followed, per chain: the newest is its cursor; the parent hashes find a reorg's common
 * ancestor. Only the recent ones are kept (a window well beyond the confirmations).
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    chain: text('chain').notNull(),
    number: bigint('number', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    parentHash: text('parent_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.number] })],
);

/** Something an operator must look at: a reorg deeper than the confirmations ('deep_reorg'), a failed broadcast ... */
export const chainAlerts = pgTable('chain_alerts', {
  id: serial('id').primaryKey(),
  chain: text('chain').notNull(),
  kind: text('kind').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
