/**
 * The types of the projection (projection-store.ts): its rows, batches and sink. In a file of their own so that the
 * database worker's modules (worker-client.ts, db-worker-protocol.ts) use them without importing the store, which
 * imports them (no import circle). The engine host's projector (platform/engine-host/projector.ts) builds the batches.
 */
import type {
  auditLog,
  perpFundingPayments,
  perpFundingRates,
  otcAds,
  otcMerchants,
  otcOrders,
  perpLiquidations,
  perpOrders,
  perpPositionHistory,
  perpTrades,
  rebatePayouts,
  spotOrders,
  spotTrades,
  users,
  walletDeposits,
  walletTransfers,
  walletWithdrawals,
  earnLocks,
  inboxMessages,
} from './schema';

export type OrderRow = typeof spotOrders.$inferInsert;
export type TradeRow = typeof spotTrades.$inferInsert;
export type UserProjectionRow = typeof users.$inferInsert;
/** An audit row carried by an updateUser command (the operator console's), written with the change it records. */
export type AuditProjectionRow = typeof auditLog.$inferInsert;
/** A credited chain deposit (depositCredited event): upserted by (chain, txHash, logIndex) as CREDITED (domains/wallet). */
export type DepositProjectionRow = typeof walletDeposits.$inferInsert;
/** A withdrawal's state (withdrawalUpdated event): upserted by id, never replaced by an older state (domains/wallet). */
export type WithdrawalProjectionRow = typeof walletWithdrawals.$inferInsert;
/** A transfer between two of a user's accounts (transferred event): inserted once per journal position (domains/wallet). */
export type TransferProjectionRow = typeof walletTransfers.$inferInsert;

/** Perpetual contracts' rows (platform/engine-host/perp-projection.ts; tables of platform/db/schema/contract.ts). */
export type PerpOrderRow = typeof perpOrders.$inferInsert;
export type PerpTradeRow = typeof perpTrades.$inferInsert;
/** A closed position (positionChanged with size 0). */
export type PerpPositionRow = typeof perpPositionHistory.$inferInsert;
export type PerpFundingRow = typeof perpFundingPayments.$inferInsert;
export type PerpLiquidationRow = typeof perpLiquidations.$inferInsert;
/** A market's settled funding (fundingSettled event): inserted once by (symbol, fundingTs). */
export type PerpFundingRateRow = typeof perpFundingRates.$inferInsert;
/** The perp part of a batch: orders upserted by id (never older over newer), the rest inserted once by key. */
export interface PerpBatch {
  orders: PerpOrderRow[];
  trades: PerpTradeRow[];
  positions: PerpPositionRow[];
  funding: PerpFundingRow[];
  liquidations: PerpLiquidationRow[];
  /** markets' settled funding rates (absent = none) */
  rates?: PerpFundingRateRow[];
}

/** One invitee's settled rebate of one day (rebatePaid event): inserted once by (day, invitee) (domains/invite). */
export type RebatePayoutRow = typeof rebatePayouts.$inferInsert;

export type OtcMerchantRow = typeof otcMerchants.$inferInsert;
export type OtcAdRow = typeof otcAds.$inferInsert;
export type OtcOrderRow = typeof otcOrders.$inferInsert;
/** The OTC part of a batch (otc-projection.ts): merchants, ads and orders upserted by key, never older over newer. */
export interface OtcBatch {
  merchants: OtcMerchantRow[];
  ads: OtcAdRow[];
  orders: OtcOrderRow[];
}

/** A savings lock's last state (platform/engine-host/earn-projection.ts): upserted by id, never older over newer. */
export type EarnLockRow = typeof earnLocks.$inferInsert;

/** Which journal a store projects, and how far. `journalId` null = never written (an empty database). */
export interface ProjectionState {
  journalId: string | null;
  cursor: number;
}

/** One transaction of the projector: rows to upsert and the new cursor. */
export interface ProjectionBatch {
  journalId: string;
  /** Sequence number of the last command whose events are in this batch (and all before it). */
  seq: number;
  users: UserProjectionRow[];
  orders: OrderRow[];
  trades: TradeRow[];
  /** Audit rows of operator actions carried by the batch's commands (inserted once per engineSeq); absent = none. */
  audits?: AuditProjectionRow[];
  /** Chain deposits credited by the batch's commands (wallet_deposits rows set CREDITED); absent = none. */
  deposits?: DepositProjectionRow[];
  /** Withdrawals changed by the batch's commands, last state of each (wallet_withdrawals); absent = none. */
  withdrawals?: WithdrawalProjectionRow[];
  /** Transfers of the batch's commands (wallet_transfers); absent = none. */
  transfers?: TransferProjectionRow[];
  /** Perpetual contracts' orders, fills, closed positions, funding payments and liquidations; absent = none. */
  perp?: PerpBatch;
  /** Peer-to-peer fiat trading's merchants, ads and orders (last states); absent = none. */
  otc?: OtcBatch;
  /** Invitation rebates settled by the batch's commands (rebate_payouts); absent = none. */
  rebates?: RebatePayoutRow[];
  /** Savings locks (last states); absent = none. */
  earnLocks?: EarnLockRow[];
  /** In-app inbox messages of the batch's commands (inbox_messages, platform/engine-host/inbox-projection.ts); absent = none. */
  inbox?: InboxRow[];
}

/** The projector's sink. */
export interface ProjectionStore {
  /** The cursor row (journalId null and cursor 0 when there is none). */
  load(): Promise<ProjectionState>;
  /**
   * Writes a batch in one transaction: users and orders upserted by id (an order row never replaced by an older
   * state), trades inserted once, cursor set to max(cursor, seq) with the journal id. Throws when the database
   * fails (nothing of the batch is written then).
   */
  write(batch: ProjectionBatch): Promise<void>;
}

/** An inbox row as the projector writes it (id and read state are the database's; inbox-projection.ts makes them). */
export type InboxRow = Omit<typeof inboxMessages.$inferInsert, 'id' | 'readAt'>;
