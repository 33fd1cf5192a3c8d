/**
 * The perpetual contracts' state machine: markets with their own books (the spot books: price-time
 * priority, fills at the maker's price), orders, one-way positions, cross and isolated margin, the mark price, funding,
 * take profit / stop loss and liquidation with the insurance fund and auto-deleveraging. The engine (engine.ts) owns
 * one and routes the perp* commands here; perp/types.ts documents each command, perp/math.ts the formulas.
 *
 * Money flows (all double-entry, in the settle asset):
 * - margin: a user's CONTRACT account, available <-> frozen (order holds and position margins are frozen);
 * - realized PnL: '@clearing' <-> the user (clearing + sum long cost - sum short cost = 0 after every command);
 * - fees: the user -> '@fee' (the trade event names the user); funding: payers -> '@funding' -> receivers;
 * - liquidation: the user's whole margin in scope -> '@clearing' at the takeover, the insurance fund ('@insurance',
 *   a SYSTEM account that also holds positions while it closes them) realizes the difference in the book.
 * A loss no margin can pay (a gap beyond bankruptcy) is paid by the insurance fund, so user buckets never go negative.
 *
 * Determinism: positions and orders are kept in Maps whose insertion order is part of the state (snapshots list them
 * in that order and restore re-inserts them so), so sweeps visit accounts in the same order after a restore.
 */
import type { Account, Ledger } from '../ledger/ledger';
import type { BookKind, OrderBook } from '../spot/book';
import { FastOrderBook } from '../spot/fast-book';
import { NaiveOrderBook } from '../spot/naive-book';
import { Order } from '../spot/order';
import type { CommandResult, DepthLevel, EngineEvent, RejectCode, Side } from '../types';
import {
  bracketTiers,
  type BracketTier,
  entryPriceOf,
  fundingPayment,
  fundingRateE8,
  fundingTimeAtOrBefore,
  initialMargin,
  maintMargin,
  markPriceOf,
  maxNotionalFor,
  maxRemovableMargin,
  openLoss,
  orderCost,
  perpFee,
  perpNotionalMult,
  premiumIndexE8,
  toSafeInt,
  unrealizedPnl,
} from './math';
import {
  DEFAULT_LEVERAGE,
  type MarginMode,
  type PerpAccountView,
  type PerpCommand,
  type PerpMarkState,
  type PerpMarketConfig,
  type PerpOrderView,
  type PerpReads,
  type PerpSettings,
  type PerpTradeType,
  type PerpTrigger,
  type PositionSide,
  type PositionView,
} from './types';

/** What the perpetual state needs from the engine while it works on a command. */
export interface PerpHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  allocOrderSeq(): number;
  allocTradeId(): string;
  isFrozen(userId: string): boolean;
  /** the scale of a listed asset, or undefined */
  hasAsset(code: string): number | undefined;
  /** the live idempotency entry's order seq of (userId, clientOrderId), or undefined */
  perpKeyLookup(userId: string, clientOrderId: string, ts: number): number | undefined;
  perpKeyAdd(userId: string, clientOrderId: string, ts: number, seq: number): void;
}

/** The insurance fund's owner id (a SYSTEM ledger account; it holds positions only inside a liquidation). */
export const INSURANCE = '@insurance';
const E6 = 1_000_000n;
/** Most resting perpetual orders per user and market (as spot's MAX_NUM_ORDERS). */
export const MAX_PERP_OPEN_ORDERS = 200;
/** Ended perpetual orders kept for perpOrder() and retries (history belongs to the database). */
export const PERP_CLOSED_RETENTION = 1_000;
const MAX_LOTS = 1_000_000_000;
/** Liquidation rounds per mark tick (see liquidations()). */
const MAX_LIQUIDATION_ROUNDS = 16;
const TIFS = new Set(['GTC', 'IOC', 'FOK', 'POST_ONLY']);

function reject(code: RejectCode): CommandResult {
  return { code, events: [] };
}
function isInt(n: unknown, min: number, max: number): n is number {
  return typeof n === 'number' && n >= min && n <= max && Math.floor(n) === n;
}
/** The sequence number of a canonical order id ("1", "42"), or -1 (matches nothing). */
function seqOf(id: unknown): number {
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,14}$/.test(id)) return -1;
  let v = 0;
  for (let i = 0; i < id.length; i++) v = v * 10 + (id.charCodeAt(i) - 48);
  return v;
}
function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A perpetual order: a spot `Order` (so the books keep it) with the perpetual fields. */
export class PerpOrder extends Order {
  lots = 0;
  reduceOnly = false;
  tradeType: PerpTradeType = 'OPEN_LONG';
  trigger: PerpTrigger | null = null;
  leverage = DEFAULT_LEVERAGE;
  marginMode: MarginMode = 'CROSS';
  realizedPnl = 0n;
  takeProfit: bigint | null = null;
  stopLoss: bigint | null = null;

  /** The public view. */
  perpView(): PerpOrderView {
    return {
      orderId: this.orderId,
      clientOrderId: this.clientOrderId,
      userId: this.userId,
      symbol: this.symbol,
      side: this.side,
      orderType: this.orderType,
      timeInForce: this.timeInForce,
      price: this.price,
      quantity: this.quantity as bigint,
      lots: this.lots,
      reduceOnly: this.reduceOnly,
      tradeType: this.tradeType,
      trigger: this.trigger,
      leverage: this.leverage,
      marginMode: this.marginMode,
      filledQty: this.filledQty,
      filledQuote: this.filledQuote,
      fee: this.fee,
      realizedPnl: this.realizedPnl,
      hold: this.hold,
      takeProfit: this.takeProfit,
      stopLoss: this.stopLoss,
      status: this.status,
      createdTs: this.createdTs,
      updatedTs: this.updatedTs,
    };
  }
}

/** A position (see PositionView). */
interface Pos {
  userId: string;
  symbol: string;
  side: PositionSide;
  size: bigint;
  cost: bigint;
  margin: bigint;
  mode: MarginMode;
  leverage: number;
  realizedPnl: bigint;
  funding: bigint;
  fees: bigint;
  tp: bigint | null;
  sl: bigint | null;
  openTs: number;
  updatedTs: number;
  /** average entry price at the last change while open (kept in the closing view, whose size is 0) */
  entry?: bigint;
}

/** One perpetual market's state. */
class PerpMarket {
  readonly tiers: BracketTier[];
  readonly book: OrderBook;
  lastPrice: bigint | null = null;
  indexPrice: bigint | null = null;
  markPrice: bigint | null = null;
  markTs = 0;
  /** ring of basis samples (price units) */
  basis: bigint[] = [];
  basisHead = 0;
  basisSum = 0n;
  /** premium samples of the current funding interval: sum of k * premium_k, sum of k, k */
  premiumWeighted = 0n;
  premiumWeights = 0n;
  premiumCount = 0;
  lastFundingRateE8 = 0;
  /** last funding time settled (Unix ms), 0 before the first */
  lastFundingTs = 0;
  /** userId -> open position, in insertion order */
  readonly positions = new Map<string, Pos>();

  constructor(
    readonly cfg: PerpMarketConfig,
    readonly mult: bigint,
    bookKind: BookKind,
  ) {
    this.tiers = bracketTiers(cfg.brackets);
    this.book = bookKind === 'naive' ? new NaiveOrderBook() : new FastOrderBook();
  }

  bandOk(price: bigint): boolean {
    const m = this.markPrice as bigint;
    const band = BigInt(this.cfg.priceBandPpm);
    return price * E6 >= m * (E6 - band) && price * E6 <= m * (E6 + band);
  }
  bandLow(): bigint {
    const m = this.markPrice as bigint;
    const t = this.cfg.tickSize;
    const p = (m * (E6 - BigInt(this.cfg.priceBandPpm)) + E6 - 1n) / E6;
    const r = ((p + t - 1n) / t) * t;
    return r > 0n ? r : t;
  }
  bandHigh(): bigint {
    const m = this.markPrice as bigint;
    const t = this.cfg.tickSize;
    return ((m * (E6 + BigInt(this.cfg.priceBandPpm))) / E6 / t) * t;
  }
  /** mark price, or the last trade, or null */
  refPrice(): bigint | null {
    return this.markPrice ?? this.lastPrice;
  }
}

/** The perpetual markets' state (see the file comment). */
export class PerpState implements PerpReads {
  private readonly markets = new Map<string, PerpMarket>();
  /** every retained perpetual order by seq (open, or among the last ended) */
  private readonly orders = new Map<number, PerpOrder>();
  private closed: PerpOrder[] = [];
  /** userId -> the user's open (resting) orders in id order */
  private readonly open = new Map<string, Map<number, PerpOrder>>();
  /** userId -> clientOrderId -> retained order */
  private readonly clientIds = new Map<string, Map<string, PerpOrder>>();
  /** userId -> symbol -> settings (only those changed from the defaults) */
  private readonly settings = new Map<string, Map<string, PerpSettings>>();
  /** userId -> symbols with a position (for the account views) */
  private readonly userMarkets = new Map<string, Set<string>>();

  // ---- command-scoped state -----------------------------------------------------------------
  private host!: PerpHost;
  private ts = 0;
  /** positions changed by the command: `${symbol}\u0000${userId}` -> view source (emitted at the end) */
  private changed = new Map<string, Pos>();
  /** depth levels changed: `${symbol}|${side}|${price}` -> total */
  private depth = new Map<string, { symbol: string; side: Side; price: bigint; quantity: bigint }>();

  /** `ledger`: the engine's ledger (reads between commands use it too). */
  constructor(
    private readonly bookKind: BookKind,
    private readonly ledger: Ledger,
  ) {}

  /** Apply one perpetual command (the engine started the command: events, ledger touch list). */
  execute(cmd: PerpCommand, host: PerpHost): CommandResult {
    this.host = host;
    this.ts = cmd.ts;
    this.changed = new Map();
    this.depth = new Map();
    let r: CommandResult;
    switch (cmd.type) {
      case 'addPerpMarket':
        r = this.addMarket(cmd);
        break;
      case 'perpPlaceOrder':
        r = this.place(cmd);
        break;
      case 'perpCancelOrder':
        r = this.cancel(cmd);
        break;
      case 'perpSetLeverage':
        r = this.setLeverage(cmd);
        break;
      case 'perpSetMarginMode':
        r = this.setMarginMode(cmd);
        break;
      case 'perpAdjustMargin':
        r = this.adjustMargin(cmd);
        break;
      case 'perpSetTpSl':
        r = this.setTpSl(cmd);
        break;
      case 'perpMarkPrice':
        r = this.markTick(cmd);
        break;
      case 'perpFunding':
        r = this.funding(cmd);
        break;
      case 'fundInsurance':
        r = this.fundInsurance(cmd);
        break;
      default:
        r = reject('invalid_order');
    }
    if (r.code === 'ok') this.flush();
    return r;
  }

  /** Emits the command's depth and position changes (after its own events). */
  private flush(): void {
    const ev = this.host.events;
    for (const d of this.depth.values()) ev.push({ type: 'perpDepthChanged', ts: this.ts, ...d });
    for (const p of this.changed.values()) ev.push({ type: 'positionChanged', ts: this.ts, position: this.view(p) });
  }

  // ---- accounts -------------------------------------------------------------------------------

  private acc(userId: string, settle: string): Account {
    return userId === INSURANCE ? this.ledger.account(INSURANCE, 'SYSTEM', settle) : this.ledger.account(userId, 'CONTRACT', settle);
  }
  private sys(owner: string, settle: string): Account {
    return this.ledger.account(owner, 'SYSTEM', settle);
  }
  private settingsOf(userId: string, symbol: string): PerpSettings {
    return this.settings.get(userId)?.get(symbol) ?? { leverage: DEFAULT_LEVERAGE, marginMode: 'CROSS' };
  }
  private touch(p: Pos): void {
    p.updatedTs = this.ts;
    if (p.size > 0n) p.entry = entryPriceOf(p.cost, p.size, (this.markets.get(p.symbol) as PerpMarket).mult);
    this.changed.set(`${p.symbol}\u0000${p.userId}`, p);
  }
  private depthAt(m: PerpMarket, side: Side, price: bigint, total: bigint): void {
    this.depth.set(`${m.cfg.symbol}|${side}|${price}`, { symbol: m.cfg.symbol, side, price, quantity: total });
  }

  /**
   * Pays `amount` (>= 0) from a user (or the fund) to a system account: an isolated position's loss from its margin,
   * then the available balance (`isoMarginLast`, a fill's: the available balance, then the margin), then the paying
   * order's hold `o`; anything else from the available balance, then `o`'s
   * hold, then cross positions' margins; a rest nothing can pay is paid by the insurance fund (the user's buckets
   * never go negative), or, with `fundPays` false, returned unpaid (funding: the receivers get less). Liquidation runs before a
   * position's take profit or stop loss fires, so this fallback serves only closes between two mark ticks.
   */
  private pay(
    userId: string,
    settle: string,
    amount: bigint,
    to: Account,
    iso: Pos | null,
    o: PerpOrder | null = null,
    fundPays = true,
    isoMarginLast = false,
  ): bigint {
    if (amount <= 0n) return 0n;
    const ledger = this.ledger;
    const a = this.acc(userId, settle);
    if (a.isSystem) {
      ledger.post(a, 'available', to, 'available', amount);
      return 0n;
    }
    let left = amount;
    // The paying order's hold (a fill's loss or fee): frozen money of the same user, before any position's margin.
    const fromHold = (): void => {
      if (o === null || o.hold === 0n || left === 0n) return;
      const h = left < o.hold ? left : o.hold;
      ledger.post(a, 'frozen', to, 'available', h);
      o.hold -= h;
      left -= h;
    };
    if (iso !== null) {
      const fromMargin = (): void => {
        const t = left < iso.margin ? left : iso.margin;
        if (t > 0n) {
          ledger.post(a, 'frozen', to, 'available', t);
          iso.margin -= t;
          this.touch(iso);
          left -= t;
        }
      };
      // A fill's loss or fee beyond the closed part's released margin: the available balance before the margin of what
      // stays open (so a partial close does not leave the rest under water while the user has money); funding: the
      // margin first, as Binance takes it.
      if (!isoMarginLast) fromMargin();
      const u = left < a.available ? left : a.available;
      if (u > 0n) {
        ledger.post(a, 'available', to, 'available', u);
        left -= u;
      }
      if (isoMarginLast) fromMargin();
      fromHold();
    } else {
      const t = left < a.available ? left : a.available;
      if (t > 0n) {
        ledger.post(a, 'available', to, 'available', t);
        left -= t;
      }
      fromHold();
      if (left > 0n) {
        for (const sym of this.userMarkets.get(userId) ?? []) {
          const p = this.markets.get(sym)?.positions.get(userId);
          if (p === undefined || p.mode !== 'CROSS' || p.margin === 0n) continue;
          const u = left < p.margin ? left : p.margin;
          ledger.post(a, 'frozen', to, 'available', u);
          p.margin -= u;
          this.touch(p);
          left -= u;
          if (left === 0n) break;
        }
      }
    }
    if (left > 0n && fundPays) {
      ledger.post(this.sys(INSURANCE, settle), 'available', to, 'available', left);
      return 0n;
    }
    return left;
  }

  // ---- markets --------------------------------------------------------------------------------

  private addMarket(cmd: Extract<PerpCommand, { type: 'addPerpMarket' }>): CommandResult {
    const c = cmd.market;
    if (c === null || typeof c !== 'object') return reject('invalid_config');
    if (this.markets.has(c.symbol)) return reject('market_exists');
    const scale = typeof c.quote === 'string' ? this.host.hasAsset(c.quote) : undefined;
    const okBrackets =
      Array.isArray(c.brackets) &&
      c.brackets.length > 0 &&
      c.brackets.length <= 20 &&
      c.brackets.every(
        (b, i) =>
          typeof b.notionalCap === 'bigint' &&
          b.notionalCap > 0n &&
          isInt(b.maxLeverage, 1, 125) &&
          isInt(b.maintMarginPpm, 1, 999_999) &&
          (i === 0 ||
            (b.notionalCap > (c.brackets[i - 1] as typeof b).notionalCap &&
              b.maxLeverage <= (c.brackets[i - 1] as typeof b).maxLeverage &&
              b.maintMarginPpm >= (c.brackets[i - 1] as typeof b).maintMarginPpm)) &&
          // the initial margin rate must exceed the maintenance rate, or a fresh position would be liquidatable
          1_000_000 / b.maxLeverage > b.maintMarginPpm,
      );
    if (
      typeof c.symbol !== 'string' ||
      c.symbol.length === 0 ||
      c.symbol.length > 32 ||
      typeof c.base !== 'string' ||
      c.base.length === 0 ||
      !isInt(c.priceDecimals, 0, 18) ||
      !isInt(c.qtyDecimals, 0, 18) ||
      typeof c.tickSize !== 'bigint' ||
      c.tickSize <= 0n ||
      typeof c.stepSize !== 'bigint' ||
      c.stepSize <= 0n ||
      typeof c.minQty !== 'bigint' ||
      c.minQty < 0n ||
      !isInt(c.makerFeePpm, 0, 100_000) ||
      !isInt(c.takerFeePpm, 0, 100_000) ||
      typeof c.lotNotional !== 'bigint' ||
      c.lotNotional <= 0n ||
      !okBrackets ||
      !isInt(c.priceBandPpm, 1, 999_999) ||
      !isInt(c.fundingIntervalMs, 60_000, 7 * 86_400_000) ||
      !isInt(c.interestRateE8, -1_000_000, 1_000_000) ||
      !isInt(c.fundingCapE8, 0, 10_000_000) ||
      typeof c.impactNotional !== 'bigint' ||
      c.impactNotional <= 0n ||
      !isInt(c.markBasisSamples, 1, 3600) ||
      (c.status !== 'TRADING' && c.status !== 'HALTED')
    ) {
      return reject('invalid_config');
    }
    if (scale === undefined) return reject('asset_not_found');
    if (c.priceDecimals + c.qtyDecimals > scale) return reject('invalid_config');
    const cfg: PerpMarketConfig = { ...c, brackets: c.brackets.map((b) => ({ ...b })) };
    const m = new PerpMarket(cfg, perpNotionalMult(scale, c.priceDecimals, c.qtyDecimals), this.bookKind);
    m.lastFundingTs = fundingTimeAtOrBefore(cmd.ts, c.fundingIntervalMs);
    this.markets.set(c.symbol, m);
    this.host.events.push({ type: 'perpMarketAdded', ts: cmd.ts, market: copyConfig(cfg) });
    return { code: 'ok', events: this.host.events };
  }

  private fundInsurance(cmd: Extract<PerpCommand, { type: 'fundInsurance' }>): CommandResult {
    if (cmd.from !== '@faucet' && cmd.from !== '@fee') return reject('invalid_config');
    if (typeof cmd.asset !== 'string' || this.host.hasAsset(cmd.asset) === undefined) return reject('asset_not_found');
    if (typeof cmd.amount !== 'bigint' || cmd.amount <= 0n) return reject('amount_invalid');
    this.ledger.post(this.sys(cmd.from, cmd.asset), 'available', this.sys(INSURANCE, cmd.asset), 'available', cmd.amount);
    return { code: 'ok', events: this.host.events };
  }

  // ---- orders ---------------------------------------------------------------------------------

  private place(cmd: Extract<PerpCommand, { type: 'perpPlaceOrder' }>): CommandResult {
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
   */
  private placeFor(m: PerpMarket, cmd: Extract<PerpCommand, { type: 'perpPlaceOrder' }>, trigger: PerpTrigger | null): CommandResult {
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
      (reduceOnly && (cmd.takeProfit !== undefined || cmd.stopLoss !== undefined))
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
    const openMap = this.open.get(userId);
    if (openMap !== undefined && trigger === null) {
      let n = 0;
      for (const o of openMap.values()) if (o.symbol === c.symbol) n++;
      if (n >= MAX_PERP_OPEN_ORDERS) return reject('too_many_open_orders');
    }
    const opp: Side = side === 'BUY' ? 'SELL' : 'BUY';
    const best = m.book.bestPrice(opp);
    const st = this.settingsOf(userId, c.symbol);
    let hold = 0n;
    if (!reduceOnly && userId !== INSURANCE) {
      // The notional the margin is held for: a BUY fills at or below its limit, a SELL at or above it (up to the best
      // bid when it crosses), a MARKET order at what the book offers now.
      let notional: bigint;
      // Binance's open loss: what the order loses against the mark at its own price (perp/math.ts openLoss).
      let loss: bigint;
      if (isMarket) {
        if (best === null) return reject('no_liquidity');
        const w = this.walk(m, side, quantity, null);
        notional = w.quote;
        loss = openLoss(side, w.quote, mark * w.qty * m.mult);
        // what the book cannot fill expires: the hold is for what it can
      } else {
        notional = side === 'SELL' && best !== null && best > (price as bigint) ? best * quantity * m.mult : (price as bigint) * quantity * m.mult;
        loss = openLoss(side, (price as bigint) * quantity * m.mult, mark * quantity * m.mult);
      }
      const posSize = pos === undefined ? 0n : pos.size;
      const after = pos === undefined || !reduces ? posSize + quantity : quantity > posSize ? quantity - posSize : posSize - quantity;
      const refPx = isMarket ? mark : (price as bigint);
      if (after * refPx * m.mult > maxNotionalFor(m.tiers, st.leverage)) return reject('leverage_too_high');
      hold = orderCost(notional, st.leverage, c.takerFeePpm) + loss;
      if (this.spendable(userId, c.quote) < hold) return reject('insufficient_balance');
    }
    if (timeInForce === 'POST_ONLY' && best !== null && (side === 'BUY' ? best <= (price as bigint) : best >= (price as bigint)))
      return reject('would_take_liquidity');
    if (isMarket && best === null) return reject('no_liquidity');

    // Accepted from here on.
    const events = this.host.events;
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
      isMarket ? null : (price as bigint),
      quantity,
      null,
      c.quote,
      'EXPIRE_TAKER',
      this.ts,
    );
    o.lots = lots;
    o.reduceOnly = reduceOnly || trigger !== null;
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
    events.push({ type: 'perpOrderAccepted', ts: this.ts, order: acceptedView });
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

  /** How much a reduce-only order may still fill: the opposite position's size (0 without one). */
  private reduceRoom(m: PerpMarket, o: PerpOrder): bigint {
    const p = m.positions.get(o.userId);
    if (p === undefined) return 0n;
    return (p.side === 'LONG') === (o.side === 'SELL') ? p.size : 0n;
  }

  /**
   * Quantity and quote cost a taker would fill now (owners other than `self`; limit null = any price). A reduce-only
   * maker fills only up to what is left of its position as the walk goes (match() caps it so and expires the rest).
   */
  private walk(m: PerpMarket, side: Side, quantity: bigint, limit: bigint | null, self?: string): { qty: bigint; quote: bigint } {
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
  private match(m: PerpMarket, t: PerpOrder): void {
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

  /**
   * True when a user can pay for a fill of `q` at `p` of order `o`: the scope's equity after the fill, counting no
   * unrealized profit, stays >= 0. `cq` = the part that closes the user's position, `opens` = the rest; the closed
   * part realizes pnl at p, the rest of the position keeps its unrealized PnL at the mark (`rest`), the opened part
   * starts with its own (`open`: its open loss when priced beyond the mark).
   * - isolated scope (the position's mode, or the user's for a new position): kept + brought >= 0, with kept = the
   *   position's margin (if any) + pnl + min(0, rest) and brought = the max withdraw amount + the order's hold - the fee
   *   - (opening: its initial margin + open loss); a fill that closes nothing also needs brought >= 0;
   * - cross: the cross wallet less the holds of the user's other open orders (the order's own hold is in it) + pnl -
   *   the fee + min(0, cross unrealized PnL after the fill, the opened part's included) >= 0.
   * The engine's own orders (liquidation, ADL, the fund) always fill. Without it a user could close into a colluder's
   * order far from the mark, or a stale resting order could open a position past its bankruptcy price, and leave the
   * loss to the insurance fund or to auto-deleveraged users.
   */
  private fillPayable(m: PerpMarket, o: PerpOrder, p: bigint, q: bigint, feePpm: number): boolean {
    if (o.userId === INSURANCE || o.trigger === 'LIQUIDATION' || o.trigger === 'ADL') return true;
    const pos = m.positions.get(o.userId);
    const closing = pos !== undefined && (pos.side === 'LONG') === (o.side === 'SELL');
    const mark = m.markPrice ?? p;
    const cq = closing ? (q < pos.size ? q : pos.size) : 0n;
    const opens = q - cq;
    let pnl = 0n;
    let rest = 0n;
    if (pos !== undefined) {
      const relCost = cq === 0n ? 0n : cq === pos.size ? pos.cost : (pos.cost * cq) / pos.size;
      const closeNotional = p * cq * m.mult;
      pnl = cq === 0n ? 0n : pos.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
      rest = unrealizedPnl(pos.side, pos.size - cq, pos.cost - relCost, mark, m.mult);
    }
    const openNotional = p * opens * m.mult;
    const open = opens === 0n ? 0n : o.side === 'BUY' ? mark * opens * m.mult - openNotional : openNotional - mark * opens * m.mult;
    const fee = perpFee(p * q * m.mult, feePpm);
    // A position keeps its mode and leverage; a flip opens the other side with the same (settings cannot change while
    // a position is open); a new position takes the user's settings.
    const st = pos === undefined ? this.settingsOf(o.userId, m.cfg.symbol) : null;
    if ((pos?.mode ?? st?.marginMode) === 'ISOLATED') {
      const openCost = opens > 0n ? initialMargin(openNotional, pos?.leverage ?? st?.leverage ?? DEFAULT_LEVERAGE) + (open < 0n ? -open : 0n) : 0n;
      // what the position keeps (its margin after the close's PnL and the rest's loss) and what the fill brings (the
      // free money and the order's hold, less the fee and the opened part's cost); a fill that only opens must bring
      // its own cost (the margin already there is not released to pay it)
      const kept = (pos?.margin ?? 0n) + pnl + (rest < 0n ? rest : 0n);
      const brought = this.spendable(o.userId, m.cfg.quote) + o.hold - fee - openCost;
      if (cq === 0n && brought < 0n) return false;
      return kept + brought >= 0n;
    }
    const f = this.crossFigures(o.userId);
    const own = pos !== undefined ? unrealizedPnl(pos.side, pos.size, pos.cost, mark, m.mult) : 0n;
    const after = f.upnl - own + rest + open;
    // the other open orders' holds cannot pay this fill (only the paying order's hold can)
    let others = 0n;
    for (const x of this.open.get(o.userId)?.values() ?? []) if (x !== o && x.marginMode === 'CROSS') others += x.hold;
    return f.wallet - others + pnl - fee + (after < 0n ? after : 0n) >= 0n;
  }

  /** One fill of q at the maker's price p: positions, margin, PnL and fees of both sides, the maker's update. */
  private fill(m: PerpMarket, t: PerpOrder, mk: PerpOrder, p: bigint, q: bigint): void {
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

  /**
   * The position side of a fill for one order's owner: closes first (realized PnL by cost, margin released), then
   * opens the rest (margin ceil(notional / leverage) from the order's hold, then the available balance); the fee
   * from the hold, then as `pay` takes it. Returns the realized PnL.
   */
  private settleFill(m: PerpMarket, o: PerpOrder, p: bigint, q: bigint, notional: bigint, fee: bigint): bigint {
    const ledger = this.ledger;
    const settle = m.cfg.quote;
    const userId = o.userId;
    const a = this.acc(userId, settle);
    const side: PositionSide = o.side === 'BUY' ? 'LONG' : 'SHORT';
    let pos = m.positions.get(userId);
    let pnl = 0n;
    let openQty = q;
    if (pos !== undefined && pos.side !== side) {
      const cq = q < pos.size ? q : pos.size;
      pnl = this.closePart(m, pos, cq, p * cq * m.mult, o);
      openQty = q - cq;
      if (pos.size === 0n) pos = undefined;
    }
    // Hold and fee: the order's hold pays the fee and the opening margin first.
    let feeLeft = fee;
    if (o.hold > 0n && feeLeft > 0n) {
      const t = feeLeft < o.hold ? feeLeft : o.hold;
      ledger.post(a, 'frozen', this.sys('@fee', settle), 'available', t);
      o.hold -= t;
      feeLeft -= t;
    }
    if (openQty > 0n) {
      const openNotional = openQty === q ? notional : p * openQty * m.mult;
      const st = this.settingsOf(userId, m.cfg.symbol);
      if (pos === undefined) {
        pos = {
          userId,
          symbol: m.cfg.symbol,
          side,
          size: 0n,
          cost: 0n,
          margin: 0n,
          mode: userId === INSURANCE ? 'CROSS' : st.marginMode,
          leverage: st.leverage,
          realizedPnl: 0n,
          funding: 0n,
          fees: 0n,
          tp: null,
          sl: null,
          openTs: this.ts,
          updatedTs: this.ts,
        };
        m.positions.set(userId, pos);
        let um = this.userMarkets.get(userId);
        if (um === undefined) this.userMarkets.set(userId, (um = new Set()));
        um.add(m.cfg.symbol);
      }
      pos.size += openQty;
      pos.cost += openNotional;
      if (o.takeProfit !== null) pos.tp = o.takeProfit;
      if (o.stopLoss !== null) pos.sl = o.stopLoss;
      if (!a.isSystem) {
        // An isolated position also keeps the fill's open loss against the mark (Binance's order cost), so it starts
        // with its initial margin after that loss; a cross position's loss is carried by the cross wallet.
        const mark = m.markPrice;
        const loss = pos.mode === 'ISOLATED' && mark !== null ? openLoss(o.side, openNotional, mark * openQty * m.mult) : 0n;
        let need = initialMargin(openNotional, pos.leverage) + loss;
        // From the hold (already frozen: it stays frozen as margin), then from the available balance.
        const fromHold = need < o.hold ? need : o.hold;
        o.hold -= fromHold;
        pos.margin += fromHold;
        need -= fromHold;
        if (need > 0n) {
          const t = need < a.available ? need : a.available;
          ledger.hold(a, t);
          pos.margin += t;
        }
      }
      this.touch(pos);
    }
    if (pos !== undefined && fee > 0n) pos.fees += fee;
    if (feeLeft > 0n) this.pay(userId, settle, feeLeft, this.sys('@fee', settle), pos !== undefined && pos.mode === 'ISOLATED' ? pos : null, o, true, true);
    o.fee += fee;
    o.realizedPnl += pnl;
    return pnl;
  }

  /**
   * Closes `cq` of a position at a closing notional (quote units): releases its share of cost and margin, posts the
   * realized PnL with '@clearing' (a loss of an isolated position from its margin first; beyond it as `pay` takes it,
   * `o` the order whose fill closes). Returns the PnL.
   */
  private closePart(m: PerpMarket, pos: Pos, cq: bigint, closeNotional: bigint, o: PerpOrder | null = null): bigint {
    const ledger = this.ledger;
    const settle = m.cfg.quote;
    const a = this.acc(pos.userId, settle);
    const whole = cq === pos.size;
    const relCost = whole ? pos.cost : (pos.cost * cq) / pos.size;
    const relMargin = whole ? pos.margin : (pos.margin * cq) / pos.size;
    const pnl = pos.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
    pos.size -= cq;
    pos.cost -= relCost;
    pos.realizedPnl += pnl;
    const clearing = this.sys('@clearing', settle);
    if (a.isSystem) {
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      else if (pnl < 0n) ledger.post(a, 'available', clearing, 'available', -pnl);
    } else {
      // Margin released: an isolated position's loss comes out of it first.
      let lossLeft = pnl < 0n ? -pnl : 0n;
      let rel = relMargin;
      if (pos.mode === 'ISOLATED' && lossLeft > 0n) {
        const t = lossLeft < rel ? lossLeft : rel;
        ledger.post(a, 'frozen', clearing, 'available', t);
        rel -= t;
        lossLeft -= t;
      }
      pos.margin -= relMargin;
      if (rel > 0n) ledger.release(a, rel);
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      if (lossLeft > 0n) this.pay(pos.userId, settle, lossLeft, clearing, pos.mode === 'ISOLATED' ? pos : null, o, true, true);
    }
    this.touch(pos);
    if (pos.size === 0n) {
      if (pos.margin > 0n && !a.isSystem) ledger.release(a, pos.margin);
      pos.margin = 0n;
      m.positions.delete(pos.userId);
      const um = this.userMarkets.get(pos.userId);
      um?.delete(m.cfg.symbol);
      if (um !== undefined && um.size === 0) this.userMarkets.delete(pos.userId);
    }
    return pnl;
  }

  private releaseHold(o: PerpOrder): void {
    if (o.hold > 0n) {
      this.ledger.release(this.acc(o.userId, (this.markets.get(o.symbol) as PerpMarket).cfg.quote), o.hold);
      o.hold = 0n;
    }
  }

  /** An order reached a final status: into the retention queue. */
  private ended(o: PerpOrder): void {
    if (o.hold !== 0n) throw new Error(`perp: order ${o.orderId} ended with hold ${o.hold}`);
    this.closed.push(o);
    if (this.closed.length > PERP_CLOSED_RETENTION * 2) {
      const drop = this.closed.splice(0, this.closed.length - PERP_CLOSED_RETENTION);
      for (const d of drop) {
        this.orders.delete(d.seq);
        const cm = this.clientIds.get(d.userId);
        if (d.clientOrderId !== null && cm?.get(d.clientOrderId) === d) {
          cm.delete(d.clientOrderId);
          if (cm.size === 0) this.clientIds.delete(d.userId);
        }
      }
    }
  }

  /** Takes a resting order out of the book (cancel or expiry), releasing its hold. */
  private closeResting(m: PerpMarket, o: PerpOrder, status: 'CANCELED' | 'EXPIRED'): PerpOrderView {
    this.depthAt(m, o.side, o.price as bigint, m.book.remove(o));
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

  /** Expires resting reduce-only orders whose position is gone (or turned to their side), as Binance does. */
  private expireReduceOnly(m: PerpMarket): void {
    for (const p of this.changed.values()) {
      if (p.symbol !== m.cfg.symbol) continue;
      const om = this.open.get(p.userId);
      if (om === undefined) continue;
      for (const o of [...om.values()]) if (o.symbol === p.symbol && o.reduceOnly && this.reduceRoom(m, o) === 0n) this.closeResting(m, o, 'EXPIRED');
    }
  }

  private cancel(cmd: Extract<PerpCommand, { type: 'perpCancelOrder' }>): CommandResult {
    const { userId, orderId, clientOrderId } = cmd;
    if (typeof userId !== 'string' || (orderId === undefined) === (clientOrderId === undefined)) return reject('invalid_order');
    const o = orderId !== undefined ? this.orders.get(seqOf(orderId)) : this.clientIds.get(userId)?.get(clientOrderId as string);
    if (o === undefined || o.userId !== userId) return reject('order_not_found');
    if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') return { code: 'order_not_found', events: [], perpOrder: o.perpView() };
    const v = this.closeResting(this.markets.get(o.symbol) as PerpMarket, o, 'CANCELED');
    return { code: 'ok', events: this.host.events, perpOrder: v };
  }

  // ---- settings and position edits ------------------------------------------------------------

  private setLeverage(cmd: Extract<PerpCommand, { type: 'perpSetLeverage' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string' || cmd.userId.length === 0 || cmd.userId.charCodeAt(0) === 64) return reject('invalid_order');
    if (!isInt(cmd.leverage, 1, (m.tiers[0] as BracketTier).maxLeverage)) return reject('leverage_invalid');
    const pos = m.positions.get(cmd.userId);
    const a = this.acc(cmd.userId, m.cfg.quote);
    // Open orders that open positions follow the leverage: their holds' initial margin is resized (Binance recomputes
    // the open orders' margin on a leverage change), so a fill never opens a position below its initial margin.
    const resized: [PerpOrder, bigint][] = [];
    let total = 0n;
    for (const o of this.open.get(cmd.userId)?.values() ?? []) {
      if (o.symbol !== cmd.symbol || o.reduceOnly || o.leverage === cmd.leverage) continue;
      const d = this.orderHoldMove(m, o, cmd.leverage);
      resized.push([o, d]);
      total += d;
    }
    let move = 0n;
    if (pos !== undefined) {
      const px = m.refPrice() ?? entryPriceOf(pos.cost, pos.size, m.mult);
      if (pos.size * px * m.mult > maxNotionalFor(m.tiers, cmd.leverage)) return reject('leverage_too_high');
      move = this.leverageMarginMove(m, pos, cmd.leverage);
      total += move;
    }
    if (total > 0n && this.spendable(cmd.userId, m.cfg.quote) < total) return reject('insufficient_balance');
    // Releases first, then holds: the net total fits, but a hold before a release could find the available balance short.
    const moves: bigint[] = [...resized.map(([, d]) => d), move];
    for (const release of [true, false]) {
      for (const d of moves) {
        if (release && d < 0n) this.ledger.release(a, -d);
        else if (!release && d > 0n) this.ledger.hold(a, d);
      }
    }
    for (const [o, d] of resized) {
      o.hold += d;
      o.leverage = cmd.leverage;
      o.updatedTs = this.ts;
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
    }
    if (pos !== undefined) {
      pos.margin += move;
      pos.leverage = cmd.leverage;
      this.touch(pos);
    }
    const st = { ...this.settingsOf(cmd.userId, cmd.symbol), leverage: cmd.leverage };
    this.saveSettings(cmd.userId, cmd.symbol, st);
    return { code: 'ok', events: this.host.events };
  }

  /**
   * The margin a leverage change moves for a position (quote units; > 0 held from the available balance, < 0
   * released to it). The target is the initial margin of the position's cost at the new leverage, ceil(cost /
   * leverage). A cross position's margin becomes the target. An isolated position's margin rises to the target on a
   * decrease, but on an increase it releases no more than margin removal at the new leverage allows
   * (maxRemovableMargin: the unrealized loss at the mark counted, never a profit), as Binance keeps an isolated
   * position's margin unless the user removes it; so a leverage change never frees what covers a loss.
   */
  private leverageMarginMove(m: PerpMarket, pos: Pos, leverage: number): bigint {
    const need = initialMargin(pos.cost, leverage);
    if (need >= pos.margin || pos.mode === 'CROSS') return need - pos.margin;
    const px = this.valuePrice(m, pos);
    const free = maxRemovableMargin(pos.margin, pos.size * px * m.mult, unrealizedPnl(pos.side, pos.size, pos.cost, px, m.mult), leverage);
    const excess = pos.margin - need;
    return -(free < excess ? free : excess);
  }

  /**
   * How a resting opening order's hold changes when its leverage becomes `leverage` (quote units, signed): the initial
   * margin of its remaining quantity at its price, ceil(remaining notional / leverage), against the same at its
   * current leverage; a release never exceeds the hold.
   */
  private orderHoldMove(m: PerpMarket, o: PerpOrder, leverage: number): bigint {
    const n = (o.price as bigint) * o.remaining * m.mult;
    const d = initialMargin(n, leverage) - initialMargin(n, o.leverage);
    return d < -o.hold ? -o.hold : d;
  }

  private saveSettings(userId: string, symbol: string, st: PerpSettings): void {
    let u = this.settings.get(userId);
    if (u === undefined) this.settings.set(userId, (u = new Map()));
    u.set(symbol, st);
    this.host.events.push({ type: 'perpSettingsChanged', ts: this.ts, userId, symbol, settings: { ...st } });
  }

  private setMarginMode(cmd: Extract<PerpCommand, { type: 'perpSetMarginMode' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (
      typeof cmd.userId !== 'string' ||
      cmd.userId.length === 0 ||
      cmd.userId.charCodeAt(0) === 64 ||
      (cmd.marginMode !== 'CROSS' && cmd.marginMode !== 'ISOLATED')
    )
      return reject('invalid_order');
    if (m.positions.has(cmd.userId)) return reject('position_exists');
    for (const o of this.open.get(cmd.userId)?.values() ?? []) if (o.symbol === cmd.symbol) return reject('position_exists');
    this.saveSettings(cmd.userId, cmd.symbol, { ...this.settingsOf(cmd.userId, cmd.symbol), marginMode: cmd.marginMode });
    return { code: 'ok', events: this.host.events };
  }

  private adjustMargin(cmd: Extract<PerpCommand, { type: 'perpAdjustMargin' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string' || cmd.userId.charCodeAt(0) === 64) return reject('invalid_order');
    if (typeof cmd.amount !== 'bigint' || cmd.amount === 0n) return reject('amount_invalid');
    const pos = m.positions.get(cmd.userId);
    if (pos === undefined) return reject('no_position');
    if (pos.mode !== 'ISOLATED') return reject('margin_mode_invalid');
    const a = this.acc(cmd.userId, m.cfg.quote);
    if (cmd.amount > 0n) {
      if (this.spendable(cmd.userId, m.cfg.quote) < cmd.amount) return reject('insufficient_balance');
      this.ledger.hold(a, cmd.amount);
      pos.margin += cmd.amount;
    } else {
      const out = -cmd.amount;
      const px = m.refPrice() ?? entryPriceOf(pos.cost, pos.size, m.mult);
      // perp/math.ts maxRemovableMargin: the margin above the initial margin at the mark, after an unrealized loss
      if (out > maxRemovableMargin(pos.margin, pos.size * px * m.mult, unrealizedPnl(pos.side, pos.size, pos.cost, px, m.mult), pos.leverage))
        return reject('insufficient_balance');
      this.ledger.release(a, out);
      pos.margin -= out;
    }
    this.touch(pos);
    return { code: 'ok', events: this.host.events };
  }

  private setTpSl(cmd: Extract<PerpCommand, { type: 'perpSetTpSl' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string') return reject('invalid_order');
    const { takeProfit: tp, stopLoss: sl } = cmd;
    if ((tp !== null && typeof tp !== 'bigint') || (sl !== null && typeof sl !== 'bigint')) return reject('invalid_order');
    const pos = m.positions.get(cmd.userId);
    if (pos === undefined) return reject('no_position');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    for (const [v, isTp] of [
      [tp, true],
      [sl, false],
    ] as const) {
      if (v === null) continue;
      if (v <= 0n || v % m.cfg.tickSize !== 0n) return reject('price_not_on_tick');
      const wantAbove = isTp === (pos.side === 'LONG');
      if (v === mark || v > mark !== wantAbove) return reject(isTp ? 'take_profit_invalid' : 'stop_loss_invalid');
    }
    pos.tp = tp;
    pos.sl = sl;
    this.touch(pos);
    return { code: 'ok', events: this.host.events };
  }

  // ---- mark price, triggers, liquidation ------------------------------------------------------

  private markTick(cmd: Extract<PerpCommand, { type: 'perpMarkPrice' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    const index = cmd.indexPrice;
    if (typeof index !== 'bigint' || index <= 0n) return reject('invalid_config');
    const c = m.cfg;
    m.indexPrice = index;
    // Basis sample: book mid - index (both sides quoted), into the moving average.
    const bid = m.book.bestPrice('BUY');
    const ask = m.book.bestPrice('SELL');
    if (bid !== null && ask !== null) {
      const b = (bid + ask) / 2n - index;
      if (m.basis.length < c.markBasisSamples) m.basis.push(b);
      else {
        m.basisSum -= m.basis[m.basisHead] as bigint;
        m.basis[m.basisHead] = b;
        m.basisHead = (m.basisHead + 1) % c.markBasisSamples;
      }
      m.basisSum += b;
    }
    // Premium sample: impact bid and ask against the index, weighted 1, 2, 3 ... within the funding interval.
    const impact = (side: Side): { quote: bigint; qty: bigint; full: boolean } => {
      let quote = 0n;
      let qty = 0n;
      for (let o = m.book.best(side); o !== undefined; o = m.book.after(o)) {
        const p = o.price as bigint;
        const lvl = p * o.remaining * m.mult;
        if (quote + lvl >= c.impactNotional) {
          // the part of this order that completes the impact notional (rounded up to a whole qty unit)
          const needQ = (c.impactNotional - quote + p * m.mult - 1n) / (p * m.mult);
          return { quote: quote + needQ * p * m.mult, qty: qty + needQ, full: true };
        }
        quote += lvl;
        qty += o.remaining;
      }
      return { quote, qty, full: false };
    };
    const ib = impact('BUY');
    const ia = impact('SELL');
    const prem = premiumIndexE8(index, ib.quote, ib.qty, ia.quote, ia.qty, m.mult, { bid: ib.full, ask: ia.full });
    m.premiumCount++;
    m.premiumWeighted += BigInt(m.premiumCount) * prem;
    m.premiumWeights += BigInt(m.premiumCount);
    const next = this.nextFunding(m);
    m.markPrice = markPriceOf(index, m.lastFundingRateE8, Math.max(0, next - cmd.ts), c.fundingIntervalMs, m.basisSum, m.basis.length, m.lastPrice, c.tickSize);
    m.markTs = cmd.ts;
    this.host.events.push({ type: 'markPrice', ts: cmd.ts, state: this.markState(m) });
    if (c.status === 'TRADING') {
      this.triggerTpSl(m);
      this.liquidations(m);
    }
    return { code: 'ok', events: this.host.events };
  }

  private nextFunding(m: PerpMarket): number {
    return m.lastFundingTs + m.cfg.fundingIntervalMs;
  }

  /** Fires the take profits and stop losses the mark price crossed: a MARKET reduce-only close of the whole position. */
  private triggerTpSl(m: PerpMarket): void {
    const mark = m.markPrice as bigint;
    const hits: [Pos, PerpTrigger][] = [];
    for (const p of m.positions.values()) {
      // A position at risk is liquidated instead (its close would realize a loss beyond its margin).
      if (p.userId === INSURANCE || this.atRisk(m, p)) continue;
      const long = p.side === 'LONG';
      if (p.tp !== null && (long ? mark >= p.tp : mark <= p.tp)) hits.push([p, 'TAKE_PROFIT']);
      else if (p.sl !== null && (long ? mark <= p.sl : mark >= p.sl)) hits.push([p, 'STOP_LOSS']);
    }
    for (const [p, trig] of hits) {
      if (m.positions.get(p.userId) !== p || p.size === 0n) continue;
      const side: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
      if (m.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') === null) continue; // stays armed until there is liquidity
      p.tp = null;
      p.sl = null;
      this.touch(p);
      this.placeFor(
        m,
        {
          ts: this.ts,
          type: 'perpPlaceOrder',
          userId: p.userId,
          symbol: m.cfg.symbol,
          side,
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity: p.size,
          reduceOnly: true,
        },
        trig,
      );
    }
  }

  /** Mark price of a market for valuation: the mark, else the last trade, else the entry price of `p`. */
  private valuePrice(m: PerpMarket, p: Pos): bigint {
    return m.markPrice ?? m.lastPrice ?? entryPriceOf(p.cost, p.size, m.mult);
  }

  /** Cross figures of a user at the current marks: wallet, unrealized PnL, maintenance margin x1e6. */
  private crossFigures(userId: string): { wallet: bigint; upnl: bigint; mmE6: bigint; positions: number } {
    let upnl = 0n;
    let mmE6 = 0n;
    let isoMargins = 0n;
    let n = 0;
    let settle: string | null = null;
    for (const sym of this.userMarkets.get(userId) ?? []) {
      const m = this.markets.get(sym) as PerpMarket;
      const p = m.positions.get(userId) as Pos;
      settle ??= m.cfg.quote;
      if (p.mode === 'ISOLATED') {
        isoMargins += p.margin;
        continue;
      }
      const px = this.valuePrice(m, p);
      upnl += unrealizedPnl(p.side, p.size, p.cost, px, m.mult);
      // each position's maintenance margin rounded up (the user's disfavour, ARCHITECTURE.md section 5),
      // as math.ts maintMargin
      mmE6 += maintMargin(m.tiers, p.size * px * m.mult) * E6;
      n++;
    }
    let isoHolds = 0n;
    for (const o of this.open.get(userId)?.values() ?? []) if (o.marginMode === 'ISOLATED') isoHolds += o.hold;
    const s = settle ?? this.anySettle();
    const b = s === null ? { available: 0n, frozen: 0n } : this.ledger.balance(userId, 'CONTRACT', s);
    return { wallet: b.available + b.frozen - isoMargins - isoHolds, upnl, mmE6, positions: n };
  }

  private anySettle(): string | null {
    for (const m of this.markets.values()) return m.cfg.quote;
    return null;
  }

  private crossUpnl(userId: string): bigint {
    if (!this.userMarkets.has(userId)) return 0n;
    let upnl = 0n;
    for (const sym of this.userMarkets.get(userId) ?? []) {
      const m = this.markets.get(sym) as PerpMarket;
      const p = m.positions.get(userId) as Pos;
      if (p.mode === 'CROSS') upnl += unrealizedPnl(p.side, p.size, p.cost, this.valuePrice(m, p), m.mult);
    }
    return upnl;
  }

  /**
   * What a user may move out of the available balance of the CONTRACT account in `settle` (quote units, >= 0): the
   * available balance (the wallet less every position's initial margin and every order's hold) plus the unrealized
   * loss of the cross positions at the mark; an unrealized profit never counts. Binance's "max withdraw amount" (USDⓈ-M
   * futures account, single-asset mode): the cap of a transfer out, of an isolated margin top-up, of an order's hold
   * and of the extra margin a leverage decrease holds, so none of them can spend what covers a cross loss.
   */
  spendable(userId: string, settle: string): bigint {
    const a = this.ledger.find(userId, 'CONTRACT', settle);
    const upnl = this.crossUpnl(userId);
    const v = (a === undefined ? 0n : a.available) + (upnl < 0n ? upnl : 0n);
    return v > 0n ? v : 0n;
  }

  /**
   * True when the scope's maintenance margin (each position's rounded up to a quote unit) reached its margin balance
   * (risk level >= 100%, spec section 9).
   */
  private atRisk(m: PerpMarket, p: Pos): boolean {
    if (p.mode === 'ISOLATED') {
      const px = this.valuePrice(m, p);
      const bal = p.margin + unrealizedPnl(p.side, p.size, p.cost, px, m.mult);
      return bal <= maintMargin(m.tiers, p.size * px * m.mult);
    }
    const f = this.crossFigures(p.userId);
    return (f.wallet + f.upnl) * E6 <= f.mmE6;
  }

  /** Liquidates every account of the market at risk (see perpMarkPrice). */
  private liquidations(m: PerpMarket): void {
    // Rounds until no account is at risk: the fund's close may fill a stale resting order far from the mark and open
    // a position already past its bankruptcy, which the next round takes over (bounded: each round ends positions).
    for (let round = 0; round < MAX_LIQUIDATION_ROUNDS; round++) {
      const due: Pos[] = [];
      for (const p of m.positions.values()) if (p.userId !== INSURANCE && this.atRisk(m, p)) due.push(p);
      if (due.length === 0) return;
      for (const p of due) {
        if (m.positions.get(p.userId) !== p) continue; // gone with an earlier cross liquidation
        this.liquidate(m, p);
      }
    }
  }

  private liquidate(m: PerpMarket, p: Pos): void {
    const userId = p.userId;
    const mode = p.mode;
    const size0 = p.size;
    const side0 = p.side;
    const settle = m.cfg.quote;
    // 1. Cancel the open orders in scope and look again.
    for (const o of [...(this.open.get(userId)?.values() ?? [])]) {
      if (mode === 'ISOLATED' ? o.symbol === m.cfg.symbol : o.marginMode === 'CROSS')
        this.closeResting(this.markets.get(o.symbol) as PerpMarket, o, 'CANCELED');
    }
    if (!this.atRisk(m, p)) return;
    const ledger = this.ledger;
    const a = this.acc(userId, settle);
    const fund = this.sys(INSURANCE, settle);
    const fundBefore = fund.available;
    // 2. The positions in scope and their takeover PnL: the user's whole margin in scope is lost.
    const scope: { m: PerpMarket; p: Pos; pnl: bigint }[] = [];
    let equity: bigint;
    if (mode === 'ISOLATED') {
      equity = p.margin + unrealizedPnl(p.side, p.size, p.cost, this.valuePrice(m, p), m.mult);
      scope.push({ m, p, pnl: -p.margin });
    } else {
      const f = this.crossFigures(userId);
      equity = f.wallet + f.upnl;
      const list: { m: PerpMarket; p: Pos; pnl: bigint; notional: bigint }[] = [];
      for (const sym of this.userMarkets.get(userId) ?? []) {
        const mm = this.markets.get(sym) as PerpMarket;
        const pp = mm.positions.get(userId) as Pos;
        if (pp.mode !== 'CROSS') continue;
        const px = this.valuePrice(mm, pp);
        list.push({ m: mm, p: pp, pnl: unrealizedPnl(pp.side, pp.size, pp.cost, px, mm.mult), notional: pp.size * px * mm.mult });
      }
      // The largest takes the bankruptcy price; the others close at their mark: the cross wallet ends at exactly 0.
      list.sort((x, y) => cmpBig(y.notional, x.notional) || (x.m.cfg.symbol < y.m.cfg.symbol ? -1 : 1));
      let others = 0n;
      for (let i = 1; i < list.length; i++) others += (list[i] as (typeof list)[number]).pnl;
      (list[0] as (typeof list)[number]).pnl = -(f.wallet + others);
      for (const x of list) scope.push({ m: x.m, p: x.p, pnl: x.pnl });
    }
    // 3. Takeover: margins released, gains paid first, then losses (the wallet in scope ends at 0), positions to the fund.
    for (const s of scope) {
      if (s.p.margin > 0n) ledger.release(a, s.p.margin);
      s.p.margin = 0n;
    }
    const clearing = this.sys('@clearing', settle);
    const ordered = [...scope].sort((x, y) => (x.pnl > 0n ? 0 : 1) - (y.pnl > 0n ? 0 : 1));
    const taken: { m: PerpMarket; side: PositionSide; size: bigint; cost: bigint }[] = [];
    for (const s of ordered) {
      const { m: mm, p: pp, pnl } = s;
      const takeover = pp.side === 'LONG' ? pp.cost + pnl : pp.cost - pnl;
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      else if (pnl < 0n) {
        const t = -pnl <= a.available ? -pnl : a.available;
        ledger.post(a, 'available', clearing, 'available', t);
        if (t < -pnl) ledger.post(fund, 'available', clearing, 'available', -pnl - t);
      }
      const size = pp.size;
      const side = pp.side;
      const closeSide: Side = side === 'LONG' ? 'SELL' : 'BUY';
      // The user's record of the takeover: an order the engine creates, already filled.
      const seq = this.host.allocOrderSeq();
      const o = new PerpOrder(seq, `${seq}`, null, userId, mm.cfg.symbol, closeSide, 'MARKET', 'IOC', null, size, null, settle, 'EXPIRE_TAKER', this.ts);
      o.reduceOnly = true;
      o.trigger = 'LIQUIDATION';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = pp.leverage;
      o.marginMode = pp.mode;
      o.filledQty = size;
      o.filledQuote = takeover;
      o.remaining = 0n;
      o.realizedPnl = pnl;
      o.status = 'FILLED';
      this.orders.set(seq, o);
      pp.realizedPnl += pnl;
      this.touch(pp); // keeps its entry price for the closing view
      pp.size = 0n;
      pp.cost = 0n;
      this.touch(pp);
      mm.positions.delete(userId);
      const um = this.userMarkets.get(userId);
      um?.delete(mm.cfg.symbol);
      if (um !== undefined && um.size === 0) this.userMarkets.delete(userId);
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.host.events.push({
        type: 'perpTrade',
        ts: this.ts,
        tradeId: this.host.allocTradeId(),
        symbol: mm.cfg.symbol,
        kind: 'TAKEOVER',
        price: entryPriceOf(takeover < 0n ? 0n : takeover, size, mm.mult),
        quantity: size,
        quoteAmount: takeover,
        takerSide: closeSide,
        makerOrderId: null,
        takerOrderId: o.orderId,
        makerUserId: INSURANCE,
        takerUserId: userId,
        makerFee: 0n,
        takerFee: 0n,
        makerRealizedPnl: 0n,
        takerRealizedPnl: pnl,
      });
      this.ended(o);
      this.addFundPosition(mm, side, size, takeover);
      taken.push({ m: mm, side, size, cost: takeover });
    }
    // 4. The fund closes what it took over in the book, no worse than its balance can pay; 5. the rest by ADL.
    for (const t of taken) this.fundClose(t.m);
    this.host.events.push({
      type: 'liquidated',
      ts: this.ts,
      userId,
      symbol: m.cfg.symbol,
      marginMode: mode,
      markPrice: m.markPrice as bigint,
      equity,
      insuranceDelta: fund.available - fundBefore,
      size: size0,
      side: side0,
    });
  }

  /** The insurance fund takes over a position (adds to its own, which it closes in the same command). */
  private addFundPosition(m: PerpMarket, side: PositionSide, size: bigint, cost: bigint): void {
    let f = m.positions.get(INSURANCE);
    if (f !== undefined && f.side !== side) {
      // Opposite takeovers net out: close the fund's existing position against this one at its own cost share.
      const cq = size < f.size ? size : f.size;
      const closeNotional = cq === size ? cost : (cost * cq) / size;
      this.closePart(m, f, cq, closeNotional);
      size -= cq;
      cost -= closeNotional;
      if (size === 0n) return;
      f = m.positions.get(INSURANCE);
    }
    if (f === undefined) {
      f = {
        userId: INSURANCE,
        symbol: m.cfg.symbol,
        side,
        size: 0n,
        cost: 0n,
        margin: 0n,
        mode: 'CROSS',
        leverage: 1,
        realizedPnl: 0n,
        funding: 0n,
        fees: 0n,
        tp: null,
        sl: null,
        openTs: this.ts,
        updatedTs: this.ts,
      };
      m.positions.set(INSURANCE, f);
    }
    f.size += size;
    f.cost += cost;
    this.touch(f);
  }

  /**
   * The insurance fund's close of its position in a market: an IOC order limited at the bankruptcy price (the fund's
   * entry; never beyond the price band), so the fund only gains in the book, then auto-deleveraging of the rest
   * against the most profitable opposite positions (Binance's ranking: PnL ratio times effective leverage) at the
   * fund's entry (the bankruptcy price).
   */
  private fundClose(m: PerpMarket): void {
    const f = m.positions.get(INSURANCE);
    if (f === undefined || f.size === 0n) return;
    const n = f.size * m.mult;
    const t = m.cfg.tickSize;
    // The limit is the bankruptcy price (the fund's entry, cost / size), rounded on the tick away from a loss: the
    // fund never sells below nor buys above it, so a fill can only gain (Binance: the liquidation order is sent at the
    // bankruptcy price; what it cannot fill is auto-deleveraged). Never outside the price band either.
    let limit: bigint;
    if (f.side === 'LONG') {
      const p = (f.cost + n - 1n) / n;
      limit = ((p + t - 1n) / t) * t;
      const low = m.bandLow();
      if (limit < low) limit = low;
    } else {
      const p = f.cost / n;
      limit = (p / t) * t;
      const high = m.bandHigh();
      if (limit > high) limit = high;
    }
    if (limit > 0n && m.book.bestPrice(f.side === 'LONG' ? 'BUY' : 'SELL') !== null) {
      const seq = this.host.allocOrderSeq();
      const o = new PerpOrder(
        seq,
        `${seq}`,
        null,
        INSURANCE,
        m.cfg.symbol,
        f.side === 'LONG' ? 'SELL' : 'BUY',
        'LIMIT',
        'IOC',
        limit,
        f.size,
        null,
        m.cfg.quote,
        'EXPIRE_TAKER',
        this.ts,
      );
      o.reduceOnly = true;
      o.trigger = 'LIQUIDATION';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = 1;
      this.orders.set(seq, o);
      this.host.events.push({ type: 'perpOrderAccepted', ts: this.ts, order: o.perpView() });
      this.match(m, o);
      o.status = o.remaining === 0n ? 'FILLED' : 'EXPIRED';
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.ended(o);
    }
    this.adl(m);
    // Orders of users whose positions the fund's close or ADL reduced to nothing.
    this.expireReduceOnly(m);
  }

  /** Auto-deleveraging of the fund's remaining position (see fundClose). */
  private adl(m: PerpMarket): void {
    const f = m.positions.get(INSURANCE);
    if (f === undefined || f.size === 0n) return;
    const opp: PositionSide = f.side === 'LONG' ? 'SHORT' : 'LONG';
    const mark = m.markPrice as bigint;
    const ranked: { p: Pos; num: bigint; den: bigint }[] = [];
    for (const p of m.positions.values()) {
      if (p.side !== opp || p.userId === INSURANCE) continue;
      const v = p.size * mark * m.mult;
      const pnl = unrealizedPnl(p.side, p.size, p.cost, mark, m.mult);
      const eq = p.mode === 'ISOLATED' ? p.margin + pnl : this.crossFigures(p.userId).wallet + this.crossUpnl(p.userId);
      const e = eq > 0n ? eq : 1n;
      // Binance: profit% x effective leverage when profitable (pnl/cost x value/equity), else profit% / leverage.
      ranked.push(pnl > 0n ? { p, num: pnl * v, den: p.cost * e } : { p, num: pnl * e, den: p.cost * v });
    }
    ranked.sort((x, y) => {
      const a = x.num * y.den;
      const b = y.num * x.den;
      return a > b ? -1 : a < b ? 1 : x.p.userId < y.p.userId ? -1 : x.p.userId > y.p.userId ? 1 : 0;
    });
    for (const r of ranked) {
      if (f.size === 0n) break;
      const p = r.p;
      const q = f.size < p.size ? f.size : p.size;
      const notional = q === f.size ? f.cost : (f.cost * q) / f.size;
      // The fund closes at its own entry (PnL 0); the user closes q at that notional.
      this.closePart(m, f, q, notional);
      const pnl = this.closePart(m, p, q, notional);
      const seq = this.host.allocOrderSeq();
      const closeSide: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
      const o = new PerpOrder(seq, `${seq}`, null, p.userId, m.cfg.symbol, closeSide, 'MARKET', 'IOC', null, q, null, m.cfg.quote, 'EXPIRE_TAKER', this.ts);
      o.reduceOnly = true;
      o.trigger = 'ADL';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = p.leverage;
      o.marginMode = p.mode;
      o.filledQty = q;
      o.filledQuote = notional;
      o.remaining = 0n;
      o.realizedPnl = pnl;
      o.status = 'FILLED';
      this.orders.set(seq, o);
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.host.events.push({
        type: 'perpTrade',
        ts: this.ts,
        tradeId: this.host.allocTradeId(),
        symbol: m.cfg.symbol,
        kind: 'ADL',
        price: entryPriceOf(notional, q, m.mult),
        quantity: q,
        quoteAmount: notional,
        takerSide: closeSide,
        makerOrderId: null,
        takerOrderId: o.orderId,
        makerUserId: INSURANCE,
        takerUserId: p.userId,
        makerFee: 0n,
        takerFee: 0n,
        makerRealizedPnl: 0n,
        takerRealizedPnl: pnl,
      });
      this.ended(o);
    }
  }

  // ---- funding --------------------------------------------------------------------------------

  private funding(cmd: Extract<PerpCommand, { type: 'perpFunding' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    const c = m.cfg;
    if (!isInt(cmd.fundingTs, 1, 9_007_199_254_740_991) || cmd.fundingTs % c.fundingIntervalMs !== 0) return reject('invalid_config');
    if (cmd.fundingTs > cmd.ts || cmd.fundingTs <= m.lastFundingTs) return reject('funding_not_due');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    const rate = fundingRateE8(m.premiumWeighted, m.premiumWeights, c.interestRateE8, c.fundingCapE8);
    const pool = this.sys('@funding', c.quote);
    let paid = 0n;
    let received = 0n;
    let count = 0;
    const pays: [Pos, bigint][] = [];
    const gets: [Pos, bigint][] = [];
    for (const p of m.positions.values()) {
      if (p.userId === INSURANCE) continue;
      const amt = fundingPayment(p.side, p.size, mark, m.mult, rate);
      count++;
      if (amt < 0n) pays.push([p, amt]);
      else if (amt > 0n) gets.push([p, amt]);
    }
    // Funding passes from payers to receivers and never draws on the insurance fund: what a payer cannot pay (its
    // margin, available balance and cross margins are gone: a position past bankruptcy between two ticks) is not paid,
    // and every receiver then gets its share of what was collected, floor(amount x collected / owed).
    let owed = 0n;
    for (const [p, amt] of pays) {
      const unpaid = this.pay(p.userId, c.quote, -amt, pool, p.mode === 'ISOLATED' ? p : null, null, false);
      const got = -amt - unpaid;
      owed += -amt;
      paid += got;
      p.funding -= got;
      this.touch(p);
      this.host.events.push({ type: 'fundingPayment', ts: cmd.ts, userId: p.userId, symbol: c.symbol, fundingTs: cmd.fundingTs, rateE8: rate, amount: -got });
    }
    for (const [p, full] of gets) {
      const amt = paid < owed ? (full * paid) / owed : full;
      if (amt === 0n) continue;
      const a = this.acc(p.userId, c.quote);
      this.ledger.post(pool, 'available', a, 'available', amt);
      if (p.mode === 'ISOLATED') {
        this.ledger.hold(a, amt);
        p.margin += amt;
      }
      received += amt;
      p.funding += amt;
      this.touch(p);
      this.host.events.push({ type: 'fundingPayment', ts: cmd.ts, userId: p.userId, symbol: c.symbol, fundingTs: cmd.fundingTs, rateE8: rate, amount: amt });
    }
    m.lastFundingRateE8 = rate;
    m.lastFundingTs = cmd.fundingTs;
    m.premiumWeighted = 0n;
    m.premiumWeights = 0n;
    m.premiumCount = 0;
    this.host.events.push({
      type: 'fundingSettled',
      ts: cmd.ts,
      symbol: c.symbol,
      fundingTs: cmd.fundingTs,
      rateE8: rate,
      markPrice: mark,
      paid,
      received,
      positions: count,
    });
    return { code: 'ok', events: this.host.events };
  }

  // ---- reads ----------------------------------------------------------------------------------

  private markState(m: PerpMarket): PerpMarkState {
    return {
      symbol: m.cfg.symbol,
      indexPrice: m.indexPrice,
      markPrice: m.markPrice,
      lastPrice: m.lastPrice,
      predictedFundingRateE8: fundingRateE8(m.premiumWeighted, m.premiumWeights, m.cfg.interestRateE8, m.cfg.fundingCapE8),
      lastFundingRateE8: m.lastFundingRateE8,
      nextFundingTs: this.nextFunding(m),
      markTs: m.markTs,
    };
  }

  private view(p: Pos): PositionView {
    const m = this.markets.get(p.symbol) as PerpMarket;
    return {
      userId: p.userId,
      symbol: p.symbol,
      side: p.side,
      size: p.size,
      cost: p.cost,
      entryPrice: p.size > 0n ? entryPriceOf(p.cost, p.size, m.mult) : (p.entry ?? 0n),
      margin: p.margin,
      marginMode: p.mode,
      leverage: p.leverage,
      realizedPnl: p.realizedPnl,
      funding: p.funding,
      fees: p.fees,
      takeProfit: p.tp,
      stopLoss: p.sl,
      openTs: p.openTs,
      updatedTs: p.updatedTs,
    };
  }

  perpMarket(symbol: string): PerpMarketConfig | undefined {
    const m = this.markets.get(symbol);
    return m === undefined ? undefined : copyConfig(m.cfg);
  }
  /** True when some perpetual market settles in `asset` (its CONTRACT balance then backs margin). */
  settlesIn(asset: string): boolean {
    for (const m of this.markets.values()) if (m.cfg.quote === asset) return true;
    return false;
  }
  /** The settle asset of a perpetual market, or undefined for an unknown market (rebate accrual, engine.ts). */
  settleAssetOf(symbol: string): string | undefined {
    return this.markets.get(symbol)?.cfg.quote;
  }
  perpMarkets(): PerpMarketConfig[] {
    return [...this.markets.values()].map((m) => copyConfig(m.cfg));
  }
  perpMarkState(symbol: string): PerpMarkState | undefined {
    const m = this.markets.get(symbol);
    return m === undefined ? undefined : this.markState(m);
  }
  perpOrder(orderId: string): PerpOrderView | undefined {
    return this.orders.get(seqOf(orderId))?.perpView();
  }
  perpOpenOrders(userId: string, symbol?: string): PerpOrderView[] {
    const out: PerpOrderView[] = [];
    for (const o of this.open.get(userId)?.values() ?? []) if (symbol === undefined || o.symbol === symbol) out.push(o.perpView());
    return out;
  }
  perpDepth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const m = this.markets.get(symbol);
    if (m === undefined) return { bids: [], asks: [] };
    return { bids: m.book.depth('BUY', levels), asks: m.book.depth('SELL', levels) };
  }
  position(userId: string, symbol: string): PositionView | undefined {
    const p = this.markets.get(symbol)?.positions.get(userId);
    return p === undefined ? undefined : this.view(p);
  }
  positions(userId: string): PositionView[] {
    const out: PositionView[] = [];
    for (const m of this.markets.values()) {
      const p = m.positions.get(userId);
      if (p !== undefined) out.push(this.view(p));
    }
    return out;
  }
  perpSettings(userId: string, symbol: string): PerpSettings {
    return { ...this.settingsOf(userId, symbol) };
  }
  perpAccount(userId: string): PerpAccountView {
    const s = this.anySettle();
    const b = s === null ? { available: 0n, frozen: 0n } : this.ledger.balance(userId, 'CONTRACT', s);
    const f = this.crossFigures(userId);
    const bal = f.wallet + f.upnl;
    const mm = (f.mmE6 + E6 - 1n) / E6;
    const avail = b.available + (f.upnl < 0n ? f.upnl : 0n);
    const spend = s === null ? 0n : this.spendable(userId, s);
    return {
      walletBalance: b.available + b.frozen,
      crossWalletBalance: f.wallet,
      crossUnrealizedPnl: f.upnl,
      crossMarginBalance: bal,
      crossMaintMargin: mm,
      availableBalance: avail > 0n ? avail : 0n,
      maxWithdrawAmount: spend,
      riskLevelPpm: f.positions === 0 ? 0 : bal <= 0n ? 1_000_000_000 : toSafeInt(f.mmE6 / bal < 1_000_000_000n ? f.mmE6 / bal : 1_000_000_000n),
    };
  }
  perpLeverageMarginMove(userId: string, symbol: string, leverage: number): { position: bigint; orders: bigint } | undefined {
    const m = this.markets.get(symbol);
    if (m === undefined || !isInt(leverage, 1, 125)) return undefined;
    const p = m.positions.get(userId);
    let orders = 0n;
    for (const o of this.open.get(userId)?.values() ?? [])
      if (o.symbol === symbol && !o.reduceOnly && o.leverage !== leverage) orders += this.orderHoldMove(m, o, leverage);
    return { position: p === undefined ? 0n : this.leverageMarginMove(m, p, leverage), orders };
  }
  positionCount(symbol: string): number {
    const m = this.markets.get(symbol);
    if (m === undefined) return 0;
    return m.positions.size - (m.positions.has(INSURANCE) ? 1 : 0);
  }

  // ---- snapshot -------------------------------------------------------------------------------

  /** JSON-serializable state (bigints as strings), in the Maps' orders. */
  rows(): PerpSnapshot {
    const s = (v: bigint | null): string | null => (v === null ? null : v.toString());
    const orderRow = (o: PerpOrder): unknown[] => [
      o.seq,
      o.clientOrderId,
      o.userId,
      o.symbol,
      o.side,
      o.orderType,
      o.timeInForce,
      s(o.price),
      s(o.quantity),
      o.createdTs,
      o.updatedTs,
      o.status,
      o.filledQty.toString(),
      o.filledQuote.toString(),
      o.fee.toString(),
      o.remaining.toString(),
      o.hold.toString(),
      o.lots,
      o.reduceOnly,
      o.tradeType,
      o.trigger,
      o.leverage,
      o.marginMode,
      o.realizedPnl.toString(),
      s(o.takeProfit),
      s(o.stopLoss),
    ];
    const open: unknown[] = [];
    for (const o of [...this.orders.values()].sort((x, y) => x.seq - y.seq)) if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') open.push(orderRow(o));
    return {
      markets: [...this.markets.values()].map((m) => ({
        config: configRow(m.cfg),
        lastPrice: s(m.lastPrice),
        indexPrice: s(m.indexPrice),
        markPrice: s(m.markPrice),
        markTs: m.markTs,
        basis: m.basis.map(String),
        basisHead: m.basisHead,
        premiumWeighted: m.premiumWeighted.toString(),
        premiumWeights: m.premiumWeights.toString(),
        premiumCount: m.premiumCount,
        lastFundingRateE8: m.lastFundingRateE8,
        lastFundingTs: m.lastFundingTs,
        positions: [...m.positions.values()].map((p) => [
          p.userId,
          p.side,
          p.size.toString(),
          p.cost.toString(),
          p.margin.toString(),
          p.mode,
          p.leverage,
          p.realizedPnl.toString(),
          p.funding.toString(),
          p.fees.toString(),
          s(p.tp),
          s(p.sl),
          p.openTs,
          p.updatedTs,
        ]),
      })),
      openOrders: open,
      closedOrders: this.closed.map(orderRow),
      settings: [...this.settings.entries()].flatMap(([u, mm]) => [...mm.entries()].map(([sym, st]) => [u, sym, st.leverage, st.marginMode])),
      userMarkets: [...this.userMarkets.entries()].map(([u, set]) => [u, [...set]]),
    };
  }

  /** Rebuilds the state from `rows()` (the ledger is restored by the engine). */
  static restore(d: PerpSnapshot, bookKind: BookKind, scaleOf: (code: string) => number | undefined, ledger: Ledger): PerpState {
    const st = new PerpState(bookKind, ledger);
    const big = (v: unknown): bigint | null => (v === null ? null : BigInt(v as string));
    for (const r of d.markets) {
      const cfg = parseConfig(r.config);
      const m = new PerpMarket(cfg, perpNotionalMult(scaleOf(cfg.quote) as number, cfg.priceDecimals, cfg.qtyDecimals), bookKind);
      m.lastPrice = big(r.lastPrice);
      m.indexPrice = big(r.indexPrice);
      m.markPrice = big(r.markPrice);
      m.markTs = r.markTs;
      m.basis = r.basis.map((b) => BigInt(b));
      m.basisHead = r.basisHead;
      m.basisSum = m.basis.reduce((x, y) => x + y, 0n);
      m.premiumWeighted = BigInt(r.premiumWeighted);
      m.premiumWeights = BigInt(r.premiumWeights);
      m.premiumCount = r.premiumCount;
      m.lastFundingRateE8 = r.lastFundingRateE8;
      m.lastFundingTs = r.lastFundingTs;
      for (const p of r.positions) {
        const [userId, side, size, cost, margin, mode, leverage, rp, fu, fe, tp, sl, openTs, updatedTs] = p as [
          string,
          PositionSide,
          string,
          string,
          string,
          MarginMode,
          number,
          string,
          string,
          string,
          string | null,
          string | null,
          number,
          number,
        ];
        m.positions.set(userId, {
          userId,
          symbol: cfg.symbol,
          side,
          size: BigInt(size),
          cost: BigInt(cost),
          margin: BigInt(margin),
          mode,
          leverage,
          realizedPnl: BigInt(rp),
          funding: BigInt(fu),
          fees: BigInt(fe),
          tp: big(tp),
          sl: big(sl),
          openTs,
          updatedTs,
          entry: entryPriceOf(BigInt(cost), BigInt(size), m.mult),
        });
      }
      st.markets.set(cfg.symbol, m);
    }
    const toOrder = (r: unknown[]): PerpOrder => {
      const o = new PerpOrder(
        r[0] as number,
        `${r[0] as number}`,
        r[1] as string | null,
        r[2] as string,
        r[3] as string,
        r[4] as Side,
        r[5] as 'LIMIT' | 'MARKET',
        r[6] as PerpOrder['timeInForce'],
        big(r[7]),
        big(r[8]),
        null,
        (st.markets.get(r[3] as string) as PerpMarket).cfg.quote,
        'EXPIRE_TAKER',
        r[9] as number,
      );
      o.updatedTs = r[10] as number;
      o.status = r[11] as PerpOrder['status'];
      o.filledQty = BigInt(r[12] as string);
      o.filledQuote = BigInt(r[13] as string);
      o.fee = BigInt(r[14] as string);
      o.remaining = BigInt(r[15] as string);
      o.hold = BigInt(r[16] as string);
      o.lots = r[17] as number;
      o.reduceOnly = r[18] as boolean;
      o.tradeType = r[19] as PerpTradeType;
      o.trigger = r[20] as PerpTrigger | null;
      o.leverage = r[21] as number;
      o.marginMode = r[22] as MarginMode;
      o.realizedPnl = BigInt(r[23] as string);
      o.takeProfit = big(r[24]);
      o.stopLoss = big(r[25]);
      st.orders.set(o.seq, o);
      if (o.clientOrderId !== null) {
        let cm = st.clientIds.get(o.userId);
        if (cm === undefined) st.clientIds.set(o.userId, (cm = new Map()));
        cm.set(o.clientOrderId, o);
      }
      return o;
    };
    for (const r of d.openOrders) {
      const o = toOrder(r as unknown[]);
      (st.markets.get(o.symbol) as PerpMarket).book.add(o);
      let om = st.open.get(o.userId);
      if (om === undefined) st.open.set(o.userId, (om = new Map()));
      om.set(o.seq, o);
    }
    for (const r of d.closedOrders) st.closed.push(toOrder(r as unknown[]));
    for (const [u, sym, lev, mode] of d.settings as [string, string, number, MarginMode][]) {
      let mm = st.settings.get(u);
      if (mm === undefined) st.settings.set(u, (mm = new Map()));
      mm.set(sym, { leverage: lev, marginMode: mode });
    }
    for (const [u, syms] of d.userMarkets as [string, string[]][]) st.userMarkets.set(u, new Set(syms));
    return st;
  }
}

/** The perpetual part of an engine snapshot. */
export interface PerpSnapshot {
  markets: {
    config: Record<string, unknown>;
    lastPrice: string | null;
    indexPrice: string | null;
    markPrice: string | null;
    markTs: number;
    basis: string[];
    basisHead: number;
    premiumWeighted: string;
    premiumWeights: string;
    premiumCount: number;
    lastFundingRateE8: number;
    lastFundingTs: number;
    positions: unknown[];
  }[];
  openOrders: unknown[];
  closedOrders: unknown[];
  settings: unknown[];
  userMarkets: unknown[];
}

function copyConfig(c: PerpMarketConfig): PerpMarketConfig {
  return { ...c, brackets: c.brackets.map((b) => ({ ...b })) };
}
function configRow(c: PerpMarketConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) out[k] = typeof v === 'bigint' ? v.toString() : v;
  out.brackets = c.brackets.map((b) => ({ notionalCap: b.notionalCap.toString(), maxLeverage: b.maxLeverage, maintMarginPpm: b.maintMarginPpm }));
  return out;
}
function parseConfig(r: Record<string, unknown>): PerpMarketConfig {
  const b = (k: string): bigint => BigInt(r[k] as string);
  return {
    ...(r as unknown as PerpMarketConfig),
    tickSize: b('tickSize'),
    stepSize: b('stepSize'),
    minQty: b('minQty'),
    lotNotional: b('lotNotional'),
    impactNotional: b('impactNotional'),
    brackets: (r.brackets as { notionalCap: string; maxLeverage: number; maintMarginPpm: number }[]).map((x) => ({
      notionalCap: BigInt(x.notionalCap),
      maxLeverage: x.maxLeverage,
      maintMarginPpm: x.maintMarginPpm,
    })),
  };
}
