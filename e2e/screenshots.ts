/**
 * README screenshots: home, markets, pair detail, trading and assets at 390x844
 * (device scale 2) in the day and night themes, from a running app, into docs/screenshots/<screen>-<day|night>.png.
 *
 * Usage (server already running, e.g. `npm start`):
 *   npx tsx e2e/screenshots.ts                     # against http://localhost:8080, English UI
 *   BASE_URL=http://localhost:8091 SHOT_LANG=zh npx tsx e2e/screenshots.ts
 * Signs in with the demo account (demo@exchange.local / Demo12345) through the API for trading and assets,
 * and waits for live data (top pairs, market rows, candles, order book, balances) before each capture.
 * Exits non-zero when a screen never gets its data.
 */
import path from 'node:path';
import fs from 'node:fs';
import { chromium, expect, type Page } from '@playwright/test';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const LANG = process.env.SHOT_LANG === 'zh' ? 'zh' : 'en';
const OUT_DIR = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const DEMO = { account: 'demo@exchange.local', password: 'Demo12345' };

/** One screen: its route and what must be on it before the capture. */
interface Screen {
  name: string;
  path: string;
  ready: (page: Page) => Promise<void>;
}

const T =
  LANG === 'en'
    ? { top: 'Top pairs', rank: 'Rankings', book: 'Order book', markets: 'Markets', tradeBook: 'Order book' }
    : { top: '热门交易对', rank: '排行榜', book: '委托订单', markets: '行情', tradeBook: '盘口' };

const screens: Screen[] = [
  {
    name: 'home',
    path: '/',
    ready: async (page) => {
      await expect(page.getByRole('region', { name: T.top }).getByRole('button')).toHaveCount(4);
      await expect(page.getByRole('region', { name: T.rank }).getByRole('listitem').nth(3)).toBeVisible();
      // Let the banner finish a slide transition.
      await page.waitForTimeout(800);
    },
  },
  {
    name: 'markets',
    path: '/quotes',
    ready: async (page) => {
      await expect(page.getByRole('list', { name: T.markets }).getByRole('button').nth(5)).toBeVisible();
    },
  },
  {
    name: 'pair-detail',
    path: '/quotes/quotesDetail?type=bibi&pairsName=BTC%2FUSDT',
    ready: async (page) => {
      const chart = page.getByRole('img', { name: /BTC\/USDT/ });
      await expect(chart.locator('canvas').first()).toBeVisible();
      await expect(chart).not.toHaveAttribute('data-bars', '0');
      await expect(page.getByLabel(T.book, { exact: true }).getByRole('listitem').nth(5)).toBeVisible();
      await page.waitForTimeout(800);
    },
  },
  {
    name: 'trading',
    path: '/transaction',
    ready: async (page) => {
      await expect(page.getByLabel(T.tradeBook, { exact: true }).getByRole('listitem').nth(3)).toBeVisible();
      await expect(page.getByTestId('available')).not.toHaveText(/^0(\.0+)? /);
    },
  },
  {
    name: 'assets',
    path: '/assets',
    ready: async (page) => {
      await expect(page.getByTestId('total-cny')).toHaveText(/[1-9]/);
    },
  },
];

async function demoSession(): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${BASE_URL}/api/member/member/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(DEMO).toString(),
  });
  const body = (await res.json()) as { status: string; errorMessage: string; result: { token: string; userId: string } };
  if (body.status !== 'SUCCEED') throw new Error(`demo login failed: ${body.errorMessage}`);
  return body.result;
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const session = await demoSession();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  expect.configure({ timeout: 60_000 });
  let failed = 0;
  try {
    for (const theme of ['day', 'night'] as const) {
      const context = await browser.newContext({
        baseURL: BASE_URL,
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: LANG === 'zh' ? 'zh-CN' : 'en-US',
      });
      // The persisted fields of spec section 3, written before the app reads them.
      await context.addInitScript(
        ({ s, th, lang }) => {
          localStorage.setItem('token', s.token);
          localStorage.setItem('userId', s.userId);
          localStorage.setItem('isLogin', 'true');
          localStorage.setItem('phone', 'demo@exchange.local');
          localStorage.setItem('theme', th);
          localStorage.setItem('currentLangue', lang);
          localStorage.setItem('pairsName', 'BTC/USDT');
        },
        { s: session, th: theme === 'night' ? 'night' : 'default', lang: LANG },
      );
      const page = await context.newPage();
      for (const screen of screens) {
        const file = path.join(OUT_DIR, `${screen.name}-${theme}.png`);
        try {
          await page.goto(screen.path);
          await screen.ready(page);
          await page.screenshot({ path: file });
          console.log(`saved ${path.relative(process.cwd(), file)}`);
        } catch (e) {
          failed++;
          console.error(`${screen.name}-${theme}: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  if (failed) process.exit(1);
}

await main();
