/**
 * SQL of the chain side of the wallet (tables of chain.tables.ts): deposits seen on chain, the blocks the watcher
 * followed and operator alerts. User-facing reads are scoped by the owner's id (a deposit is never reached by its id
 * alone). Amounts are decimal strings of integers (engine units, scale 8; chain units), never numbers.
 */
import { and, count, desc, eq, gte, inArray, lt, max, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { chainAlerts, chainBlocks, walletDeposits } from './chain.tables';

/** A wallet_deposits row. */
export type DepositRow = typeof walletDeposits.$inferSelect;
/** Deposit states (packages/api DepositStatus). */
export type DepositState = 'CONFIRMING' | 'CREDITED' | 'BELOW_MINIMUM' | 'ORPHANED';
/** A chain_blocks row: a block the watcher followed. */
export type ChainBlockRow = typeof chainBlocks.$inferSelect;
/** A chain_alerts row. */
export type ChainAlertRow = typeof chainAlerts.$inferSelect;

/** A transfer to one of our addresses as the watcher found it (status CONFIRMING or BELOW_MINIMUM). */
export interface SeenDeposit {
  userId: bigint;
  coin: string;
  chain: string;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  fromAddress: string;
  toAddress: string;
  /** engine units (scale 8) */
  amount: bigint;
  /** wei or token units */
  chainAmount: bigint;
  status: 'CONFIRMING' | 'BELOW_MINIMUM';
}

/**
 * The user's deposits, newest first, optionally of one coin: `rows` of the page (`limit` rows after `offset`) and the
 * `total` count. Used by the capital records (domains/wallet wallet.service, type coinCharging).
 */
export async function listDeposits(
  db: Db,
  userId: bigint | string,
  opts: { coin?: string | undefined; limit: number; offset: number },
): Promise<{ rows: DepositRow[]; total: number }> {
  const where = and(eq(walletDeposits.userId, BigInt(userId)), opts.coin ? eq(walletDeposits.coin, opts.coin) : undefined);
  const rows = await db.select().from(walletDeposits).where(where).orderBy(desc(walletDeposits.id)).limit(opts.limit).offset(opts.offset);
  const [c] = await db.select({ n: count() }).from(walletDeposits).where(where);
  return { rows, total: Number(c?.n ?? 0) };
}

/** The user's deposit `id`, or null (another user's, or unknown). */
export async function depositById(db: Db, userId: bigint | string, id: number | string): Promise<DepositRow | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) return null;
  const rows = await db
    .select()
    .from(walletDeposits)
    .where(and(eq(walletDeposits.userId, BigInt(userId)), eq(walletDeposits.id, n)))
    .limit(1);
  return rows[0] ?? null;
}

/** Every user's deposits for the console's monitor, newest first, optionally of one status. */
export async function adminListDeposits(
  db: Db,
  opts: { status?: DepositState | undefined; limit: number; offset: number },
): Promise<{ rows: DepositRow[]; total: number }> {
  const where = opts.status ? eq(walletDeposits.status, opts.status) : undefined;
  const rows = await db.select().from(walletDeposits).where(where).orderBy(desc(walletDeposits.id)).limit(opts.limit).offset(opts.offset);
  const [c] = await db.select({ n: count() }).from(walletDeposits).where(where);
  return { rows, total: Number(c?.n ?? 0) };
}

/**
 * Records a deposit the watcher found. A row already there for (chain, txHash, logIndex) is kept as it is, unless it
 * was ORPHANED (the transaction came back in another block after a reorg: the row takes the new block and status) or
 * was written by the projector from the journal alone (a lost database: its block hash, sender and chain amount are
 * filled in, its status stays).
 */
export async function recordSeenDeposit(db: Db, d: SeenDeposit, at: Date): Promise<void> {
  await db
    .insert(walletDeposits)
    .values({
      userId: d.userId,
      coin: d.coin,
      chain: d.chain,
      txHash: d.txHash,
      logIndex: d.logIndex,
      blockNumber: d.blockNumber,
      blockHash: d.blockHash,
      fromAddress: d.fromAddress,
      toAddress: d.toAddress,
      amount: d.amount.toString(),
      chainAmount: d.chainAmount.toString(),
      status: d.status,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: [walletDeposits.chain, walletDeposits.txHash, walletDeposits.logIndex],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        fromAddress: sql`excluded.from_address`,
        chainAmount: sql`excluded.chain_amount`,
        status: sql`case when ${walletDeposits.status} = 'ORPHANED' then excluded.status else ${walletDeposits.status} end`,
        updatedAt: sql`excluded.updated_at`,
      },
      // An orphaned deposit back in another block; or a credited row the projector rebuilt from the journal alone
      // (no block hash, sender or chain amount), completed from the chain.
      setWhere: sql`${walletDeposits.status} = 'ORPHANED' or ${walletDeposits.blockHash} = ''`,
    });
}

/** The chain's deposits waiting for confirmations (status CONFIRMING), oldest block first. */
export async function confirmingDeposits(db: Db, chain: string): Promise<DepositRow[]> {
  return db
    .select()
    .from(walletDeposits)
    .where(and(eq(walletDeposits.chain, chain), eq(walletDeposits.status, 'CONFIRMING')))
    .orderBy(walletDeposits.blockNumber, walletDeposits.id);
}

/** Marks deposit `id` CREDITED (the watcher, once creditDeposit answered; the projector adds the journal position). */
export async function markDepositCredited(db: Db, id: number, at: Date): Promise<void> {
  await db
    .update(walletDeposits)
    .set({ status: 'CREDITED', creditedAt: sql`coalesce(${walletDeposits.creditedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: at })
    .where(and(eq(walletDeposits.id, id), inArray(walletDeposits.status, ['CONFIRMING', 'CREDITED'])));
}

/**
 * A reorg removed the chain's blocks from `fromBlock` on: their deposits not credited become ORPHANED (never credited
 * then). Returns the CREDITED deposits of those blocks (a reorg deeper than the confirmations: an operator alert), which
 * stay CREDITED (the money moved in the journal; only an operator can decide).
 */
export async function orphanDepositsFrom(db: Db, chain: string, fromBlock: number, at: Date): Promise<DepositRow[]> {
  const inRange = and(eq(walletDeposits.chain, chain), gte(walletDeposits.blockNumber, fromBlock));
  await db
    .update(walletDeposits)
    .set({ status: 'ORPHANED', updatedAt: at })
    .where(and(inRange, inArray(walletDeposits.status, ['CONFIRMING', 'BELOW_MINIMUM'])));
  return db
    .select()
    .from(walletDeposits)
    .where(and(inRange, eq(walletDeposits.status, 'CREDITED')));
}

/** The distinct deposit addresses of `chain` that ever received a deposit (for the on-chain balances they hold). */
export async function depositAddressesUsed(db: Db, chain: string): Promise<string[]> {
  const rows = await db.selectDistinct({ a: walletDeposits.toAddress }).from(walletDeposits).where(eq(walletDeposits.chain, chain));
  return rows.map((r) => r.a);
}

// ---- blocks (the watcher's cursor) ---------------------------------------------------------------------------------

/** The newest block followed on `chain`, or null (never started, or a lost database). */
export async function lastBlock(db: Db, chain: string): Promise<ChainBlockRow | null> {
  const rows = await db.select().from(chainBlocks).where(eq(chainBlocks.chain, chain)).orderBy(desc(chainBlocks.number)).limit(1);
  return rows[0] ?? null;
}

/** The followed block at `number`, or null. */
export async function blockAt(db: Db, chain: string, number: number): Promise<ChainBlockRow | null> {
  const rows = await db
    .select()
    .from(chainBlocks)
    .where(and(eq(chainBlocks.chain, chain), eq(chainBlocks.number, number)))
    .limit(1);
  return rows[0] ?? null;
}

/** The number of the newest block followed on `chain` (0 when none): confirmations are counted against it. */
export async function chainHead(db: Db, chain: string): Promise<number> {
  const [r] = await db
    .select({ n: max(chainBlocks.number) })
    .from(chainBlocks)
    .where(eq(chainBlocks.chain, chain));
  return Number(r?.n ?? 0);
}

/** Records a followed block (replacing one of the same number) and forgets those older than `keepFrom`. */
export async function saveBlock(db: Db, b: ChainBlockRow, keepFrom: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(chainBlocks)
      .values(b)
      .onConflictDoUpdate({ target: [chainBlocks.chain, chainBlocks.number], set: { hash: b.hash, parentHash: b.parentHash } });
    await tx.delete(chainBlocks).where(and(eq(chainBlocks.chain, b.chain), lt(chainBlocks.number, keepFrom)));
  });
}

/** Forgets the followed blocks of `chain` from `fromBlock` on (a reorg removed them); `fromBlock` 0 forgets all. */
export async function dropBlocksFrom(db: Db, chain: string, fromBlock: number): Promise<void> {
  await db.delete(chainBlocks).where(and(eq(chainBlocks.chain, chain), gte(chainBlocks.number, fromBlock)));
}

// ---- alerts --------------------------------------------------------------------------------------------------------

/** Adds an operator alert. */
export async function insertAlert(db: Db, a: { chain: string; kind: string; message: string }, at: Date): Promise<void> {
  await db.insert(chainAlerts).values({ ...a, createdAt: at });
}

/** The newest alerts first (at most `limit`). */
export async function listAlerts(db: Db, limit: number): Promise<ChainAlertRow[]> {
  return db.select().from(chainAlerts).orderBy(desc(chainAlerts.id)).limit(limit);
}
