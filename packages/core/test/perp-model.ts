/**
 * An independent, deliberately simple model of the perpetual contracts (issue 12), written from the docstrings of
 * perp/types.ts (the spec) without the engine's code; the formulas come from perp/math.ts (tested on their own in
 * math.test.ts). Plain arrays and maps: one market, a price-time book of arrays, positions by cost, wallets in quote
 * units.
 *
 * What the model decides itself: result codes of the user commands (in REJECT_CODES precedence), the fills of every
 * order it matches (user orders, take profit / stop loss closes, the insurance fund's close): maker order, price and
 * quantity, the positions (side, size, cost, realized PnL, fees, funding, TP/SL), the wallets (deposits - fees +
 * realized PnL + funding), '@fee', '@funding', '@clearing', the mark price, the premium samples, the funding rate and
 * payments, which positions take profit or stop loss, and which scopes must be liquidated at a mark.
 *
 * What it takes from the engine (declared, checked elsewhere): order ids (one sequence shared with spot), how the
 * frozen part of a wallet is split between order holds and position margins (checked: frozen = holds + margins), the
 * isolated margin of a position (it decides the isolated risk), the bankruptcy price and the auto-deleveraging
 * counterparties chosen (the model checks their side, quantity and the PnL they realize).
 */
import {
  bracketTiers,
  fundingPayment,
  fundingRateE8,
  fundingTimeAtOrBefore,
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

/** A position in the model. */
export interface MPos {
  side: PositionSide;
  size: bigint;
  cost: bigint;
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
  tradeType: PerpTradeType;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
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
const opp = (s: Side): Side => (s === 'BUY' ? 'SELL' : 'BUY');
const sideOf = (s: Side): PositionSide => (s === 'BUY' ? 'LONG' : 'SHORT');

/** The model of one perpetual market and its users' contract accounts. */
export class PerpModel {
  readonly tiers: BracketTier[];
  readonly mult: bigint;
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

  constructor(
    readonly cfg: PerpMarketConfig,
    settleScale: number,
  ) {
    this.tiers = bracketTiers(cfg.brackets);
    this.mult = 10n ** BigInt(settleScale - cfg.priceDecimals - cfg.qtyDecimals);
  }

  settingsOf(user: string): { leverage: number; marginMode: MarginMode } {
    return this.settings.get(user) ?? { leverage: 20, marginMode: 'CROSS' };
  }
  walletOf(user: string): bigint {
    return this.wallet.get(user) ?? 0n;
  }
  addWallet(user: string, d: bigint): void {
    if (user === '@insurance') this.system.insurance += d;
    else this.wallet.set(user, this.walletOf(user) + d);
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

  /** Applies one side of a fill to its owner's position and wallet; returns the realized PnL. */
  applyFill(user: string, side: Side, qty: bigint, price: bigint, feePpm: number, _leverage: number, fees: boolean): { pnl: bigint; fee: bigint } {
    const notional = price * qty * this.mult;
    const fee = fees ? perpFee(notional, feePpm) : 0n;
    const ps = sideOf(side);
    let p = this.positions.get(user);
    let pnl = 0n;
    let rest = qty;
    if (p !== undefined && p.side !== ps) {
      const close = rest < p.size ? rest : p.size;
      const released = close === p.size ? p.cost : (p.cost * close) / p.size;
      const value = price * close * this.mult;
      pnl = p.side === 'LONG' ? value - released : released - value;
      p.size -= close;
      p.cost -= released;
      p.realizedPnl += pnl;
      rest -= close;
      if (p.size === 0n) this.positions.delete(user);
    }
    if (rest > 0n) {
      const s = this.settingsOf(user);
      if (p === undefined || p.size === 0n) {
        // the position takes the user's leverage setting (the order's leverage is its own, fixed at acceptance)
        p = { side: ps, size: 0n, cost: 0n, realizedPnl: 0n, funding: 0n, fees: 0n, takeProfit: null, stopLoss: null, marginMode: s.marginMode, leverage: s.leverage };
        this.positions.set(user, p);
      }
      p.size += rest;
      p.cost += price * rest * this.mult;
    }
    // the fill's whole fee goes to the position left after it (none when the fill closed it)
    const after = this.positions.get(user);
    if (after !== undefined) after.fees += fee;
    this.addWallet(user, pnl - fee);
    this.system.clearing -= pnl;
    this.system.fee += fee;
    return { pnl, fee };
  }

  /** Executes fills of a taker (owner `user`, fees unless the fund's close is fee-free) and updates the book. */
  execute(taker: { user: string; side: Side; price: bigint | null; qty: bigint; reduceOnly: boolean; leverage: number }, fees = true): MFill[] {
    const fills: MFill[] = [];
    for (const { maker, qty } of this.previewFills(taker)) {
      const mk = this.applyFill(maker.user, maker.side, qty, maker.price!, this.cfg.makerFeePpm, maker.leverage, fees);
      // the insurance fund's closing orders pay no taker fee (their makers pay theirs)
      const tk = this.applyFill(taker.user, taker.side, qty, maker.price!, this.cfg.takerFeePpm, taker.leverage, fees && taker.user !== '@insurance');
      maker.filled += qty;
      this.filledSides.set(maker.id, maker.side);
      maker.status = maker.filled === maker.qty ? 'FILLED' : 'PARTIALLY_FILLED';
      this.last = maker.price;
      fills.push({ makerOrderId: maker.id, makerUser: maker.user, takerUser: taker.user, price: maker.price!, qty, makerPnl: mk.pnl, takerPnl: tk.pnl, makerFee: mk.fee, takerFee: tk.fee });
    }
    this.orders = this.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
    this.expireReduceOnly();
    return fills;
  }

  /** Reduce-only orders whose position is gone or on their own side expire (returns their ids). */
  expireReduceOnly(): string[] {
    const gone: string[] = [];
    for (const o of this.orders) {
      if (!o.reduceOnly) continue;
      const p = this.positions.get(o.user);
      if (p === undefined || p.side === sideOf(o.side)) {
        o.status = 'EXPIRED';
        gone.push(o.id);
      }
    }
    if (gone.length > 0) this.orders = this.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
    return gone;
  }

  /**
   * Takeover of a whole position by the insurance fund at the bankruptcy price: the user realizes exactly -lost (its
   * margin in scope: an isolated position's margin, or the whole cross wallet), the fund opens the same position at the
   * cost that keeps '@clearing' balanced (the exact bankruptcy value: cost - lost for a long, cost + lost for a short).
   * Returns the user's PnL and the fund's cost.
   */
  takeover(user: string, lost: bigint): { pnl: bigint; fundCost: bigint } {
    const p = this.positions.get(user)!;
    const pnl = -lost;
    const fundCost = p.side === 'LONG' ? p.cost - lost : p.cost + lost;
    this.positions.delete(user);
    p.realizedPnl += pnl;
    this.addWallet(user, pnl);
    this.system.clearing -= pnl;
    const f = this.positions.get('@insurance');
    if (f === undefined) {
      this.positions.set('@insurance', { ...p, size: p.size, cost: fundCost, realizedPnl: 0n, funding: 0n, fees: 0n, takeProfit: null, stopLoss: null, marginMode: 'CROSS', leverage: 1 });
    } else if (f.side === p.side) {
      f.size += p.size;
      f.cost += fundCost;
    } else throw new Error('the fund holds both sides');
    return { pnl, fundCost };
  }

  /**
   * Auto-deleveraging of q of a user's position against the fund's opposite one, at the fund's entry (its exact cost,
   * the bankruptcy value): both close q at the closing value the fund releases, so the fund realizes 0 and the user
   * the difference to its own cost. Returns [user PnL, fund PnL].
   */
  adl(user: string, q: bigint): [bigint, bigint] {
    const f = this.positions.get('@insurance')!;
    const value = q === f.size ? f.cost : (f.cost * q) / f.size;
    const close = (who: string): bigint => {
      const p = this.positions.get(who)!;
      const released = q === p.size ? p.cost : (p.cost * q) / p.size;
      const pnl = p.side === 'LONG' ? value - released : released - value;
      p.size -= q;
      p.cost -= released;
      p.realizedPnl += pnl;
      if (p.size === 0n) this.positions.delete(who);
      this.addWallet(who, pnl);
      this.system.clearing -= pnl;
      return pnl;
    };
    const fp = close('@insurance');
    return [close(user), fp];
  }

  /** Cross unrealized PnL of a user (one market: its position if cross). */
  crossUpnl(user: string): bigint {
    const p = this.positions.get(user);
    return p !== undefined && p.marginMode === 'CROSS' ? this.upnl(p) : 0n;
  }

  /**
   * The result code of a perpPlaceOrder, checks in the order docs/perpetuals.md gives ("Orders and margin": tick and
   * step, mark, band, TP/SL, reduce-only, bracket, balance), given the user's available balance as the engine's view
   * computes it (available + min(0, cross uPnL), never below 0: checked separately). The hold's notional: a BUY at its
   * limit, a SELL at the higher of its limit and the best bid, a MARKET order at what the book fills now.
   */
  placeCode(o: { user: string; side: Side; type: 'LIMIT' | 'MARKET'; price: bigint | null; qty: bigint; reduceOnly: boolean; takeProfit: bigint | null; stopLoss: bigint | null }, available: bigint): string {
    const c = this.cfg;
    if (o.type === 'LIMIT' && o.price !== null && o.price % c.tickSize !== 0n) return 'price_not_on_tick';
    if (o.qty % c.stepSize !== 0n) return 'quantity_not_on_step';
    if (o.qty < c.minQty) return 'quantity_below_minimum';
    if (this.mark === null) return 'mark_price_unavailable';
    const mark = this.mark;
    if (o.type === 'LIMIT') {
      const d = o.price! > mark ? o.price! - mark : mark - o.price!;
      if (d * E6 > mark * BigInt(c.priceBandPpm)) return 'price_out_of_band';
    }
    if (o.takeProfit !== null || o.stopLoss !== null) {
      const long = o.side === 'BUY';
      if (o.takeProfit !== null && (long ? !(o.takeProfit > mark) : !(o.takeProfit < mark))) return 'take_profit_invalid';
      if (o.stopLoss !== null && (long ? !(o.stopLoss < mark) : !(o.stopLoss > mark))) return 'stop_loss_invalid';
    }
    const s = this.settingsOf(o.user);
    const pos = this.positions.get(o.user);
    if (o.reduceOnly && (pos === undefined || pos.side === sideOf(o.side))) return 'reduce_only_rejected';
    if (o.type === 'MARKET' && this.best(opp(o.side)) === null) return 'no_liquidity';
    let notional: bigint;
    let fillable = o.qty;
    if (o.type === 'LIMIT') {
      const bid = this.best('BUY');
      const p = o.side === 'SELL' && bid !== null && bid > o.price! ? bid : o.price!;
      notional = p * o.qty * this.mult;
    } else {
      notional = 0n;
      fillable = 0n;
      for (const f of this.previewFills({ ...o, price: null, reduceOnly: false })) {
        notional += f.maker.price! * f.qty * this.mult;
        fillable += f.qty;
      }
    }
    if (!o.reduceOnly) {
      // the position after the order (its size if all of it filled) valued at the order's price, a MARKET's at the mark
      const size = pos === undefined ? 0n : pos.size;
      const after = pos === undefined || pos.side === sideOf(o.side) ? size + o.qty : o.qty > size ? o.qty - size : size - o.qty;
      if (after * (o.type === 'MARKET' ? mark : o.price!) * this.mult > maxNotionalFor(this.tiers, s.leverage)) return 'leverage_too_high';
      if (orderCost(notional, s.leverage, c.takerFeePpm) > available) return 'insufficient_balance';
    }
    if (o.type === 'MARKET' && fillable === 0n) return 'no_liquidity';
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
      premiumIndexE8(index, bid === null ? 0n : bid * one * this.mult, bid === null ? 0n : one, ask === null ? 0n : ask * one * this.mult, ask === null ? 0n : one, this.mult, {
        bid: bid !== null,
        ask: ask !== null,
      }),
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

  /** Settles funding at the mark: each position pays or receives; returns the amounts by user. */
  settleFunding(fundingTs: number): { rate: number; amounts: Map<string, bigint> } {
    const rate = this.fundingRate();
    const amounts = new Map<string, bigint>();
    for (const [u, p] of [...this.positions].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const a = fundingPayment(p.side, p.size, this.mark!, this.mult, rate);
      if (a === 0n) continue;
      amounts.set(u, a);
      p.funding += a;
      this.addWallet(u, a);
      this.system.funding -= a;
    }
    this.premiums = [];
    this.lastFundingRateE8 = rate;
    this.lastFundingTs = fundingTs;
    return { rate, amounts };
  }

  /** Positions whose take profit or stop loss the mark reached: [user, trigger]. */
  triggered(): [string, 'TAKE_PROFIT' | 'STOP_LOSS'][] {
    const out: [string, 'TAKE_PROFIT' | 'STOP_LOSS'][] = [];
    const m = this.mark!;
    for (const [u, p] of this.positions) {
      if (u === '@insurance') continue;
      const long = p.side === 'LONG';
      if (p.takeProfit !== null && (long ? m >= p.takeProfit : m <= p.takeProfit)) out.push([u, 'TAKE_PROFIT']);
      else if (p.stopLoss !== null && (long ? m <= p.stopLoss : m >= p.stopLoss)) out.push([u, 'STOP_LOSS']);
    }
    return out;
  }

  /**
   * Scopes whose risk level is at or above 100% at the mark: isolated: maintenance margin >= margin (the engine's) +
   * uPnL; cross: maintenance margin >= cross wallet (wallet - isolated margins) + cross uPnL.
   */
  atRisk(isolatedMargin: (user: string) => bigint): string[] {
    const out: string[] = [];
    for (const [u, p] of this.positions) {
      if (u === '@insurance') continue;
      const mb = p.marginMode === 'ISOLATED' ? isolatedMargin(u) + this.upnl(p) : this.walletOf(u) + this.upnl(p);
      if (this.mm(p) >= mb) out.push(u);
    }
    return out.sort();
  }
}
