/**
 * Test support of the CCXT compatibility suite: an HMAC API key of a test user, created through the API key service
 * (ctx.apiKeys.create) with the real second factor: a VERIFY code sent to the user's e-mail (puzzle passed in captcha
 * test mode) and read back from the demo outbox.
 */
import type { TestApp } from '../helpers';
import { passPuzzle } from '../../src/domains/member/member-test-app';
import { listOutbox } from '../../src/domains/verification/outbox.repository';

/** An API key and its HMAC secret. */
export interface TestKey {
  apiKey: string;
  secret: string;
}

/** Creates an HMAC key of the e-mail user `userId` (`mail`) with read and the given trade permissions. */
export async function createTestKey(t: TestApp, userId: string, mail: string, perms: { spotTrade?: boolean; futuresTrade?: boolean }): Promise<TestKey> {
  const pass = await passPuzzle(t);
  await t.ctx.security.sendVerifyCode(userId, 'EMAIL', { ip: '127.0.0.1', lang: 'en', pass });
  const code = (await listOutbox(t.ctx.db, mail))[0]?.code;
  if (code === undefined) throw new Error(`no VERIFY code in the demo outbox for ${mail}`);
  const created = await t.ctx.apiKeys.create(
    userId,
    { label: 'ccxt', keyType: 'HMAC_SHA256', spotTrade: perms.spotTrade ?? false, futuresTrade: perms.futuresTrade ?? false, verifyCode: code },
    { ip: '127.0.0.1', userAgent: 'ccxt-test' },
  );
  if (created.secretKey === null) throw new Error('an HMAC key came without its secret');
  return { apiKey: created.key.apiKey, secret: created.secretKey };
}
