/** Route of asset/asset: getAssets, behind requireAuth. Reads the engine's balances through AssetService. */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { API_PATHS, Assets, Envelope } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { createAssetService } from './asset.service';

/** The asset route over the engine's balances (`deps`: what the asset service reads). */
export default function assetRoutes(deps: Parameters<typeof createAssetService>[0]): FastifyPluginAsync {
  return async function assetRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const assets = createAssetService(deps);

    app.get(
      `/api/${API_PATHS.getAssets}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: ['asset'],
          summary: 'Your four accounts (ASSETS, SPOT, CONTRACT, OTC) with every coin and totals in USDT and CNY (rounded down)',
          response: { 200: Envelope(Assets) },
        },
      },
      async (req) => ok(assets.getAssets(req.userId)),
    );
  };
}
