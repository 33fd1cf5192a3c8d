/**
 * An independent risk model of the USDT perpetuals, written from Binance's published USDⓈ-M futures rules (not from
 * perp-engine.ts or perp/math.ts: it shares no code with them, only the public types). It follows one market of one
 * settle asset. From the engine it takes only what other tests prove: the mark price of each tick (the "markPrice"
 * event; the mark's formula is tested in perp.property.test.ts), the fills of the book (perpTrade events of kind BOOK:
 * which orders met, at which price and quantity; matching is tested against the naive book), the funding rate of a
 * settlement, the book's depth before a MARKET order, and the order of the engine's liquidation steps. Everything else it
 * computes itself with its own integer formulas: each user's wallet, position (side, size, cost), margin, holds of open
 * orders, fees, realized and unrealized PnL at the mark, maintenance margin, max withdraw amount, max removable margin,
 * which accounts are at risk, the takeover at the bankruptcy price, the insurance fund's balance, and whether each
 * transfer, margin change, leverage change, margin mode change and order must be accepted.
 *
 * Units as in perp/types.ts: prices in 10^-priceDecimals USDT, quantities in 10^-qtyDecimals of the coin, amounts in the
 * settle asset's smallest unit ("quote units"); `mult` = 10^(scale - priceDecimals - qtyDecimals) turns price * qty
 * into quote units. Rates in ppm (fees, maintenance margin) or 1e-8 (funding). No floating point.
 *
 * Rules broken while applying an engine result are collected in `violations` (the test fails on the first), each
 * named after the rule it breaks.
 */
import type { EngineEvent, Side } from '../../src/types';
import { DEFAULT_LEVERAGE, type MarginMode, type PerpMarketConfig, type PositionSide } from '../../src/perp/types';

const E6 = 1_000_000n;
const E8 = 100_000_000n;

/** ceil(a / b) for a >= 0, b > 0 (quote units). */
function ceilDiv(a: bigint, b: bigint): bigint {
  return a <= 0n ? -(-a / b) : (a + b - 1n) / b;
}
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** A position of the model (one-way mode: one per user). */
export interface RPos {
  side: PositionSide;
  /** qty units, > 0 */
  size: bigint;
  /** entry notional still open, quote units */
  cost: bigint;
  /** margin held for the position (frozen), quote units */
  margin: bigint;
  mode: MarginMode;
  leverage: number;
}

/** A resting (or being placed) order of the model. */
export interface ROrder {
  id: string;
  user: string;
  side: Side;
  /** null: MARKET */
  price: bigint | null;
  qty: bigint;
  filled: bigint;
  /** margin + fee still held for the unfilled part, quote units */
  hold: bigint;
  reduceOnly: boolean;
  mode: MarginMode;
}

/** One risk tier with Binance's maintenance amount, x1e6 (ppm * quote units). */
interface Tier {
  cap: bigint;
  mmrPpm: bigint;
  maxLeverage: number;
  cumE6: bigint;
}

/** A user of the model (CONTRACT wallet in quote units; SPOT followed for the transfers). */
export interface RUser {
  wallet: bigint;
  spot: bigint;
  leverage: number;
  mode: MarginMode;
  pos: RPos | undefined;
}

/** What a mark tick did to one account (for the adversary's accounting). */
export interface RLiquidation {
  user: string;
  mode: MarginMode;
  /** margin balance in scope before the takeover (negative after a gap) */
  equity: bigint;
  /** the fund's balance change over the whole liquidation */
  fundDelta: bigint;
}

/** The fund's owner id in the engine's events. */
export const FUND = '@insurance';

/** The model (see the file comment). */
export class RiskModel {
  readonly mult: bigint;
  readonly tiers: Tier[];
  readonly users = new Map<string, RUser>();
  /** open orders by id, in acceptance order */
  readonly orders = new Map<string, ROrder>();
  /** the insurance fund's balance and its position inside a liquidation */
  fund = 0n;
  fundPos: RPos | undefined = undefined;
  mark: bigint | null = null;
  /** fees paid per user (quote units) and funding received (signed) per user, for the adversary's accounting */
  readonly feesPaid = new Map<string, bigint>();
  /**
   * What the published rules let each user's value (wallet + unrealized PnL at the mark) change by, summed over the
   * run: exposure times mark moves, fills valued against the mark (the fund's fills no better than its bankruptcy
   * price), fees, funding, ADL at the bankruptcy price, and minus the equity lost in a liquidation.
   */
  readonly allowed = new Map<string, bigint>();
  readonly violations: string[] = [];
  readonly liquidations: RLiquidation[] = [];

  constructor(
    readonly cfg: PerpMarketConfig,
    settleScale: number,
  ) {
    this.mult = 10n ** BigInt(settleScale - cfg.priceDecimals - cfg.qtyDecimals);
    // "Leverage and Margin of USDⓈ-M Futures": maintenance amount cum_n = cum_(n-1) + cap_(n-1) * (mmr_n - mmr_(n-1)).
    this.tiers = [];
    let cum = 0n;
    cfg.brackets.forEach((b, i) => {
      const prev = cfg.brackets[i - 1];
      if (prev !== undefined) cum += prev.notionalCap * (BigInt(b.maintMarginPpm) - BigInt(prev.maintMarginPpm));
      this.tiers.push({ cap: b.notionalCap, mmrPpm: BigInt(b.maintMarginPpm), maxLeverage: b.maxLeverage, cumE6: cum });
    });
  }

  user(id: string): RUser {
    let u = this.users.get(id);
    if (u === undefined) this.users.set(id, (u = { wallet: 0n, spot: 0n, leverage: DEFAULT_LEVERAGE, mode: 'CROSS', pos: undefined }));
    return u;
  }

  private addAllowed(id: string, v: bigint): void {
    this.allowed.set(id, (this.allowed.get(id) ?? 0n) + v);
  }

  // ---- formulas ------------------------------------------------------------------------------------------------

  /** Notional of a size at a price, quote units. */
  notional(size: bigint, price: bigint): bigint {
    return size * price * this.mult;
  }

  /** "Leverage and Margin of USDⓈ-M Futures": maintenance margin = notional * mmr - cum of its tier, rounded up. */
  maint(notional: bigint): bigint {
    const t = this.tiers.find((x) => notional <= x.cap) ?? this.tiers[this.tiers.length - 1]!;
    return ceilDiv(notional * t.mmrPpm - t.cumE6, E6);
  }

  /** "Leverage and Margin of USDⓈ-M Futures": the largest position notional a leverage allows (its brackets' cap). */
  maxNotional(leverage: number): bigint {
    let cap = 0n;
    for (const t of this.tiers) if (t.maxLeverage >= leverage && t.cap > cap) cap = t.cap;
    return cap;
  }

  /** Unrealized PnL at a price (the mark): long = size * price - cost, short the reverse ("Mark Price"). */
  upnl(p: RPos, price: bigint | null = this.mark): bigint {
    const v = this.notional(p.size, price ?? this.entryOf(p));
    return p.side === 'LONG' ? v - p.cost : p.cost - v;
  }

  private entryOf(p: RPos): bigint {
    return p.cost / (p.size * this.mult);
  }

  holds(id: string): bigint {
    let h = 0n;
    for (const o of this.orders.values()) if (o.user === id) h += o.hold;
    return h;
  }

  frozen(id: string): bigint {
    return this.holds(id) + (this.user(id).pos?.margin ?? 0n);
  }

  /** Wallet less position margins and order holds. */
  available(id: string): bigint {
    return this.user(id).wallet - this.frozen(id);
  }

  /** Unrealized PnL of the user's cross positions at the mark. */
  crossUpnl(id: string): bigint {
    const p = this.user(id).pos;
    return p !== undefined && p.mode === 'CROSS' ? this.upnl(p) : 0n;
  }

  /**
   * "Max withdraw amount" (Binance, USDⓈ-M futures account): wallet balance - initial margin of positions - margin of
   * open orders + min(0, unrealized PnL of cross positions); unrealized profit never counts. Also what an order's hold,
   * an isolated margin addition and a leverage decrease may use. May be negative.
   */
  usable(id: string): bigint {
    const up = this.crossUpnl(id);
    return this.available(id) + (up < 0n ? up : 0n);
  }

  maxWithdraw(id: string): bigint {
    return max(0n, this.usable(id));
  }

  /**
   * "Leverage and Margin of USDⓈ-M Futures", max removable margin of an isolated position: margin + min(0, unrealized
   * PnL) - initial margin of the notional at the mark at the leverage, between 0 and the margin.
   */
  maxRemovable(p: RPos, leverage: number): bigint {
    const im = ceilDiv(this.notional(p.size, this.mark ?? this.entryOf(p)), BigInt(leverage));
    const up = this.upnl(p);
    const r = p.margin + (up < 0n ? up : 0n) - im;
    return r < 0n ? 0n : r > p.margin ? p.margin : r;
  }

  /** Cross wallet: wallet less isolated margins and isolated orders' holds ("How to Calculate Liquidation Price"). */
  crossWallet(id: string): bigint {
    const u = this.user(id);
    let w = u.wallet;
    if (u.pos !== undefined && u.pos.mode === 'ISOLATED') w -= u.pos.margin;
    for (const o of this.orders.values()) if (o.user === id && o.mode === 'ISOLATED') w -= o.hold;
    return w;
  }

  /** Margin balance in scope: isolated margin + uPnL, or cross wallet + cross uPnL ("How to Calculate Liquidation Price"). */
  marginBalance(id: string): bigint {
    const p = this.user(id).pos!;
    return p.mode === 'ISOLATED' ? p.margin + this.upnl(p) : this.crossWallet(id) + this.crossUpnl(id);
  }

  /** Maintenance margin of the user's position at the mark. */
  maintOf(id: string): bigint {
    const p = this.user(id).pos!;
    return this.maint(this.notional(p.size, this.mark!));
  }

  /** "How to Calculate Liquidation Price": liquidation when maintenance margin >= margin balance. */
  atRisk(id: string): boolean {
    const p = this.user(id).pos;
    if (p === undefined || this.mark === null) return false;
    return this.maintOf(id) >= this.marginBalance(id);
  }

  atRiskUsers(): string[] {
    return [...this.users.keys()].filter((id) => this.atRisk(id));
  }

  // ---- decisions -----------------------------------------------------------------------------------------------

  /** A transfer's code: into CONTRACT from SPOT needs the SPOT balance; out of CONTRACT at most the max withdraw amount. */
  transferCode(id: string, from: string, to: string, amount: bigint): string {
    const u = this.user(id);
    if (from === 'SPOT' && to === 'CONTRACT') return u.spot >= amount ? 'ok' : 'insufficient_balance';
    if (from === 'CONTRACT' && to === 'SPOT') return amount <= this.maxWithdraw(id) ? 'ok' : 'insufficient_balance';
    throw new Error('transfer not modelled');
  }

  applyTransfer(id: string, from: string, amount: bigint): void {
    const u = this.user(id);
    if (from === 'SPOT') {
      u.spot -= amount;
      u.wallet += amount;
    } else {
      u.wallet -= amount;
      u.spot += amount;
    }
  }

  /** "Leverage and Margin of USDⓈ-M Futures": add at most the usable balance; remove at most the max removable margin. */
  adjustCode(id: string, amount: bigint): string {
    const p = this.user(id).pos;
    if (p === undefined) return 'no_position';
    if (p.mode !== 'ISOLATED') return 'margin_mode_invalid';
    if (amount > 0n) return amount <= this.usable(id) ? 'ok' : 'insufficient_balance';
    return -amount <= this.maxRemovable(p, p.leverage) ? 'ok' : 'insufficient_balance';
  }

  applyAdjust(id: string, amount: bigint): void {
    this.user(id).pos!.margin += amount;
  }

  /**
   * A leverage change ("Leverage and Margin of USDⓈ-M Futures"): the position notional at the mark must fit the new
   * leverage's bracket. Isolated: raising releases min(margin - ceil(cost / lev), max removable at lev); lowering holds
   * ceil(cost / lev) - margin from the usable balance. Cross: the margin becomes ceil(cost / lev); an increase needs the
   * usable balance. Returns the code and the new margin.
   */
  leverageCheck(id: string, leverage: number): { code: string; margin: bigint | null } {
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > this.cfg.brackets[0]!.maxLeverage) return { code: 'leverage_invalid', margin: null };
    const p = this.user(id).pos;
    if (p === undefined) return { code: 'ok', margin: null };
    if (this.notional(p.size, this.mark ?? this.entryOf(p)) > this.maxNotional(leverage)) return { code: 'leverage_too_high', margin: null };
    const need = ceilDiv(p.cost, BigInt(leverage));
    if (need > p.margin) {
      return need - p.margin <= this.usable(id) ? { code: 'ok', margin: need } : { code: 'insufficient_balance', margin: null };
    }
    if (p.mode === 'CROSS') return { code: 'ok', margin: need };
    const release = min(p.margin - need, this.maxRemovable(p, leverage));
    return { code: 'ok', margin: p.margin - max(0n, release) };
  }

  applyLeverage(id: string, leverage: number, margin: bigint | null): void {
    const u = this.user(id);
    u.leverage = leverage;
    if (u.pos !== undefined) {
      u.pos.leverage = leverage;
      if (margin !== null) u.pos.margin = margin;
    }
  }

  /** Binance: the margin type cannot change while the symbol has a position or open orders. */
  modeCode(id: string): string {
    if (this.user(id).pos !== undefined) return 'position_exists';
    for (const o of this.orders.values()) if (o.user === id) return 'position_exists';
    return 'ok';
  }

  /**
   * The reasons an order must be refused (empty: it must be accepted) and its hold. An order that is not reduce-only
   * holds initial margin ceil(notional / leverage) plus the taker fee ceil(notional * taker) for its whole quantity
   * (perp/types.ts), at its limit (a SELL crossing the bids: at the best bid; MARKET: at what the book fills), which may
   * use at most the usable balance (Binance: "Max withdraw amount" / available balance with unrealized losses). The
   * position after the order must fit the leverage's bracket; a reduce-only order needs an opposite position.
   * `book`: the engine's depth before the order (levels of the side it takes).
   */
  orderCheck(id: string, side: Side, price: bigint | null, qty: bigint, reduceOnly: boolean, book: { price: bigint; quantity: bigint }[]): { reasons: string[]; hold: bigint } {
    const u = this.user(id);
    const reasons: string[] = [];
    const mark = this.mark!;
    const band = (mark * BigInt(this.cfg.priceBandPpm)) / E6;
    if (price !== null && price <= 0n) reasons.push('price_not_on_tick');
    if (price !== null && (price > mark + band || price < mark - band)) reasons.push('price_out_of_band');
    const opens: PositionSide = side === 'BUY' ? 'LONG' : 'SHORT';
    const reduces = u.pos !== undefined && u.pos.side !== opens;
    if (reduceOnly && !reduces) reasons.push('reduce_only_rejected');
    if (price === null && book.length === 0) reasons.push('no_liquidity');
    let hold = 0n;
    if (!reduceOnly) {
      const size = u.pos?.size ?? 0n;
      const after = !reduces ? size + qty : qty > size ? qty - size : size - qty;
      if (this.notional(after, price ?? mark) > this.maxNotional(u.leverage)) reasons.push('leverage_too_high');
      let notional: bigint;
      if (price === null) {
        notional = 0n;
        let left = qty;
        for (const l of book) {
          const q = min(left, l.quantity);
          notional += this.notional(q, l.price);
          left -= q;
          if (left === 0n) break;
        }
      } else if (side === 'SELL' && book.length > 0 && book[0]!.price > price) notional = this.notional(qty, book[0]!.price);
      else notional = this.notional(qty, price);
      hold = ceilDiv(notional, BigInt(u.leverage)) + ceilDiv(notional * BigInt(this.cfg.takerFeePpm), E6);
      if (hold > this.usable(id)) reasons.push('insufficient_balance');
    }
    return { reasons, hold };
  }

  // ---- applying engine results ---------------------------------------------------------------------------------

  /** Records a broken rule under its tag (RISK_SKIP in the test can name tags to pass over while hunting). */
  private violate(tag: string, what: string): void {
    if (!this.skip.has(tag)) this.violations.push(`[${tag}] ${what}`);
  }
  /** what the fund paid for users outside liquidations (the driver resets it before each command) */
  unpaid = 0n;
  /** tags of rules not to report (the test's RISK_SKIP) */
  skip = new Set<string>();

  /**
   * Takes `amount` from a user: an isolated position's loss from its margin first, then the available balance; anything
   * else from the available balance, then from cross margins. What the user cannot pay is a violation of "a user's
   * order never fills beyond what the user can pay" (the engine would have the fund pay it).
   */
  private pay(id: string, amount: bigint, iso: RPos | null, what: string): void {
    if (amount <= 0n) return;
    if (id === FUND) {
      this.fund -= amount;
      return;
    }
    const u = this.user(id);
    let left = amount;
    if (iso !== null) {
      const t = min(left, iso.margin);
      iso.margin -= t;
      u.wallet -= t;
      left -= t;
    }
    const t = min(left, max(0n, this.available(id)));
    u.wallet -= t;
    left -= t;
    if (left > 0n && iso === null && u.pos !== undefined && u.pos.mode === 'CROSS') {
      const c = min(left, u.pos.margin);
      u.pos.margin -= c;
      u.wallet -= c;
      left -= c;
    }
    if (left > 0n) {
      this.fund -= left;
      this.unpaid += left;
      // while the rule is skipped the model follows the engine: what the fund paid counts as allowed to the user
      if (this.skip.has('unpayable')) this.addAllowed(id, left);
      this.violate('unpayable', `${what} of ${id} beyond what it can pay: ${left} paid by the insurance fund outside a liquidation`);
    }
  }

  /** Closes cq of a position at a closing notional: realized PnL by cost share, margin share released. Returns the PnL. */
  private closePart(id: string, p: RPos, cq: bigint, closeNotional: bigint): bigint {
    const whole = cq === p.size;
    const relCost = whole ? p.cost : (p.cost * cq) / p.size;
    const relMargin = whole ? p.margin : (p.margin * cq) / p.size;
    const pnl = p.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
    p.size -= cq;
    p.cost -= relCost;
    if (id === FUND) {
      this.fund += pnl;
    } else {
      const u = this.user(id);
      let loss = pnl < 0n ? -pnl : 0n;
      let rel = relMargin;
      if (p.mode === 'ISOLATED' && loss > 0n) {
        const t = min(loss, rel);
        u.wallet -= t;
        rel -= t;
        loss -= t;
      }
      p.margin -= relMargin;
      if (pnl > 0n) u.wallet += pnl;
      if (loss > 0n) this.pay(id, loss, p.mode === 'ISOLATED' ? p : null, 'realized loss');
    }
    if (p.size === 0n) {
      if (id === FUND) this.fundPos = undefined;
      else this.user(id).pos = undefined;
    }
    return pnl;
  }

  /** One side of a BOOK fill for an order's owner: close first, then open with margin ceil(notional / leverage). */
  private settle(o: ROrder, p: bigint, q: bigint, fee: bigint): bigint {
    const id = o.user;
    const side: PositionSide = o.side === 'BUY' ? 'LONG' : 'SHORT';
    const isFund = id === FUND;
    let pos = isFund ? this.fundPos : this.user(id).pos;
    let pnl = 0n;
    let openQty = q;
    if (pos !== undefined && pos.side !== side) {
      const cq = min(q, pos.size);
      // "a user's own order never fills at a price beyond what the user can pay": checked by pay()
      pnl = this.closePart(id, pos, cq, this.notional(cq, p));
      openQty = q - cq;
      pos = isFund ? this.fundPos : this.user(id).pos;
    }
    let feeLeft = fee;
    if (o.hold > 0n && feeLeft > 0n) {
      const t = min(feeLeft, o.hold);
      o.hold -= t;
      this.user(id).wallet -= t;
      feeLeft -= t;
    }
    if (openQty > 0n) {
      const openNotional = this.notional(openQty, p);
      if (isFund) throw new Error('the fund opened a position in the book');
      const u = this.user(id);
      if (pos === undefined) u.pos = pos = { side, size: 0n, cost: 0n, margin: 0n, mode: u.mode, leverage: u.leverage };
      pos.size += openQty;
      pos.cost += openNotional;
      let need = ceilDiv(openNotional, BigInt(pos.leverage));
      const fromHold = min(need, o.hold);
      o.hold -= fromHold;
      pos.margin += fromHold;
      need -= fromHold;
      if (need > 0n) {
        const t = min(need, max(0n, this.available(id)));
        pos.margin += t;
        if (t < need) this.violate('no-margin', `${id} opened ${openQty} at ${p} without its initial margin (${need - t} short)`);
      }
    }
    if (feeLeft > 0n) this.pay(id, feeLeft, null, 'fee');
    if (!isFund) this.feesPaid.set(id, (this.feesPaid.get(id) ?? 0n) + fee);
    return pnl;
  }

  /** A new order of a user accepted by the engine (its model hold), before its fills. */
  addOrder(id: string, user: string, side: Side, price: bigint | null, qty: bigint, reduceOnly: boolean, hold: bigint): ROrder {
    const o: ROrder = { id, user, side, price, qty, filled: 0n, hold, reduceOnly, mode: user === FUND ? 'CROSS' : this.user(user).mode };
    this.orders.set(id, o);
    return o;
  }

  /** An order ended (filled, cancelled, expired): its hold goes back. */
  endOrder(id: string): void {
    this.orders.delete(id);
  }

  /**
   * Applies the events of one command in order: orders accepted (the user's with `hold`), BOOK fills (fees by the
   * model: maker 0.02%, taker 0.05% of notional rounded up, none for the fund and the liquidation's own orders), order
   * ends, and inside a mark tick the liquidation steps. `groupOf` says which accounts collude (for nothing but the
   * messages).
   */
  applyEvents(events: EngineEvent[], userHold: bigint | null): void {
    const taker = new Map<string, ROrder>();
    let liq: { user: string; mode: MarginMode; equity: bigint; fundBefore: bigint; unpaidBefore: bigint } | null = null;
    for (const ev of events) {
      switch (ev.type) {
        case 'markPrice': {
          const m1 = ev.state.markPrice;
          if (m1 === null) break;
          // "Mark Price": unrealized PnL moves with the mark; the exposure's gain is what the market allowed
          for (const [id, u] of this.users) {
            if (u.pos === undefined || this.mark === null) continue;
            const d = this.notional(u.pos.size, m1 - this.mark);
            this.addAllowed(id, u.pos.side === 'LONG' ? d : -d);
          }
          this.mark = m1;
          break;
        }
        case 'perpOrderAccepted': {
          const v = ev.order;
          if (v.trigger === 'TAKE_PROFIT' || v.trigger === 'STOP_LOSS') throw new Error('TP/SL is not modelled');
          const hold = v.trigger === null && v.userId !== FUND ? (userHold ?? 0n) : 0n;
          if (v.trigger === null && v.hold !== hold) this.violate('hold', `order ${v.orderId} of ${v.userId} holds ${v.hold}, model ${hold}`);
          const o = this.addOrder(v.orderId, v.userId, v.side, v.price, v.quantity, v.reduceOnly, hold);
          taker.set(v.orderId, o);
          if (v.userId === FUND) {
            // "Insurance fund" / "Liquidation": the fund's close is limited at the bankruptcy price
            const fp = this.fundPos;
            if (fp === undefined || v.price === null) this.violate('fund-limit', 'the fund placed an order without a position or without a limit');
            else {
              const worse = fp.side === 'LONG' ? this.notional(fp.size, v.price) < fp.cost : this.notional(fp.size, v.price) > fp.cost;
              if (worse) this.violate('fund-limit', `the fund's close is limited at ${v.price}, beyond its bankruptcy price ${fp.cost}/${fp.size * this.mult} (it could sell below / buy above bankruptcy)`);
            }
          }
          break;
        }
        case 'perpTrade': {
          if (ev.kind === 'BOOK') {
            const mk = this.orders.get(ev.makerOrderId ?? '');
            const tk = taker.get(ev.takerOrderId ?? '') ?? this.orders.get(ev.takerOrderId ?? '');
            if (mk === undefined || tk === undefined) throw new Error(`fill ${ev.tradeId} of unknown orders`);
            const notional = this.notional(ev.quantity, ev.price);
            if (ev.quoteAmount !== notional) this.violate('fill', `fill ${ev.tradeId} quote ${ev.quoteAmount}, model ${notional}`);
            const tFee = tk.user === FUND ? 0n : ceilDiv(notional * BigInt(this.cfg.takerFeePpm), E6);
            const mFee = mk.user === FUND ? 0n : ceilDiv(notional * BigInt(this.cfg.makerFeePpm), E6);
            if (ev.takerFee !== tFee || ev.makerFee !== mFee) this.violate('fees', `fees of fill ${ev.tradeId}: ${ev.takerFee}/${ev.makerFee}, model ${tFee}/${mFee}`);
            if (mk.reduceOnly || tk.reduceOnly) {
              for (const o of [mk, tk]) {
                if (!o.reduceOnly || o.user === FUND) continue;
                const p = this.user(o.user).pos;
                if (p === undefined || p.side === (o.side === 'BUY' ? 'LONG' : 'SHORT') || p.size < ev.quantity) this.violate('reduce-only', `reduce-only order ${o.id} of ${o.user} increased or flipped its position`);
              }
            }
            // the fund's fills: no worse than its bankruptcy price (its cost share)
            let fundShare: bigint | null = null;
            if (tk.user === FUND && this.fundPos !== undefined) {
              const fp = this.fundPos;
              fundShare = ev.quantity === fp.size ? fp.cost : (fp.cost * ev.quantity) / fp.size;
              const worse = fp.side === 'LONG' ? notional < fundShare : notional > fundShare;
              if (worse) this.violate('fund-fill', `the fund ${fp.side === 'LONG' ? 'sold' : 'bought'} ${ev.quantity} at ${ev.price} to ${mk.user}, beyond its bankruptcy price (loss ${fp.side === 'LONG' ? fundShare - notional : notional - fundShare})`);
            }
            for (const [o, fee] of [
              [tk, tFee],
              [mk, mFee],
            ] as const) {
              if (o.user === FUND) continue;
              // value of the fill against the mark (fills with the fund counted no better than its bankruptcy price)
              let px = notional;
              if (fundShare !== null && o === mk) px = o.side === 'BUY' ? max(notional, fundShare) : min(notional, fundShare);
              const atMark = this.notional(ev.quantity, this.mark!);
              this.addAllowed(o.user, (o.side === 'BUY' ? atMark - px : px - atMark) - fee);
            }
            const tPnl = this.settle(tk, ev.price, ev.quantity, tFee);
            const mPnl = this.settle(mk, ev.price, ev.quantity, mFee);
            if (ev.takerRealizedPnl !== tPnl || ev.makerRealizedPnl !== mPnl) this.violate('pnl', `realized PnL of fill ${ev.tradeId}: ${ev.takerRealizedPnl}/${ev.makerRealizedPnl}, model ${tPnl}/${mPnl}`);
            tk.filled += ev.quantity;
            mk.filled += ev.quantity;
            if (mk.filled === mk.qty) this.endOrder(mk.id);
            break;
          }
          if (ev.kind === 'TAKEOVER') {
            const id = ev.takerUserId;
            const u = this.user(id);
            const p = u.pos;
            if (p === undefined) throw new Error(`takeover of ${id} without a position`);
            if (!this.atRisk(id)) this.violate('takeover', `${id} taken over but not at risk (margin balance ${this.marginBalance(id)}, maintenance ${this.maintOf(id)})`);
            for (const o of this.orders.values()) if (o.user === id && (p.mode === 'CROSS' ? o.mode === 'CROSS' : true)) this.violate('takeover', `${id} taken over with order ${o.id} in scope still open`);
            // "Liquidation" / "Insurance fund": the fund takes the position at the bankruptcy price, the user's
            // equity in scope goes to exactly 0: it loses its isolated margin, or its whole cross wallet
            const equity = this.marginBalance(id);
            const lost = p.mode === 'ISOLATED' ? p.margin : this.crossWallet(id);
            const fundCost = p.side === 'LONG' ? p.cost - lost : p.cost + lost;
            if (ev.takerRealizedPnl !== -lost) this.violate('takeover', `takeover of ${id} realizes ${ev.takerRealizedPnl}, model -${lost}`);
            if (ev.quantity !== p.size) this.violate('takeover', `takeover of ${id}: ${ev.quantity} of ${p.size}`);
            liq = { user: id, mode: p.mode, equity, fundBefore: this.fund, unpaidBefore: this.unpaid };
            this.addAllowed(id, -equity);
            u.wallet -= lost;
            u.pos = undefined;
            // onto the fund's position (opposite takeovers net out at this cost share)
            let size = p.size;
            let cost = fundCost;
            const fp = this.fundPos;
            if (fp !== undefined && fp.side !== p.side) {
              const cq = min(size, fp.size);
              const cn = cq === size ? cost : (cost * cq) / size;
              this.closePart(FUND, fp, cq, cn);
              size -= cq;
              cost -= cn;
            }
            if (size > 0n) {
              if (this.fundPos === undefined) this.fundPos = { side: p.side, size: 0n, cost: 0n, margin: 0n, mode: 'CROSS', leverage: 1 };
              this.fundPos.size += size;
              this.fundPos.cost += cost;
            }
            break;
          }
          if (ev.kind === 'ADL') {
            const id = ev.takerUserId;
            const fp = this.fundPos;
            const p = this.user(id).pos;
            if (fp === undefined || p === undefined || p.side === fp.side) throw new Error(`ADL of ${id} without opposite positions`);
            // "Auto-Deleveraging": ranking by PnL% x effective leverage (profitable) or PnL% / effective leverage
            const best = this.adlTop(fp.side === 'LONG' ? 'SHORT' : 'LONG');
            if (best !== null && !best.includes(id) && this.marginBalance(id) > 0n) this.violate('adl', `ADL of ${id}, but ${best.join('/')} ranks higher`);
            const q = ev.quantity;
            if (q !== min(fp.size, p.size)) this.violate('adl', `ADL quantity ${q} of ${id}, model ${min(fp.size, p.size)}`);
            const n = q === fp.size ? fp.cost : (fp.cost * q) / fp.size;
            if (ev.quoteAmount !== n) this.violate('adl', `ADL of ${id} at ${ev.quoteAmount}, not the fund's bankruptcy value ${n}`);
            const atMark = this.notional(q, this.mark!);
            this.addAllowed(id, p.side === 'LONG' ? n - atMark : atMark - n);
            this.closePart(FUND, fp, q, n);
            const pnl = this.closePart(id, p, q, n);
            if (ev.takerRealizedPnl !== pnl) this.violate('adl', `ADL PnL of ${id} ${ev.takerRealizedPnl}, model ${pnl}`);
            break;
          }
          break;
        }
        case 'perpOrderUpdated': {
          const v = ev.order;
          if (v.status === 'CANCELED' || v.status === 'EXPIRED' || v.status === 'FILLED') {
            this.endOrder(v.orderId);
            taker.delete(v.orderId);
          }
          break;
        }
        case 'liquidated': {
          if (liq === null || liq.user !== ev.userId) throw new Error(`liquidated ${ev.userId} without its takeover`);
          if (this.fundPos !== undefined) this.violate('fund-position', `the fund keeps a position after liquidating ${ev.userId}`);
          const delta = this.fund - liq.fundBefore;
          if (ev.equity !== liq.equity) this.violate('liquidated-event', `liquidated ${ev.userId}: equity ${ev.equity}, model ${liq.equity}`);
          if (ev.insuranceDelta !== delta) this.violate('liquidated-event', `liquidated ${ev.userId}: insurance delta ${ev.insuranceDelta}, model ${delta}`);
          // "Insurance fund": the fund never pays a loss in the book (it closes at the bankruptcy price or better)
          // (while 'unpayable' is skipped, what the fund paid for an ADL'd or filled user beyond its means is excused here)
          const excused = this.skip.has('unpayable') ? this.unpaid - liq.unpaidBefore : 0n;
          if (delta + excused < 0n) this.violate('fund-paid', `the insurance fund paid ${-delta} in the liquidation of ${ev.userId} (equity ${liq.equity})`);
          this.liquidations.push({ user: liq.user, mode: liq.mode, equity: liq.equity, fundDelta: delta });
          liq = null;
          break;
        }
        case 'fundingSettled':
        case 'fundingPayment':
          break;
        default:
          break;
      }
    }
  }

  /** The best-ranked accounts for ADL among positions of a side (ties together), or null without candidates. */
  adlTop(side: PositionSide): string[] | null {
    let best: { num: bigint; den: bigint; ids: string[] } | null = null;
    for (const [id, u] of this.users) {
      const p = u.pos;
      if (p === undefined || p.side !== side) continue;
      const eq = this.marginBalance(id);
      if (eq <= 0n) continue;
      const v = this.notional(p.size, this.mark!);
      const pnl = this.upnl(p);
      // PnL% = pnl / cost; effective leverage = mark value / margin balance
      const r = pnl > 0n ? { num: pnl * v, den: p.cost * eq } : { num: pnl * eq, den: p.cost * v };
      if (best === null) best = { ...r, ids: [id] };
      else {
        const a = r.num * best.den;
        const b = best.num * r.den;
        if (a > b) best = { ...r, ids: [id] };
        else if (a === b) best.ids.push(id);
      }
    }
    return best?.ids ?? null;
  }

  /**
   * "Introduction to Funding Rates": each position pays or receives size * mark * rate; longs pay a positive rate;
   * payers rounded up, receivers down; an isolated position's funding goes to or from its margin. Returns the model's
   * payments by user.
   */
  funding(rateE8: bigint, mark: bigint): Map<string, bigint> {
    const out = new Map<string, bigint>();
    const pays: [string, bigint][] = [];
    const gets: [string, bigint][] = [];
    for (const [id, u] of this.users) {
      const p = u.pos;
      if (p === undefined) continue;
      const raw = this.notional(p.size, mark) * rateE8;
      const longPays = raw > 0n;
      const abs = raw < 0n ? -raw : raw;
      const pays1 = (p.side === 'LONG') === longPays;
      const amt = pays1 ? -ceilDiv(abs, E8) : abs / E8;
      if (amt < 0n) pays.push([id, amt]);
      else if (amt > 0n) gets.push([id, amt]);
    }
    for (const [id, amt] of pays) {
      const p = this.user(id).pos!;
      this.pay(id, -amt, p.mode === 'ISOLATED' ? p : null, 'funding');
      out.set(id, amt);
      this.addAllowed(id, amt);
    }
    for (const [id, amt] of gets) {
      const u = this.user(id);
      u.wallet += amt;
      if (u.pos!.mode === 'ISOLATED') u.pos!.margin += amt;
      out.set(id, amt);
      this.addAllowed(id, amt);
    }
    return out;
  }
}
