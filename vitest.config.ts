// Every unit, property and API test of the repository, one project per package (`npm run test:unit`).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api', 'packages/chain', 'apps/server', 'apps/web', 'apps/admin', 'bench', { test: { name: 'tidy', include: ['tidy.test.ts'] } }],
  },
});
