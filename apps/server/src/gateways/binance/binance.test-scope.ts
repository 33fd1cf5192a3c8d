/**
 * Test helpers of the API key tests: a Fastify app with the Binance scope's real hooks and error handler
 * (binance.hooks.ts, binance.errors.ts) over the limits, clock and API keys of a test context, and two tiny keyed
 * routes under /api/v3 whose handlers count their calls (so a refused request is proved to reach no handler):
 * GET /api/v3/testAccount (USER_DATA, weight 20) and POST /api/v3/testOrder (TRADE, spotTrade, an order route,
 * weight 1). Plus request signing as a Binance client does it (HMAC-SHA256 hex, Ed25519 base64).
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import type { SecurityService } from '../../domains/security/security.service';
import { createApiKeyService, type ApiKeyService } from '../../domains/api-keys/api-keys.service';
import { binanceErrorHandler } from './binance.errors';
import { registerBinanceHooks } from './binance.hooks';
import { callerOf } from './binance.auth';

/** The application context as the app decorates it (`app.ctx`, declared in app.ts). */
type AppContext = FastifyInstance['ctx'];

/** The test scope and how often each handler ran. */
export interface TestScope {
  app: FastifyInstance;
  calls: { account: number; order: number };
}

/** Builds the test scope over `ctx` (ready to inject); `extra` adds routes of a test's own to the scope. */
export async function makeTestScope(ctx: AppContext, extra?: (scope: FastifyInstance) => void): Promise<TestScope> {
  const app = Fastify({ logger: false });
  // The tests read the context's services back from the app (`s.app.ctx.apiKeys`); the hooks get theirs below.
  app.decorate('ctx', ctx);
  const calls = { account: 0, order: 0 };
  await app.register(async (scope) => {
    scope.setErrorHandler(binanceErrorHandler);
    registerBinanceHooks(scope, { config: ctx.config, clock: ctx.clock, apiKeys: ctx.apiKeys });
    scope.get('/api/v3/testAccount', { config: { binance: { weight: 20, security: 'USER_DATA' } } }, async (req) => {
      calls.account++;
      return { userId: callerOf(req).userId };
    });
    scope.post('/api/v3/testOrder', { config: { binance: { weight: 1, security: 'TRADE', permission: 'spotTrade', order: true } } }, async (req) => {
      calls.order++;
      return { userId: callerOf(req).userId };
    });
    scope.get('/api/v3/testPublic', { config: { binance: { weight: 2, security: 'NONE' } } }, async () => ({}));
    extra?.(scope);
  });
  await app.ready();
  return { app, calls };
}

/** The query (or form) string of `params` in the given order, as a client sends it. */
export function queryOf(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

/** Hex HMAC-SHA256 of `payload` with `secret` (Binance's HMAC signature). */
export function hmacHex(secret: string, payload: string): string {
  return crypto.createHmac('sha256', secret).update(payload).digest('hex');
}

/** Base64 Ed25519 signature of `payload` (Binance's Ed25519 signature). */
export function ed25519Base64(privateKey: crypto.KeyObject, payload: string): string {
  return crypto.sign(null, Buffer.from(payload), privateKey).toString('base64');
}

/** A security service that accepts any second factor (the routes' test proves the real one is asked). */
const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

/** An API key service over `ctx` whose create skips the second factor (cache trusted 5 s). */
export function keyServiceWithoutSecondFactor(ctx: AppContext): ApiKeyService {
  return createApiKeyService({
    db: ctx.db,
    host: ctx.host,
    box: secretBoxFromConfig(ctx.config),
    security: () => noSecondFactor,
    log: ctx.log,
    now: ctx.clock.now,
    cacheMs: 5000,
  });
}

/** Registers a user through the engine (as the member service does) with e-mail `mail`; its id. */
export async function registerEngineUser(ctx: AppContext, mail: string): Promise<string> {
  const r = await ctx.host.submit({ type: 'registerUser', account: `mail:${mail}`, uniqueKeys: [], profile: { mail, passwordHash: 'x' } });
  await ctx.host.projected();
  return r.userId!;
}
