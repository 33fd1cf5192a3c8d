// PLACEHOLDER: replaced by the market-data engineer. Only the interface below is agreed.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { EngineHost } from '../../engine-host/engine-host';

export interface MarketDataService {
  close(): Promise<void>;
}

export async function createMarketDataService(_deps: { config: Config; db: Db; log: FastifyBaseLogger; host: EngineHost }): Promise<MarketDataService> {
  throw new Error('market data service not built yet');
}
