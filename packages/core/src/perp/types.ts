/**
 * The perpetual contracts' part of the engine contract: linear USDT-margined perpetual markets, their
 * commands, events and views. Units as in types.ts: prices in 10^-priceDecimals of the settle asset (USDT) per one
 * base coin, quantities in 10^-qtyDecimals of the base coin, amounts in the settle asset's smallest unit ("quote
 * units"). A perpetual market requires priceDecimals + qtyDecimals <= settle.scale, so price * qty converts to
 * quote units exactly. Rates: fees and margin rates in ppm (1 = 0.0001%), funding and premium rates in units of 1e-8
 * ("E8": 10,000 = 0.01%), as Binance prints funding rates with 8 decimals.
 *
 * Perpetual markets live in their own namespace: a perpetual "BTC/USDT" is not the spot "BTC/USDT"; its events are
 * the perp* ones below. Margin, PnL, fees and funding move the settle asset between the user's CONTRACT account and
 * the system accounts '@clearing' (realized PnL), '@fee', '@funding' and '@insurance' (the insurance fund).
 *
 * Ledger layout of a user's CONTRACT account in the settle asset: `frozen` = the margin held by open orders plus the
 * margin of every position (cross and isolated); `available` = the rest of the wallet. Wallet balance = available +
 * frozen. The realized-PnL pool '@clearing' obeys, after every command: clearing balance + sum of long positions'
 * cost - sum of short positions' cost = 0 (each trade adds the same cost to both sides' books).
 */
import type { MarketStatus, Side, TimeInForce } from '../order-terms';
import type { Amount, Price, Quantity } from '@exchange/money';
import type { RejectCode } from '../reject-codes';

/**
 * One risk-limit tier (Binance's leverage bracket): positions whose notional (at the mark price, quote units) is at
 * most `notionalCap` may use up to `maxLeverage` and need `maintMarginPpm` maintenance margin. Tiers are given in
 * increasing `notionalCap` order; a notional above the last cap is refused (risk limit). The maintenance amount
 * ("cum") of each tier is derived as Binance derives it: cum_1 = 0, cum_n = cum_(n-1) + cap_(n-1) * (mmr_n -
 * mmr_(n-1)), so the maintenance margin notional * mmr - cum is continuous across tiers.
 */
export interface LeverageBracket {
  /** inclusive upper bound of the tier's position notional, quote units */
  notionalCap: bigint;
  /** integer 1..125 */
  maxLeverage: number;
  /** maintenance margin rate, ppm (4,000 = 0.4%) */
  maintMarginPpm: number;
}

/** A linear USDT-margined perpetual market (see the file comment for units). */
export interface PerpMarketConfig {
  /** "BTC/USDT" (its own namespace: not the spot market of that name) */
  symbol: string;
  /** the underlying coin, e.g. "BTC" (need not be a listed asset: no base coin ever moves) */
  base: string;
  /** the settle asset, e.g. "USDT": margin, PnL, fees and funding are paid in it */
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  /** price units */
  tickSize: Price;
  /** qty units */
  stepSize: Quantity;
  /** qty units */
  minQty: Quantity;
  makerFeePpm: number;
  takerFeePpm: number;
  /**
   * Face value of one lot ("hand"), quote units: the spec's "1000 USDT per lot" (section 9). An order of n lots at
   * price P has quantity floor(n * lotNotional / (P * notional multiplier) / stepSize) * stepSize (perp/math.ts).
   */
  lotNotional: bigint;
  /** increasing notional caps; at least one tier */
  brackets: LeverageBracket[];
  /** a LIMIT price further than this from the mark price is refused (spec section 9: 50% = 500,000) */
  priceBandPpm: number;
  /** funding interval, ms (8 h = 28,800,000); funding times are the multiples of it since the Unix epoch */
  fundingIntervalMs: number;
  /** interest rate per funding interval, E8 (Binance: 0.01% = 10,000) */
  interestRateE8: number;
  /** the funding rate is clamped to +-this, E8 (Binance BTCUSDT: 0.3% = 300,000) */
  fundingCapE8: number;
  /** notional (quote units) walked in the book for the impact bid and ask of the premium index */
  impactNotional: bigint;
  /** number of one-per-tick basis samples in the mark price's moving average (Binance: 5 minutes of seconds = 300) */
  markBasisSamples: number;
  status: MarketStatus;
  /**
   * Binance's per-symbol triggerProtect, ppm (50,000 = 5%, the default when absent): a conditional order with
   * priceProtect does not trigger while |mark price - last price| exceeds this share of the mark price
   * (docs/perp-conditional-orders.md). 1..1,000,000.
   */
  triggerProtectPpm?: number;
}

/** One-way positions: a user holds at most one position per market, long or short. */
export type PositionSide = 'LONG' | 'SHORT';
/** Margin mode per user and market (Binance marginType). */
export type MarginMode = 'CROSS' | 'ISOLATED';

/**
 * What a perpetual order does, fixed when it is accepted (spec section 3 "trade type"): an order that reduces the
 * position the user has then is a CLOSE_*, otherwise an OPEN_*; FORCE_CLOSE is the liquidation engine's (takeover,
 * insurance fund's close, auto-deleveraging); NORMAL_CLOSE a close triggered by the position's take profit or
 * stop loss.
 */
export type PerpTradeType = 'OPEN_LONG' | 'OPEN_SHORT' | 'CLOSE_LONG' | 'CLOSE_SHORT' | 'FORCE_CLOSE' | 'NORMAL_CLOSE';

/** Why the engine itself placed an order (null for a user's own order). */
export type PerpTrigger = 'TAKE_PROFIT' | 'STOP_LOSS' | 'LIQUIDATION' | 'ADL';

/**
 * Binance USDⓈ-M conditional ("algo") order types (POST /fapi/v1/order `type`): STOP and TAKE_PROFIT become a LIMIT
 * order when triggered, STOP_MARKET, TAKE_PROFIT_MARKET and TRAILING_STOP_MARKET a MARKET order.
 */
export type PerpConditionType = 'STOP' | 'TAKE_PROFIT' | 'STOP_MARKET' | 'TAKE_PROFIT_MARKET' | 'TRAILING_STOP_MARKET';
/** The price a conditional order watches (Binance workingType): the mark price, or the last trade price. */
export type PerpWorkingType = 'MARK_PRICE' | 'CONTRACT_PRICE';

/**
 * A conditional order's condition and trigger state (docs/perp-conditional-orders.md). While `workingTs` is null the
 * order is pending: status NEW, an open order (counted in the cap, cancellable), not in the book, no margin held.
 * From `workingTs` (Binance workingTime) it is the LIMIT or MARKET order it became, same orderId. `expireReason` is
 * set when it expired at its trigger because it could not be placed (the placement's rejection code:
 * insufficient_balance, reduce_only_rejected, no_position for closePosition, leverage_too_high, price_out_of_band,
 * no_liquidity, ...).
 */
export interface PerpConditionView {
  type: PerpConditionType;
  /** price units; null for TRAILING_STOP_MARKET */
  stopPrice: Price | null;
  workingType: PerpWorkingType;
  /** Binance priceProtect: the trigger waits while mark and last price diverge beyond the market's triggerProtectPpm */
  priceProtect: boolean;
  /** close the whole position at the trigger (STOP_MARKET and TAKE_PROFIT_MARKET only; quantity 0 until then) */
  closePosition: boolean;
  /** TRAILING_STOP_MARKET: Binance callbackRate in basis points (10..1000 = 0.1%..10%, steps of 10); else null */
  callbackRateBps: number | null;
  /** TRAILING_STOP_MARKET: the price that starts the tracking (price units), or null (tracking from placement) */
  activationPrice: Price | null;
  /** TRAILING_STOP_MARKET: the highest (SELL) or lowest (BUY) working price since tracking began; null before */
  trailingRef: bigint | null;
  /** Unix ms of the trigger, null while pending */
  workingTs: number | null;
  expireReason: RejectCode | null;
}

/** A perpetual order as the engine sees it. Orders of both namespaces share one id sequence. */
export interface PerpOrderView {
  orderId: string;
  clientOrderId: string | null;
  /** the user, or '@insurance' for the insurance fund's closing orders */
  userId: string;
  symbol: string;
  side: Side;
  orderType: 'LIMIT' | 'MARKET';
  timeInForce: TimeInForce;
  /** price units; null for MARKET */
  price: Price | null;
  /** qty units */
  quantity: Quantity;
  /** lots the user entered (informational, for "entrust hands"), 0 when given as a quantity */
  lots: number;
  reduceOnly: boolean;
  tradeType: PerpTradeType;
  trigger: PerpTrigger | null;
  /** leverage of the order: the user's at acceptance, then the user's after every perpSetLeverage while it rests */
  leverage: number;
  marginMode: MarginMode;
  filledQty: Quantity;
  /** sum of price * qty of the fills, quote units */
  filledQuote: bigint;
  /** fees paid, quote units */
  fee: bigint;
  /** PnL realized by this order's fills (closing parts), quote units, signed */
  realizedPnl: bigint;
  /** margin still held for the unfilled part, quote units */
  hold: bigint;
  /** take profit / stop loss to set on the position when the order fills (price units), or null */
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
  createdTs: number;
  updatedTs: number;
  /** Only on a conditional order (perpPlaceOrder `condition`): its condition and trigger state. */
  condition?: PerpConditionView;
}

/**
 * A position (one per user and market while open). `cost` is the entry notional still open (sum of price * qty of
 * the opening fills less the part released by closes, quote units): the average entry price is cost / size. Derived
 * values (unrealized PnL, margin ratio, liquidation price, ...) are pure functions of this view and the mark price
 * (perp/math.ts).
 */
export interface PositionView {
  userId: string;
  symbol: string;
  side: PositionSide;
  /** qty units, > 0 (a closed position is sent once with size 0n) */
  size: bigint;
  /** quote units */
  cost: bigint;
  /** average entry price, price units, rounded half up (display only: PnL uses `cost`) */
  entryPrice: Price;
  /** margin of the position (frozen in the CONTRACT account), quote units */
  margin: bigint;
  marginMode: MarginMode;
  leverage: number;
  /** PnL realized over the position's life, quote units, signed (fees and funding excluded) */
  realizedPnl: bigint;
  /** funding paid (negative) or received over the position's life, quote units */
  funding: bigint;
  /** fees paid over the position's life, quote units */
  fees: bigint;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  openTs: number;
  updatedTs: number;
}

/** A user's leverage and margin mode in one market (defaults: DEFAULT_LEVERAGE, CROSS). */
export interface PerpSettings {
  leverage: number;
  marginMode: MarginMode;
}

/** Prices and funding state of a perpetual market. */
export interface PerpMarkState {
  symbol: string;
  /** last index price given by a perpMarkPrice command, price units, or null before the first */
  indexPrice: Price | null;
  /** mark price (median of the three Binance components), price units, or null before the first tick */
  markPrice: Price | null;
  /** last trade price, or null */
  lastPrice: Price | null;
  /** the rate the next funding would apply if it happened now (predicted), E8 */
  predictedFundingRateE8: number;
  /** the rate applied at the last funding, E8 (0 before the first) */
  lastFundingRateE8: number;
  /** Unix ms of the next funding time */
  nextFundingTs: number;
  markTs: number;
  /** true while the market is paused on a stale index (see perpMarkPrice's indexStale) */
  indexStale: boolean;
  /** Unix ms of the tick that paused the market, null while not paused */
  indexStaleSince: number | null;
}

/** A user's contract account in the settle asset (quote units), as the risk engine sees it at the mark prices. */
export interface PerpAccountView {
  /** available + frozen of the CONTRACT account */
  walletBalance: bigint;
  /** the wallet less isolated positions' margins */
  crossWalletBalance: bigint;
  /** unrealized PnL of cross positions at their mark prices */
  crossUnrealizedPnl: bigint;
  /** cross wallet + cross unrealized PnL */
  crossMarginBalance: bigint;
  /** maintenance margin of cross positions */
  crossMaintMargin: bigint;
  /** what a new order may use: available + min(0, cross unrealized PnL), never below 0 */
  availableBalance: bigint;
  /**
   * What may leave the account (Binance's maxWithdrawAmount, single-asset mode): the available balance (the wallet
   * less positions' initial margins and orders' holds) plus the cross unrealized loss, never a profit, never below 0.
   * A transfer out of CONTRACT above it is refused (insufficient_balance).
   */
  maxWithdrawAmount: Amount;
  /** cross maintenance margin / cross margin balance, ppm (1,000,000 = 100%: liquidation); 0 without positions */
  riskLevelPpm: number;
}

/** Commands of the perpetual markets (part of types.ts's Command union). */
export type PerpCommand =
  /** Lists a perpetual market (market_exists, asset_not_found for the settle asset, invalid_config). */
  | { ts: number; type: 'addPerpMarket'; market: PerpMarketConfig }
  /**
   * A perpetual order. LIMIT needs price and quantity, MARKET quantity only. A LIMIT price further than priceBandPpm
   * from the mark price is refused (price_out_of_band; mark_price_unavailable before the first mark). A reduce-only
   * order needs a position on the other side (reduce_only_rejected) and never holds margin; its fills are capped to
   * the position and it expires when the position is gone. Any other order holds initial margin for its whole
   * quantity at the user's leverage, plus the taker fee, at its price (MARKET: at what it would fill in the book):
   * ceil(notional / leverage) + ceil(notional * takerFeePpm / 1e6) (insufficient_balance when the available
   * balance, less cross unrealized losses, is short). The position notional after the order may not exceed the
   * leverage's bracket (leverage_too_high). Take profit and stop loss, when given, are checked against the mark
   * price for the side the order opens (take_profit_invalid, stop_loss_invalid) and set on the position at the fill.
   * Idempotent by (userId, clientOrderId) like spot orders.
   */
  | {
      ts: number;
      type: 'perpPlaceOrder';
      userId: string;
      symbol: string;
      side: Side;
      orderType: 'LIMIT' | 'MARKET';
      timeInForce: TimeInForce;
      price?: Price;
      quantity: Quantity;
      reduceOnly?: boolean;
      clientOrderId?: string;
      /** the lots the user entered (informational, 0..1e9) */
      lots?: number;
      takeProfit?: bigint;
      stopLoss?: bigint;
      /**
       * Makes the order conditional (docs/perp-conditional-orders.md): it waits, unbooked and holding no margin (Binance:
       * "no margin check when placing conditional orders"), until its working price meets the condition, then is
       * placed as the `orderType` order with every check above (same orderId); what cannot be placed then expires with
       * `expireReason`. `orderType` must be LIMIT for STOP and TAKE_PROFIT, MARKET for the others (invalid_order).
       * Refused with would_trigger_immediately (Binance -2021) when the condition already holds at placement.
       */
      condition?: PerpConditionType;
      /** trigger price, price units: required by every type but TRAILING_STOP_MARKET, which refuses it */
      stopPrice?: Price;
      /** default CONTRACT_PRICE (Binance's default) */
      workingType?: PerpWorkingType;
      /** default false; not with TRAILING_STOP_MARKET */
      priceProtect?: boolean;
      /** STOP_MARKET / TAKE_PROFIT_MARKET only, with quantity 0n and without reduceOnly (Binance) */
      closePosition?: boolean;
      /** TRAILING_STOP_MARKET only (required): 10..1000 basis points in steps of 10 (Binance callbackRate 0.1..10) */
      callbackRateBps?: number;
      /** TRAILING_STOP_MARKET only (optional), price units */
      activationPrice?: Price;
    }
  /** Cancel a resting perpetual order by orderId or clientOrderId; only the owner can cancel (order_not_found). */
  | { ts: number; type: 'perpCancelOrder'; userId: string; orderId?: string; clientOrderId?: string }
  /**
   * Modify a resting LIMIT order of the user in place (Binance USDⓈ-M "Modify Order"): its new limit price and its new
   * total quantity (filled part included), under the same orderId. Checked as a new order (tick, step, minimum, price
   * band, leverage bracket, margin for the unfilled part against the balance plus the order's own hold): a rejection
   * leaves the order as it was. Accepted: the order leaves its place in the book (its time priority is lost), its hold
   * becomes the new one, and it matches at its new price like a taker before resting again. A quantity at or below the
   * filled quantity, or a post-only order whose new price would take, cancels the order (Binance). The same price and
   * quantity change nothing. Not a conditional order still pending, nor an engine close (invalid_order); anyone else's,
   * unknown or ended: order_not_found. Both price and quantity are required (invalid_order without either).
   */
  | { ts: number; type: 'perpAmendOrder'; userId: string; orderId: string; price?: Price; quantity?: Quantity }
  /**
   * Set the user's leverage in a market (1..the first bracket's max: leverage_invalid). With a position, the position's
   * notional at the mark must fit the leverage's bracket (leverage_too_high), and its margin moves towards ceil(cost /
   * leverage): a cross position's margin becomes that; an isolated position's margin rises to it on a decrease, and
   * on an increase releases at most what perpAdjustMargin could remove at the new leverage (its unrealized loss
   * counted). The user's resting orders in the market that are not reduce-only take the new leverage: the initial
   * margin of their remaining quantity is held again at it. Every rise is held from the available balance less cross
   * unrealized losses (insufficient_balance when the total is short).
   */
  | { ts: number; type: 'perpSetLeverage'; userId: string; symbol: string; leverage: number }
  /** Set the margin mode; refused while the user has a position or open orders in the market (position_exists). */
  | { ts: number; type: 'perpSetMarginMode'; userId: string; symbol: string; marginMode: MarginMode }
  /**
   * Add (amount > 0) or remove (amount < 0) margin of an isolated position (no_position; margin_mode_invalid for a
   * cross one). Adding takes at most the available balance less cross unrealized losses; removing may not leave less
   * than the initial margin at the mark price after the unrealized loss (perp/math.ts maxRemovableMargin); both refuse
   * with insufficient_balance.
   */
  | { ts: number; type: 'perpAdjustMargin'; userId: string; symbol: string; amount: Amount }
  /**
   * Set or clear (null) the take profit and stop loss of the user's position (no_position). Take profit above the
   * mark price for a long and below it for a short, stop loss the reverse (spec section 5; take_profit_invalid,
   * stop_loss_invalid). Triggered by the mark price: the whole position is closed by a MARKET reduce-only order.
   */
  | { ts: number; type: 'perpSetTpSl'; userId: string; symbol: string; takeProfit: bigint | null; stopLoss: bigint | null }
  /**
   * The mark price tick (one per market per second, from the index price job): records the index price, samples the
   * basis (book mid - index) and the premium index, computes the mark price as Binance does (median of index *
   * (1 + last funding rate * time to funding / interval), index + moving average of the basis, last price; the last
   * price is left out before the first trade) rounded to the tick, then fires the take profits and stop losses the
   * mark crossed and liquidates every account in the market whose risk level reached 100% (spec section 9):
   * open orders cancelled, positions taken over by the insurance fund at the bankruptcy price, closed by the fund in
   * the book, the rest auto-deleveraged. Refused for an index price <= 0 (invalid_config).
   */
  | {
      ts: number;
      type: 'perpMarkPrice';
      symbol: string;
      indexPrice: Price;
      /**
       * True when the index is stale (fewer live sources than the index's minimum; the live index's `stale`). The tick
       * then changes no price: the index and mark prices hold, no basis or premium is sampled, no TP/SL fires and no
       * account is liquidated; the market is paused (PerpMarkState.indexStale) and new orders that could open or
       * increase a position are refused with index_stale until the next tick without the flag, which resumes it.
       * `indexPrice` is informative only then and may be 0n. Absent (old journals) means false.
       */
      indexStale?: boolean;
    }
  /**
   * Funding of a market at funding time `fundingTs` (a multiple of fundingIntervalMs, <= ts, after the last
   * settled: funding_not_due otherwise): rate = average premium + clamp(interest - average premium, +-0.05%),
   * clamped to +-fundingCapE8 (Binance); each position pays (long, positive rate) or receives size * mark price *
   * rate: payers rounded up, receivers down, through '@funding'. Settles the intervals' premium samples.
   */
  | { ts: number; type: 'perpFunding'; symbol: string; fundingTs: number }
  /**
   * Pays `amount` (> 0, asset units) into the insurance fund ('@insurance', SYSTEM account) from '@faucet' (the demo's
   * seed) or '@fee' (fee income), available to available (asset_not_found, amount_invalid).
   */
  | { ts: number; type: 'fundInsurance'; asset: string; amount: Amount; from: '@faucet' | '@fee' };

/** Events of the perpetual markets (part of types.ts's EngineEvent union). */
export type PerpEvent =
  | { type: 'perpMarketAdded'; ts: number; market: PerpMarketConfig }
  | { type: 'perpOrderAccepted'; ts: number; order: PerpOrderView }
  /** after a fill, cancel or expiry */
  | { type: 'perpOrderUpdated'; ts: number; order: PerpOrderView }
  /**
   * A fill. `kind` BOOK: taker against a resting maker (the insurance fund's closing orders are takers of kind BOOK
   * with user '@insurance'); TAKEOVER: a liquidated user's position taken over by the insurance fund at the
   * bankruptcy price; ADL: the fund's position closed against a user's (auto-deleveraging). In TAKEOVER and ADL
   * the taker is the user, through an order the engine creates for the history (already FILLED, trigger LIQUIDATION
   * or ADL, trade type FORCE_CLOSE), and the maker is '@insurance' without an order; no fees. Realized PnL of each
   * side is signed, quote units.
   */
  | {
      type: 'perpTrade';
      ts: number;
      tradeId: string;
      symbol: string;
      kind: 'BOOK' | 'TAKEOVER' | 'ADL';
      price: Price;
      quantity: Quantity;
      quoteAmount: Amount;
      takerSide: Side;
      makerOrderId: string | null;
      takerOrderId: string | null;
      makerUserId: string;
      takerUserId: string;
      makerFee: bigint;
      takerFee: bigint;
      makerRealizedPnl: bigint;
      takerRealizedPnl: bigint;
    }
  | { type: 'perpDepthChanged'; ts: number; symbol: string; side: Side; price: Price; quantity: Quantity }
  /** A position after a change (size 0n: closed). */
  | { type: 'positionChanged'; ts: number; position: PositionView }
  | { type: 'perpSettingsChanged'; ts: number; userId: string; symbol: string; settings: PerpSettings }
  /** The mark price of a tick (perpMarkPrice). */
  | { type: 'markPrice'; ts: number; state: PerpMarkState }
  /** A funding settlement: totals in quote units (paid >= received; the difference stays in '@funding'). */
  | {
      type: 'fundingSettled';
      ts: number;
      symbol: string;
      fundingTs: number;
      rateE8: number;
      markPrice: Price;
      paid: bigint;
      received: bigint;
      positions: number;
    }
  /** One position's funding (amount signed: negative paid, positive received). */
  | { type: 'fundingPayment'; ts: number; userId: string; symbol: string; fundingTs: number; rateE8: number; amount: Amount }
  /**
   * A liquidation (one per account and market scope): the user's equity in scope before (quote units, may be
   * negative after a gap), what the insurance fund received from it (negative: what it paid), the mark price.
   */
  | {
      type: 'liquidated';
      ts: number;
      userId: string;
      symbol: string;
      marginMode: MarginMode;
      markPrice: Price;
      equity: bigint;
      insuranceDelta: bigint;
      size: bigint;
      side: PositionSide;
    };

/** Default leverage of a user in a market before perpSetLeverage (Binance's default is 20x). */
export const DEFAULT_LEVERAGE = 20;

/** The engine's reads of the perpetual markets (part of EngineApi). */
export interface PerpReads {
  perpMarket(symbol: string): PerpMarketConfig | undefined;
  perpMarkets(): PerpMarketConfig[];
  /** mark, index and funding state (undefined for an unknown market) */
  perpMarkState(symbol: string): PerpMarkState | undefined;
  /** any retained perpetual order (open, or among the last ended) */
  perpOrder(orderId: string): PerpOrderView | undefined;
  /** open perpetual orders of a user, oldest first, optionally of one market */
  perpOpenOrders(userId: string, symbol?: string): PerpOrderView[];
  perpDepth(symbol: string, levels: number): { bids: { price: Price; quantity: Quantity }[]; asks: { price: Price; quantity: Quantity }[] };
  /** the user's open position in a market, or undefined */
  position(userId: string, symbol: string): PositionView | undefined;
  /** every open position of a user (market order) */
  positions(userId: string): PositionView[];
  /** leverage and margin mode (defaults when never set) */
  perpSettings(userId: string, symbol: string): PerpSettings;
  /** the user's contract account at the current mark prices (settle asset of the markets, USDT) */
  perpAccount(userId: string): PerpAccountView;
  /** number of open positions in a market (all users) */
  positionCount(symbol: string): number;
  /**
   * open interest of a market (Binance GET /fapi/v1/openInterest): the total size of its long positions, which equals
   * that of its short ones (the insurance fund's included), qty units; 0n for an unknown market
   */
  openInterest(symbol: string): bigint;
  /**
   * What perpSetLeverage at `leverage` would move (quote units; > 0 held from the available balance, < 0 released):
   * `position` for the user's position's margin (0n without one), `orders` for the holds of the user's resting opening
   * orders in the market; undefined for an unknown market or a leverage outside 1..125. A preview: the command also
   * checks the bracket (leverage_too_high) and that a positive total fits the max withdraw amount (insufficient_balance).
   */
  perpLeverageMarginMove(userId: string, symbol: string, leverage: number): { position: bigint; orders: bigint } | undefined;
}
