/**
 * The naive reference book (ARCHITECTURE.md, convention 8, exchange-core's Naive book): one flat array of
 * resting orders, sorted by (price priority, arrival sequence) on every query. Deliberately
 * simple and slow, so that property tests can compare its behaviour with the fast book.
 */
import type { DepthLevel, Side } from '../types';
import { isBetterPrice, type BookLevel, type OrderBook } from './book';
import type { Order } from './order';

/** Naive price-time priority book (see the file comment). */
export class NaiveOrderBook implements OrderBook {
  private orders: Order[] = [];

  private sorted(side: Side): Order[] {
    return this.orders
      .filter((o) => o.side === side)
      .sort((a, b) => {
        const pa = a.price as bigint;
        const pb = b.price as bigint;
        if (pa !== pb) return isBetterPrice(side, pa, pb) ? -1 : 1;
        return a.seq - b.seq;
      });
  }

  private levelTotal(side: Side, price: bigint): bigint {
    let t = 0n;
    for (const o of this.orders) if (o.side === side && o.price === price) t += o.remaining;
    return t;
  }

  add(o: Order): bigint {
    this.orders.push(o);
    return this.levelTotal(o.side, o.price as bigint);
  }

  remove(o: Order): bigint {
    this.orders = this.orders.filter((x) => x !== o);
    return this.levelTotal(o.side, o.price as bigint);
  }

  reduce(o: Order, qty: bigint): bigint {
    o.remaining -= qty;
    return this.levelTotal(o.side, o.price as bigint);
  }

  best(side: Side): Order | undefined {
    return this.sorted(side)[0];
  }

  after(o: Order): Order | undefined {
    const s = this.sorted(o.side);
    return s[s.indexOf(o) + 1];
  }

  bestPrice(side: Side): bigint | null {
    return this.best(side)?.price ?? null;
  }

  depth(side: Side, levels: number): DepthLevel[] {
    return this.levels(side)
      .slice(0, levels)
      .map((l) => ({ price: l.price, quantity: l.orders.reduce((t, o) => t + o.remaining, 0n) }));
  }

  levels(side: Side): BookLevel[] {
    const out: BookLevel[] = [];
    for (const o of this.sorted(side)) {
      const last = out[out.length - 1];
      if (last !== undefined && last.price === o.price) last.orders.push(o);
      else out.push({ price: o.price as bigint, orders: [o] });
    }
    return out;
  }

  size(): number {
    return this.orders.length;
  }

  userOrderCount(userId: string): number {
    let n = 0;
    for (const o of this.orders) if (o.userId === userId) n++;
    return n;
  }
}
