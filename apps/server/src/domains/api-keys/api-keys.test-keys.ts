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

/**
 * Creates an HMAC key of `userId` in the app's database: spot trading unless `spotTrade` is false, futures trading when
 * `futuresTrade` is true.
 */
export async function createTestKey(t: TestApp, userId: string, opts: { spotTrade?: boolean; futuresTrade?: boolean } = {}): Promise<TestKey> {
  const svc = createApiKeyService({
    db: t.ctx.db,
    host: t.ctx.host,
    box: secretBoxFromConfig(t.ctx.config),
    security: () => noSecondFactor,
    log: t.ctx.log,
    now: t.ctx.clock.now,
    cacheMs: 0,
  });
  const c = await svc.create(
    userId,
    { label: 'test', keyType: 'HMAC_SHA256', spotTrade: opts.spotTrade ?? true, futuresTrade: opts.futuresTrade ?? false },
    { ip: '127.0.0.1', userAgent: 'test' },
  );
  return { apiKey: c.key.apiKey, secret: c.secretKey! };
}

/** A key with the user it belongs to. */
export type TestUserKey = TestKey & { userId: string };

/**
 * The user of `email` (created with a test password if new) and an HMAC key of theirs (createTestKey's `opts`).
 */
export async function createTestUserKey(t: TestApp, email: string, opts: { spotTrade?: boolean; futuresTrade?: boolean } = {}): Promise<TestUserKey> {
  const { userId } = await t.ctx.members.ensureEmailUser(email, 'secret-pass-1', '');
  return { ...(await createTestKey(t, userId, opts)), userId };
}

/** A Binance answer: HTTP status, parsed JSON and the request weight used in the minute (x-mbx-used-weight-1m). */
export interface BinanceAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Binance answers of many shapes, checked field by field
  body: any;
  weight: number;
}

/**
 * A signed caller with `key` (or an unsigned one with null): parameters in the query string (GET, DELETE) or the form
 * body (POST, PUT), `timestamp` added from the app's clock and `signature` appended.
 */
export function signedCaller(t: () => TestApp) {
  return async (
    key: TestKey | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    params: Record<string, string | number> = {},
  ): Promise<BinanceAnswer> => {
    const all = key ? { ...params, timestamp: t().ctx.clock.now() } : params;
    const payload = new URLSearchParams(Object.entries(all).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const signed = key ? `${payload}&signature=${crypto.createHmac('sha256', key.secret).update(payload).digest('hex')}` : payload;
    const headers: Record<string, string> = key ? { 'x-mbx-apikey': key.apiKey } : {};
    const res =
      method === 'POST' || method === 'PUT'
        ? await t().app.inject({ method, url: path, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: signed })
        : await t().app.inject({ method, url: `${path}?${signed}`, headers });
    return { status: res.statusCode, body: res.json(), weight: Number(res.headers['x-mbx-used-weight-1m']) };
  };
}
