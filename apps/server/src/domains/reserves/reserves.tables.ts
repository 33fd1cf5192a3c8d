/**
 * Tables of proof of reserves (domains/reserves): the published snapshots (root of the Merkle-sum tree of
 * user liabilities, per-asset totals and on-chain reserves at that time) and their leaves (each user's salt and
 * balances), from which the tree is rebuilt to answer a user's proof. Balances are integers in each asset's smallest
 * unit (engine units, scale per `scales`), kept as decimal strings in JSON arrays in the order of `assets`.
 */
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One snapshot: what GET asset/reserves/getRoot publishes. */
export const reservesSnapshots = pgTable(
  'reserves_snapshots',
  {
    id: serial('id').primaryKey(),
    /** hex sha256 of the tree's root node (packages/core reserves/merkle-sum.ts) */
    rootHash: text('root_hash').notNull(),
    leafCount: integer('leaf_count').notNull(),
    /** asset codes, in the order of every node's sums */
    assets: jsonb('assets').$type<string[]>().notNull(),
    /** asset scales, same order */
    scales: jsonb('scales').$type<number[]>().notNull(),
    /** the root's sums: user liabilities per asset (smallest units, decimal strings) */
    liabilities: jsonb('liabilities').$type<string[]>().notNull(),
    /** the exchange's on-chain balances per asset (smallest engine units), '' when the asset has no chain or none was read */
    reserves: jsonb('reserves').$type<string[]>().notNull(),
    /**
     * the same per network, in the networks' order (ETH, BSC, ARBITRUM, MATIC; `reserves` per asset, '' where the
     * network does not carry it); [] for a snapshot taken before networks were recorded
     */
    reservesByNetwork: jsonb('reserves_by_network').$type<Array<{ chain: string; reserves: string[] }>>().notNull().default([]),
    /** the engine's journal position the balances were read at (null when unknown) */
    engineSeq: bigint('engine_seq', { mode: 'number' }),
    /** the operator who asked for it (null: the schedule or the demo's first start) */
    operatorId: bigint('operator_id', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('reserves_snapshots_created_idx').on(t.createdAt)],
);

/** One user's leaf in a snapshot: position, salt (hex, 16 random bytes) and balances (decimal strings, per asset). */
export const reservesLeaves = pgTable(
  'reserves_leaves',
  {
    snapshotId: integer('snapshot_id').notNull(),
    leafIndex: integer('leaf_index').notNull(),
    userId: bigint('user_id', { mode: 'bigint' }).notNull(),
    salt: text('salt').notNull(),
    balances: jsonb('balances').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.leafIndex] }), uniqueIndex('reserves_leaves_user_uq').on(t.snapshotId, t.userId)],
);
