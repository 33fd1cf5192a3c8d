/**
 * Test support for the member, sms and demo modules: the full test app (`makeTestApp`) when the whole
 * context can be built; while other services are still placeholders ("not built yet"), a context with the
 * real database and member service and inert stand-ins for the rest, behind the same `buildApp`.
 * Also the small request helpers the tests share (form posts, the puzzle, codes from the demo outbox).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { loadConfig, type Config } from '../../config/env';
import { openDb } from '../../db/client';
import type { AppContext, Hooks } from '../../context';
import { buildApp } from '../../app';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { sql } from 'drizzle-orm';
import { verificationCodes } from '../../db/schema';
import { createMemberService } from './member.service';

/** A Proxy standing for a service that is not built yet: any use throws. */
function missing(name: string): never {
  return new Proxy({}, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === 'close') return async () => {};
      throw new Error(`${name} is not available in the member test context (${String(prop)})`);
    },
  }) as never;
}

async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `exch_member_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function memberOnlyApp(overrides: Partial<Config>): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-member-'));
  const database = await freshDatabaseUrl();
  const config = loadConfig(
    { NODE_ENV: 'test', DATABASE_URL: database.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    { dataDir, demoMode: true, captchaTestMode: true, marketMakers: false, ...overrides },
  );
  const log = pino({ level: config.logLevel }) as unknown as FastifyBaseLogger;
  const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? dataDir : 'memory://' });
  const hooks: Hooks = { userRegistered: [] };
  const closers: AppContext['closers'] = [() => handle.close()];
  const ctx: AppContext = {
    config,
    db: handle.db,
    log,
    hooks,
    host: missing('host'),
    members: createMemberService({ config, db: handle.db, log, hooks }),
    entrust: missing('entrust'),
    marketData: missing('marketData'),
    closers,
    async close() {
      for (const c of [...closers].reverse()) await c();
    },
  };
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    dataDir,
    async close() {
      await app.close();
      await ctx.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let fullContextMissing = false;

/** The full test app, or the member-only one while other services are placeholders (decided once per process). */
export async function makeMemberTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  if (fullContextMissing) return memberOnlyApp(overrides);
  try {
    return await makeTestApp(overrides);
  } catch (err) {
    if (!(err instanceof Error) || !/not built yet/.test(err.message)) throw err;
    fullContextMissing = true;
    return memberOnlyApp(overrides);
  }
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
export function post(app: FastifyInstance, p: string, body: Record<string, string | number | boolean | undefined>, o: ReqOpts = {}): Promise<LightMyRequestResponse> {
  const entries = Object.entries(body).filter(([, v]) => v !== undefined) as Array<[string, string | number | boolean]>;
  const payload = o.json ? JSON.stringify(Object.fromEntries(entries)) : new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
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
  return app.inject({ method: 'GET', url: `/api/${p}${qs ? `?${qs}` : ''}`, remoteAddress: o.ip ?? '127.0.0.1', headers: { lang: o.lang ?? 'en', ...(o.headers ?? {}) } });
}

/** Issues a puzzle and answers it at `dx` px from the hole; returns the pass (geetest triple). */
export async function passPuzzle(t: TestApp, ip = '127.0.0.1'): Promise<{ geetest_challenge: string; geetest_validate: string; geetest_seccode: string }> {
  const issued = await post(t.app, 'data/sms/geetestCode?randomCode=test&clientType=h5', {}, { ip });
  const challenge = issued.json().result.challenge as string;
  const res = await post(t.app, 'data/sms/geetestVerify', { challenge, x: 0 }, { ip });
  if (res.json().status !== 'SUCCEED') throw new Error(`puzzle failed: ${res.body}`);
  return res.json().result;
}

/** Requests a code and reads it back from the demo outbox. */
export async function sendAndReadCode(t: TestApp, account: string, type: string, o: { ip?: string; areaCode?: string } = {}): Promise<string> {
  const pass = await passPuzzle(t, o.ip);
  const res = await post(t.app, 'data/sms/sendCode', { account, type, areaCode: o.areaCode, ...pass }, { ip: o.ip ?? '127.0.0.1' });
  if (res.json().status !== 'SUCCEED') throw new Error(`sendCode failed: ${res.body}`);
  const box = await get(t.app, 'demo/outbox', { account });
  return box.json().result[0].code as string;
}

/** A random IP in 10/8, so per-IP limits of one test do not touch another's. */
export function randomIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** Registers `mail` with `password` (fresh code via the outbox); returns the session. */
export async function registerEmail(t: TestApp, mail: string, password = 'Secret123', extra: Record<string, string> = {}): Promise<{ token: string; userId: string; expiresAt: number }> {
  const ip = randomIp();
  const code = await sendAndReadCode(t, mail, 'REGISTER', { ip });
  const res = await post(t.app, 'member/member/register', { registerType: 'EMAIL', mail, code, password, confirmPassword: password, agreement: 'true', ...extra }, { ip });
  if (res.json().status !== 'SUCCEED') throw new Error(`register failed: ${res.body}`);
  return res.json().result;
}
