/**
 * Spot trading's state machine: the assets, the spot markets (spot-market.ts: one book each, placement, matching,
 * settlement, cancellation), the retained orders (the order index and the closed-order retention queue), the traders
 * (derived per-user records) and convert (convert.ts). The engine (engine.ts) owns one and routes the spot commands
 * here (`SPOT_COMMANDS`); what spot needs of the rest of the engine (the ledger, the command's event list, the order
 * and trade sequences it shares with the perpetuals, the users' frozen flag, the idempotency keys) comes through
 * `SpotHost`. Rules: types.ts (each command's comment) and spot-market.ts; amounts in the asset's smallest unit,
 * prices in price units, quantities in qty units (types.ts).
 *
 * Idempotency: a placeOrder's (userId, clientOrderId) key is recorded only when the order is accepted; a repeat
 * returns code 'ok', no events, `duplicateOfOrderId` and, while the order is retained, its current view. A client
 * order id is also recognised as long as its order is retained (open orders always are), even after its key expired.
 */
import { isKey, isNonNegInt, MAX_SAFE } from '../checks';
import type { Ledger } from '../ledger/ledger';
import type {
  Asset,
  CancelReplaceNewOrder,
  CancelReplaceOutcome,
  Command,
  CommandResult,
  DepthLevel,
  EngineEvent,
  MarketConfig,
  MarketStatus,
  OrderListWithOrders,
  OrderTriggerView,
  OrderView,
} from '../types';
import type { BookKind, OrderBook } from './book';
import { previewConvert, type ConvertPreview } from './convert';
import { Condition, Order } from './order';
import { OrderIndex } from './order-index';
import { OrderList } from './order-list';
import { type MarketUser, SpotMarket, type SpotMarketHost, Trader } from './spot-market';

/** The command types spot trading handles (the engine routes them here); `SpotCommand` is their union. */
export const SPOT_COMMANDS = [
  'addAsset',
  'addMarket',
  'setMarketStatus',
  'placeOrder',
  'cancelOrder',
  'convert',
  'placeOrderList',
  'cancelOrderList',
  'cancelReplaceOrder',
] as const satisfies readonly Command['type'][];
/** The spot commands (types.ts has each one's rules). */
export type SpotCommand = Extract<Command, { type: (typeof SPOT_COMMANDS)[number] }>;

import type { SpotRejectCode } from './spot-codes';
export { SPOT_REJECT_CODES, type SpotRejectCode } from './spot-codes';

/** What spot trading needs of the engine (the engine implements it). */
export interface SpotHost {
  readonly ledger: Ledger;
  /** The command's events so far; spot appends its own. */
  readonly events: EngineEvent[];
  /** Next order sequence number (the order id is its decimal string); shared with the perpetuals' orders. */
  allocOrderSeq(): number;
  /** Next trade id (decimal string); shared with the perpetuals' trades. */
  allocTradeId(): string;
  /** True when the user's profile field `frozen` is '1': placeOrder (and so convert) answers account_frozen. */
  isFrozen(userId: string): boolean;
  /** The order seq of the live (userId, clientOrderId) placeOrder key at `ts`, or undefined. */
  orderKeyLookup(userId: string, clientOrderId: string, ts: number): number | undefined;
  /** Records the (userId, clientOrderId) placeOrder key of the accepted order `seq` at `ts`. */
  orderKeyAdd(userId: string, clientOrderId: string, ts: number, seq: number): void;
}

/** Default of `EngineOptions.closedOrderRetention`. */
export const DEFAULT_CLOSED_ORDER_RETENTION = 1_000;

/** Largest asset scale accepted by addAsset (decimal places). */
export const MAX_ASSET_SCALE = 36;

function reject(code: SpotRejectCode): CommandResult {
  return { code, events: [] };
}

/**
 * A conditional order's condition in a snapshot (order.ts `Condition`): [kind, stopPrice, trailingDelta, tracking (1 or
 * 0), trailingRef, workingTs, expireReason, prioritySeq]; bigints as decimal strings or null.
 */
export type ConditionRow = [
  OrderTriggerView['kind'],
  string | null,
  number | null,
  0 | 1,
  string | null,
  number | null,
  OrderTriggerView['expireReason'],
  number | null,
];

/**
 * A leg's order list in a snapshot (order-list.ts `OrderList`): [listSeq, listClientOrderId, aboveSeq, belowSeq,
 * createdTs, updatedTs]; both legs carry it, so a list is restored from whichever of its legs is retained.
 */
export type ListRow = [number, string | null, number, number, number, number];

/**
 * One order of a snapshot: [seq, clientOrderId, userId, symbol, side, orderType, timeInForce, price, quantity,
 * quoteAmount, feeAsset, stp, createdTs, updatedTs, status, filledQty, filledQuote, fee, remaining, hold] and, only for
 * a conditional order, its `ConditionRow` (null on a LIMIT_MAKER leg of an OCO list), and only for a leg of an OCO
 * list its `ListRow` (so snapshots without conditional orders or lists are what they were); bigints as decimal
 * strings (price, quantity and quoteAmount null when absent).
 */
export type OrderRow = [
  number,
  string | null,
  string,
  string,
  OrderView['side'],
  OrderView['orderType'],
  OrderView['timeInForce'],
  string | null,
  string | null,
  string | null,
  string,
  Order['stp'],
  number,
  number,
  OrderView['status'],
  string,
  string,
  string,
  string,
  string,
  (ConditionRow | null)?,
  ListRow?,
];

/** One market of a snapshot: its configuration (bigints as decimal strings), its status and last trade price. */
export interface MarketRow {
  symbol: string;
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
  makerFeePpm: number;
  takerFeePpm: number;
  status: MarketStatus;
  lastPrice: string | null;
}

/**
 * Spot's part of the engine snapshot. The engine writes these fields under the same names, between its own (the
 * ledger's accounts come after `markets`), so the snapshot's text is what it was when spot lived in engine.ts.
 */
export interface SpotSnapshot {
  assets: Asset[];
  markets: MarketRow[];
  closedOrderRetention: number;
  /** open orders in id order (arrival order, so FIFO within a level is kept on restore) */
  openOrders: OrderRow[];
  /** ended orders still retained, in the order they ended */
  closedOrders: OrderRow[];
}

/** Spot trading's state machine (see the file comment). It is the markets' host (`SpotMarketHost`). */
export class SpotEngine implements SpotMarketHost {
  readonly ledger: Ledger;
  /** The current command's event list (the host's, set by `execute`). */
  events: EngineEvent[] = [];
  private readonly assetsByCode = new Map<string, Asset>();
  private readonly marketsBySymbol = new Map<string, SpotMarket>();
  /** Every retained order (open, or among the last ended) by sequence number. */
  private readonly orders = new OrderIndex();
  /**
   * userId -> the user's working record (spot-market.ts, Trader): open orders oldest first, client order ids
   * of retained orders, per-market resting counts and accounts. Derived from the orders (rebuilt by
   * restore), so not part of snapshots; one lookup per command.
   */
  private readonly traders = new Map<string, Trader>();
  /** Ended orders still retained, oldest first, from index `closedHead`. */
  private closedQueue: (Order | undefined)[] = [];
  private closedHead = 0;
  /** The seq of the order this machine last allocated (the accepted order of a placeOrder; not state). */
  private lastOrderSeq = 0;
  /** Retained OCO lists (at least one leg retained) by list seq; derived from the legs, rebuilt by restore. */
  private readonly lists = new Map<number, OrderList<Order>>();
  /** userId -> listClientOrderId -> retained list (derived, as `lists`). */
  private readonly listsByClient = new Map<string, Map<string, OrderList<Order>>>();

  /**
   * `host` is the engine (read while a command runs, never in here); `closedOrderRetention` is how many ended orders
   * are kept (EngineOptions; throws RangeError unless a non-negative integer below 2^40).
   */
  constructor(
    private readonly host: SpotHost,
    private readonly bookKind: BookKind,
    readonly closedOrderRetention: number,
  ) {
    if (!isNonNegInt(closedOrderRetention, 2 ** 40)) throw new RangeError('closedOrderRetention must be a non-negative integer');
    this.ledger = host.ledger;
  }

  /** Applies one spot command (the engine started the command: events, ledger touch list); rejections are codes. */
  execute(cmd: SpotCommand): CommandResult {
    this.events = this.host.events;
    switch (cmd.type) {
      case 'placeOrder':
        return this.placeOrder(cmd);
      case 'cancelOrder':
        return this.cancelOrder(cmd);
      case 'addAsset':
        return this.addAsset(cmd);
      case 'addMarket':
        return this.addMarket(cmd);
      case 'setMarketStatus':
        return this.setMarketStatus(cmd);
      case 'convert':
        return this.convert(cmd);
      case 'placeOrderList':
        return this.placeOrderList(cmd);
      case 'cancelOrderList':
        return this.cancelOrderList(cmd);
      case 'cancelReplaceOrder':
        return this.cancelReplaceOrder(cmd);
    }
  }

  // ---- SpotMarketHost -------------------------------------------------------------------------

  /** @internal */
  allocOrderSeq(): number {
    return (this.lastOrderSeq = this.host.allocOrderSeq());
  }
  /** @internal */
  allocPrioritySeq(): number {
    return this.host.allocOrderSeq();
  }
  /** @internal */
  allocTradeId(): string {
    return this.host.allocTradeId();
  }
  /** @internal */
  traderFor(userId: string): Trader {
    let t = this.traders.get(userId);
    if (t === undefined) {
      t = new Trader(userId);
      this.traders.set(userId, t);
    }
    return t;
  }
  /** @internal */
  registerOrder(o: Order): void {
    this.orders.set(o);
    if (o.clientOrderId !== null) {
      const t = o.mu !== null ? o.mu.trader : this.traderFor(o.userId);
      (t.clientOrders ??= new Map()).set(o.clientOrderId, o);
    }
  }
  /** @internal */
  orderClosed(o: Order): void {
    o.userList?.unlink(o);
    this.orderEnded(o);
  }
  /** @internal */
  orderEnded(o: Order): void {
    if (o.hold !== 0n) throw new Error(`engine: order ${o.orderId} ended with hold ${o.hold}`);
    const q = this.closedQueue;
    q.push(o);
    if (q.length - this.closedHead > this.closedOrderRetention) {
      const old = q[this.closedHead] as Order;
      q[this.closedHead++] = undefined;
      this.forget(old);
      if (this.closedHead >= 1024 && this.closedHead * 2 >= q.length) {
        this.closedQueue = q.slice(this.closedHead);
        this.closedHead = 0;
      }
    }
  }
  /** @internal */
  registerList(l: OrderList<Order>): void {
    this.lists.set(l.seq, l);
    if (l.listClientOrderId !== null) {
      let m = this.listsByClient.get(l.userId);
      if (m === undefined) this.listsByClient.set(l.userId, (m = new Map()));
      m.set(l.listClientOrderId, l);
    }
  }
  private forget(o: Order): void {
    const l = o.list;
    if (l !== null) {
      // A list is retained while one of its legs is.
      if (l.above === o) l.above = null;
      else l.below = null;
      if (l.above === null && l.below === null) {
        this.lists.delete(l.seq);
        const m = l.listClientOrderId === null ? undefined : this.listsByClient.get(l.userId);
        if (m !== undefined && m.get(l.listClientOrderId as string) === l) m.delete(l.listClientOrderId as string);
      }
    }
    this.orders.delete(o.seq);
    if (o.clientOrderId !== null) {
      const m = this.traders.get(o.userId)?.clientOrders;
      if (m != null && m.get(o.clientOrderId) === o) m.delete(o.clientOrderId);
    }
  }

  // ---- commands -------------------------------------------------------------------------------

  private placeOrder(cmd: Extract<Command, { type: 'placeOrder' }>): CommandResult {
    const cid = cmd.clientOrderId;
    const trader = this.traders.get(cmd.userId);
    if (cid !== undefined) {
      // The key (within the window) names the latest order with this client id; past the window, a
      // still retained order with it counts too (so open orders never share a client id).
      const k = this.host.orderKeyLookup(cmd.userId, cid, cmd.ts);
      const prev = k !== undefined ? this.orders.get(k) : trader?.clientOrders?.get(cid);
      if (prev !== undefined) return { code: 'ok', events: [], order: prev.toView(), duplicateOfOrderId: prev.orderId };
      if (k !== undefined) return { code: 'ok', events: [], duplicateOfOrderId: `${k}` };
    }
    const m = this.marketsBySymbol.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (this.host.isFrozen(cmd.userId)) return reject('account_frozen');
    const r = m.place(cmd, this, trader);
    if (r.code !== 'ok') return r;
    if (cid !== undefined) this.host.orderKeyAdd(cmd.userId, cid, cmd.ts, this.lastOrderSeq);
    // Conditional orders due at the new last price trigger in this command (spot-market.ts runTriggers); the
    // result then carries the placed order as it is after them.
    const before = this.events.length;
    m.runTriggers(this, cmd.ts);
    if (this.events.length !== before) {
      const placed = this.orders.get(this.lastOrderSeq);
      if (placed !== undefined) r.order = placed.toView();
    }
    return r;
  }

  private convert(cmd: Extract<Command, { type: 'convert' }>): CommandResult {
    const { userId, symbol, side, amount, minReceive, expiresTs, clientId, ts } = cmd;
    if (
      typeof clientId !== 'string' ||
      typeof amount !== 'bigint' ||
      typeof minReceive !== 'bigint' ||
      minReceive < 0n ||
      !isNonNegInt(expiresTs, MAX_SAFE) ||
      (side !== 'BUY' && side !== 'SELL')
    ) {
      return reject('invalid_order');
    }
    // A retry of an accepted convert returns its order, whatever the time (placeOrder's key).
    const dup = this.host.orderKeyLookup(userId, clientId, ts);
    if (dup === undefined) {
      if (ts > expiresTs) return reject('convert_quote_expired');
      const m = this.marketsBySymbol.get(symbol);
      if (m === undefined) return reject('market_not_found');
      if (amount <= 0n) return reject('amount_invalid');
      if (side === 'SELL' && amount % (m.baseMult * m.config.stepSize) !== 0n) return reject('quantity_not_on_step');
      if (
        m.config.status === 'TRADING' &&
        m.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') !== null &&
        previewConvert(m, side, userId, amount).receive < minReceive
      ) {
        return reject('convert_slippage');
      }
      const sell = side === 'SELL';
      return this.placeOrder({
        type: 'placeOrder',
        ts,
        userId,
        symbol,
        side,
        orderType: 'MARKET',
        timeInForce: 'IOC',
        ...(sell ? { quantity: amount / m.baseMult } : { quoteAmount: amount }),
        clientOrderId: clientId,
      });
    }
    return this.placeOrder({ type: 'placeOrder', ts, userId, symbol, side, orderType: 'MARKET', timeInForce: 'IOC', clientOrderId: clientId });
  }

  private cancelOrder(cmd: Extract<Command, { type: 'cancelOrder' }>): CommandResult {
    const { userId, orderId, clientOrderId } = cmd;
    if (typeof userId !== 'string' || (orderId === undefined) === (clientOrderId === undefined)) return reject('invalid_order');
    const o = orderId !== undefined ? this.orders.get(parseOrderId(orderId)) : this.traders.get(userId)?.clientOrders?.get(clientOrderId as string);
    if (o === undefined || o.userId !== userId) return reject('order_not_found');
    if (!o.isOpen) return { ...reject('order_not_found'), order: o.toView() };
    // An open order always has its market record (set when accepted or restored).
    const view = (o.mu as MarketUser).market.cancel(o, this, cmd.ts);
    const r: CommandResult = { code: 'ok', events: this.events, order: view };
    if (o.list !== null) Object.assign(r, this.listResult(o.list));
    return r;
  }

  /**
   * cancelReplaceOrder (types.ts): the cancel, then the placement, in this one command. A malformed command (userId,
   * mode, restriction, no order name, `order` not an object) is invalid_order and an unknown market market_not_found,
   * before either step. The placement is `placeOrder` itself, run after the cancel released the order's hold.
   */
  private cancelReplaceOrder(cmd: Extract<Command, { type: 'cancelReplaceOrder' }>): CommandResult {
    const { userId, symbol, mode, cancelOrderId, cancelClientOrderId, cancelRestriction: restriction, order: terms } = cmd;
    if (
      typeof userId !== 'string' ||
      (mode !== 'STOP_ON_FAILURE' && mode !== 'ALLOW_FAILURE') ||
      (restriction !== undefined && restriction !== 'ONLY_NEW' && restriction !== 'ONLY_PARTIALLY_FILLED') ||
      (cancelOrderId === undefined && cancelClientOrderId === undefined) ||
      (cancelOrderId !== undefined && typeof cancelOrderId !== 'string') ||
      (cancelClientOrderId !== undefined && typeof cancelClientOrderId !== 'string') ||
      terms === null ||
      typeof terms !== 'object'
    ) {
      return reject('invalid_order');
    }
    if (!this.marketsBySymbol.has(symbol)) return reject('market_not_found');
    // 1. The cancel: the order by id (its client order id checked when both are given), else by client order id.
    const o =
      cancelOrderId !== undefined ? this.orders.get(parseOrderId(cancelOrderId)) : this.traders.get(userId)?.clientOrders?.get(cancelClientOrderId as string);
    let cancelCode: SpotRejectCode | 'ok' = 'ok';
    let cancelRestricted = false;
    if (o === undefined || o.userId !== userId || o.symbol !== symbol || !o.isOpen) cancelCode = 'order_not_found';
    else if (cancelClientOrderId !== undefined && o.clientOrderId !== cancelClientOrderId) cancelCode = 'order_not_found';
    else if ((restriction === 'ONLY_NEW' && o.status !== 'NEW') || (restriction === 'ONLY_PARTIALLY_FILLED' && o.status !== 'PARTIALLY_FILLED')) {
      cancelCode = 'order_not_found';
      cancelRestricted = true;
    }
    let canceledOrder: OrderView | null = null;
    // An open order always has its market record (set when accepted or restored).
    if (cancelCode === 'ok') canceledOrder = (o as Order & { mu: MarketUser }).mu.market.cancel(o as Order, this, cmd.ts);
    const outcome: CancelReplaceOutcome = {
      cancelResult: cancelCode === 'ok' ? 'SUCCESS' : 'FAILURE',
      cancelCode,
      cancelRestricted,
      canceledOrder,
      newOrderResult: 'NOT_ATTEMPTED',
      newOrderCode: null,
    };
    if (cancelCode !== 'ok' && mode === 'STOP_ON_FAILURE') return { code: cancelCode, events: [], cancelReplace: outcome };
    // 2. The new order, as placeOrder places it; a refusal changes nothing, so the cancel's events stay the command's.
    const placed = this.placeOrder({ ...placeTerms(terms), type: 'placeOrder', ts: cmd.ts, userId, symbol });
    outcome.newOrderResult = placed.code === 'ok' ? 'SUCCESS' : 'FAILURE';
    outcome.newOrderCode = placed.code;
    if (cancelCode !== 'ok' && placed.code !== 'ok') return { code: cancelCode, events: [], cancelReplace: outcome };
    const r: CommandResult = { code: 'ok', events: this.events, cancelReplace: outcome };
    if (placed.code === 'ok') {
      if (placed.order !== undefined) r.order = placed.order;
      if (placed.duplicateOfOrderId !== undefined) r.duplicateOfOrderId = placed.duplicateOfOrderId;
    }
    return r;
  }

  /** The list and its legs' views (the retained ones) for a result. */
  private listResult(l: OrderList<Order>): Pick<CommandResult, 'orderList' | 'listOrders'> {
    const legs: OrderView[] = [];
    for (const o of [l.above, l.below]) if (o !== null) legs.push(o.toView());
    return { orderList: l.toView(), listOrders: legs };
  }

  /**
   * placeOrderList (an OCO; spot-market.ts `placeList` has the checks). Idempotency: a retained list with the same
   * (userId, listClientOrderId) is returned as is ('ok', no events, `duplicate`); so is the list of a leg whose
   * clientOrderId names a live key or a retained order of the user (a retry without a list client id); a leg client id
   * that names an order outside any list is refused invalid_order (Binance: duplicate order). The legs' client ids
   * are recorded as placeOrder keys.
   */
  private placeOrderList(cmd: Extract<Command, { type: 'placeOrderList' }>): CommandResult {
    const { userId, listClientOrderId, ts } = cmd;
    const trader = this.traders.get(userId);
    if (typeof listClientOrderId === 'string') {
      const prev = this.listsByClient.get(userId)?.get(listClientOrderId);
      if (prev !== undefined) return { code: 'ok', events: [], duplicate: true, ...this.listResult(prev) };
    }
    for (const leg of [cmd.above, cmd.below]) {
      const cid = leg !== null && typeof leg === 'object' ? leg.clientOrderId : undefined;
      if (typeof cid !== 'string') continue;
      const k = this.host.orderKeyLookup(userId, cid, ts);
      const prev = k !== undefined ? this.orders.get(k) : trader?.clientOrders?.get(cid);
      if (prev !== undefined) {
        if (prev.list !== null && prev.userId === userId) return { code: 'ok', events: [], duplicate: true, ...this.listResult(prev.list) };
        return reject('invalid_order');
      }
      if (k !== undefined) return { code: 'ok', events: [], duplicate: true, duplicateOfOrderId: `${k}` };
    }
    const m = this.marketsBySymbol.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const r = m.placeList(cmd, this, trader);
    if (r.code !== 'ok') return r;
    for (const v of r.listOrders as OrderView[]) if (v.clientOrderId !== null) this.host.orderKeyAdd(userId, v.clientOrderId, ts, parseOrderId(v.orderId));
    // An accepted placement runs the market's due orders left by the per-command cap (docs/conditional-orders.md).
    m.runTriggers(this, ts);
    return r;
  }

  /**
   * cancelOrderList by orderListId or listClientOrderId (owner only): every open leg CANCELED, the list ALL_DONE.
   * order_not_found for an unknown list, another user's, or one without an open leg (then with the list's view).
   */
  private cancelOrderList(cmd: Extract<Command, { type: 'cancelOrderList' }>): CommandResult {
    const { userId, orderListId, listClientOrderId } = cmd;
    if (typeof userId !== 'string' || (orderListId === undefined) === (listClientOrderId === undefined)) return reject('invalid_order');
    const l = orderListId !== undefined ? this.lists.get(parseOrderId(orderListId)) : this.listsByClient.get(userId)?.get(listClientOrderId as string);
    if (l === undefined || l.userId !== userId) return reject('order_not_found');
    const open = [l.above, l.below].filter((o): o is Order => o !== null && o.isOpen);
    if (open.length === 0) return { ...reject('order_not_found'), ...this.listResult(l) };
    const market = (open[0]?.mu as MarketUser).market;
    // The first cancel resolves an executing list and takes the other leg with it; a resolved list has one open leg.
    for (const o of open) if (o.isOpen) market.cancel(o, this, cmd.ts);
    return { code: 'ok', events: this.events, ...this.listResult(l) };
  }

  private addAsset(cmd: Extract<Command, { type: 'addAsset' }>): CommandResult {
    const a = cmd.asset;
    if (a !== null && typeof a === 'object' && this.assetsByCode.has(a.code)) return reject('asset_exists');
    if (a === null || typeof a !== 'object' || !isKey(a.code, 32) || a.code.includes('/') || !isNonNegInt(a.scale, MAX_ASSET_SCALE)) {
      return reject('invalid_config');
    }
    const asset: Asset = { code: a.code, scale: a.scale };
    this.assetsByCode.set(asset.code, asset);
    this.events.push({ type: 'assetAdded', ts: cmd.ts, asset: { ...asset } });
    return { code: 'ok', events: this.events };
  }

  private addMarket(cmd: Extract<Command, { type: 'addMarket' }>): CommandResult {
    const c = cmd.market;
    if (c !== null && typeof c === 'object' && this.marketsBySymbol.has(c.symbol)) return reject('market_exists');
    if (
      c === null ||
      typeof c !== 'object' ||
      !isKey(c.symbol, 64) ||
      !isKey(c.base, 32) ||
      !isKey(c.quote, 32) ||
      c.base === c.quote ||
      !isNonNegInt(c.priceDecimals, MAX_ASSET_SCALE) ||
      !isNonNegInt(c.qtyDecimals, MAX_ASSET_SCALE) ||
      typeof c.tickSize !== 'bigint' ||
      c.tickSize <= 0n ||
      typeof c.stepSize !== 'bigint' ||
      c.stepSize <= 0n ||
      typeof c.minQty !== 'bigint' ||
      c.minQty < 0n ||
      typeof c.minNotional !== 'bigint' ||
      c.minNotional < 0n ||
      !isNonNegInt(c.makerFeePpm, 1_000_000) ||
      !isNonNegInt(c.takerFeePpm, 1_000_000) ||
      (c.status !== 'TRADING' && c.status !== 'HALTED')
    ) {
      return reject('invalid_config');
    }
    const base = this.assetsByCode.get(c.base);
    const quote = this.assetsByCode.get(c.quote);
    if (base === undefined || quote === undefined) return reject('asset_not_found');
    if (c.priceDecimals + c.qtyDecimals > quote.scale || c.qtyDecimals > base.scale) return reject('invalid_config');
    const market = new SpotMarket(c, base.scale, quote.scale, this.bookKind, this.ledger, this.marketsBySymbol.size);
    this.marketsBySymbol.set(c.symbol, market);
    this.events.push({ type: 'marketAdded', ts: cmd.ts, market: { ...market.config } });
    return { code: 'ok', events: this.events };
  }

  private setMarketStatus(cmd: Extract<Command, { type: 'setMarketStatus' }>): CommandResult {
    if (cmd.status !== 'TRADING' && cmd.status !== 'HALTED') return reject('invalid_config');
    const m = this.marketsBySymbol.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (m.config.status !== cmd.status) {
      m.config.status = cmd.status;
      this.events.push({ type: 'marketStatusChanged', ts: cmd.ts, symbol: cmd.symbol, status: cmd.status });
    }
    return { code: 'ok', events: this.events };
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** The scale of a listed asset (decimal places), or undefined. */
  assetScale(code: string): number | undefined {
    return this.assetsByCode.get(code)?.scale;
  }
  /** The codes of the listed assets, in the order they were added. */
  assetCodes(): IterableIterator<string> {
    return this.assetsByCode.keys();
  }
  /** An asset by code (a copy). */
  asset(code: string): Asset | undefined {
    const a = this.assetsByCode.get(code);
    return a === undefined ? undefined : { ...a };
  }
  /** All assets in the order they were added (copies). */
  assets(): Asset[] {
    return [...this.assetsByCode.values()].map((a) => ({ ...a }));
  }
  /** A market's configuration with its current status (a copy). */
  market(symbol: string): MarketConfig | undefined {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? undefined : { ...m.config };
  }
  /** All markets in the order they were added (copies). */
  markets(): MarketConfig[] {
    return [...this.marketsBySymbol.values()].map((m) => ({ ...m.config }));
  }
  /** The quote asset of a spot market, or undefined (no copy: the activities read it per fill). */
  quoteOf(symbol: string): string | undefined {
    return this.marketsBySymbol.get(symbol)?.config.quote;
  }
  /** Any retained order by id (open, or among the last `closedOrderRetention` ended). */
  order(orderId: string): OrderView | undefined {
    return this.orders.get(parseOrderId(orderId))?.toView();
  }
  /** Open orders of a user, oldest first, optionally for one market. */
  openOrders(userId: string, symbol?: string): OrderView[] {
    const out: OrderView[] = [];
    for (let o = this.traders.get(userId)?.head ?? null; o !== null; o = o.userNext) {
      if (symbol === undefined || o.symbol === symbol) out.push(o.toView());
    }
    return out;
  }
  /**
   * A retained order list of `userId` by orderListId or (when `orderListId` is undefined) by listClientOrderId, with
   * its retained legs' views (above first); undefined when unknown, forgotten or another user's.
   */
  orderList(userId: string, orderListId: string | undefined, listClientOrderId?: string): OrderListWithOrders | undefined {
    const l = orderListId !== undefined ? this.lists.get(parseOrderId(orderListId)) : this.listsByClient.get(userId)?.get(listClientOrderId ?? '');
    if (l === undefined || l.userId !== userId) return undefined;
    return this.listResult(l) as OrderListWithOrders;
  }
  /** The user's retained order lists (executing ones when `executingOnly`), oldest (lowest orderListId) first. */
  orderLists(userId: string, executingOnly: boolean): OrderListWithOrders[] {
    const out: OrderListWithOrders[] = [];
    for (const l of [...this.lists.values()].sort((a, b) => a.seq - b.seq)) {
      if (l.userId === userId && (!executingOnly || !l.resolved)) out.push(this.listResult(l) as OrderListWithOrders);
    }
    return out;
  }
  /** Aggregated levels, best first, at most `levels` per side (empty for an unknown market). */
  depth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const m = this.marketsBySymbol.get(symbol);
    if (m === undefined) return { bids: [], asks: [] };
    return { bids: m.book.depth('BUY', levels), asks: m.book.depth('SELL', levels) };
  }
  /** Price of the last trade (price units), or null. */
  lastPrice(symbol: string): bigint | null {
    return this.marketsBySymbol.get(symbol)?.lastPrice ?? null;
  }
  /** The book of a market (read-only use: tests and diagnostics). */
  bookOf(symbol: string): OrderBook | undefined {
    return this.marketsBySymbol.get(symbol)?.book;
  }
  /** The count of a user's resting orders in a market that the open-order cap reads (0 when unknown). */
  openOrderCount(userId: string, symbol: string): number {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? 0 : (this.traders.get(userId)?.markets[m.index]?.openCount ?? 0);
  }
  /**
   * Units an open order must hold (quote units for BUY, base units for SELL; a pending conditional order its placement
   * hold, a pending OCO leg its part of the list's one hold), or undefined if unknown or ended.
   */
  requiredHold(orderId: string): bigint | undefined {
    const o = this.orders.get(parseOrderId(orderId));
    if (o === undefined || !o.isOpen) return undefined;
    // A pending conditional order holds what it held at placement (docs/conditional-orders.md).
    if (o.isPending) return o.hold;
    return this.marketsBySymbol.get(o.symbol)?.requiredHold(o);
  }
  /** What a convert of `amount` on `symbol` by `userId` would do now (convert.ts), or undefined for an unknown market. */
  convertPreview(symbol: string, side: 'BUY' | 'SELL', userId: string, amount: bigint): ConvertPreview | undefined {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? undefined : previewConvert(m, side, userId, amount);
  }
  /** The latest `updatedTs` of the retained orders (0 when none): the time given to keys of a pre-window snapshot. */
  latestOrderTs(): number {
    let ts = 0;
    for (const o of this.orders.values()) if (o.updatedTs > ts) ts = o.updatedTs;
    return ts;
  }

  // ---- snapshot and restore -------------------------------------------------------------------

  /** Spot's part of the snapshot (see `SpotSnapshot`); canonical: every list in a fixed order. */
  rows(): SpotSnapshot {
    const s = (v: bigint | null): string | null => (v === null ? null : v.toString());
    const row = (o: Order): OrderRow => [
      o.seq,
      o.clientOrderId,
      o.userId,
      o.symbol,
      o.side,
      o.orderType,
      o.timeInForce,
      s(o.price),
      s(o.quantity),
      s(o.quoteAmount),
      o.feeAsset,
      o.stp,
      o.createdTs,
      o.updatedTs,
      o.status,
      o.filledQty.toString(),
      o.filledQuote.toString(),
      o.fee.toString(),
      o.remaining.toString(),
      o.hold.toString(),
    ];
    const rowOf = (o: Order): OrderRow => {
      const r = row(o);
      const c = o.cond;
      if (c !== null) r.push([c.kind, s(c.stopPrice), c.trailingDelta, c.tracking ? 1 : 0, s(c.trailingRef), c.workingTs, c.expireReason, c.prioritySeq]);
      const l = o.list;
      if (l !== null) {
        if (c === null) r.push(null);
        r.push([l.seq, l.listClientOrderId, l.aboveSeq, l.belowSeq, l.createdTs, l.updatedTs]);
      }
      return r;
    };
    const open: OrderRow[] = [];
    for (const o of this.orders.values()) if (o.isOpen) open.push(rowOf(o));
    const closed: OrderRow[] = [];
    for (let i = this.closedHead; i < this.closedQueue.length; i++) closed.push(rowOf(this.closedQueue[i] as Order));
    return {
      assets: [...this.assetsByCode.values()].map((a) => ({ code: a.code, scale: a.scale })),
      markets: [...this.marketsBySymbol.values()].map((m) => ({
        symbol: m.config.symbol,
        base: m.config.base,
        quote: m.config.quote,
        priceDecimals: m.config.priceDecimals,
        qtyDecimals: m.config.qtyDecimals,
        tickSize: m.config.tickSize.toString(),
        stepSize: m.config.stepSize.toString(),
        minQty: m.config.minQty.toString(),
        minNotional: m.config.minNotional.toString(),
        makerFeePpm: m.config.makerFeePpm,
        takerFeePpm: m.config.takerFeePpm,
        status: m.config.status,
        lastPrice: s(m.lastPrice),
      })),
      closedOrderRetention: this.closedOrderRetention,
      openOrders: open,
      closedOrders: closed,
    };
  }

  /**
   * Restore, step 1 (before the ledger's accounts, as the markets create their fee accounts): the assets and the
   * markets of a snapshot (possibly after a JSON round trip). Throws on a malformed snapshot.
   */
  restoreMarkets(assets: Asset[], markets: MarketRow[]): void {
    for (const a of assets) this.assetsByCode.set(a.code, { code: a.code, scale: a.scale });
    for (const m of markets) {
      const cfg: MarketConfig = {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        priceDecimals: m.priceDecimals,
        qtyDecimals: m.qtyDecimals,
        tickSize: BigInt(m.tickSize),
        stepSize: BigInt(m.stepSize),
        minQty: BigInt(m.minQty),
        minNotional: BigInt(m.minNotional),
        makerFeePpm: m.makerFeePpm,
        takerFeePpm: m.takerFeePpm,
        status: m.status,
      };
      const base = this.assetsByCode.get(cfg.base) as Asset;
      const quote = this.assetsByCode.get(cfg.quote) as Asset;
      const market = new SpotMarket(cfg, base.scale, quote.scale, this.bookKind, this.ledger, this.marketsBySymbol.size);
      market.lastPrice = m.lastPrice === null ? null : BigInt(m.lastPrice);
      this.marketsBySymbol.set(cfg.symbol, market);
    }
  }

  /**
   * Restore, step 2 (after the ledger's accounts): the open orders back into their books, with their holds' accounts,
   * and the retained ended orders in the order they ended. Throws on a malformed snapshot.
   */
  restoreOrders(openOrders: OrderRow[], closedOrders: OrderRow[]): void {
    const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));
    const toOrder = (r: OrderRow): Order => {
      const o = new Order(r[0], `${r[0]}`, r[1], r[2], r[3], r[4], r[5], r[6], big(r[7]), big(r[8]), big(r[9]), r[10], r[11], r[12]);
      o.updatedTs = r[13];
      o.status = r[14];
      o.filledQty = BigInt(r[15]);
      o.filledQuote = BigInt(r[16]);
      o.fee = BigInt(r[17]);
      o.remaining = BigInt(r[18]);
      o.hold = BigInt(r[19]);
      const c = r[20];
      if (c !== undefined && c !== null) o.cond = new Condition(c[0], big(c[1]), c[2], c[3] === 1, big(c[4]), c[5], c[6], c[7]);
      const lr = r[21];
      if (lr !== undefined) {
        let l = this.lists.get(lr[0]);
        if (l === undefined) {
          l = new OrderList<Order>(lr[0], lr[1], o.userId, o.symbol, o.side, lr[4], null, null, lr[2], lr[3]);
          l.updatedTs = lr[5];
          this.registerList(l);
        }
        if (o.seq === l.aboveSeq) l.above = o;
        else l.below = o;
        o.list = l;
      }
      this.registerOrder(o);
      return o;
    };
    // Open orders are stored in id order, which is the order of the users' lists and, for orders that never waited
    // for a trigger, the book's arrival order. A triggered order queues from its trigger (its prioritySeq), so when
    // there is one the books are filled afterwards in priority order.
    const triggered: Order[] = [];
    for (const r of openOrders) {
      const o = toOrder(r);
      const m = this.marketsBySymbol.get(o.symbol) as SpotMarket;
      if (o.isPending) m.restorePending(o, this.traderFor(o.userId), this.ledger);
      else if (o.cond === null && triggered.length === 0) m.restoreResting(o, this.traderFor(o.userId), this.ledger);
      else {
        m.restoreResting(o, this.traderFor(o.userId), this.ledger, false);
        triggered.push(o);
      }
    }
    const priority = (o: Order): number => o.cond?.prioritySeq ?? o.seq;
    triggered.sort((a, b) => priority(a) - priority(b));
    for (const o of triggered) (this.marketsBySymbol.get(o.symbol) as SpotMarket).book.add(o);
    // Ended orders in the order they ended (the retention queue). A (userId, clientOrderId) belongs
    // to at most one retained order, since a retry of a retained key never creates an order.
    for (const r of closedOrders) this.closedQueue.push(toOrder(r));
    for (const l of this.lists.values()) l.resolved = !l.bothOpen();
  }
}

/**
 * The sequence number of a canonical order id ("1", "42"; no sign, no leading zeros, at most 15
 * digits), or -1 for anything else (which then matches no order).
 */
export function parseOrderId(id: string): number {
  const n = typeof id === 'string' ? id.length : 0;
  if (n === 0 || n > 15 || (n > 1 && id.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The placeOrder fields of a cancelReplaceOrder's `order`, copied one by one (only those present), so that nothing
 * else the command carries reaches placeOrder; placeOrder checks their values.
 */
function placeTerms(t: CancelReplaceNewOrder): CancelReplaceNewOrder {
  const out: Record<string, unknown> = { side: t.side, orderType: t.orderType, timeInForce: t.timeInForce };
  for (const k of ['price', 'quantity', 'quoteAmount', 'clientOrderId', 'stp', 'condition', 'stopPrice', 'trailingDelta'] as const) {
    if (t[k] !== undefined) out[k] = t[k];
  }
  return out as CancelReplaceNewOrder;
}
