/**
 * Wire schemas of the USDT perpetual contracts' private screens (spec sections 2 "contract trade screen,
 * contract list tabs", 3 "contract order, position", 4 "contract order statuses, position closing", 5 "TP/SL and
 * limit price rules", 9 "1000 USDT per lot, 50% deviation, liquidation at risk level 100%").
 * Public market data of the contracts (mark, index, funding, depth) is in contract-market.ts.
 *
 * Routes: app API style under `/api/contract/contract/...` (CONTRACT_PATHS), envelope, headers token/userId, POST
 * bodies form-encoded or JSON. Amounts (USDT), prices and quantities travel as decimal strings at the market's
 * precision: prices at priceDecimals, quantities in the base coin at qtyDecimals, amounts in the settle asset at its
 * scale (USDT: 8); signed values carry a leading '-'. Rates are percent strings: "12.34" means 12.34%. Lots ("hands")
 * are integers: one lot is a face value of 1,000 USDT at the order's price (quantity = lots x 1000 / price, rounded
 * down to the step; packages/core perp/math.ts lotsToQty). Times are Unix ms, 0 when not (yet) applicable. A value
 * that does not apply is '' (a MARKET order's price, a position without take profit).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString, OrderSide, Paged, PairsName } from './schemas';

/** Paths of the contract API, relative to `/api/`. */
export const CONTRACT_PATHS = {
  getAccount: 'contract/contract/getAccount',
  getPositions: 'contract/contract/getPositions',
  getSettings: 'contract/contract/getSettings',
  setLeverage: 'contract/contract/setLeverage',
  setMarginMode: 'contract/contract/setMarginMode',
  adjustMargin: 'contract/contract/adjustMargin',
  setTpSl: 'contract/contract/setTpSl',
  placeOrder: 'contract/contract/placeOrder',
  closePosition: 'contract/contract/closePosition',
  cancelOrder: 'contract/contract/cancelOrder',
  getOrders: 'contract/contract/getOrders',
  getOrderDetail: 'contract/contract/getOrderDetail',
  getFundingRecords: 'contract/contract/getFundingRecords',
  getLiquidations: 'contract/contract/getLiquidations',
  leveragePreview: 'contract/contract/leveragePreview',
  placeConditionalOrder: 'contract/contract/placeConditionalOrder',
  getConditionalOrders: 'contract/contract/getConditionalOrders',
  cancelConditionalOrder: 'contract/contract/cancelConditionalOrder',
} as const;
export type ContractPath = (typeof CONTRACT_PATHS)[keyof typeof CONTRACT_PATHS];

/** A signed decimal string as typed by a user ("-12.5" removes margin). */
export const SignedDecimalString = Type.String({ pattern: '^-?[0-9]{1,30}(\\.[0-9]{1,30})?$', maxLength: 64 });
/** A price field that may be cleared: a decimal, or '' (clear). */
export const OptionalPrice = Type.Union([DecimalString, Type.Literal('')]);

export const PositionSide = Type.Union([Type.Literal('LONG'), Type.Literal('SHORT')]);
export type PositionSide = Static<typeof PositionSide>;
export const MarginMode = Type.Union([Type.Literal('CROSS'), Type.Literal('ISOLATED')]);
export type MarginMode = Static<typeof MarginMode>;
/** Spec section 3 "trade type": open long, open short, close long, close short, force close, normal close (TP/SL). */
export const ContractTradeType = Type.Union([
  Type.Literal('OPEN_LONG'),
  Type.Literal('OPEN_SHORT'),
  Type.Literal('CLOSE_LONG'),
  Type.Literal('CLOSE_SHORT'),
  Type.Literal('FORCE_CLOSE'),
  Type.Literal('NORMAL_CLOSE'),
]);
export type ContractTradeType = Static<typeof ContractTradeType>;
/** Why the engine placed the order itself ('' for the user's own order). */
export const ContractTrigger = Type.Union([
  Type.Literal(''),
  Type.Literal('TAKE_PROFIT'),
  Type.Literal('STOP_LOSS'),
  Type.Literal('LIQUIDATION'),
  Type.Literal('ADL'),
]);
export type ContractTrigger = Static<typeof ContractTrigger>;
/**
 * Order status, as the engine's: NEW = pending, PARTIALLY_FILLED, FILLED, CANCELED (by the user, or the rest of a
 * partially filled order), EXPIRED (a MARKET rest or a reduce-only order whose position is gone). Spec section 4
 * shows filled, cancelled (CANCELED and EXPIRED), partially filled, pending.
 */
export const ContractOrderStatus = Type.Union([
  Type.Literal('NEW'),
  Type.Literal('PARTIALLY_FILLED'),
  Type.Literal('FILLED'),
  Type.Literal('CANCELED'),
  Type.Literal('EXPIRED'),
]);
export type ContractOrderStatus = Static<typeof ContractOrderStatus>;

// ---------------------------------------------------------------- account, positions, settings

/**
 * Answer of GET getAccount: the caller's contract account in USDT (the CONTRACT ledger account at the current mark
 * prices; the engine's PerpAccountView). Funds come in by asset/wallet/transfer (ASSETS or SPOT -> CONTRACT).
 */
export const ContractAccount = Type.Object({
  /** settle coin, "USDT" */
  coin: Type.String(),
  /** CONTRACT account available (ledger) */
  available: Type.String(),
  /** CONTRACT account frozen: margin of positions and of open orders */
  frozen: Type.String(),
  /** available + frozen */
  walletBalance: Type.String(),
  /** wallet less isolated positions' margins */
  crossWalletBalance: Type.String(),
  /** unrealized PnL of cross positions at the mark */
  crossUnrealizedPnl: Type.String(),
  /** cross wallet + cross unrealized PnL */
  crossMarginBalance: Type.String(),
  crossMaintMargin: Type.String(),
  /** unrealized PnL of every position (cross and isolated) at the mark */
  unrealizedPnl: Type.String(),
  /** wallet + every position's unrealized PnL (equity) */
  marginBalance: Type.String(),
  /** margins of the positions (occupied margin) */
  positionMargin: Type.String(),
  /** margin held by open orders */
  orderMargin: Type.String(),
  /** what a new order may use: available + min(0, cross unrealized PnL), never below 0 (the order form's "available") */
  availableBalance: Type.String(),
  /**
   * what may be transferred out (Binance's max withdraw amount): the wallet less positions' initial margins and
   * orders' holds, plus the cross unrealized loss (a profit never counts), never below 0; the transfer form's maximum
   */
  maxWithdrawAmount: Type.String(),
  /** cross maintenance margin / cross margin balance, percent ("100.00" = liquidation), "0.00" without positions */
  riskLevel: Type.String(),
  /** the same, ppm (1,000,000 = 100%) */
  riskLevelPpm: Type.Integer(),
});
export type ContractAccount = Static<typeof ContractAccount>;

/** Spec section 3 "Position", with what the screens need to show and edit it. */
export const ContractPosition = Type.Object({
  symbol: Type.String(),
  /** base coin "BTC", settle coin "USDT" */
  base: Type.String(),
  quote: Type.String(),
  priceDecimals: Type.Integer(),
  qtyDecimals: Type.Integer(),
  side: PositionSide,
  marginMode: MarginMode,
  leverage: Type.Integer(),
  /** position size in the base coin (zero, "0.000", in a push: the position was closed) */
  quantity: Type.String(),
  /** hands: whole lots the position is worth at the mark price (qtyToLots) */
  lots: Type.Integer(),
  /** average open price */
  avgPrice: Type.String(),
  markPrice: Type.String(),
  /** size x mark, USDT */
  positionValue: Type.String(),
  /** at the mark, USDT, signed */
  unrealizedPnl: Type.String(),
  /** unrealized PnL / occupied margin, percent, signed */
  yieldRate: Type.String(),
  /** occupied margin, USDT */
  margin: Type.String(),
  /**
   * isolated: the most margin that may be removed now, USDT (perp/math.ts maxRemovableMargin at the mark: what keeps
   * margin + unrealized loss at the initial margin); '' for a cross position
   */
  maxRemovableMargin: Type.String(),
  /** maintenance margin at the mark, USDT */
  maintMargin: Type.String(),
  /**
   * estimated liquidation price (perp/math.ts liquidationPrice: isolated over the position's margin; cross over the
   * cross wallet less the other cross positions' maintenance margin plus their unrealized PnL); '' when none exists
   */
  liquidationPrice: Type.String(),
  /** '' when not set */
  takeProfit: Type.String(),
  stopLoss: Type.String(),
  /** realized PnL over the position's life (fees and funding excluded), funding received (+) or paid (-), fees paid */
  realizedPnl: Type.String(),
  funding: Type.String(),
  fees: Type.String(),
  /** the account's risk level in the position's scope (cross: the account's; isolated: the position's), percent */
  riskLevel: Type.String(),
  openTime: Type.Number(),
  updateTime: Type.Number(),
});
export type ContractPosition = Static<typeof ContractPosition>;

export const ContractSymbolQuery = Type.Object({ symbol: PairsName });
export type ContractSymbolQuery = Static<typeof ContractSymbolQuery>;
export const ContractPositionsQuery = Type.Object({ symbol: Type.Optional(PairsName) });
export type ContractPositionsQuery = Static<typeof ContractPositionsQuery>;
/** Answer of GET getPositions: the caller's open positions (market order). */
export const ContractPositions = Type.Array(ContractPosition);

/** One risk-limit tier (Binance leverage bracket) of a market. */
export const ContractBracket = Type.Object({
  /** lower bound (exclusive) and upper bound (inclusive) of the position value, USDT */
  notionalFloor: Type.String(),
  notionalCap: Type.String(),
  maxLeverage: Type.Integer(),
  /** maintenance margin rate, percent ("0.40") */
  maintMarginRate: Type.String(),
});
export type ContractBracket = Static<typeof ContractBracket>;

/** Answer of GET getSettings (symbol): the caller's leverage and margin mode in a market, and its limits. */
export const ContractSettings = Type.Object({
  symbol: Type.String(),
  leverage: Type.Integer(),
  marginMode: MarginMode,
  /** the first bracket's maximum (the leverage selector's end) */
  maxLeverage: Type.Integer(),
  /** largest position value the current leverage allows, USDT (Binance "maximum position at current leverage") */
  maxNotional: Type.String(),
  brackets: Type.Array(ContractBracket),
  /** fees, percent ("0.0200") */
  makerFeeRate: Type.String(),
  takerFeeRate: Type.String(),
  /** face value of one lot, USDT ("1000") */
  lotNotional: Type.String(),
  priceDecimals: Type.Integer(),
  qtyDecimals: Type.Integer(),
  tickSize: Type.String(),
  stepSize: Type.String(),
  minQty: Type.String(),
  /** a limit price may deviate at most this from the mark price, percent ("50") */
  priceBand: Type.String(),
  /** true when the user has a position or open orders in the market (the margin mode cannot change then) */
  locked: Type.Boolean(),
});
export type ContractSettings = Static<typeof ContractSettings>;

/** Query of GET leveragePreview: the market and the leverage the user is about to set. */
export const LeveragePreviewQuery = Type.Object({ symbol: PairsName, leverage: Type.Integer({ minimum: 1, maximum: 125 }) });
export type LeveragePreviewQuery = Static<typeof LeveragePreviewQuery>;

/**
 * Answer of GET leveragePreview: what setLeverage would do to the caller's position's margin, before it is asked
 * (the leverage sheet shows it). Without a position nothing moves (`hasPosition` false, amounts "0"). A cross
 * position's margin becomes ceil(cost / leverage); an isolated one rises to it on a decrease and on an increase
 * releases at most what margin removal at the new leverage allows (its unrealized loss counted). USDT amounts.
 */
export const LeveragePreview = Type.Object({
  symbol: Type.String(),
  leverage: Type.Integer(),
  hasPosition: Type.Boolean(),
  marginMode: MarginMode,
  /** the position's margin now and after the change */
  margin: Type.String(),
  marginAfter: Type.String(),
  /** marginAfter - margin, signed: > 0 held from the contract account, < 0 released to it */
  marginChange: Type.String(),
  /** the contract account's max withdraw amount (what a rise may take) */
  maxWithdrawAmount: Type.String(),
  /** true when setLeverage would be accepted */
  allowed: Type.Boolean(),
  /** the error code setLeverage would answer ('' when allowed): leverage_too_high, leverage_margin_insufficient */
  code: Type.String(),
  /** that error's message in the caller's language ('' when allowed) */
  message: Type.String(),
});
export type LeveragePreview = Static<typeof LeveragePreview>;

/** POST setLeverage: 1..maxLeverage (leverage_invalid); a position's margin follows (leverage_margin_insufficient). */
export const SetLeverageBody = Type.Object({ symbol: PairsName, leverage: Type.Integer({ minimum: 1, maximum: 125 }) });
export type SetLeverageBody = Static<typeof SetLeverageBody>;
/** POST setMarginMode: refused with a position or open orders in the market (position_exists). */
export const SetMarginModeBody = Type.Object({ symbol: PairsName, marginMode: MarginMode });
export type SetMarginModeBody = Static<typeof SetMarginModeBody>;
/** POST adjustMargin: USDT added (> 0) to or removed (< 0, "-5") from an isolated position's margin. */
export const AdjustMarginBody = Type.Object({ symbol: PairsName, amount: SignedDecimalString });
export type AdjustMarginBody = Static<typeof AdjustMarginBody>;
/**
 * POST setTpSl: the position's take profit and stop loss (triggered by the mark price, closing the whole position).
 * A field left out keeps its value, '' clears it.
 */
export const SetTpSlBody = Type.Object({ symbol: PairsName, takeProfit: Type.Optional(OptionalPrice), stopLoss: Type.Optional(OptionalPrice) });
export type SetTpSlBody = Static<typeof SetTpSlBody>;

// ---------------------------------------------------------------- orders

/**
 * POST placeOrder. side BUY opens a long (or closes a short), SELL the reverse. LIMIT needs price; give `lots`
 * (integer >= 1, turned into a quantity at the limit price, MARKET: at the mark price) or `quantity` (base coin), not
 * both. takeProfit / stopLoss are set on the position when the order fills. reduceOnly orders only close. A repeated
 * clientOrderId returns the first order.
 */
export const PlaceContractOrderBody = Type.Object({
  symbol: PairsName,
  side: OrderSide,
  orderType: Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]),
  price: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  lots: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  quantity: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  takeProfit: Type.Optional(OptionalPrice),
  stopLoss: Type.Optional(OptionalPrice),
  reduceOnly: Type.Optional(Type.Boolean()),
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
});
export type PlaceContractOrderBody = Static<typeof PlaceContractOrderBody>;
/** POST closePosition: a MARKET reduce-only order closing the whole position (one-click close) or `lots` of it. */
export const ClosePositionBody = Type.Object({ symbol: PairsName, lots: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })) });
export type ClosePositionBody = Static<typeof ClosePositionBody>;
/** POST cancelOrder: one of the caller's open contract orders (order_not_found for anyone else's). */
export const CancelContractOrderBody = Type.Object({ orderId: Type.String({ pattern: '^[0-9]{1,20}$' }) });
export type CancelContractOrderBody = Static<typeof CancelContractOrderBody>;

/**
 * Tabs of the order list (spec section 2 "contract list tabs"): matched = orders with fills, unmatched = open orders
 * (pending or partially filled), cancelled = cancelled or expired without any fill, history = every ended order.
 */
export const ContractOrderTab = Type.Union([Type.Literal('matched'), Type.Literal('unmatched'), Type.Literal('cancelled'), Type.Literal('history')]);
export type ContractOrderTab = Static<typeof ContractOrderTab>;
export const GetContractOrdersQuery = Type.Object({
  symbol: Type.Optional(PairsName),
  tab: ContractOrderTab,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type GetContractOrdersQuery = Static<typeof GetContractOrdersQuery>;
export const GetContractOrderDetailQuery = Type.Object({ orderId: Type.String({ pattern: '^[0-9]{1,20}$' }) });

/** Spec section 3 "Contract order" (newest first in lists). */
export const ContractOrder = Type.Object({
  /** order number */
  orderId: Type.String(),
  clientOrderId: Type.String(),
  symbol: Type.String(),
  side: OrderSide,
  orderType: Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]),
  tradeType: ContractTradeType,
  trigger: ContractTrigger,
  reduceOnly: Type.Boolean(),
  leverage: Type.Integer(),
  marginMode: MarginMode,
  /** entrust price, '' for MARKET */
  price: Type.String(),
  /** match price: average fill price, '' before a fill */
  avgPrice: Type.String(),
  /** entrust hands: the lots entered (for an order given as a quantity, its lots at its price) */
  lots: Type.Integer(),
  /** ordered quantity, base coin */
  quantity: Type.String(),
  /** match quantity, base coin */
  filledQty: Type.String(),
  /** filled value (sum of price x quantity of the fills), USDT */
  filledValue: Type.String(),
  /** entrust value: price x quantity (MARKET: the filled value), USDT */
  entrustValue: Type.String(),
  /** revocable hands: unfilled lots of an open order at its price, 0 when ended */
  revocableLots: Type.Integer(),
  /**
   * margin: for an opening order the initial margin of its value at its leverage (entrust value, MARKET: filled
   * value); for a closing order the margin the closed part had (its cost / leverage); USDT
   */
  margin: Type.String(),
  /** margin still held for the unfilled part, USDT */
  hold: Type.String(),
  fee: Type.String(),
  /** profit/loss realized by the order's fills (closing parts), USDT, signed */
  realizedPnl: Type.String(),
  /** profit rate: realized PnL / margin of the closed part, percent, signed ("0.00" for opening orders) */
  profitRate: Type.String(),
  /** take profit and stop loss the order sets on the position when it fills, '' when none */
  takeProfit: Type.String(),
  stopLoss: Type.String(),
  status: ContractOrderStatus,
  /** open time (placed) and close time (ended; 0 while open) */
  openTime: Type.Number(),
  closeTime: Type.Number(),
  updateTime: Type.Number(),
});
export type ContractOrder = Static<typeof ContractOrder>;
export const ContractOrderPage = Paged(ContractOrder);
export type ContractOrderPage = Static<typeof ContractOrderPage>;

/** One fill of a contract order (the caller's side of it). */
export const ContractFill = Type.Object({
  tradeId: Type.String(),
  price: Type.String(),
  quantity: Type.String(),
  /** price x quantity, USDT */
  value: Type.String(),
  fee: Type.String(),
  /** the caller's realized PnL of this fill, USDT, signed */
  realizedPnl: Type.String(),
  role: Type.Union([Type.Literal('MAKER'), Type.Literal('TAKER')]),
  /** BOOK: in the order book; TAKEOVER: taken over by the insurance fund (liquidation); ADL: auto-deleveraged */
  kind: Type.Union([Type.Literal('BOOK'), Type.Literal('TAKEOVER'), Type.Literal('ADL')]),
  time: Type.Number(),
});
export type ContractFill = Static<typeof ContractFill>;
/** Answer of GET getOrderDetail (orderId): the order and its fills, oldest first. */
export const ContractOrderDetail = Type.Composite([ContractOrder, Type.Object({ fills: Type.Array(ContractFill) })]);
export type ContractOrderDetail = Static<typeof ContractOrderDetail>;

// ---------------------------------------------------------------- conditional orders

/**
 * The app's conditional order types, as Binance's futures order form names them, and the engine type each is
 * (docs/perp-conditional-orders.md): STOP_LIMIT = STOP (a LIMIT order at `price` when triggered), STOP_MARKET,
 * TAKE_PROFIT_LIMIT = TAKE_PROFIT, TAKE_PROFIT_MARKET, TRAILING_STOP = TRAILING_STOP_MARKET (a MARKET order when the
 * working price turns back by `callbackRate` from its best since the activation).
 */
export const ContractConditionalType = Type.Union([
  Type.Literal('STOP_LIMIT'),
  Type.Literal('STOP_MARKET'),
  Type.Literal('TAKE_PROFIT_LIMIT'),
  Type.Literal('TAKE_PROFIT_MARKET'),
  Type.Literal('TRAILING_STOP'),
]);
export type ContractConditionalType = Static<typeof ContractConditionalType>;
/** The price a conditional order watches: MARK_PRICE (the mark price) or CONTRACT_PRICE (the last trade price). */
export const ContractWorkingType = Type.Union([Type.Literal('MARK_PRICE'), Type.Literal('CONTRACT_PRICE')]);
export type ContractWorkingType = Static<typeof ContractWorkingType>;

/**
 * POST placeConditionalOrder. No margin is held until it triggers (Binance: "no margin check when placing
 * conditional orders"); at the trigger it is placed as a new order and may expire (insufficient balance, no position,
 * ...). Fields:
 * - `stopPrice`: the trigger price (all but TRAILING_STOP: stop_price_required). STOP types trigger when the working
 *   price reaches it moving against the side (BUY: rises to it, SELL: falls to it), TAKE_PROFIT types the other way;
 *   a price already there is refused (would_trigger_immediately).
 * - `price`: the limit price of STOP_LIMIT and TAKE_PROFIT_LIMIT (price_required), not allowed with the others.
 * - `lots` (integer, 1,000 USDT each at the limit price, else the trigger price, else for a trailing stop the
 *   activation price or the mark price) or `quantity` (base coin), one of them, none with `closePosition`.
 * - `workingType`: default CONTRACT_PRICE (Binance's default, "Last" in its form).
 * - `callbackRate`: TRAILING_STOP only, percent 0.1 to 10 in steps of 0.1 (callback_rate_invalid);
 *   `activationPrice` optional (default: tracking starts now).
 * - `closePosition`: STOP_MARKET and TAKE_PROFIT_MARKET only, without lots, quantity or reduceOnly
 *   (close_position_invalid): closes the whole position at the trigger.
 * - `priceProtect`: not with TRAILING_STOP; holds the trigger while mark and last differ by more than 5%.
 * A repeated clientOrderId answers the first order.
 */
export const PlaceContractConditionalBody = Type.Object({
  symbol: PairsName,
  side: OrderSide,
  type: ContractConditionalType,
  stopPrice: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  price: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  lots: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  quantity: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  workingType: Type.Optional(ContractWorkingType),
  reduceOnly: Type.Optional(Type.Boolean()),
  closePosition: Type.Optional(Type.Boolean()),
  priceProtect: Type.Optional(Type.Boolean()),
  callbackRate: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  activationPrice: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
});
export type PlaceContractConditionalBody = Static<typeof PlaceContractConditionalBody>;
/** POST cancelConditionalOrder: one of the caller's pending conditional orders (order_not_found for anyone else's). */
export const CancelContractConditionalBody = Type.Object({ orderId: Type.String({ pattern: '^[0-9]{1,20}$' }) });
export type CancelContractConditionalBody = Static<typeof CancelContractConditionalBody>;

/**
 * State of a conditional order: PENDING = waiting for its trigger (open); TRIGGERED = placed as the order it became
 * (same orderId; `orderStatus` says how that order stands); CANCELLED = cancelled before its trigger (by the user, or
 * with the user's other orders by a liquidation); EXPIRED = triggered but refused as a new order then (`expireReason`).
 */
export const ContractConditionalState = Type.Union([Type.Literal('PENDING'), Type.Literal('TRIGGERED'), Type.Literal('CANCELLED'), Type.Literal('EXPIRED')]);
export type ContractConditionalState = Static<typeof ContractConditionalState>;
/** GET getConditionalOrders: `open` = pending ones (oldest first, as the engine holds them), `history` = the others, newest first. */
export const GetContractConditionalQuery = Type.Object({
  symbol: Type.Optional(PairsName),
  tab: Type.Union([Type.Literal('open'), Type.Literal('history')]),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type GetContractConditionalQuery = Static<typeof GetContractConditionalQuery>;

/** One conditional order of the caller. Prices at the market's priceDecimals, quantities at qtyDecimals. */
export const ContractConditionalOrder = Type.Object({
  orderId: Type.String(),
  clientOrderId: Type.String(),
  symbol: Type.String(),
  side: OrderSide,
  type: ContractConditionalType,
  /** the order it becomes when triggered */
  orderType: Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]),
  state: ContractConditionalState,
  /** trigger price, '' for a trailing stop */
  stopPrice: Type.String(),
  /** limit price, '' for the MARKET types */
  price: Type.String(),
  workingType: ContractWorkingType,
  /** base coin; for closePosition "0" until the trigger, then the position's size it took */
  quantity: Type.String(),
  /** the lots entered, 0 when given as a quantity */
  lots: Type.Integer(),
  reduceOnly: Type.Boolean(),
  closePosition: Type.Boolean(),
  priceProtect: Type.Boolean(),
  /** trailing stop: callback rate, percent ("1.0"), activation price and the best working price since it (''), else '' */
  callbackRate: Type.String(),
  activationPrice: Type.String(),
  trailingRef: Type.String(),
  /** the triggered order's status and fills (NEW while pending) */
  orderStatus: ContractOrderStatus,
  filledQty: Type.String(),
  /** average fill price, '' before a fill */
  avgPrice: Type.String(),
  /** why it expired at its trigger (an error code of errors.ts: insufficient_balance, no_position, ...), else '' */
  expireReason: Type.String(),
  /** that reason in the caller's language, else '' */
  expireMessage: Type.String(),
  createTime: Type.Number(),
  /** when it triggered, 0 while pending or cancelled before */
  triggerTime: Type.Number(),
  updateTime: Type.Number(),
});
export type ContractConditionalOrder = Static<typeof ContractConditionalOrder>;
export const ContractConditionalPage = Paged(ContractConditionalOrder);
export type ContractConditionalPage = Static<typeof ContractConditionalPage>;

// ---------------------------------------------------------------- funding and liquidations

export const ContractRecordsQuery = Type.Object({
  symbol: Type.Optional(PairsName),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type ContractRecordsQuery = Static<typeof ContractRecordsQuery>;

/** One funding payment of the caller's position (newest first). */
export const ContractFundingRecord = Type.Object({
  symbol: Type.String(),
  /** the funding time (a multiple of 8 h) */
  fundingTime: Type.Number(),
  /** funding rate, percent, signed ("0.010000") */
  rate: Type.String(),
  /** USDT, signed: negative paid, positive received */
  amount: Type.String(),
  time: Type.Number(),
});
export type ContractFundingRecord = Static<typeof ContractFundingRecord>;
export const ContractFundingPage = Paged(ContractFundingRecord);
export type ContractFundingPage = Static<typeof ContractFundingPage>;

/** One liquidation of the caller (forced close at risk level 100%), newest first. */
export const ContractLiquidation = Type.Object({
  symbol: Type.String(),
  marginMode: MarginMode,
  side: PositionSide,
  /** the position's size, base coin */
  quantity: Type.String(),
  /** mark price at the liquidation */
  markPrice: Type.String(),
  /** the equity in scope before the liquidation, USDT, signed (negative after a gap) */
  equity: Type.String(),
  /** what the insurance fund received from it (negative: what it paid), USDT */
  insuranceDelta: Type.String(),
  time: Type.Number(),
});
export type ContractLiquidation = Static<typeof ContractLiquidation>;
export const ContractLiquidationPage = Paged(ContractLiquidation);
export type ContractLiquidationPage = Static<typeof ContractLiquidationPage>;

// ---------------------------------------------------------------- WebSocket (private channels after auth)

/**
 * Private pushes of the contracts (ws.ts): 'contractOrders' (an order of the caller after it was accepted, filled,
 * cancelled or expired), 'positions' (a position after a change; quantity zero: closed) and 'contractAccount' (the
 * account after a change of its balance). Mark-price moves are not pushed per user: clients recompute the
 * unrealized PnL from the public mark price, or re-read getPositions.
 */
export type ContractWsMessage =
  { channel: 'contractOrders'; data: ContractOrder } | { channel: 'positions'; data: ContractPosition } | { channel: 'contractAccount'; data: ContractAccount };
