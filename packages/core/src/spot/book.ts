/**
 * The order book interface shared by the fast book (fast-book.ts) and the naive reference book
 * (naive-book.ts). The engine does all matching and emits all events; a book only keeps resting
 * LIMIT orders in price-time priority (best price first; FIFO by arrival within a price), so two
 * books that answer these calls identically make the engine emit identical events.
 */
import type { DepthLevel, Side } from '../types';
import type { Order } from './order';

/** One price level with its orders in FIFO order (for validation and snapshots). */
export interface BookLevel {
  price: bigint;
  orders: Order[];
}

/** Price-time priority book of one market. Prices in price units, quantities in qty units. */
export interface OrderBook {
  /** Append a resting order (price set, remaining > 0) at the tail of its level; returns the level's new total quantity. */
  add(o: Order): bigint;
  /** Remove a resting order; returns the level's new total quantity (0n when the level is gone). */
  remove(o: Order): bigint;
  /** Reduce a resting order's `remaining` by `qty` (0 < qty < remaining); returns the level's new total. */
  reduce(o: Order, qty: bigint): bigint;
  /** The order with the highest priority on `side`, or undefined if that side is empty. */
  best(side: Side): Order | undefined;
  /** The order right after `o` in priority order on its side (does not modify the book). */
  after(o: Order): Order | undefined;
  /** Best price on `side`, or null when empty. */
  bestPrice(side: Side): bigint | null;
  /** Aggregated levels, best first, at most `levels`. */
  depth(side: Side, levels: number): DepthLevel[];
  /** All levels of `side`, best first, each with its orders in FIFO order. */
  levels(side: Side): BookLevel[];
  /** Number of resting orders. */
  size(): number;
  /**
   * Number of resting orders of `userId` on this book (both sides), counted from the orders (may be
   * O(n): the engine caps the count per market with its own counter, MarketUser.openCount, and the
   * invariant checks compare the two).
   */
  userOrderCount(userId: string): number;
}

/** Which book implementation the engine uses: the fast one, or the naive reference one for tests. */
export type BookKind = 'fast' | 'naive';

/** True when price `a` has priority over price `b` on `side` (higher bid, lower ask). */
export function isBetterPrice(side: Side, a: bigint, b: bigint): boolean {
  return side === 'BUY' ? a > b : a < b;
}
