/** The index price's SQL: the audit rows of its ticks (index-price.tables.ts). */
import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { IndexResult } from './index-rule';
import { indexPriceTicks } from './index-price.tables';

/** One tick to record: the listing, the tick time (Unix ms) and the rule's result. */
export interface IndexTickRow {
  symbol: string;
  ts: number;
  result: IndexResult;
}

/** Writes ticks in one statement; a tick already recorded for (symbol, ts) stays as it was. */
export async function insertIndexTicks(db: Db, rows: readonly IndexTickRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(indexPriceTicks)
    .values(
      rows.map((r) => ({
        symbol: r.symbol,
        ts: r.ts,
        price: r.result.price,
        median: r.result.median,
        stale: r.result.stale,
        reason: r.result.reason,
        used: r.result.used,
        inputs: r.result.inputs,
      })),
    )
    .onConflictDoNothing();
}

/** The ticks of `symbol` in [fromMs, toMs), oldest first (the audit of a liquidation reads the window before it). */
export async function indexTicksBetween(db: Db, symbol: string, fromMs: number, toMs: number) {
  return db
    .select()
    .from(indexPriceTicks)
    .where(and(eq(indexPriceTicks.symbol, symbol), gte(indexPriceTicks.ts, fromMs), lt(indexPriceTicks.ts, toMs)))
    .orderBy(asc(indexPriceTicks.ts));
}

/** The last recorded tick of `symbol`, or undefined before its first (the key's order: symbol, then ts). */
export async function latestIndexTick(db: Db, symbol: string) {
  const rows = await db.select().from(indexPriceTicks).where(eq(indexPriceTicks.symbol, symbol)).orderBy(desc(indexPriceTicks.ts)).limit(1);
  return rows[0];
}
