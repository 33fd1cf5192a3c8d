/**
 * The liquidity bot of one spot market (ARCHITECTURE.md section 9, market data): keeps a ladder of bids and asks
 * around the reference price, shaped on a real Binance book (depth-profile.ts), and sends taker orders in the
 * direction of the move so real trades print and candles move. Every order goes through the spot order service, the same
 * layer as users' orders (no back door into the book).
 *
 * Two bot users per market, funded from '@faucet' up to a target holding (a restart deposits only a shortfall):
 * - 'mm-<BASE>-<QUOTE>' quotes the ladder;
 * - 'mm-<BASE>-<QUOTE>-taker' sends the taker orders (a separate user, because self-trade prevention would
 *   expire a taker order that meets the same user's resting order).
 *
 * Live volume: the taker flow is sized so that each minute trades about the volume of the
 * reference path's 1-minute bar, the same figure the seeded k-line history shows for that minute (the history is
 * not rescaled). Each order carries the volume of its interval times a factor drawn from the deciles of 3-second
 * windows of Binance's real trade tape, so the flow is as uneven as the real one.
 *
 * Command rate: one re-quote every 2-3 s (`requoteBudget` commands: BOT_REQUOTE_BUDGET, more while the core of the
 * book is being rebuilt after a fast move, plus cancels of orders that would cross) and one taker order every 2-4 s
 * per market; `npm run book-shape` measures it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { formatDecimal, MAX_OPEN_ORDERS_PER_MARKET, parseDecimal, pow10, type MarketConfig, type Side } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import {
  anchorOf,
  baseForQuote,
  computeLadder,
  planRequote,
  qtyForNotional,
  recenter,
  referenceToTicks,
  ticksForBps,
  type DepthPoint,
  type Ladder,
  type LadderMarket,
  type LadderParams,
} from './ladder';
import { BINANCE_ETHUSDT } from './depth-profile';
import { hashString, Prng } from './prng';

/** Best ask minus best bid in ticks: Binance's BTCUSDT and ETHUSDT books sit at one tick 99% of the time. */
export const BOT_SPREAD_TICKS = 1n;
/** Levels right behind each best price, ticks behind it. */
export const BOT_CLUSTER_TICKS: readonly bigint[] = [1n, 2n];
/** Further levels, ppm of the reference (0.25 bps .. 1%): dense near the mid, wider apart further out. */
export const BOT_LEVEL_PPM: readonly bigint[] = [25n, 50n, 100n, 200n, 350n, 500n, 700n, 1000n, 1500n, 2000n, 3000n, 4000n, 5500n, 7500n, 10000n];
/**
 * The ladder's centre follows the reference once it is more than this far away (see `recenter`), ppm: 2 bps, or
 * three times the reference's average move between two re-quotes when that is more (`centerHysteresisPpm`). Within
 * a few bps nothing of it shows on a chart, and every move of the centre costs a re-pricing of the levels near it.
 */
export const BOT_CENTER_HYSTERESIS_PPM = 200n;
/** ... at most this far (10 bps). */
export const BOT_CENTER_HYSTERESIS_MAX_PPM = 1000n;
/** Levels per side at most (best + cluster + ppm levels). */
export const BOT_LEVELS = 1 + BOT_CLUSTER_TICKS.length + BOT_LEVEL_PPM.length;
/** Size variation of a level around its profile value, per mille. */
export const BOT_VARIATION_PERMILLE = 300;
/** Maker funding per asset = this many per mille of the ladder's depth to 1% (the profile's last point); the taker gets a tenth. */
export const BOT_FUNDING_PERMILLE = 3000n;
/** The core of the book, ppm of the centre (0.1%): its missing levels raise the re-quote budget (`requoteBudget`). */
export const BOT_CORE_PPM = 1000n;
/** Most commands of one ordinary re-quote (cancels of crossing orders come on top). */
export const BOT_REQUOTE_BUDGET = 8;
/**
 * Stale orders the maker may hold beyond its ladder while it re-quotes (then stale ones are cancelled before new
 * levels go in); with the ladder this stays far below the engine's MAX_OPEN_ORDERS_PER_MARKET per user.
 */
export const BOT_STALE_SLACK = 8;
/** Interval between two cycles (re-quote, maybe a taker order) of one market, ms (uniform). */
export const BOT_CYCLE_MIN_MS = 2_000;
export const BOT_CYCLE_MAX_MS = 3_000;
/** Interval between two taker orders of one market, ms (uniform; due at the first cycle after it). */
export const BOT_TAKER_MIN_MS = 2_000;
export const BOT_TAKER_MAX_MS = 4_000;
/** A taker order crosses the book up to this far beyond the reference, bps. */
export const BOT_TAKER_SLIP_BPS = 20n;
/** Slices of one cycle's taker flow at most (each takes the best level, then the re-quote renews it). */
export const BOT_TAKER_MAX_SLICES = 3;
/** A taker order stands for at most this much time since the one before (ms). */
export const BOT_TAKER_MAX_ELAPSED_MS = 10_000;

/**
 * Commands of one re-quote: BOT_REQUOTE_BUDGET, plus two for every ladder level within BOT_CORE_PPM of the centre
 * that is missing from the open orders (after a fast move of the reference the core of the book is rebuilt at
 * once, and a quiet market spends little), at most the whole ladder (also for the first build).
 */
export function requoteBudget(open: ReadonlyArray<{ side: Side; price: bigint }>, ladder: Ladder, center: bigint): number {
  const have = new Set(open.map((o) => `${o.side}:${o.price}`));
  let missing = 0;
  for (const l of [...ladder.bids, ...ladder.asks]) {
    const dist = l.price > center ? l.price - center : center - l.price;
    if (dist * 1_000_000n <= BOT_CORE_PPM * center && !have.has(`${l.side}:${l.price}`)) missing++;
  }
  return Math.min(2 * BOT_LEVELS + 2, BOT_REQUOTE_BUDGET + 2 * missing);
}

/**
 * The taker order for `target` (qty units) against the best opposite level: at most that level's quantity at its
 * price, the rest `owed`; the whole target at `limit` (walking the book) when there is no best level within it.
 */
export function takerSlice(
  side: Side,
  target: bigint,
  best: { price: bigint; quantity: bigint } | undefined,
  limit: bigint,
): { price: bigint; quantity: bigint; owed: bigint } {
  const within = best !== undefined && (side === 'BUY' ? best.price <= limit : best.price >= limit);
  if (!within) return { price: limit, quantity: target, owed: 0n };
  const quantity = target < best.quantity ? target : best.quantity;
  return { price: best.price, quantity, owed: target - quantity };
}

/**
 * The centre's hysteresis for an average move of `moveEwmaPpm` (ppm of the reference between two re-quotes):
 * three moves, within [BOT_CENTER_HYSTERESIS_PPM, BOT_CENTER_HYSTERESIS_MAX_PPM].
 */
export function centerHysteresisPpm(moveEwmaPpm: bigint): bigint {
  const h = 3n * moveEwmaPpm;
  return h < BOT_CENTER_HYSTERESIS_PPM ? BOT_CENTER_HYSTERESIS_PPM : h > BOT_CENTER_HYSTERESIS_MAX_PPM ? BOT_CENTER_HYSTERESIS_MAX_PPM : h;
}

/** Bot user ids of a market (non-numeric, so they never collide with database users). */
export function botUserIds(m: Pick<MarketConfig, 'base' | 'quote'>): { maker: string; taker: string } {
  const maker = `mm-${m.base}-${m.quote}`;
  return { maker, taker: `${maker}-taker` };
}

/**
 * The ladder parameters for a reference price and a depth profile (quote units, see depth-profile.ts): one-tick
 * spread, the two-tick cluster, the ppm levels on the anchor of the reference, sizes varied by the symbol's seed.
 */
export function ladderParams(
  refPrice: bigint,
  m: LadderMarket & { symbol: string },
  profile: readonly DepthPoint[],
  spreadTicks: bigint = BOT_SPREAD_TICKS,
): LadderParams {
  return {
    spreadTicks,
    clusterTicks: BOT_CLUSTER_TICKS,
    levelPpm: BOT_LEVEL_PPM,
    anchor: anchorOf(refPrice),
    profile,
    variationPermille: BOT_VARIATION_PERMILLE,
    seed: hashString(m.symbol),
  };
}

/**
 * Quantity (qty units) of one taker order: the reference's volume for the minute (`minuteQty`, qty units) times
 * the share of the minute the order stands for (`intervalMs`), times a window factor `decile` per mille of the mean
 * (one of `deciles`, drawn uniformly: their mean counts as 1x), rounded down to the step; 0 when nothing is to trade.
 */
export function takerQuantity(minuteQty: bigint, intervalMs: number, decile: bigint, deciles: readonly bigint[], stepSize: bigint): bigint {
  const mean = deciles.reduce((a, b) => a + b, 0n);
  if (mean <= 0n || minuteQty <= 0n) return 0n;
  const qty = (minuteQty * BigInt(intervalMs) * decile * BigInt(deciles.length)) / (60_000n * mean);
  return (qty / stepSize) * stepSize;
}

/** A business error thrown by the spot order service (AppError) carries a code. */
function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof (err as { code: unknown }).code === 'string'
    ? (err as { code: string }).code
    : undefined;
}

/** An order of the bot, as the spot order service takes it (decimal strings at the market's decimals). */
export interface BotOrder {
  pairsName: string;
  side: Side;
  orderType: 'LIMIT';
  timeInForce: 'GTC' | 'IOC';
  price: string;
  amount: string;
  clientOrderId: string;
}

/** The service layer the bot trades through (the spot order service for spot, an adapter of the perpetuals service). */
export interface BotOrders {
  place(userId: string, body: BotOrder): Promise<unknown>;
  cancel(userId: string, body: { id: string }): Promise<unknown>;
}

/**
 * What the bot reads and funds in its market: the spot market by default (`spotVenue`), or a perpetual market
 * (perp-bot.ts). Quantities and prices in the market's units; holdings in asset units.
 */
export interface BotVenue {
  /** Open orders of `userId` in the market. */
  openOrders(userId: string, symbol: string): Array<{ orderId: string; side: Side; price: bigint | null; quantity: bigint | null; filledQty: bigint }>;
  depth(symbol: string, levels: number): { bids: Array<{ price: bigint; quantity: bigint }>; asks: Array<{ price: bigint; quantity: bigint }> };
  /** Whether the market takes orders now. */
  trading(symbol: string): boolean;
  /** What `userId` holds of `asset` where its orders draw from (available + frozen). */
  holding(userId: string, asset: string): bigint;
  /** Pays `amount` of `asset` from '@faucet' to where `userId`'s orders draw from; the engine's result code. */
  deposit(userId: string, asset: string, amount: bigint, ref: string): Promise<string>;
  /** Only the quote asset is funded (a perpetual market's margin); spot funds both. */
  quoteOnly: boolean;
}

/** The spot venue: the market's book and the users' SPOT accounts. */
export function spotVenue(host: EnginePort): BotVenue {
  return {
    openOrders: (userId, symbol) => host.engine.openOrders(userId, symbol),
    depth: (symbol, levels) => host.engine.depth(symbol, levels),
    trading: (symbol) => host.engine.market(symbol)?.status === 'TRADING',
    holding: (userId, asset) => {
      const b = host.engine.balance(userId, 'SPOT', asset);
      return b.available + b.frozen;
    },
    deposit: async (userId, asset, amount, ref) => (await host.submit({ type: 'deposit', userId, asset, account: 'SPOT', amount, from: '@faucet', ref })).code,
    quoteOnly: false,
  };
}

/** Dependencies of one bot. */
export interface BotDeps {
  host: EnginePort;
  orders: BotOrders;
  /** The market's reads and funding (default: the spot venue). */
  venue?: BotVenue;
  /** The bot users (default: botUserIds of the market). */
  userIds?: { maker: string; taker: string };
  log: FastifyBaseLogger;
  /** Reference price of the market as a decimal string, or null when unknown. */
  reference: (ts: number) => string | null;
  /** Cumulative depth per side by distance from the reference, quote asset units (depth-profile.ts `ladderProfile`). */
  profile: readonly DepthPoint[];
  /**
   * Base volume (decimal string) of the reference path's 1-minute bar that contains `ts`, or null when unknown
   * (then each taker order is 20% .. 150% of the best level).
   */
  referenceVolume?: (ts: number) => string | null;
  /** Deciles of the taker window volume, per mille of the mean (default: Binance ETHUSDT's). */
  takerDeciles?: readonly bigint[];
  /** The quoted spread in ticks (config BOT_SPREAD_TICKS; default BOT_SPREAD_TICKS, one tick as on Binance BTCUSDT). */
  spreadTicks?: bigint;
  /** The clock (Unix ms) of the reference, taker and volume times: the server passes ctx.clock.now; Date.now when not given (tests). */
  now?: () => number;
}

/** One market's bot. `cycle()` runs one step (tests call it directly); `start()` runs it on a timer. */
export class LiquidityBot {
  readonly maker: string;
  readonly taker: string;
  private readonly rng: Prng;
  private readonly venue: BotVenue;
  private readonly runId: string;
  private counter = 0;
  private lastTakerRef: bigint | null = null;
  private nextTakerAt = 0;
  private lastTakerTs = 0;
  private owedQty = 0n;
  private takerSide: Side | null = null;
  private center: bigint | null = null;
  /** Average move of the reference between two re-quotes, ppm (exponential, 1/20 weight to the newest move). */
  private moveEwmaPpm = 0n;
  private lastRequoteRef: bigint | null = null;
  private minuteVolume: { minute: number; qty: bigint | null } | null = null;
  private funded = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private topUps = 0;

  constructor(
    private readonly market: MarketConfig,
    private readonly deps: BotDeps,
  ) {
    const ids = deps.userIds ?? botUserIds(market);
    this.venue = deps.venue ?? spotVenue(deps.host);
    this.maker = ids.maker;
    this.taker = ids.taker;
    const now = this.now();
    this.rng = new Prng(hashString(market.symbol) ^ (now >>> 0));
    this.runId = now.toString(36);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The market's filters and scales. */
  private ladderMarket(): LadderMarket & { symbol: string } {
    const e = this.deps.host.engine;
    const m = this.market;
    return {
      symbol: m.symbol,
      priceDecimals: m.priceDecimals,
      qtyDecimals: m.qtyDecimals,
      baseScale: e.asset(m.base)?.scale ?? 8,
      quoteScale: e.asset(m.quote)?.scale ?? 8,
      tickSize: m.tickSize,
      stepSize: m.stepSize,
      minQty: m.minQty,
      minNotional: m.minNotional,
    };
  }

  /** Reference price in price units on the tick grid, or null. */
  private refTicks(ts: number): bigint | null {
    const s = this.deps.reference(ts);
    return s === null ? null : referenceToTicks(s, this.market.priceDecimals, this.market.tickSize);
  }

  /** Deposits from '@faucet' into the SPOT account; `ref` makes a retry within the idempotency window a no-op. */
  private async deposit(userId: string, asset: string, amount: bigint, ref: string): Promise<void> {
    if (amount <= 0n) return;
    const code = await this.venue.deposit(userId, asset, amount, ref);
    if (code !== 'ok') this.deps.log.warn({ userId, asset, code }, 'bot funding refused');
  }

  /** Funding of each asset for the maker (the taker gets a tenth): BOT_FUNDING_PERMILLE of the profile's depth to its last point, valued at `ref`. */
  private fundingAmounts(ref: bigint): { base: bigint; quote: bigint } {
    const m = this.ladderMarket();
    const depth = this.deps.profile[this.deps.profile.length - 1]?.notional ?? 0n;
    const floor = m.minNotional * 1000n;
    const quote = ((depth > floor ? depth : floor) * BOT_FUNDING_PERMILLE) / 1000n;
    return { quote, base: baseForQuote(quote, ref, m) };
  }

  /**
   * Brings a bot's SPOT holding of `asset` (available + frozen) up to `target`. Deposit refs are remembered only
   * for the engine's idempotency window (24 h), so a restart after that must not rely on them: it tops up only
   * the shortfall, and a restart of a funded bot deposits nothing.
   */
  private async fundTo(userId: string, asset: string, target: bigint, ref: string): Promise<void> {
    await this.deposit(userId, asset, target - this.venue.holding(userId, asset), ref);
  }

  private async fund(ref: bigint): Promise<void> {
    const { base, quote } = this.fundingAmounts(ref);
    const { base: b, quote: q } = this.market;
    await this.fundTo(this.maker, q, quote, `mm-fund-1-${q}`);
    if (!this.venue.quoteOnly) await this.fundTo(this.maker, b, base, `mm-fund-1-${b}`);
    await this.fundTo(this.taker, q, quote / 10n, `mm-fund-1-${q}`);
    if (!this.venue.quoteOnly) await this.fundTo(this.taker, b, base / 10n, `mm-fund-1-${b}`);
    this.funded = true;
  }

  /** After an insufficient_balance: add another funding of that asset (unique ref; logged). */
  private async topUp(userId: string, asset: string, ref: bigint): Promise<void> {
    const { base, quote } = this.fundingAmounts(ref);
    const amount = (asset === this.market.base && !this.venue.quoteOnly ? base : quote) / (userId === this.taker ? 10n : 1n);
    this.topUps++;
    this.deps.log.info({ userId, asset }, 'liquidity bot topped up');
    await this.deposit(userId, asset, amount, `mm-topup-${this.runId}-${this.topUps}-${asset}`);
  }

  private clientOrderId(): string {
    this.counter++;
    return `mm${this.runId}x${this.counter.toString(36)}`;
  }

  private async place(userId: string, side: Side, price: bigint, qty: bigint, timeInForce: 'GTC' | 'IOC', ref: bigint): Promise<boolean> {
    const m = this.market;
    try {
      await this.deps.orders.place(userId, {
        pairsName: m.symbol,
        side,
        orderType: 'LIMIT',
        timeInForce,
        price: formatDecimal(price, m.priceDecimals),
        amount: formatDecimal(qty, m.qtyDecimals),
        clientOrderId: this.clientOrderId(),
      });
      return true;
    } catch (err) {
      const code = errorCode(err);
      if (code === 'insufficient_balance' || code === 'contract_insufficient_balance')
        await this.topUp(userId, side === 'BUY' || this.venue.quoteOnly ? m.quote : m.base, ref);
      else if (code !== undefined) this.deps.log.debug({ symbol: m.symbol, code }, 'bot order refused');
      else throw err;
      return false;
    }
  }

  /** The reference's volume (qty units) of the minute containing ts, looked up once a minute; null when unknown. */
  private minuteQty(ts: number): bigint | null {
    const minute = ts - (ts % 60_000);
    if (this.minuteVolume?.minute === minute) return this.minuteVolume.qty;
    let qty: bigint | null = null;
    const v = this.deps.referenceVolume?.(ts) ?? null;
    if (v !== null) {
      try {
        qty = parseDecimal(v, 8) / pow10(8 - this.market.qtyDecimals);
      } catch {
        qty = null;
      }
    }
    this.minuteVolume = { minute, qty };
    return qty;
  }

  /**
   * One IOC order by the taker user, buying when the reference rose since the last one and selling when it fell
   * (either at random when it did not move), sized as `takerQuantity` for the time since the last one plus what
   * earlier orders still owe, and sent as `takerSlice`: it takes the best level only, so one order costs the maker
   * at most one renewal, and the rest is owed (never more than a minute's volume) to at most
   * BOT_TAKER_MAX_SLICES - 1 further slices in the same cycle and then to the next orders.
   */
  async takerOrder(ref: bigint, ts: number = this.now()): Promise<void> {
    const last = this.lastTakerRef;
    this.lastTakerRef = ref;
    const side: Side = last === null || last === ref ? (this.rng.next() < 0.5 ? 'BUY' : 'SELL') : ref > last ? 'BUY' : 'SELL';
    const m = this.ladderMarket();
    const deciles = this.deps.takerDeciles ?? BINANCE_ETHUSDT.windowDecilesPermille;
    const minute = this.minuteQty(ts);
    let target: bigint;
    if (minute !== null) {
      const decile = deciles[this.rng.nextInt(0, deciles.length - 1)] ?? 1000n;
      // The order stands for the time since the last one (at most BOT_TAKER_MAX_ELAPSED_MS, e.g. after a halt).
      const elapsed = this.lastTakerTs > 0 ? Math.min(Math.max(ts - this.lastTakerTs, 0), BOT_TAKER_MAX_ELAPSED_MS) : (BOT_TAKER_MIN_MS + BOT_TAKER_MAX_MS) / 2;
      this.lastTakerTs = ts;
      target = takerQuantity(minute, elapsed, decile, deciles, m.stepSize) + this.owedQty;
      if (target > minute) target = minute;
      if (target <= 0n) return; // a quiet minute of the reference: nothing to trade
      const floor = qtyForNotional(m.minNotional, ref, m);
      if (target < floor) target = floor;
    } else {
      const best = this.deps.profile[0]?.notional ?? m.minNotional;
      target = qtyForNotional((best * BigInt(this.rng.nextInt(20, 150))) / 100n, ref, m);
    }
    this.takerSide = side;
    await this.sendSlice(ref, side, target, minute !== null);
  }

  /** Sends `takerSlice` of `target` (qty units) against the best level; what it leaves is owed when `owe`. */
  private async sendSlice(ref: bigint, side: Side, target: bigint, owe: boolean): Promise<void> {
    const m = this.ladderMarket();
    const slip = ticksForBps(ref, m.tickSize, BOT_TAKER_SLIP_BPS) * m.tickSize;
    const limit = side === 'BUY' ? ref + slip : ref - slip;
    if (limit <= 0n) return;
    const depth = this.venue.depth(m.symbol, 1);
    const slice = takerSlice(side, target, side === 'BUY' ? depth.asks[0] : depth.bids[0], limit);
    this.owedQty = owe ? slice.owed : 0n;
    await this.place(this.taker, side, slice.price, slice.quantity, 'IOC', ref);
  }

  /**
   * Cancels and places towards the ladder around `ref`. `measure` (the first re-quote of a cycle) feeds the
   * reference's move since the last one into the average move that sets the centre's hysteresis.
   */
  async requote(ref: bigint, measure = true): Promise<void> {
    const m = this.ladderMarket();
    if (measure && this.lastRequoteRef !== null) {
      const move = ((ref > this.lastRequoteRef ? ref - this.lastRequoteRef : this.lastRequoteRef - ref) * 1_000_000n) / ref;
      this.moveEwmaPpm = (this.moveEwmaPpm * 19n + move) / 20n;
    }
    this.lastRequoteRef = ref;
    const center = recenter(this.center, ref, centerHysteresisPpm(this.moveEwmaPpm));
    this.center = center;
    const ladder = computeLadder(center, m, ladderParams(center, m, this.deps.profile, this.deps.spreadTicks));
    const open = this.venue.openOrders(this.maker, m.symbol).map((o) => ({
      orderId: o.orderId,
      side: o.side,
      price: o.price ?? 0n,
      remaining: (o.quantity ?? 0n) - o.filledQty,
    }));
    const budget = requoteBudget(open, ladder, center);
    const maxOpen = Math.min(MAX_OPEN_ORDERS_PER_MARKET, ladder.bids.length + ladder.asks.length + BOT_STALE_SLACK);
    const plan = planRequote(open, ladder, center, budget, maxOpen);
    for (const id of plan.cancels) {
      if (this.stopped) return;
      try {
        await this.deps.orders.cancel(this.maker, { id });
      } catch (err) {
        if (errorCode(err) === undefined) throw err; // order_not_found: filled meanwhile
      }
    }
    for (const l of plan.places) {
      if (this.stopped) return;
      await this.place(this.maker, l.side, l.price, l.quantity, 'GTC', ref);
    }
  }

  /**
   * One step: fund once, a taker order when due, then the re-quote (which also renews the level the taker took, so
   * the spread is back to one tick at once). Skips a halted market or a missing reference.
   */
  async cycle(): Promise<void> {
    const ts = this.now();
    const ref = this.refTicks(ts);
    if (ref === null) return;
    if (!this.venue.trading(this.market.symbol)) return;
    if (!this.funded) await this.fund(ref);
    if (ts >= this.nextTakerAt) {
      if (this.nextTakerAt !== 0) await this.takerOrder(ref, ts);
      else {
        this.lastTakerRef = ref;
        this.lastTakerTs = ts;
      }
      this.nextTakerAt = ts + this.rng.nextInt(BOT_TAKER_MIN_MS, BOT_TAKER_MAX_MS);
    }
    await this.requote(ref);
    // A busy minute of the reference trades more than the best level holds: the rest that is owed goes in further
    // slices, each after the re-quote has renewed the best level.
    for (let i = 1; i < BOT_TAKER_MAX_SLICES && this.owedQty > 0n && this.takerSide !== null && !this.stopped; i++) {
      await this.sendSlice(ref, this.takerSide, this.owedQty, true);
      await this.requote(ref, false);
    }
  }

  /** Runs `cycle` every BOT_CYCLE_MIN_MS .. BOT_CYCLE_MAX_MS (first after `delayMs`) until stop(). */
  start(delayMs = 0): void {
    const schedule = (ms: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.cycle()
          .catch((err: unknown) => this.deps.log.warn({ err, symbol: this.market.symbol }, 'liquidity bot cycle failed'))
          .finally(() => {
            this.running = null;
            schedule(this.rng.nextInt(BOT_CYCLE_MIN_MS, BOT_CYCLE_MAX_MS));
          });
      }, ms);
      this.timer.unref();
    };
    schedule(delayMs);
  }

  /** Stops the timer and waits for a running cycle. Orders stay in the book (they are journaled like users'). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
