// Vite config of the mobile web app (DESIGN.md section 6). Dev server proxies the API and the
// WebSocket to the Fastify server on :8080; the build goes to dist/, which the server serves with a
// fallback to index.html. A small plugin writes dist/version.json so the running app can notice a
// newer deployment (new-version dialog).
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const BUILD_ID = new Date().toISOString();

/** Emits version.json with the build id, compared at runtime against __BUILD_ID__. */
function versionFile(): Plugin {
  return {
    name: 'exchange-version-file',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ buildId: BUILD_ID }) });
    },
  };
}

export default defineConfig({
  plugins: [react(), versionFile()],
  // One React for the app and antd-mobile alike (the root package.json overrides the React 18 of their peer ranges).
  resolve: { dedupe: ['react', 'react-dom'] },
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  // Pre-bundle everything lazy routes use, so the dev server does not re-optimise mid-session.
  optimizeDeps: {
    include: [
      'react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react-router', 'antd-mobile', 'antd-mobile-icons',
      '@tanstack/react-query', 'zustand', 'zustand/middleware', 'i18next', 'react-i18next',
      'antd-mobile/es/locales/zh-CN', 'antd-mobile/es/locales/en-US', 'lightweight-charts',
    ],
  },
  server: {
    host: true,
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: true },
      '/ws': { target: 'ws://localhost:8080', ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: true },
      '/ws': { target: 'ws://localhost:8080', ws: true, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 900, manifest: true },
});
