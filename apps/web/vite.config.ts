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
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
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
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 900 },
});
