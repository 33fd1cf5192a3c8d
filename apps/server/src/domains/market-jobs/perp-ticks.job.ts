/**
 * The perpetual markets' clock, two jobs on the engine port:
 * - the mark price tick: each index price the index job computes for a contract listing (once a second) goes to the
 *   engine as perpMarkPrice {symbol, indexPrice} for the perpetual market of the same symbol; the engine derives the
 *   mark price from it and fires TP/SL and liquidations. A stale live index goes as perpMarkPrice {indexStale: true}:
 *   the engine holds the mark, liquidates nobody and refuses new positions (index_stale) until a fresh tick. At most one tick per market in flight: a tick that finds
 *   the previous one unanswered is skipped (the next second brings a fresher index).
 * - the funding job: at each funding time (a multiple of the market's fundingIntervalMs since the Unix epoch: 00:00,
 *   08:00, 16:00 UTC for 8 h) submits perpFunding {symbol, fundingTs}. It checks every second; the first check after
 *   a start submits the latest funding time already passed, so a funding missed while the server was down is
 *   settled once (the engine answers funding_not_due when it was settled already, and that counts as done).
 *   "Now" is the process clock (ctx.clock.now, passed in by domains/market-jobs/index.ts), the clock the engine port stamps the
 *   command's `ts` with: the engine settles a funding time only at or after that `ts`, so a job reading the wall
 *   clock would never ask for the funding time a moved clock (the demo's clock control) has passed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { rescale } from '../../platform/shared/decimal';
import type { IndexListing } from './index-price.job';

/** The mark price ticker: `onIndex` is the index job's hook. */
export interface MarkPriceTicker {
  /**
   * Submits perpMarkPrice for the perpetual market of `listing` (index in the listing's price units; with `stale`,
   * indexStale: true and the index informative, possibly 0n) unless one is in flight.
   */
  onIndex(listing: IndexListing, index: bigint, ts: number, stale?: boolean): void;
  /** Ticks submitted and skipped (one in flight), and refusals, since start. */
  readonly stats: { submitted: number; skipped: number; refused: number };
  /** Waits for the ticks in flight. */
  drain(): Promise<void>;
}

/** Creates the mark price ticker over the engine port (see the file comment). */
export function createMarkPriceTicker(deps: { host: EnginePort; log: FastifyBaseLogger }): MarkPriceTicker {
  const inFlight = new Map<string, Promise<void>>();
  const warned = new Set<string>();
  const stats = { submitted: 0, skipped: 0, refused: 0 };
  return {
    stats,
    onIndex(listing, index, _ts, stale = false) {
      const m = deps.host.engine.perpMarket(listing.symbol);
      if (!m || m.status !== 'TRADING') return;
      if (inFlight.has(m.symbol)) {
        stats.skipped++;
        return;
      }
      const indexPrice = rescale(index, listing.priceDecimals, m.priceDecimals);
      if (indexPrice < 0n || (!stale && indexPrice === 0n)) return;
      stats.submitted++;
      const p = deps.host
        .submit({ type: 'perpMarkPrice', symbol: m.symbol, indexPrice, ...(stale ? { indexStale: true } : {}) })
        .then((r) => {
          if (r.code !== 'ok') {
            stats.refused++;
            if (!warned.has(`${m.symbol}:${r.code}`)) deps.log.warn({ symbol: m.symbol, code: r.code }, 'mark price tick refused');
            warned.add(`${m.symbol}:${r.code}`);
          }
        })
        .catch((err: unknown) => {
          if (!warned.has(m.symbol)) deps.log.warn({ err, symbol: m.symbol }, 'mark price tick failed');
          warned.add(m.symbol);
        })
        .finally(() => inFlight.delete(m.symbol));
      inFlight.set(m.symbol, p);
    },
    async drain() {
      await Promise.all(inFlight.values());
    },
  };
}

/** The latest funding time at or before `ts` for an interval (ms): floor(ts / interval) * interval. */
export function fundingTimeAtOrBefore(ts: number, intervalMs: number): number {
  return Math.floor(ts / intervalMs) * intervalMs;
}

/** The funding job; `tick()` runs one check (tests call it with an injected clock). */
export interface FundingJob {
  tick(): Promise<void>;
  stop(): Promise<void>;
  /** The last funding time each market settled or found settled (symbol -> Unix ms). */
  readonly done: ReadonlyMap<string, number>;
}

/**
 * Starts the funding job (see the file comment). `now` is the process clock (Unix ms; required, so no caller can fall
 * back to the wall clock); `intervalMs` is the check period (default 1 s, 0: no timer).
 */
export function startFundingJob(deps: { host: EnginePort; log: FastifyBaseLogger; now: () => number; intervalMs?: number }): FundingJob {
  const now = deps.now;
  const done = new Map<string, number>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const check = async (): Promise<void> => {
    const ts = now();
    for (const m of deps.host.engine.perpMarkets()) {
      if (stopped) return;
      if (m.status !== 'TRADING' || m.fundingIntervalMs <= 0) continue;
      const due = fundingTimeAtOrBefore(ts, m.fundingIntervalMs);
      const last = done.get(m.symbol);
      if (last !== undefined && last >= due) continue;
      try {
        const r = await deps.host.submit({ type: 'perpFunding', symbol: m.symbol, fundingTs: due });
        if (r.code === 'ok' || r.code === 'funding_not_due') {
          done.set(m.symbol, due);
          if (r.code === 'ok') deps.log.info({ symbol: m.symbol, fundingTs: due }, 'funding settled');
        } else deps.log.warn({ symbol: m.symbol, fundingTs: due, code: r.code }, 'funding refused; retried at the next check');
      } catch (err) {
        deps.log.warn({ err, symbol: m.symbol }, 'funding failed; retried at the next check');
      }
    }
  };
  const tick = (): Promise<void> => {
    if (!running) running = check().finally(() => (running = null));
    return running;
  };
  const period = deps.intervalMs ?? 1000;
  const timer = period > 0 ? setInterval(() => void tick(), period) : null;
  timer?.unref();
  return {
    tick,
    done,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
