/**
 * A neutral order flow: the commands every engine under test receives, in order, with integer
 * prices (ticks of 10^-priceDecimals) and sizes (lots of 10^-qtyDecimals), and the `FlowBuilder`
 * that produces it while simulating price-time matching, so that it only cancels orders that are
 * still resting, never lets a user trade with themself, and knows the book the engines must end with.
 */

/** Command kinds of a flow. */
export const PLACE = 0; // limit GTC: side, price, qty, orderId, user
export const CANCEL = 1; // cancel orderId (placed earlier by the same user)
export const MARKET = 2; // market order by base quantity: side, qty, user

/** Sides of a flow (0 = BUY, 1 = SELL). */
export const BUY = 0;
export const SELL = 1;

/** A finished flow, stored column-wise. Prices in ticks, quantities in lots (both exact integers). */
export interface Flow {
  name: string;
  /** Where the data came from (printed with the figures). */
  source: string;
  priceDecimals: number;
  qtyDecimals: number;
  length: number;
  kind: Uint8Array;
  side: Uint8Array;
  /** Flow order id (dense, 0..orderCount-1) for PLACE/CANCEL; -1 for MARKET. */
  orderId: Int32Array;
  /** User index 0..users-1. */
  user: Int32Array;
  price: bigint[];
  qty: bigint[];
  orderCount: number;
  users: number;
  counts: { place: number; cancel: number; market: number; simFills: number };
  /** The book the simulation ends with: aggregated levels, best first (price ticks, qty lots). */
  finalBook: { bids: [bigint, bigint][]; asks: [bigint, bigint][] };
}

interface SimOrder {
  id: number;
  user: number;
  side: number;
  price: bigint;
  qty: bigint; // remaining
  live: boolean;
}

interface Level {
  total: bigint;
  queue: SimOrder[];
  head: number;
}

/** Sorted price list: ascending for asks, descending for bids (best first). */
class PriceLadder {
  readonly prices: bigint[] = [];
  constructor(private readonly descending: boolean) {}
  private before(a: bigint, b: bigint): boolean {
    return this.descending ? a > b : a < b;
  }
  private search(p: bigint): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.before(this.prices[mid] as bigint, p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  insert(p: bigint): void {
    this.prices.splice(this.search(p), 0, p);
  }
  remove(p: bigint): void {
    const i = this.search(p);
    if (this.prices[i] === p) this.prices.splice(i, 1);
  }
  best(): bigint | undefined {
    return this.prices[0];
  }
}

/**
 * Builds a Flow. Every method both records the command and applies it to a price-time-priority
 * simulation of the book (fills at the maker's price, FIFO per level, market remainder expires).
 * `users` is the number of distinct users orders are spread over (round robin, skipping any user
 * that would trade against their own resting order).
 */
export class FlowBuilder {
  private readonly kind: number[] = [];
  private readonly side: number[] = [];
  private readonly orderId: number[] = [];
  private readonly user: number[] = [];
  private readonly price: bigint[] = [];
  private readonly qty: bigint[] = [];
  private readonly orders: SimOrder[] = [];
  private readonly levels: [Map<bigint, Level>, Map<bigint, Level>] = [new Map(), new Map()];
  private readonly ladders: [PriceLadder, PriceLadder] = [new PriceLadder(true), new PriceLadder(false)];
  private nextUser = 0;
  private readonly counts = { place: 0, cancel: 0, market: 0, simFills: 0 };

  constructor(
    private readonly name: string,
    private readonly source: string,
    private readonly priceDecimals: number,
    private readonly qtyDecimals: number,
    private readonly users = 1000,
  ) {}

  private levelsOf(side: number): Map<bigint, Level> {
    return this.levels[side === BUY ? 0 : 1];
  }

  private ladderOf(side: number): PriceLadder {
    return this.ladders[side === BUY ? 0 : 1];
  }

  /** Total resting quantity (lots) at a price on a side (0n if none). */
  levelTotal(side: number, price: bigint): bigint {
    return this.levelsOf(side).get(price)?.total ?? 0n;
  }

  /** Is the order with this flow id still resting in the simulated book? */
  isLive(id: number): boolean {
    return this.orders[id]?.live === true;
  }

  /** The user who placed flow order `id`. */
  ownerOf(id: number): number {
    return (this.orders[id] as SimOrder).user;
  }

  /** Flow ids of the live orders at a level, oldest first. */
  liveAt(side: number, price: bigint): number[] {
    const lv = this.levelsOf(side).get(price);
    if (lv === undefined) return [];
    const out: number[] = [];
    for (let i = lv.head; i < lv.queue.length; i++) {
      const o = lv.queue[i] as SimOrder;
      if (o.live) out.push(o.id);
    }
    return out;
  }

  /** Users that a taker on `side` up to `limit` (undefined = market) for `qty` would meet. */
  private makersHit(side: number, limit: bigint | undefined, qty: bigint): Set<number> {
    const opp = 1 - side;
    const hit = new Set<number>();
    let left = qty;
    for (const p of this.ladderOf(opp).prices) {
      if (limit !== undefined && (side === BUY ? p > limit : p < limit)) break;
      const lv = this.levelsOf(opp).get(p) as Level;
      for (let i = lv.head; i < lv.queue.length && left > 0n; i++) {
        const o = lv.queue[i] as SimOrder;
        if (!o.live) continue;
        hit.add(o.user);
        left -= o.qty;
      }
      if (left <= 0n) break;
    }
    return hit;
  }

  private pickUser(preferred: number | undefined, side: number, limit: bigint | undefined, qty: bigint): number {
    let u = preferred ?? this.nextUser++ % this.users;
    const hit = this.makersHit(side, limit, qty);
    for (let tries = 0; hit.has(u); tries++) {
      if (tries > this.users) throw new Error('no user without a self-trade');
      u = (u + 1) % this.users;
    }
    return u;
  }

  private crosses(side: number, limit: bigint | undefined): boolean {
    const best = this.ladderOf(1 - side).best();
    if (best === undefined) return false;
    return limit === undefined || (side === BUY ? best <= limit : best >= limit);
  }

  /** Match a taker against the opposite side; returns the quantity left. */
  private match(side: number, limit: bigint | undefined, qty: bigint): bigint {
    const opp = 1 - side;
    let left = qty;
    while (left > 0n && this.crosses(side, limit)) {
      const p = this.ladderOf(opp).best() as bigint;
      const lv = this.levelsOf(opp).get(p) as Level;
      while (left > 0n && lv.head < lv.queue.length) {
        const o = lv.queue[lv.head] as SimOrder;
        if (!o.live) {
          lv.head++;
          continue;
        }
        const f = o.qty < left ? o.qty : left;
        o.qty -= f;
        lv.total -= f;
        left -= f;
        this.counts.simFills++;
        if (o.qty === 0n) {
          o.live = false;
          lv.head++;
        }
      }
      if (lv.total === 0n) this.dropLevel(opp, p);
    }
    return left;
  }

  private dropLevel(side: number, price: bigint): void {
    this.levelsOf(side).delete(price);
    this.ladderOf(side).remove(price);
  }

  private record(kind: number, side: number, id: number, user: number, price: bigint, qty: bigint): void {
    this.kind.push(kind);
    this.side.push(side);
    this.orderId.push(id);
    this.user.push(user);
    this.price.push(price);
    this.qty.push(qty);
  }

  /**
   * Limit GTC order of `qty` lots at `price` ticks. `user` is a preference (kept unless it would
   * self-trade). Returns the new flow order id.
   */
  place(side: number, price: bigint, qty: bigint, user?: number): number {
    if (qty <= 0n || price <= 0n) throw new Error('place: price and qty must be positive');
    const u = this.crosses(side, price) ? this.pickUser(user, side, price, qty) : (user ?? this.nextUser++ % this.users);
    const id = this.orders.length;
    const o: SimOrder = { id, user: u, side, price, qty, live: false };
    this.orders.push(o);
    this.record(PLACE, side, id, u, price, qty);
    this.counts.place++;
    o.qty = this.match(side, price, qty);
    if (o.qty > 0n) {
      o.live = true;
      let lv = this.levelsOf(side).get(price);
      if (lv === undefined) {
        lv = { total: 0n, queue: [], head: 0 };
        this.levelsOf(side).set(price, lv);
        this.ladderOf(side).insert(price);
      }
      lv.queue.push(o);
      lv.total += o.qty;
    }
    return id;
  }

  /** Cancel a resting order (no command is recorded if it is not live any more). Returns whether recorded. */
  cancel(id: number): boolean {
    const o = this.orders[id];
    if (o === undefined || !o.live) return false;
    this.record(CANCEL, o.side, id, o.user, 0n, 0n);
    this.counts.cancel++;
    o.live = false;
    const lv = this.levelsOf(o.side).get(o.price) as Level;
    lv.total -= o.qty;
    if (lv.total === 0n) this.dropLevel(o.side, o.price);
    return true;
  }

  /** Market order by base quantity (the unfilled rest expires). */
  market(side: number, qty: bigint): void {
    if (qty <= 0n) throw new Error('market: qty must be positive');
    const u = this.pickUser(undefined, side, undefined, qty);
    this.record(MARKET, side, -1, u, 0n, qty);
    this.counts.market++;
    this.match(side, undefined, qty);
  }

  /** Freeze the flow. */
  build(): Flow {
    const levelsOf = (side: number): [bigint, bigint][] => this.ladderOf(side).prices.map((p) => [p, (this.levelsOf(side).get(p) as Level).total]);
    return {
      name: this.name,
      source: this.source,
      priceDecimals: this.priceDecimals,
      qtyDecimals: this.qtyDecimals,
      length: this.kind.length,
      kind: Uint8Array.from(this.kind),
      side: Uint8Array.from(this.side),
      orderId: Int32Array.from(this.orderId),
      user: Int32Array.from(this.user),
      price: this.price,
      qty: this.qty,
      orderCount: this.orders.length,
      users: this.users,
      counts: { ...this.counts },
      finalBook: { bids: levelsOf(BUY), asks: levelsOf(SELL) },
    };
  }
}
