/**
 * The fast order book: per side, a sorted array of price levels (worst first, best last, so the
 * best level is popped in O(1) and new levels near the top are cheap to insert) plus a Map from
 * price to level; each level holds an intrusive doubly-linked FIFO list of orders, so cancelling
 * by id is O(1) once the engine has the order. Level totals are kept incrementally.
 */
import type { DepthLevel, Side } from '../types';
import type { BookLevel, OrderBook } from './book';
import type { Order } from './order';

class Level {
  total = 0n;
  head: Order | null = null;
  tail: Order | null = null;
  constructor(readonly price: bigint) {}
}

class BookSide {
  /** Sorted worst -> best; the best level is the last element. */
  readonly levels: Level[] = [];
  readonly byPrice = new Map<bigint, Level>();
  count = 0;
  constructor(readonly isBid: boolean) {}

  /** Index where a level with `price` sits or would be inserted (binary search). */
  indexOf(price: bigint): number {
    const lv = this.levels;
    let lo = 0;
    let hi = lv.length;
    const bid = this.isBid;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = (lv[mid] as Level).price;
      // levels[mid] worse than price -> go right
      if (bid ? p < price : p > price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  levelFor(price: bigint): Level {
    let level = this.byPrice.get(price);
    if (level === undefined) {
      level = new Level(price);
      this.byPrice.set(price, level);
      const lv = this.levels;
      const last = lv[lv.length - 1];
      // Fast path: a new best level goes to the end.
      if (last === undefined || (this.isBid ? price > last.price : price < last.price)) lv.push(level);
      else lv.splice(this.indexOf(price), 0, level);
    }
    return level;
  }

  dropLevel(level: Level): void {
    this.byPrice.delete(level.price);
    const lv = this.levels;
    if (lv[lv.length - 1] === level) lv.pop();
    else lv.splice(this.indexOf(level.price), 1);
  }
}

/** Fast price-time priority book (see the file comment). */
export class FastOrderBook implements OrderBook {
  private readonly bids = new BookSide(true);
  private readonly asks = new BookSide(false);

  private sideOf(side: Side): BookSide {
    return side === 'BUY' ? this.bids : this.asks;
  }

  add(o: Order): bigint {
    const s = this.sideOf(o.side);
    const level = s.levelFor(o.price as bigint);
    o.level = level;
    o.prev = level.tail;
    o.next = null;
    if (level.tail === null) level.head = o;
    else level.tail.next = o;
    level.tail = o;
    level.total += o.remaining;
    s.count++;
    return level.total;
  }

  remove(o: Order): bigint {
    const level = o.level as Level;
    if (o.prev === null) level.head = o.next;
    else o.prev.next = o.next;
    if (o.next === null) level.tail = o.prev;
    else o.next.prev = o.prev;
    o.prev = null;
    o.next = null;
    o.level = null;
    level.total -= o.remaining;
    const s = this.sideOf(o.side);
    s.count--;
    if (level.head === null) s.dropLevel(level);
    return level.total;
  }

  reduce(o: Order, qty: bigint): bigint {
    const level = o.level as Level;
    o.remaining -= qty;
    level.total -= qty;
    return level.total;
  }

  best(side: Side): Order | undefined {
    const lv = this.sideOf(side).levels;
    const top = lv[lv.length - 1];
    return top === undefined ? undefined : (top.head as Order);
  }

  after(o: Order): Order | undefined {
    if (o.next !== null) return o.next;
    const s = this.sideOf(o.side);
    const i = s.indexOf(o.price as bigint);
    const worse = s.levels[i - 1];
    return worse === undefined ? undefined : (worse.head as Order);
  }

  bestPrice(side: Side): bigint | null {
    const lv = this.sideOf(side).levels;
    const top = lv[lv.length - 1];
    return top === undefined ? null : top.price;
  }

  depth(side: Side, levels: number): DepthLevel[] {
    const lv = this.sideOf(side).levels;
    const out: DepthLevel[] = [];
    for (let i = lv.length - 1; i >= 0 && out.length < levels; i--) {
      const l = lv[i] as Level;
      out.push({ price: l.price, quantity: l.total });
    }
    return out;
  }

  levels(side: Side): BookLevel[] {
    const lv = this.sideOf(side).levels;
    const out: BookLevel[] = [];
    for (let i = lv.length - 1; i >= 0; i--) {
      const l = lv[i] as Level;
      const orders: Order[] = [];
      for (let o = l.head; o !== null; o = o.next) orders.push(o);
      out.push({ price: l.price, orders });
    }
    return out;
  }

  size(): number {
    return this.bids.count + this.asks.count;
  }

  /** Internal consistency of the fast structures (for tests): totals, links, sort order, map. */
  checkInternal(): string | null {
    for (const s of [this.bids, this.asks]) {
      let n = 0;
      if (s.byPrice.size !== s.levels.length) return 'map/array size mismatch';
      for (let i = 0; i < s.levels.length; i++) {
        const l = s.levels[i] as Level;
        if (s.byPrice.get(l.price) !== l) return 'map does not point to level';
        const prev = s.levels[i - 1];
        if (prev !== undefined && (s.isBid ? !(prev.price < l.price) : !(prev.price > l.price))) return 'levels not sorted';
        let total = 0n;
        let back: Order | null = null;
        for (let o = l.head; o !== null; o = o.next) {
          if (o.prev !== back || o.level !== l) return 'broken links';
          total += o.remaining;
          back = o;
          n++;
        }
        if (back !== l.tail) return 'tail mismatch';
        if (total !== l.total || total <= 0n) return 'level total mismatch';
      }
      if (n !== s.count) return 'count mismatch';
    }
    return null;
  }
}
