/**
 * The jobs of the server process (ARCHITECTURE.md section 1: jobs/ = index price, mark price, funding, liquidity
 * bots): attaches the reference price paths to market data (k-line history), and when `config.marketMakers` is on
 * starts the index price job, the perpetual markets' mark price ticks and funding (perp-ticks.job.ts) and one
 * liquidity bot per spot and per perpetual market that has a reference path (perp-bot.ts). server.ts calls startJobs
 * after listen and stop() on shutdown.
 *
 * Every job here reads the one process clock, ctx.clock (platform/shared/clock.ts), the clock the engine port stamps each
 * command's `ts` with: the index job's tick time (the reference price it looks up, the index's and so the mark
 * price tick's time), the funding job's funding times and the bots' reference, taker and volume times. Read on the
 * wall clock instead, a funding the engine would take (fundingTs <= the command's ts) would never be asked for once
 * the clock was moved (the demo's POST /api/demo/clock/advance), and the index would be priced at another moment
 * than the trades it is compared with.
 */
import { parseDecimal, pow10, type MarketConfig } from '@exchange/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../../platform/config/env';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ServerClock } from '../../platform/shared/clock';
import type { PerpService } from '../perp/perp.service';
import type { SpotService } from '../spot/spot.service';
import type { MarketDataService } from '../market-data/market-data.service';
import { depthScalePermille, ladderProfile, profileSourceOf } from './depth-profile';
import type { DepthPoint } from './ladder';
import { startIndexJob, type IndexListing } from './index-price.job';
import { createLiveIndex, type LiveIndex } from '../index-price/live-index';
import { liveTickOnBoard, type IndexComponentsBoard } from '../index-price/index-components';
import { coinIndexConfig, parseIndexSources } from '../index-price/index-sources.config';
import { LiquidityBot } from './liquidity-bot';
import { createMarkPriceTicker, startFundingJob } from './perp-ticks.job';
import { startOpenInterestJob } from './open-interest.job';
import type { Db } from '../../platform/db/client';
import { perpBotOrders, perpBotMarket, perpBotUserIds, perpReference, perpVenue, setBotLeverage } from './perp-bot';
import { referenceOverridesOf } from './reference-override';
import type { ReferencePaths } from '../market-data/price-source';
import { createReferencePaths } from './reference-paths';

export { createReferencePaths } from './reference-paths';

/**
 * What the jobs use: the configuration, the process clock, the engine port, the log, market data (reference paths,
 * index prices), spot order entry (the spot bots) and the perpetuals service (the perpetual bots' orders and leverage). The object is also the key of its
 * reference price overrides (reference-override.ts): the server passes its context, as the demo routes do.
 */
export interface JobsDeps {
  config: Config;
  clock: Pick<ServerClock, 'now'>;
  host: EnginePort;
  log: FastifyBaseLogger;
  marketData: MarketDataService;
  spot: SpotService;
  perp: PerpService;
  /** The database: the open interest samples (open-interest.job.ts) and the live index's ticks. */
  db: Db;
  /** The process's metrics (the live index's gauges); absent in contexts built without them. */
  metrics?: { registry: Registry };
  /** The index ticks' components (index-price module), answered by getIndexComponents; absent in bare test contexts. */
  indexComponents?: IndexComponentsBoard;
}

/** Running jobs; stop() ends the timers and waits for in-flight bot commands. */
export interface Jobs {
  stop(): Promise<void>;
}

/**
 * Starts the live index over the contract listings (INDEX_SOURCE=live): each coin's sources from INDEX_SOURCES over
 * the defaults (domains/index-price/index-sources.config.ts), its ticks recorded in index_price_ticks and measured on
 * the process's metrics. Throws on a malformed INDEX_SOURCES, so the server does not start on wrong sources.
 */
function startLiveIndex(ctx: JobsDeps, now: () => number): LiveIndex {
  const overrides = parseIndexSources(ctx.config.indexSources);
  const live = createLiveIndex({
    listings: ctx.marketData.listings('CONTRACT'),
    configOf: (l) => coinIndexConfig(l.base, overrides, l.quote),
    now,
    log: ctx.log,
    db: ctx.db,
    ...(ctx.metrics ? { registry: ctx.metrics.registry } : {}),
  });
  live.start();
  return live;
}

/** The reference path of a spot market (USDT pairs by base, cross pairs derived), or undefined. */
export function pathOfMarket(paths: ReferencePaths, base: string, quote: string) {
  return paths.pair?.(base, quote) ?? (quote === 'USDT' ? paths.get(base) : undefined);
}

/**
 * The depth profile of a market's ladder (quote asset units): the Binance book it is shaped on
 * (`profileSourceOf`), scaled by its traded value (`depthScalePermille`), converted into the quote coin at the
 * quote's USDT reference price at `ts` for cross pairs (e.g. ETH/BTC in BTC).
 */
export function marketProfile(paths: ReferencePaths, market: Pick<MarketConfig, 'base' | 'quote'>, quoteScale: number, ts: number): DepthPoint[] {
  const source = profileSourceOf(market.base, market.quote);
  const scale = depthScalePermille(paths, market.base, market.quote, ts);
  const quotePrice = market.quote === 'USDT' ? null : paths.get(market.quote)?.priceAt(ts);
  const quoteUsdt = quotePrice ? parseDecimal(quotePrice, 8) : pow10(8);
  return ladderProfile(source, scale, quoteScale, quoteUsdt > 0n ? quoteUsdt : pow10(8));
}

/**
 * Starts the jobs on a context. `paths` defaults to createReferencePaths() (the seed data). The paths are always
 * handed to market data (history backfill); the index job and the bots run only when ctx.config.marketMakers.
 */
export async function startJobs(ctx: JobsDeps, opts: { paths?: ReferencePaths } = {}): Promise<Jobs> {
  // The process clock (Unix ms) for every time the jobs judge; the wall clock only to log how long the start took.
  const now = ctx.clock.now;
  const startedWallMs = Date.now();
  const started = now();
  // The test-only control (demo/contract/setReferencePrice) pins reference prices through these paths.
  const overrides = referenceOverridesOf(ctx);
  const paths = overrides.wrap(opts.paths ?? createReferencePaths());
  // The k-line backfill writes many rows; it runs in the background so the live market starts at once.
  const backfill = ctx.marketData.setReferencePaths(paths).catch((err: unknown) => ctx.log.error({ err }, 'k-line backfill from reference paths failed'));
  // Open interest samples every 5 minutes (GET /futures/data/openInterestHist), with or without the market makers.
  const openInterest = startOpenInterestJob({ host: ctx.host, db: ctx.db, log: ctx.log, now });
  if (!ctx.config.marketMakers) {
    return {
      async stop() {
        await openInterest.stop();
        await backfill;
      },
    };
  }
  // The perpetual markets' clock: each index tick becomes a mark price tick; funding at each 8 h boundary.
  const marks = createMarkPriceTicker({ host: ctx.host, log: ctx.log });
  const funding = startFundingJob({ host: ctx.host, log: ctx.log, now });
  // INDEX_SOURCE=live: the contracts' index from outside exchanges (domains/index-price), recorded for audit.
  const live = ctx.config.indexSource === 'live' ? startLiveIndex(ctx, now) : undefined;
  const index = startIndexJob({
    host: ctx.host,
    sink: ctx.marketData,
    paths,
    log: ctx.log,
    now,
    pinned: (base, quote) => (quote === 'USDT' ? overrides.get(base) : undefined),
    silenced: (base, quote) => quote === 'USDT' && overrides.silenced(base),
    onIndex: marks.onIndex,
    ...(ctx.indexComponents ? { board: ctx.indexComponents } : {}),
    ...(live ? { live: (l: IndexListing) => liveTickOnBoard(live, l, ctx.indexComponents) } : {}),
  });
  const bots: LiquidityBot[] = [];
  for (const market of ctx.host.engine.markets()) {
    const path = pathOfMarket(paths, market.base, market.quote);
    if (!path) {
      ctx.log.warn({ symbol: market.symbol }, 'no reference path: no liquidity bot');
      continue;
    }
    const bot = new LiquidityBot(market, {
      host: ctx.host,
      orders: ctx.spot,
      log: ctx.log,
      reference: (ts) => path.priceAt(ts),
      profile: marketProfile(paths, market, ctx.host.engine.asset(market.quote)?.scale ?? 8, started),
      referenceVolume: (ts) => {
        const minute = ts - (ts % 60_000);
        return path.bars(60_000, minute, minute + 60_000)[0]?.volume ?? null;
      },
      takerDeciles: profileSourceOf(market.base, market.quote).windowDecilesPermille,
      spreadTicks: BigInt(ctx.config.botSpreadTicks),
      now,
    });
    bot.start(bots.length * 150);
    bots.push(bot);
  }
  // One bot per perpetual market, quoting around its index (the mark's anchor) through the perpetuals service (perp-bot.ts).
  for (const m of ctx.host.engine.perpMarkets()) {
    const path = pathOfMarket(paths, m.base, m.quote);
    if (!path) {
      ctx.log.warn({ symbol: m.symbol }, 'no reference path: no contract liquidity bot');
      continue;
    }
    const market = perpBotMarket(m);
    const bot = new LiquidityBot(market, {
      host: ctx.host,
      orders: perpBotOrders(ctx.perp),
      venue: perpVenue(ctx.host),
      userIds: perpBotUserIds(m),
      log: ctx.log,
      reference: perpReference(ctx.host, m),
      profile: marketProfile(paths, market, ctx.host.engine.asset(m.quote)?.scale ?? 8, started),
      referenceVolume: (ts) => {
        const minute = ts - (ts % 60_000);
        return path.bars(60_000, minute, minute + 60_000)[0]?.volume ?? null;
      },
      takerDeciles: profileSourceOf(m.base, m.quote).windowDecilesPermille,
      spreadTicks: BigInt(ctx.config.botSpreadTicks),
      now,
    });
    const delay = bots.length * 150;
    bots.push(bot);
    void setBotLeverage(ctx.perp, m, ctx.log).finally(() => bot.start(delay));
  }
  ctx.log.info({ bots: bots.length, ms: Date.now() - startedWallMs }, 'market jobs started (index price, mark price, funding, liquidity bots)');
  return {
    async stop() {
      index.stop();
      await Promise.all([...bots.map((b) => b.stop()), funding.stop(), marks.drain(), openInterest.stop(), live?.stop()]);
      await backfill;
    },
  };
}
