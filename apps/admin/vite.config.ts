// Vite config of the operator console (apps/admin): a desktop single-page app built to dist/ with base
// /admin/, which the server serves under /admin/ (static files, index.html for every other /admin/* path). The dev
// server (port 47300) proxies /api to a running server (ADMIN_DEV_API, default http://127.0.0.1:8080).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd is one large library: split it from the console's own code so a console change does not re-download it.
    rollupOptions: {
      output: {
        manualChunks: (id) =>
          id.includes('node_modules/antd') || id.includes('node_modules/@ant-design') || id.includes('node_modules/rc-') ? 'antd' : undefined,
      },
    },
    chunkSizeWarningLimit: 2000,
  },
  server: { port: 47300, strictPort: true, proxy: { '/api': process.env.ADMIN_DEV_API ?? 'http://127.0.0.1:8080' } },
  preview: { port: 47301, strictPort: true },
});
