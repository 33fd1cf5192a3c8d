// Unit and component tests of the web app: `npx vitest run --project web` from the repository root.
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // One React (19, apps/web/node_modules) for the app, antd-mobile and Testing Library alike.
  // Testing Library's ESM build, so that its react-dom import is resolved (and deduped) by Vite
  // instead of Node's require picking the workspace root's React 18.
  resolve: {
    dedupe: ['react', 'react-dom'],
    alias: [
      { find: /^react-router$/, replacement: fileURLToPath(new URL('../../node_modules/react-router/dist/development/index.mjs', import.meta.url)) },
      {
        find: /^@testing-library\/react$/,
        replacement: fileURLToPath(new URL('../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js', import.meta.url)),
      },
    ],
  },
  define: { __BUILD_ID__: JSON.stringify('test') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Inline every dependency so Vite resolves (and dedupes) React for all of them.
    server: { deps: { inline: true } },
  },
});
