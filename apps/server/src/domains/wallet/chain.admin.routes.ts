/**
 * Console routes of the chain side of the wallet (ADMIN_PATHS deposits, chainAlerts, hotWallet; header x-admin-token,
 * permission `view`: every role reads them): the deposit monitor (every status, newest first, 20 a page), the chain
 * alerts (reorgs deeper than the confirmations, cursor resets), and per coin the hot wallet and the deposit addresses'
 * balances on chain against the users' liabilities in the engine. Read-only: no audit rows.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_PATHS, AdminDepositsPage, AdminDepositsQuery, ChainAlerts, Envelope, HotWallet } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import type { ChainService } from './chain.service';
import type { PlatformContext } from '../../platform/platform-context';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });
/** Rows per page of the deposit monitor. */
export const DEPOSITS_PAGE_SIZE = 20;

/** A page number from 1 (absent = 1); validation_failed (field page) otherwise. */
export function pageOf(page: string | undefined): number {
  if (page === undefined || page === '') return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(page)) throw new AppError('validation_failed', 400, 'page');
  return Number(page);
}

/** The console's chain routes over the chain service (and the log, for a chain node that does not answer). */
export default function chainAdminRoutes({ chain, log }: { chain: ChainService } & Pick<PlatformContext, 'log'>): FastifyPluginAsync {
  return async function chainAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const view = requireOperator('view');
    app.get(
      `/api/${ADMIN_PATHS.deposits}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Deposit monitor: chain deposits of every user (CONFIRMING, CREDITED, BELOW_MINIMUM, ORPHANED), newest first, 20 a page',
          headers: ADMIN_HEADERS,
          querystring: AdminDepositsQuery,
          response: { 200: Envelope(AdminDepositsPage) },
        },
      },
      async (req) => {
        const status = req.query.status === undefined || req.query.status === 'ALL' ? undefined : req.query.status;
        return ok(await chain.adminDeposits({ status, page: pageOf(req.query.page), pageSize: DEPOSITS_PAGE_SIZE }));
      },
    );
    app.get(
      `/api/${ADMIN_PATHS.chainAlerts}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Chain alerts (deep reorgs, cursor resets), newest first (at most 200)',
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(ChainAlerts) },
        },
      },
      async () => ok(await chain.alerts()),
    );
    app.get(
      `/api/${ADMIN_PATHS.hotWallet}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: "Per chain and coin: the hot wallet's and the deposit addresses' balances on chain against every user's balance in the engine",
          headers: ADMIN_HEADERS,
          response: { 200: Envelope(HotWallet) },
        },
      },
      async () => {
        try {
          return ok(await chain.hotWallet());
        } catch (err) {
          // The node is down: say so rather than a 500.
          log.warn({ err }, 'hot wallet balances: the chain node did not answer');
          throw new AppError('chain_node_unavailable', 503);
        }
      },
    );
  };
}
