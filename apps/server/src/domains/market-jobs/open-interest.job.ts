/**
 * The open interest job: every 5 minutes, each TRADING perpetual market's open interest (the engine's
 * `openInterest(symbol)`: the total size of its long positions) and mark price are written to
 * perp_open_interest_samples at the 5-minute boundary (Binance's openInterestHist rows are at 5-minute boundaries).
 * A boundary is sampled only within the first minute after it (checks every 5 s): a server that starts at 12:03 takes
 * its first sample at 12:05, never one dated 12:00 that it did not read then. Several gateways of the scale-out mode
 * may sample the same boundary: the first row stays (insert ... on conflict do nothing). "Now" is the process clock.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { perpOpenInterestSamples } from './open-interest.tables';

/** The sampling period (ms): Binance's finest openInterestHist period, 5m. */
export const OPEN_INTEREST_SAMPLE_MS = 300_000;
/** How long after a boundary a sample may still be dated at it (ms). */
export const OPEN_INTEREST_GRACE_MS = 60_000;

/** The open interest job; `tick()` runs one check (tests call it with an injected clock). */
export interface OpenInterestJob {
  /** Samples the current boundary if it is due and not sampled yet by this job; answers the rows written (0 when not due). */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts the job. `now` is the process clock (Unix ms); `intervalMs` is the check period (default 5 s, 0: no timer).
 * A failed write is logged and retried at the next check while the boundary's minute lasts.
 */
export function startOpenInterestJob(deps: { host: EnginePort; db: Db; log: FastifyBaseLogger; now: () => number; intervalMs?: number }): OpenInterestJob {
  let lastSampled = -1;
  let running: Promise<number> | null = null;
  let stopped = false;
  const check = async (): Promise<number> => {
    const now = deps.now();
    const slot = Math.floor(now / OPEN_INTEREST_SAMPLE_MS) * OPEN_INTEREST_SAMPLE_MS;
    if (stopped || slot <= lastSampled || now - slot >= OPEN_INTEREST_GRACE_MS) return 0;
    const engine = deps.host.engine;
    const rows = engine
      .perpMarkets()
      .filter((m) => m.status === 'TRADING')
      .map((m) => {
        const st = engine.perpMarkState(m.symbol);
        const mark = st?.markPrice ?? st?.indexPrice ?? 0n;
        return {
          symbol: m.symbol,
          ts: slot,
          openInterest: engine.openInterest(m.symbol).toString(),
          markPrice: mark.toString(),
          qtyDecimals: m.qtyDecimals,
          priceDecimals: m.priceDecimals,
        };
      });
    try {
      if (rows.length > 0) await deps.db.insert(perpOpenInterestSamples).values(rows).onConflictDoNothing();
      lastSampled = slot;
      return rows.length;
    } catch (err) {
      deps.log.warn({ err, ts: slot }, 'open interest sample failed; retried at the next check');
      return 0;
    }
  };
  const tick = (): Promise<number> => {
    if (!running) running = check().finally(() => (running = null));
    return running;
  };
  const period = deps.intervalMs ?? 5000;
  const timer = period > 0 ? setInterval(() => void tick(), period) : null;
  timer?.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
