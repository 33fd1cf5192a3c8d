/**
 * Tables of the wallet, user side (domains/wallet): withdrawals and transfers are projections of the
 * engine's `withdrawalUpdated` and `transferred` events (domains/wallet/wallet.projection.ts; rebuilt idempotently by replaying
 * the journal), the address book is the user's own data (database only).
 *
 * Amounts are integers in engine units (scale 8 for every coin), `numeric(40,0)`, never float. Times are Unix ms.
 */
import { bigint, index, integer, jsonb, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** An exact integer amount in engine units. */
const units = (name: string) => numeric(name, { precision: 40, scale: 0 });

/**
 * Every withdrawal, one row per engine withdrawal id, its last state (WithdrawalView of packages/core): upserted by
 * id, never replaced by an older state (`seq`). `approvals` the approving operator ids in order (JSON array of
 * strings); `reasonZh`/`reasonEn` the operator's reject reason in both languages (from the reject command's audit
 * record), or the failure reason in both when no audit carried them.
 */
export const walletWithdrawals = pgTable(
  'wallet_withdrawals',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    clientId: text('client_id').notNull(),
    coin: text('coin').notNull(),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    /** debited from the user, fee included */
    amount: units('amount').notNull(),
    fee: units('fee').notNull(),
    status: text('status').notNull(),
    approvalsRequired: integer('approvals_required').notNull(),
    approvals: jsonb('approvals').$type<string[]>().notNull(),
    fromAddress: text('from_address'),
    nonce: integer('nonce'),
    txHash: text('tx_hash'),
    rawTx: text('raw_tx'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    /** the engine's reason (reject or failure), '' when none */
    reason: text('reason').notNull().default(''),
    reasonZh: text('reason_zh').notNull().default(''),
    reasonEn: text('reason_en').notNull().default(''),
    /** the rejecting operator's id, null when none (or the owner cancelled) */
    rejectedBy: text('rejected_by'),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
    updatedTs: bigint('updated_ts', { mode: 'number' }).notNull(),
    /** Journal sequence number of the command that produced this state. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('wallet_withdrawals_user_idx').on(t.userId, t.id),
    index('wallet_withdrawals_status_idx').on(t.status, t.id),
    // not unique: the engine's idempotency window ends, a later request may reuse a client id
    index('wallet_withdrawals_client_idx').on(t.userId, t.clientId),
  ],
);

/** Every transfer between two of a user's accounts (one `transferred` event per transfer command: unique `seq`). */
export const walletTransfers = pgTable(
  'wallet_transfers',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Journal sequence number of the transfer command (a replay writes it once). */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    coin: text('coin').notNull(),
    fromAccount: text('from_account').notNull(),
    toAccount: text('to_account').notNull(),
    amount: units('amount').notNull(),
    clientId: text('client_id'),
    ts: bigint('ts', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('wallet_transfers_seq_uq').on(t.seq), index('wallet_transfers_user_idx').on(t.userId, t.id)],
);

/** A user's saved withdrawal addresses (checked for the chain when saved; `address` EIP-55 for EVM chains). */
export const walletAddressBook = pgTable(
  'wallet_address_book',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    coin: text('coin').notNull(),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    label: text('label').notNull(),
    createdTs: bigint('created_ts', { mode: 'number' }).notNull(),
  },
  (t) => [index('wallet_address_book_user_idx').on(t.userId, t.id), uniqueIndex('wallet_address_book_uq').on(t.userId, t.coin, t.chain, t.address)],
);
