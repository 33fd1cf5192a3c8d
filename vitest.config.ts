// Every unit, property and API test of the repository, one project per package (`npm run test:unit`).
import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in parallel workers. Vitest's default is one worker fewer than the CPUs, i.e. a single worker on
 * CI's 2 cores, which left one core idle while files waited on PGlite, child processes, dev chains and timers: two
 * workers there (the default, CPUs - 1, on bigger machines). Each file still has its own worker process (forks for
 * the server) and its own database, data directory and ports, so files do not see each other's state.
 * VITEST_MAX_WORKERS=<n> overrides it (1 = one file at a time, as before).
 */
const maxWorkers = process.env.VITEST_MAX_WORKERS ? Number(process.env.VITEST_MAX_WORKERS) : Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      'packages/money',
      'packages/core',
      'packages/api',
      'packages/chain',
      'apps/server',
      'apps/web',
      'apps/admin',
      'bench',
      { test: { name: 'tidy', include: ['tidy.test.ts', 'scripts/*.test.mjs'] } },
    ],
  },
});
