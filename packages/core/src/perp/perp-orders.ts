/**
 * Perpetual orders (the layer above perp-settlement.ts): acceptance (every filter, the leverage bracket, the order cost =
 * initial margin + open loss against the max withdraw amount), matching at the maker's price with the fill guard,
 * resting, cancels, and the expiry of reduce-only orders a position no longer backs.
 */
import type { CommandResult, Side } from '../types';
import { maxNotionalFor, openLoss, orderCost, perpFee } from './math';
import type { PerpCommand, PerpOrderView, PerpTrigger, PositionSide } from './types';
import {
  INSURANCE,
  isInt,
  MAX_AMENDS_PER_ORDER,
  MAX_LOTS,
  MAX_PERP_OPEN_ORDERS,
  PerpMarket,
  PerpOrder,
  type PerpRejectCode,
  reject,
  seqOf,
  TIFS,
} from './perp-market';
import { PerpSettlement } from './perp-settlement';

/** Order acceptance, matching and cancels. */
export abstract class PerpOrders extends PerpSettlement {
  protected place(cmd: Extract<PerpCommand, { type: 'perpPlaceOrder' }>): CommandResult {
    const { userId, clientOrderId: cid } = cmd;
    if (typeof userId !== 'string' || userId.length === 0 || userId.charCodeAt(0) === 64) return reject('invalid_order');
    if (cid !== undefined) {
      if (typeof cid !== 'string' || cid.length === 0 || cid.length > 36) return reject('invalid_order');
      const seq = this.host.perpKeyLookup(userId, cid, cmd.ts);
      const prev = seq !== undefined ? this.orders.get(seq) : this.clientIds.get(userId)?.get(cid);
      if (prev !== undefined) return { code: 'ok', events: [], perpOrder: prev.perpView(), duplicateOfOrderId: prev.orderId };
      if (seq !== undefined) return { code: 'ok', events: [], duplicateOfOrderId: `${seq}` };
    }
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    const r = this.placeFor(m, cmd, null);
    if (cid !== undefined && r.code === 'ok' && r.perpOrder !== undefined) this.host.perpKeyAdd(userId, cid, cmd.ts, seqOf(r.perpOrder.orderId));
    return r;
  }

  /**
   * Validates and executes an order of a user (trigger null), or of the engine itself (a TP/SL close of a user, or
   * the insurance fund's close): for those `trigger` is set and the band, TP/SL and margin checks are skipped.
   * `existing` is a triggered conditional order (perp-conditional.ts) placed as the plain order `cmd` describes: it
   * keeps its orderId and is already counted in the open-order cap; its working view is sent as perpOrderUpdated.
   * Conditional fields are refused here (invalid_order): perp-conditional.ts takes the orders that have them.
   */
  protected placeFor(
    m: PerpMarket,
    cmd: Extract<PerpCommand, { type: 'perpPlaceOrder' }>,
    trigger: PerpTrigger | null,
    existing: PerpOrder | null = null,
  ): CommandResult {
    const c = m.cfg;
    const { userId, side, orderType, timeInForce, price, quantity } = cmd;
    const reduceOnly = cmd.reduceOnly ?? false;
    const lots = cmd.lots ?? 0;
    if (c.status !== 'TRADING') return reject('market_halted');
    if (
      (side !== 'BUY' && side !== 'SELL') ||
      (orderType !== 'LIMIT' && orderType !== 'MARKET') ||
      !TIFS.has(timeInForce) ||
      typeof reduceOnly !== 'boolean' ||
      !isInt(lots, 0, MAX_LOTS) ||
      (price !== undefined && typeof price !== 'bigint') ||
      (cmd.takeProfit !== undefined && typeof cmd.takeProfit !== 'bigint') ||
      (cmd.stopLoss !== undefined && typeof cmd.stopLoss !== 'bigint') ||
      (orderType === 'MARKET' && (price !== undefined || timeInForce === 'POST_ONLY')) ||
      (reduceOnly && (cmd.takeProfit !== undefined || cmd.stopLoss !== undefined)) ||
      cmd.condition !== undefined ||
      cmd.stopPrice !== undefined ||
      cmd.workingType !== undefined ||
      cmd.priceProtect !== undefined ||
      cmd.closePosition !== undefined ||
      cmd.callbackRateBps !== undefined ||
      cmd.activationPrice !== undefined
    ) {
      return reject('invalid_order');
    }
    const isMarket = orderType === 'MARKET';
    if (!isMarket) {
      if (price === undefined) return reject('price_required');
      if (price <= 0n || price % c.tickSize !== 0n) return reject('price_not_on_tick');
    }
    if (typeof quantity !== 'bigint') return reject('quantity_required');
    if (quantity % c.stepSize !== 0n) return reject('quantity_not_on_step');
    if (quantity <= 0n || quantity < c.minQty) return reject('quantity_below_minimum');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    if (trigger === null && !isMarket && !m.bandOk(price as bigint)) return reject('price_out_of_band');
    const opensSide: PositionSide = side === 'BUY' ? 'LONG' : 'SHORT';
    for (const [v, code] of [
      [cmd.takeProfit, 'take_profit_invalid'],
      [cmd.stopLoss, 'stop_loss_invalid'],
    ] as const) {
      if (v === undefined) continue;
      if (v <= 0n || v % c.tickSize !== 0n) return reject('price_not_on_tick');
      const above = v > mark;
      const wantAbove = (code === 'take_profit_invalid') === (opensSide === 'LONG');
      if (v === mark || above !== wantAbove) return reject(code);
    }
    const pos = m.positions.get(userId);
    const reduces = pos !== undefined && pos.side !== opensSide;
    if (reduceOnly && !reduces) return reject('reduce_only_rejected');
    // Paused on a stale index: a user's order may only close (reduce-only, or the other side of the position for at
    // most its size); it is then kept reduce-only so its fills can never open a position (Binance's reduce-only mode,
    // -4400 "only reduceOnly order is allowed"). The engine's own closes (trigger set) are not user orders.
    const paused = m.indexStaleSince !== null && trigger === null && userId !== INSURANCE;
    if (paused && !reduceOnly && !(reduces && pos !== undefined && quantity <= pos.size)) return reject('index_stale');
    const closeOnly = reduceOnly || paused;
    const openMap = this.open.get(userId);
    if (openMap !== undefined && trigger === null && existing === null) {
      let n = 0;
      for (const o of openMap.values()) if (o.symbol === c.symbol) n++;
      if (n >= MAX_PERP_OPEN_ORDERS) return reject('too_many_open_orders');
    }
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    const best = m.book.bestPrice(opp);
    const st = this.settingsOf(userId, c.symbol);
    const hold = this.orderHold(m, userId, side, isMarket ? null : (price as bigint), quantity, closeOnly, 0n);
    if (typeof hold === 'string') return reject(hold);
    if (timeInForce === 'POST_ONLY' && best !== null && (side === 'BUY' ? best <= (price as bigint) : best >= (price as bigint)))
      return reject('would_take_liquidity');
    if (isMarket && best === null) return reject('no_liquidity');

    // Accepted from here on.
    const events = this.host.events;
    const seq = existing !== null ? existing.seq : this.host.allocOrderSeq();
    const o =
      existing ??
      new PerpOrder(
        seq,
        `${seq}`,
        cmd.clientOrderId ?? null,
        userId,
        c.symbol,
        side,
        orderType,
        timeInForce,
        isMarket ? null : (price as bigint),
        quantity,
        null,
        c.quote,
        'EXPIRE_TAKER',
        this.ts,
      );
    if (existing !== null) {
      // a closePosition order learns its quantity at the trigger (the position's size then)
      (o as { quantity: bigint | null }).quantity = quantity;
      o.remaining = quantity;
      o.updatedTs = this.ts;
    }
    o.lots = lots;
    o.reduceOnly = closeOnly || trigger !== null;
    o.trigger = trigger;
    o.tradeType =
      trigger === 'LIQUIDATION' || trigger === 'ADL'
        ? 'FORCE_CLOSE'
        : trigger !== null
          ? 'NORMAL_CLOSE'
          : reduces
            ? pos.side === 'LONG'
              ? 'CLOSE_LONG'
              : 'CLOSE_SHORT'
            : side === 'BUY'
              ? 'OPEN_LONG'
              : 'OPEN_SHORT';
    o.leverage = st.leverage;
    o.marginMode = st.marginMode;
    o.takeProfit = cmd.takeProfit ?? null;
    o.stopLoss = cmd.stopLoss ?? null;
    this.orders.set(seq, o);
    if (o.clientOrderId !== null) {
      let cm = this.clientIds.get(userId);
      if (cm === undefined) this.clientIds.set(userId, (cm = new Map()));
      cm.set(o.clientOrderId, o);
    }
    if (hold > 0n) {
      this.ledger.hold(this.acc(userId, c.quote), hold);
      o.hold = hold;
    }
    const acceptedView = o.perpView();
    events.push({ type: existing === null ? 'perpOrderAccepted' : 'perpOrderUpdated', ts: this.ts, order: acceptedView });
    if (timeInForce === 'FOK' && this.walk(m, side, quantity, o.price, userId).qty < quantity) {
      this.releaseHold(o);
      o.status = 'EXPIRED';
      const v = o.perpView();
      events.push({ type: 'perpOrderUpdated', ts: this.ts, order: v });
      this.ended(o);
      return { code: 'ok', events, perpOrder: v };
    }
    this.match(m, o);
    let rests = false;
    if (o.remaining === 0n) o.status = 'FILLED';
    else if (!isMarket && (timeInForce === 'GTC' || timeInForce === 'POST_ONLY') && o.status !== 'EXPIRED' && !(o.reduceOnly && this.reduceRoom(m, o) === 0n)) {
      o.status = o.filledQty > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      this.depthAt(m, side, o.price as bigint, m.book.add(o));
      let om = this.open.get(userId);
      if (om === undefined) this.open.set(userId, (om = new Map()));
      om.set(seq, o);
      rests = true;
    } else o.status = o.filledQty > 0n && o.remaining === 0n ? 'FILLED' : 'EXPIRED';
    if (!rests) this.releaseHold(o);
    const view = o.status === 'NEW' && o.hold === acceptedView.hold ? acceptedView : o.perpView();
    if (o.status !== 'NEW') events.push({ type: 'perpOrderUpdated', ts: this.ts, order: view });
    if (!rests) this.ended(o);
    this.expireReduceOnly(m);
    return { code: 'ok', events, perpOrder: view };
  }

  /**
   * The margin an order of these terms needs for `userId` in `m` (quote units), given the user's position, leverage
   * and the other open orders, or the rejection that refuses it. `price` is the LIMIT price (price units), null for a
   * MARKET order (filled at what the book offers now); `quantity` the quantity to hold for (qty units: a new order's,
   * an amended order's unfilled part). A reduce-only order and the insurance fund's hold nothing. Otherwise Binance's
   * order cost ("How to Calculate Order Cost": initial margin of the notional at the user's leverage plus the taker
   * fee, math.ts orderCost, plus the open loss against the mark, math.ts openLoss), after the leverage bracket: the
   * position after a full fill, at the price (the mark for MARKET), within maxNotionalFor (leverage_too_high).
   * `ownHold` is what the order being replaced holds now (an amend releases it, so it counts towards the new hold; 0n
   * for a new order); the hold must be within the max withdraw amount (`spendable`) plus it (insufficient_balance).
   * A MARKET order on an empty opposite side is no_liquidity. The mark price must be known (callers check it first).
   * Placement (`placeFor`) and amendment (`amend`) both hold what this answers, so an amend is no way around placement.
   */
  protected orderHold(
    m: PerpMarket,
    userId: string,
    side: Side,
    price: bigint | null,
    quantity: bigint,
    reduceOnly: boolean,
    ownHold: bigint,
  ): bigint | 'no_liquidity' | 'leverage_too_high' | 'insufficient_balance' {
    if (reduceOnly || userId === INSURANCE) return 0n;
    const c = m.cfg;
    const mark = m.markPrice as bigint;
    const best = m.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY');
    const st = this.settingsOf(userId, c.symbol);
    // The notional the margin is held for: a BUY fills at or below its limit, a SELL at or above it (up to the best
    // bid when it crosses), a MARKET order at what the book offers now.
    let notional: bigint;
    // Binance's open loss: what the order loses against the mark at its own price (perp/math.ts openLoss).
    let loss: bigint;
    if (price === null) {
      if (best === null) return 'no_liquidity';
      const w = this.walk(m, side, quantity, null);
      notional = w.quote;
      loss = openLoss(side, w.quote, mark * w.qty * m.mult);
      // what the book cannot fill expires: the hold is for what it can
    } else {
      notional = side === 'SELL' && best !== null && best > price ? best * quantity * m.mult : price * quantity * m.mult;
      loss = openLoss(side, price * quantity * m.mult, mark * quantity * m.mult);
    }
    const pos = m.positions.get(userId);
    const reduces = pos !== undefined && pos.side !== (side === 'BUY' ? 'LONG' : 'SHORT');
    const posSize = pos === undefined ? 0n : pos.size;
    const after = !reduces ? posSize + quantity : quantity > posSize ? quantity - posSize : posSize - quantity;
    const refPx = price === null ? mark : price;
    if (after * refPx * m.mult > maxNotionalFor(m.tiers, st.leverage)) return 'leverage_too_high';
    const hold = orderCost(notional, st.leverage, c.takerFeePpm) + loss;
    if (this.spendable(userId, c.quote) + ownHold < hold) return 'insufficient_balance';
    return hold;
  }

  /** How much a reduce-only order may still fill: the opposite position's size (0 without one). */
  protected reduceRoom(m: PerpMarket, o: PerpOrder): bigint {
    const p = m.positions.get(o.userId);
    if (p === undefined) return 0n;
    return (p.side === 'LONG') === (o.side === 'SELL') ? p.size : 0n;
  }

  /**
   * Quantity and quote cost a taker would fill now (owners other than `self`; limit null = any price). A reduce-only
   * maker fills only up to what is left of its position as the walk goes (match() caps it so and expires the rest).
   */
  protected walk(m: PerpMarket, side: Side, quantity: bigint, limit: bigint | null, self?: string): { qty: bigint; quote: bigint } {
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    let left = quantity;
    let quote = 0n;
    const used = new Map<string, bigint>(); // what earlier makers of the walk took off each owner's position
    for (let mk = m.book.best(opp) as PerpOrder | undefined; mk !== undefined && left > 0n; mk = m.book.after(mk) as PerpOrder | undefined) {
      const p = mk.price as bigint;
      if (limit !== null && (side === 'BUY' ? p > limit : p < limit)) break;
      if (self !== undefined && mk.userId === self) break;
      let q = left < mk.remaining ? left : mk.remaining;
      const u = used.get(mk.userId) ?? 0n;
      if (mk.reduceOnly) {
        // a maker's fills only reduce its position while they last: what is left of the room after the walk's earlier fills
        const room = this.reduceRoom(m, mk) - u;
        if (room < q) q = room > 0n ? room : 0n;
      }
      if (q === 0n) continue;
      used.set(mk.userId, u + q);
      quote += p * q * m.mult;
      left -= q;
    }
    return { qty: quantity - left, quote };
  }

  /** Matches a taker against the book (self-trade: the taker expires, as spot's default EXPIRE_TAKER). */
  protected match(m: PerpMarket, t: PerpOrder): void {
    const opp: Side = t.side === 'BUY' ? 'SELL' : 'BUY';
    for (;;) {
      if (t.remaining === 0n) break;
      let q = t.remaining;
      if (t.reduceOnly) {
        const room = this.reduceRoom(m, t);
        if (room === 0n) break;
        if (room < q) q = room;
      }
      const mk = m.book.best(opp) as PerpOrder | undefined;
      if (mk === undefined) break;
      const p = mk.price as bigint;
      if (t.price !== null && (t.side === 'BUY' ? p > t.price : p < t.price)) break;
      if (mk.userId === t.userId) {
        t.status = 'EXPIRED';
        break;
      }
      if (mk.reduceOnly) {
        const room = this.reduceRoom(m, mk);
        if (room === 0n) {
          this.closeResting(m, mk, 'EXPIRED');
          continue;
        }
        if (room < q) q = room;
      }
      if (mk.remaining < q) q = mk.remaining;
      // A user's fill that would close beyond what the user can pay is not executed: the taker's rest expires, a
      // maker's resting order expires (the insurance fund would pay the difference to the counterparty).
      if (!this.fillPayable(m, t, p, q, m.cfg.takerFeePpm)) {
        t.status = 'EXPIRED';
        break;
      }
      if (!this.fillPayable(m, mk, p, q, m.cfg.makerFeePpm)) {
        this.closeResting(m, mk, 'EXPIRED');
        continue;
      }
      this.fill(m, t, mk, p, q);
    }
  }

  /** One fill of q at the maker's price p: positions, margin, PnL and fees of both sides, the maker's update. */
  protected fill(m: PerpMarket, t: PerpOrder, mk: PerpOrder, p: bigint, q: bigint): void {
    const notional = p * q * m.mult;
    const takerFee = t.userId === INSURANCE || t.trigger === 'LIQUIDATION' ? 0n : perpFee(notional, m.cfg.takerFeePpm);
    const makerFee = mk.userId === INSURANCE ? 0n : perpFee(notional, m.cfg.makerFeePpm);
    const tPnl = this.settleFill(m, t, p, q, notional, takerFee);
    const mPnl = this.settleFill(m, mk, p, q, notional, makerFee);
    t.filledQty += q;
    t.filledQuote += notional;
    t.remaining -= q;
    t.updatedTs = this.ts;
    mk.filledQty += q;
    mk.filledQuote += notional;
    mk.updatedTs = this.ts;
    let total: bigint;
    if (q === mk.remaining) {
      total = m.book.remove(mk);
      mk.remaining = 0n;
      mk.status = 'FILLED';
      this.releaseHold(mk);
      this.open.get(mk.userId)?.delete(mk.seq);
      this.ended(mk);
    } else {
      total = m.book.reduce(mk, q); // lowers mk.remaining by q
      mk.status = 'PARTIALLY_FILLED';
    }
    this.depthAt(m, mk.side, p, total);
    m.lastPrice = p;
    this.host.events.push({
      type: 'perpTrade',
      ts: this.ts,
      tradeId: this.host.allocTradeId(),
      symbol: m.cfg.symbol,
      kind: 'BOOK',
      price: p,
      quantity: q,
      quoteAmount: notional,
      takerSide: t.side,
      makerOrderId: mk.orderId,
      takerOrderId: t.orderId,
      makerUserId: mk.userId,
      takerUserId: t.userId,
      makerFee,
      takerFee,
      makerRealizedPnl: mPnl,
      takerRealizedPnl: tPnl,
    });
    this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: mk.perpView() });
  }

  /** Takes a resting order out of the book (cancel or expiry), releasing its hold. */
  protected closeResting(m: PerpMarket, o: PerpOrder, status: 'CANCELED' | 'EXPIRED'): PerpOrderView {
    if (o.isPendingAlgo) m.pending.delete(o.seq);
    else this.depthAt(m, o.side, o.price as bigint, m.book.remove(o));
    this.releaseHold(o);
    o.status = status;
    o.updatedTs = this.ts;
    const om = this.open.get(o.userId);
    om?.delete(o.seq);
    if (om !== undefined && om.size === 0) this.open.delete(o.userId);
    this.ended(o);
    const v = o.perpView();
    this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: v });
    return v;
  }

  /**
   * Expires resting reduce-only orders whose position is gone (or turned to their side), as Binance does. Pending
   * conditional orders are left alone: they are checked against the position when they trigger.
   */
  protected expireReduceOnly(m: PerpMarket): void {
    for (const p of this.changed.values()) {
      if (p.symbol !== m.cfg.symbol) continue;
      const om = this.open.get(p.userId);
      if (om === undefined) continue;
      for (const o of [...om.values()])
        if (o.symbol === p.symbol && o.reduceOnly && !o.isPendingAlgo && this.reduceRoom(m, o) === 0n) this.closeResting(m, o, 'EXPIRED');
    }
  }
  protected cancel(cmd: Extract<PerpCommand, { type: 'perpCancelOrder' }>): CommandResult {
    const { userId, orderId, clientOrderId } = cmd;
    if (typeof userId !== 'string' || (orderId === undefined) === (clientOrderId === undefined)) return reject('invalid_order');
    const o = orderId !== undefined ? this.orders.get(seqOf(orderId)) : this.clientIds.get(userId)?.get(clientOrderId as string);
    if (o === undefined || o.userId !== userId) return reject('order_not_found');
    if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') return { code: 'order_not_found' satisfies PerpRejectCode, events: [], perpOrder: o.perpView() };
    const v = this.closeResting(this.markets.get(o.symbol) as PerpMarket, o, 'CANCELED');
    return { code: 'ok', events: this.host.events, perpOrder: v };
  }

  /**
   * perpAmendOrder (types.ts): a resting LIMIT order's new price and total quantity, in place, under its orderId.
   * An order is changed at most MAX_AMENDS_PER_ORDER times (Binance USDⓈ-M "Modify Order": 10,000 per order); the next
   * is amend_limit_reached. An amend to the same terms changes nothing and is not counted.
   */
  protected amend(cmd: Extract<PerpCommand, { type: 'perpAmendOrder' }>): CommandResult {
    const { userId, orderId, price, quantity } = cmd;
    if (typeof userId !== 'string' || typeof orderId !== 'string' || typeof price !== 'bigint' || typeof quantity !== 'bigint') return reject('invalid_order');
    const o = this.orders.get(seqOf(orderId));
    if (o === undefined || o.userId !== userId || (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED')) return reject('order_not_found');
    if (o.orderType !== 'LIMIT' || o.isPendingAlgo || o.trigger !== null || o.price === null) return reject('invalid_order');
    const m = this.markets.get(o.symbol) as PerpMarket;
    const c = m.cfg;
    if (c.status !== 'TRADING') return reject('market_halted');
    if (this.host.isFrozen(userId)) return reject('account_frozen');
    if (price <= 0n || price % c.tickSize !== 0n) return reject('price_not_on_tick');
    if (quantity % c.stepSize !== 0n) return reject('quantity_not_on_step');
    if (quantity <= 0n || quantity < c.minQty) return reject('quantity_below_minimum');
    if (price === o.price && quantity === o.quantity) return { code: 'ok', events: [], perpOrder: o.perpView() };
    if (o.amendCount >= MAX_AMENDS_PER_ORDER) return reject('amend_limit_reached');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    if (!m.bandOk(price)) return reject('price_out_of_band');
    // Paused on a stale index: an order that may open a position can only shrink at its price (or be cancelled).
    if (m.indexStaleSince !== null && !o.reduceOnly && !(price === o.price && quantity < (o.quantity as bigint))) return reject('index_stale');
    const side = o.side;
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    const best = m.book.bestPrice(opp);
    // Binance: a quantity the fills already reached, or a post-only order that would now take, cancels the order.
    const takes = best !== null && (side === 'BUY' ? best <= price : best >= price);
    if (quantity <= o.filledQty || (o.timeInForce === 'POST_ONLY' && takes)) {
      const v = this.closeResting(m, o, 'CANCELED');
      return { code: 'ok', events: this.host.events, perpOrder: v };
    }
    const remaining = quantity - o.filledQty;
    const st = this.settingsOf(userId, c.symbol);
    // Held as placement holds for a new LIMIT order of the unfilled quantity; the order's own hold is released by the
    // amend, so it counts towards the new one.
    const hold = this.orderHold(m, userId, side, price, remaining, o.reduceOnly, o.hold);
    if (typeof hold === 'string') return reject(hold);

    // Accepted from here on: out of the book, the new terms and hold, matched, then back in the book.
    const events = this.host.events;
    this.depthAt(m, side, o.price, m.book.remove(o));
    this.releaseHold(o);
    const terms = o as { price: bigint | null; quantity: bigint | null };
    terms.price = price;
    terms.quantity = quantity;
    o.amendCount += 1;
    o.remaining = remaining;
    o.leverage = st.leverage;
    o.updatedTs = this.ts;
    if (hold > 0n) {
      this.ledger.hold(this.acc(userId, c.quote), hold);
      o.hold = hold;
    }
    events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
    this.match(m, o);
    const om = this.open.get(userId);
    if (o.remaining > 0n && (o.status as string) !== 'EXPIRED' && !(o.reduceOnly && this.reduceRoom(m, o) === 0n)) {
      o.status = o.filledQty > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      this.depthAt(m, side, price, m.book.add(o));
    } else {
      o.status = o.remaining === 0n ? 'FILLED' : 'EXPIRED';
      this.releaseHold(o);
      om?.delete(o.seq);
      if (om !== undefined && om.size === 0) this.open.delete(userId);
      this.ended(o);
    }
    const view = o.perpView();
    events.push({ type: 'perpOrderUpdated', ts: this.ts, order: view });
    this.expireReduceOnly(m);
    return { code: 'ok', events, perpOrder: view };
  }
}
