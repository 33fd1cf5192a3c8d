/**
 * The engine's contract: commands in, events out.
 *
 * Every money, price and quantity value is a `bigint` integer:
 * - asset amounts are in the asset's smallest unit (10^-scale of one coin, `Asset.scale`);
 * - order prices are in units of 10^-priceDecimals of the quote asset per one base coin;
 * - order quantities are in units of 10^-qtyDecimals of the base asset.
 * A market requires `priceDecimals + qtyDecimals <= quote.scale` and `qtyDecimals <= base.scale`,
 * so `price * qty` converts to quote units exactly (no rounding on notional).
 *
 * Time (`ts`, Unix ms) is an input carried by every command; the core never reads a clock.
 */

/** The four per-user accounts of the spec (section 3, "Account types"). */
export type AccountKind = 'ASSETS' | 'SPOT' | 'CONTRACT' | 'OTC';
export const ACCOUNT_KINDS: readonly AccountKind[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];

/**
 * System accounts (owner ids starting with `@`), which may go negative: `@faucet` issues demo funds,
 * `@chain` stands for the chain wallets (deposits in, withdrawals out), `@fee` collects trading fees,
 * `@insurance` is the insurance fund. For every asset the sum over all accounts is always zero.
 */
export type SystemAccount = '@faucet' | '@chain' | '@fee' | '@insurance';

/** A coin. `scale` = number of decimal places of its smallest unit (USDT 8, BTC 8, ...). */
export interface Asset {
  code: string;
  scale: number;
}

export type MarketStatus = 'TRADING' | 'HALTED';

/** A spot market. All integers as described at the top of this file. Fee rates in ppm (1000 = 0.1%). */
export interface MarketConfig {
  symbol: string; // "BTC/USDT"
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: bigint; // in price units
  stepSize: bigint; // in qty units
  minQty: bigint; // in qty units
  minNotional: bigint; // in quote asset units
  makerFeePpm: number;
  takerFeePpm: number;
  status: MarketStatus;
}

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET';
/** POST_ONLY = Binance LIMIT_MAKER: rejected if it would take liquidity. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
/** Self-trade prevention mode (Binance STP). Default EXPIRE_TAKER. */
export type StpMode = 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | 'EXPIRE_BOTH' | 'NONE';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

interface CommandBase {
  /** Unix ms, assigned by the sequencer. */
  ts: number;
}

export type Command =
  /**
   * The first command of every journal (sequence 1): names the journal. The database records the id of the
   * journal it projects, so a database can never be paired with another journal. Accepted once.
   */
  | (CommandBase & { type: 'genesis'; journalId: string })
  /**
   * Registers a user and assigns the next user id ("1", "2", ...). `account` and every `uniqueKeys` entry must be
   * free (account_exists, resp. user_key_taken). `profile` is stored as is (users.ts).
   */
  | (CommandBase & { type: 'registerUser'; account: string; uniqueKeys: string[]; profile: Record<string, string> })
  /**
   * Sets profile fields of a registered user (user_not_found). With `expect`, only when each named field has
   * exactly that value now (user_field_mismatch otherwise): a compare-and-set, e.g. a nickname set only once.
   * `addKeys` adds unique keys to the user (e.g. a newly bound "mail:x@y.z" or "phone:86:138..."): a key the user
   * owns already is a no-op, one owned by another user is refused (user_key_taken). `audit` is opaque to the engine:
   * copied as is into the userUpdated event, so that a projector can write an audit record (the operator console's)
   * in the same database transaction as the projection of the change.
   */
  | (CommandBase & {
      type: 'updateUser';
      userId: string;
      profile: Record<string, string>;
      expect?: Record<string, string>;
      addKeys?: string[];
      audit?: Record<string, string>;
    })
  | (CommandBase & { type: 'addAsset'; asset: Asset })
  | (CommandBase & { type: 'addMarket'; market: MarketConfig })
  | (CommandBase & { type: 'setMarketStatus'; symbol: string; status: MarketStatus })
  /** Posting from a system account to a user's account (available). `ref` is an idempotency key. */
  | (CommandBase & {
      type: 'deposit';
      userId: string;
      asset: string;
      account: AccountKind;
      amount: bigint;
      from: SystemAccount;
      ref?: string;
    })
  /** Move available funds between two of a user's accounts. `clientId` is an idempotency key. */
  | (CommandBase & {
      type: 'transfer';
      userId: string;
      asset: string;
      from: AccountKind;
      to: AccountKind;
      amount: bigint;
      clientId?: string;
    })
  /**
   * Spot order. LIMIT needs price and quantity. MARKET SELL needs quantity; MARKET BUY needs
   * quantity or quoteAmount (Binance quoteOrderQty, in quote asset units), not both.
   * A retried command with the same (userId, clientOrderId) returns the first result unchanged.
   */
  | (CommandBase & {
      type: 'placeOrder';
      userId: string;
      symbol: string;
      side: Side;
      orderType: OrderType;
      timeInForce: TimeInForce;
      price?: bigint;
      quantity?: bigint;
      quoteAmount?: bigint;
      clientOrderId?: string;
      stp?: StpMode;
    })
  /** Cancel by orderId or by clientOrderId; only the owner can cancel. */
  | (CommandBase & { type: 'cancelOrder'; userId: string; orderId?: string; clientOrderId?: string });

export type CommandType = Command['type'];

/**
 * Rejections, a closed union in precedence order (the first that applies is returned).
 * Nothing changes when a command is rejected.
 */
export const REJECT_CODES = [
  'asset_exists',
  'market_exists',
  'invalid_config',
  'asset_not_found',
  'market_not_found',
  'account_frozen',
  'market_halted',
  'invalid_order',
  'price_required',
  'price_not_on_tick',
  'quantity_required',
  'quantity_not_on_step',
  'quantity_below_minimum',
  'notional_below_minimum',
  'amount_invalid',
  'same_account',
  'too_many_open_orders',
  'insufficient_balance',
  'would_take_liquidity',
  'no_liquidity',
  'order_not_found',
  'account_exists',
  'user_key_taken',
  'user_not_found',
  'user_field_mismatch',
] as const;
export type RejectCode = (typeof REJECT_CODES)[number];
export type ResultCode = 'ok' | RejectCode;

/** An order as the engine sees it; returned in results and carried by order events. */
export interface OrderView {
  orderId: string; // decimal string of the engine's sequence, unique and increasing
  clientOrderId: string | null;
  userId: string;
  symbol: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: bigint | null; // price units; null for MARKET
  quantity: bigint | null; // qty units; null for MARKET BUY by quoteAmount
  quoteAmount: bigint | null; // quote asset units; only MARKET BUY by quoteAmount
  filledQty: bigint; // qty units
  filledQuote: bigint; // quote asset units
  fee: bigint; // in feeAsset units (fee is charged in the asset received)
  feeAsset: string;
  status: OrderStatus;
  createdTs: number;
  updatedTs: number;
}

export interface TradeEvent {
  type: 'trade';
  ts: number;
  tradeId: string; // decimal string, unique and increasing per engine
  symbol: string;
  price: bigint; // price units (always the maker's price)
  quantity: bigint; // qty units
  quoteAmount: bigint; // quote asset units
  takerSide: Side;
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: string;
  takerUserId: string;
  makerFee: bigint;
  makerFeeAsset: string;
  takerFee: bigint;
  takerFeeAsset: string;
}

export type EngineEvent =
  | { type: 'genesis'; ts: number; journalId: string }
  /** A user was registered (registerUser); `profile` as given. */
  | { type: 'userRegistered'; ts: number; userId: string; account: string; uniqueKeys: string[]; profile: Record<string, string> }
  /**
   * A user's profile after an updateUser (every field, not only the changed ones); `addedKeys` the unique keys the
   * command added (absent when none), `audit` the command's audit record as given (absent when none).
   */
  | { type: 'userUpdated'; ts: number; userId: string; profile: Record<string, string>; addedKeys?: string[]; audit?: Record<string, string> }
  | { type: 'assetAdded'; ts: number; asset: Asset }
  | { type: 'marketAdded'; ts: number; market: MarketConfig }
  | { type: 'marketStatusChanged'; ts: number; symbol: string; status: MarketStatus }
  | { type: 'orderAccepted'; ts: number; order: OrderView }
  /** After a fill, cancel or expiry; carries the order's new state. */
  | { type: 'orderUpdated'; ts: number; order: OrderView }
  | TradeEvent
  /** Book change at one price level (for depth deltas): new total quantity at that level (0 = gone). */
  | { type: 'depthChanged'; ts: number; symbol: string; side: Side; price: bigint; quantity: bigint }
  /** A user's (or system account's) balance after a change. */
  | {
      type: 'balanceChanged';
      ts: number;
      owner: string;
      account: AccountKind | 'SYSTEM';
      asset: string;
      available: bigint;
      frozen: bigint;
    };

/** What `execute` returns for one command. */
export interface CommandResult {
  code: ResultCode;
  events: EngineEvent[];
  /**
   * For placeOrder/cancelOrder: the order after the command (also on idempotent replay while the
   * engine still retains the order; see `duplicateOfOrderId`).
   */
  order?: OrderView;
  /**
   * Set only on a placeOrder that repeated the (userId, clientOrderId) of an accepted order (code
   * 'ok', no events, nothing changed): that first order's id. `order` is absent when the engine no
   * longer retains the order (ended long ago); read it from the order history then.
   */
  duplicateOfOrderId?: string;
  /** For registerUser: the id assigned (also for updateUser: the user). */
  userId?: string;
}

export interface Balance {
  available: bigint;
  frozen: bigint;
}

export interface DepthLevel {
  price: bigint;
  quantity: bigint;
}
