// Vite config of the mobile web app (ARCHITECTURE.md section 10). Dev server proxies the API and the
// WebSocket to the Fastify server on :8080; the build goes to dist/, which the server serves with a
// fallback to index.html. A small plugin writes dist/version.json so the running app can notice a
// newer deployment (new-version dialog); another writes .br and .gz beside each text file, which the
// server sends as they are. The PWA: a web app manifest with the icons of
// public/icons (scripts/pwa-icons.mjs) and a service worker (Workbox, generated) that precaches the built app, so a
// reload while offline starts the app from the cache and shows its no-network screen (spec section 8) instead of the
// browser's error page. The worker serves navigations from the cached index.html except the server's own paths
// (/api, /ws, /admin, /version.json, ...) and caches no API or WebSocket traffic at all. It waits as a new build's
// worker until the new-version dialog's "Update now" tells it to take over (SKIP_WAITING), so a running app never
// mixes the chunks of two builds; shared/pwa/register-sw.ts registers it after load, never inside the native shell.
// The page's requests are ordered for its first paint (vite-first-paint.ts): the app's JavaScript at low priority
// behind the shell's CSS and banner, the home screen's chunks preloaded from the page.
// The manifest (dist/.vite/manifest.json) is what
// scripts/bundle-size.mjs reads to check the initial JavaScript against its 150 KB gzip limit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { firstPaint } from './vite-first-paint';
import { precompress } from './vite-precompress';

const BUILD_ID = new Date().toISOString();
/** The web app's version (package.json), baked in as __APP_VERSION__ and written to version.json. */
const APP_VERSION: string = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Emits version.json with the build id, compared at runtime against __BUILD_ID__. */
function versionFile(): Plugin {
  return {
    name: 'exchange-version-file',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ buildId: BUILD_ID, version: APP_VERSION }) });
    },
  };
}

/** The build's output directory (set when the config resolves), where the precache filter reads Vite's manifest. */
let builtOutDir = '';

/** Remembers the output directory for `shellPrecache`. */
function rememberOutDir(): Plugin {
  return {
    name: 'exchange-remember-outdir',
    apply: 'build',
    configResolved(config) {
      builtOutDir = path.resolve(config.root, config.build.outDir);
    },
  };
}

/** A Vite manifest entry (the fields read here). */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/**
 * The files the service worker precaches: what the first screen and the no-network screen need, not the whole app
 * (a visitor's first load would otherwise fetch ~280 files in the background, most of the per-IP budget of
 * RATE_LIMIT_PER_MIN, 600 a minute by default). That is every file outside assets/ (index.html, the manifest, the
 * icons, boot.js), and in assets/ the entry with its static imports, the shared chunks it loads on demand (toast,
 * dialog), the lazy locale files, the home page (the start URL) and their CSS. Every other chunk is cached the first
 * time it is loaded (runtimeCaching below), so the screens a user visited also start offline.
 */
function shellPrecache(entries: Array<{ url: string; size: number; revision: string | null }>) {
  const manifest = JSON.parse(readFileSync(path.join(builtOutDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const keep = new Set<string>();
  const walk = (key: string) => {
    const c = manifest[key];
    if (!c || keep.has(c.file)) return;
    keep.add(c.file);
    for (const css of c.css ?? []) keep.add(css);
    for (const i of c.imports ?? []) walk(i);
  };
  for (const [key, c] of Object.entries(manifest)) {
    if (c.isEntry) {
      walk(key);
      for (const d of c.dynamicImports ?? []) if (d.startsWith('_') || /features\/home\/pages\/HomePage\.tsx$/.test(d)) walk(d);
    }
    if (/\/locales\/[a-z]+\/[\w-]+\.json$/.test(key)) walk(key);
  }
  const manifestOut = entries.filter((e) => !e.url.startsWith('assets/') || keep.has(e.url));
  return { manifest: manifestOut, warnings: [] as string[] };
}

export default defineConfig({
  plugins: [
    react(),
    versionFile(),
    rememberOutDir(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      // The icons are precached by globPatterns like the other files of public/ (no second entry for them).
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Exchange',
        short_name: 'Exchange',
        description: 'Spot, contract and fiat trading of digital assets',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#ffffff',
        theme_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        manifestTransforms: [shellPrecache],
        globIgnores: ['**/*.{br,gz}', '.vite/**', 'version.json'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/ws\//, /^\/admin(\/|$)/, /^\/version\.json/, /^\/healthz/, /^\/metrics/, /^\/docs/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: false,
        // Hashed chunks never change: served from the cache once loaded (and kept for the app of an older build still
        // open). Nothing else is cached at run time: no /api answer, no WebSocket (a service worker never sees those).
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'exchange-assets', expiration: { maxEntries: 400, maxAgeSeconds: 60 * 24 * 3600 } },
          },
        ],
      },
    }),
    firstPaint(),
    precompress(),
  ],
  // One React for the app and antd-mobile alike (the root package.json overrides the React 18 of their peer ranges).
  resolve: { dedupe: ['react', 'react-dom'] },
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID), __APP_VERSION__: JSON.stringify(APP_VERSION) },
  // Pre-bundle everything lazy routes use, so the dev server does not re-optimise mid-session.
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react-router',
      'antd-mobile',
      'antd-mobile-icons',
      '@tanstack/react-query',
      'zustand',
      'zustand/middleware',
      'i18next',
      'react-i18next',
      'antd-mobile/es/locales/zh-CN',
      'antd-mobile/es/locales/en-US',
      'lightweight-charts',
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
