// Global setup of the server's tests: one migrated PGlite data directory per run (PGLITE_TEMPLATE_DIR, inherited by
// the test workers and the servers they start), which every test's embedded database starts as a copy of, instead of
// initialising a cluster of its own (seconds of WebAssembly each, hundreds of times a run). With DATABASE_URL set, one
// migrated PostgreSQL database per run as well (PG_TEMPLATE_DATABASE), which test/helpers.ts creates each test's
// database from (CREATE DATABASE ... TEMPLATE), instead of running every migration again for each test app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePgliteTemplate, openDb } from '../src/platform/db/client';
import { onServer } from './postgres-server';

/**
 * Creates the database `name` on `url`'s server with every migration applied (openDb's own path, without its worker),
 * and closes every connection to it: CREATE DATABASE ... TEMPLATE refuses a source database anyone is connected to.
 */
async function makePostgresTemplate(url: string, name: string): Promise<void> {
  await onServer(url, `CREATE DATABASE ${name}`);
  const at = new URL(url);
  at.pathname = `/${name}`;
  const handle = await openDb({ databaseUrl: at.toString(), dataDir: 'memory://', worker: false, connectRetryMs: 0 });
  await handle.close();
}

export default async function setup(): Promise<() => Promise<void>> {
  const teardown: Array<() => Promise<void>> = [];
  const tearDown = async () => {
    for (const step of teardown) await step();
  };
  try {
    await makeTemplates(teardown);
  } catch (err) {
    // a template made before the failure is removed (the run stops here and would never call the teardown); the
    // failure itself is what the run reports, even when the removal fails too (PostgreSQL unreachable)
    await tearDown().catch(() => {});
    throw err;
  }
  return tearDown;
}

/** Makes the run's templates, each one's removal pushed onto `teardown` before it is made (a half-made one is removed too). */
async function makeTemplates(teardown: Array<() => Promise<void>>): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && !process.env.PG_TEMPLATE_DATABASE) {
    const name = `exch_template_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    teardown.push(async () => {
      delete process.env.PG_TEMPLATE_DATABASE;
      await onServer(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    await makePostgresTemplate(databaseUrl, name);
    process.env.PG_TEMPLATE_DATABASE = name;
  }
  // PGLITE_TEMPLATE_DIR=off: every database initialises its own cluster (to measure what the template saves).
  if (process.env.PGLITE_TEMPLATE_DIR === 'off') {
    delete process.env.PGLITE_TEMPLATE_DIR;
  } else if (!process.env.PGLITE_TEMPLATE_DIR) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-pglite-template-'));
    const dir = path.join(root, 'pglite');
    teardown.push(async () => {
      delete process.env.PGLITE_TEMPLATE_DIR;
      fs.rmSync(root, { recursive: true, force: true });
    });
    await makePgliteTemplate(dir);
    process.env.PGLITE_TEMPLATE_DIR = dir;
  }
}
