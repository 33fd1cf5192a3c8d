// Vite config of the mobile web app (DESIGN.md section 6). Dev server proxies the API and the
// WebSocket to the Fastify server on :8080; the build goes to dist/, which the server serves with a
// fallback to index.html. A small plugin writes dist/version.json so the running app can notice a
// newer deployment (new-version dialog); another writes .br and .gz beside each text file, which the
// server sends as they are (issue 8, point 12). The manifest (dist/.vite/manifest.json) is what
// scripts/bundle-size.mjs reads to check the initial JavaScript against its 150 KB gzip limit.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zc, gzip } from 'node:zlib';
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

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Text files worth compressing ahead (smaller ones are sent as they are). */
const PRECOMPRESS_RE = /\.(js|mjs|css|html|svg|json)$/;
const PRECOMPRESS_MIN_BYTES = 1024;

/** Lists the files under `dir`, recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat();
}

/**
 * After the build, writes <file>.br (brotli, quality 11) and <file>.gz (gzip, level 9) beside every text
 * file of the output of at least 1 KB; @fastify/static (preCompressed) sends them to browsers that accept them.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'exchange-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await listFiles(outDir)).filter((f) => PRECOMPRESS_RE.test(f) && !f.includes(`${path.sep}.vite${path.sep}`));
      await Promise.all(
        files.map(async (f) => {
          const buf = await fs.readFile(f);
          if (buf.length < PRECOMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotliAsync(buf, { params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
            gzipAsync(buf, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${f}.br`, br), fs.writeFile(`${f}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), versionFile(), precompress()],
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
  build: {
    outDir: 'dist',
    target: 'es2022',
    chunkSizeWarningLimit: 900,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'react-spring', test: /[\\/]node_modules[\\/]@react-spring[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
