/**
 * Test helpers: a context on an in-memory PGlite (or on PostgreSQL when DATABASE_URL is set, in a fresh
 * schema-less database state reset by the caller) and the app built on it, for `app.inject()` tests.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/platform/config/env';
import { createContext, type AppContext } from '../src/main/context';
import { buildApp } from '../src/main/app';
import { onServer } from './postgres-server';

/**
 * With DATABASE_URL set (CI points it at the machine's PostgreSQL), each test app gets a database of its own,
 * created here and dropped on close, so parallel test files never see each other's rows. It starts as a copy of the
 * run's migrated template (PG_TEMPLATE_DATABASE, made by test/global-setup.ts; the app's migrations then find
 * nothing to do), as PGlite's databases start from PGLITE_TEMPLATE_DIR. Its commits do not wait for the WAL flush
 * (`synchronous_commit = off`): what a commit guarantees to a client is unchanged, only a PostgreSQL server crash
 * could lose the last commits, and no test crashes PostgreSQL. `recreate` drops it and creates it empty, not from the
 * template (a lost database: the server migrates it again). Without DATABASE_URL, `url` is undefined and the app opens
 * PGlite in its data dir.
 */
async function freshDatabase(): Promise<{ url: string | undefined; recreate(): Promise<void>; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, recreate: async () => {}, drop: async () => {} };
  const name = `exch_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const create = (template: string | undefined) =>
    onServer(base, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`, `ALTER DATABASE ${name} SET synchronous_commit = off`);
  await create(process.env.PG_TEMPLATE_DATABASE);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = () => onServer(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  return {
    url: url.toString(),
    async recreate() {
      await drop();
      await create(undefined);
    },
    drop,
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
    { NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', PGLITE_TEMPLATE_DIR: process.env.PGLITE_TEMPLATE_DIR },
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

/**
 * A data directory and a database of a test's own that outlive the apps opened on them, for tests that restart the
 * server (`open` again after `close`) or prove what the journal rebuilds after `loseDatabase`. The database is PGlite
 * in `dataDir/pglite`, or with DATABASE_URL set a PostgreSQL database of its own, so such a test runs on both.
 */
export interface DurableTestSetup {
  dataDir: string;
  /** Opens a context and app on the directory and database (`openTestApp` with these overrides). */
  open(overrides?: Partial<Config>): Promise<TestApp>;
  /** Loses every projected row, the journal kept: deletes the PGlite files, or drops and recreates the PostgreSQL database. Close the app first. */
  loseDatabase(): Promise<void>;
  /** Drops the database and removes the directory (close the app first). */
  dispose(): Promise<void>;
}

/** A `DurableTestSetup` in a fresh temporary directory named after `prefix` (e.g. 'exch-otc-'). */
export async function durableTestSetup(prefix: string): Promise<DurableTestSetup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = await freshDatabase();
  return {
    dataDir,
    open: (overrides = {}) => openTestApp(dataDir, overrides, database.url),
    async loseDatabase() {
      if (database.url) await database.recreate();
      else fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    },
    async dispose() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
