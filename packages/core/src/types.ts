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
import type { OtcCommand, OtcEvent, OtcOrderView } from './otc/types';
import type { PerpCommand, PerpEvent, PerpOrderView } from './perp/types';
import type { MarketStatus, OrderStatus, OrderType, Side, StpMode, TimeInForce } from './order-terms';
import type { Amount, Price, Quantity } from '@exchange/money';
import type { ActivityCommand, ActivityEvent } from './activity/types';
import type { RebateCommand, RebateEvent } from './rebate/types';
import type { RejectCode, ResultCode } from './reject-codes';

/** The four per-user accounts of the spec (section 3, "Account types"). */
export type AccountKind = 'ASSETS' | 'SPOT' | 'CONTRACT' | 'OTC';
export const ACCOUNT_KINDS: readonly AccountKind[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];

/**
 * System accounts (owner ids starting with `@`), which may go negative: `@faucet` issues demo funds,
 * `@chain` stands for the chain wallets (deposits in, withdrawals out), `@fee` collects trading fees,
 * `@insurance` is the insurance fund. For every asset the sum over all accounts is always zero.
 */
export type SystemAccount = '@faucet' | '@chain' | '@fee' | '@insurance';
/**
 * System accounts of the perpetual markets (perp/types.ts): '@clearing' pays and receives realized PnL, '@funding'
 * passes funding between longs and shorts (keeping the rounding dust). Not sources of deposits.
 */
export type PerpSystemAccount = '@clearing' | '@funding';

/** A coin. `scale` = number of decimal places of its smallest unit (USDT 8, BTC 8, ...). */
export interface Asset {
  code: string;
  scale: number;
}

/** A spot market. All integers as described at the top of this file. Fee rates in ppm (1000 = 0.1%). */
export interface MarketConfig {
  symbol: string; // "BTC/USDT"
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: Price; // in price units
  stepSize: Quantity; // in qty units
  minQty: Quantity; // in qty units
  minNotional: Amount; // in quote asset units
  makerFeePpm: number;
  takerFeePpm: number;
  status: MarketStatus;
}

export type { MarketStatus, OrderStatus, OrderType, Side, StpMode, TimeInForce } from './order-terms';

/** What every command carries. */
export interface CommandBase {
  /** Unix ms, assigned by the sequencer. */
  ts: number;
}

/**
 * The commands of machines the engine is given by its host (machine.ts), declared by each machine's file into this
 * interface by declaration merging, keyed by command type (`interface MachineCommands { tip: CommandBase & { type:
 * 'tip'; ... } }`): they join `Command` without an edit here. Empty in the core itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface MachineCommands {}
/**
 * The events of the given machines, declared the same way, keyed by event type (`interface MachineEvents { tipSent:
 * { type: 'tipSent'; ts: number; ... } }`): they join `EngineEvent`. Empty in the core itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface MachineEvents {}

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
      amount: Amount;
      from: SystemAccount;
      ref?: string;
    })
  /**
   * Move available funds between two of a user's accounts. `clientId` is an idempotency key. Out of CONTRACT in a
   * perpetuals' settle asset, at most the max withdraw amount (PerpAccountView.maxWithdrawAmount: cross unrealized
   * losses counted), else insufficient_balance.
   */
  | (CommandBase & {
      type: 'transfer';
      userId: string;
      asset: string;
      from: AccountKind;
      to: AccountKind;
      amount: Amount;
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
      price?: Price;
      quantity?: Quantity;
      quoteAmount?: Amount;
      clientOrderId?: string;
      stp?: StpMode;
      /**
       * A conditional order (docs/conditional-orders.md): with `condition`, the order waits (status NEW, not in the
       * book, its funds held) until the market's last trade price meets its stop condition, then works as the
       * LIMIT or MARKET order it describes (Binance STOP_LOSS_LIMIT = LIMIT + STOP_LOSS, TAKE_PROFIT = MARKET +
       * TAKE_PROFIT ...). Needs `stopPrice` (price units, on the tick) and/or `trailingDelta` (basis points, 10 to
       * 2000 here: Binance's TRAILING_DELTA filter range); not with POST_ONLY.
       */
      condition?: StopKind;
      stopPrice?: Price;
      trailingDelta?: number;
    })
  /**
   * Cancel by orderId or by clientOrderId; only the owner can cancel. Cancelling a leg of an order list cancels the
   * other leg too (docs/conditional-orders.md, OCO).
   */
  | (CommandBase & { type: 'cancelOrder'; userId: string; orderId?: string; clientOrderId?: string })
  /**
   * An OCO order list (Binance `POST /api/v3/orderList/oco`; docs/conditional-orders.md, OCO): two legs of `quantity`
   * (qty units) on one side, one above and one below the last price; when one leg fills (even partly) or triggers, the
   * other is cancelled in the same command. SELL: `above` LIMIT_MAKER, TAKE_PROFIT or TAKE_PROFIT_LIMIT, `below`
   * STOP_LOSS or STOP_LOSS_LIMIT; BUY: `above` STOP_LOSS or STOP_LOSS_LIMIT, `below` LIMIT_MAKER, TAKE_PROFIT or
   * TAKE_PROFIT_LIMIT. The funds are held once for the list. `listClientOrderId` (at most 36 characters) makes a
   * retry return the first list while it is retained.
   */
  | (CommandBase & {
      type: 'placeOrderList';
      userId: string;
      symbol: string;
      contingencyType: 'OCO';
      side: Side;
      quantity: Quantity;
      above: OcoLeg;
      below: OcoLeg;
      listClientOrderId?: string;
      stp?: StpMode;
    })
  /**
   * Binance spot "Cancel an Existing Order and Send a New Order" (POST /api/v3/order/cancelReplace) as one command, so
   * that no other command lands between its two steps (docs/binance-api.md). 1. The cancel: the user's open order of
   * `symbol` named by `cancelOrderId` or `cancelClientOrderId` (both: the order by id, whose client order id must be
   * the one given), as cancelOrder cancels it (a leg of an order list takes the list with it); with
   * `cancelRestriction` only while its status is NEW (ONLY_NEW), resp. PARTIALLY_FILLED (ONLY_PARTIALLY_FILLED). 2.
   * The new order: `order` placed as a placeOrder of the same user and symbol (its checks, idempotency and result),
   * against the balance after the cancel, so it may use the funds the cancelled order held. `mode` STOP_ON_FAILURE: a
   * failed cancel places nothing; ALLOW_FAILURE: the order is placed whatever the cancel's outcome. A placement refused
   * after a successful cancel leaves the order cancelled (Binance: -2021 partial failure). The result's
   * `cancelReplace` gives each step's outcome and `order` the new order; the code is 'ok' when a step succeeded (the
   * state changed), otherwise the cancel's code (nothing changed).
   */
  | (CommandBase & {
      type: 'cancelReplaceOrder';
      userId: string;
      symbol: string;
      mode: CancelReplaceMode;
      cancelOrderId?: string;
      cancelClientOrderId?: string;
      cancelRestriction?: 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED';
      order: CancelReplaceNewOrder;
    })
  /** Cancel an order list (both its open legs) by orderListId or listClientOrderId; only the owner can cancel. */
  | (CommandBase & { type: 'cancelOrderList'; userId: string; orderListId?: string; listClientOrderId?: string })
  /**
   * Credit an on-chain deposit (wallet): `amount` moves from `@chain` to the user's ASSETS account
   * (available). Idempotent for ever by (chain, txHash, logIndex): a repeat returns 'ok', no events, `duplicate` true.
   * `logIndex` is the ERC-20 Transfer log's index in its block, or -1 for a native transfer (one per tx).
   * `txHash` 0x + 64 lowercase hex; `address` the deposit address (0x + 40 hex, as the chain gave it).
   */
  | (CommandBase & { type: 'creditDeposit' } & DepositCredit)
  /**
   * A withdrawal request: `amount` (what leaves the user's ASSETS account, fee included; the chain receives
   * `amount - fee`) is held at once. Refused for a frozen user (account_frozen), while the user's profile field
   * `withdrawLockUntil` (Unix ms) is after `ts` (withdrawal_locked), or when the user's withdrawals of this asset
   * requested on the UTC day of `ts` (not rejected or failed) plus `amount` exceed `dailyLimit` (daily_limit_exceeded).
   * Idempotent by (userId, clientId) within the idempotency window: a repeat returns 'ok', no events, and the first
   * withdrawal in `withdrawal` (with `duplicate` true). The engine assigns `withdrawalId` ("1", "2", ...). The new
   * withdrawal is REVIEW when `approvalsRequired` > 0, else APPROVED.
   */
  | (CommandBase & {
      type: 'requestWithdrawal';
      userId: string;
      asset: string;
      chain: string;
      address: string;
      amount: Amount;
      fee: bigint;
      clientId: string;
      approvalsRequired: number;
      dailyLimit: bigint;
    })
  /** An operator approves a REVIEW withdrawal; once `approvalsRequired` different operators approved, it is APPROVED. */
  | (CommandBase & { type: 'approveWithdrawal'; withdrawalId: string; operatorId: string; audit?: Record<string, string> })
  /**
   * Reject a withdrawal not yet broadcast (REVIEW or APPROVED): REJECTED, the hold released. By an operator
   * (`operatorId`), or by its owner cancelling (`userId` given: must be the owner, and only while REVIEW).
   */
  | (CommandBase & {
      type: 'rejectWithdrawal';
      withdrawalId: string;
      reason: string;
      operatorId?: string;
      userId?: string;
      audit?: Record<string, string>;
    })
  /**
   * Journal the signed transaction before it is sent (APPROVED -> BROADCASTING): the hot wallet `from`, its `nonce`,
   * the `txHash` and the signed `rawTx` (0x hex), so a restart re-sends the same transaction and never signs twice.
   */
  | (CommandBase & { type: 'broadcastWithdrawal'; withdrawalId: string; from: string; nonce: number; txHash: string; rawTx: string })
  /** The transaction was seen in block `blockNumber` (BROADCASTING or CONFIRMING -> CONFIRMING; a reorg may move it). */
  | (CommandBase & { type: 'withdrawalMined'; withdrawalId: string; blockNumber: number })
  /**
   * Enough confirmations of a successful transaction (BROADCASTING or CONFIRMING -> COMPLETED): the hold leaves the
   * user, `amount - fee` to `@chain` and `fee` to `@fee`.
   */
  | (CommandBase & { type: 'completeWithdrawal'; withdrawalId: string; blockNumber: number })
  /**
   * The withdrawal cannot complete (APPROVED, BROADCASTING or CONFIRMING -> FAILED), e.g. its transaction reverted:
   * the hold is released. Only for a transaction known not to have moved the funds.
   */
  | (CommandBase & { type: 'failWithdrawal'; withdrawalId: string; reason: string })
  /**
   * The wallet's public identity, recorded at the first start of the chain side: `xpubFingerprint` is the SHA-256
   * (64 lowercase hex) of the deposit account's extended public key, from which every deposit address derives. The
   * first one is kept for ever; the same again is ok and changes nothing; another is wallet_identity_mismatch (a start
   * on a different seed, which would change the hot wallet and every deposit address, is refused by the server).
   */
  | (CommandBase & { type: 'walletIdentity'; xpubFingerprint: string })
  /** The perpetual contracts' commands (perp/types.ts). */
  | PerpCommand
  /** The peer-to-peer fiat (OTC) commands (otc/types.ts). */
  | OtcCommand
  /** The activities' commands (activity/types.ts). */
  | ActivityCommand
  /** The invitation rebates' daily settlement (rebate/types.ts). */
  | RebateCommand
  /**
   * Convert (spot/convert.ts): a MARKET IOC order of `userId`'s SPOT account on `symbol`, SELL `amount`
   * base units or BUY with `amount` quote units, refused with convert_quote_expired when `ts` > `expiresTs` and with
   * convert_slippage when the user would receive less than `minReceive` (units of the received asset, fee taken off);
   * otherwise the placeOrder's own checks and result. `clientId` (at most 36 characters) is the order's client order
   * id: a repeat returns the first order (`duplicateOfOrderId`).
   */
  | (CommandBase & { type: 'convert'; userId: string; symbol: string; side: Side; amount: Amount; minReceive: Amount; expiresTs: number; clientId: string })
  /** The commands of the machines the engine is given by its host (MachineCommands). */
  | MachineCommands[keyof MachineCommands];

export type CommandType = Command['type'];

// Rejections, a closed union: reject-codes.ts (a file of its own, so the domains' types import it without a circle).
export { REJECT_CODES, type MachineRejectCodes, type RejectCode, type ResultCode } from './reject-codes';

/** An order as the engine sees it; returned in results and carried by order events. */
export interface OrderView {
  orderId: string; // decimal string of the engine's sequence, unique and increasing
  clientOrderId: string | null;
  userId: string;
  symbol: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: Price | null; // price units; null for MARKET
  quantity: Quantity | null; // qty units; null for MARKET BUY by quoteAmount
  quoteAmount: Amount | null; // quote asset units; only MARKET BUY by quoteAmount
  filledQty: Quantity; // qty units
  filledQuote: bigint; // quote asset units
  fee: bigint; // in feeAsset units (fee is charged in the asset received)
  feeAsset: string;
  status: OrderStatus;
  createdTs: number;
  updatedTs: number;
  /** Only on a conditional order (placeOrder `condition`): its condition and trigger state (absent on others). */
  trigger?: OrderTriggerView;
  /** Only on a leg of an order list (placeOrderList): the list's id (absent on other orders). */
  orderListId?: string;
}

/**
 * A leg type of an OCO (Binance aboveType / belowType): LIMIT_MAKER is a POST_ONLY LIMIT resting at `price`;
 * STOP_LOSS and TAKE_PROFIT are conditional MARKET orders at `stopPrice`; the _LIMIT kinds conditional LIMIT orders
 * (`price` and `stopPrice`, `timeInForce` GTC by default, IOC or FOK).
 */
export type OcoLegType = 'LIMIT_MAKER' | 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';

/** One leg of a placeOrderList (prices in price units, on the tick; Binance abovePrice, aboveStopPrice ...). */
export interface OcoLeg {
  type: OcoLegType;
  price?: Price;
  stopPrice?: Price;
  timeInForce?: 'GTC' | 'IOC' | 'FOK';
  /** The leg's clientOrderId (Binance aboveClientOrderId / belowClientOrderId), at most 36 characters. */
  clientOrderId?: string;
}

/** An order list with its retained legs' views, above first (the engine's list reads). */
export interface OrderListWithOrders {
  orderList: OrderListView;
  listOrders: OrderView[];
}

/**
 * An order list as the engine sees it (Binance's orderList response and listStatus stream). `listStatusType` and
 * `listOrderStatus` are EXEC_STARTED / EXECUTING while both legs are open and untouched, ALL_DONE / ALL_DONE once one
 * leg filled, triggered or ended and the other was cancelled (or both were cancelled). REJECT is Binance's answer to
 * a failed action; this engine answers those with a result code and never stores it.
 */
export interface OrderListView {
  orderListId: string;
  listClientOrderId: string | null;
  contingencyType: 'OCO';
  userId: string;
  symbol: string;
  side: Side;
  listStatusType: 'EXEC_STARTED' | 'ALL_DONE';
  listOrderStatus: 'EXECUTING' | 'ALL_DONE' | 'REJECT';
  /** the above leg's and the below leg's order ids */
  aboveOrderId: string;
  belowOrderId: string;
  createdTs: number;
  /** Binance transactionTime: when the list last changed status */
  updatedTs: number;
}

/** Binance's cancelReplaceMode: STOP_ON_FAILURE places nothing when the cancel fails; ALLOW_FAILURE places anyway. */
export type CancelReplaceMode = 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';

/** The new order of a cancelReplaceOrder: a placeOrder's terms (types.ts placeOrder), on the command's user and symbol. */
export type CancelReplaceNewOrder = Omit<Extract<Command, { type: 'placeOrder' }>, 'type' | 'ts' | 'userId' | 'symbol'>;

/**
 * The two steps of a cancelReplaceOrder (Binance's cancelResult and newOrderResult). `cancelCode` is 'ok' or why the
 * cancel failed (order_not_found: unknown, another user's or another market's, ended, or, with `cancelRestricted`
 * true, open but not in the status the restriction asks for; invalid_order: the two names disagree); `canceledOrder`
 * the cancelled order's view (SUCCESS only). `newOrderCode` is the placement's code ('ok' on SUCCESS), null when it
 * was NOT_ATTEMPTED; the placed order is the result's `order` (with `duplicateOfOrderId` as placeOrder gives it).
 */
export interface CancelReplaceOutcome {
  cancelResult: 'SUCCESS' | 'FAILURE';
  cancelCode: ResultCode;
  cancelRestricted: boolean;
  canceledOrder: OrderView | null;
  newOrderResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  newOrderCode: ResultCode | null;
}

/** The two conditional kinds (Binance STOP_LOSS[_LIMIT] and TAKE_PROFIT[_LIMIT]; LIMIT or MARKET is `orderType`). */
export type StopKind = 'STOP_LOSS' | 'TAKE_PROFIT';

/**
 * A conditional order's trigger part (docs/conditional-orders.md). While `workingTs` is null the order is pending
 * (status NEW, not in the book: Binance's untriggered NEW); from `workingTs` (Binance workingTime) it is the working
 * LIMIT or MARKET order with the same orderId. `expireReason` is set when the order expired at its trigger because it
 * could not be placed (insufficient_balance, no_liquidity, notional_below_minimum, market_halted).
 */
export interface OrderTriggerView {
  kind: StopKind;
  stopPrice: Price | null; // price units
  trailingDelta: number | null; // basis points
  /** For a trailing order tracking prices: the highest (SELL) or lowest (BUY) last price since tracking began; else null. */
  trailingRef: bigint | null;
  workingTs: number | null;
  expireReason: RejectCode | null;
}

export interface TradeEvent {
  type: 'trade';
  ts: number;
  tradeId: string; // decimal string, unique and increasing per engine
  symbol: string;
  price: Price; // price units (always the maker's price)
  quantity: Quantity; // qty units
  quoteAmount: Amount; // quote asset units
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

/** Withdrawal states. REVIEW: waiting for operator approvals; APPROVED: waiting to be signed and sent. */
export type WithdrawalState = 'REVIEW' | 'APPROVED' | 'BROADCASTING' | 'CONFIRMING' | 'COMPLETED' | 'REJECTED' | 'FAILED';

/** A withdrawal as the engine sees it; amounts in the asset's smallest unit. */
export interface WithdrawalView {
  withdrawalId: string;
  userId: string;
  clientId: string;
  asset: string;
  chain: string;
  address: string;
  /** debited from the user, fee included */
  amount: Amount;
  fee: bigint;
  state: WithdrawalState;
  approvalsRequired: number;
  /** operator ids that approved, in order */
  approvals: string[];
  /** hot wallet address, nonce, hash and signed tx once BROADCASTING */
  from: string | null;
  nonce: number | null;
  txHash: string | null;
  rawTx: string | null;
  blockNumber: number | null;
  /** reject or failure reason */
  reason: string | null;
  /** the operator who rejected, or null (also when the owner cancelled) */
  rejectedBy: string | null;
  createdTs: number;
  updatedTs: number;
}

/** A chain deposit to credit (creditDeposit's fields, carried by its depositCredited event). Amount in asset units. */
export interface DepositCredit {
  userId: string;
  asset: string;
  amount: Amount;
  chain: string;
  txHash: string;
  logIndex: number;
  address: string;
  blockNumber: number;
}

export type EngineEvent =
  | { type: 'genesis'; ts: number; journalId: string }
  /** The events of the machines the engine is given by its host (MachineEvents). */
  | MachineEvents[keyof MachineEvents]
  /** The perpetual contracts' events (perp/types.ts). */
  | PerpEvent
  /** The OTC events (otc/types.ts). */
  | OtcEvent
  /** The activities' events (activity/types.ts). */
  | ActivityEvent
  /** The invitation rebates' events (rebate/types.ts). */
  | RebateEvent
  /** A chain deposit was credited (creditDeposit). */
  | { type: 'depositCredited'; ts: number; deposit: DepositCredit }
  /** A withdrawal was created or changed state; carries its new view (audit: the command's audit record, if any). */
  | { type: 'withdrawalUpdated'; ts: number; withdrawal: WithdrawalView; audit?: Record<string, string> }
  /** A transfer between two of a user's accounts (transfer command). */
  | { type: 'transferred'; ts: number; userId: string; asset: string; from: AccountKind; to: AccountKind; amount: Amount; clientId: string | null }
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
  /** An order list was placed or changed status (after its legs' own order events). */
  | { type: 'orderListUpdated'; ts: number; orderList: OrderListView }
  | TradeEvent
  /** Book change at one price level (for depth deltas): new total quantity at that level (0 = gone). */
  | { type: 'depthChanged'; ts: number; symbol: string; side: Side; price: Price; quantity: Quantity }
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
   * engine still retains the order; see `duplicateOfOrderId`); for cancelReplaceOrder the new order.
   */
  order?: OrderView;
  /**
   * Set only on a placeOrder that repeated the (userId, clientOrderId) of an accepted order (code
   * 'ok', no events, nothing changed): that first order's id. `order` is absent when the engine no
   * longer retains the order (ended long ago); read it from the order history then.
   */
  duplicateOfOrderId?: string;
  /** For placeOrderList/cancelOrderList: the list after the command (also on a repeat while it is retained). */
  orderList?: OrderListView;
  /** For placeOrderList/cancelOrderList: the list's legs after the command, above leg first. */
  listOrders?: OrderView[];
  /** For cancelReplaceOrder: each step's outcome (the new order is `order`). */
  cancelReplace?: CancelReplaceOutcome;
  /** For registerUser: the id assigned (also for updateUser: the user). */
  userId?: string;
  /**
   * For creditDeposit, requestWithdrawal, otcPublishAd, otcTakeAd and placeOrderList: true when the command repeated an
   * accepted one (nothing changed).
   */
  duplicate?: boolean;
  /** For the withdrawal commands: the withdrawal after the command (the first one on a duplicate request). */
  withdrawal?: WithdrawalView;
  /** For perpPlaceOrder/perpCancelOrder: the order after the command (as `order` for spot). */
  perpOrder?: PerpOrderView;
  /** For the OTC order commands: the order after the command (the first one on a duplicate otcTakeAd while it is open). */
  otcOrder?: OtcOrderView;
}

export interface Balance {
  available: bigint;
  frozen: bigint;
}

export interface DepthLevel {
  price: Price;
  quantity: Quantity;
}
