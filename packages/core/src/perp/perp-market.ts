/**
 * The perpetuals' market state and shared pieces: a perpetual order (a spot `Order` with the perpetual fields), a
 * position, one market's book, mark, basis and premium samples and positions, what the state machine needs from the
 * engine (`PerpHost`), and the limits and small helpers the other perp-*.ts files share. The state machine is built in
 * layers, each a file that only calls the ones below it: perp-margin.ts (accounts, payments, the risk figures),
 * perp-settlement.ts (fills into positions), perp-orders.ts, perp-settings.ts (markets, leverage, margin mode, margin,
 * TP/SL), perp-adl.ts, perp-liquidation.ts (mark ticks, triggers, liquidation), perp-funding.ts, and perp-engine.ts
 * (the command router, the reads and the snapshot).
 */
import type { Ledger } from '../ledger/ledger';
import type { BookKind, OrderBook } from '../spot/book';
import { FastOrderBook } from '../spot/fast-book';
import { NaiveOrderBook } from '../spot/naive-book';
import { Order } from '../spot/order';
import type { CommandResult, EngineEvent, RejectCode } from '../types';
import { type BracketTier, bracketTiers } from './math';
import {
  DEFAULT_LEVERAGE,
  type MarginMode,
  type PerpConditionView,
  type PerpMarketConfig,
  type PerpOrderView,
  type PerpTradeType,
  type PerpTrigger,
  type PositionSide,
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
export const E6 = 1_000_000n;
/** Most resting perpetual orders per user and market (as spot's MAX_NUM_ORDERS). */
export const MAX_PERP_OPEN_ORDERS = 200;
/** Changes one order may take through perpAmendOrder (Binance USDⓈ-M "Modify Order": at most 10,000 per order). */
export const MAX_AMENDS_PER_ORDER = 10_000;
/** Ended perpetual orders kept for perpOrder() and retries (history belongs to the database). */
export const PERP_CLOSED_RETENTION = 1_000;
export const MAX_LOTS = 1_000_000_000;
/** Liquidation rounds per mark tick (see liquidations()). */
export const MAX_LIQUIDATION_ROUNDS = 16;
export const TIFS = new Set(['GTC', 'IOC', 'FOK', 'POST_ONLY']);

/**
 * Every rejection a perpetuals' command may answer: a closed list, the compiler refuses any other code in the perp-*.ts
 * files. Listed in the order of the engine's union (REJECT_CODES); the checks themselves run in the order
 * docs/perpetuals.md gives.
 */
export const PERP_REJECT_CODES = [
  'market_exists',
  'invalid_config',
  'asset_not_found',
  'market_not_found',
  'account_frozen',
  'market_halted',
  'invalid_order',
  'price_required',
  'price_not_on_tick',
  'quantity_required',
  'quantity_not_on_step',
  'quantity_below_minimum',
  'amount_invalid',
  'too_many_open_orders',
  'insufficient_balance',
  'would_take_liquidity',
  'no_liquidity',
  'would_trigger_immediately',
  'order_not_found',
  'mark_price_unavailable',
  'price_out_of_band',
  'reduce_only_rejected',
  'leverage_invalid',
  'leverage_too_high',
  'position_exists',
  'no_position',
  'margin_mode_invalid',
  'take_profit_invalid',
  'stop_loss_invalid',
  'funding_not_due',
  'index_stale',
  'amend_limit_reached',
] as const satisfies readonly RejectCode[];
/** A perpetuals' command's rejection (PERP_REJECT_CODES). */
export type PerpRejectCode = (typeof PERP_REJECT_CODES)[number];

/** A rejection of a perpetuals' command: `code` and no events (nothing changed). */
export function reject(code: PerpRejectCode): CommandResult {
  return { code, events: [] };
}
export function isInt(n: unknown, min: number, max: number): n is number {
  return typeof n === 'number' && n >= min && n <= max && Math.floor(n) === n;
}
/** The sequence number of a canonical order id ("1", "42"), or -1 (matches nothing). */
export function seqOf(id: unknown): number {
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,14}$/.test(id)) return -1;
  let v = 0;
  for (let i = 0; i < id.length; i++) v = v * 10 + (id.charCodeAt(i) - 48);
  return v;
}
export function cmpBig(a: bigint, b: bigint): number {
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
  /** A conditional order's condition and trigger state (perp-conditional.ts); null for every other order. */
  algo: PerpConditionView | null = null;
  /** How many times perpAmendOrder changed the order (at most MAX_AMENDS_PER_ORDER). */
  amendCount = 0;

  /** True for a conditional order still waiting for its trigger (open, not in the book, no margin held). */
  get isPendingAlgo(): boolean {
    return this.algo !== null && this.algo.workingTs === null && (this.status === 'NEW' || this.status === 'PARTIALLY_FILLED');
  }

  /** The public view (`condition` only on a conditional order). */
  perpView(): PerpOrderView {
    const v = this.baseView();
    if (this.algo !== null) v.condition = { ...this.algo };
    return v;
  }

  private baseView(): PerpOrderView {
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
export interface Pos {
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
export class PerpMarket {
  readonly tiers: BracketTier[];
  readonly book: OrderBook;
  lastPrice: bigint | null = null;
  indexPrice: bigint | null = null;
  markPrice: bigint | null = null;
  markTs = 0;
  /**
   * Unix ms of the first stale index tick of the current pause (perpMarkPrice with indexStale), null while the index
   * is fresh. While set the mark holds, liquidation is skipped and orders that could open or grow a position are
   * refused (index_stale).
   */
  indexStaleSince: number | null = null;
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
  /** pending conditional orders by seq, in seq order (derived: rebuilt from the open orders at restore) */
  readonly pending = new Map<number, PerpOrder>();

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

/** A deep copy of a market config (its brackets are objects). */
export function copyConfig(c: PerpMarketConfig): PerpMarketConfig {
  return { ...c, brackets: c.brackets.map((b) => ({ ...b })) };
}
