/**
 * One spot market: its configuration, its book, and the order placement, matching, settlement
 * and cancellation rules. Spot's state machine (spot-engine.ts) owns the markets and calls in here.
 *
 * Units: prices in price units, quantities in qty units, amounts and fees in asset units
 * (see types.ts). Rules follow Binance spot: price-time priority, every fill at the maker's price,
 * LIMIT GTC/IOC/FOK/POST_ONLY (LIMIT_MAKER), MARKET by quantity or by quote amount (quoteOrderQty),
 * self-trade prevention decided by the taker's mode, fees charged in the asset received and rounded up.
 */
import { isNonNegInt } from '../checks';
import { Account, type Ledger } from '../ledger/ledger';
import { pow10 } from '@exchange/money';
import type { Command, CommandResult, EngineEvent, MarketConfig, OcoLeg, OrderView, Side, StopKind, StpMode, TimeInForce } from '../types';
import type { SpotRejectCode } from './spot-codes';
import type { BookKind, OrderBook } from './book';
import { FastOrderBook } from './fast-book';
import { NaiveOrderBook } from './naive-book';
import { Condition, Order, UserOrders } from './order';
import { OrderList } from './order-list';
import { TriggerBook } from './triggers';

/** The placeOrder command. */
export type PlaceOrderCommand = Extract<Command, { type: 'placeOrder' }>;
/** The placeOrderList command (an OCO). */
export type PlaceOrderListCommand = Extract<Command, { type: 'placeOrderList' }>;

/** What a market needs from spot's state machine (spot-engine.ts, `SpotEngine`) while it works on a command. */
export interface SpotMarketHost {
  readonly ledger: Ledger;
  /** Events of the current command (appended to). */
  readonly events: EngineEvent[];
  /** Next order sequence number (the order id is its decimal string). */
  allocOrderSeq(): number;
  /** Next trade id (decimal string). */
  allocTradeId(): string;
  /** The user's record (trader.ts), created if missing (only for an order being accepted). */
  traderFor(userId: string): Trader;
  /** A sequence number for a triggered order's book priority (from the order id space; no order gets it as id). */
  allocPrioritySeq(): number;
  /** A new accepted order (indexes it by id and client order id). */
  registerOrder(o: Order): void;
  /** A resting order left the book (filled, cancelled or expired); also counts as `orderEnded`. */
  orderClosed(o: Order): void;
  /** An order that never rested reached its final status (FILLED or EXPIRED). */
  orderEnded(o: Order): void;
  /** A new accepted order list (indexes it by id and list client order id). */
  registerList(l: OrderList<Order>): void;
}

const TIFS: ReadonlySet<string> = new Set<TimeInForce>(['GTC', 'IOC', 'FOK', 'POST_ONLY']);
const STPS: ReadonlySet<string> = new Set<StpMode>(['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE']);
/** Longest accepted clientOrderId (characters), as Binance's newClientOrderId. */
export const MAX_CLIENT_ORDER_ID_LENGTH = 36;
/**
 * Most open (resting) orders one user may have in one market: a placement by a user who already
 * has this many is rejected `too_many_open_orders`, whatever the new order would do (Binance spot
 * filter MAX_NUM_ORDERS, 200 per symbol). It also bounds the work of self-trade prevention, which
 * may expire or step over every one of the taker's own resting orders.
 */
export const MAX_OPEN_ORDERS_PER_MARKET = 200;
/**
 * Most conditional orders one command may trigger in one market (the cascade bound, docs/conditional-orders.md):
 * orders still due when it is reached stay pending and trigger at the next accepted placeOrder in the market.
 */
export const MAX_TRIGGERS_PER_COMMAND = 100;
/** Accepted trailingDelta range in basis points (Binance's TRAILING_DELTA filter bounds as commonly set: 10 to 2000). */
export const MIN_TRAILING_DELTA_BIPS = 10;
export const MAX_TRAILING_DELTA_BIPS = 2000;

function reject(code: SpotRejectCode): CommandResult {
  return { code, events: [] };
}

/**
 * Fee of `amount` (asset units, >= 0) at `ppm` parts per million, rounded up: the same value as
 * money's feeCeil (ceil(amount * ppm / 1e6)), computed as floor((amount * ppm + 999999) / 1e6),
 * which is equal for non-negative products and takes fewer bigint operations.
 */
function feeUp(amount: bigint, ppm: bigint): bigint {
  return ppm === 0n ? 0n : (amount * ppm + 999_999n) / 1_000_000n;
}

/** -1n, a "none" marker for non-negative bigints (a literal -1n would be a unary minus at run time). */
const NONE = -1n;

function isOptBigint(v: unknown): boolean {
  return v === undefined || typeof v === 'bigint';
}

/** OCO leg types allowed above a SELL / below a BUY (the take-profit side), and on the stop-loss side. */
const TAKE_PROFIT_SIDE: ReadonlySet<string> = new Set(['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
const STOP_LOSS_TYPES: ReadonlySet<string> = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT']);
const LEG_TIFS: ReadonlySet<string> = new Set(['GTC', 'IOC', 'FOK']);

/** True for an absent client id or a string of 1 to 36 characters. */
function isClientId(v: unknown): boolean {
  return v === undefined || (typeof v === 'string' && v.length > 0 && v.length <= MAX_CLIENT_ORDER_ID_LENGTH);
}

/**
 * True when `v` is a well-formed OCO leg: LIMIT_MAKER with `price` only; STOP_LOSS / TAKE_PROFIT with `stopPrice`
 * only; the _LIMIT kinds with both and an optional GTC/IOC/FOK `timeInForce`; an optional client id.
 */
function isLeg(v: unknown): v is OcoLeg {
  if (v === null || typeof v !== 'object') return false;
  const l = v as OcoLeg;
  if (!isClientId(l.clientOrderId) || !isOptBigint(l.price) || !isOptBigint(l.stopPrice)) return false;
  const hasPrice = l.price !== undefined;
  const hasStop = l.stopPrice !== undefined;
  switch (l.type) {
    case 'LIMIT_MAKER':
      return hasPrice && !hasStop && l.timeInForce === undefined;
    case 'STOP_LOSS':
    case 'TAKE_PROFIT':
      return !hasPrice && hasStop && l.timeInForce === undefined;
    case 'STOP_LOSS_LIMIT':
    case 'TAKE_PROFIT_LIMIT':
      return hasPrice && hasStop && (l.timeInForce === undefined || LEG_TIFS.has(l.timeInForce));
    default:
      return false;
  }
}

/** The price that places a leg above or below: a LIMIT_MAKER's price, else the stop price. */
function legKeyPrice(l: OcoLeg): bigint {
  return (l.type === 'LIMIT_MAKER' ? l.price : l.stopPrice) as bigint;
}

/** The condition of a stop leg. */
function legKind(l: OcoLeg): StopKind {
  return l.type === 'STOP_LOSS' || l.type === 'STOP_LOSS_LIMIT' ? 'STOP_LOSS' : 'TAKE_PROFIT';
}

/** Result of simulating a taker against the book without changing it. */
interface WalkResult {
  /** fillable quantity, qty units */
  qty: bigint;
  /** cost of that quantity at the makers' prices, quote asset units */
  quote: bigint;
}

/** A spot market with its book (see the file comment). */
export class SpotMarket {
  readonly config: MarketConfig;
  readonly book: OrderBook;
  /** Multiplier from price*qty to quote asset units: 10^(quoteScale - priceDecimals - qtyDecimals). */
  readonly notionalMult: bigint;
  /** Multiplier from qty units to base asset units: 10^(baseScale - qtyDecimals). */
  readonly baseMult: bigint;
  readonly makerFeePpm: bigint;
  readonly takerFeePpm: bigint;
  /** Price of the last trade (price units), or null. */
  lastPrice: bigint | null = null;
  /** The pending conditional orders (triggers.ts), created with the first one. */
  triggers: TriggerBook | null = null;
  private readonly feeBase: Account;
  private readonly feeQuote: Account;

  /**
   * `config` must already be validated (SpotEngine's addMarket); scales are the assets' scales; `index`
   * is the market's position in spot's state machine (0, 1, ...), its slot in `Trader.markets`.
   */
  constructor(
    config: MarketConfig,
    baseScale: number,
    quoteScale: number,
    bookKind: BookKind,
    ledger: Ledger,
    readonly index: number,
  ) {
    this.config = { ...config };
    this.book = bookKind === 'naive' ? new NaiveOrderBook() : new FastOrderBook();
    this.notionalMult = pow10(quoteScale - config.priceDecimals - config.qtyDecimals);
    this.baseMult = pow10(baseScale - config.qtyDecimals);
    this.makerFeePpm = BigInt(config.makerFeePpm);
    this.takerFeePpm = BigInt(config.takerFeePpm);
    this.feeBase = ledger.account('@fee', 'SYSTEM', config.base);
    this.feeQuote = ledger.account('@fee', 'SYSTEM', config.quote);
  }

  /**
   * Validate and execute a placeOrder (market existence and idempotency are SpotEngine's part).
   * Checks run in REJECT_CODES order; nothing changes before every check has passed.
   * invalid_order covers malformed fields and combinations: a MARKET order with a price, with
   * POST_ONLY, or by quoteAmount when SELL, FOK or together with quantity; a LIMIT order with
   * quoteAmount; a system ('@...') or empty userId; a clientOrderId longer than 36 characters.
   * MARKET GTC and IOC both mean "fill what the book offers, expire the rest"; MARKET FOK (by
   * quantity) fills completely or expires with no fill. minNotional applies to LIMIT price*qty, to
   * quoteAmount, and to a MARKET order by quantity at what it would fill in the book now.
   * too_many_open_orders: the user already has MAX_OPEN_ORDERS_PER_MARKET orders resting here
   * (checked for every order type, as Binance's MAX_NUM_ORDERS filter).
   * `trader` is the user's record if the user has one (SpotEngine looked it up once for the command).
   */
  place(cmd: PlaceOrderCommand, host: SpotMarketHost, trader: Trader | undefined): CommandResult {
    const c = this.config;
    if (c.status !== 'TRADING') return reject('market_halted');
    const { side, orderType, timeInForce, price, quantity, quoteAmount, clientOrderId, userId } = cmd;
    const stp = cmd.stp ?? 'EXPIRE_TAKER';
    if (
      (side !== 'BUY' && side !== 'SELL') ||
      (orderType !== 'LIMIT' && orderType !== 'MARKET') ||
      (timeInForce !== 'GTC' && !TIFS.has(timeInForce)) ||
      (stp !== 'EXPIRE_TAKER' && !STPS.has(stp)) ||
      typeof userId !== 'string' ||
      userId.length === 0 ||
      userId.charCodeAt(0) === 64 ||
      (clientOrderId !== undefined && (typeof clientOrderId !== 'string' || clientOrderId.length === 0 || clientOrderId.length > MAX_CLIENT_ORDER_ID_LENGTH)) ||
      !isOptBigint(price) ||
      !isOptBigint(quantity) ||
      !isOptBigint(quoteAmount)
    ) {
      return reject('invalid_order');
    }
    const { condition, stopPrice, trailingDelta } = cmd;
    const conditional = condition !== undefined || stopPrice !== undefined || trailingDelta !== undefined;
    if (
      conditional &&
      ((condition !== 'STOP_LOSS' && condition !== 'TAKE_PROFIT') ||
        !isOptBigint(stopPrice) ||
        (stopPrice === undefined && trailingDelta === undefined) ||
        (trailingDelta !== undefined && (!isNonNegInt(trailingDelta, MAX_TRAILING_DELTA_BIPS) || trailingDelta < MIN_TRAILING_DELTA_BIPS)) ||
        timeInForce === 'POST_ONLY')
    ) {
      return reject('invalid_order');
    }
    const isMarket = orderType === 'MARKET';
    if (isMarket) {
      if (
        price !== undefined ||
        timeInForce === 'POST_ONLY' ||
        (quoteAmount !== undefined && (side === 'SELL' || quantity !== undefined || timeInForce === 'FOK'))
      ) {
        return reject('invalid_order');
      }
    } else if (quoteAmount !== undefined) {
      return reject('invalid_order');
    }
    if (!isMarket) {
      if (price === undefined) return reject('price_required');
      if (price <= 0n || (c.tickSize !== 1n && price % c.tickSize !== 0n)) return reject('price_not_on_tick');
    }
    if (stopPrice !== undefined && (stopPrice <= 0n || stopPrice % c.tickSize !== 0n)) return reject('price_not_on_tick');
    const byQuote = quoteAmount !== undefined;
    // LIMIT notional in quote units (computed once: it is also a BUY's hold).
    let notional = NONE;
    if (!byQuote) {
      if (quantity === undefined) return reject('quantity_required');
      if (c.stepSize !== 1n && quantity % c.stepSize !== 0n) return reject('quantity_not_on_step');
      if (quantity <= 0n || quantity < c.minQty) return reject('quantity_below_minimum');
      if (!isMarket) {
        notional = (price as bigint) * quantity;
        if (this.notionalMult !== 1n) notional *= this.notionalMult;
        if (notional < c.minNotional) return reject('notional_below_minimum');
      } else if (!conditional && c.minNotional > 0n && this.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') !== null) {
        // The minimum applies to MARKET orders too, at their estimated fill (Binance NOTIONAL filter,
        // applyMinToMarket; Binance estimates with its average price, we with the book as it is): the
        // value the order would fill now, walked only until it reaches the minimum (bounded work). An
        // empty book is left to no_liquidity. Whose orders they are does not matter to an estimate (STP NONE).
        if (this.walk(side, userId, 'NONE', null, quantity, c.minNotional).quote < c.minNotional) return reject('notional_below_minimum');
      }
    } else {
      if (quoteAmount < c.minNotional) return reject('notional_below_minimum');
      if (quoteAmount <= 0n) return reject('amount_invalid');
    }
    let mu = trader === undefined ? undefined : trader.markets[this.index];
    if (mu !== undefined && mu.openCount >= MAX_OPEN_ORDERS_PER_MARKET) return reject('too_many_open_orders');
    const ledger = host.ledger;
    const holdAsset = side === 'BUY' ? c.quote : c.base;
    const limit = isMarket ? null : (price as bigint);
    // The user's SPOT account of the held asset, if it exists (placement creates none before it is accepted).
    let found = mu === undefined ? null : side === 'BUY' ? mu.quote : mu.base;
    if (found === null) found = ledger.find(userId, 'SPOT', holdAsset) ?? null;
    const available = found === null ? 0n : found.available;
    let hold: bigint;
    if (side === 'SELL') hold = this.baseMult === 1n ? (quantity as bigint) : (quantity as bigint) * this.baseMult;
    else if (byQuote) hold = quoteAmount;
    else if (!isMarket) hold = notional;
    else if (conditional) {
      // A pending MARKET BUY by quantity holds quantity x the last price (Binance locks at the current price);
      // with no trade yet, at its stop price; a trailing order without either has nothing to price it: no_liquidity.
      const ref = this.lastPrice ?? stopPrice ?? null;
      if (ref === null) return reject('no_liquidity');
      hold = ref * (quantity as bigint) * this.notionalMult;
    }
    // The walk stops once the cost exceeds what the user has, so a rejected order costs no more
    // than an affordable one (a walk over the whole book would let anyone stall the engine).
    else hold = this.walk(side, userId, stp, null, quantity as bigint, available).quote;
    if (available < hold) return reject('insufficient_balance');
    if (conditional) {
      const lp = this.lastPrice;
      if (stopPrice !== undefined && lp !== null && (Condition.risesFor(condition as 'STOP_LOSS', side) ? lp >= stopPrice : lp <= stopPrice)) {
        return reject('would_trigger_immediately');
      }
      const cond = new Condition(condition as 'STOP_LOSS', stopPrice ?? null, trailingDelta ?? null, stopPrice === undefined, null, null, null);
      // A trailing order without a stop price tracks from placement, from the last price (Binance, trailing FAQ).
      if (cond.tracking) cond.trailingRef = lp;
      return this.acceptPending(cmd, cond, hold, found, trader, mu, host);
    }
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    if (timeInForce === 'POST_ONLY') {
      const bp = this.book.bestPrice(opp);
      if (bp !== null && (side === 'BUY' ? bp <= (limit as bigint) : bp >= (limit as bigint))) return reject('would_take_liquidity');
    }
    if (isMarket && this.book.bestPrice(opp) === null) return reject('no_liquidity');

    // Accepted from here on.
    const events = host.events;
    const ts = cmd.ts;
    const seq = host.allocOrderSeq();
    const order = new Order(
      seq,
      `${seq}`,
      clientOrderId ?? null,
      userId,
      c.symbol,
      side,
      orderType,
      timeInForce,
      limit,
      quantity ?? null,
      quoteAmount ?? null,
      side === 'BUY' ? c.base : c.quote,
      stp,
      ts,
    );
    if (mu === undefined) mu = (trader ?? host.traderFor(userId)).in(this);
    order.mu = mu;
    host.registerOrder(order);
    const acceptedView = order.toView();
    events.push({ type: 'orderAccepted', ts, order: acceptedView });
    return this.work(order, mu, found, hold, host, ts, acceptedView);
  }

  /**
   * Validate and accept an OCO list (docs/conditional-orders.md, OCO; Binance `POST /api/v3/orderList/oco`); market
   * existence, the frozen flag and idempotency are SpotEngine's part. Checks, in this order (nothing changes before
   * all passed): market_halted; invalid_order (fields, the leg types allowed for the side, each leg's fields for its
   * type, equal leg client ids, the price relation: the above leg's price (LIMIT_MAKER) or stop price above the below
   * leg's, and a LIMIT_MAKER leg strictly on its side of the last price: SELL above it, BUY below it);
   * price_not_on_tick; quantity_not_on_step, quantity_below_minimum; notional_below_minimum (each leg with a limit
   * price; a MARKET leg is checked at its trigger); too_many_open_orders (the two legs count: Binance adds 2 to
   * MAX_NUM_ORDERS); insufficient_balance (the list's one hold: the larger `ocoLegNeed` of its legs); would_take_liquidity (the LIMIT_MAKER leg
   * would cross the book); would_trigger_immediately (a stop leg's condition holds at the last price, equality
   * included: Binance requires above stop > last > below stop).
   */
  placeList(cmd: PlaceOrderListCommand, host: SpotMarketHost, trader: Trader | undefined): CommandResult {
    const c = this.config;
    if (c.status !== 'TRADING') return reject('market_halted');
    const { side, quantity, above, below, userId, listClientOrderId } = cmd;
    const stp = cmd.stp ?? 'EXPIRE_TAKER';
    if (
      cmd.contingencyType !== 'OCO' ||
      (side !== 'BUY' && side !== 'SELL') ||
      typeof quantity !== 'bigint' ||
      (stp !== 'EXPIRE_TAKER' && !STPS.has(stp)) ||
      typeof userId !== 'string' ||
      userId.length === 0 ||
      userId.charCodeAt(0) === 64 ||
      !isClientId(listClientOrderId) ||
      !isLeg(above) ||
      !isLeg(below) ||
      !(side === 'SELL'
        ? TAKE_PROFIT_SIDE.has(above.type) && STOP_LOSS_TYPES.has(below.type)
        : STOP_LOSS_TYPES.has(above.type) && TAKE_PROFIT_SIDE.has(below.type)) ||
      (above.clientOrderId !== undefined && above.clientOrderId === below.clientOrderId)
    ) {
      return reject('invalid_order');
    }
    const lp = this.lastPrice;
    if (
      legKeyPrice(above) <= legKeyPrice(below) ||
      (lp !== null && ((above.type === 'LIMIT_MAKER' && (above.price as bigint) <= lp) || (below.type === 'LIMIT_MAKER' && (below.price as bigint) >= lp)))
    ) {
      return reject('invalid_order');
    }
    for (const l of [above, below]) {
      if (l.price !== undefined && (l.price <= 0n || l.price % c.tickSize !== 0n)) return reject('price_not_on_tick');
      if (l.stopPrice !== undefined && (l.stopPrice <= 0n || l.stopPrice % c.tickSize !== 0n)) return reject('price_not_on_tick');
    }
    if (quantity % c.stepSize !== 0n) return reject('quantity_not_on_step');
    if (quantity <= 0n || quantity < c.minQty) return reject('quantity_below_minimum');
    for (const l of [above, below])
      if (l.price !== undefined && l.price * quantity * this.notionalMult < c.minNotional) return reject('notional_below_minimum');
    let mu = trader === undefined ? undefined : trader.markets[this.index];
    if (mu !== undefined && mu.openCount + 2 > MAX_OPEN_ORDERS_PER_MARKET) return reject('too_many_open_orders');
    // The one hold of the list, split so that the leg that may rest (LIMIT_MAKER, else the above leg) holds what it
    // needs and the other leg the rest of the larger need (so the legs' holds sum to the list's).
    const first = below.type === 'LIMIT_MAKER' ? below : above;
    const second = first === above ? below : above;
    const needFirst = this.ocoLegNeed(side, first, quantity);
    const needSecond = this.ocoLegNeed(side, second, quantity);
    const holdSecond = needSecond > needFirst ? needSecond - needFirst : 0n;
    const ledger = host.ledger;
    const holdAsset = side === 'BUY' ? c.quote : c.base;
    let found = mu === undefined ? null : side === 'BUY' ? mu.quote : mu.base;
    if (found === null) found = ledger.find(userId, 'SPOT', holdAsset) ?? null;
    const available = found === null ? 0n : found.available;
    if (available < needFirst + holdSecond) return reject('insufficient_balance');
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    const bp = this.book.bestPrice(opp);
    if (first.type === 'LIMIT_MAKER' && bp !== null && (side === 'BUY' ? bp <= (first.price as bigint) : bp >= (first.price as bigint))) {
      return reject('would_take_liquidity');
    }
    if (lp !== null) {
      for (const l of [above, below]) {
        if (l.type === 'LIMIT_MAKER') continue;
        const kind = legKind(l);
        const stop = l.stopPrice as bigint;
        if (Condition.risesFor(kind, side) ? lp >= stop : lp <= stop) return reject('would_trigger_immediately');
      }
    }

    // Accepted from here on: the list's id, then the above leg's, then the below leg's (id order = the owner's list).
    const ts = cmd.ts;
    const events = host.events;
    const listSeq = host.allocPrioritySeq();
    if (mu === undefined) mu = (trader ?? host.traderFor(userId)).in(this);
    const acc = found ?? ledger.account(userId, 'SPOT', holdAsset);
    if (side === 'BUY') mu.quote = acc;
    else mu.base = acc;
    const legs: Order[] = [];
    for (const l of [above, below]) {
      const seq = host.allocOrderSeq();
      const isMarket = l.type === 'STOP_LOSS' || l.type === 'TAKE_PROFIT';
      const o = new Order(
        seq,
        `${seq}`,
        l.clientOrderId ?? null,
        userId,
        c.symbol,
        side,
        isMarket ? 'MARKET' : 'LIMIT',
        l.type === 'LIMIT_MAKER' ? 'POST_ONLY' : isMarket ? 'IOC' : (l.timeInForce ?? 'GTC'),
        l.price ?? null,
        quantity,
        null,
        side === 'BUY' ? c.base : c.quote,
        stp,
        ts,
      );
      if (l.type !== 'LIMIT_MAKER') o.cond = new Condition(legKind(l), l.stopPrice as bigint, null, false, null, null, null);
      o.mu = mu;
      legs.push(o);
    }
    const [a, b] = legs as [Order, Order];
    const list = new OrderList(listSeq, listClientOrderId ?? null, userId, c.symbol, side, ts, a, b, a.seq, b.seq);
    let restTotal = NONE;
    let resting: Order | null = null;
    for (const o of legs) {
      o.list = list;
      host.registerOrder(o);
      const h = (o === a) === (first === above) ? needFirst : holdSecond;
      ledger.hold(acc, h);
      o.hold = h;
      o.holdAccount = acc;
      mu.openCount++;
      mu.trader.push(o);
      if (o.cond !== null) (this.triggers ??= new TriggerBook()).add(o);
      else {
        restTotal = this.book.add(o);
        resting = o;
      }
    }
    host.registerList(list);
    const views = [a.toView(), b.toView()];
    for (const v of views) events.push({ type: 'orderAccepted', ts, order: v });
    if (resting !== null) events.push({ type: 'depthChanged', ts, symbol: c.symbol, side, price: resting.price as bigint, quantity: restTotal });
    const lv = list.toView();
    events.push({ type: 'orderListUpdated', ts, orderList: lv });
    return { code: 'ok', events, orderList: lv, listOrders: views };
  }

  /**
   * What one OCO leg would hold alone (asset units): SELL the quantity in base units; BUY with a limit price
   * price x quantity, a MARKET stop leg quantity x the last price (with no trade yet, its stop price), as a
   * conditional order's hold (docs/conditional-orders.md, Placement). The list holds the larger of its two legs' needs.
   */
  private ocoLegNeed(side: Side, l: OcoLeg, quantity: bigint): bigint {
    if (side === 'SELL') return quantity * this.baseMult;
    const px = l.price ?? this.lastPrice ?? (l.stopPrice as bigint);
    return px * quantity * this.notionalMult;
  }

  /**
   * The working part of a placement, shared by a new order (`place`) and a triggered conditional order (`trigger`):
   * FOK check, the hold (`hold` units of `found`, or of the user's account created now when `found` is null), the
   * matching, then resting or ending. `acceptedView` is the order's last emitted view (the result when it rests NEW).
   */
  private work(order: Order, mu: MarketUser, found: Account | null, hold: bigint, host: SpotMarketHost, ts: number, acceptedView: OrderView): CommandResult {
    const c = this.config;
    const ledger = host.ledger;
    const events = host.events;
    const { side, timeInForce } = order;
    const limit = order.price;
    const quantity = order.quantity;
    const isMarket = order.orderType === 'MARKET';
    const byQuote = order.quoteAmount !== null;
    if (timeInForce === 'FOK' && this.walk(side, order.userId, order.stp, limit, quantity as bigint, NONE).qty < (quantity as bigint)) {
      order.status = 'EXPIRED';
      const view = order.toView();
      events.push({ type: 'orderUpdated', ts, order: view });
      host.orderClosed(order);
      return { code: 'ok', events, order: view };
    }
    // `found` exists whenever hold > 0 (its available covered the hold).
    const holdAcc = found ?? ledger.account(order.userId, 'SPOT', side === 'BUY' ? c.quote : c.base);
    if (side === 'BUY') mu.quote = holdAcc;
    else mu.base = holdAcc;
    ledger.hold(holdAcc, hold);
    order.hold = hold;
    order.holdAccount = holdAcc;

    const outcome = this.match(order, host, ts);

    let restTotal = NONE;
    if (byQuote) {
      order.status = order.filledQty > 0n && outcome === 'unaffordable' ? 'FILLED' : 'EXPIRED';
    } else if (order.remaining === 0n) {
      order.status = 'FILLED';
    } else if (!isMarket && (timeInForce === 'GTC' || timeInForce === 'POST_ONLY') && outcome !== 'stp') {
      order.status = order.filledQty > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      restTotal = this.book.add(order);
      mu.openCount++;
      // A triggered order is already in its owner's list (since it was placed).
      if (order.userList === null) mu.trader.push(order);
    } else {
      order.status = 'EXPIRED';
    }
    if (restTotal < 0n) {
      ledger.release(holdAcc, order.hold);
      order.hold = 0n;
    }
    // A NEW order is unchanged since it was accepted, so its accepted view is also the result.
    const view = order.status === 'NEW' ? null : order.toView();
    if (view !== null) events.push({ type: 'orderUpdated', ts, order: view });
    if (restTotal >= 0n) events.push({ type: 'depthChanged', ts, symbol: c.symbol, side, price: limit as bigint, quantity: restTotal });
    else host.orderClosed(order);
    return { code: 'ok', events, order: view ?? acceptedView };
  }

  /**
   * Accept a conditional order as pending (every placement check passed): its hold (`hold` units of the held asset),
   * its place in the owner's open orders and in the open-order count, and in the market's `TriggerBook`.
   */
  private acceptPending(
    cmd: PlaceOrderCommand,
    cond: Condition,
    hold: bigint,
    found: Account | null,
    trader: Trader | undefined,
    known: MarketUser | undefined,
    host: SpotMarketHost,
  ): CommandResult {
    const c = this.config;
    const { side, userId, ts } = cmd;
    const seq = host.allocOrderSeq();
    const order = new Order(
      seq,
      `${seq}`,
      cmd.clientOrderId ?? null,
      userId,
      c.symbol,
      side,
      cmd.orderType,
      cmd.timeInForce,
      cmd.price ?? null,
      cmd.quantity ?? null,
      cmd.quoteAmount ?? null,
      side === 'BUY' ? c.base : c.quote,
      cmd.stp ?? 'EXPIRE_TAKER',
      ts,
    );
    order.cond = cond;
    const mu = known ?? (trader ?? host.traderFor(userId)).in(this);
    order.mu = mu;
    host.registerOrder(order);
    const acc = found ?? host.ledger.account(userId, 'SPOT', side === 'BUY' ? c.quote : c.base);
    if (side === 'BUY') mu.quote = acc;
    else mu.base = acc;
    host.ledger.hold(acc, hold);
    order.hold = hold;
    order.holdAccount = acc;
    mu.openCount++;
    mu.trader.push(order);
    (this.triggers ??= new TriggerBook()).add(order);
    const view = order.toView();
    host.events.push({ type: 'orderAccepted', ts, order: view });
    return { code: 'ok', events: host.events, order: view };
  }

  /**
   * Trigger the conditional orders due at the last price, in the same command (docs/conditional-orders.md): in
   * TriggerBook's order, each placed as its LIMIT or MARKET order through `work`; their trades move the last price, so
   * the check repeats until nothing is due, at most MAX_TRIGGERS_PER_COMMAND orders per command (the rest stay due and
   * trigger at the next accepted placeOrder in this market). O(1) when the market has no pending order, or when the
   * last price is the one last checked and nothing was left due.
   */
  runTriggers(host: SpotMarketHost, ts: number): void {
    const tb = this.triggers;
    if (tb === null || tb.live === 0) return;
    let budget = MAX_TRIGGERS_PER_COMMAND;
    for (;;) {
      const p = this.lastPrice;
      if (p === null || (p === tb.checkedAt && !tb.backlog)) return;
      const due = tb.due(p);
      if (due.length === 0) return;
      for (let i = 0; i < due.length; i++) {
        const o = due[i] as Order;
        // An OCO leg due in this round is cancelled when an order triggered before it fills its LIMIT_MAKER sibling:
        // it is skipped (already out of the trigger book; its popped heap entry was counted dead, which only brings
        // the next compaction forward).
        if (!o.isPending) continue;
        if (budget === 0) {
          for (let j = i; j < due.length; j++) tb.putBack(due[j] as Order);
          return;
        }
        budget--;
        tb.take(o);
        this.trigger(o, host, ts);
      }
      // The triggered orders' trades may have moved the price: check again (a cascade).
      if (this.lastPrice === p) return;
    }
  }

  /**
   * One pending order becomes working at `ts` (Binance: same orderId, workingTime): its pending hold is released and
   * the order is placed as a new one would be, with the checks a placement makes at that moment; the funds it may use
   * are its released hold plus the owner's available balance (only a MARKET BUY by quantity can use more than its
   * hold: the walk prices it at the book). If it cannot be placed it EXPIRES with `expireReason` (market_halted,
   * notional_below_minimum, insufficient_balance, no_liquidity) and holds nothing.
   */
  private trigger(o: Order, host: SpotMarketHost, ts: number): void {
    // An OCO leg that triggers cancels the other leg first, so its funds (the list's one hold) are free for it.
    if (o.list !== null) this.resolveList(o, host, ts);
    const cfg = this.config;
    const cond = o.cond as Condition;
    const mu = o.mu as MarketUser;
    const acc = o.holdAccount as Account;
    cond.workingTs = ts;
    cond.prioritySeq = host.allocPrioritySeq();
    o.updatedTs = ts;
    host.ledger.release(acc, o.hold);
    o.hold = 0n;
    mu.openCount--;
    const view = o.toView();
    host.events.push({ type: 'orderUpdated', ts, order: view });
    const side = o.side;
    const isMarket = o.orderType === 'MARKET';
    const qty = o.quantity as bigint;
    let code: SpotRejectCode | null = null;
    let hold = 0n;
    if (cfg.status !== 'TRADING') code = 'market_halted';
    else if (side === 'SELL') hold = qty * this.baseMult;
    else if (o.quoteAmount !== null) hold = o.quoteAmount;
    else if (!isMarket) hold = (o.price as bigint) * qty * this.notionalMult;
    else if (
      cfg.minNotional > 0n &&
      this.book.bestPrice('SELL') !== null &&
      this.walk(side, o.userId, 'NONE', null, qty, cfg.minNotional).quote < cfg.minNotional
    ) {
      code = 'notional_below_minimum';
    } else hold = this.walk(side, o.userId, o.stp, null, qty, acc.available).quote;
    if (code === null && acc.available < hold) code = 'insufficient_balance';
    if (code === null && isMarket && this.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') === null) code = 'no_liquidity';
    if (code !== null) {
      o.status = 'EXPIRED';
      cond.expireReason = code;
      host.events.push({ type: 'orderUpdated', ts, order: o.toView() });
      host.orderClosed(o);
      return;
    }
    this.work(o, mu, acc, hold, host, ts, view);
  }

  /**
   * Simulate a taker (side, user, STP mode, limit price or null for MARKET, quantity in qty units)
   * against the book without changing anything: the quantity it would fill and its quote cost
   * (quote asset units), visiting makers in priority order as `match` would (own makers stop it
   * under EXPIRE_TAKER/EXPIRE_BOTH, are stepped over under EXPIRE_MAKER, are counted under NONE).
   * Used for FOK and for the exact hold of a MARKET BUY by quantity.
   *
   * Bounded work: it stops once `quantity` is reached and, when `budget` (quote units) is not -1n,
   * as soon as the running cost exceeds `budget`; the result then has `quote > budget` (the cost
   * of a part only, which already proves the whole is unaffordable). So it visits at most the
   * makers that fill the order plus one, or those the budget pays for plus one, plus the taker's
   * own makers stepped over (at most MAX_OPEN_ORDERS_PER_MARKET).
   */
  walk(side: Side, userId: string, stp: StpMode, limit: bigint | null, quantity: bigint, budget: bigint): WalkResult {
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    let left = quantity;
    let quote = 0n;
    const nm = this.notionalMult; // a multiplication by 1n would still allocate a bigint
    for (let m = this.book.best(opp); m !== undefined && left > 0n; m = this.book.after(m)) {
      const p = m.price as bigint;
      if (limit !== null && (side === 'BUY' ? p > limit : p < limit)) break;
      if (stp !== 'NONE' && m.userId === userId) {
        if (stp === 'EXPIRE_MAKER') continue;
        break;
      }
      const q = left < m.remaining ? left : m.remaining;
      quote += nm === 1n ? p * q : p * q * nm;
      left -= q;
      if (budget >= 0n && quote > budget) break;
    }
    return { qty: quantity - left, quote };
  }

  /** Match a taker against the book; returns why it stopped. Emits trades, maker updates and depth changes. */
  private match(t: Order, host: SpotMarketHost, ts: number): 'done' | 'stp' | 'unaffordable' {
    const book = this.book;
    const events = host.events;
    const opp: Side = t.side === 'BUY' ? 'SELL' : 'BUY';
    const limit = t.price;
    const byQuote = t.quoteAmount !== null;
    const symbol = this.config.symbol;
    let depthPrice = NONE;
    let depthQty = 0n;
    let outcome: 'done' | 'stp' | 'unaffordable' = 'done';
    for (;;) {
      if (!byQuote && t.remaining === 0n) break;
      const m = book.best(opp);
      if (m === undefined) break;
      const p = m.price as bigint;
      if (limit !== null && (t.side === 'BUY' ? p > limit : p < limit)) break;
      let q: bigint;
      if (byQuote) {
        const a = t.hold / (p * this.notionalMult);
        q = a - (a % this.config.stepSize);
        if (q === 0n) {
          outcome = 'unaffordable';
          break;
        }
        if (q > m.remaining) q = m.remaining;
      } else {
        q = t.remaining < m.remaining ? t.remaining : m.remaining;
      }
      // Self-trade prevention acts only on a maker the taker would trade with: one it can still
      // buy a step from (checked above), as a filled taker never reaches the next maker.
      if (m.userId === t.userId && t.stp !== 'NONE') {
        if (t.stp === 'EXPIRE_TAKER') {
          outcome = 'stp';
          break;
        }
        if (depthPrice !== p && depthPrice >= 0n) events.push({ type: 'depthChanged', ts, symbol, side: opp, price: depthPrice, quantity: depthQty });
        depthPrice = p;
        depthQty = this.closeResting(m, 'EXPIRED', host, ts);
        // An OCO leg expired by self-trade prevention ends its list: the other (pending) leg is cancelled.
        if (m.list !== null) this.resolveList(m, host, ts);
        if (t.stp === 'EXPIRE_BOTH') {
          outcome = 'stp';
          break;
        }
        continue;
      }
      if (depthPrice !== p && depthPrice >= 0n) events.push({ type: 'depthChanged', ts, symbol, side: opp, price: depthPrice, quantity: depthQty });
      depthPrice = p;
      depthQty = this.fill(t, m, p, q, host, ts);
    }
    if (depthPrice >= 0n) events.push({ type: 'depthChanged', ts, symbol, side: opp, price: depthPrice, quantity: depthQty });
    return outcome;
  }

  /** Settle one fill of q (qty units) at the maker's price p; returns the maker level's new total. */
  private fill(t: Order, m: Order, p: bigint, q: bigint, host: SpotMarketHost, ts: number): bigint {
    const ledger = host.ledger;
    const c = this.config;
    // Multiplying by a factor of 1n would still allocate a new bigint: skip it.
    const nm = this.notionalMult;
    const quote = nm === 1n ? p * q : p * q * nm;
    const base = this.baseMult === 1n ? q : q * this.baseMult;
    const takerBuys = t.side === 'BUY';
    const buyer = takerBuys ? t : m;
    const seller = takerBuys ? m : t;
    // Both orders are funded, so holdAccount is set; the receiving accounts are looked up once per order.
    const bQuote = buyer.holdAccount as Account;
    const sBase = seller.holdAccount as Account;
    const bMu = buyer.mu as MarketUser;
    const sMu = seller.mu as MarketUser;
    const bBase = bMu.base ?? (bMu.base = ledger.account(buyer.userId, 'SPOT', c.base));
    const sQuote = sMu.quote ?? (sMu.quote = ledger.account(seller.userId, 'SPOT', c.quote));
    // Delivery both ways out of the holds.
    ledger.post(sBase, 'frozen', bBase, 'available', base);
    seller.hold -= base;
    ledger.post(bQuote, 'frozen', sQuote, 'available', quote);
    buyer.hold -= quote;
    // A taker BUY limit filled below its limit gets the difference of its hold back.
    if (takerBuys && t.price !== null && t.price > p) {
      const excess = nm === 1n ? (t.price - p) * q : (t.price - p) * q * nm;
      ledger.release(bQuote, excess);
      t.hold -= excess;
    }
    // Fees in the asset received, rounded up (exchange's favour).
    const buyerFee = feeUp(base, takerBuys ? this.takerFeePpm : this.makerFeePpm);
    const sellerFee = feeUp(quote, takerBuys ? this.makerFeePpm : this.takerFeePpm);
    ledger.post(bBase, 'available', this.feeBase, 'available', buyerFee);
    ledger.post(sQuote, 'available', this.feeQuote, 'available', sellerFee);
    buyer.fee += buyerFee;
    seller.fee += sellerFee;
    t.filledQty += q;
    t.filledQuote += quote;
    t.updatedTs = ts;
    if (t.quoteAmount === null) t.remaining -= q;
    m.filledQty += q;
    m.filledQuote += quote;
    m.updatedTs = ts;
    let total: bigint;
    if (q === m.remaining) {
      total = this.book.remove(m);
      (m.mu as MarketUser).openCount--;
      m.remaining = 0n;
      m.status = 'FILLED';
      host.orderClosed(m);
    } else {
      total = this.book.reduce(m, q);
      m.status = 'PARTIALLY_FILLED';
    }
    this.lastPrice = p;
    host.events.push({
      type: 'trade',
      ts,
      tradeId: host.allocTradeId(),
      symbol: c.symbol,
      price: p,
      quantity: q,
      quoteAmount: quote,
      takerSide: t.side,
      makerOrderId: m.orderId,
      takerOrderId: t.orderId,
      makerUserId: m.userId,
      takerUserId: t.userId,
      makerFee: takerBuys ? sellerFee : buyerFee,
      makerFeeAsset: m.feeAsset,
      takerFee: takerBuys ? buyerFee : sellerFee,
      takerFeeAsset: t.feeAsset,
    });
    host.events.push({ type: 'orderUpdated', ts, order: m.toView() });
    // A fill of an OCO leg, even partial, cancels the other leg (Binance: one order filled cancels the other). The
    // other leg of a resting leg is always pending (only one leg of a list ever rests), so the book is not touched.
    if (m.list !== null) this.resolveList(m, host, ts);
    return total;
  }

  /**
   * Take a resting order out of the book as CANCELED or EXPIRED: release its whole remaining
   * hold, emit its update; returns the level's new total (the caller emits the depth change).
   */
  closeResting(o: Order, status: 'CANCELED' | 'EXPIRED', host: SpotMarketHost, ts: number): bigint {
    const total = this.book.remove(o);
    (o.mu as MarketUser).openCount--;
    // A resting order always has its hold account (set when it was accepted, or by SpotEngine.restoreOrders).
    host.ledger.release(o.holdAccount as Account, o.hold);
    o.hold = 0n;
    o.status = status;
    o.updatedTs = ts;
    host.orderClosed(o);
    host.events.push({ type: 'orderUpdated', ts, order: o.toView() });
    return total;
  }

  /**
   * Cancel a resting or pending order (SpotEngine checked ownership and that it is open); returns its view. A leg of
   * an OCO list that still executes takes the other leg with it (Binance: cancelling either order cancels the list).
   */
  cancel(o: Order, host: SpotMarketHost, ts: number): OrderView {
    let view: OrderView;
    if (o.isPending) view = this.cancelPending(o, host, ts);
    else {
      const total = this.closeResting(o, 'CANCELED', host, ts);
      view = (host.events[host.events.length - 1] as { order: OrderView }).order;
      host.events.push({ type: 'depthChanged', ts, symbol: this.config.symbol, side: o.side, price: o.price as bigint, quantity: total });
    }
    if (o.list !== null) this.resolveList(o, host, ts);
    return view;
  }

  /** Cancel a pending conditional order: out of the TriggerBook, its hold released, CANCELED; returns its view. */
  private cancelPending(o: Order, host: SpotMarketHost, ts: number): OrderView {
    (this.triggers as TriggerBook).remove(o);
    (o.mu as MarketUser).openCount--;
    host.ledger.release(o.holdAccount as Account, o.hold);
    o.hold = 0n;
    o.status = 'CANCELED';
    o.updatedTs = ts;
    host.orderClosed(o);
    const view = o.toView();
    host.events.push({ type: 'orderUpdated', ts, order: view });
    return view;
  }

  /**
   * The OCO rule (docs/conditional-orders.md, OCO): leg `o` of a list that still executes has just filled, triggered,
   * been cancelled or expired, so the list is resolved at `ts` and its other leg, if open, is cancelled now (a resting
   * one leaves the book with its depth change); then `orderListUpdated` (ALL_DONE). No-op for a resolved list.
   */
  private resolveList(o: Order, host: SpotMarketHost, ts: number): void {
    const l = o.list as OrderList<Order>;
    if (l.resolved) return;
    l.resolved = true;
    l.updatedTs = ts;
    const s = l.sibling(o);
    if (s !== null && s.isOpen) {
      if (s.isPending) this.cancelPending(s, host, ts);
      else {
        const total = this.closeResting(s, 'CANCELED', host, ts);
        host.events.push({ type: 'depthChanged', ts, symbol: this.config.symbol, side: s.side, price: s.price as bigint, quantity: total });
      }
    }
    host.events.push({ type: 'orderListUpdated', ts, orderList: l.toView() });
  }

  /**
   * Put an open order from a snapshot back into the book (SpotEngine.restoreOrders; orders in id order, so
   * FIFO within a level is kept): its user record, hold account, resting count and open-order list.
   */
  restoreResting(o: Order, trader: Trader, ledger: Ledger, intoBook = true): void {
    const mu = trader.in(this);
    o.mu = mu;
    const acc = ledger.account(o.userId, 'SPOT', o.side === 'BUY' ? this.config.quote : this.config.base);
    o.holdAccount = acc;
    if (o.side === 'BUY') mu.quote = acc;
    else mu.base = acc;
    if (intoBook) this.book.add(o);
    mu.openCount++;
    trader.push(o);
  }

  /**
   * Put a pending conditional order from a snapshot back (SpotEngine.restoreOrders, in id order): its user record,
   * hold account, open-order count and list, and the market's TriggerBook.
   */
  restorePending(o: Order, trader: Trader, ledger: Ledger): void {
    const mu = trader.in(this);
    o.mu = mu;
    const acc = ledger.account(o.userId, 'SPOT', o.side === 'BUY' ? this.config.quote : this.config.base);
    o.holdAccount = acc;
    if (o.side === 'BUY') mu.quote = acc;
    else mu.base = acc;
    mu.openCount++;
    trader.push(o);
    (this.triggers ??= new TriggerBook()).add(o);
  }

  /** Units a resting order must have frozen: BUY price*remaining in quote units, SELL remaining in base units. */
  requiredHold(o: Order): bigint {
    return o.side === 'BUY' ? (o.price as bigint) * o.remaining * this.notionalMult : o.remaining * this.baseMult;
  }
}

// ---- the traders: derived per-user state of the spot markets ------------------------------------------------

/*
 * The engine's working record of one user who has had an accepted order: the user's open orders
 * (oldest first), client order ids of retained orders, and per market a `MarketUser` with the count
 * of the user's resting orders there and the user's SPOT accounts of the market's two assets.
 *
 * Derived state only: nothing here is in snapshots or the state hash. It is rebuilt by
 * `SpotEngine.restoreOrders` from the orders it re-adds, and the accounts are the ledger's own objects
 * (never removed or replaced, so a cached account never goes stale). It exists so that a command
 * does one Map lookup (userId -> Trader) instead of one per structure it touches: the per-user
 * maps this replaces (open-order lists, per-book resting counts, per-market account caches,
 * client order ids) cost about a fifth of the engine's time on the benchmark flow.
 */

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
