// The tests of the deployment files (deploy/): `npx vitest run -c deploy/vitest.config.ts` from the repository root.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'deploy',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    testTimeout: 400_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
