/**
 * SQL of the wallet's histories within a time window: one user's transfers between two given accounts, deposits and
 * withdrawals, with Binance's filters (coin, status, client id, ids) and its offset/limit paging, newest first. The
 * app's capital records page by page number without times (wallet.repository.ts); the Binance gateway's history
 * endpoints (gateways/binance/sapi.wallet.routes.ts) need the window and reach these reads through the wallet service
 * (WalletService.transfersWithin, depositsWithin, withdrawalsWithin). Reads of the projected tables (wallet.tables.ts,
 * chain.tables.ts); the callers wait for the projection first (read-your-writes). Every query is keyed by the caller's
 * user id: another user's row is never read.
 */
import { and, count, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { walletTransfers, walletWithdrawals } from './wallet.tables';
import { walletDeposits } from './chain.tables';
import type { DepositRow } from './chain.repository';
import type { TransferRow, WithdrawalRow } from './wallet.repository';

/** A page of rows and the count of all rows the filters match. */
export interface WalletPage<T> {
  rows: T[];
  total: number;
}

/** A time window [startMs, endMs] (Unix ms, both included) and Binance's paging (`offset` rows skipped, at most `limit`). */
export interface WindowPage {
  startMs: number;
  endMs: number;
  limit: number;
  offset: number;
}

/** The reads (see the file comment). */
export interface WalletWindowRepository {
  /** `userId`'s transfers from account `from` to account `to` (the app's WALLET accounts) made within the window. */
  transfers(userId: bigint, q: WindowPage & { from: string; to: string }): Promise<WalletPage<TransferRow>>;
  /** `userId`'s deposits first seen within the window, of `coin` and of one of `statuses` when given. */
  deposits(userId: bigint, q: WindowPage & { coin?: string; statuses?: readonly string[] }): Promise<WalletPage<DepositRow>>;
  /** `userId`'s withdrawals requested within the window, with the optional filters. */
  withdrawals(
    userId: bigint,
    q: WindowPage & { coin?: string; statuses?: readonly string[]; clientId?: string; ids?: readonly bigint[] },
  ): Promise<WalletPage<WithdrawalRow>>;
}

/** The queries over `db`. */
export function createWalletWindowRepository(db: Db): WalletWindowRepository {
  /** The rows of `rows` and the count of `table`'s rows matching `where`. */
  async function page<T>(rows: Promise<T[]>, where: SQL | undefined, table: typeof walletTransfers | typeof walletDeposits | typeof walletWithdrawals) {
    const [c] = await db.select({ n: count() }).from(table).where(where);
    return { rows: await rows, total: Number(c?.n ?? 0) };
  }
  return {
    transfers(userId, q) {
      const where = and(
        eq(walletTransfers.userId, userId),
        eq(walletTransfers.fromAccount, q.from),
        eq(walletTransfers.toAccount, q.to),
        gte(walletTransfers.ts, q.startMs),
        lte(walletTransfers.ts, q.endMs),
      );
      const rows = db.select().from(walletTransfers).where(where).orderBy(desc(walletTransfers.id)).limit(q.limit).offset(q.offset);
      return page(rows, where, walletTransfers);
    },

    deposits(userId, q) {
      const where = and(
        eq(walletDeposits.userId, userId),
        gte(walletDeposits.createdAt, new Date(q.startMs)),
        lte(walletDeposits.createdAt, new Date(q.endMs)),
        q.coin !== undefined ? eq(walletDeposits.coin, q.coin) : undefined,
        q.statuses !== undefined ? inArray(walletDeposits.status, [...q.statuses]) : undefined,
      );
      const rows = db.select().from(walletDeposits).where(where).orderBy(desc(walletDeposits.id)).limit(q.limit).offset(q.offset);
      return page(rows, where, walletDeposits);
    },

    withdrawals(userId, q) {
      const where = and(
        eq(walletWithdrawals.userId, userId),
        gte(walletWithdrawals.createdTs, q.startMs),
        lte(walletWithdrawals.createdTs, q.endMs),
        q.coin !== undefined ? eq(walletWithdrawals.coin, q.coin) : undefined,
        q.statuses !== undefined ? inArray(walletWithdrawals.status, [...q.statuses]) : undefined,
        q.clientId !== undefined ? eq(walletWithdrawals.clientId, q.clientId) : undefined,
        q.ids !== undefined ? inArray(walletWithdrawals.id, [...q.ids]) : undefined,
      );
      const rows = db.select().from(walletWithdrawals).where(where).orderBy(desc(walletWithdrawals.id)).limit(q.limit).offset(q.offset);
      return page(rows, where, walletWithdrawals);
    },
  };
}
