// Vite config of the operator console (apps/admin): a desktop single-page app built to dist/ with base
// /admin/, which the server serves under /admin/ (static files, index.html for every other /admin/* path). The dev
// server (port 47300) proxies /api to a running server (ADMIN_DEV_API, default http://127.0.0.1:8080).
// The build splits by route: every page is a lazy chunk (features/<area>/<area>.console.tsx) that carries the antd
// components only it uses, so the login page and the first page load only what they need (antd is not one chunk);
// .br and .gz files are written beside the text files (../web/vite-precompress.ts) and sent as they are; the Vite
// manifest (dist/.vite/manifest.json) is what scripts/bundle-size.mjs --app admin reads for the JavaScript per route.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../web/vite-precompress';

export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { port: 47300, strictPort: true, proxy: { '/api': process.env.ADMIN_DEV_API ?? 'http://127.0.0.1:8080' } },
  preview: { port: 47301, strictPort: true },
});
