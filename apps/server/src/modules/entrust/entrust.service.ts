// PLACEHOLDER: replaced by the trading engineer. Only the interface below is agreed.
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { CancelEntrustBody, Entrust, SetEntrustBody } from '@exchange/api';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { EngineHost } from '../../engine-host/engine-host';

export interface EntrustService {
  /** Place a spot order for userId (throws AppError with the engine's reject code). */
  place(userId: string, body: Static<typeof SetEntrustBody>): Promise<Entrust>;
  /** Cancel one of userId's orders (throws AppError order_not_found). */
  cancel(userId: string, body: Static<typeof CancelEntrustBody>): Promise<Entrust>;
}

export function createEntrustService(_deps: { config: Config; db: Db; log: FastifyBaseLogger; host: EngineHost }): EntrustService {
  throw new Error('entrust service not built yet');
}
