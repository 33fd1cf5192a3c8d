/**
 * The jobs of the server process (CONVENTIONS: jobs/ = index price feed, liquidity bots): attaches the reference
 * price paths to market data (k-line history), and when `config.marketMakers` is on starts the index price job
 * and one liquidity bot per spot market that has a reference path. server.ts calls startJobs after listen and
 * stop() on shutdown.
 */
import type { AppContext } from '../context';
import { startIndexJob } from './index-price.job';
import { LiquidityBot } from './liquidity-bot';
import type { ReferencePaths } from './price-source';
import { createReferencePaths } from './reference-paths';

export { createReferencePaths } from './reference-paths';

/** Running jobs; stop() ends the timers and waits for in-flight bot commands. */
export interface Jobs {
  stop(): Promise<void>;
}

/** The reference path of a spot market (USDT pairs by base, cross pairs derived), or undefined. */
export function pathOfMarket(paths: ReferencePaths, base: string, quote: string) {
  return paths.pair?.(base, quote) ?? (quote === 'USDT' ? paths.get(base) : undefined);
}

/**
 * Starts the jobs on a context. `paths` defaults to createReferencePaths() (the seed data). The paths are always
 * handed to market data (history backfill); the index job and the bots run only when ctx.config.marketMakers.
 */
export async function startJobs(ctx: AppContext, opts: { paths?: ReferencePaths } = {}): Promise<Jobs> {
  const started = Date.now();
  const paths = opts.paths ?? createReferencePaths();
  // The k-line backfill writes many rows; it runs in the background so the live market starts at once.
  const backfill = ctx.marketData.setReferencePaths(paths).catch((err: unknown) => ctx.log.error({ err }, 'k-line backfill from reference paths failed'));
  if (!ctx.config.marketMakers) {
    return {
      async stop() {
        await backfill;
      },
    };
  }
  const index = startIndexJob({ host: ctx.host, sink: ctx.marketData, paths, log: ctx.log });
  const bots: LiquidityBot[] = [];
  for (const market of ctx.host.engine.markets()) {
    const path = pathOfMarket(paths, market.base, market.quote);
    if (!path) {
      ctx.log.warn({ symbol: market.symbol }, 'no reference path: no liquidity bot');
      continue;
    }
    const bot = new LiquidityBot(market, { host: ctx.host, entrust: ctx.entrust, log: ctx.log, reference: (ts) => path.priceAt(ts) });
    bot.start(bots.length * 150);
    bots.push(bot);
  }
  ctx.log.info({ bots: bots.length, ms: Date.now() - started }, 'market jobs started (index price, liquidity bots)');
  return {
    async stop() {
      index.stop();
      await Promise.all(bots.map((b) => b.stop()));
      await backfill;
    },
  };
}
