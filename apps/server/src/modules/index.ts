/**
 * Every route module of the app, registered in this order by app.ts. Each is a Fastify plugin that reads
 * what it needs from `app.ctx`.
 */
import type { FastifyPluginAsync } from 'fastify';
import health from './health/health.routes';

export const modules: FastifyPluginAsync[] = [health];
