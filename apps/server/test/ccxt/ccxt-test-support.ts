/**
 * Test support of the CCXT compatibility suite: API keys for test users.
 * TEMPORARY: until modules/api-keys lands, a minimal HMAC verifier is installed on ctx.apiKeys.
 */
import crypto from 'node:crypto';
import type { TestApp } from '../helpers';
import type { ApiKeyCaller, ApiKeyVerifier, KeyPermission } from '../../src/modules/binance/binance.auth';
import { BX } from '../../src/modules/binance/binance.errors';

/** An API key and its HMAC secret. */
export interface TestKey {
  apiKey: string;
  secret: string;
}

const keys = new Map<string, { secret: string; caller: ApiKeyCaller }>();

const stub: ApiKeyVerifier = {
  async keyed(apiKey, _ip, permission) {
    const k = keys.get(apiKey);
    if (!k || (permission && !k.caller.permissions.includes(permission))) throw BX.rejectedApiKey();
    return k.caller;
  },
  async signed({ apiKey, ip, payload, signature, timestamp, recvWindow, permission }) {
    const caller = await stub.keyed(apiKey, ip, permission);
    const want = crypto.createHmac('sha256', keys.get(apiKey)!.secret).update(payload).digest('hex');
    if (want !== signature) throw BX.badSignature();
    if (Math.abs(Date.now() - Number(timestamp)) > Number(recvWindow ?? 5000)) throw BX.timestampOutside();
    return caller;
  },
};

/** Creates an HMAC key of `userId` with `perms` (read always). */
export async function createTestKey(t: TestApp, userId: string, perms: { spotTrade?: boolean; futuresTrade?: boolean }): Promise<TestKey> {
  (t.ctx as { apiKeys: ApiKeyVerifier }).apiKeys = stub;
  const apiKey = crypto.randomBytes(32).toString('hex');
  const secret = crypto.randomBytes(32).toString('hex');
  const permissions: KeyPermission[] = ['read'];
  if (perms.spotTrade) permissions.push('spotTrade');
  if (perms.futuresTrade) permissions.push('futuresTrade');
  keys.set(apiKey, { secret, caller: { userId, keyId: apiKey.slice(0, 8), permissions } });
  return { apiKey, secret };
}
