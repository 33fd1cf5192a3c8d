// Unit and component tests of the operator console: `npx vitest run --project admin` from the repository root.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'admin',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // A hang guard, not a speed check: component tests run two files at a time beside the server's tests on CI's 2
    // cores, where vitest's 5 s default is near the slowest pages' renders under load.
    testTimeout: 20_000,
  },
});
