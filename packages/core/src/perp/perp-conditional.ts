/**
 * Conditional ("algo") perpetual orders (the layer above perp-orders.ts; docs/perp-conditional-orders.md): Binance
 * USDⓈ-M STOP, TAKE_PROFIT, STOP_MARKET, TAKE_PROFIT_MARKET and TRAILING_STOP_MARKET with workingType, reduceOnly,
 * closePosition, priceProtect, callbackRate and activationPrice. A pending order is an open order outside the book
 * that holds no margin (Binance: "no margin check when placing conditional orders"); when its working price (mark or
 * last) meets its condition it is placed as its LIMIT or MARKET order with every check of a new order, keeping its
 * orderId; what cannot be placed then expires with the rejection as `expireReason`.
 *
 * Checks run after every accepted perpetual command in each market whose mark or last price it moved (perp-engine.ts),
 * and inside a mark tick between the position TP/SL and the liquidations (perp-liquidation.ts). One check evaluates the
 * market's pending orders oldest first (seq order) at the prices of that moment, then triggers the due ones in that
 * order; the fills may move the last price, so it checks again until nothing more is due (each order triggers once).
 */
import type { CommandResult, Side } from '../types';
import type { PerpCommand, PerpConditionType, PerpConditionView, PerpWorkingType } from './types';
import { E6, isInt, MAX_LOTS, MAX_PERP_OPEN_ORDERS, PerpMarket, PerpOrder, reject, TIFS } from './perp-market';
import { PerpOrders } from './perp-orders';

type PlaceCmd = Extract<PerpCommand, { type: 'perpPlaceOrder' }>;

/** 10,000 basis points = 100%. */
const BPS = 10_000n;
/** Binance's default triggerProtect (5%), ppm, for markets whose config leaves triggerProtectPpm out. */
export const DEFAULT_TRIGGER_PROTECT_PPM = 50_000;
const TYPES = new Set<PerpConditionType>(['STOP', 'TAKE_PROFIT', 'STOP_MARKET', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET']);

/**
 * True when working price `p` meets a stop condition (Binance USDⓈ-M new order, stopPrice): STOP / STOP_MARKET BUY
 * p >= stopPrice, SELL p <= stopPrice; TAKE_PROFIT / TAKE_PROFIT_MARKET BUY p <= stopPrice, SELL p >= stopPrice.
 */
export function stopConditionMet(type: PerpConditionType, side: Side, stopPrice: bigint, p: bigint): boolean {
  const rises = (type === 'STOP' || type === 'STOP_MARKET') === (side === 'BUY');
  return rises ? p >= stopPrice : p <= stopPrice;
}

/**
 * True when working price `p` triggers a tracking trailing stop with reference `ref` (the highest price since tracking
 * began for a SELL, the lowest for a BUY) and callback rate `bps`: SELL p <= ref * (1 - rate), BUY p >= ref * (1 +
 * rate), compared exactly by cross-multiplying (Binance TRAILING_STOP_MARKET).
 */
export function trailingConditionMet(side: Side, ref: bigint, bps: number, p: bigint): boolean {
  const d = BigInt(bps);
  return side === 'SELL' ? p * BPS <= ref * (BPS - d) : p * BPS >= ref * (BPS + d);
}

/** True when mark and last price diverge beyond `ppm` of the mark (Binance priceProtect against triggerProtect). */
export function priceProtectBlocks(mark: bigint, last: bigint, ppm: number): boolean {
  const diff = mark > last ? mark - last : last - mark;
  return diff * E6 > mark * BigInt(ppm);
}

/** Conditional order acceptance and triggers. */
export abstract class PerpConditional extends PerpOrders {
  /** Routes an order with `condition` to the conditional acceptance; every other order as before. */
  protected override placeFor(m: PerpMarket, cmd: PlaceCmd, trigger: Parameters<PerpOrders['placeFor']>[2], existing: PerpOrder | null = null): CommandResult {
    if (cmd.condition !== undefined && trigger === null && existing === null) return this.placeConditional(m, cmd);
    return super.placeFor(m, cmd, trigger, existing);
  }

  /** The working price of an order now: the mark or the last trade price (null before the first of them). */
  protected workingPrice(m: PerpMarket, wt: PerpWorkingType): bigint | null {
    return wt === 'MARK_PRICE' ? m.markPrice : m.lastPrice;
  }

  /** Accepts a pending conditional order (checks in the order docs/perp-conditional-orders.md gives). */
  private placeConditional(m: PerpMarket, cmd: PlaceCmd): CommandResult {
    const c = m.cfg;
    const { userId, side, orderType, timeInForce, price, quantity } = cmd;
    const type = cmd.condition as PerpConditionType;
    const reduceOnly = cmd.reduceOnly ?? false;
    const closePosition = cmd.closePosition ?? false;
    const priceProtect = cmd.priceProtect ?? false;
    const workingType = cmd.workingType ?? 'CONTRACT_PRICE';
    const lots = cmd.lots ?? 0;
    if (c.status !== 'TRADING') return reject('market_halted');
    const trailing = type === 'TRAILING_STOP_MARKET';
    const isLimit = type === 'STOP' || type === 'TAKE_PROFIT';
    if (
      !TYPES.has(type) ||
      (side !== 'BUY' && side !== 'SELL') ||
      orderType !== (isLimit ? 'LIMIT' : 'MARKET') ||
      !TIFS.has(timeInForce) ||
      timeInForce === 'POST_ONLY' ||
      typeof reduceOnly !== 'boolean' ||
      typeof closePosition !== 'boolean' ||
      typeof priceProtect !== 'boolean' ||
      (workingType !== 'MARK_PRICE' && workingType !== 'CONTRACT_PRICE') ||
      !isInt(lots, 0, MAX_LOTS) ||
      (price !== undefined && typeof price !== 'bigint') ||
      (!isLimit && price !== undefined) ||
      cmd.takeProfit !== undefined ||
      cmd.stopLoss !== undefined ||
      (closePosition && (reduceOnly || (type !== 'STOP_MARKET' && type !== 'TAKE_PROFIT_MARKET') || quantity !== 0n)) ||
      (trailing
        ? cmd.stopPrice !== undefined ||
          priceProtect ||
          !isInt(cmd.callbackRateBps, 10, 1000) ||
          cmd.callbackRateBps % 10 !== 0 ||
          (cmd.activationPrice !== undefined && typeof cmd.activationPrice !== 'bigint')
        : typeof cmd.stopPrice !== 'bigint' || cmd.callbackRateBps !== undefined || cmd.activationPrice !== undefined)
    ) {
      return reject('invalid_order');
    }
    if (isLimit) {
      if (price === undefined) return reject('price_required');
      if (price <= 0n || price % c.tickSize !== 0n) return reject('price_not_on_tick');
    }
    for (const v of [cmd.stopPrice, cmd.activationPrice]) if (v !== undefined && (v <= 0n || v % c.tickSize !== 0n)) return reject('price_not_on_tick');
    if (!closePosition) {
      if (typeof quantity !== 'bigint') return reject('quantity_required');
      if (quantity % c.stepSize !== 0n) return reject('quantity_not_on_step');
      if (quantity <= 0n || quantity < c.minQty) return reject('quantity_below_minimum');
    }
    if (m.markPrice === null) return reject('mark_price_unavailable');
    // Paused on a stale index (perp-orders.ts placeFor): only closing conditional orders may be placed.
    if (m.indexStaleSince !== null && !reduceOnly && !closePosition) return reject('index_stale');
    if (isLimit && !m.bandOk(price as bigint)) return reject('price_out_of_band');
    let n = 0;
    for (const o of this.open.get(userId)?.values() ?? []) if (o.symbol === c.symbol) n++;
    if (n >= MAX_PERP_OPEN_ORDERS) return reject('too_many_open_orders');
    // Binance -2021 "Order would immediately trigger": the condition (a trailing order's activation) already holds.
    const wp = this.workingPrice(m, workingType);
    if (wp !== null) {
      if (!trailing && stopConditionMet(type, side, cmd.stopPrice as bigint, wp)) return reject('would_trigger_immediately');
      const act = cmd.activationPrice;
      if (trailing && act !== undefined && (side === 'SELL' ? act <= wp : act >= wp)) return reject('would_trigger_immediately');
    }

    // Accepted from here on.
    const seq = this.host.allocOrderSeq();
    const o = new PerpOrder(
      seq,
      `${seq}`,
      cmd.clientOrderId ?? null,
      userId,
      c.symbol,
      side,
      orderType,
      timeInForce,
      isLimit ? (price as bigint) : null,
      quantity,
      null,
      c.quote,
      'EXPIRE_TAKER',
      this.ts,
    );
    o.lots = lots;
    o.reduceOnly = reduceOnly;
    const pos = m.positions.get(userId);
    const reduces = pos !== undefined && (pos.side === 'LONG') === (side === 'SELL');
    o.tradeType = reduces ? (pos.side === 'LONG' ? 'CLOSE_LONG' : 'CLOSE_SHORT') : side === 'BUY' ? 'OPEN_LONG' : 'OPEN_SHORT';
    const st = this.settingsOf(userId, c.symbol);
    o.leverage = st.leverage;
    o.marginMode = st.marginMode;
    o.algo = {
      type,
      stopPrice: cmd.stopPrice ?? null,
      workingType,
      priceProtect,
      closePosition,
      callbackRateBps: trailing ? (cmd.callbackRateBps as number) : null,
      activationPrice: cmd.activationPrice ?? null,
      // without an activation price the tracking starts at placement, from the working price (Binance's default)
      trailingRef: trailing && cmd.activationPrice === undefined ? wp : null,
      workingTs: null,
      expireReason: null,
    };
    this.orders.set(seq, o);
    if (o.clientOrderId !== null) {
      let cm = this.clientIds.get(userId);
      if (cm === undefined) this.clientIds.set(userId, (cm = new Map()));
      cm.set(o.clientOrderId, o);
    }
    let om = this.open.get(userId);
    if (om === undefined) this.open.set(userId, (om = new Map()));
    om.set(seq, o);
    m.pending.set(seq, o);
    const v = o.perpView();
    this.host.events.push({ type: 'perpOrderAccepted', ts: this.ts, order: v });
    return { code: 'ok', events: this.host.events, perpOrder: v };
  }

  /**
   * Whether a pending order is due at the market's prices now; on the way a trailing order starts tracking (no
   * activation price, or the working price reached it: SELL >= activation, BUY <= activation) or takes a new high
   * (SELL) or low (BUY) as its reference. Price protect holds back an order that is otherwise due.
   */
  private dueNow(m: PerpMarket, a: PerpConditionView, side: Side): boolean {
    const p = this.workingPrice(m, a.workingType);
    if (p === null) return false;
    let met: boolean;
    if (a.type === 'TRAILING_STOP_MARKET') {
      const ref = a.trailingRef;
      if (ref === null) {
        const act = a.activationPrice;
        if (act === null || (side === 'SELL' ? p >= act : p <= act)) a.trailingRef = p;
        return false;
      }
      if (side === 'SELL' ? p > ref : p < ref) {
        a.trailingRef = p;
        return false;
      }
      met = trailingConditionMet(side, ref, a.callbackRateBps as number, p);
    } else met = stopConditionMet(a.type, side, a.stopPrice as bigint, p);
    if (!met) return false;
    if (a.priceProtect && m.markPrice !== null && m.lastPrice !== null)
      return !priceProtectBlocks(m.markPrice, m.lastPrice, m.cfg.triggerProtectPpm ?? DEFAULT_TRIGGER_PROTECT_PPM);
    return true;
  }

  /** Triggers the market's due conditional orders (see the file comment); none while the market is halted. */
  protected checkConditional(m: PerpMarket): void {
    if (m.cfg.status !== 'TRADING') return;
    for (;;) {
      if (m.pending.size === 0) return;
      const due: PerpOrder[] = [];
      for (const o of m.pending.values()) if (this.dueNow(m, o.algo as PerpConditionView, o.side)) due.push(o);
      if (due.length === 0) return;
      for (const o of due) if (o.isPendingAlgo) this.triggerOne(m, o);
    }
  }

  /** Places a due order as its LIMIT or MARKET order, or expires it with the reason it could not be placed. */
  private triggerOne(m: PerpMarket, o: PerpOrder): void {
    const a = o.algo as PerpConditionView;
    a.workingTs = this.ts;
    m.pending.delete(o.seq);
    const om = this.open.get(o.userId);
    om?.delete(o.seq);
    if (om !== undefined && om.size === 0) this.open.delete(o.userId);
    let quantity = o.quantity as bigint;
    let code: Parameters<typeof reject>[0] | null = null;
    if (this.host.isFrozen(o.userId)) code = 'account_frozen';
    else if (a.closePosition) {
      const p = m.positions.get(o.userId);
      if (p === undefined || (p.side === 'LONG') !== (o.side === 'SELL')) code = 'no_position';
      else quantity = p.size;
    }
    if (code === null) {
      const r = this.placeFor(
        m,
        {
          ts: this.ts,
          type: 'perpPlaceOrder',
          userId: o.userId,
          symbol: o.symbol,
          side: o.side,
          orderType: o.orderType as 'LIMIT' | 'MARKET',
          timeInForce: o.timeInForce,
          ...(o.price === null ? {} : { price: o.price }),
          quantity,
          reduceOnly: o.reduceOnly || a.closePosition,
          lots: o.lots,
        },
        null,
        o,
      );
      if (r.code === 'ok') {
        // it rests: back among the user's open orders at its place by orderId, as a restore would put it (sweeps such
        // as a liquidation's cancels visit them in that order)
        const back = this.open.get(o.userId);
        if (back !== undefined && back.has(o.seq)) {
          const sorted = [...back.entries()].sort((x, y) => x[0] - y[0]);
          back.clear();
          for (const [k, v] of sorted) back.set(k, v);
        }
        return;
      }
      code = r.code as Parameters<typeof reject>[0];
    }
    a.expireReason = code;
    o.status = 'EXPIRED';
    o.updatedTs = this.ts;
    this.ended(o);
    this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
  }
}
