/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the engine host takes commands — not failed
 * on a journal write, not too far ahead of the database — and the database is reachable).
 */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import type { PlatformContext } from '../platform-context';

/** The health checks over the engine port (`host.ready`) and the database (`db`). */
export default function health({ host, db }: Pick<PlatformContext, 'host' | 'db'>): FastifyPluginAsync {
  return async function health(app) {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
      if (!host.ready) return reply.status(503).send({ status: 'unavailable' });
      try {
        await db.execute(sql`select 1`);
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'unavailable' });
      }
    });
  };
}
