/**
 * The engine's working record of one user who has had an accepted order: the user's open orders
 * (oldest first), client order ids of retained orders, and per market a `MarketUser` with the count
 * of the user's resting orders there and the user's SPOT accounts of the market's two assets.
 *
 * Derived state only: nothing here is in snapshots or the state hash. It is rebuilt by
 * `Engine.restore` from the orders it re-adds, and the accounts are the ledger's own objects
 * (never removed or replaced, so a cached account never goes stale). It exists so that a command
 * does one Map lookup (userId -> Trader) instead of one per structure it touches: the per-user
 * maps this replaces (open-order lists, per-book resting counts, per-market account caches,
 * client order ids) cost about a fifth of the engine's time on the benchmark flow.
 */
import type { Account } from '../ledger/ledger';
import { type Order, UserOrders } from './order';
import type { SpotMarket } from './spot-market';

/** One user's record (see the file comment); the open-order list is the inherited `UserOrders`. */
export class Trader extends UserOrders {
  /** clientOrderId -> the retained order with it (null until the first order with a client id). */
  clientOrders: Map<string, Order> | null;
  /** Per market, by `SpotMarket.index`: the user's state in that market (undefined before the first order there). */
  readonly markets: (MarketUser | undefined)[];

  constructor(readonly userId: string) {
    super();
    this.clientOrders = null;
    this.markets = [];
  }

  /** The user's record in `market`, created on first use. */
  in(market: SpotMarket): MarketUser {
    let mu = this.markets[market.index];
    if (mu === undefined) {
      while (this.markets.length < market.index) this.markets.push(undefined);
      mu = new MarketUser(this, market);
      this.markets[market.index] = mu;
    }
    return mu;
  }
}

/** A user in one market: resting order count and the user's SPOT accounts of base and quote (null until known). */
export class MarketUser {
  /** Number of the user's orders resting in this market's book (capped by MAX_OPEN_ORDERS_PER_MARKET). */
  openCount: number;
  /** The user's SPOT account of the market's base asset, once it exists. */
  base: Account | null;
  /** The user's SPOT account of the market's quote asset, once it exists. */
  quote: Account | null;

  constructor(
    readonly trader: Trader,
    readonly market: SpotMarket,
  ) {
    this.openCount = 0;
    this.base = null;
    this.quote = null;
  }
}
