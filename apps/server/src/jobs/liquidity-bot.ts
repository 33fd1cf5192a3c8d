/**
 * The liquidity bot of one spot market (DESIGN section 5): keeps a ladder of bids and asks around the reference
 * price and sends small taker orders in the direction of the move, so real trades print and candles move.
 * Every order goes through the entrust service, the same layer as users' orders (no back door into the book).
 *
 * Two bot users per market, funded from '@faucet' up to a target holding (a restart deposits only a shortfall):
 * - 'mm-<BASE>-<QUOTE>' quotes the ladder;
 * - 'mm-<BASE>-<QUOTE>-taker' sends the taker orders (a separate user, because self-trade prevention would
 *   expire a taker order that meets the same user's resting order).
 * Command rate: one re-quote every 1.5-2.5 s (at most 8 commands unless the ladder is being built) and one taker
 * order every 3-8 s per market.
 */
import type { FastifyBaseLogger } from 'fastify';
import { formatDecimal, type MarketConfig, type Side } from '@exchange/core';
import type { EngineHost } from '../engine-host/engine-host';
import type { EntrustService } from '../modules/entrust/entrust.service';
import {
  baseForQuote,
  computeLadder,
  planRequote,
  pow2Floor,
  qtyForNotional,
  referenceToTicks,
  ticksForBps,
  type LadderMarket,
  type LadderParams,
} from './ladder';
import { hashString, Prng } from './prng';

/** Ladder shape: levels per side, spread and spacing in basis points of the reference (see `ladderParams`). */
export const BOT_LEVELS = 12;
export const BOT_HALF_SPREAD_BPS = 3n;
export const BOT_SPACING_BPS = 5n;
/** Innermost level notional = minNotional x 160 (800 USDT; 0.016 BTC on BTC-quoted pairs). */
export const BOT_LEVEL_NOTIONAL_X_MIN = 160n;
/** Maker funding per asset = 1500 innermost levels of value; the taker gets a tenth. */
export const BOT_FUNDING_X_LEVEL = 1500n;
/** Most commands of one ordinary re-quote (cancels of crossing orders come on top). */
export const BOT_REQUOTE_BUDGET = 8;

/** Bot user ids of a market (non-numeric, so they never collide with database users). */
export function botUserIds(m: Pick<MarketConfig, 'base' | 'quote'>): { maker: string; taker: string } {
  const maker = `mm-${m.base}-${m.quote}`;
  return { maker, taker: `${maker}-taker` };
}

/**
 * The ladder parameters for a reference price: spread and spacing in ticks from basis points of the largest
 * power of two below the reference (so they change only when the price crosses a power of two, not every tick).
 */
export function ladderParams(refPrice: bigint, m: LadderMarket & { symbol: string }): LadderParams {
  const anchor = pow2Floor(refPrice);
  return {
    levels: BOT_LEVELS,
    halfSpreadTicks: ticksForBps(anchor, m.tickSize, BOT_HALF_SPREAD_BPS),
    levelSpacingTicks: ticksForBps(anchor, m.tickSize, BOT_SPACING_BPS),
    baseNotional: m.minNotional * BOT_LEVEL_NOTIONAL_X_MIN,
    growthPermille: 250n,
    variationPermille: 300,
    seed: hashString(m.symbol),
  };
}

/** A business error thrown by the entrust service (AppError) carries a code. */
function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof (err as { code: unknown }).code === 'string' ? (err as { code: string }).code : undefined;
}

/** Dependencies of one bot. */
export interface BotDeps {
  host: EngineHost;
  entrust: Pick<EntrustService, 'place' | 'cancel'>;
  log: FastifyBaseLogger;
  /** Reference price of the market as a decimal string, or null when unknown. */
  reference: (ts: number) => string | null;
  now?: () => number;
}

/** One market's bot. `cycle()` runs one step (tests call it directly); `start()` runs it on a timer. */
export class LiquidityBot {
  readonly maker: string;
  readonly taker: string;
  private readonly rng: Prng;
  private readonly runId: string;
  private counter = 0;
  private lastTakerRef: bigint | null = null;
  private nextTakerAt = 0;
  private funded = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private topUps = 0;

  constructor(
    private readonly market: MarketConfig,
    private readonly deps: BotDeps,
  ) {
    const ids = botUserIds(market);
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
    const r = await this.deps.host.submit({ type: 'deposit', userId, asset, account: 'SPOT', amount, from: '@faucet', ref });
    if (r.code !== 'ok') this.deps.log.warn({ userId, asset, code: r.code }, 'bot funding refused');
  }

  /** Funding of each asset for the maker (the taker gets a tenth), valued at `ref`. */
  private fundingAmounts(ref: bigint): { base: bigint; quote: bigint } {
    const m = this.ladderMarket();
    const quote = m.minNotional * BOT_LEVEL_NOTIONAL_X_MIN * BOT_FUNDING_X_LEVEL;
    return { quote, base: baseForQuote(quote, ref, m) };
  }

  /**
   * Brings a bot's SPOT holding of `asset` (available + frozen) up to `target`. Deposit refs are remembered only
   * for the engine's idempotency window (24 h), so a restart after that must not rely on them: it tops up only
   * the shortfall, and a restart of a funded bot deposits nothing.
   */
  private async fundTo(userId: string, asset: string, target: bigint, ref: string): Promise<void> {
    const b = this.deps.host.engine.balance(userId, 'SPOT', asset);
    await this.deposit(userId, asset, target - (b.available + b.frozen), ref);
  }

  private async fund(ref: bigint): Promise<void> {
    const { base, quote } = this.fundingAmounts(ref);
    const { base: b, quote: q } = this.market;
    await this.fundTo(this.maker, q, quote, `mm-fund-1-${q}`);
    await this.fundTo(this.maker, b, base, `mm-fund-1-${b}`);
    await this.fundTo(this.taker, q, quote / 10n, `mm-fund-1-${q}`);
    await this.fundTo(this.taker, b, base / 10n, `mm-fund-1-${b}`);
    this.funded = true;
  }

  /** After an insufficient_balance: add another funding of that asset (unique ref; logged). */
  private async topUp(userId: string, asset: string, ref: bigint): Promise<void> {
    const { base, quote } = this.fundingAmounts(ref);
    const amount = (asset === this.market.base ? base : quote) / (userId === this.taker ? 10n : 1n);
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
      await this.deps.entrust.place(userId, {
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
      if (code === 'insufficient_balance') await this.topUp(userId, side === 'BUY' ? m.quote : m.base, ref);
      else if (code !== undefined) this.deps.log.debug({ symbol: m.symbol, code }, 'bot order refused');
      else throw err;
      return false;
    }
  }

  /** One small IOC order by the taker user, buying when the reference rose since the last one and selling when it fell. */
  async takerOrder(ref: bigint): Promise<void> {
    const last = this.lastTakerRef;
    this.lastTakerRef = ref;
    const side: Side = last === null || last === ref ? (this.rng.next() < 0.5 ? 'BUY' : 'SELL') : ref > last ? 'BUY' : 'SELL';
    const m = this.ladderMarket();
    // 20% .. 150% of the innermost level's notional.
    const notional = (m.minNotional * BOT_LEVEL_NOTIONAL_X_MIN * BigInt(this.rng.nextInt(20, 150))) / 100n;
    const qty = qtyForNotional(notional, ref, m);
    const slip = ticksForBps(ref, m.tickSize, 20n) * m.tickSize;
    const price = side === 'BUY' ? ref + slip : ref - slip;
    if (price <= 0n) return;
    await this.place(this.taker, side, price, qty, 'IOC', ref);
  }

  /** Cancels and places towards the ladder around `ref`. */
  async requote(ref: bigint): Promise<void> {
    const m = this.ladderMarket();
    const ladder = computeLadder(ref, m, ladderParams(ref, m));
    const open = this.deps.host.engine.openOrders(this.maker, m.symbol).map((o) => ({
      orderId: o.orderId,
      side: o.side,
      price: o.price ?? 0n,
      remaining: (o.quantity ?? 0n) - o.filledQty,
    }));
    const budget = open.length === 0 ? 2 * BOT_LEVELS + 2 : BOT_REQUOTE_BUDGET;
    const plan = planRequote(open, ladder, ref, budget);
    for (const id of plan.cancels) {
      if (this.stopped) return;
      try {
        await this.deps.entrust.cancel(this.maker, { id });
      } catch (err) {
        if (errorCode(err) === undefined) throw err; // order_not_found: filled meanwhile
      }
    }
    for (const l of plan.places) {
      if (this.stopped) return;
      await this.place(this.maker, l.side, l.price, l.quantity, 'GTC', ref);
    }
  }

  /** One step: fund once, a taker order when due, then a re-quote. Skips a halted market or a missing reference. */
  async cycle(): Promise<void> {
    const ts = this.now();
    const ref = this.refTicks(ts);
    if (ref === null) return;
    const live = this.deps.host.engine.market(this.market.symbol);
    if (!live || live.status !== 'TRADING') return;
    if (!this.funded) await this.fund(ref);
    if (ts >= this.nextTakerAt) {
      if (this.nextTakerAt !== 0) await this.takerOrder(ref);
      else this.lastTakerRef = ref;
      this.nextTakerAt = ts + this.rng.nextInt(3_000, 8_000);
    }
    await this.requote(ref);
  }

  /** Runs `cycle` every 1.5-2.5 s (first after `delayMs`) until stop(). */
  start(delayMs = 0): void {
    const schedule = (ms: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.cycle()
          .catch((err: unknown) => this.deps.log.warn({ err, symbol: this.market.symbol }, 'liquidity bot cycle failed'))
          .finally(() => {
            this.running = null;
            schedule(this.rng.nextInt(1_500, 2_500));
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
