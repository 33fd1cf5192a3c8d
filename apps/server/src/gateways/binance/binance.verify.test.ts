/**
 * Proves the API key verifier (domains/api-keys/api-keys.service.ts) through the Binance scope's real hooks with app.inject: a
 * correct HMAC signature passes; a wrong secret -1022; an expired timestamp, one more than 1 s ahead and the replay
 * of a captured request after its recvWindow -1021; reordered parameters pass when signed in that order and -1022
 * with the signature of another order; recvWindow above 60000 -1131; a key without trade permission -2015 on a TRADE
 * route while it reads; a whitelisted key from another IP -2015; a deleted key and a frozen account's key -2015 at
 * once; an Ed25519 key signs; a missing or malformed key -2014/-2015. Every refusal reaches no handler (the
 * handlers count their calls), and last_used_at is written once.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { apiKeys } from '../../domains/api-keys/api-keys.tables';
import type { ApiKeyService } from '../../domains/api-keys/api-keys.service';
import { ed25519Base64, hmacHex, keyServiceWithoutSecondFactor, makeTestScope, queryOf, registerEngineUser, type TestScope } from './binance.test-scope';

let t: TestApp;
let svc: ApiKeyService;
let s: TestScope;
let userId: string;
const REQ = { ip: '127.0.0.1', userAgent: 'test' };

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  svc = keyServiceWithoutSecondFactor(t.ctx);
  s = await makeTestScope({ ...t.ctx, apiKeys: svc });
  userId = await registerEngineUser(t.ctx, 'verify@example.com');
});
afterAll(async () => {
  await s?.app.close();
  await t?.close();
});

/** Creates an HMAC key for the user; returns its public string and secret. */
async function hmacKey(opts: { spotTrade?: boolean; ipWhitelist?: string } = {}): Promise<{ apiKey: string; secret: string; id: string }> {
  const c = await svc.create(userId, { label: 'k', keyType: 'HMAC_SHA256', spotTrade: opts.spotTrade ?? true, ipWhitelist: opts.ipWhitelist }, REQ);
  return { apiKey: c.key.apiKey, secret: c.secretKey!, id: c.key.id };
}

/** A signed GET /api/v3/testAccount or POST /api/v3/testOrder with the query signed as given. */
function send(path: 'testAccount' | 'testOrder', apiKey: string, query: string, signature: string, remoteAddress = '127.0.0.1') {
  return s.app.inject({
    method: path === 'testOrder' ? 'POST' : 'GET',
    url: `/api/v3/${path}?${query}&signature=${encodeURIComponent(signature)}`,
    headers: { 'x-mbx-apikey': apiKey },
    remoteAddress,
  });
}

function expectBinance(res: { statusCode: number; json(): unknown }, code: number): void {
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.statusCode).toBeLessThan(500);
  expect((res.json() as { code: number }).code, JSON.stringify(res.json())).toBe(code);
}

describe('HMAC signatures', () => {
  it('passes a correct signature and refuses a wrong secret, reaching no handler', async () => {
    const k = await hmacKey();
    const q = queryOf({ symbol: 'BTCUSDT', side: 'BUY', timestamp: t.ctx.clock.now() });
    const ok = await send('testOrder', k.apiKey, q, hmacHex(k.secret, q));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ userId });
    // Upper-case hex is the same HMAC signature (Binance: HMAC signatures are not case-sensitive).
    expect((await send('testOrder', k.apiKey, q, hmacHex(k.secret, q).toUpperCase())).statusCode).toBe(200);
    const before = { ...s.calls };
    expectBinance(await send('testOrder', k.apiKey, q, hmacHex('x'.repeat(64), q)), -1022);
    expectBinance(await send('testOrder', k.apiKey, q, 'not-hex'), -1022);
    expectBinance(await send('testOrder', k.apiKey, `${q}&extra=1`, hmacHex(k.secret, q)), -1022);
    expect(s.calls).toEqual(before);
  });

  it('refuses expired, future and replayed timestamps with -1021 and a too large recvWindow with -1131', async () => {
    const k = await hmacKey();
    const now = t.ctx.clock.now();
    const expired = queryOf({ timestamp: now - 5001 });
    const ahead = queryOf({ timestamp: now + 1500 });
    const wide = queryOf({ recvWindow: 60001, timestamp: now });
    const before = { ...s.calls };
    expectBinance(await send('testAccount', k.apiKey, expired, hmacHex(k.secret, expired)), -1021);
    expectBinance(await send('testAccount', k.apiKey, ahead, hmacHex(k.secret, ahead)), -1021);
    expectBinance(await send('testAccount', k.apiKey, wide, hmacHex(k.secret, wide)), -1131);
    const bad = queryOf({ timestamp: 'abc' });
    expectBinance(await send('testAccount', k.apiKey, bad, hmacHex(k.secret, bad)), -1102);
    // A captured request passes within its recvWindow, and is refused once the window has passed.
    const captured = queryOf({ symbol: 'BTCUSDT', recvWindow: 2000, timestamp: t.ctx.clock.now() });
    const sig = hmacHex(k.secret, captured);
    expect((await send('testOrder', k.apiKey, captured, sig)).statusCode).toBe(200);
    t.ctx.clock.advance(2500);
    const afterCalls = { ...s.calls };
    expectBinance(await send('testOrder', k.apiKey, captured, sig), -1021);
    expect(s.calls).toEqual(afterCalls);
    expect(s.calls.account).toBe(before.account);
    // The widest window (60000, with microsecond decimals) accepts a timestamp 59 s old.
    const old = queryOf({ recvWindow: '60000.000', timestamp: t.ctx.clock.now() - 59_000 });
    expect((await send('testAccount', k.apiKey, old, hmacHex(k.secret, old))).statusCode).toBe(200);
    // A timestamp in microseconds (16 digits) is accepted.
    const micro = queryOf({ timestamp: t.ctx.clock.now() * 1000 });
    expect((await send('testAccount', k.apiKey, micro, hmacHex(k.secret, micro))).statusCode).toBe(200);
  });

  it('accepts parameters in any order when the signature covers that order, not a signature of another order', async () => {
    const k = await hmacKey();
    const ts = t.ctx.clock.now();
    const a = queryOf({ symbol: 'BTCUSDT', side: 'BUY', timestamp: ts });
    const b = queryOf({ timestamp: ts, side: 'BUY', symbol: 'BTCUSDT' });
    expect((await send('testOrder', k.apiKey, b, hmacHex(k.secret, b))).statusCode).toBe(200);
    const n = s.calls.order;
    expectBinance(await send('testOrder', k.apiKey, b, hmacHex(k.secret, a)), -1022);
    expect(s.calls.order).toBe(n);
  });

  it('signs over query string followed by the form body', async () => {
    const k = await hmacKey();
    const q = queryOf({ symbol: 'BTCUSDT' });
    const body = queryOf({ side: 'BUY', timestamp: t.ctx.clock.now() });
    const sig = hmacHex(k.secret, q + body);
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v3/testOrder?${q}`,
      headers: { 'x-mbx-apikey': k.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${body}&signature=${sig}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    // A key repeated in the body is refused (Binance -1101), never read as its last value.
    const dup = `${body}&side=SELL`;
    const n = s.calls.order;
    const r2 = await s.app.inject({
      method: 'POST',
      url: `/api/v3/testOrder?${q}`,
      headers: { 'x-mbx-apikey': k.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${dup}&signature=${hmacHex(k.secret, q + dup)}`,
    });
    expect(r2.json()).toEqual({ code: -1101, msg: 'Duplicate values for a parameter detected.' });
    expect(s.calls.order).toBe(n);
  });
});

describe('key, permission, IP, delete and freeze', () => {
  it('refuses a key without trade permission on a TRADE route while it reads', async () => {
    const k = await hmacKey({ spotTrade: false });
    const q = queryOf({ timestamp: t.ctx.clock.now() });
    expect((await send('testAccount', k.apiKey, q, hmacHex(k.secret, q))).statusCode).toBe(200);
    const n = s.calls.order;
    expectBinance(await send('testOrder', k.apiKey, q, hmacHex(k.secret, q)), -2015);
    expect(s.calls.order).toBe(n);
  });

  it('refuses a whitelisted key from another IP, accepts it from its own (IPv6 too)', async () => {
    const k = await hmacKey({ ipWhitelist: '10.1.2.3, 2001:DB8::0:1' });
    const q = queryOf({ timestamp: t.ctx.clock.now() });
    const sig = hmacHex(k.secret, q);
    expect((await send('testAccount', k.apiKey, q, sig, '10.1.2.3')).statusCode).toBe(200);
    expect((await send('testAccount', k.apiKey, q, sig, '2001:db8::1')).statusCode).toBe(200);
    const n = s.calls.account;
    expectBinance(await send('testAccount', k.apiKey, q, sig, '10.1.2.4'), -2015);
    expect(s.calls.account).toBe(n);
  });

  it('refuses a deleted key at once, and every key of a frozen account at once', async () => {
    const k = await hmacKey();
    const k2 = await hmacKey();
    const q = queryOf({ timestamp: t.ctx.clock.now() });
    expect((await send('testAccount', k.apiKey, q, hmacHex(k.secret, q))).statusCode).toBe(200);
    await svc.remove(userId, k.id, REQ);
    expectBinance(await send('testAccount', k.apiKey, q, hmacHex(k.secret, q)), -2015);

    expect((await send('testAccount', k2.apiKey, q, hmacHex(k2.secret, q))).statusCode).toBe(200);
    const r = await t.ctx.host.submit({ type: 'updateUser', userId, profile: { frozen: '1' } });
    expect(r.code).toBe('ok');
    const n = { ...s.calls };
    expectBinance(await send('testAccount', k2.apiKey, q, hmacHex(k2.secret, q)), -2015);
    expectBinance(await send('testOrder', k2.apiKey, q, hmacHex(k2.secret, q)), -2015);
    expect(s.calls).toEqual(n);
    await t.ctx.host.submit({ type: 'updateUser', userId, profile: { frozen: '' } });
    expect((await send('testAccount', k2.apiKey, q, hmacHex(k2.secret, q))).statusCode).toBe(200);
  });

  it('refuses unknown and malformed keys and a missing key header', async () => {
    const q = queryOf({ timestamp: t.ctx.clock.now() });
    expectBinance(await send('testAccount', 'A'.repeat(64), q, hmacHex('x', q)), -2015);
    expectBinance(await send('testAccount', 'bad key!', q, hmacHex('x', q)), -2014);
    const res = await s.app.inject({ method: 'GET', url: `/api/v3/testAccount?${q}&signature=00` });
    expectBinance(res, -2014);
  });

  it('stamps last_used_at once a minute at most', async () => {
    const k = await hmacKey();
    const [before] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.apiKey, k.apiKey));
    expect(before!.lastUsedAt).toBeNull();
    const q = queryOf({ timestamp: t.ctx.clock.now() });
    expect((await send('testAccount', k.apiKey, q, hmacHex(k.secret, q))).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const [after] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.apiKey, k.apiKey));
    expect(after!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(t.ctx.clock.now() - 5000);
  });
});

describe('Ed25519 keys', () => {
  it('verifies a base64 Ed25519 signature with the uploaded public key; refuses another key pair', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const other = crypto.generateKeyPairSync('ed25519');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const c = await svc.create(userId, { label: 'ed', keyType: 'ED25519', publicKey: pem, spotTrade: true }, REQ);
    expect(c.secretKey).toBeNull();
    const q = queryOf({ symbol: 'BTCUSDT', timestamp: t.ctx.clock.now() });
    const ok = await send('testOrder', c.key.apiKey, q, ed25519Base64(privateKey, q));
    expect(ok.statusCode, ok.body).toBe(200);
    const n = s.calls.order;
    expectBinance(await send('testOrder', c.key.apiKey, q, ed25519Base64(other.privateKey, q)), -1022);
    expectBinance(await send('testOrder', c.key.apiKey, q, hmacHex('x', q)), -1022);
    expect(s.calls.order).toBe(n);
  });
});
