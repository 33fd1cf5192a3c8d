/**
 * An OCO order list of the spot engine (docs/conditional-orders.md, OCO; Binance `POST /api/v3/orderList/oco`): two
 * orders of one user, side and quantity, the above leg and the below leg, of which at most one may execute. The legs
 * are ordinary `Order`s (in the book, or pending in the market's TriggerBook) that point here through `Order.list`.
 *
 * Derived state: the legs' snapshot rows carry the list (spot-engine.ts `ListRow`), and `SpotEngine.restoreOrders`
 * rebuilds this record from them. A list is resolved once either leg filled (even partly), triggered or ended: the
 * other leg is cancelled in the same command, so "both legs open" is exactly "not resolved".
 */
import type { OrderListView } from '../types';

/** What a list needs of its legs (spot/order.ts `Order`; a type parameter, so this file does not import the order's). */
export interface ListLeg {
  readonly isOpen: boolean;
}

/** One OCO list (see the file comment). `seq` is a number of the order id space that no order has as its id. */
export class OrderList<L extends ListLeg = ListLeg> {
  /** Binance transactionTime: when the list was placed or last changed status (Unix ms). */
  updatedTs: number;
  /**
   * True once a leg filled, triggered or ended (the other is then cancelled in the same command); between commands it
   * equals "not both legs open", which is how a restore sets it.
   */
  resolved: boolean;

  constructor(
    readonly seq: number,
    readonly listClientOrderId: string | null,
    readonly userId: string,
    readonly symbol: string,
    readonly side: 'BUY' | 'SELL',
    readonly createdTs: number,
    /** The legs while retained (null once forgotten by the closed-order retention, or not restored). */
    public above: L | null,
    public below: L | null,
    /** The legs' order sequence numbers (kept when a leg is forgotten). */
    readonly aboveSeq: number,
    readonly belowSeq: number,
  ) {
    this.updatedTs = createdTs;
    this.resolved = false;
  }

  /** The list's id: the decimal string of `seq`. */
  get orderListId(): string {
    return `${this.seq}`;
  }

  /** True while both legs are open (neither has filled, triggered or ended): a restored list's `!resolved`. */
  bothOpen(): boolean {
    return this.above !== null && this.below !== null && this.above.isOpen && this.below.isOpen;
  }

  /** The other leg of `o` (null when it is no longer retained). */
  sibling(o: L): L | null {
    return o === this.above ? this.below : this.above;
  }

  /** A fresh view (types.ts `OrderListView`). */
  toView(): OrderListView {
    const ex = !this.resolved;
    return {
      orderListId: this.orderListId,
      listClientOrderId: this.listClientOrderId,
      contingencyType: 'OCO',
      userId: this.userId,
      symbol: this.symbol,
      side: this.side,
      listStatusType: ex ? 'EXEC_STARTED' : 'ALL_DONE',
      listOrderStatus: ex ? 'EXECUTING' : 'ALL_DONE',
      aboveOrderId: `${this.aboveSeq}`,
      belowOrderId: `${this.belowSeq}`,
      createdTs: this.createdTs,
      updatedTs: this.updatedTs,
    };
  }
}
