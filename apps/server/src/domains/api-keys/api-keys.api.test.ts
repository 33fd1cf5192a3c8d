/**
 * Proves API key management through app.inject on the real app: create needs the second factor (missing and wrong
 * codes refused, nothing stored); an HMAC key's secret is answered once (never listed), an Ed25519 key takes only
 * an Ed25519 public key; limits (30 keys, 30 IPs), bad whitelists, withdraw without a whitelist refused; a new key
 * signs GET /api/v3/account on the real Binance scope; one user can never list nor delete another's key; a
 * deleted key stops at once; the security log records creation and deletion; the console lists a user's keys
 * (permission view) and deletes one (user_freeze: support 403) with its audit row, the key stopping at once.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull } from 'drizzle-orm';
import { MAX_API_KEYS_PER_USER } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { apiKeys } from './api-keys.tables';
import { auditLog } from '../../platform/db/schema/audit';
import { securityEvents } from '../security/security.tables';
import { totpAt } from '../admin/totp';
import { listOutbox } from '../verification/outbox.repository';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { allowResend, get, passPuzzle, post } from '../member/member-test-app';
import { hmacHex, queryOf } from '../../gateways/binance/binance.test-scope';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const ops: Record<'admin' | 'support', string> = { admin: '', support: '' };

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  alice = await loginUser(t, 'alice@keys.test');
  bob = await loginUser(t, 'bob@keys.test');
  for (const role of ['admin', 'support'] as const) {
    const email = `${role}@keys.test`;
    const op = await t.ctx.admin.createOperator(null, { email, name: role, role });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { email, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
    });
    expect(r.json().status, r.body).toBe('SUCCEED');
    ops[role] = r.json().result.token as string;
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A VERIFY code sent to the user's own e-mail (read from the demo outbox). */
async function verifyCode(u: TestUser, mail: string): Promise<string> {
  await allowResend(t);
  const res = await post(t.app, 'data/sms/sendCode', { type: 'VERIFY', ...(await passPuzzle(t)) }, { headers: u.headers });
  expect(res.json().status, res.body).toBe('SUCCEED');
  return (await listOutbox(t.ctx.db, mail))[0]!.code;
}

type Body = { status: string; errorCode: string; result: unknown };
const create = (u: TestUser, body: Record<string, string | undefined>) => post(t.app, 'member/apiKey/create', body, { headers: u.headers });
const list = (u: TestUser) => get(t.app, 'member/apiKey/list', {}, { headers: u.headers });
const remove = (u: TestUser, id: string) => post(t.app, 'member/apiKey/delete', { id }, { headers: u.headers });

async function liveKeys(userId: string): Promise<number> {
  const [r] = await t.ctx.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, BigInt(userId)), isNull(apiKeys.deletedAt)));
  return Number(r!.n);
}

/** GET /api/v3/account signed with an HMAC key. */
function account(apiKey: string, secret: string) {
  const q = queryOf({ timestamp: t.ctx.clock.now() });
  return t.app.inject({ method: 'GET', url: `/api/v3/account?${q}&signature=${hmacHex(secret, q)}`, headers: { 'x-mbx-apikey': apiKey } });
}

describe('API keys of a user', () => {
  let aliceKey: { id: string; apiKey: string; secret: string };

  it('asks for the second factor, then creates an HMAC key whose secret is answered once', async () => {
    const form = { label: 'grid bot', keyType: 'HMAC_SHA256', spotTrade: 'true' };
    expect((await create(alice, form)).json<Body>().errorCode).toBe('verify_code_required');
    const wrong = await create(alice, { ...form, verifyCode: '000000' });
    expect(wrong.json<Body>().errorCode).toBe('code_invalid');
    expect(await liveKeys(alice.userId)).toBe(0);

    const res = await create(alice, { ...form, verifyCode: await verifyCode(alice, 'alice@keys.test') });
    const body = res.json<{ status: string; result: { key: Record<string, unknown>; secretKey: string } }>();
    expect(body.status, res.body).toBe('SUCCEED');
    expect(body.result.secretKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(body.result.key).toMatchObject({
      label: 'grid bot',
      keyType: 'HMAC_SHA256',
      read: true,
      spotTrade: true,
      futuresTrade: false,
      withdraw: false,
      ipWhitelist: [],
      lastUsedAt: null,
    });
    expect(body.result.key.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    aliceKey = { id: body.result.key.id as string, apiKey: body.result.key.apiKey as string, secret: body.result.secretKey };
    // Stored sealed: the secret is nowhere in the row.
    const [row] = await t.ctx.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, BigInt(aliceKey.id)));
    expect(JSON.stringify({ ...row, id: String(row!.id), userId: String(row!.userId) })).not.toContain(aliceKey.secret);
    expect(row!.sealedSecret).toMatch(/^v1\./);
    // The list never carries the secret.
    const listed = list(alice);
    const l = (await listed).json<{ result: Array<Record<string, unknown>> }>().result;
    expect(l.map((k) => k.id)).toEqual([aliceKey.id]);
    expect(JSON.stringify(l)).not.toContain(aliceKey.secret);
    expect(Object.keys(l[0]!)).not.toContain('secretKey');
    const log = await t.ctx.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, BigInt(alice.userId)));
    expect(log.map((e) => `${e.type}:${e.detail}`)).toContain('API_KEY_CREATED:HMAC_SHA256');
  });

  it('signs a real Binance route with the new key', async () => {
    const res = await account(aliceKey.apiKey, aliceKey.secret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('balances');
  });

  it('never lets another user list or delete the key', async () => {
    expect((await list(bob)).json<{ result: unknown[] }>().result).toEqual([]);
    const r = await remove(bob, aliceKey.id);
    expect(r.statusCode).toBe(404);
    expect(r.json<Body>().errorCode).toBe('api_key_not_found');
    expect(await liveKeys(alice.userId)).toBe(1);
    expect((await account(aliceKey.apiKey, aliceKey.secret)).statusCode).toBe(200);
  });

  it('refuses bad Ed25519 keys, bad whitelists and withdraw without a whitelist before asking for the code', async () => {
    const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const ed = crypto.generateKeyPairSync('ed25519');
    const edPrivate = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const [body, code] of [
      [{ keyType: 'ED25519' }, 'api_key_public_key_invalid'],
      [{ keyType: 'ED25519', publicKey: rsa }, 'api_key_public_key_invalid'],
      [{ keyType: 'ED25519', publicKey: edPrivate }, 'api_key_public_key_invalid'],
      [{ keyType: 'ED25519', publicKey: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----' }, 'api_key_public_key_invalid'],
      [{ keyType: 'HMAC_SHA256', ipWhitelist: '1.2.3.4 example.com' }, 'api_key_ip_invalid'],
      [{ keyType: 'HMAC_SHA256', ipWhitelist: Array.from({ length: 31 }, (_, i) => `10.0.0.${i + 1}`).join(',') }, 'api_key_ip_limit'],
      [{ keyType: 'HMAC_SHA256', withdraw: 'true' }, 'api_key_withdraw_needs_ip'],
    ] as const) {
      const r = await create(bob, { label: 'x', verifyCode: '000000', ...body });
      expect(r.json<Body>().errorCode, JSON.stringify(body)).toBe(code);
    }
    expect(await liveKeys(bob.userId)).toBe(0);
  });

  it('creates an Ed25519 key with no secret, a whitelist in canonical form', async () => {
    const ed = crypto.generateKeyPairSync('ed25519');
    const pem = ed.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const res = await create(bob, {
      label: 'ed',
      keyType: 'ED25519',
      publicKey: pem,
      futuresTrade: 'true',
      withdraw: 'true',
      ipWhitelist: '10.0.0.1\n2001:DB8:0:0::1, 10.0.0.1',
      verifyCode: await verifyCode(bob, 'bob@keys.test'),
    });
    const body = res.json<{ status: string; result: { key: Record<string, unknown>; secretKey: string | null } }>();
    expect(body.status, res.body).toBe('SUCCEED');
    expect(body.result.secretKey).toBeNull();
    expect(body.result.key).toMatchObject({
      keyType: 'ED25519',
      futuresTrade: true,
      spotTrade: false,
      withdraw: true,
      ipWhitelist: ['10.0.0.1', '2001:db8::1'],
    });
  });

  it('stops at MAX_API_KEYS_PER_USER keys', async () => {
    const uid = BigInt(alice.userId);
    const n = await liveKeys(alice.userId);
    const rows = Array.from({ length: MAX_API_KEYS_PER_USER - n }, (_, i) => ({
      userId: uid,
      label: `f${i}`,
      keyType: 'ED25519',
      apiKey: `filler${i}`.padEnd(64, 'x'),
      publicKey: 'x',
      createdAt: new Date(),
    }));
    await t.ctx.db.insert(apiKeys).values(rows);
    const r = await create(alice, { label: 'one more', keyType: 'HMAC_SHA256', verifyCode: '000000' });
    expect(r.json<Body>().errorCode).toBe('api_key_limit');
    await t.ctx.db.delete(apiKeys).where(and(eq(apiKeys.userId, uid), eq(apiKeys.publicKey, 'x')));
  });

  it('deletes its own key, which stops at once', async () => {
    const r = await remove(alice, aliceKey.id);
    expect(r.json<Body>().status, r.body).toBe('SUCCEED');
    const refused = await account(aliceKey.apiKey, aliceKey.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    expect((await list(alice)).json<{ result: unknown[] }>().result).toEqual([]);
    expect((await remove(alice, aliceKey.id)).json<Body>().errorCode).toBe('api_key_not_found');
    const log = await t.ctx.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, BigInt(alice.userId)));
    expect(log.map((e) => e.type)).toContain('API_KEY_DELETED');
  });
});

describe('API keys in the console', () => {
  it('lists a user key for an operator, deletes it with an audit row (user_freeze only), and the key stops at once', async () => {
    const res = await create(alice, { label: 'console', keyType: 'HMAC_SHA256', verifyCode: await verifyCode(alice, 'alice@keys.test') });
    const made = res.json<{ result: { key: { id: string; apiKey: string }; secretKey: string } }>().result;
    expect((await account(made.key.apiKey, made.secretKey)).statusCode).toBe(200);

    const adminGet = (token: string, userId: string) =>
      t.app.inject({ method: 'GET', url: `/api/admin/apiKey/list?userId=${userId}`, headers: { 'x-admin-token': token } });
    const adminDel = (token: string, id: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/apiKey/delete', payload: { id, reason: 'compromised' }, headers: { 'x-admin-token': token } });
    expect((await adminGet('', alice.userId)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/apiKey/list?userId=${alice.userId}`, headers: { 'x-admin-token': alice.token } })).statusCode,
    ).toBe(401);
    const listed = (await adminGet(ops.support, alice.userId)).json<{ result: Array<{ id: string; apiKey: string }> }>().result;
    // support sees the key masked (first and last 4 characters), the admin (who may revoke it) whole
    expect(listed.map((k) => [k.id, k.apiKey])).toEqual([[made.key.id, `${made.key.apiKey.slice(0, 4)}…${made.key.apiKey.slice(-4)}`]]);
    const whole = (await adminGet(ops.admin, alice.userId)).json<{ result: Array<{ apiKey: string }> }>().result;
    expect(whole.map((k) => k.apiKey)).toEqual([made.key.apiKey]);

    const forbidden = await adminDel(ops.support, made.key.id);
    expect(forbidden.statusCode).toBe(403);
    expect((await account(made.key.apiKey, made.secretKey)).statusCode).toBe(200);

    const del = await adminDel(ops.admin, made.key.id);
    expect(del.json<Body>().status, del.body).toBe('SUCCEED');
    expect((await account(made.key.apiKey, made.secretKey)).statusCode).toBe(401);
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'api_key_delete'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetUserId: BigInt(alice.userId), operatorEmail: 'admin@keys.test', after: { deleted: true, reason: 'compromised' } });
    expect((await adminDel(ops.admin, made.key.id)).json<Body>().errorCode).toBe('api_key_not_found');
    expect(await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'api_key_delete'))).toHaveLength(1);
  });
});
