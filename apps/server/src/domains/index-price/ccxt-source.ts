/**
 * One live price source of the index: one exchange's spot market of a coin, read through CCXT Pro. The price comes
 * from the exchange's WebSocket (`watchTicker`: the ticker's last price and 24 h quote volume; or `watchTrades`: the
 * last trade's price, the volume then from the REST ticker); when the socket fails or says nothing for `restAfterMs`,
 * the REST ticker (`fetchTicker`) is polled every `pollMs` until the socket speaks again.
 *
 * CCXT's unified ticker and trades carry JS numbers parsed from the exchanges' decimal strings; each is turned back
 * into its shortest round-trip decimal string (CCXT's numberToString), which is the exchange's own string for prices
 * of up to 15 significant digits; from there on only strings and bigints (the rule, index-rule.ts).
 */
import { createRequire } from 'node:module';
import type { Exchange, Ticker, Trade } from 'ccxt';
import type { SourceQuote } from './index-rule';
import { toUnits } from '../../platform/shared/decimal';
import { formatDecimal } from '@exchange/core';

/** One source of a coin's index: a CCXT exchange id and its unified spot symbol. */
export interface SourceSpec {
  /** CCXT Pro exchange id: binance, okx, bybit, coinbase, kraken, kucoin, gate, bitget, mexc, htx ... */
  exchange: string;
  /** CCXT unified symbol of the spot market, "BTC/USDT". */
  symbol: string;
  /**
   * Which stream gives the price: the ticker (default) or the trades; 'rest' for no socket at all, the REST ticker
   * polled every `pollMs` (an exchange whose socket CCXT cannot read here, or whose stream has no last price).
   */
  watch?: 'ticker' | 'trades' | 'rest';
}

/** Timings of a source (ms). */
export interface SourceTimings {
  /** Poll the REST ticker when the socket has given nothing for this long (or failed). */
  restAfterMs: number;
  /** The REST poll's period while it runs, and the volume refresh's period in trades mode. */
  pollMs: number;
  /** Wait before watching again after the socket failed. */
  retryMs: number;
}

/** Where the last quote came from, how often each path was used or failed: the metrics read these. */
export interface SourceStats {
  wsUpdates: number;
  restUpdates: number;
  errors: number;
  lastError: string | null;
}

/**
 * CCXT options that make an exchange load its spot markets only (the index reads spot prices; loading every
 * derivative and option market of Binance, OKX, Bybit, KuCoin, Gate, Bitget or HTX would cost requests and seconds for
 * nothing; KuCoin's all-tickers request, made only for the fee rates, is skipped too). Coinbase, Kraken and MEXC have
 * no such option (MEXC always loads its futures list too).
 */
const SPOT_ONLY_OPTIONS: Record<string, Record<string, unknown>> = {
  binance: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false },
  okx: { fetchMarkets: { types: ['spot'] } },
  bybit: { fetchMarkets: { types: ['spot'] } },
  kucoin: { fetchMarkets: { types: ['spot'], fetchTickersFees: false } },
  gate: { fetchMarkets: { types: ['spot'] } },
  bitget: { fetchMarkets: { types: ['spot'] } },
  htx: { fetchMarkets: { types: { spot: true, linear: false, inverse: false } } },
};

/** CCXT Pro's exchange classes by id, once loaded. */
let proClasses: Record<string, (new (config: Record<string, unknown>) => Exchange) | undefined> | undefined;

/**
 * CCXT Pro's exchange classes, loaded on first use: CCXT takes about 0.8 s to load, which only a server running the live
 * index (INDEX_SOURCE=live) should pay, not every start on the replayed index. A synchronous require (its CommonJS
 * build) rather than a static import, which the server's bundle would hoist to its top and load at every start.
 */
function ccxtPro(): Record<string, (new (config: Record<string, unknown>) => Exchange) | undefined> {
  proClasses ??= (createRequire(import.meta.url)('ccxt') as { pro: Record<string, (new (config: Record<string, unknown>) => Exchange) | undefined> }).pro;
  return proClasses;
}

/**
 * Builds the CCXT Pro exchange of a source: `overrides` carries urls and options (the offline tests point urls at
 * local servers); its options are laid over the spot-only ones. Throws RangeError on an id CCXT Pro does not have.
 */
export function createProExchange(id: string, overrides: Record<string, unknown> = {}): Exchange {
  const pro = ccxtPro();
  const Ctor = pro[id];
  if (!Ctor) throw new RangeError(`CCXT Pro has no exchange '${id}'`);
  const options = { ...SPOT_ONLY_OPTIONS[id], ...(overrides.options as Record<string, unknown> | undefined) };
  return new Ctor({ enableRateLimit: true, timeout: 5000, ...overrides, options });
}

/** A CCXT number (or numeric string) as a decimal string, or null when absent or not a positive finite value. */
export function decimalOf(ex: Pick<Exchange, 'numberToString'>, v: number | string | undefined | null): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && (!Number.isFinite(v) || v <= 0)) return null;
  const s = ex.numberToString(v);
  return s !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(s) && /[1-9]/.test(s) ? s : null;
}

/** The 24 h quote volume of a ticker: quoteVolume, else baseVolume x last computed exactly (8 decimals). */
export function quoteVolumeOf(ex: Pick<Exchange, 'numberToString'>, t: Pick<Ticker, 'quoteVolume' | 'baseVolume' | 'last'>): string | null {
  const qv = decimalOf(ex, t.quoteVolume);
  if (qv !== null) return qv;
  const bv = decimalOf(ex, t.baseVolume);
  const last = decimalOf(ex, t.last);
  if (bv === null || last === null) return null;
  return formatDecimal((toUnits(bv, 8) * toUnits(last, 8) + 50_000_000n) / 100_000_000n, 8);
}

/**
 * A running source: start() begins watching; latest() answers the last quote (null before the first); stop() closes
 * the exchange's sockets. `now` is the process clock (Unix ms), used when the exchange gives no timestamp and to age
 * the socket for the REST fallback.
 */
export class CcxtSource {
  readonly spec: SourceSpec;
  readonly name: string;
  readonly stats: SourceStats = { wsUpdates: 0, restUpdates: 0, errors: 0, lastError: null };
  private quote: SourceQuote | null = null;
  private volume: string | null = null;
  private lastWsMs = 0;
  private running = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    spec: SourceSpec,
    private readonly ex: Exchange,
    private readonly timings: SourceTimings,
    private readonly now: () => number,
  ) {
    this.spec = spec;
    this.name = spec.exchange;
  }

  /** The last quote: price and 24 h quote volume as decimal strings, the time it was priced. */
  latest(): SourceQuote | null {
    return this.quote;
  }

  /** Starts the socket loop and the REST fallback timer (REST only, from the first poll, for watch 'rest'). */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.spec.watch !== 'rest') {
      this.lastWsMs = this.now();
      this.loop = this.watchLoop();
    }
    this.pollTimer = setInterval(() => void this.pollRest(), this.timings.pollMs);
    this.pollTimer.unref();
    if (this.spec.watch === 'rest') void this.pollRest();
  }

  /** Stops the loop and the timer and closes the exchange's sockets. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.pollTimer);
    await this.ex.close().catch(() => undefined);
    await this.loop;
  }

  private setQuote(price: string, volume: string | null, ts: number | undefined, via: 'ws' | 'rest'): void {
    if (volume !== null) this.volume = volume;
    const at = ts !== undefined && Number.isFinite(ts) && ts > 0 ? ts : this.now();
    // An older message (a REST answer overtaken by the socket) never replaces a newer price.
    if (this.quote && at < this.quote.ts) return;
    this.quote = { source: this.name, price, volume24h: this.volume ?? '0', ts: at };
    if (via === 'ws') {
      this.lastWsMs = this.now();
      this.stats.wsUpdates += 1;
    } else this.stats.restUpdates += 1;
  }

  private fail(err: unknown): void {
    this.stats.errors += 1;
    this.stats.lastError = err instanceof Error ? `${err.constructor.name}: ${err.message.slice(0, 200)}` : String(err).slice(0, 200);
  }

  private async watchLoop(): Promise<void> {
    // CCXT refuses a ws:// (not wss://) url until its Node http agent is loaded; harmless on wss://.
    await this.ex.loadHttpProxyAgent().catch((err: unknown) => this.fail(err));
    while (this.running) {
      try {
        // Some exchanges' watch methods (OKX) need the markets loaded first; loaded once, retried after a failure.
        if (this.ex.markets === undefined) await this.ex.loadMarkets();
        if (this.spec.watch === 'trades') {
          const trades: Trade[] = await this.ex.watchTrades(this.spec.symbol);
          const last = trades.at(-1);
          const price = decimalOf(this.ex, last?.price);
          if (this.running && last && price !== null) this.setQuote(price, null, last.timestamp, 'ws');
        } else {
          const t = await this.ex.watchTicker(this.spec.symbol);
          const price = decimalOf(this.ex, t.last ?? t.close);
          if (this.running && price !== null) this.setQuote(price, quoteVolumeOf(this.ex, t), t.timestamp, 'ws');
        }
      } catch (err) {
        if (!this.running) return;
        this.fail(err);
        await new Promise((r) => setTimeout(r, this.timings.retryMs));
      }
    }
  }

  /** The REST fallback: polls the ticker when the socket has been quiet for restAfterMs; in trades mode also the volume. */
  private async pollRest(): Promise<void> {
    if (!this.running || this.polling) return;
    // REST only: always quiet, every poll reads the ticker
    const quiet = this.spec.watch === 'rest' || this.now() - this.lastWsMs >= this.timings.restAfterMs;
    const needVolume = this.spec.watch === 'trades';
    if (!quiet && !needVolume) return;
    this.polling = true;
    try {
      const t = await this.ex.fetchTicker(this.spec.symbol);
      const volume = quoteVolumeOf(this.ex, t);
      const price = decimalOf(this.ex, t.last ?? t.close);
      if (!this.running) return;
      if (quiet && price !== null) this.setQuote(price, volume, t.timestamp, 'rest');
      else if (volume !== null) {
        this.volume = volume;
        if (this.quote) this.quote = { ...this.quote, volume24h: volume };
      }
    } catch (err) {
      if (this.running) this.fail(err);
    } finally {
      this.polling = false;
    }
  }
}
