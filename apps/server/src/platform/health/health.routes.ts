/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the engine host takes commands — not failed
 * on a journal write, not too far ahead of the database — and the database is reachable).
 */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';

const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    if (!app.ctx.host.ready) return reply.status(503).send({ status: 'unavailable' });
    try {
      await app.ctx.db.execute(sql`select 1`);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
export default health;
