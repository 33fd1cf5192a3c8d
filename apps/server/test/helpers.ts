/**
 * Test helpers: a context on an in-memory PGlite (or on PostgreSQL when DATABASE_URL is set, in a fresh
 * schema-less database state reset by the caller) and the app built on it, for `app.inject()` tests.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config/env';
import { createContext, type AppContext } from '../src/context';
import { buildApp } from '../src/app';
import pg from 'pg';

/**
 * With DATABASE_URL set (CI points it at the machine's PostgreSQL), each test app gets a database of its own,
 * created here and dropped on close, so parallel test files never see each other's rows.
 */
async function freshDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `exch_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
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

/** Config overrides without any per-IP request budget, for tests that send thousands of requests from one IP. */
export const NO_RATE_LIMITS: Partial<Config> = {
  rateLimitPerMin: 0,
  routeRateLimits: { captcha: 0, sendCode: 0, login: 0, register: 0, forgetPassword: 0, orderEntry: 0 },
  authFailuresPerMin: 0,
  captchaPerIpPerMin: 0,
};

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Builds a context and app on `dataDir` (PGlite there unless `databaseUrl` is given), with demo and captcha test
 * mode on, no market makers and no order rate limit; `close` closes them and leaves the directory.
 */
export async function openTestApp(dataDir: string, overrides: Partial<Config> = {}, databaseUrl?: string): Promise<TestApp> {
  const config = loadConfig(
    { NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    { dataDir, demoMode: true, captchaTestMode: true, marketMakers: false, orderRatePer10s: 0, ...overrides },
  );
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    dataDir,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

/** `openTestApp` in a fresh temporary data dir (and a database of its own on PostgreSQL); `close` removes both. */
export async function makeTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-test-'));
  const database = await freshDatabase();
  const t = await openTestApp(dataDir, overrides, database.url);
  return {
    ...t,
    async close() {
      await t.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
