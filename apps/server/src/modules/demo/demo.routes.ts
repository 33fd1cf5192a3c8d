/**
 * GET /api/demo/outbox?account=...: the codes the demo sender "sent" to an account, newest first.
 * Answers a 404 FAILED envelope unless demo mode is on (never in production).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_PATHS, Envelope, OutboxMessage, OutboxQuery } from '@exchange/api';
import { ok } from '../../shared/envelope';
import { AppError } from '../../shared/errors';
import { listOutbox } from './outbox.repository';

const demoRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `/api/${API_PATHS.demoOutbox}`,
    {
      schema: {
        tags: ['demo'],
        summary: 'Demo mode only: verification codes sent to an account (e-mail or phone digits), newest first',
        querystring: OutboxQuery,
        response: { 200: Envelope(Type.Array(OutboxMessage)) },
      },
    },
    async (req) => {
      if (!app.ctx.config.demoMode) throw new AppError('not_found', 404);
      const account = req.query.account.trim();
      const key = account.includes('@') ? account.toLowerCase() : account.replace(/[\s-]/g, '');
      return ok(await listOutbox(app.ctx.db, key));
    },
  );
};
export default demoRoutes;
