/**
 * GET contract/market/getIndexComponents?symbol= (public, packages/api contract-market.ts IndexComponents): the
 * sources of a perpetual's last index tick, their prices, weights and what the rule did with each. An unknown market
 * is market_not_found (400, field symbol) in the request's language.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CONTRACT_MARKET_PATHS, ContractSymbolQuery, Envelope, IndexComponents } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import type { PlatformContext } from '../../platform/platform-context';
import type { IndexComponentsService } from './index-components.service';

/** The route over the components service and the engine port (which perpetual markets exist). */
export default function indexPriceRoutes({
  indexComponents,
  host,
}: { indexComponents: IndexComponentsService } & Pick<PlatformContext, 'host'>): FastifyPluginAsync {
  return async function indexPriceRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      `/api/${CONTRACT_MARKET_PATHS.getIndexComponents}`,
      {
        schema: {
          tags: ['contract market'],
          summary: "The sources of a perpetual's last index price tick: price, weight and status of each",
          querystring: ContractSymbolQuery,
          response: { 200: Envelope(IndexComponents) },
        },
      },
      async (req) => {
        if (!host.engine.perpMarket(req.query.symbol)) throw new AppError('market_not_found', 400, 'symbol');
        return ok(await indexComponents.components(req.query.symbol));
      },
    );
  };
}
