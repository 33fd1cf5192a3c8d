/**
 * The pending conditional orders of one spot market (docs/conditional-orders.md): which of them are due at a last
 * trade price, in a deterministic order. Derived state: the orders themselves (with their `Condition`) are in the
 * snapshot; `SpotEngine.restoreOrders` re-adds the pending ones here.
 *
 * Two binary heaps of stop prices, one per direction (rising: trigger when last >= stopPrice, lowest first; falling:
 * trigger when last <= stopPrice, highest first), so the check after a command is O(1) when nothing is due (a peek
 * at each heap) and O(k log n) when k orders are due. A cancelled order stays in its heap until it reaches the top
 * (lazy deletion; the heaps are rebuilt when dead entries outnumber live ones). Trailing orders that track prices
 * are in a set scanned at each new price (their trigger price moves with every new high or low): O(t) for t tracking
 * trailing orders, and nothing when there are none.
 */
import { Condition, type Order } from './order';

/** 10,000 basis points = 100%. */
const BIPS = 10_000n;

/** A binary heap of pending orders by stop price: lowest first when `rising`, highest first otherwise; ties by seq. */
class StopHeap {
  readonly items: Order[] = [];
  constructor(private readonly rising: boolean) {}

  private before(x: Order, y: Order): boolean {
    const px = x.cond?.stopPrice as bigint;
    const py = y.cond?.stopPrice as bigint;
    if (px !== py) return this.rising ? px < py : px > py;
    return x.seq < y.seq;
  }

  push(o: Order): void {
    const a = this.items;
    a.push(o);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(a[i] as Order, a[parent] as Order)) break;
      [a[i], a[parent]] = [a[parent] as Order, a[i] as Order];
      i = parent;
    }
  }

  peek(): Order | undefined {
    return this.items[0];
  }

  pop(): Order | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.before(a[l] as Order, a[m] as Order)) m = l;
        if (r < a.length && this.before(a[r] as Order, a[m] as Order)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as Order, a[i] as Order];
        i = m;
      }
    }
    return top;
  }
}

/** True when a heap entry still stands for a pending order waiting on its stop price. */
function waitsOnStop(o: Order): boolean {
  return o.isPending && !(o.cond?.tracking ?? true);
}

/**
 * The trailing trigger price of a tracking trailing order (price units, rounded down): SELL
 * ref * (10000 - delta) / 10000 (a fall from the highest), BUY ref * (10000 + delta) / 10000 (a rise from the lowest).
 */
export function trailingTriggerPrice(side: 'BUY' | 'SELL', ref: bigint, deltaBips: number): bigint {
  const d = BigInt(deltaBips);
  return (ref * (side === 'SELL' ? BIPS - d : BIPS + d)) / BIPS;
}

/** True when last price `p` triggers a tracking trailing order with reference `ref` (Binance trailing stop FAQ). */
export function trailingHit(side: 'BUY' | 'SELL', ref: bigint, deltaBips: number, p: bigint): boolean {
  const d = BigInt(deltaBips);
  return side === 'SELL' ? p * BIPS <= ref * (BIPS - d) : p * BIPS >= ref * (BIPS + d);
}

/** The pending conditional orders of one market (see the file comment). */
export class TriggerBook {
  private rising = new StopHeap(true);
  private falling = new StopHeap(false);
  /** Tracking trailing orders. */
  private readonly trailing = new Set<Order>();
  /** Heap entries of orders no longer waiting on their stop (cancelled, or moved to `trailing`). */
  private dead = 0;
  /** Number of pending orders here. */
  live = 0;
  /** The last price `due` was asked about, and whether orders due at it were left for later (the per-command cap). */
  checkedAt: bigint | null = null;
  backlog = false;

  /** Adds a pending order (placed, restored, or put back after the per-command cap). */
  add(o: Order): void {
    this.live++;
    // The new order may be due at a price other than its placement's: the next check must not be skipped.
    this.checkedAt = null;
    this.enter(o);
  }

  private enter(o: Order): void {
    const c = o.cond;
    if (c === null) throw new Error('engine: not a conditional order');
    if (c.tracking) this.trailing.add(o);
    else if (c.stopPrice === null) throw new Error('engine: a waiting conditional order without a stop price');
    else (risesOnStop(o) ? this.rising : this.falling).push(o);
  }

  /** Removes a pending order that is being cancelled (call before its status changes). */
  remove(o: Order): void {
    this.live--;
    if (o.cond?.tracking === true) this.trailing.delete(o);
    else this.dead++;
    if (this.dead > 64 && this.dead > this.rising.items.length + this.falling.items.length - this.dead) this.compact();
  }

  /** Takes a due order out for triggering (it was popped from its heap, or is in the trailing set). */
  take(o: Order): void {
    this.live--;
    this.trailing.delete(o);
  }

  /** Puts back a due order left untriggered by the per-command cap (it stays due). */
  putBack(o: Order): void {
    this.backlog = true;
    if (o.cond?.tracking !== true) (risesOnStop(o) ? this.rising : this.falling).push(o);
  }

  private compact(): void {
    const r = this.rising.items.filter(waitsOnStop);
    const f = this.falling.items.filter(waitsOnStop);
    this.rising = new StopHeap(true);
    this.falling = new StopHeap(false);
    for (const o of r) this.rising.push(o);
    for (const o of f) this.falling.push(o);
    this.dead = 0;
  }

  /**
   * The orders due at last price `p`, in trigger order: farthest trigger price from `p` first (the stop the price
   * crossed first), then lower seq. On the way, tracking trailing orders take `p` as their new reference when it is a
   * new high (SELL) or low (BUY), and a trailing order whose stop condition holds starts tracking with reference `p`
   * (Binance: the first trade meeting the stop price sets the reference) instead of triggering. Heap entries of due
   * orders are popped; trailing ones stay in their set until `take`.
   */
  due(p: bigint): Order[] {
    this.checkedAt = p;
    this.backlog = false;
    const out: Order[] = [];
    for (const o of this.trailing) {
      const c = o.cond as NonNullable<Order['cond']>;
      const ref = c.trailingRef;
      if (ref === null || (o.side === 'SELL' ? p > ref : p < ref)) {
        c.trailingRef = p;
        continue;
      }
      if (trailingHit(o.side, ref, c.trailingDelta as number, p)) out.push(o);
    }
    for (const rises of [true, false]) {
      const h = rises ? this.rising : this.falling;
      for (let o = h.peek(); o !== undefined; o = h.peek()) {
        if (!waitsOnStop(o)) {
          h.pop();
          this.dead--;
          continue;
        }
        const c = o.cond as NonNullable<Order['cond']>;
        const s = c.stopPrice as bigint;
        if (rises ? s > p : s < p) break;
        h.pop();
        if (c.trailingDelta !== null) {
          c.tracking = true;
          c.trailingRef = p;
          this.trailing.add(o);
        } else {
          out.push(o);
        }
      }
    }
    if (out.length > 1) {
      const dist = (o: Order): bigint => {
        const c = o.cond as NonNullable<Order['cond']>;
        const k = c.tracking ? trailingTriggerPrice(o.side, c.trailingRef as bigint, c.trailingDelta as number) : (c.stopPrice as bigint);
        return k > p ? k - p : p - k;
      };
      const keyed = out.map((o) => ({ o, d: dist(o) }));
      keyed.sort((x, y) => (x.d !== y.d ? (x.d > y.d ? -1 : 1) : x.o.seq - y.o.seq));
      return keyed.map((k) => k.o);
    }
    return out;
  }
}

/** The heap of a waiting order: rising (STOP_LOSS BUY, TAKE_PROFIT SELL) or falling (STOP_LOSS SELL, TAKE_PROFIT BUY). */
function risesOnStop(o: Order): boolean {
  return Condition.risesFor((o.cond as Condition).kind, o.side);
}
