/**
 * Test support of the Binance spot API tests: HMAC API keys created through the key service (with a second factor
 * that always passes: the key routes' own tests prove it is asked) and a caller that signs requests as a Binance
 * client does (CCXT's way: GET/DELETE parameters in the query string, POST in a form body, `timestamp` and
 * `signature` = hex HMAC-SHA256 of the query string followed by the body).
 */
import crypto from 'node:crypto';
import type { TestApp } from '../../../test/helpers';
import { createApiKeyService } from './api-keys.service';
import type { SecurityService } from '../security/security.service';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';

/** A key's public string and secret. */
export interface TestKey {
  apiKey: string;
  secret: string;
}

const noSecondFactor = { verifySecondFactor: async () => {}, recordSecurityEvent: async () => {} } as unknown as SecurityService;

/** Creates an HMAC key of `userId` (spot trading unless `spotTrade` is false) in the app's database. */
export async function createTestKey(t: TestApp, userId: string, opts: { spotTrade?: boolean } = {}): Promise<TestKey> {
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(userId, { label: 'test', keyType: 'HMAC_SHA256', spotTrade: opts.spotTrade ?? true }, { ip: '127.0.0.1', userAgent: 'test' });
  return { apiKey: c.key.apiKey, secret: c.secretKey! };
}

/** A Binance answer: HTTP status and parsed JSON. */
export interface BinanceAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Binance answers of many shapes, checked field by field
  body: any;
}

/** A signed caller with `key` (or an unsigned one with null): method, path and parameters as strings. */
export function signedCaller(t: () => TestApp) {
  return async (key: TestKey | null, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}): Promise<BinanceAnswer> => {
    const all = key ? { ...params, timestamp: String(t().ctx.clock.now()) } : params;
    const payload = new URLSearchParams(all).toString();
    const signed = key ? `${payload}&signature=${crypto.createHmac('sha256', key.secret).update(payload).digest('hex')}` : payload;
    const headers: Record<string, string> = key ? { 'x-mbx-apikey': key.apiKey } : {};
    const res =
      method === 'POST'
        ? await t().app.inject({ method, url: path, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: signed })
        : await t().app.inject({ method, url: `${path}?${signed}`, headers });
    return { status: res.statusCode, body: res.json() };
  };
}
