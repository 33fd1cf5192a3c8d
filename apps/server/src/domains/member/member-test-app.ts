/**
 * Test support for the member, sms and demo modules: the shared test app and the small request helpers the
 * tests share (form or JSON posts from a chosen IP, the puzzle, codes read back from the demo outbox).
 */
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../../platform/config/env';
import { captchaChallenges, verificationCodes } from '../verification/verification.tables';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { humanTrail } from '../../../test/captcha-solver';
import { listOutbox } from '../verification/outbox.repository';
import { formatTrail } from '../verification/captcha.trail';

/** The test app of test/helpers.ts (demo and captcha test mode on unless overridden). */
export function makeMemberTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  return makeTestApp(overrides);
}

/** Back-dates every stored code by 61 s, so the next code for the same account is not refused as too frequent. */
export async function allowResend(t: TestApp): Promise<void> {
  await t.ctx.db.update(verificationCodes).set({ createdAt: sql`${verificationCodes.createdAt} - interval '61 seconds'` });
}

/** Options of one request: headers, remote IP, language. */
export interface ReqOpts {
  ip?: string;
  lang?: 'zh' | 'en';
  headers?: Record<string, string>;
  json?: boolean;
}

/** POSTs `body` form-encoded (or as JSON with `json`) to /api/<p>. */
export function post(
  app: FastifyInstance,
  p: string,
  body: Record<string, string | number | boolean | undefined>,
  o: ReqOpts = {},
): Promise<LightMyRequestResponse> {
  const entries = Object.entries(body).filter(([, v]) => v !== undefined) as Array<[string, string | number | boolean]>;
  const payload = o.json
    ? JSON.stringify(Object.fromEntries(entries))
    : new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
  return app.inject({
    method: 'POST',
    url: `/api/${p}`,
    payload,
    remoteAddress: o.ip ?? '127.0.0.1',
    headers: { 'content-type': o.json ? 'application/json' : 'application/x-www-form-urlencoded', lang: o.lang ?? 'en', ...(o.headers ?? {}) },
  });
}

/** GETs /api/<p>?query. */
export function get(app: FastifyInstance, p: string, query: Record<string, string> = {}, o: ReqOpts = {}): Promise<LightMyRequestResponse> {
  const qs = new URLSearchParams(query).toString();
  return app.inject({
    method: 'GET',
    url: `/api/${p}${qs ? `?${qs}` : ''}`,
    remoteAddress: o.ip ?? '127.0.0.1',
    headers: { lang: o.lang ?? 'en', ...(o.headers ?? {}) },
  });
}

/**
 * Issues a puzzle and answers it with x = 0 and no trail (accepted in captcha test mode only); returns the pass
 * (geetest triple). The puzzle comes from `ip`, by default a fresh random one: the captcha service gives one IP
 * 10 challenges a minute, and a pass is not tied to the IP that earned it.
 */
export async function passPuzzle(t: TestApp, ip = randomIp()): Promise<{ geetest_challenge: string; geetest_validate: string; geetest_seccode: string }> {
  const issued = await post(t.app, 'data/sms/geetestCode?randomCode=test&clientType=h5', {}, { ip });
  const challenge = issued.json().result.challenge as string;
  const res = await post(t.app, 'data/sms/geetestVerify', { challenge, x: 0 }, { ip });
  if (res.json().status !== 'SUCCEED') throw new Error(`puzzle failed: ${res.body}`);
  return res.json().result;
}

/** The stored answer of a challenge (piece's top-left corner, image px) and the row its piece starts on. */
export async function puzzleAnswer(t: TestApp, challenge: string): Promise<{ x: number; y: number; startY: number }> {
  const row = (await t.ctx.db.select().from(captchaChallenges).where(eq(captchaChallenges.challenge, challenge)))[0]!;
  return { x: row.answerX, y: row.answerY, startY: row.startY };
}

/** A hand-like drag trail (test/captcha-solver.ts) from the piece's start (0, startY) to (x, y), in the wire form. */
export function handTrail(startY: number, x: number, y: number): string {
  return formatTrail(humanTrail({ x: 0, y: startY }, { x, y }));
}

/**
 * Issues a puzzle on an app that checks answers (captcha test mode off) and answers it `dx`, `dy` px off the
 * stored answer with a hand-like trail; returns the verify response and the challenge.
 */
export async function answerPuzzle(t: TestApp, o: { dx?: number; dy?: number; ip?: string } = {}): Promise<{ res: LightMyRequestResponse; challenge: string }> {
  const ip = o.ip ?? randomIp();
  const issued = await post(t.app, 'data/sms/geetestCode?randomCode=test&clientType=h5', {}, { ip });
  const challenge = issued.json().result.challenge as string;
  const a = await puzzleAnswer(t, challenge);
  const x = a.x + (o.dx ?? 0);
  const y = a.y + (o.dy ?? 0);
  const res = await post(t.app, 'data/sms/geetestVerify', { challenge, x, y, trail: handTrail(a.startY, x, y) }, { ip });
  return { res, challenge };
}

/**
 * Requests a code and reads it back from the demo outbox's table (in process: the outbox route shows codes of an
 * existing account only to its logged-in owner, which a FORGET flow is not).
 */
export async function sendAndReadCode(t: TestApp, account: string, type: string, o: { ip?: string; areaCode?: string } = {}): Promise<string> {
  const pass = await passPuzzle(t);
  const res = await post(t.app, 'data/sms/sendCode', { account, type, areaCode: o.areaCode, ...pass }, { ip: o.ip ?? '127.0.0.1' });
  if (res.json().status !== 'SUCCEED') throw new Error(`sendCode failed: ${res.body}`);
  const key = account.includes('@') ? account.trim().toLowerCase() : account.replace(/[\s-]/g, '');
  const box = await listOutbox(t.ctx.db, key);
  if (box.length === 0) throw new Error(`no code in the outbox for ${account}`);
  return box[0]!.code;
}

/** A random IP in 10/8, so per-IP limits of one test do not touch another's. */
export function randomIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** Registers `mail` with `password` (fresh code via the outbox); returns the session. */
export async function registerEmail(
  t: TestApp,
  mail: string,
  password = 'Secret123',
  extra: Record<string, string> = {},
): Promise<{ token: string; userId: string; expiresAt: number }> {
  const ip = randomIp();
  const code = await sendAndReadCode(t, mail, 'REGISTER', { ip });
  const res = await post(
    t.app,
    'member/member/register',
    { registerType: 'EMAIL', mail, code, password, confirmPassword: password, agreement: 'true', ...extra },
    { ip },
  );
  if (res.json().status !== 'SUCCEED') throw new Error(`register failed: ${res.body}`);
  return res.json().result;
}
