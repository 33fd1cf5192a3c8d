/**
 * An independent reference model of the spot engine: the oracle of test/oracle.property.test.ts.
 *
 * It is written from the rules, not from the engine, and shares no code with src/spot or
 * src/ledger (it imports only types and `pow10`): every accepted order sits in one plain array,
 * the book is "the open orders of that array", found by a loop and sorted on every use, and the
 * balances are one plain Map. It answers, for every command, what the engine must answer: the
 * result code, the order's view, the trades, and afterwards every balance, open order and book level.
 *
 * The rules (Binance spot, as documented in src/spot/spot-market.ts and src/types.ts):
 * - Validation in the precedence order of REJECT_CODES; a rejected command changes nothing.
 *   A user with MAX_OPEN_ORDERS (200) open orders in a market may place nothing there.
 * - Price-time priority: better price first, then earlier order; every fill at the maker's price.
 * - LIMIT GTC rests what it does not fill; IOC expires the rest; FOK fills completely or expires
 *   with no fill at all; POST_ONLY is rejected if the best opposite price would cross, else rests.
 * - MARKET by quantity fills what the book offers and expires the rest (FOK: all or nothing); a
 *   MARKET BUY by quoteAmount buys, at each maker, floor(amount left / (price * notionalMult))
 *   rounded down to the step, and is FILLED when the amount left cannot buy one more step at the
 *   next maker's price, EXPIRED when the book (or self-trade prevention) stopped it first.
 * - Self-trade prevention, decided by the taker's mode when it reaches its own resting order that
 *   it would otherwise trade with: EXPIRE_TAKER ends the taker, EXPIRE_MAKER expires that maker
 *   and goes on, EXPIRE_BOTH does both, NONE trades. A taker stopped by STP never rests.
 * - Holds: a BUY LIMIT freezes price * qty (quote units) and gets back (limit - fill price) * qty
 *   on every fill below its limit; a MARKET BUY by quantity freezes exactly the cost of what it
 *   will fill; by quoteAmount it freezes the amount; a SELL freezes its quantity (base units).
 *   What a finished order did not use is released.
 * - Fees in the asset received, ceil(amount * ppm / 1e6), the maker's rate for the resting order
 *   and the taker's for the incoming one, paid to the @fee system account.
 * - A repeated (user, clientOrderId) of an accepted order returns 'ok', no trades, the order's
 *   current view and its id; deposits (user, ref) and transfers (user, clientId) likewise.
 */
import { pow10 } from '@exchange/money';
import type { AccountKind, Command, MarketConfig, OrderStatus, OrderView, ResultCode, Side, StpMode, TimeInForce } from '../../src/types';

/** Binance's MAX_NUM_ORDERS filter: open orders per user per market. */
export const MAX_OPEN_ORDERS = 200;
const MAX_CLIENT_ID = 36;
const MAX_KEY = 128;
const KINDS: readonly string[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];
const SYSTEM: readonly string[] = ['@faucet', '@chain', '@fee', '@insurance'];
const TIFS: readonly string[] = ['GTC', 'IOC', 'FOK', 'POST_ONLY'];
const STPS: readonly string[] = ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE'];

/** The fields of a trade event the oracle predicts (all of them but ts and symbol). */
export interface OracleTrade {
  tradeId: string;
  price: bigint;
  quantity: bigint;
  quoteAmount: bigint;
  takerSide: Side;
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: string;
  takerUserId: string;
  makerFee: bigint;
  makerFeeAsset: string;
  takerFee: bigint;
  takerFeeAsset: string;
}

/** What the oracle predicts for one command. */
export interface OracleResult {
  code: ResultCode;
  /** placeOrder/cancelOrder: the order after the command (absent when the engine gives none). */
  order?: OrderView;
  duplicateOfOrderId?: string;
  trades: OracleTrade[];
  /** ids of the orders other than `order` whose state the command changed (makers filled or expired) */
  touched: string[];
}

/** A spot order as the oracle keeps it. Quantities in qty units, amounts in asset units. */
interface OOrder {
  id: number;
  clientOrderId: string | null;
  userId: string;
  symbol: string;
  side: Side;
  orderType: 'LIMIT' | 'MARKET';
  timeInForce: TimeInForce;
  price: bigint | null;
  quantity: bigint | null;
  quoteAmount: bigint | null;
  stp: StpMode;
  filledQty: bigint;
  filledQuote: bigint;
  fee: bigint;
  status: OrderStatus;
  createdTs: number;
  updatedTs: number;
}

interface OMarket {
  config: MarketConfig;
  /** quote units per (price unit * qty unit) */
  nm: bigint;
  /** base units per qty unit */
  bm: bigint;
  lastPrice: bigint | null;
}

/** One step of a taker's match, planned before anything changes. */
type Step = { kind: 'fill'; maker: OOrder; qty: bigint } | { kind: 'expire'; maker: OOrder };

const isOpen = (o: OOrder): boolean => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
const ceilDiv = (a: bigint, b: bigint): bigint => (a % b === 0n ? a / b : a / b + 1n);
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The reference model (see the file comment). */
export class Oracle {
  private readonly scales = new Map<string, number>();
  private readonly markets = new Map<string, OMarket>();
  /** `${owner}|${kind}|${asset}` -> [available, frozen] */
  private readonly balances = new Map<string, [bigint, bigint]>();
  /** every accepted order; orders[i].id === i + 1 */
  private readonly orders: OOrder[] = [];
  private readonly keys = new Set<string>();
  private tradeSeq = 0;

  // ---- balances ---------------------------------------------------------------------------------

  /** [available, frozen] of an account (zeroes if never used). */
  balance(owner: string, kind: AccountKind | 'SYSTEM', asset: string): [bigint, bigint] {
    const b = this.balances.get(`${owner}|${kind}|${asset}`);
    return b === undefined ? [0n, 0n] : [b[0], b[1]];
  }

  private add(owner: string, kind: AccountKind | 'SYSTEM', asset: string, dAvailable: bigint, dFrozen: bigint): void {
    const k = `${owner}|${kind}|${asset}`;
    const b = this.balances.get(k) ?? [0n, 0n];
    b[0] += dAvailable;
    b[1] += dFrozen;
    if (kind !== 'SYSTEM' && (b[0] < 0n || b[1] < 0n)) throw new Error(`oracle: ${k} would go negative`);
    this.balances.set(k, b);
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** The public view of an order by id, or undefined. */
  view(orderId: string): OrderView | undefined {
    const o = this.orders[Number.parseInt(orderId, 10) - 1];
    return o === undefined ? undefined : toView(o, this.markets.get(o.symbol)!.config);
  }

  /** Open orders of a user, oldest first. */
  openOrders(userId: string): OrderView[] {
    return this.orders.filter((o) => o.userId === userId && isOpen(o)).map((o) => toView(o, this.markets.get(o.symbol)!.config));
  }

  /** Book levels of a side, best first: [price, total remaining quantity]. */
  depth(symbol: string, side: Side): [bigint, bigint][] {
    const out: [bigint, bigint][] = [];
    for (const o of this.resting(symbol, side)) {
      const last = out[out.length - 1];
      const rem = remaining(o);
      if (last !== undefined && last[0] === o.price) last[1] += rem;
      else out.push([o.price as bigint, rem]);
    }
    return out;
  }

  /** Price of the last trade in a market, or null. */
  lastPrice(symbol: string): bigint | null {
    return this.markets.get(symbol)?.lastPrice ?? null;
  }

  /** The resting orders of one side of a market in priority order: better price first, then older. */
  private resting(symbol: string, side: Side): OOrder[] {
    return this.orders
      .filter((o) => o.symbol === symbol && o.side === side && isOpen(o))
      .sort((a, b) => {
        const pa = a.price as bigint;
        const pb = b.price as bigint;
        if (pa !== pb) return (side === 'BUY' ? pa > pb : pa < pb) ? -1 : 1;
        return a.id - b.id;
      });
  }

  // ---- commands ---------------------------------------------------------------------------------

  /** Apply a command; returns the prediction for it. */
  execute(cmd: Command): OracleResult {
    switch (cmd.type) {
      case 'addAsset':
        this.scales.set(cmd.asset.code, cmd.asset.scale);
        return done('ok');
      case 'addMarket': {
        const c = cmd.market;
        const quoteScale = this.scales.get(c.quote) as number;
        const baseScale = this.scales.get(c.base) as number;
        this.markets.set(c.symbol, {
          config: { ...c },
          nm: pow10(quoteScale - c.priceDecimals - c.qtyDecimals),
          bm: pow10(baseScale - c.qtyDecimals),
          lastPrice: null,
        });
        return done('ok');
      }
      case 'setMarketStatus': {
        const m = this.markets.get(cmd.symbol);
        if (m === undefined) return done('market_not_found');
        m.config.status = cmd.status;
        return done('ok');
      }
      case 'deposit':
        return this.deposit(cmd);
      case 'transfer':
        return this.transfer(cmd);
      case 'cancelOrder':
        return this.cancel(cmd);
      case 'placeOrder':
        return this.place(cmd);
      default:
        throw new Error(`oracle: no model for ${cmd.type}`);
    }
  }

  private deposit(cmd: Extract<Command, { type: 'deposit' }>): OracleResult {
    const key = cmd.ref === undefined ? null : `deposit|${cmd.userId}|${cmd.ref}`;
    if (key !== null && this.keys.has(key)) return done('ok');
    if (!isUserId(cmd.userId) || !KINDS.includes(cmd.account) || !SYSTEM.includes(cmd.from) || (cmd.ref !== undefined && !isKey(cmd.ref)))
      return done('invalid_config');
    if (!this.scales.has(cmd.asset)) return done('asset_not_found');
    if (cmd.amount <= 0n) return done('amount_invalid');
    this.add(cmd.from, 'SYSTEM', cmd.asset, -cmd.amount, 0n);
    this.add(cmd.userId, cmd.account, cmd.asset, cmd.amount, 0n);
    if (key !== null) this.keys.add(key);
    return done('ok');
  }

  private transfer(cmd: Extract<Command, { type: 'transfer' }>): OracleResult {
    const key = cmd.clientId === undefined ? null : `transfer|${cmd.userId}|${cmd.clientId}`;
    if (key !== null && this.keys.has(key)) return done('ok');
    if (!isUserId(cmd.userId) || !KINDS.includes(cmd.from) || !KINDS.includes(cmd.to) || (cmd.clientId !== undefined && !isKey(cmd.clientId)))
      return done('invalid_order');
    if (!this.scales.has(cmd.asset)) return done('asset_not_found');
    if (cmd.amount <= 0n) return done('amount_invalid');
    if (cmd.from === cmd.to) return done('same_account');
    if (this.balance(cmd.userId, cmd.from, cmd.asset)[0] < cmd.amount) return done('insufficient_balance');
    this.add(cmd.userId, cmd.from, cmd.asset, -cmd.amount, 0n);
    this.add(cmd.userId, cmd.to, cmd.asset, cmd.amount, 0n);
    if (key !== null) this.keys.add(key);
    return done('ok');
  }

  private cancel(cmd: Extract<Command, { type: 'cancelOrder' }>): OracleResult {
    if ((cmd.orderId === undefined) === (cmd.clientOrderId === undefined)) return done('invalid_order');
    const o =
      cmd.orderId !== undefined
        ? this.orders.find((x) => `${x.id}` === cmd.orderId)
        : this.orders.findLast((x) => x.userId === cmd.userId && x.clientOrderId === cmd.clientOrderId);
    if (o === undefined || o.userId !== cmd.userId) return done('order_not_found');
    const m = this.markets.get(o.symbol) as OMarket;
    if (!isOpen(o)) return { ...done('order_not_found'), order: toView(o, m.config) };
    this.endResting(o, 'CANCELED', cmd.ts);
    return { ...done('ok'), order: toView(o, m.config) };
  }

  /** A resting order leaves the book unfilled: its whole remaining hold goes back to available. */
  private endResting(o: OOrder, status: 'CANCELED' | 'EXPIRED', ts: number): void {
    const m = this.markets.get(o.symbol) as OMarket;
    const c = m.config;
    const rem = remaining(o);
    if (o.side === 'BUY') this.add(o.userId, 'SPOT', c.quote, (o.price as bigint) * rem * m.nm, -((o.price as bigint) * rem * m.nm));
    else this.add(o.userId, 'SPOT', c.base, rem * m.bm, -(rem * m.bm));
    o.status = status;
    o.updatedTs = ts;
  }

  private place(cmd: Extract<Command, { type: 'placeOrder' }>): OracleResult {
    const { userId, side, orderType, timeInForce: tif, price, quantity, quoteAmount, clientOrderId: cid } = cmd;
    if (cid !== undefined) {
      const prev = this.orders.findLast((o) => o.userId === userId && o.clientOrderId === cid);
      if (prev !== undefined) return { ...done('ok'), order: toView(prev, this.markets.get(prev.symbol)!.config), duplicateOfOrderId: `${prev.id}` };
    }
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return done('market_not_found');
    const c = m.config;
    if (c.status !== 'TRADING') return done('market_halted');
    const stp: StpMode = cmd.stp ?? 'EXPIRE_TAKER';
    const isMarket = orderType === 'MARKET';
    const byQuote = quoteAmount !== undefined;
    if (
      (side !== 'BUY' && side !== 'SELL') ||
      (orderType !== 'LIMIT' && orderType !== 'MARKET') ||
      !TIFS.includes(tif) ||
      !STPS.includes(stp) ||
      userId.length === 0 ||
      userId.startsWith('@') ||
      (cid !== undefined && (cid.length === 0 || cid.length > MAX_CLIENT_ID)) ||
      (isMarket && (price !== undefined || tif === 'POST_ONLY' || (byQuote && (side === 'SELL' || quantity !== undefined || tif === 'FOK')))) ||
      (!isMarket && byQuote)
    ) {
      return done('invalid_order');
    }
    if (!isMarket) {
      if (price === undefined) return done('price_required');
      if (price <= 0n || price % c.tickSize !== 0n) return done('price_not_on_tick');
    }
    if (!byQuote) {
      if (quantity === undefined) return done('quantity_required');
      if (quantity % c.stepSize !== 0n) return done('quantity_not_on_step');
      if (quantity <= 0n || quantity < c.minQty) return done('quantity_below_minimum');
      if (!isMarket && (price as bigint) * quantity * m.nm < c.minNotional) return done('notional_below_minimum');
    } else {
      if (quoteAmount < c.minNotional) return done('notional_below_minimum');
      if (quoteAmount <= 0n) return done('amount_invalid');
    }

    const limit = isMarket ? null : (price as bigint);
    const taker: OOrder = {
      id: this.orders.length + 1,
      clientOrderId: cid ?? null,
      userId,
      symbol: c.symbol,
      side,
      orderType,
      timeInForce: tif,
      price: limit,
      quantity: quantity ?? null,
      quoteAmount: quoteAmount ?? null,
      stp,
      filledQty: 0n,
      filledQuote: 0n,
      fee: 0n,
      status: 'NEW',
      createdTs: cmd.ts,
      updatedTs: cmd.ts,
    };
    // A MARKET order by quantity must be worth the minimum at what it would fill now, whoever the makers are
    // (unless the book is empty).
    if (isMarket && !byQuote && c.minNotional > 0n) {
      const oppOpen = this.orders.some((o) => o.symbol === c.symbol && o.side !== side && isOpen(o));
      const value = this.plan(m, { ...taker, stp: 'NONE' }, 0n).steps.reduce(
        (t, st) => (st.kind === 'fill' ? t + (st.maker.price as bigint) * st.qty * m.nm : t),
        0n,
      );
      if (oppOpen && value < c.minNotional) return done('notional_below_minimum');
    }
    if (this.orders.filter((o) => o.userId === userId && o.symbol === c.symbol && isOpen(o)).length >= MAX_OPEN_ORDERS) return done('too_many_open_orders');
    const holdAsset = side === 'BUY' ? c.quote : c.base;
    let hold: bigint;
    if (side === 'SELL') hold = (quantity as bigint) * m.bm;
    else if (byQuote) hold = quoteAmount;
    else if (!isMarket) hold = (price as bigint) * (quantity as bigint) * m.nm;
    else hold = this.plan(m, taker, 0n).steps.reduce((t, s) => (s.kind === 'fill' ? t + (s.maker.price as bigint) * s.qty * m.nm : t), 0n);
    if (this.balance(userId, 'SPOT', holdAsset)[0] < hold) return done('insufficient_balance');
    const opposite = this.resting(c.symbol, side === 'BUY' ? 'SELL' : 'BUY');
    const best = opposite[0]?.price ?? null;
    if (tif === 'POST_ONLY' && best !== null && (side === 'BUY' ? best <= (limit as bigint) : best >= (limit as bigint))) return done('would_take_liquidity');
    if (isMarket && best === null) return done('no_liquidity');

    // Accepted.
    this.orders.push(taker);
    if (tif === 'FOK') {
      const filled = this.plan(m, taker, 0n).steps.reduce((t, s) => (s.kind === 'fill' ? t + s.qty : t), 0n);
      if (filled < (quantity as bigint)) {
        taker.status = 'EXPIRED';
        return { ...done('ok'), order: toView(taker, c) };
      }
    }
    this.add(userId, 'SPOT', holdAsset, -hold, hold);
    const { steps, stop } = this.plan(m, taker, hold);
    const trades: OracleTrade[] = [];
    const touched: string[] = [];
    let holdLeft = hold;
    for (const s of steps) {
      touched.push(`${s.maker.id}`);
      if (s.kind === 'expire') this.endResting(s.maker, 'EXPIRED', cmd.ts);
      else {
        trades.push(this.fill(m, taker, s.maker, s.qty, cmd.ts));
        const p = s.maker.price as bigint;
        // what this fill took out of the taker's hold (a BUY LIMIT's includes its price improvement)
        holdLeft -= side === 'SELL' ? s.qty * m.bm : (limit ?? p) * s.qty * m.nm;
      }
    }
    let rests = false;
    if (byQuote) taker.status = stop === 'unaffordable' && taker.filledQty > 0n ? 'FILLED' : 'EXPIRED';
    else if (taker.filledQty === quantity) taker.status = 'FILLED';
    else if (!isMarket && (tif === 'GTC' || tif === 'POST_ONLY') && stop !== 'stp') {
      taker.status = taker.filledQty > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      rests = true;
    } else taker.status = 'EXPIRED';
    if (!rests && holdLeft !== 0n) this.add(userId, 'SPOT', holdAsset, holdLeft, -holdLeft);
    return { code: 'ok', order: toView(taker, c), trades, touched };
  }

  /**
   * The steps a taker would take against the current book, without changing anything, and why it
   * would stop. `budget`: the quote hold of a MARKET BUY by quoteAmount (ignored otherwise).
   */
  private plan(m: OMarket, t: OOrder, budget: bigint): { steps: Step[]; stop: 'done' | 'stp' | 'unaffordable' } {
    const c = m.config;
    const steps: Step[] = [];
    let left = t.quantity ?? 0n;
    let money = budget;
    for (const mk of this.resting(c.symbol, t.side === 'BUY' ? 'SELL' : 'BUY')) {
      if (t.quoteAmount === null && left === 0n) break;
      const p = mk.price as bigint;
      if (t.price !== null && (t.side === 'BUY' ? p > t.price : p < t.price)) break;
      let q: bigint;
      if (t.quoteAmount !== null) {
        const affordable = money / (p * m.nm);
        q = min(affordable - (affordable % c.stepSize), remaining(mk));
        if (q === 0n) return { steps, stop: 'unaffordable' };
      } else q = min(left, remaining(mk));
      if (mk.userId === t.userId && t.stp !== 'NONE') {
        if (t.stp === 'EXPIRE_TAKER') return { steps, stop: 'stp' };
        steps.push({ kind: 'expire', maker: mk });
        if (t.stp === 'EXPIRE_BOTH') return { steps, stop: 'stp' };
        continue;
      }
      steps.push({ kind: 'fill', maker: mk, qty: q });
      left -= q;
      money -= p * q * m.nm;
      // a quote buy that could not take this whole maker cannot buy another step from it
      if (t.quoteAmount !== null && q < remaining(mk)) return { steps, stop: 'unaffordable' };
    }
    return { steps, stop: 'done' };
  }

  /** Settle one fill of `qty` at the maker's price: delivery both ways, price improvement, fees. */
  private fill(m: OMarket, t: OOrder, mk: OOrder, qty: bigint, ts: number): OracleTrade {
    const c = m.config;
    const p = mk.price as bigint;
    const quote = p * qty * m.nm;
    const base = qty * m.bm;
    const buyer = t.side === 'BUY' ? t : mk;
    const seller = t.side === 'BUY' ? mk : t;
    const buyerPpm = BigInt(buyer === t ? c.takerFeePpm : c.makerFeePpm);
    const sellerPpm = BigInt(seller === t ? c.takerFeePpm : c.makerFeePpm);
    const buyerFee = ceilDiv(base * buyerPpm, 1_000_000n);
    const sellerFee = ceilDiv(quote * sellerPpm, 1_000_000n);
    // the seller's frozen base goes to the buyer, the buyer's frozen quote to the seller
    this.add(seller.userId, 'SPOT', c.base, 0n, -base);
    this.add(buyer.userId, 'SPOT', c.base, base - buyerFee, 0n);
    this.add(buyer.userId, 'SPOT', c.quote, 0n, -quote);
    this.add(seller.userId, 'SPOT', c.quote, quote - sellerFee, 0n);
    this.add('@fee', 'SYSTEM', c.base, buyerFee, 0n);
    this.add('@fee', 'SYSTEM', c.quote, sellerFee, 0n);
    // a BUY that held its limit price gets the difference back (a resting BUY is only ever a maker at its own price)
    if (buyer.price !== null && buyer.price > p) {
      const back = (buyer.price - p) * qty * m.nm;
      this.add(buyer.userId, 'SPOT', c.quote, back, -back);
    }
    buyer.fee += buyerFee;
    seller.fee += sellerFee;
    for (const o of [t, mk]) {
      o.filledQty += qty;
      o.filledQuote += quote;
      o.updatedTs = ts;
    }
    mk.status = remaining(mk) === 0n ? 'FILLED' : 'PARTIALLY_FILLED';
    m.lastPrice = p;
    return {
      tradeId: `${++this.tradeSeq}`,
      price: p,
      quantity: qty,
      quoteAmount: quote,
      takerSide: t.side,
      makerOrderId: `${mk.id}`,
      takerOrderId: `${t.id}`,
      makerUserId: mk.userId,
      takerUserId: t.userId,
      makerFee: mk === buyer ? buyerFee : sellerFee,
      makerFeeAsset: mk.side === 'BUY' ? c.base : c.quote,
      takerFee: t === buyer ? buyerFee : sellerFee,
      takerFeeAsset: t.side === 'BUY' ? c.base : c.quote,
    };
  }
}

/** Unfilled quantity of an order by quantity (qty units). */
function remaining(o: OOrder): bigint {
  return (o.quantity ?? 0n) - o.filledQty;
}

function done(code: ResultCode): OracleResult {
  return { code, trades: [], touched: [] };
}

function isKey(s: string): boolean {
  return s.length > 0 && s.length <= MAX_KEY;
}

function isUserId(s: string): boolean {
  return isKey(s) && !s.startsWith('@');
}

function toView(o: OOrder, c: MarketConfig): OrderView {
  return {
    orderId: `${o.id}`,
    clientOrderId: o.clientOrderId,
    userId: o.userId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: o.price,
    quantity: o.quantity,
    quoteAmount: o.quoteAmount,
    filledQty: o.filledQty,
    filledQuote: o.filledQuote,
    fee: o.fee,
    feeAsset: o.side === 'BUY' ? c.base : c.quote,
    status: o.status,
    createdTs: o.createdTs,
    updatedTs: o.updatedTs,
  };
}
