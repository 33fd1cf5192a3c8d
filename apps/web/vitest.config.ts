// Unit and component tests of the web app: `npx vitest run --project web` from the repository root.
// The workspace has one React (19): the root package.json overrides the React 18 that antd-mobile's
// dependencies would otherwise pull in through their peer ranges.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_ID__: JSON.stringify('test'), __APP_VERSION__: JSON.stringify('0.1.0') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'vite-*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // A hang guard, not a speed check: component tests run two files at a time beside the server's tests on CI's 2
    // cores, where vitest's 5 s default is near the slowest pages' renders under load.
    testTimeout: 20_000,
  },
});
