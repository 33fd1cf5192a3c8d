/**
 * Playwright journeys: Debian's Chromium at a phone viewport (390x844), against the app started
 * as `npm start` starts it (web build + server on the embedded PGlite), on its own port and a fresh data
 * directory, with CAPTCHA_TEST_MODE=1 so the slide puzzle accepts any answer. E2E_BASE_URL=<url> tests an
 * already running server instead.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8091);
/** An already running server (started with CAPTCHA_TEST_MODE=1) to test against instead of starting one. */
const external = process.env.E2E_BASE_URL;
const dataDir = external ? '' : fs.mkdtempSync(path.join(os.tmpdir(), 'exch-e2e-'));
/**
 * The web build the server serves. By default the literal `npm start` (which builds apps/web/dist and
 * apps/admin/dist). With E2E_PRIVATE_BUILD=1 the journeys run its steps with both builds written to private
 * directories (WEB_DIST, ADMIN_DIST), so that another `npm start`/`vite build` in the same checkout cannot swap the
 * hashed chunks under the running journeys (useful while developing with a dev server open), and the console's
 * journeys find a console on a fresh checkout.
 */
// Every process that loads this config made its own directory; remove it when that process ends.
if (dataDir) process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
const literalStart = process.env.E2E_PRIVATE_BUILD !== '1';
const webDist = external || literalStart ? '' : path.join(dataDir, 'web-dist');
const adminDist = external || literalStart ? '' : path.join(dataDir, 'admin-dist');
const startCommand = literalStart
  ? 'npm start'
  : `npm run build -w apps/web -- --outDir ${JSON.stringify(webDist)} --emptyOutDir && npm run build -w apps/admin -- --outDir ${JSON.stringify(adminDist)} --emptyOutDir && npm run start -w apps/server`;

export default defineConfig({
  testDir: './tests',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two journeys at a time (one spec file per worker, its tests in order). Journeys that share server state run one
  // at a time in their own lane (a project of one worker): the contract journeys (mark prices, the perp markets) and
  // those that log the demo operator in (7, 8, 9, 9b, the OTC journeys 13, 13b, 13d, 14-activity, the content journey 14h, the support chat 14s and the API key console journey 15b; a TOTP step is accepted once, so two logins in one 30 s step would wait).
  // E2E_WORKERS=1 runs every journey one after another.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Journey 13c moves the server clock 16 minutes forward (demo/clock/advance), journey 14i past the next midnight, and
  // the clock never moves back: they run alone, after every other journey (a project depending on the three lanes).
  projects: [
    { name: 'contract', testMatch: /\/12[a-z]?-[^/]*\.spec\.ts$/, workers: 1 },
    { name: 'operator', testMatch: [/\/([789]b?|13[abd]?|14h|14s|15b)-[^/]*\.spec\.ts$/, /\/14-activity\.spec\.ts$/], workers: 1 },
    {
      name: 'journeys',
      testIgnore: [
        /\/12[a-z]?-[^/]*\.spec\.ts$/,
        /\/([789]b?|13[a-z]?|14h|14s|15b)-[^/]*\.spec\.ts$/,
        /\/14[im]-[^/]*\.spec\.ts$/,
        /\/14u-[^/]*\.spec\.ts$/,
        /\/14-activity\.spec\.ts$/,
      ],
    },
    // 13c (16 minutes) then 14i (past the next 00:00 Asia/Shanghai, the daily rebate settlement), then 14m (a day of
    // savings interest): files run in name order.
    { name: 'clock', testMatch: /\/(13c|14i|14m)-[^/]*\.spec\.ts$/, workers: 1, dependencies: ['contract', 'operator', 'journeys'] },
    // Journey 14u publishes an app version every running app would offer in its new-version dialog, and logs the
    // operator in: it runs alone, last.
    { name: 'shell', testMatch: /\/14u-[^/]*\.spec\.ts$/, workers: 1, dependencies: ['clock'] },
  ],
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: path.join(os.tmpdir(), 'exch-e2e-results'),
  use: {
    baseURL: external ?? `http://127.0.0.1:${port}`,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The PWA's service worker precaches ~90 files in every fresh context, from the one IP whose request budget all
    // journeys share: blocked here, allowed by the journey that tests it (14u).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: external
    ? undefined
    : {
        command: startCommand,
        cwd: path.resolve(import.meta.dirname, '..'),
        url: `http://127.0.0.1:${port}/readyz`,
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        // No NODE_ENV: vite would make a React development build with NODE_ENV=test; `npm start` runs without it.
        // Every journey comes from 127.0.0.1, one after another within minutes: the per-IP budgets of one real visitor
        // (600 requests and 30 log-ins a minute) are raised so journey 5's log-ins are not answered rate_limited after the
        // pages of journeys 1-4. The per-account login failure limits and code limits stay as they are.
        env: {
          PORT: String(port),
          DATA_DIR: dataDir,
          CAPTCHA_TEST_MODE: '1',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MIN: '3000',
          // Per-route budgets per IP a minute, likewise raised: two lanes of journeys register users and ask for codes and
          // puzzles at once (journey 13b was answered rate_limited on sendCode and captcha_too_frequent).
          RATE_LIMIT_ROUTES: 'login=120,captcha=120,sendCode=60,register=60,forgetPassword=60',
          // Codes to one account 3 s apart instead of 60 s (support.ts CODE_GAP_MS), and more codes per loopback IP an
          // hour: the journeys ask for a dozen codes within minutes; the code checks themselves are unchanged.
          CODE_RESEND_MS: '3000',
          CODE_IP_PER_HOUR: '500',
          // Slide puzzles per loopback IP a minute: two lanes of journeys set up users through the API at once (journey 13b
          // asked for its 11th puzzle within a minute); the puzzle's checks themselves are unchanged.
          CAPTCHA_PER_IP_PER_MIN: '60',
          // OTC appeals open 2 s after "I have paid" instead of 10 minutes (journey 13b appeals an order).
          OTC_APPEAL_AFTER_MS: '2000',
          ...(webDist ? { WEB_DIST: webDist, ADMIN_DIST: adminDist } : {}),
        },
      },
});
