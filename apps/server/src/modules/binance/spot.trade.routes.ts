/**
 * Binance spot trading and account endpoints under /api/v3 (issue 15): order entry, cancel and queries through the
 * app's EntrustService (one path into the engine), balances from the engine's SPOT account.
 */
import type { FastifyPluginAsync } from 'fastify';

const spotTradeRoutes: FastifyPluginAsync = async () => {};

export default spotTradeRoutes;
