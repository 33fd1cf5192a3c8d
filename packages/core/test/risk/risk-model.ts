/**
 * An independent risk model of the USDT perpetuals, written from Binance's published USDⓈ-M futures rules (not from
 * perp-engine.ts or perp/math.ts: it shares no code with them, only the public types). It follows one market of one
 * settle asset. From the engine it takes only what other tests prove: the mark price of each tick (the "markPrice"
 * event; the mark's formula is tested in perp.property.test.ts), the fills of the book (perpTrade events of kind BOOK:
 * which orders met, at which price and quantity; matching is tested against the naive book), the funding rate of a
 * settlement, the book's depth before a MARKET order, and the order of the engine's liquidation steps. Everything else it
 * computes itself with its own integer formulas: each user's wallet, position (side, size, cost), margin, holds of open
 * orders (initial margin, fee and open loss, resized by leverage changes), fees, realized and unrealized PnL at the
 * mark, maintenance margin, max withdraw amount, max removable margin, which accounts are at risk, the takeover at the
 * bankruptcy price, the insurance fund's balance, whether each transfer, margin change, leverage change, margin mode
 * change and order must be accepted, and whether each fill is one its users can pay (a fill that is not must not be
 * executed: the taker stops, the maker expires; a fill that is must not be refused).
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

/**
 * Binance, "How to Calculate Cost Required to Open a Position in Perpetual Futures Contracts"
 * (https://www.binance.com/en/support/faq/87fa7ee33b574f7084d42bd2ce2e463b): open loss = quantity x |min(0, direction x
 * (mark price - order price))|, direction 1 for a long order, -1 for a short one. Here on notionals (quote units): a
 * buy loses what its price pays above the mark, a sell what it gets below the mark.
 */
function openLossOf(side: Side, atOrderPrice: bigint, atMark: bigint): bigint {
  return max(0n, side === 'BUY' ? atOrderPrice - atMark : atMark - atOrderPrice);
}

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
  /** margin + fee + open loss still held for the unfilled part, quote units */
  hold: bigint;
  reduceOnly: boolean;
  mode: MarginMode;
  /** the leverage its hold is for: the user's at acceptance, then the user's after every leverage change */
  leverage: number;
  /** the open loss its hold was sized for at acceptance, and the open loss its isolated fills took so far */
  lossHeld: bigint;
  lossTaken: bigint;
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
  /** what the rules decided while applying events (the adversary's statistics): e.g. fills expired as unpayable */
  readonly counts = new Map<string, number>();
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

  /** The margin balance in the scope of a user's orders: its position's, or without one 0 (isolated) or the cross wallet. */
  scopeBalance(id: string): bigint {
    const u = this.user(id);
    if (u.pos !== undefined) return this.marginBalance(id);
    return u.mode === 'ISOLATED' ? 0n : this.crossWallet(id);
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
   * ceil(cost / lev) - margin. Cross: the margin becomes ceil(cost / lev). The user's resting orders that open positions
   * (not reduce-only) take the new leverage too: the initial margin of what is left of each, ceil(remaining x price /
   * lev), is held again at it ("How to Calculate Cost Required to Open a Position": the order's cost is its initial
   * margin at the leverage), a release never more than the order still holds. The sum of those moves and the
   * position's, when positive, is held from the usable balance (max withdraw amount), else insufficient_balance and
   * nothing changes. Returns the code and what the change does when accepted: the position's new margin (null
   * without a position) and each resized order's new hold.
   */
  leverageCheck(id: string, leverage: number): { code: string; margin: bigint | null; holds: Map<string, bigint> } {
    const holds = new Map<string, bigint>();
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > this.cfg.brackets[0]!.maxLeverage) return { code: 'leverage_invalid', margin: null, holds };
    let total = 0n;
    for (const o of this.orders.values()) {
      if (o.user !== id || o.reduceOnly || o.price === null || o.leverage === leverage) continue;
      const n = this.notional(o.qty - o.filled, o.price);
      const d = max(-o.hold, ceilDiv(n, BigInt(leverage)) - ceilDiv(n, BigInt(o.leverage)));
      holds.set(o.id, o.hold + d);
      total += d;
    }
    const p = this.user(id).pos;
    let margin: bigint | null = null;
    let tooHigh = false;
    if (p !== undefined) {
      tooHigh = this.notional(p.size, this.mark ?? this.entryOf(p)) > this.maxNotional(leverage);
      const need = ceilDiv(p.cost, BigInt(leverage));
      if (need > p.margin || p.mode === 'CROSS') margin = need;
      else margin = p.margin - max(0n, min(p.margin - need, this.maxRemovable(p, leverage)));
      total += margin - p.margin;
    }
    const code = tooHigh ? 'leverage_too_high' : total > 0n && total > this.usable(id) ? 'insufficient_balance' : 'ok';
    return { code, margin, holds };
  }

  /**
   * Applies an accepted leverage change: the position's margin and the resized orders' holds (`holds` from
   * leverageCheck), checking that the engine reported each resized order (perpOrderUpdated with its new hold and
   * leverage) and no other.
   */
  applyLeverage(id: string, leverage: number, margin: bigint | null, holds: Map<string, bigint>, events: EngineEvent[]): void {
    const u = this.user(id);
    u.leverage = leverage;
    if (u.pos !== undefined) {
      u.pos.leverage = leverage;
      if (margin !== null) u.pos.margin = margin;
    }
    const reported = new Map<string, EngineEvent>();
    for (const ev of events) if (ev.type === 'perpOrderUpdated') reported.set(ev.order.orderId, ev);
    for (const [oid, hold] of holds) {
      const o = this.orders.get(oid)!;
      const ev = reported.get(oid);
      if (ev === undefined || ev.type !== 'perpOrderUpdated')
        this.violate('leverage-orders', `leverage ${leverage} of ${id}: order ${oid} resized (hold ${o.hold} -> ${hold}) without a perpOrderUpdated`);
      else if (ev.order.hold !== hold || ev.order.leverage !== leverage)
        this.violate(
          'leverage-orders',
          `leverage ${leverage} of ${id}: order ${oid} reported with hold ${ev.order.hold} at ${ev.order.leverage}x, model ${hold} at ${leverage}x`,
        );
      o.hold = hold;
      o.leverage = leverage;
    }
    for (const oid of reported.keys())
      if (!holds.has(oid)) this.violate('leverage-orders', `leverage ${leverage} of ${id}: perpOrderUpdated for order ${oid}, which the model does not resize`);
  }

  /** Binance: the margin type cannot change while the symbol has a position or open orders. */
  modeCode(id: string): string {
    if (this.user(id).pos !== undefined) return 'position_exists';
    for (const o of this.orders.values()) if (o.user === id) return 'position_exists';
    return 'ok';
  }

  /**
   * The reasons an order must be refused (empty: it must be accepted) and its hold. An order that is not reduce-only
   * holds its cost ("How to Calculate Cost Required to Open a Position in Perpetual Futures Contracts": initial margin +
   * open loss) plus the taker fee: initial margin ceil(notional / leverage) and the fee ceil(notional * taker) for its
   * whole quantity at its limit (a SELL crossing the bids: at the best bid; MARKET: at what the book fills), and the
   * open loss of its quantity at its own limit against the mark (MARKET: what the book fills against the mark of the
   * quantity it fills). The hold may use at most the usable balance (Binance: "Max withdraw amount" / available
   * balance with unrealized losses). The position after the order must fit the leverage's bracket; a reduce-only order
   * needs an opposite position. `book`: the engine's depth before the order (levels of the side it takes: whether
   * there is one, and its best price; a MARKET order's fill is walked over the model's own resting orders).
   */
  orderCheck(
    id: string,
    side: Side,
    price: bigint | null,
    qty: bigint,
    reduceOnly: boolean,
    book: { price: bigint; quantity: bigint }[],
  ): { reasons: string[]; hold: bigint; loss: bigint } {
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
    let loss = 0n;
    if (!reduceOnly) {
      const size = u.pos?.size ?? 0n;
      const after = !reduces ? size + qty : qty > size ? qty - size : size - qty;
      if (this.notional(after, price ?? mark) > this.maxNotional(u.leverage)) reasons.push('leverage_too_high');
      let notional: bigint;
      if (price === null) {
        const w = this.walk(side, qty);
        notional = w.quote;
        loss = openLossOf(side, notional, this.notional(w.qty, mark));
      } else {
        notional = side === 'SELL' && book.length > 0 && book[0]!.price > price ? this.notional(qty, book[0]!.price) : this.notional(qty, price);
        loss = openLossOf(side, this.notional(qty, price), this.notional(qty, mark));
      }
      hold = ceilDiv(notional, BigInt(u.leverage)) + ceilDiv(notional * BigInt(this.cfg.takerFeePpm), E6) + loss;
      if (hold > this.usable(id)) reasons.push('insufficient_balance');
    }
    return { reasons, hold, loss };
  }

  /**
   * What a MARKET order of `qty` on `side` fills now against the model's resting orders: best price first, then the
   * earliest; a reduce-only maker only up to what is left of its owner's position as the walk goes (Binance: a
   * reduce-only order only reduces). Returns the quantity and its notional.
   */
  private walk(side: Side, qty: bigint): { qty: bigint; quote: bigint } {
    const makers = [...this.orders.values()].filter((o) => o.side !== side && o.price !== null);
    // a stable sort keeps acceptance order within a price
    makers.sort((a, b) => (a.price! === b.price! ? 0 : (side === 'BUY' ? a.price! < b.price! : a.price! > b.price!) ? -1 : 1));
    const used = new Map<string, bigint>();
    let left = qty;
    let quote = 0n;
    for (const o of makers) {
      if (left === 0n) break;
      let q = min(left, o.qty - o.filled);
      if (o.reduceOnly) {
        const pos = this.user(o.user).pos;
        const room = pos === undefined || pos.side === (o.side === 'BUY' ? 'LONG' : 'SHORT') ? 0n : pos.size - (used.get(o.user) ?? 0n);
        q = min(q, max(0n, room));
        used.set(o.user, (used.get(o.user) ?? 0n) + q);
      }
      quote += this.notional(q, o.price!);
      left -= q;
    }
    return { qty: qty - left, quote };
  }

  // ---- applying engine results ---------------------------------------------------------------------------------

  /** Records a broken rule under its tag (RISK_SKIP in the test can name tags to pass over while hunting). */
  private violate(tag: string, what: string): void {
    if (!this.skip.has(tag)) this.violations.push(`[${tag}] ${what}`);
  }
  /**
   * what the fund paid for users outside liquidations under a rule the run passes over (see pay), excused from the
   * fund's and the groups' checks (the driver resets it before each command)
   */
  excused = 0n;
  /** tags of rules not to report (the test's RISK_SKIP) */
  skip = new Set<string>();
  /** the orders of the fill being applied that were judged payable only with their isolated position's margin counted */
  private readonly marginJudged = new Set<ROrder>();
  /** users a fill of their own left with a negative margin balance, until their position is gone */
  readonly bankruptByFill = new Set<string>();
  /** inside the liquidation of such a user: its deficit, auto-deleveraged onto others, is that finding's consequence */
  private deficitOfFill = false;

  /**
   * Takes `amount` from a user (what a user pays: a loss, a fee beyond the hold, a funding payment): an isolated
   * position's from its margin, then the available balance, then the paying order's hold `o` (a fill's,
   * `isoMarginLast`: the available balance, then `o`'s hold, then the margin of what stays open); a cross one
   * from the available balance, then `o`'s hold, then the cross positions' margins. The rest is paid by the fund
   * (`fundPays`) or returned unpaid (funding: the receivers get less). What the fund pays is a violation of "a user's
   * order never fills beyond what the user can pay": 'unpaid-beside-hold' when the user's other open orders still hold
   * enough to pay it, 'unpaid-beside-margin' when an isolated margin outside the paying scope could pay it,
   * 'fill-bankrupt' for a user a fill of its own left past bankruptcy (see applyEvents) and for the users
   * auto-deleveraged in that user's liquidation, else 'unpayable'.
   */
  private pay(id: string, amount: bigint, iso: RPos | null, what: string, o: ROrder | null = null, fundPays = true, isoMarginLast = false): bigint {
    if (amount <= 0n) return 0n;
    if (id === FUND) {
      this.fund -= amount;
      return 0n;
    }
    const u = this.user(id);
    let left = amount;
    const fromMargin = (): void => {
      if (iso === null) return;
      const m = min(left, iso.margin);
      iso.margin -= m;
      u.wallet -= m;
      left -= m;
    };
    // a fill's loss or fee: the free balance and the paying order's hold before the margin of what stays open (what the
    // fill guard counts as brought: the position left keeps its margin while the user can pay); funding: the margin first
    if (!isoMarginLast) fromMargin();
    const t = min(left, max(0n, this.available(id)));
    u.wallet -= t;
    left -= t;
    if (o !== null && left > 0n) {
      const h = min(left, o.hold);
      o.hold -= h;
      u.wallet -= h;
      left -= h;
    }
    if (isoMarginLast) fromMargin();
    if (left > 0n && iso === null && u.pos !== undefined && u.pos.mode === 'CROSS') {
      const c = min(left, u.pos.margin);
      u.pos.margin -= c;
      u.wallet -= c;
      left -= c;
    }
    if (left > 0n && fundPays) {
      this.fund -= left;
      const held = this.holds(id);
      const isoMargin = iso === null && u.pos !== undefined && u.pos.mode === 'ISOLATED' ? u.pos.margin : 0n;
      // (a user whose own fill left it past bankruptcy pays nothing more when ADL'd or closed later: counted there)
      let tag = 'unpayable';
      if (this.bankruptByFill.has(id) || this.deficitOfFill) tag = 'fill-bankrupt';
      else if (held >= left) tag = 'unpaid-beside-hold';
      else if (isoMargin >= left) tag = 'unpaid-beside-margin';
      // while the rule is skipped the model follows the engine: what the fund paid counts as allowed to the user
      if (this.skip.has(tag)) {
        this.excused += left;
        this.addAllowed(id, left);
      }
      const beside = held > 0n ? ` outside its orders' holds (${held})` : isoMargin > 0n ? ` outside its isolated margin (${isoMargin})` : '';
      this.violate(tag, `${what} of ${id} beyond what it can pay${beside}: ${left} paid by the insurance fund outside a liquidation`);
      return 0n;
    }
    return left;
  }

  /**
   * Closes cq of a position at a closing notional: realized PnL by cost share, margin share released; a loss beyond
   * it paid as `pay` takes it (`o`: the order whose fill closes). Returns the PnL.
   */
  private closePart(id: string, p: RPos, cq: bigint, closeNotional: bigint, o: ROrder | null = null): bigint {
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
      if (loss > 0n) this.pay(id, loss, p.mode === 'ISOLATED' ? p : null, 'realized loss', o, true, true);
    }
    if (p.size === 0n) {
      if (id === FUND) this.fundPos = undefined;
      else {
        this.user(id).pos = undefined;
        this.bankruptByFill.delete(id);
      }
    }
    return pnl;
  }

  /**
   * Whether the owner of order `o` can pay a fill of `q` at `p` (the rule "a user's order never fills beyond what the
   * user can pay": Binance's insurance fund covers only liquidations past bankruptcy, "Insurance Fund" / "Liquidation",
   * so a fill the user's own funds cannot cover is not executed, its opening part included: "How to Calculate Cost
   * Required to Open a Position", initial margin + open loss). Every fill of a user's order is judged; the fund's are
   * not. `cq`: the part that closes the position, realizing `pnlClose` at p (its cost share rounded down, all of it for
   * a whole close); `opens` the rest, priced against the mark (`open`, signed; its open loss OL = max(0, -open)) with
   * initial margin IM = ceil(notional / leverage) at the position's leverage (the user's for a new position); `rest`
   * the unrealized PnL at the mark of what stays of the position. With no unrealized profit counted:
   *  - isolated scope (the position's mode, or the user's for a new position): (closing: the position's margin) + max
   *    withdraw amount + the order's hold + pnlClose + min(0, rest) - fee - (opening: IM + OL) >= 0;
   *  - cross: cross wallet (the order's hold is in it) + pnlClose - fee + min(0, cross uPnL with this position's
   *    replaced by rest + open) >= 0.
   */
  payable(o: ROrder, p: bigint, q: bigint, feePpm: number): boolean {
    return this.payableSlack(o, p, q, feePpm).slack >= 0n;
  }

  /** What `payable` weighs: the equity left in scope (>= 0: payable) and its terms, for the messages. */
  payableSlack(o: ROrder, p: bigint, q: bigint, feePpm: number, withMargin = false): { slack: bigint; terms: string } {
    if (o.user === FUND) return { slack: 0n, terms: 'the fund' };
    const u = this.user(o.user);
    const pos = u.pos;
    const buys = o.side === 'BUY';
    const closing = pos !== undefined && pos.side !== (buys ? 'LONG' : 'SHORT');
    const cq = closing ? min(q, pos.size) : 0n;
    const opens = q - cq;
    let pnlClose = 0n;
    let rest = 0n;
    let own = 0n;
    if (pos !== undefined) {
      const share = cq === 0n ? 0n : cq === pos.size ? pos.cost : (pos.cost * cq) / pos.size;
      const closingNotional = this.notional(cq, p);
      pnlClose = pos.side === 'LONG' ? closingNotional - share : share - closingNotional;
      rest = pos.size === cq ? 0n : this.upnl({ ...pos, size: pos.size - cq, cost: pos.cost - share });
      own = this.upnl(pos);
    }
    const openAtPrice = this.notional(opens, p);
    const openAtMark = this.notional(opens, this.mark ?? p);
    const open = buys ? openAtMark - openAtPrice : openAtPrice - openAtMark;
    const fee = ceilDiv(this.notional(q, p) * BigInt(feePpm), E6);
    // a whole close that opens the other side leaves a new position: the user's settings
    const fresh = pos === undefined || (closing && cq === pos.size && opens > 0n);
    const mode = fresh ? u.mode : pos.mode;
    if (mode === 'ISOLATED') {
      const leverage = fresh ? u.leverage : pos.leverage;
      const openCost = opens > 0n ? ceilDiv(openAtPrice, BigInt(leverage)) + max(0n, -open) : 0n;
      // what the position keeps (its margin after the closed part's PnL and the rest's loss) and what the fill brings
      // (free money and the order's hold, less the fee and the opened part's initial margin and open loss): a fill
      // that closes nothing brings its own cost, the margin already there is not released for it
      void withMargin;
      const margin = pos?.margin ?? 0n;
      const kept = margin + pnlClose + min(0n, rest);
      const brought = this.maxWithdraw(o.user) + o.hold - fee - openCost;
      const slack = cq === 0n ? min(brought, kept + brought) : kept + brought;
      return {
        slack,
        terms: `isolated: kept (margin ${margin} + pnl ${pnlClose} + min(0, rest ${rest})) ${kept} + brought (max withdraw ${this.maxWithdraw(o.user)} + hold ${o.hold} - fee ${fee} - (IM + OL) ${openCost}) ${brought}${cq === 0n ? ', brought >= 0 for a fill that closes nothing' : ''} = ${slack}`,
      };
    }
    const cross = pos !== undefined && pos.mode === 'CROSS';
    const after = this.crossUpnl(o.user) - (cross ? own : 0n) + (cross ? rest : 0n) + open;
    // only the paying order's hold can pay the fill: the user's other cross orders' holds do not count
    const others = this.holds(o.user) - o.hold;
    const slack = this.crossWallet(o.user) - others + pnlClose - fee + min(0n, after);
    return {
      slack,
      terms: `cross: wallet ${this.crossWallet(o.user)} - other orders' holds ${others} + pnl ${pnlClose} - fee ${fee} + min(0, uPnL after ${after}) = ${slack}`,
    };
  }

  /** The quantity a taker `t` would fill next against maker `mk` (their remainders, a reduce-only taker's room). */
  private nextQty(t: ROrder, mk: ROrder): bigint {
    let q = min(t.qty - t.filled, mk.qty - mk.filled);
    if (t.reduceOnly && t.user !== FUND) {
      const pos = this.user(t.user).pos;
      q = pos === undefined || pos.side === (t.side === 'BUY' ? 'LONG' : 'SHORT') ? 0n : min(q, pos.size);
    }
    return q;
  }

  /** The resting order a taker meets next (best price, then the earliest), if its limit reaches it. */
  private nextMaker(t: ROrder): ROrder | null {
    let best: ROrder | null = null;
    for (const o of this.orders.values()) {
      if (o === t || o.side === t.side || o.price === null) continue;
      if (best === null || (t.side === 'BUY' ? o.price < best.price! : o.price > best.price!)) best = o;
    }
    if (best === null || (t.price !== null && (t.side === 'BUY' ? best.price! > t.price : best.price! < t.price))) return null;
    return best;
  }

  /**
   * An order expired while `taker` was matching: a taker stops only where its own next fill is not payable (or where
   * the book ends, its limit is reached or its own order is next); a resting maker is expired only when the taker could
   * pay the fill and the maker could not (the taker is judged first).
   */
  private checkExpiry(o: ROrder, taker: ROrder | null): void {
    if (o === taker) {
      const mk = this.nextMaker(o);
      if (mk === null || mk.user === o.user || mk.reduceOnly) return;
      const q = this.nextQty(o, mk);
      if (q > 0n && this.payable(o, mk.price!, q, this.cfg.takerFeePpm)) {
        this.violate(
          'fill-payable',
          `${o.user}'s order ${o.id} expired with ${o.qty - o.filled} left, though it could pay ${q} at ${mk.price} against ${mk.user}'s order ${mk.id}`,
        );
      } else if (q > 0n) this.note('taker stopped: fill not payable');
      return;
    }
    if (o.reduceOnly || o.user === FUND) return;
    if (taker === null) {
      this.violate('fill-payable', `${o.user}'s resting order ${o.id} expired outside any matching`);
      return;
    }
    const q = this.nextQty(taker, o);
    if (!this.payable(taker, o.price!, q, this.cfg.takerFeePpm))
      this.violate(
        'fill-payable',
        `${o.user}'s resting order ${o.id} expired, but the taker ${taker.user} could not pay ${q} at ${o.price} (the taker stops first)`,
      );
    else if (this.payable(o, o.price!, q, this.cfg.makerFeePpm))
      this.violate('fill-payable', `${o.user}'s resting order ${o.id} expired, though it could pay ${q} at ${o.price} to ${taker.user}`);
    else this.note(`maker expired: fill not payable${taker.user === FUND ? ' (the fund taking)' : ''}`);
  }

  private note(what: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
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
      pnl = this.closePart(id, pos, cq, this.notional(cq, p), o);
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
      // initial margin; an isolated position also keeps the fill's open loss against the mark ("How to Calculate Cost
      // Required to Open a Position": cost = initial margin + open loss), a cross one leaves it to the cross wallet
      const im = ceilDiv(openNotional, BigInt(pos.leverage));
      const loss = pos.mode === 'ISOLATED' ? openLossOf(o.side, openNotional, this.notional(openQty, this.mark!)) : 0n;
      o.lossTaken += loss;
      let need = im + loss;
      const fromHold = min(need, o.hold);
      o.hold -= fromHold;
      pos.margin += fromHold;
      need -= fromHold;
      if (need > 0n) {
        const t = min(need, max(0n, this.available(id)));
        pos.margin += t;
        // short of the open loss its hold was not sized for (the mark moved since the order was accepted: this fill's
        // or an earlier fill's open loss took hold meant for initial margin), or of initial margin its hold had
        const short = need - t;
        if (short > 0n && this.marginJudged.has(o))
          this.violate(
            'fill-payable-margin',
            `${id}'s order ${o.id} opened ${openQty} at ${p} (mark ${this.mark}) ${short} short of its initial margin ${im} + open loss ${loss}, the position's margin already there counted for it`,
          );
        else if (short > 0n && o.lossTaken > o.lossHeld)
          this.violate(
            'open-loss',
            `${id}'s order ${o.id} opened ${openQty} at ${p} (mark ${this.mark}) ${short} short of its initial margin ${im} + open loss ${loss}: its fills' open loss ${o.lossTaken} beyond the ${o.lossHeld} its hold was sized for, with nothing more available`,
          );
        else if (short > 0n)
          this.violate('no-margin', `${id} opened ${openQty} at ${p} without its initial margin (${short} short of ${im} + open loss ${loss})`);
      }
    }
    // a fee beyond the hold: as a loss of the position the fill leaves (an isolated one's margin first)
    if (feeLeft > 0n) this.pay(id, feeLeft, pos !== undefined && pos.mode === 'ISOLATED' ? pos : null, 'fee', o, true, true);
    if (!isFund) this.feesPaid.set(id, (this.feesPaid.get(id) ?? 0n) + fee);
    return pnl;
  }

  /** A new order of a user accepted by the engine (its model hold), before its fills. */
  addOrder(id: string, user: string, side: Side, price: bigint | null, qty: bigint, reduceOnly: boolean, hold: bigint): ROrder {
    const o: ROrder = {
      id,
      user,
      side,
      price,
      qty,
      filled: 0n,
      hold,
      reduceOnly,
      mode: user === FUND ? 'CROSS' : this.user(user).mode,
      leverage: user === FUND ? 1 : this.user(user).leverage,
      lossHeld: 0n,
      lossTaken: 0n,
    };
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
  applyEvents(events: EngineEvent[], userHold: bigint | null, userLoss = 0n): void {
    const taker = new Map<string, ROrder>();
    /** the order matching now (a user's new order, or the fund's IOC in a liquidation) */
    let current: ROrder | null = null;
    let liq: { user: string; mode: MarginMode; equity: bigint; fundBefore: bigint; excusedBefore: bigint } | null = null;
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
          if (v.trigger === null && v.userId !== FUND) o.lossHeld = userLoss;
          if (v.leverage !== o.leverage && v.userId !== FUND) this.violate('hold', `order ${v.orderId} of ${v.userId} at ${v.leverage}x, model ${o.leverage}x`);
          taker.set(v.orderId, o);
          current = o;
          if (v.userId === FUND) {
            // "Insurance fund" / "Liquidation": the fund's close is limited at the bankruptcy price
            const fp = this.fundPos;
            if (fp === undefined || v.price === null) this.violate('fund-limit', 'the fund placed an order without a position or without a limit');
            else {
              const worse = fp.side === 'LONG' ? this.notional(fp.size, v.price) < fp.cost : this.notional(fp.size, v.price) > fp.cost;
              if (worse)
                this.violate(
                  'fund-limit',
                  `the fund's close is limited at ${v.price}, beyond its bankruptcy price ${fp.cost}/${fp.size * this.mult} (it could sell below / buy above bankruptcy)`,
                );
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
            if (ev.takerFee !== tFee || ev.makerFee !== mFee)
              this.violate('fees', `fees of fill ${ev.tradeId}: ${ev.takerFee}/${ev.makerFee}, model ${tFee}/${mFee}`);
            if (mk.reduceOnly || tk.reduceOnly) {
              for (const o of [mk, tk]) {
                if (!o.reduceOnly || o.user === FUND) continue;
                const p = this.user(o.user).pos;
                if (p === undefined || p.side === (o.side === 'BUY' ? 'LONG' : 'SHORT') || p.size < ev.quantity)
                  this.violate('reduce-only', `reduce-only order ${o.id} of ${o.user} increased or flipped its position`);
              }
            }
            // the fund's fills: no worse than its bankruptcy price (its cost share)
            let fundShare: bigint | null = null;
            if (tk.user === FUND && this.fundPos !== undefined) {
              const fp = this.fundPos;
              fundShare = ev.quantity === fp.size ? fp.cost : (fp.cost * ev.quantity) / fp.size;
              const worse = fp.side === 'LONG' ? notional < fundShare : notional > fundShare;
              if (worse)
                this.violate(
                  'fund-fill',
                  `the fund ${fp.side === 'LONG' ? 'sold' : 'bought'} ${ev.quantity} at ${ev.price} to ${mk.user}, beyond its bankruptcy price (loss ${fp.side === 'LONG' ? fundShare - notional : notional - fundShare})`,
                );
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
            // "a user's order never fills beyond what the user can pay": both sides judged before the fill
            for (const [o, ppm] of [
              [tk, this.cfg.takerFeePpm],
              [mk, this.cfg.makerFeePpm],
            ] as const) {
              if (this.payable(o, ev.price, ev.quantity, ppm)) continue;
              // payable only with the isolated position's margin counted for a fill that only adds to it: the new part
              // is not brought its initial margin and open loss (they come out of the margin already there)
              if (this.payableSlack(o, ev.price, ev.quantity, ppm, true).slack >= 0n) {
                this.marginJudged.add(o);
                this.violate(
                  'fill-payable-margin',
                  `fill ${ev.tradeId}: ${o.user}'s order ${o.id} filled ${ev.quantity} at ${ev.price} (mark ${this.mark}), adding to its isolated position without its initial margin and open loss (${this.payableSlack(o, ev.price, ev.quantity, ppm).terms})`,
                );
              } else
                this.violate(
                  'fill-payable',
                  `fill ${ev.tradeId}: ${o.user}'s order ${o.id} filled ${ev.quantity} at ${ev.price} (mark ${this.mark}), beyond what ${o.user} can pay (${this.payableSlack(o, ev.price, ev.quantity, ppm).terms})`,
                );
            }
            const before = [this.scopeBalance(tk.user), this.scopeBalance(mk.user)];
            const tPnl = this.settle(tk, ev.price, ev.quantity, tFee);
            const mPnl = this.settle(mk, ev.price, ev.quantity, mFee);
            this.marginJudged.clear();
            // what "payable" protects: no user's own fill takes its margin balance in scope below zero, or lower when
            // it is there already (past the bankruptcy price: a deficit the fund or auto-deleveraged traders carry)
            [tk, mk].forEach((o, k) => {
              if (o.user === FUND) return;
              const bal = this.scopeBalance(o.user);
              if (bal < 0n && bal < before[k]!) this.bankruptByFill.add(o.user);
              if (bal < 0n && bal < before[k]!)
                this.violate(
                  'fill-bankrupt',
                  `fill ${ev.tradeId} of ${ev.quantity} at ${ev.price} (mark ${this.mark}) took ${o.user}'s margin balance (order ${o.id}) from ${before[k]} to ${bal}`,
                );
            });
            if (ev.takerRealizedPnl !== tPnl || ev.makerRealizedPnl !== mPnl)
              this.violate('pnl', `realized PnL of fill ${ev.tradeId}: ${ev.takerRealizedPnl}/${ev.makerRealizedPnl}, model ${tPnl}/${mPnl}`);
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
            if (!this.atRisk(id))
              this.violate('takeover', `${id} taken over but not at risk (margin balance ${this.marginBalance(id)}, maintenance ${this.maintOf(id)})`);
            for (const o of this.orders.values())
              if (o.user === id && (p.mode === 'CROSS' ? o.mode === 'CROSS' : true))
                this.violate('takeover', `${id} taken over with order ${o.id} in scope still open`);
            // "Liquidation" / "Insurance fund": the fund takes the position at the bankruptcy price, the user's
            // equity in scope goes to exactly 0: it loses its isolated margin, or its whole cross wallet
            const equity = this.marginBalance(id);
            const lost = p.mode === 'ISOLATED' ? p.margin : this.crossWallet(id);
            const fundCost = p.side === 'LONG' ? p.cost - lost : p.cost + lost;
            if (ev.takerRealizedPnl !== -lost) this.violate('takeover', `takeover of ${id} realizes ${ev.takerRealizedPnl}, model -${lost}`);
            if (ev.quantity !== p.size) this.violate('takeover', `takeover of ${id}: ${ev.quantity} of ${p.size}`);
            liq = { user: id, mode: p.mode, equity, fundBefore: this.fund, excusedBefore: this.excused };
            this.addAllowed(id, -equity);
            u.wallet -= lost;
            u.pos = undefined;
            if (this.bankruptByFill.delete(id)) this.deficitOfFill = true;
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
            // BitMEX and Delta Exchange: a deleveraged trader's open orders in the contract are cancelled (their
            // holds are free again before the close's loss is paid; the model has one contract)
            for (const o of this.orders.values()) if (o.user === id) this.violate('adl', `ADL of ${id} with its order ${o.id} still open`);
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
            const o = this.orders.get(v.orderId);
            if (o !== undefined && v.status === 'EXPIRED') this.checkExpiry(o, current);
            this.endOrder(v.orderId);
            taker.delete(v.orderId);
            if (o !== undefined && o === current) current = null;
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
          const excused = this.excused - liq.excusedBefore;
          if (delta + excused < 0n) this.violate('fund-paid', `the insurance fund paid ${-delta} in the liquidation of ${ev.userId} (equity ${liq.equity})`);
          this.liquidations.push({ user: liq.user, mode: liq.mode, equity: liq.equity, fundDelta: delta });
          liq = null;
          this.deficitOfFill = false;
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
   * payers rounded up, receivers down; an isolated position's funding goes to or from its margin. Funding passes from
   * payers to receivers and never draws on the insurance fund: a payer pays as any payment is taken (see pay) but
   * without the fund, and when the payers could not pay all they owed, every receiver gets floor(amount x collected /
   * owed) instead of its amount (the dust stays in the funding pool). Returns what each user actually paid (negative)
   * or received (a receiver getting 0 is left out), the total owed and the totals paid and received.
   */
  funding(rateE8: bigint, mark: bigint): { payments: Map<string, bigint>; owed: bigint; paid: bigint; received: bigint } {
    const payments = new Map<string, bigint>();
    const pays: [string, bigint][] = [];
    const gets: [string, bigint][] = [];
    for (const [id, u] of this.users) {
      const p = u.pos;
      if (p === undefined) continue;
      const raw = this.notional(p.size, mark) * rateE8;
      const longPays = raw > 0n;
      const abs = raw < 0n ? -raw : raw;
      const pays1 = (p.side === 'LONG') === longPays;
      const amt = pays1 ? ceilDiv(abs, E8) : abs / E8;
      if (amt > 0n) (pays1 ? pays : gets).push([id, amt]);
    }
    let owed = 0n;
    let paid = 0n;
    for (const [id, amt] of pays) {
      const p = this.user(id).pos!;
      const got = amt - this.pay(id, amt, p.mode === 'ISOLATED' ? p : null, 'funding', null, false);
      owed += amt;
      paid += got;
      payments.set(id, -got);
      this.addAllowed(id, -got);
    }
    let received = 0n;
    for (const [id, full] of gets) {
      const amt = paid < owed ? (full * paid) / owed : full;
      if (amt === 0n) continue;
      const u = this.user(id);
      u.wallet += amt;
      if (u.pos!.mode === 'ISOLATED') u.pos!.margin += amt;
      received += amt;
      payments.set(id, amt);
      this.addAllowed(id, amt);
    }
    return { payments, owed, paid, received };
  }
}
