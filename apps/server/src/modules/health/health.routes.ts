/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: database reachable). */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';

const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await app.ctx.db.execute(sql`select 1`);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
export default health;
