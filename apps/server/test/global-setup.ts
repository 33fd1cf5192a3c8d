// Global setup of the server's tests: one migrated PGlite data directory per run (PGLITE_TEMPLATE_DIR, inherited by
// the test workers and the servers they start), which every test's embedded database starts as a copy of, instead of
// initialising a cluster of its own (seconds of WebAssembly each, hundreds of times a run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePgliteTemplate } from '../src/platform/db/client';

export default async function setup(): Promise<() => void> {
  // PGLITE_TEMPLATE_DIR=off: every database initialises its own cluster (to measure what the template saves).
  if (process.env.PGLITE_TEMPLATE_DIR === 'off') {
    delete process.env.PGLITE_TEMPLATE_DIR;
    return () => {};
  }
  if (process.env.PGLITE_TEMPLATE_DIR) return () => {};
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-pglite-template-'));
  const dir = path.join(root, 'pglite');
  await makePgliteTemplate(dir);
  process.env.PGLITE_TEMPLATE_DIR = dir;
  return () => {
    delete process.env.PGLITE_TEMPLATE_DIR;
    fs.rmSync(root, { recursive: true, force: true });
  };
}
