/**
 * The engine's mutable order record. `toView` copies the public fields into an `OrderView`
 * (types.ts) for results and events; the rest is internal bookkeeping.
 */
import type { Account } from '../ledger/ledger';
import type { OrderStatus, OrderType, OrderView, RejectCode, Side, StopKind, StpMode, TimeInForce } from '../types';
import type { OrderList } from './order-list';

/**
 * What an order holds of its owner's record in its market: spot-market.ts `MarketUser`, which the market's code
 * reads as such (it also holds the user's SPOT accounts and the market). Declared here so that the order record
 * does not import the market.
 */
export interface OrderOwner {
  /** Number of the owner's orders resting in this market's book. */
  openCount: number;
  /** The owner's engine record (its retained orders by client order id). */
  readonly trader: { clientOrders: Map<string, Order> | null };
}

/** A spot order as held by the engine (and linked into a book while it rests). */
export class Order {
  filledQty: bigint;
  filledQuote: bigint;
  fee: bigint;
  status: OrderStatus;
  updatedTs: number;
  /** Unfilled quantity in qty units (0n for MARKET BUY by quoteAmount, which tracks `hold`). */
  remaining: bigint;
  /** Amount still frozen for this order, in asset units (quote for BUY, base for SELL); 0n once the order ends. */
  hold: bigint;
  /** The SPOT account holding `hold` (quote asset for BUY, base for SELL); set when the order is accepted and funded. */
  holdAccount: Account | null;
  /**
   * The owner's record in the order's market (spot-market.ts `MarketUser`): its resting count, its SPOT accounts
   * (the receiving one is looked up there at the first fill) and, through it, the market itself. Set when the
   * order is accepted (or restored open); null only for ended orders restored from a snapshot.
   */
  mu: OrderOwner | null;
  /** Fast book links (intrusive FIFO list per price level); unused by the naive book. */
  prev: Order | null;
  next: Order | null;
  level: unknown;
  /** Engine's per-user list of open orders (intrusive, in arrival order). */
  userPrev: Order | null;
  userNext: Order | null;
  userList: UserOrders | null;
  /** A conditional order's condition and trigger state (triggers.ts); null for every other order. */
  cond: Condition | null;
  /** The OCO list this order is a leg of (order-list.ts); null for every other order. */
  list: OrderList<Order> | null;

  constructor(
    /** Engine sequence number; `orderId` is its decimal string. */
    readonly seq: number,
    readonly orderId: string,
    readonly clientOrderId: string | null,
    readonly userId: string,
    readonly symbol: string,
    readonly side: Side,
    readonly orderType: OrderType,
    readonly timeInForce: TimeInForce,
    /** Limit price in price units; null for MARKET. */
    readonly price: bigint | null,
    /** Quantity in qty units; null for MARKET BUY by quoteAmount. */
    readonly quantity: bigint | null,
    /** Quote asset units; only for MARKET BUY by quoteAmount. */
    readonly quoteAmount: bigint | null,
    readonly feeAsset: string,
    readonly stp: StpMode,
    readonly createdTs: number,
  ) {
    // Assigned here rather than as class field initialisers (one shape, plain stores: cheaper in V8).
    this.filledQty = 0n;
    this.filledQuote = 0n;
    this.fee = 0n;
    this.status = 'NEW';
    this.updatedTs = createdTs;
    this.remaining = quantity ?? 0n;
    this.hold = 0n;
    this.holdAccount = null;
    this.mu = null;
    this.prev = null;
    this.next = null;
    this.level = null;
    this.userPrev = null;
    this.userNext = null;
    this.userList = null;
    this.cond = null;
    this.list = null;
  }

  /** True while NEW or PARTIALLY_FILLED. */
  get isOpen(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }

  /** True for a conditional order still waiting for its condition (open, not in the book). */
  get isPending(): boolean {
    return this.cond !== null && this.cond.workingTs === null && this.isOpen;
  }

  /** A fresh copy of the public fields (`trigger` only on a conditional order). */
  toView(): OrderView {
    const v: OrderView = {
      orderId: this.orderId,
      clientOrderId: this.clientOrderId,
      userId: this.userId,
      symbol: this.symbol,
      side: this.side,
      orderType: this.orderType,
      timeInForce: this.timeInForce,
      price: this.price,
      quantity: this.quantity,
      quoteAmount: this.quoteAmount,
      filledQty: this.filledQty,
      filledQuote: this.filledQuote,
      fee: this.fee,
      feeAsset: this.feeAsset,
      status: this.status,
      createdTs: this.createdTs,
      updatedTs: this.updatedTs,
    };
    const c = this.cond;
    if (c !== null) {
      v.trigger = {
        kind: c.kind,
        stopPrice: c.stopPrice,
        trailingDelta: c.trailingDelta,
        trailingRef: c.trailingRef,
        workingTs: c.workingTs,
        expireReason: c.expireReason,
      };
    }
    if (this.list !== null) v.orderListId = this.list.orderListId;
    return v;
  }
}

/**
 * The condition of a conditional order (docs/conditional-orders.md): kind, stop price (price units) and/or trailing
 * delta (basis points), and the trigger state: `tracking` once a trailing order follows prices (from placement without
 * a stop price, else from the first check where the stop condition held), `trailingRef` the highest (SELL) or lowest
 * (BUY) last price seen while tracking (null before the first price), `workingTs` the time it triggered (null while
 * pending), `expireReason` why it expired at its trigger (null otherwise), `prioritySeq` its book priority once triggered.
 */
export class Condition {
  constructor(
    readonly kind: StopKind,
    readonly stopPrice: bigint | null,
    readonly trailingDelta: number | null,
    public tracking: boolean,
    public trailingRef: bigint | null,
    public workingTs: number | null,
    public expireReason: RejectCode | null,
    /**
     * The order sequence number taken when it triggered (null while pending): its time priority in the book, as
     * Binance's triggered order queues from its workingTime, behind every order that rested before.
     */
    public prioritySeq: number | null = null,
  ) {}

  /**
   * True when the stop condition rises with the price (trigger when last >= stopPrice: STOP_LOSS BUY and
   * TAKE_PROFIT SELL), false when it falls (last <= stopPrice: STOP_LOSS SELL and TAKE_PROFIT BUY); Binance's table.
   */
  static risesFor(kind: StopKind, side: Side): boolean {
    return (kind === 'STOP_LOSS') === (side === 'BUY');
  }
}

/** Head and tail of one user's open orders, linked through `Order.userPrev/userNext`, oldest first. */
export class UserOrders {
  head: Order | null = null;
  tail: Order | null = null;

  /** Append an order that just started resting (orders rest in id order, so the list stays sorted). */
  push(o: Order): void {
    o.userList = this;
    o.userPrev = this.tail;
    o.userNext = null;
    if (this.tail === null) this.head = o;
    else this.tail.userNext = o;
    this.tail = o;
  }

  /** Unlink an order of this list. */
  unlink(o: Order): void {
    if (o.userPrev === null) this.head = o.userNext;
    else o.userPrev.userNext = o.userNext;
    if (o.userNext === null) this.tail = o.userPrev;
    else o.userNext.userPrev = o.userPrev;
    o.userPrev = null;
    o.userNext = null;
    o.userList = null;
  }
}
