/**
 * POST /api/demo/contract/setReferencePrice {symbol, price}: the test-only control by which a test moves the
 * reference price (refused in production). Pins the reference price of a contract's underlying (USDT paths) so
 * the index price job takes it as the index from its next tick (within a second) and the mark price follows it;
 * end-to-end tests use it to fire take profits, stop losses and liquidations. Like demo/outbox: a 404 FAILED
 * envelope unless demo mode is on (asked for explicitly, refused under production rules), 403 to a client that is
 * not on loopback. The pin lives in memory (domains/market-jobs/reference-override.ts) until the server stops.
 *
 * POST /api/demo/contract/silenceIndexSources {symbol, silent}: the same kind of control for the pause on a stale index
 * (spec section 9, docs/index-price.md): while silent, every index source of the contract counts as stopped, so the
 * index is stale with no sources, the mark price holds and the engine pauses the contract's opening orders and
 * liquidations; `silent: false` lets the sources speak again and the next tick resumes it.
 */
import { formatDecimal, pow10, tryParseDecimal } from '@exchange/money';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CONTRACT_MARKET_PATHS, Envelope, SetReferencePriceBody, SilenceIndexSourcesBody } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import type { ReferenceOverrides } from '../market-jobs/reference-override';
import type { MarketDataService } from '../market-data/market-data.service';
import type { PlatformContext } from '../../platform/platform-context';
import { requireDemoLoopback } from './demo.routes';

/** The highest price that may be pinned (whole USDT): anything above is no test of a real market. */
export const MAX_PINNED_PRICE = 10_000_000_000n;

/**
 * The price's units at `decimals` decimals, or the rejection: 0 (price_required), too many decimals
 * (price_not_on_tick), above MAX_PINNED_PRICE (validation_failed).
 */
export function pinnedPriceUnits(price: string, decimals: number): bigint {
  const r = tryParseDecimal(price, decimals, { trailingZeros: true });
  if (!r.ok && r.error === 'too_many_decimals') throw new AppError('price_not_on_tick', 400, 'price');
  if (!r.ok) throw new AppError('validation_failed', 400, 'price');
  if (r.value <= 0n) throw new AppError('price_required', 400, 'price');
  if (r.value > MAX_PINNED_PRICE * pow10(decimals)) throw new AppError('validation_failed', 400, 'price');
  return r.value;
}

/** What the demo's reference price control uses: the context's pins are `referenceOverridesOf(ctx)`. */
export type DemoContractRoutesDeps = Pick<PlatformContext, 'config'> & {
  marketData: Pick<MarketDataService, 'listing'>;
  referenceOverrides: Pick<ReferenceOverrides, 'set' | 'silence'>;
};

/** The demo's reference price control over the config (demo mode), the market data service (the contract's listing) and the context's reference price pins. */
export default function demoContractRoutes({ config, marketData, referenceOverrides }: DemoContractRoutesDeps): FastifyPluginAsync {
  return async function demoContractRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      `/api/${CONTRACT_MARKET_PATHS.demoSetReferencePrice}`,
      {
        schema: {
          tags: ['demo'],
          summary:
            'Demo mode, loopback clients only (a test control): pins the reference price of a contract so its index and mark price follow it within a second.',
          body: SetReferencePriceBody,
          response: { 200: Envelope(Type.Object({ symbol: Type.String(), price: Type.String() })) },
        },
      },
      async (req) => {
        requireDemoLoopback(config, req.ip);
        const { symbol, price } = req.body;
        const listing = marketData.listing(symbol, 'CONTRACT');
        if (!listing || listing.quote !== 'USDT') throw new AppError('market_not_found', 400, 'symbol');
        const normalized = formatDecimal(pinnedPriceUnits(price, listing.priceDecimals), listing.priceDecimals);
        referenceOverrides.set(listing.base, normalized);
        req.log.info({ symbol, price: normalized }, 'reference price pinned (test control)');
        return ok({ symbol, price: normalized });
      },
    );
    app.post(
      `/api/${CONTRACT_MARKET_PATHS.demoSilenceIndexSources}`,
      {
        schema: {
          tags: ['demo'],
          summary:
            "Demo mode, loopback clients only (a test control): every index source of the contract stops (silent) or speaks again; a silent contract's index is stale and the contract pauses within a second.",
          body: SilenceIndexSourcesBody,
          response: { 200: Envelope(Type.Object({ symbol: Type.String(), silent: Type.Boolean() })) },
        },
      },
      async (req) => {
        requireDemoLoopback(config, req.ip);
        const { symbol, silent } = req.body;
        const listing = marketData.listing(symbol, 'CONTRACT');
        if (!listing || listing.quote !== 'USDT') throw new AppError('market_not_found', 400, 'symbol');
        referenceOverrides.silence(listing.base, silent);
        req.log.info({ symbol, silent }, 'index sources silenced (test control)');
        return ok({ symbol, silent });
      },
    );
  };
}
