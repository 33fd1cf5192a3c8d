/**
 * Where the projector writes (ARCHITECTURE.md section 3, step 5): the database tables of users, spot orders and spot
 * trades, and the cursor row that says which journal they project and up to which sequence number. Every write
 * is one transaction that also moves the cursor, so the tables always equal the journal's effect up to the cursor.
 *
 * `drizzleProjectionStore` is the real one (PGlite or PostgreSQL, written in the database worker thread when the
 * database was opened over one); `MemoryProjectionStore` keeps the same rows in
 * maps, for the fault simulator, which can lose it or roll it back to an earlier copy.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import {
  auditLog,
  otcAds,
  earnLocks,
  otcMerchants,
  otcOrders,
  rebatePayouts,
  inboxMessages,
  perpFundingPayments,
  perpFundingRates,
  perpLiquidations,
  perpOrders,
  perpPositionHistory,
  perpTrades,
  projectionCursor,
  spotOrders,
  spotTrades,
  users,
  walletDeposits,
  walletTransfers,
  walletWithdrawals,
} from './schema';
import { workerProjectionStore } from './worker-client';
import type {
  AuditProjectionRow,
  DepositProjectionRow,
  OrderRow,
  OtcAdRow,
  EarnLockRow,
  OtcMerchantRow,
  OtcOrderRow,
  RebatePayoutRow,
  PerpFundingRow,
  PerpFundingRateRow,
  PerpLiquidationRow,
  PerpOrderRow,
  PerpPositionRow,
  PerpTradeRow,
  ProjectionBatch,
  ProjectionState,
  ProjectionStore,
  InboxRow,
  TradeRow,
  TransferProjectionRow,
  UserProjectionRow,
  WithdrawalProjectionRow,
} from './projection-types';

/** Name of the cursor row of the engine projection. */
export const SPOT_CURSOR = 'spot';
/** Rows per INSERT statement (keeps statements well under PostgreSQL's parameter limit). */
const CHUNK = 500;

export type {
  AuditProjectionRow,
  DepositProjectionRow,
  OrderRow,
  PerpBatch,
  PerpFundingRow,
  PerpLiquidationRow,
  PerpOrderRow,
  PerpPositionRow,
  PerpTradeRow,
  ProjectionBatch,
  ProjectionState,
  ProjectionStore,
  TradeRow,
  TransferProjectionRow,
  UserProjectionRow,
  WithdrawalProjectionRow,
} from './projection-types';

/**
 * The projection in the database over Drizzle. A database opened over a worker thread (platform/db/client.ts) has its
 * projection written there (platform/db/worker-client.ts): the batches' SQL is built and run off the main thread.
 */
export function drizzleProjectionStore(db: Db): ProjectionStore {
  return workerProjectionStore(db) ?? localProjectionStore(db);
}

/** The projection in the database over Drizzle, written from this thread (the database worker's own store). */
export function localProjectionStore(db: Db): ProjectionStore {
  return {
    async load() {
      const rows = await db.select().from(projectionCursor).where(eq(projectionCursor.name, SPOT_CURSOR));
      return { journalId: rows[0]?.journalId ?? null, cursor: rows[0]?.seq ?? 0 };
    },
    async write(b) {
      await db.transaction(async (tx) => {
        for (let i = 0; i < b.users.length; i += CHUNK) {
          await tx
            .insert(users)
            .values(b.users.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: users.id,
              set: {
                uuid: sql`excluded.uuid`,
                mail: sql`excluded.mail`,
                phone: sql`excluded.phone`,
                areaCode: sql`excluded.area_code`,
                passwordHash: sql`excluded.password_hash`,
                nickName: sql`excluded.nick_name`,
                welCode: sql`excluded.wel_code`,
                invitedBy: sql`excluded.invited_by`,
                cardNo: sql`excluded.card_no`,
                cardState: sql`excluded.card_state`,
              },
            });
        }
        for (let i = 0; i < b.trades.length; i += CHUNK) {
          await tx
            .insert(spotTrades)
            .values(b.trades.slice(i, i + CHUNK))
            .onConflictDoNothing({ target: spotTrades.id });
        }
        for (let i = 0; i < b.orders.length; i += CHUNK) {
          await tx
            .insert(spotOrders)
            .values(b.orders.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: spotOrders.id,
              set: {
                filledQty: sql`excluded.filled_qty`,
                filledQuote: sql`excluded.filled_quote`,
                fee: sql`excluded.fee`,
                status: sql`excluded.status`,
                closed: sql`excluded.closed`,
                updatedTs: sql`excluded.updated_ts`,
                seq: sql`excluded.seq`,
              },
              // Never let an older state overwrite a newer one (a replay after a newer projection).
              setWhere: sql`${spotOrders.seq} <= excluded.seq`,
            });
        }
        // Operator actions carried by engine commands (the console's audit records): once per journal position.
        const audits = b.audits ?? [];
        for (let i = 0; i < audits.length; i += CHUNK) {
          await tx
            .insert(auditLog)
            .values(audits.slice(i, i + CHUNK))
            .onConflictDoNothing({ target: auditLog.engineSeq });
        }
        // Chain deposits credited (depositCredited): the watcher's row becomes CREDITED with its journal position; a
        // database rebuilt from the journal gets the row from the event alone (no block hash or sender).
        for (const d of b.deposits ?? []) {
          await tx
            .insert(walletDeposits)
            .values(d)
            .onConflictDoUpdate({
              target: [walletDeposits.chain, walletDeposits.txHash, walletDeposits.logIndex],
              set: {
                status: 'CREDITED',
                creditedSeq: sql`excluded.credited_seq`,
                creditedAt: sql`coalesce(${walletDeposits.creditedAt}, excluded.credited_at)`,
                updatedAt: sql`excluded.updated_at`,
              },
            });
        }
        // Withdrawals (withdrawalUpdated): upserted by id, an older state never over a newer one (domains/wallet).
        const withdrawals = b.withdrawals ?? [];
        for (let i = 0; i < withdrawals.length; i += CHUNK) {
          await tx
            .insert(walletWithdrawals)
            .values(withdrawals.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: walletWithdrawals.id,
              set: {
                status: sql`excluded.status`,
                approvals: sql`excluded.approvals`,
                fromAddress: sql`excluded.from_address`,
                nonce: sql`excluded.nonce`,
                txHash: sql`excluded.tx_hash`,
                rawTx: sql`excluded.raw_tx`,
                blockNumber: sql`excluded.block_number`,
                reason: sql`excluded.reason`,
                reasonZh: sql`excluded.reason_zh`,
                reasonEn: sql`excluded.reason_en`,
                rejectedBy: sql`excluded.rejected_by`,
                updatedTs: sql`excluded.updated_ts`,
                seq: sql`excluded.seq`,
              },
              setWhere: sql`${walletWithdrawals.seq} <= excluded.seq`,
            });
        }
        // Transfers (transferred): once per journal position.
        const transfers = b.transfers ?? [];
        for (let i = 0; i < transfers.length; i += CHUNK) {
          await tx
            .insert(walletTransfers)
            .values(transfers.slice(i, i + CHUNK))
            .onConflictDoNothing({ target: walletTransfers.seq });
        }
        if (b.perp) await writePerp(tx as unknown as Db, b.perp);
        if (b.otc) await writeOtc(tx as unknown as Db, b.otc);
        // Invitation rebates (rebatePaid): once per (day, invitee) (domains/invite).
        const rebates = b.rebates ?? [];
        for (let i = 0; i < rebates.length; i += CHUNK) {
          await tx
            .insert(rebatePayouts)
            .values(rebates.slice(i, i + CHUNK))
            .onConflictDoNothing({ target: [rebatePayouts.day, rebatePayouts.inviteeId] });
        }
        if (b.earnLocks) await writeEarnLocks(tx as unknown as Db, b.earnLocks);
        // In-app inbox messages: upserted by (user, key); a row changes (and becomes unread again) only when its
        // parameters did, never to an older state, so a replay leaves the inbox and its read marks as they were.
        const inbox = b.inbox ?? [];
        for (let i = 0; i < inbox.length; i += CHUNK) {
          await tx
            .insert(inboxMessages)
            .values(inbox.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: [inboxMessages.userId, inboxMessages.key],
              set: { params: sql`excluded.params`, ts: sql`excluded.ts`, seq: sql`excluded.seq`, readAt: sql`null` },
              setWhere: sql`${inboxMessages.seq} < excluded.seq and ${inboxMessages.params} <> excluded.params`,
            });
        }
        await tx
          .insert(projectionCursor)
          .values({ name: SPOT_CURSOR, seq: b.seq, journalId: b.journalId })
          .onConflictDoUpdate({
            target: projectionCursor.name,
            set: { seq: sql`greatest(${projectionCursor.seq}, excluded.seq)`, journalId: sql`excluded.journal_id` },
          });
      });
    },
  };
}

/** Writes the savings locks of a batch (earn-projection.ts): last states upserted by id, never older over newer. */
async function writeEarnLocks(tx: Db, rows: EarnLockRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insert(earnLocks)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: earnLocks.id,
        set: {
          daysPaid: sql`excluded.days_paid`,
          interestPaid: sql`excluded.interest_paid`,
          status: sql`excluded.status`,
          redeemKind: sql`excluded.redeem_kind`,
          redeemedTs: sql`excluded.redeemed_ts`,
          returned: sql`excluded.returned`,
          forfeited: sql`excluded.forfeited`,
          updatedTs: sql`excluded.updated_ts`,
          seq: sql`excluded.seq`,
        },
        setWhere: sql`${earnLocks.seq} <= excluded.seq`,
      });
  }
}

/** Writes the OTC part of a batch (otc-projection.ts): last states upserted by key, never older over newer. */
async function writeOtc(tx: Db, o: NonNullable<ProjectionBatch['otc']>): Promise<void> {
  for (let i = 0; i < o.merchants.length; i += CHUNK) {
    await tx
      .insert(otcMerchants)
      .values(o.merchants.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: otcMerchants.userId,
        set: {
          state: sql`excluded.state`,
          deposit: sql`excluded.deposit`,
          operatorId: sql`excluded.operator_id`,
          reason: sql`excluded.reason`,
          createdTs: sql`excluded.created_ts`,
          updatedTs: sql`excluded.updated_ts`,
          seq: sql`excluded.seq`,
        },
        setWhere: sql`${otcMerchants.seq} <= excluded.seq`,
      });
  }
  for (let i = 0; i < o.ads.length; i += CHUNK) {
    await tx
      .insert(otcAds)
      .values(o.ads.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: otcAds.id,
        set: {
          priceType: sql`excluded.price_type`,
          price: sql`excluded.price`,
          floatPpm: sql`excluded.float_ppm`,
          minFiat: sql`excluded.min_fiat`,
          maxFiat: sql`excluded.max_fiat`,
          paymentWindowMs: sql`excluded.payment_window_ms`,
          totalQty: sql`excluded.total_qty`,
          remainingQty: sql`excluded.remaining_qty`,
          status: sql`excluded.status`,
          meta: sql`excluded.meta`,
          updatedTs: sql`excluded.updated_ts`,
          seq: sql`excluded.seq`,
        },
        setWhere: sql`${otcAds.seq} <= excluded.seq`,
      });
  }
  for (let i = 0; i < o.orders.length; i += CHUNK) {
    await tx
      .insert(otcOrders)
      .values(o.orders.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: otcOrders.id,
        set: {
          state: sql`excluded.state`,
          paidTs: sql`excluded.paid_ts`,
          appealBy: sql`excluded.appeal_by`,
          appealTs: sql`excluded.appeal_ts`,
          endReason: sql`excluded.end_reason`,
          resolvedBy: sql`excluded.resolved_by`,
          reason: sql`excluded.reason`,
          meta: sql`excluded.meta`,
          updatedTs: sql`excluded.updated_ts`,
          seq: sql`excluded.seq`,
        },
        setWhere: sql`${otcOrders.seq} <= excluded.seq`,
      });
  }
}

/** Writes the perpetual contracts' part of a batch (same rules as the spot rows; perp-projection.ts). */
async function writePerp(tx: Db, p: NonNullable<ProjectionBatch['perp']>): Promise<void> {
  for (let i = 0; i < p.trades.length; i += CHUNK) {
    await tx
      .insert(perpTrades)
      .values(p.trades.slice(i, i + CHUNK))
      .onConflictDoNothing({ target: perpTrades.id });
  }
  for (let i = 0; i < p.orders.length; i += CHUNK) {
    await tx
      .insert(perpOrders)
      .values(p.orders.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: perpOrders.id,
        set: {
          filledQty: sql`excluded.filled_qty`,
          filledQuote: sql`excluded.filled_quote`,
          fee: sql`excluded.fee`,
          realizedPnl: sql`excluded.realized_pnl`,
          hold: sql`excluded.hold`,
          status: sql`excluded.status`,
          closed: sql`excluded.closed`,
          updatedTs: sql`excluded.updated_ts`,
          seq: sql`excluded.seq`,
        },
        setWhere: sql`${perpOrders.seq} <= excluded.seq`,
      });
  }
  for (let i = 0; i < p.positions.length; i += CHUNK) {
    await tx
      .insert(perpPositionHistory)
      .values(p.positions.slice(i, i + CHUNK))
      .onConflictDoNothing();
  }
  for (let i = 0; i < p.funding.length; i += CHUNK) {
    await tx
      .insert(perpFundingPayments)
      .values(p.funding.slice(i, i + CHUNK))
      .onConflictDoNothing();
  }
  const rates = p.rates ?? [];
  for (let i = 0; i < rates.length; i += CHUNK) {
    await tx
      .insert(perpFundingRates)
      .values(rates.slice(i, i + CHUNK))
      .onConflictDoNothing();
  }
  for (let i = 0; i < p.liquidations.length; i += CHUNK) {
    await tx
      .insert(perpLiquidations)
      .values(p.liquidations.slice(i, i + CHUNK))
      .onConflictDoNothing();
  }
}

/**
 * The projection in memory (fault simulator): the same upsert rules as the database. `failWrites` makes every
 * write throw (a database that is down); `clone()` copies it (to roll back to later).
 */
export class MemoryProjectionStore implements ProjectionStore {
  journalId: string | null = null;
  cursor = 0;
  readonly users = new Map<string, UserProjectionRow>();
  readonly orders = new Map<string, OrderRow>();
  readonly trades = new Map<string, TradeRow>();
  /** Audit rows by engineSeq. */
  readonly audits = new Map<number, AuditProjectionRow>();
  /** Credited chain deposits by chain:txHash:logIndex. */
  readonly deposits = new Map<string, DepositProjectionRow>();
  /** Withdrawals by id (last state). */
  readonly withdrawals = new Map<string, WithdrawalProjectionRow>();
  /** Transfers by journal position. */
  readonly transfers = new Map<number, TransferProjectionRow>();
  /** Perpetual orders by id (last state), fills by id; closed positions, funding and liquidations by their keys. */
  readonly perpOrders = new Map<string, PerpOrderRow>();
  readonly perpTrades = new Map<string, PerpTradeRow>();
  readonly perpPositions = new Map<string, PerpPositionRow>();
  readonly perpFunding = new Map<string, PerpFundingRow>();
  readonly perpLiquidations = new Map<string, PerpLiquidationRow>();
  readonly perpFundingRates = new Map<string, PerpFundingRateRow>();
  /** OTC merchants, ads and orders by key (last state). */
  readonly otcMerchants = new Map<string, OtcMerchantRow>();
  readonly otcAds = new Map<string, OtcAdRow>();
  readonly otcOrders = new Map<string, OtcOrderRow>();
  /** Inbox messages by userId:key (readAt not modelled: the fault simulator checks the rows). */
  readonly inbox = new Map<string, InboxRow>();
  /** Rebate payouts by day:invitee. */
  readonly rebates = new Map<string, RebatePayoutRow>();
  /** Savings locks by id (last state). */
  readonly earnLocks = new Map<string, EarnLockRow>();
  failWrites = false;
  writes = 0;

  async load(): Promise<ProjectionState> {
    return { journalId: this.journalId, cursor: this.cursor };
  }

  async write(b: ProjectionBatch): Promise<void> {
    if (this.failWrites) throw new Error('projection store is down');
    for (const u of b.users) this.users.set(String(u.id), { ...u });
    for (const t of b.trades) if (!this.trades.has(String(t.id))) this.trades.set(String(t.id), { ...t });
    for (const a of b.audits ?? []) if (!this.audits.has(a.engineSeq!)) this.audits.set(a.engineSeq!, { ...a });
    for (const d of b.deposits ?? []) this.deposits.set(`${d.chain}:${d.txHash}:${d.logIndex}`, { ...d });
    for (const w of b.withdrawals ?? []) {
      const prev = this.withdrawals.get(String(w.id));
      if (prev === undefined || prev.seq <= w.seq) this.withdrawals.set(String(w.id), { ...w });
    }
    for (const t of b.transfers ?? []) if (!this.transfers.has(t.seq)) this.transfers.set(t.seq, { ...t });
    for (const o of b.orders) {
      const prev = this.orders.get(String(o.id));
      if (prev === undefined || (prev.seq as number) <= (o.seq as number)) this.orders.set(String(o.id), { ...o });
    }
    if (b.perp) {
      const p = b.perp;
      for (const t of p.trades) if (!this.perpTrades.has(String(t.id))) this.perpTrades.set(String(t.id), { ...t });
      for (const o of p.orders) {
        const prev = this.perpOrders.get(String(o.id));
        if (prev === undefined || prev.seq <= o.seq) this.perpOrders.set(String(o.id), { ...o });
      }
      const once = <T>(m: Map<string, T>, k: string, v: T) => void (m.has(k) || m.set(k, { ...v }));
      for (const r of p.positions) once(this.perpPositions, `${r.seq}:${r.userId}:${r.symbol}`, r);
      for (const r of p.funding) once(this.perpFunding, `${r.userId}:${r.symbol}:${r.fundingTs}`, r);
      for (const r of p.liquidations) once(this.perpLiquidations, `${r.seq}:${r.userId}:${r.symbol}`, r);
      for (const r of p.rates ?? []) once(this.perpFundingRates, `${r.symbol}:${r.fundingTs}`, r);
    }
    if (b.otc) {
      const newer = <T extends { seq: number }>(m: Map<string, T>, k: string, v: T) => {
        const prev = m.get(k);
        if (prev === undefined || prev.seq <= v.seq) m.set(k, { ...v });
      };
      for (const r of b.otc.merchants) newer(this.otcMerchants, r.userId, r);
      for (const r of b.otc.ads) newer(this.otcAds, String(r.id), r);
      for (const r of b.otc.orders) newer(this.otcOrders, String(r.id), r);
    }
    for (const r of b.inbox ?? []) {
      const prev = this.inbox.get(`${r.userId}:${r.key}`);
      if (prev === undefined || (prev.seq! < r.seq! && prev.params !== r.params)) this.inbox.set(`${r.userId}:${r.key}`, { ...r });
    }
    for (const r of b.rebates ?? []) if (!this.rebates.has(`${r.day}:${r.inviteeId}`)) this.rebates.set(`${r.day}:${r.inviteeId}`, { ...r });
    for (const r of b.earnLocks ?? []) {
      const prev = this.earnLocks.get(String(r.id));
      if (prev === undefined || prev.seq <= r.seq) this.earnLocks.set(String(r.id), { ...r });
    }
    this.cursor = Math.max(this.cursor, b.seq);
    this.journalId = b.journalId;
    this.writes++;
  }

  /** A deep enough copy to roll back to. */
  clone(): MemoryProjectionStore {
    const c = new MemoryProjectionStore();
    c.journalId = this.journalId;
    c.cursor = this.cursor;
    for (const [k, v] of this.users) c.users.set(k, { ...v });
    for (const [k, v] of this.orders) c.orders.set(k, { ...v });
    for (const [k, v] of this.trades) c.trades.set(k, { ...v });
    for (const [k, v] of this.audits) c.audits.set(k, { ...v });
    for (const [k, v] of this.deposits) c.deposits.set(k, { ...v });
    for (const [k, v] of this.withdrawals) c.withdrawals.set(k, { ...v });
    for (const [k, v] of this.transfers) c.transfers.set(k, { ...v });
    for (const [k, v] of this.perpOrders) c.perpOrders.set(k, { ...v });
    for (const [k, v] of this.perpTrades) c.perpTrades.set(k, { ...v });
    for (const [k, v] of this.perpPositions) c.perpPositions.set(k, { ...v });
    for (const [k, v] of this.perpFunding) c.perpFunding.set(k, { ...v });
    for (const [k, v] of this.perpLiquidations) c.perpLiquidations.set(k, { ...v });
    for (const [k, v] of this.otcMerchants) c.otcMerchants.set(k, { ...v });
    for (const [k, v] of this.otcAds) c.otcAds.set(k, { ...v });
    for (const [k, v] of this.otcOrders) c.otcOrders.set(k, { ...v });
    for (const [k, v] of this.rebates) c.rebates.set(k, { ...v });
    for (const [k, v] of this.earnLocks) c.earnLocks.set(k, { ...v });
    for (const [k, v] of this.inbox) c.inbox.set(k, { ...v });
    return c;
  }
}
