/**
 * POST asset/wallet/demoDeposit (API_PATHS.demoDeposit; auth): in demo mode, the dev chain of network `chain` (ETH, BSC,
 * ARBITRUM, MATIC) has its faucet pay `amount` of ETH or USDT to the caller's deposit address, a real transaction the
 * network's watcher then sees and credits after its confirmations. At most 10000 USDT / 10 ETH a request; the amount a decimal with no more places than the coin has
 * on chain (and at most 8). Outside demo mode, or without a dev chain: 404 not_found.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { API_PATHS, DemoDepositBody, DemoDepositResult, Envelope } from '@exchange/api';
import { tryParseDecimal } from '@exchange/core';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { ENGINE_SCALE } from './chains';
import type { ChainService } from './chain.service';

/** The demo deposit route over the chain service. */
export default function demoDepositRoutes({ chain }: { chain: ChainService }): FastifyPluginAsync {
  return async function demoDepositRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    app.post(
      `/api/${API_PATHS.demoDeposit}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: ['wallet'],
          summary:
            "Demo mode only: the dev chain's faucet pays the amount (at most 10000 USDT or 10 ETH) to your deposit address; answers the transaction hash",
          body: DemoDepositBody,
          response: { 200: Envelope(DemoDepositResult) },
        },
      },
      async (req) => {
        if (!chain.demoDepositEnabled) throw new AppError('not_found', 404);
        const { coin, amount } = req.body;
        const network = chain.network(req.body.chain);
        if (!network?.demoDepositEnabled) throw new AppError('chain_not_available', 400, 'chain');
        if (!network.coins().some((x) => x.coin === coin)) throw new AppError('chain_not_available', 400, 'coin');
        // Engine units; more places than the coin has on chain is refused by demoDeposit (amount_invalid).
        const parsed = tryParseDecimal(amount.trim(), ENGINE_SCALE);
        if (!parsed.ok) throw new AppError('amount_invalid', 400, 'amount');
        return ok(await chain.demoDeposit(req.userId, coin, parsed.value, network.code));
      },
    );
  };
}
