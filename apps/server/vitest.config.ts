import { defineConfig } from 'vitest/config';

// testTimeout: a test's hang detector. 120 s, twice the old 60 s: CI's runs have taken twice as long as on a quiet
// machine (47 minutes against 22 for the same commit), and a restart test of 13 s there passed 60 s beside the journeys.
export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
