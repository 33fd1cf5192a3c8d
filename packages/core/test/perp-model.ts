/**
 * An independent, deliberately simple model of the perpetual contracts, written from the docstrings of
 * perp/types.ts and docs/perpetuals.md (the spec) without the engine's code; the formulas come from perp/math.ts
 * (tested on their own in math.test.ts). Plain arrays and maps: one market, a price-time book of arrays, positions by
 * cost, wallets in quote units.
 *
 * What the model decides itself: result codes of the user commands (in REJECT_CODES precedence), the fills of every
 * order it matches (user orders, take profit / stop loss closes, the insurance fund's close): maker order, price and
 * quantity, the positions (side, size, cost, realized PnL, fees, funding, TP/SL), the wallets (deposits - fees +
 * realized PnL + funding), how each wallet splits into order holds, position margins (cross and isolated) and the
 * available rest, '@fee', '@funding', '@clearing', '@insurance' (its gains and losses, and the losses no margin
 * could pay), the mark price, the premium samples, the funding rate and payments, which positions take profit or stop
 * loss, which scopes must be liquidated at a mark and what a takeover costs the user.
 *
 * Margin rules (docs/perpetuals.md "Orders and margin", "Liquidation"; perp-engine.ts's docstrings where the page is
 * silent):
 * - an order that is not reduce-only holds ceil(notional / leverage) + ceil(notional x taker fee) from the available
 *   balance; each fill takes its fee, then the opened part's margin ceil(fill notional / position leverage), from the
 *   hold, then from the available balance; what is left of the hold goes back when the order ends;
 * - a close releases margin x q / size (rounded down; all of it for a whole close); an isolated position's loss is
 *   paid from the released margin, then from what is left of its margin, then from the available balance; a cross
 *   loss from the available balance, then from the cross position's margin; a fee beyond the hold from the available
 *   balance, then the cross margin; what nothing can pay is paid by the insurance fund (balances never go negative);
 * - funding: an isolated payer pays from its margin first, an isolated receiver's funding goes to its margin;
 * - perpSetLeverage moves the margin towards ceil(cost / leverage) (an isolated position releases no more than margin
 *   removal allows); perpAdjustMargin adds (cross losses counted) or removes isolated margin;
 * - a takeover releases the margins in scope and the user realizes -(isolated margin | cross wallet).
 *
 * It also decides the insurance fund's closing order (placed or not, its limit) and the auto-deleveraging order.
 *
 * What it takes from the engine (declared, checked elsewhere): order ids (one sequence shared with spot) and the
 * engine's own orders as the events show them (TP/SL closes, the fund's close), and the order of the liquidation steps
 * (the driver checks that each is allowed: the scope is at risk at that point, a round's scopes in the positions'
 * order, each skipped scope gone or safe).
 */
import {
  bracketTiers,
  fundingPayment,
  fundingRateE8,
  fundingTimeAtOrBefore,
  initialMargin,
  maintMargin,
  markPriceOf,
  maxNotionalFor,
  orderCost,
  perpFee,
  premiumIndexE8,
  unrealizedPnl,
  type BracketTier,
} from '../src/perp/math';
import type { MarginMode, PerpMarketConfig, PerpTradeType, PositionSide } from '../src/perp/types';
import type { Side } from '../src/types';

/**
 * Binance's open loss of an order or fill ("How to Calculate Order Cost": order cost = initial margin + open loss):
 * max(0, order notional - mark notional) for a BUY, the reverse for a SELL (written here from that page, not imported).
 */
function openLossOf(side: Side, orderNotional: bigint, markNotional: bigint): bigint {
  const d = side === 'BUY' ? orderNotional - markNotional : markNotional - orderNotional;
  return d > 0n ? d : 0n;
}

/** A position in the model. */
export interface MPos {
  side: PositionSide;
  size: bigint;
  cost: bigint;
  /** the part of the wallet frozen for this position (cross or isolated) */
  margin: bigint;
  realizedPnl: bigint;
  funding: bigint;
  fees: bigint;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  marginMode: MarginMode;
  leverage: number;
}

/** A resting or just-placed order in the model. */
export interface MOrder {
  id: string;
  user: string;
  side: Side;
  type: 'LIMIT' | 'MARKET';
  price: bigint | null;
  qty: bigint;
  filled: bigint;
  reduceOnly: boolean;
  leverage: number;
  /** the user's margin mode when the order was accepted */
  marginMode: MarginMode;
  /** what is left of the margin and fee the order holds */
  hold: bigint;
  tradeType: PerpTradeType;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
}

/** A taker order for execute(): its hold (if any) pays its fees and margins and is lowered by them. */
export interface MTaker {
  user: string;
  side: Side;
  price: bigint | null;
  qty: bigint;
  reduceOnly: boolean;
  leverage: number;
  hold?: bigint;
  /** set by execute() when a fill the taker could not pay stopped it (its rest expires, it does not rest) */
  stopped?: boolean;
}

/** One fill the model expects: maker order, taker order owner, price, quantity. */
export interface MFill {
  makerOrderId: string;
  makerUser: string;
  takerUser: string;
  price: bigint;
  qty: bigint;
  makerPnl: bigint;
  takerPnl: bigint;
  makerFee: bigint;
  takerFee: bigint;
}

const E6 = 1_000_000n;
const FUND = '@insurance';
const opp = (s: Side): Side => (s === 'BUY' ? 'SELL' : 'BUY');
const sideOf = (s: Side): PositionSide => (s === 'BUY' ? 'LONG' : 'SHORT');
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The model of one perpetual market and its users' contract accounts. */
export class PerpModel {
  readonly tiers: BracketTier[];
  readonly mult: bigint;
  /** each user's CONTRACT wallet (available + frozen) */
  wallet = new Map<string, bigint>();
  system = { fee: 0n, funding: 0n, clearing: 0n, insurance: 0n };
  positions = new Map<string, MPos>();
  settings = new Map<string, { leverage: number; marginMode: MarginMode }>();
  /** the side of every order that was a maker (for its TP/SL once it is filled and gone) */
  filledSides = new Map<string, Side>();
  /** open orders, in arrival order */
  orders: MOrder[] = [];
  index: bigint | null = null;
  mark: bigint | null = null;
  last: bigint | null = null;
  lastFundingRateE8 = 0;
  lastFundingTs: number | null = null;
  basis: bigint[] = [];
  premiums: bigint[] = [];
  /** the taker being executed (not in `orders`): its hold is frozen too */
  private taking: MTaker | null = null;

  constructor(
    readonly cfg: PerpMarketConfig,
    settleScale: number,
  ) {
    this.tiers = bracketTiers(cfg.brackets);
    this.mult = 10n ** BigInt(settleScale - cfg.priceDecimals - cfg.qtyDecimals);
  }

  /** A user's leverage and margin mode (20x cross by default). */
  settingsOf(user: string): { leverage: number; marginMode: MarginMode } {
    return this.settings.get(user) ?? { leverage: 20, marginMode: 'CROSS' };
  }
  /** A user's wallet (the fund's balance for '@insurance'). */
  walletOf(user: string): bigint {
    return user === FUND ? this.system.insurance : (this.wallet.get(user) ?? 0n);
  }
  /** Adds `d` to a user's wallet (to the fund's balance for '@insurance'). */
  addWallet(user: string, d: bigint): void {
    if (user === FUND) this.system.insurance += d;
    else this.wallet.set(user, this.walletOf(user) + d);
  }
  /** The frozen part of a user's wallet: its open orders' holds plus its position's margin. */
  frozenOf(user: string): bigint {
    let f = this.positions.get(user)?.margin ?? 0n;
    for (const o of this.orders) if (o.user === user) f += o.hold;
    if (this.taking !== null && this.taking.user === user && !this.orders.includes(this.taking as MOrder)) f += this.taking.hold ?? 0n;
    return f;
  }
  /** The available part of a user's wallet. */
  availableOf(user: string): bigint {
    return this.walletOf(user) - this.frozenOf(user);
  }
  /** The cross wallet: the wallet less isolated margins and the holds of isolated orders. */
  crossWallet(user: string): bigint {
    let w = this.walletOf(user);
    const p = this.positions.get(user);
    if (p !== undefined && p.marginMode === 'ISOLATED') w -= p.margin;
    for (const o of this.orders) if (o.user === user && o.marginMode === 'ISOLATED') w -= o.hold;
    return w;
  }
  /** What an order may use: the available balance plus cross unrealized losses (docs "Orders and margin"). */
  orderAvailable(user: string): bigint {
    const c = this.crossUpnl(user);
    return this.availableOf(user) + (c < 0n ? c : 0n);
  }

  /** Best price of a side of the book, or null. */
  best(side: Side): bigint | null {
    let b: bigint | null = null;
    for (const o of this.orders) {
      if (o.side !== side || o.price === null) continue;
      if (b === null || (side === 'BUY' ? o.price > b : o.price < b)) b = o.price;
    }
    return b;
  }
  /** Resting orders of a side in price-time priority. */
  bookSide(side: Side): MOrder[] {
    const l = this.orders.filter((o) => o.side === side && o.price !== null);
    // stable sort keeps arrival order within a price
    return l.sort((a, b) => (a.price === b.price ? 0 : side === 'BUY' ? (a.price! > b.price! ? -1 : 1) : a.price! < b.price! ? -1 : 1));
  }
  /** A user's open orders, in arrival order. */
  userOrders(user: string): MOrder[] {
    return this.orders.filter((o) => o.user === user);
  }

  /** Unrealized PnL of a position at the mark (0 without a mark). */
  upnl(p: MPos): bigint {
    return this.mark === null ? 0n : unrealizedPnl(p.side, p.size, p.cost, this.mark, this.mult);
  }
  /** Maintenance margin of a position at the mark. */
  mm(p: MPos): bigint {
    return this.mark === null ? 0n : maintMargin(this.tiers, p.size * this.mark * this.mult);
  }
  /** Margin balance of a position's scope at the mark: isolated margin, or the cross wallet, plus its uPnL. */
  marginBalance(user: string, p: MPos): bigint {
    return (p.marginMode === 'ISOLATED' ? p.margin : this.crossWallet(user)) + this.upnl(p);
  }

  /**
   * Fills a taker order would get against the book (price-time priority, at the maker's price, within the taker's
   * limit); a reduce-only taker is capped to its position; a maker of the same user stops the taker (expire taker).
   * Does not change the state.
   */
  previewFills(taker: { user: string; side: Side; price: bigint | null; qty: bigint; reduceOnly: boolean }): { maker: MOrder; qty: bigint }[] {
    const out: { maker: MOrder; qty: bigint }[] = [];
    // signed positions as the sweep changes them (a reduce-only maker's room shrinks as earlier fills use it)
    const pos = new Map<string, bigint>();
    const signed = (u: string): bigint => {
      const v = pos.get(u);
      if (v !== undefined) return v;
      const p = this.positions.get(u);
      return p === undefined ? 0n : p.side === 'LONG' ? p.size : -p.size;
    };
    const room = (u: string, side: Side): bigint => {
      const s = signed(u);
      return side === 'SELL' ? (s > 0n ? s : 0n) : s < 0n ? -s : 0n;
    };
    let rem = taker.qty;
    for (const m of this.bookSide(opp(taker.side))) {
      if (rem <= 0n) break;
      if (taker.reduceOnly && room(taker.user, taker.side) === 0n) break;
      if (taker.price !== null && (taker.side === 'BUY' ? m.price! > taker.price : m.price! < taker.price)) break;
      if (m.user === taker.user) break;
      let q = m.qty - m.filled;
      if (q > rem) q = rem;
      if (taker.reduceOnly) {
        const r = room(taker.user, taker.side);
        if (r < q) q = r;
      }
      if (m.reduceOnly) {
        const r = room(m.user, m.side);
        if (r < q) q = r;
      }
      if (q <= 0n) continue;
      out.push({ maker: m, qty: q });
      rem -= q;
      const d = taker.side === 'BUY' ? q : -q;
      pos.set(taker.user, signed(taker.user) + d);
      pos.set(m.user, signed(m.user) - d);
    }
    return out;
  }

  /**
   * A user pays `amount` (>= 0) to a system account: from an isolated position's margin (`iso`), then the available
   * balance; or (iso null) from the available balance, then the cross position's margin; the rest, that nothing of
   * the user can pay, is paid by the insurance fund. The fund itself pays from its balance.
   */
  pay(
    user: string,
    amount: bigint,
    to: 'fee' | 'funding' | 'clearing',
    iso: MPos | null,
    order: { hold?: bigint } | null = null,
    fundPays = true,
    isoMarginLast = false,
  ): bigint {
    if (amount <= 0n) return 0n;
    if (user === FUND) {
      this.system[to] += amount;
      this.system.insurance -= amount;
      return 0n;
    }
    let left = amount;
    const take = (t: bigint): void => {
      this.addWallet(user, -t);
      this.system[to] += t;
      left -= t;
    };
    // the paying order's hold (a fill's loss or fee), before any position's margin of a cross user
    const fromHold = (): void => {
      const h = order === null ? 0n : min(left, order.hold ?? 0n);
      if (h <= 0n) return;
      order!.hold = (order!.hold ?? 0n) - h;
      take(h);
    };
    if (iso !== null) {
      // a fill's loss or fee: the available balance before the margin of what stays open; funding: the margin first
      const fromMargin = (): void => {
        const t = min(left, iso.margin);
        iso.margin -= t;
        take(t);
      };
      if (!isoMarginLast) fromMargin();
      const a = this.availableOf(user);
      take(min(left, a > 0n ? a : 0n));
      if (isoMarginLast) fromMargin();
      fromHold();
    } else {
      const a = this.availableOf(user);
      take(min(left, a > 0n ? a : 0n));
      fromHold();
      const p = this.positions.get(user);
      if (left > 0n && p !== undefined && p.marginMode === 'CROSS' && p.margin > 0n) {
        const t = min(left, p.margin);
        p.margin -= t;
        take(t);
      }
    }
    if (!fundPays) return left;
    this.system[to] += left;
    this.system.insurance -= left;
    return 0n;
  }

  /**
   * Closes cq of a user's position at a closing notional: releases cost x cq / size and margin x cq / size (both
   * rounded down, all of them for a whole close), realizes the PnL with '@clearing' (an isolated loss from the
   * released margin first, then as pay() takes it). Returns the PnL.
   */
  closePart(user: string, p: MPos, cq: bigint, closeNotional: bigint, order: { hold?: bigint } | null = null): bigint {
    const whole = cq === p.size;
    const relCost = whole ? p.cost : (p.cost * cq) / p.size;
    const relMargin = whole ? p.margin : (p.margin * cq) / p.size;
    const pnl = p.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
    p.size -= cq;
    p.cost -= relCost;
    p.realizedPnl += pnl;
    if (user === FUND) {
      this.system.insurance += pnl;
      this.system.clearing -= pnl;
    } else {
      let lossLeft = pnl < 0n ? -pnl : 0n;
      p.margin -= relMargin;
      if (p.marginMode === 'ISOLATED' && lossLeft > 0n) {
        const t = min(lossLeft, relMargin);
        this.addWallet(user, -t);
        this.system.clearing += t;
        lossLeft -= t;
      }
      if (pnl > 0n) {
        this.addWallet(user, pnl);
        this.system.clearing -= pnl;
      }
      if (lossLeft > 0n) this.pay(user, lossLeft, 'clearing', p.marginMode === 'ISOLATED' ? p : null, order, true, true);
    }
    if (p.size === 0n) {
      p.margin = 0n;
      this.positions.delete(user);
    }
    return pnl;
  }

  /**
   * Applies one side of a fill to its owner's position and wallet: closes first, then opens the rest at the user's
   * leverage setting; the fee, then the opened margin, from the order's hold (`order`), then from the available
   * balance. Returns the realized PnL and the fee.
   */
  applyFill(user: string, side: Side, qty: bigint, price: bigint, feePpm: number, fees: boolean, order: { hold?: bigint } = {}): { pnl: bigint; fee: bigint } {
    const fee = fees ? perpFee(price * qty * this.mult, feePpm) : 0n;
    const ps = sideOf(side);
    let p = this.positions.get(user);
    let pnl = 0n;
    let rest = qty;
    if (p !== undefined && p.side !== ps) {
      const close = rest < p.size ? rest : p.size;
      pnl = this.closePart(user, p, close, price * close * this.mult, order);
      rest -= close;
      if (p.size === 0n) p = undefined;
    }
    let feeLeft = fee;
    const hold = order.hold ?? 0n;
    if (hold > 0n && feeLeft > 0n) {
      const t = min(feeLeft, hold);
      order.hold = hold - t;
      this.addWallet(user, -t);
      this.system.fee += t;
      feeLeft -= t;
    }
    if (rest > 0n) {
      if (p === undefined) {
        // the position takes the user's settings (the order's leverage is its own, fixed at acceptance)
        const s = this.settingsOf(user);
        p = {
          side: ps,
          size: 0n,
          cost: 0n,
          margin: 0n,
          realizedPnl: 0n,
          funding: 0n,
          fees: 0n,
          takeProfit: null,
          stopLoss: null,
          marginMode: user === FUND ? 'CROSS' : s.marginMode,
          leverage: s.leverage,
        };
        this.positions.set(user, p);
      }
      p.size += rest;
      p.cost += price * rest * this.mult;
      if (user !== FUND) {
        // an isolated position also keeps the fill's open loss against the mark (Binance's order cost)
        const loss = p.marginMode === 'ISOLATED' && this.mark !== null ? openLossOf(side, price * rest * this.mult, this.mark * rest * this.mult) : 0n;
        let need = initialMargin(price * rest * this.mult, p.leverage) + loss;
        const fromHold = min(need, order.hold ?? 0n);
        if (fromHold > 0n) order.hold = (order.hold ?? 0n) - fromHold;
        p.margin += fromHold;
        need -= fromHold;
        if (need > 0n) {
          const a = this.availableOf(user);
          p.margin += min(need, a > 0n ? a : 0n);
        }
      }
    }
    // the fill's whole fee goes to the position left after it (none when the fill closed it)
    if (p !== undefined) p.fees += fee;
    this.pay(user, feeLeft, 'fee', p !== undefined && p.marginMode === 'ISOLATED' ? p : null, order, true, true);
    return { pnl, fee };
  }

  /**
   * Executes fills of a taker (fees unless the fund's close is fee-free; the fund pays no taker fee) and updates the
   * book: per fill the taker's side, then the maker's; a maker filled entirely gets its hold back.
   */
  execute(taker: MTaker, fees = true): MFill[] {
    const fills: MFill[] = [];
    this.taking = taker;
    let left = taker.qty;
    for (;;) {
      const next = this.previewFills({ ...taker, qty: left })[0];
      if (next === undefined) break;
      const { maker, qty } = next;
      // a fill whose owner cannot pay its close is not executed: the taker stops, a maker expires (docs "Orders")
      if (!this.payable(taker, maker.price!, qty, this.cfg.takerFeePpm)) {
        taker.stopped = true;
        break;
      }
      if (!this.payable(maker, maker.price!, qty, this.cfg.makerFeePpm)) {
        this.removeOrder(maker.id, 'EXPIRED');
        this.expiredMakers.push(maker.id);
        continue;
      }
      left -= qty;
      const tk = this.applyFill(taker.user, taker.side, qty, maker.price!, this.cfg.takerFeePpm, fees && taker.user !== FUND, taker);
      const mk = this.applyFill(maker.user, maker.side, qty, maker.price!, this.cfg.makerFeePpm, fees, maker);
      maker.filled += qty;
      this.filledSides.set(maker.id, maker.side);
      maker.status = maker.filled === maker.qty ? 'FILLED' : 'PARTIALLY_FILLED';
      if (maker.status === 'FILLED') maker.hold = 0n;
      this.last = maker.price;
      fills.push({
        makerOrderId: maker.id,
        makerUser: maker.user,
        takerUser: taker.user,
        price: maker.price!,
        qty,
        makerPnl: mk.pnl,
        takerPnl: tk.pnl,
        makerFee: mk.fee,
        takerFee: tk.fee,
      });
    }
    this.taking = null;
    this.orders = this.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
    this.expireReduceOnly();
    return fills;
  }

  /** Makers execute() expired because their owner could not pay the fill (read and cleared by the driver). */
  expiredMakers: string[] = [];

  /**
   * True when a user can pay a fill of `qty` at `price` (docs/perpetuals.md "Orders and margin": a fill beyond what the
   * user can pay is not executed): the scope's equity after the fill, without unrealized profit, stays >= 0. The closed
   * part realizes its PnL at `price`; the rest of the position keeps its uPnL at the mark; an opened part starts with
   * its own uPnL at the mark. Isolated (the position's mode, or the user's for a new one): the position's margin + the
   * max withdraw amount + the order's hold + realized PnL + min(0, uPnL of the rest) - the fee - (opening: initial
   * margin + open loss); cross: cross wallet + realized PnL - fee + min(0, uPnL after, the opened part's included).
   * The fund always pays.
   */
  payable(o: { user: string; side: Side; hold?: bigint }, price: bigint, qty: bigint, feePpm: number): boolean {
    if (o.user === FUND || this.mark === null) return true;
    const p = this.positions.get(o.user);
    const closing = p !== undefined && p.side !== sideOf(o.side);
    const cq = closing ? min(qty, p.size) : 0n;
    const opens = qty - cq;
    let pnl = 0n;
    let rest = 0n;
    if (p !== undefined) {
      const relCost = cq === 0n ? 0n : cq === p.size ? p.cost : (p.cost * cq) / p.size;
      const close = price * cq * this.mult;
      pnl = cq === 0n ? 0n : p.side === 'LONG' ? close - relCost : relCost - close;
      rest = unrealizedPnl(p.side, p.size - cq, p.cost - relCost, this.mark, this.mult);
    }
    const openNotional = price * opens * this.mult;
    const markNotional = this.mark * opens * this.mult;
    const open = opens === 0n ? 0n : o.side === 'BUY' ? markNotional - openNotional : openNotional - markNotional;
    const fee = perpFee(price * qty * this.mult, feePpm);
    const s = this.settingsOf(o.user);
    if ((p?.marginMode ?? s.marginMode) === 'ISOLATED') {
      const openCost = opens > 0n ? initialMargin(openNotional, p?.leverage ?? s.leverage) + (open < 0n ? -open : 0n) : 0n;
      const spend = this.orderAvailable(o.user);
      const kept = (p?.margin ?? 0n) + pnl + min(rest, 0n);
      const brought = (spend > 0n ? spend : 0n) + (o.hold ?? 0n) - fee - openCost;
      // a fill that closes nothing brings its own cost
      if (cq === 0n && brought < 0n) return false;
      return kept + brought >= 0n;
    }
    const after = rest + open;
    // only the paying order's hold can pay: the user's other cross orders' holds do not count
    let others = 0n;
    for (const x of this.orders) if (x.user === o.user && x !== o && x.marginMode === 'CROSS') others += x.hold;
    return this.crossWallet(o.user) - others + pnl - fee + min(after, 0n) >= 0n;
  }

  /** Takes an open order out of the book (cancel or expiry): its hold goes back. */
  removeOrder(id: string, status: 'CANCELED' | 'EXPIRED'): MOrder | undefined {
    const o = this.orders.find((x) => x.id === id);
    if (o === undefined) return undefined;
    o.status = status;
    o.hold = 0n;
    this.orders = this.orders.filter((x) => x !== o);
    return o;
  }

  /** Reduce-only orders whose position is gone or on their own side expire (returns their ids). */
  expireReduceOnly(): string[] {
    const gone: string[] = [];
    for (const o of this.orders) {
      if (!o.reduceOnly) continue;
      const p = this.positions.get(o.user);
      if (p === undefined || p.side === sideOf(o.side)) {
        o.status = 'EXPIRED';
        o.hold = 0n;
        gone.push(o.id);
      }
    }
    if (gone.length > 0) this.orders = this.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
    return gone;
  }

  /** The ids of the open orders a liquidation of the user cancels: all its orders for isolated, its cross ones for cross. */
  ordersInScope(user: string): string[] {
    const p = this.positions.get(user);
    const iso = p?.marginMode === 'ISOLATED';
    return this.userOrders(user)
      .filter((o) => iso || o.marginMode === 'CROSS')
      .map((o) => o.id);
  }

  /**
   * Takeover of a whole position by the insurance fund at the bankruptcy price (after the orders in scope are gone):
   * the margins in scope are released and the user realizes exactly -lost, its margin balance without uPnL (an
   * isolated position's margin, or the cross wallet); the fund opens the same position at the cost that keeps
   * '@clearing' balanced (the exact bankruptcy value: cost - lost for a long, cost + lost for a short).
   * Returns the user's PnL, the fund's cost and the user's equity before (margin balance at the mark).
   */
  takeover(user: string): { pnl: bigint; fundCost: bigint; equity: bigint; lost: bigint } {
    const p = this.positions.get(user)!;
    const equity = this.marginBalance(user, p);
    const lost = p.marginMode === 'ISOLATED' ? p.margin : this.crossWallet(user);
    const pnl = -lost;
    const fundCost = p.side === 'LONG' ? p.cost - lost : p.cost + lost;
    p.margin = 0n;
    this.positions.delete(user);
    p.realizedPnl += pnl;
    // after the release the available balance covers the isolated margin or the cross wallet: the fund pays nothing
    const a = this.availableOf(user);
    if (lost > 0n && lost > a) throw new Error(`takeover of ${user}: ${lost} lost, ${a} available`);
    this.addWallet(user, pnl);
    this.system.clearing -= pnl;
    const f = this.positions.get(FUND);
    if (f === undefined) {
      this.positions.set(FUND, {
        ...p,
        size: p.size,
        cost: fundCost,
        margin: 0n,
        realizedPnl: 0n,
        funding: 0n,
        fees: 0n,
        takeProfit: null,
        stopLoss: null,
        marginMode: 'CROSS',
        leverage: 1,
      });
    } else if (f.side === p.side) {
      f.size += p.size;
      f.cost += fundCost;
    } else throw new Error('the fund holds both sides');
    return { pnl, fundCost, equity, lost };
  }

  /**
   * Auto-deleveraging of q of a user's position against the fund's opposite one, at the fund's entry (its exact cost,
   * the bankruptcy value): both close q at the closing value the fund releases (the fund first), so the fund realizes
   * 0 and the user the difference to its own cost (a loss as closePart pays it). Returns [user PnL, fund PnL].
   */
  adl(user: string, q: bigint): [bigint, bigint] {
    const f = this.positions.get(FUND)!;
    const value = q === f.size ? f.cost : (f.cost * q) / f.size;
    const fp = this.closePart(FUND, f, q, value);
    const up = this.closePart(user, this.positions.get(user)!, q, value);
    return [up, fp];
  }

  /**
   * The limit of the insurance fund's closing IOC order (docs "Liquidation", step 3): the bankruptcy price (its
   * entry, cost / size) on the tick, rounded away from a loss, so the fund never sells below nor buys above it
   * (Binance: the liquidation order is sent at the bankruptcy price); no further from the mark than the price band;
   * null when it places none (no bid for a long to sell into, no ask for a short).
   */
  fundCloseLimit(): bigint | null {
    const f = this.positions.get(FUND);
    if (f === undefined || this.best(f.side === 'LONG' ? 'BUY' : 'SELL') === null) return null;
    const t = this.cfg.tickSize;
    const n = f.size * this.mult;
    const band = BigInt(this.cfg.priceBandPpm);
    const mark = this.mark!;
    let limit: bigint;
    if (f.side === 'LONG') {
      // sells: price x n >= cost, the lowest such price on the tick
      limit = ((f.cost + n * t - 1n) / (n * t)) * t;
      const lowest = ((mark * (E6 - band) + E6 * t - 1n) / (E6 * t)) * t;
      const low = lowest > 0n ? lowest : t;
      if (limit < low) limit = low;
    } else {
      // buys: price x n <= cost, the highest such price on the tick
      limit = (f.cost / (n * t)) * t;
      const high = ((mark * (E6 + band)) / (E6 * t)) * t;
      if (limit > high) limit = high;
    }
    return limit > 0n ? limit : null;
  }

  /**
   * The users whose positions are opposite to the fund's, in auto-deleveraging order (docs "Liquidation", step 4,
   * Binance's ranking): profit ratio (uPnL / cost) x effective leverage (value / margin balance) for a profitable
   * position, profit ratio / effective leverage otherwise, highest first (a margin balance <= 0 counts as one quote
   * unit); ties by user id.
   */
  adlRanking(): string[] {
    const f = this.positions.get(FUND)!;
    const rows: { u: string; num: bigint; den: bigint }[] = [];
    for (const [u, p] of this.positions) {
      if (u === FUND || p.side === f.side) continue;
      const pnl = this.upnl(p);
      const v = p.size * this.mark! * this.mult;
      const eq = this.marginBalance(u, p);
      const e = eq > 0n ? eq : 1n;
      rows.push(pnl > 0n ? { u, num: pnl * v, den: p.cost * e } : { u, num: pnl * e, den: p.cost * v });
    }
    rows.sort((x, y) => {
      const a = x.num * y.den;
      const b = y.num * x.den;
      return a > b ? -1 : a < b ? 1 : x.u < y.u ? -1 : x.u > y.u ? 1 : 0;
    });
    return rows.map((r) => r.u);
  }

  /** Cross unrealized PnL of a user (one market: its position if cross). */
  crossUpnl(user: string): bigint {
    const p = this.positions.get(user);
    return p !== undefined && p.marginMode === 'CROSS' ? this.upnl(p) : 0n;
  }

  /**
   * The result code of a perpPlaceOrder and the hold it takes, checks in the order docs/perpetuals.md gives ("Orders
   * and margin": tick and step, mark, band, TP/SL, reduce-only, bracket, balance), given what the user may use
   * (available + min(0, cross uPnL)). The hold's notional: a BUY at its limit, a SELL at the higher of its limit and
   * the best bid, a MARKET order at what the book fills now; a reduce-only order holds nothing.
   */
  placeCheck(
    o: {
      user: string;
      side: Side;
      type: 'LIMIT' | 'MARKET';
      price: bigint | null;
      qty: bigint;
      reduceOnly: boolean;
      takeProfit: bigint | null;
      stopLoss: bigint | null;
    },
    available = this.orderAvailable(o.user),
  ): { code: string; hold: bigint } {
    const no = (code: string): { code: string; hold: bigint } => ({ code, hold: 0n });
    const c = this.cfg;
    if (o.type === 'LIMIT' && o.price !== null && o.price % c.tickSize !== 0n) return no('price_not_on_tick');
    if (o.qty % c.stepSize !== 0n) return no('quantity_not_on_step');
    if (o.qty < c.minQty) return no('quantity_below_minimum');
    if (this.mark === null) return no('mark_price_unavailable');
    const mark = this.mark;
    if (o.type === 'LIMIT') {
      const d = o.price! > mark ? o.price! - mark : mark - o.price!;
      if (d * E6 > mark * BigInt(c.priceBandPpm)) return no('price_out_of_band');
    }
    if (o.takeProfit !== null || o.stopLoss !== null) {
      const long = o.side === 'BUY';
      if (o.takeProfit !== null && (long ? !(o.takeProfit > mark) : !(o.takeProfit < mark))) return no('take_profit_invalid');
      if (o.stopLoss !== null && (long ? !(o.stopLoss < mark) : !(o.stopLoss > mark))) return no('stop_loss_invalid');
    }
    const s = this.settingsOf(o.user);
    const pos = this.positions.get(o.user);
    if (o.reduceOnly && (pos === undefined || pos.side === sideOf(o.side))) return no('reduce_only_rejected');
    if (o.type === 'MARKET' && this.best(opp(o.side)) === null) return no('no_liquidity');
    let notional: bigint;
    let fillable = o.qty;
    let loss: bigint;
    if (o.type === 'LIMIT') {
      const bid = this.best('BUY');
      const p = o.side === 'SELL' && bid !== null && bid > o.price! ? bid : o.price!;
      notional = p * o.qty * this.mult;
      loss = openLossOf(o.side, o.price! * o.qty * this.mult, mark * o.qty * this.mult);
    } else {
      notional = 0n;
      fillable = 0n;
      for (const f of this.previewFills({ ...o, price: null, reduceOnly: false })) {
        notional += f.maker.price! * f.qty * this.mult;
        fillable += f.qty;
      }
      loss = openLossOf(o.side, notional, mark * fillable * this.mult);
    }
    let hold = 0n;
    if (!o.reduceOnly) {
      // the position after the order (its size if all of it filled) valued at the order's price, a MARKET's at the mark
      const size = pos === undefined ? 0n : pos.size;
      const after = pos === undefined || pos.side === sideOf(o.side) ? size + o.qty : o.qty > size ? o.qty - size : size - o.qty;
      if (after * (o.type === 'MARKET' ? mark : o.price!) * this.mult > maxNotionalFor(this.tiers, s.leverage)) return no('leverage_too_high');
      hold = orderCost(notional, s.leverage, c.takerFeePpm) + loss;
      if (hold > available) return no('insufficient_balance');
    }
    if (o.type === 'MARKET' && fillable === 0n) return no('no_liquidity');
    return { code: 'ok', hold };
  }

  /** The result code of a perpPlaceOrder (see placeCheck). */
  placeCode(o: Parameters<PerpModel['placeCheck']>[0], available?: bigint): string {
    return this.placeCheck(o, available).code;
  }

  /**
   * perpSetLeverage (leverage already valid): with a position, its notional at the mark must fit the leverage's
   * bracket and its margin moves towards ceil(cost / leverage): a rise held from the available balance less cross
   * unrealized losses; a cross position's margin becomes the target; an isolated one releases at most what margin
   * removal at the new leverage allows (its unrealized loss counted). Applies it when `apply`; returns the code.
   */
  setLeverage(user: string, leverage: number, apply: boolean): string {
    const p = this.positions.get(user);
    // resting opening orders take the new leverage: the initial margin of their rest is held again at it
    const resize: [MOrder, bigint][] = [];
    let total = 0n;
    for (const o of this.userOrders(user)) {
      if (o.reduceOnly || o.leverage === leverage) continue;
      const n = o.price! * (o.qty - o.filled) * this.mult;
      let d = initialMargin(n, leverage) - initialMargin(n, o.leverage);
      if (d < -o.hold) d = -o.hold;
      resize.push([o, d]);
      total += d;
    }
    const spend = this.orderAvailable(user);
    if (p === undefined && total > 0n && total > (spend > 0n ? spend : 0n)) return 'insufficient_balance';
    if (p === undefined && apply) {
      for (const [o, d] of resize) {
        o.hold += d;
        o.leverage = leverage;
      }
    }
    if (p !== undefined) {
      if (p.size * this.mark! * this.mult > maxNotionalFor(this.tiers, leverage)) return 'leverage_too_high';
      const need = initialMargin(p.cost, leverage);
      let next = need;
      if (need > p.margin) {
        // held below, with the orders' changes
      } else if (p.marginMode === 'ISOLATED') {
        // margin + min(0, uPnL) - ceil(notional at the mark / leverage) may go, and no more than the excess
        const u = this.upnl(p);
        const free = p.margin + (u < 0n ? u : 0n) - initialMargin(p.size * this.mark! * this.mult, leverage);
        const cap = free < 0n ? 0n : free;
        const excess = p.margin - need;
        next = p.margin - (cap < excess ? cap : excess);
      }
      const all = total + next - p.margin;
      if (all > 0n && all > (spend > 0n ? spend : 0n)) return 'insufficient_balance';
      if (apply) {
        for (const [o, d] of resize) {
          o.hold += d;
          o.leverage = leverage;
        }
        p.margin = next;
        p.leverage = leverage;
      }
    }
    if (apply) this.settings.set(user, { ...this.settingsOf(user), leverage });
    return 'ok';
  }

  /**
   * perpAdjustMargin: adds from the available balance, or removes what leaves (less an unrealized loss) at least the
   * initial margin at the mark. Applies it when `apply`; returns the code.
   */
  adjustMargin(user: string, amount: bigint, apply: boolean): string {
    const p = this.positions.get(user);
    if (p === undefined) return 'no_position';
    if (p.marginMode !== 'ISOLATED') return 'margin_mode_invalid';
    if (amount > 0n) {
      if (amount > this.orderAvailable(user)) return 'insufficient_balance';
    } else {
      const im = initialMargin(p.size * this.mark! * this.mult, p.leverage);
      const u = this.upnl(p);
      if (-amount > p.margin || p.margin + amount + (u < 0n ? u : 0n) < im) return 'insufficient_balance';
    }
    if (apply) p.margin += amount;
    return 'ok';
  }

  /** TP/SL check of perpSetTpSl for a position side. */
  tpslCode(side: PositionSide, tp: bigint | null, sl: bigint | null): string {
    const ref = this.mark;
    if (ref === null) return 'ok';
    const long = side === 'LONG';
    if (tp !== null && (long ? !(tp > ref) : !(tp < ref))) return 'take_profit_invalid';
    if (sl !== null && (long ? !(sl < ref) : !(sl > ref))) return 'stop_loss_invalid';
    return 'ok';
  }

  /** Samples of one mark tick, then the mark price (perpMarkPrice's docstring). */
  tick(index: bigint, ts: number): bigint {
    this.index = index;
    const bid = this.best('BUY');
    const ask = this.best('SELL');
    if (bid !== null && ask !== null) {
      // the book's mid rounded down to a price unit (as the engine does; the exact mid would be (bid + ask) / 2)
      this.basis.push((bid + ask) / 2n - index);
      if (this.basis.length > this.cfg.markBasisSamples) this.basis.shift();
    }
    // impact prices: the impact notional is below one lot's value, so the best level fills it
    const one = this.cfg.stepSize;
    this.premiums.push(
      premiumIndexE8(
        index,
        bid === null ? 0n : bid * one * this.mult,
        bid === null ? 0n : one,
        ask === null ? 0n : ask * one * this.mult,
        ask === null ? 0n : one,
        this.mult,
        {
          bid: bid !== null,
          ask: ask !== null,
        },
      ),
    );
    const next = fundingTimeAtOrBefore(ts, this.cfg.fundingIntervalMs) + this.cfg.fundingIntervalMs;
    let sum = 0n;
    for (const b of this.basis) sum += b;
    this.mark = markPriceOf(index, this.lastFundingRateE8, next - ts, this.cfg.fundingIntervalMs, sum, this.basis.length, this.last, this.cfg.tickSize);
    return this.mark;
  }

  /** The funding rate of the samples since the last funding (weights 1..n). */
  fundingRate(): number {
    let ws = 0n;
    let wt = 0n;
    this.premiums.forEach((p, i) => {
      ws += BigInt(i + 1) * p;
      wt += BigInt(i + 1);
    });
    return fundingRateE8(ws, wt, this.cfg.interestRateE8, this.cfg.fundingCapE8);
  }

  /**
   * Settles funding at the mark: the payers pay first (an isolated one from its margin first, as pay() takes it), then
   * the receivers receive (an isolated one into its margin); returns the amounts by user.
   */
  settleFunding(fundingTs: number): { rate: number; amounts: Map<string, bigint> } {
    const rate = this.fundingRate();
    const amounts = new Map<string, bigint>();
    const all = [...this.positions].filter(([u]) => u !== FUND).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [u, p] of all) {
      const a = fundingPayment(p.side, p.size, this.mark!, this.mult, rate);
      if (a !== 0n) amounts.set(u, a);
    }
    // payers pay what they can (never the fund); receivers get their share of what was collected
    let owed = 0n;
    let paid = 0n;
    for (const [u, p] of all) {
      const a = amounts.get(u) ?? 0n;
      if (a >= 0n) continue;
      const got = -a - this.pay(u, -a, 'funding', p.marginMode === 'ISOLATED' ? p : null, null, false);
      owed += -a;
      paid += got;
      p.funding -= got;
      amounts.set(u, -got);
    }
    for (const [u, p] of all) {
      const full = amounts.get(u) ?? 0n;
      if (full <= 0n) continue;
      const a = paid < owed ? (full * paid) / owed : full;
      if (a === 0n) amounts.delete(u);
      else amounts.set(u, a);
      if (a === 0n) continue;
      p.funding += a;
      this.addWallet(u, a);
      this.system.funding -= a;
      if (p.marginMode === 'ISOLATED') p.margin += a;
    }
    this.premiums = [];
    this.lastFundingRateE8 = rate;
    this.lastFundingTs = fundingTs;
    return { rate, amounts };
  }

  /** Positions whose take profit or stop loss the mark reached (the fund's excluded), in the positions' order. */
  triggered(): [string, 'TAKE_PROFIT' | 'STOP_LOSS', MPos][] {
    const out: [string, 'TAKE_PROFIT' | 'STOP_LOSS', MPos][] = [];
    const m = this.mark!;
    for (const [u, p] of this.positions) {
      if (u === FUND) continue;
      const long = p.side === 'LONG';
      if (p.takeProfit !== null && (long ? m >= p.takeProfit : m <= p.takeProfit)) out.push([u, 'TAKE_PROFIT', p]);
      else if (p.stopLoss !== null && (long ? m <= p.stopLoss : m >= p.stopLoss)) out.push([u, 'STOP_LOSS', p]);
    }
    return out;
  }

  /** True when the position's scope is at risk level >= 100% at the mark: maintenance margin >= margin balance. */
  isAtRisk(user: string, p: MPos): boolean {
    return this.mm(p) >= this.marginBalance(user, p);
  }

  /**
   * Scopes whose risk level is at or above 100% at the mark, in the positions' order (their order of arrival):
   * isolated: maintenance margin >= margin + uPnL; cross: maintenance margin >= cross wallet + cross uPnL.
   */
  atRiskPositions(): [string, MPos][] {
    const out: [string, MPos][] = [];
    for (const [u, p] of this.positions) if (u !== FUND && this.isAtRisk(u, p)) out.push([u, p]);
    return out;
  }

  /** The users of atRiskPositions(), sorted. */
  atRisk(): string[] {
    return this.atRiskPositions()
      .map(([u]) => u)
      .sort();
  }
}
