/**
 * SQL of the wallet, user side: withdrawals and transfers (projections written by the projector, read here) and the
 * address book. Every user query is scoped by the owner's id: a record is never reached by its id alone. Deposits
 * are HW2's (chain.repository.ts).
 */
import { and, count, desc, eq, gte, inArray, lt, notInArray, sum } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { operators } from '../admin/admin.tables';
import { walletAddressBook, walletTransfers, walletWithdrawals } from './wallet.tables';

/** A wallet_withdrawals row. */
export type WithdrawalRow = typeof walletWithdrawals.$inferSelect;
/** A wallet_transfers row. */
export type TransferRow = typeof walletTransfers.$inferSelect;
/** A wallet_address_book row. */
export type AddressRow = typeof walletAddressBook.$inferSelect;

/** A page of rows with the total count. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** The wallet queries over `db`. */
export function createWalletRepository(db: Db) {
  return {
    /** The user's withdrawals, newest first, optionally of one coin. */
    async listWithdrawals(userId: bigint, opts: { coin?: string | undefined; limit: number; offset: number }): Promise<Page<WithdrawalRow>> {
      const where = and(eq(walletWithdrawals.userId, userId), opts.coin ? eq(walletWithdrawals.coin, opts.coin) : undefined);
      const rows = await db.select().from(walletWithdrawals).where(where).orderBy(desc(walletWithdrawals.id)).limit(opts.limit).offset(opts.offset);
      const [c] = await db.select({ n: count() }).from(walletWithdrawals).where(where);
      return { rows, total: Number(c?.n ?? 0) };
    },

    /** The user's withdrawal `id`, or null. */
    async withdrawal(userId: bigint, id: bigint): Promise<WithdrawalRow | null> {
      const rows = await db
        .select()
        .from(walletWithdrawals)
        .where(and(eq(walletWithdrawals.userId, userId), eq(walletWithdrawals.id, id)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The user's latest withdrawal with `clientId`, or null. */
    async withdrawalByClientId(userId: bigint, clientId: string): Promise<WithdrawalRow | null> {
      const rows = await db
        .select()
        .from(walletWithdrawals)
        .where(and(eq(walletWithdrawals.userId, userId), eq(walletWithdrawals.clientId, clientId)))
        .orderBy(desc(walletWithdrawals.id))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Any user's withdrawal `id` (console), or null. */
    async withdrawalAny(id: bigint): Promise<WithdrawalRow | null> {
      const rows = await db.select().from(walletWithdrawals).where(eq(walletWithdrawals.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /** Every user's withdrawals (console), newest first, optionally of one status and one user. */
    async adminWithdrawals(opts: { status?: string | undefined; userId?: bigint | undefined; limit: number; offset: number }): Promise<Page<WithdrawalRow>> {
      const where = and(
        opts.status ? eq(walletWithdrawals.status, opts.status) : undefined,
        opts.userId !== undefined ? eq(walletWithdrawals.userId, opts.userId) : undefined,
      );
      const rows = await db.select().from(walletWithdrawals).where(where).orderBy(desc(walletWithdrawals.id)).limit(opts.limit).offset(opts.offset);
      const [c] = await db.select({ n: count() }).from(walletWithdrawals).where(where);
      return { rows, total: Number(c?.n ?? 0) };
    },

    /**
     * Engine units of `coin` the user asked to withdraw in [fromTs, toTs) (requested then, not rejected or failed):
     * the daily limit's used part as the engine counts it.
     */
    async withdrawnBetween(userId: bigint, coin: string, fromTs: number, toTs: number): Promise<bigint> {
      const [r] = await db
        .select({ s: sum(walletWithdrawals.amount) })
        .from(walletWithdrawals)
        .where(
          and(
            eq(walletWithdrawals.userId, userId),
            eq(walletWithdrawals.coin, coin),
            gte(walletWithdrawals.createdTs, fromTs),
            lt(walletWithdrawals.createdTs, toTs),
            notInArray(walletWithdrawals.status, ['REJECTED', 'FAILED']),
          ),
        );
      return r?.s ? BigInt(r.s) : 0n;
    },

    /** E-mails of operators by id (ids not found are absent). */
    async operatorEmails(ids: bigint[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: operators.id, email: operators.email }).from(operators).where(inArray(operators.id, ids));
      return new Map(rows.map((r) => [r.id.toString(), r.email]));
    },

    /** The user's transfers, newest first, optionally of one coin. */
    async listTransfers(userId: bigint, opts: { coin?: string | undefined; limit: number; offset: number }): Promise<Page<TransferRow>> {
      const where = and(eq(walletTransfers.userId, userId), opts.coin ? eq(walletTransfers.coin, opts.coin) : undefined);
      const rows = await db.select().from(walletTransfers).where(where).orderBy(desc(walletTransfers.id)).limit(opts.limit).offset(opts.offset);
      const [c] = await db.select({ n: count() }).from(walletTransfers).where(where);
      return { rows, total: Number(c?.n ?? 0) };
    },

    /** The user's transfer `id`, or null. */
    async transfer(userId: bigint, id: bigint): Promise<TransferRow | null> {
      const rows = await db
        .select()
        .from(walletTransfers)
        .where(and(eq(walletTransfers.userId, userId), eq(walletTransfers.id, id)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The user's latest transfer with `clientId`, or null. */
    async transferByClientId(userId: bigint, clientId: string): Promise<TransferRow | null> {
      const rows = await db
        .select()
        .from(walletTransfers)
        .where(and(eq(walletTransfers.userId, userId), eq(walletTransfers.clientId, clientId)))
        .orderBy(desc(walletTransfers.id))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The user's address book, newest first. */
    async addresses(userId: bigint): Promise<AddressRow[]> {
      return db.select().from(walletAddressBook).where(eq(walletAddressBook.userId, userId)).orderBy(desc(walletAddressBook.id));
    },

    /** How many addresses the user saved. */
    async addressCount(userId: bigint): Promise<number> {
      const [r] = await db.select({ n: count() }).from(walletAddressBook).where(eq(walletAddressBook.userId, userId));
      return Number(r?.n ?? 0);
    },

    /** Saves an address; null when the user has it already (same coin, chain and address). */
    async insertAddress(row: Omit<typeof walletAddressBook.$inferInsert, 'id'>): Promise<AddressRow | null> {
      const rows = await db
        .insert(walletAddressBook)
        .values(row)
        .onConflictDoNothing({ target: [walletAddressBook.userId, walletAddressBook.coin, walletAddressBook.chain, walletAddressBook.address] })
        .returning();
      return rows[0] ?? null;
    },

    /** Deletes the user's address `id`; false when the user has no such entry. */
    async deleteAddress(userId: bigint, id: bigint): Promise<boolean> {
      const rows = await db
        .delete(walletAddressBook)
        .where(and(eq(walletAddressBook.userId, userId), eq(walletAddressBook.id, id)))
        .returning({ id: walletAddressBook.id });
      return rows.length > 0;
    },
  };
}

/** The repository's type. */
export type WalletRepository = ReturnType<typeof createWalletRepository>;
