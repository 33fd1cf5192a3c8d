/**
 * Journey 3: switch to English, night theme and the other colour convention
 * (red up / green down), reload: the persisted localStorage fields of spec section 3 (theme 'night',
 * currentLangue 'en') and the colour convention are kept, the UI is in English and the computed colours
 * are the night background and red rises / green falls. Then a pair detail page shows a k-line chart that
 * updates (canvas drawn, WebSocket kline pushes arrive, the drawing changes) and an order book that changes.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { persisted } from './support';

/** Computed CSS colour of the first element of `loc`. */
async function colourOf(loc: Locator): Promise<string> {
  return loc.first().evaluate((el) => getComputedStyle(el).color);
}

/** Computed background colour of <body>. */
async function pageBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

const NIGHT_BG = 'rgb(11, 14, 20)'; // --ex-bg of the night theme
const RED = 'rgb(246, 70, 93)'; // --ex-red
const GREEN = 'rgb(14, 203, 129)'; // --ex-green

test('English, night and red-up survive a reload; pair detail chart and order book are live', async ({ page }) => {
  test.setTimeout(180_000);
  const frames: { channel?: string; pairsName?: string; period?: string }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      if (typeof f.payload !== 'string') return;
      try {
        frames.push(JSON.parse(f.payload) as { channel?: string });
      } catch {
        /* not JSON */
      }
    });
  });

  await page.goto('/');
  // Starts in Chinese (browser locale zh-CN), day theme, green rises.
  await expect(page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '首页' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'default');
  await expect(page.locator('html')).toHaveAttribute('data-updown', 'green-up');
  expect(await persisted(page)).not.toMatchObject({ theme: 'night' });

  // --- English from the header's language dropdown ---
  await page.getByRole('button', { name: '语言' }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Top pairs' })).toBeVisible();

  // --- Night theme from the side menu's switch ---
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  const nightSwitch = menu.getByRole('switch', { name: 'Night mode' });
  await expect(nightSwitch).not.toBeChecked();
  await nightSwitch.click();
  await expect(nightSwitch).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'night');

  // --- Colour convention on /setting (from the side menu) ---
  await menu.getByText('Settings', { exact: true }).click();
  await expect(page).toHaveURL(/\/setting$/);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByText('Green up / red down')).toBeVisible();
  await page.getByText('Colour scheme', { exact: true }).click();
  await page.getByText('Red up / green down', { exact: true }).click();
  await expect(page.getByText('Red up / green down', { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-updown', 'red-up');

  // --- Reload: everything kept ---
  await page.reload();
  const kept = await persisted(page);
  expect(kept.theme).toBe('night');
  expect(kept.currentLangue).toBe('en');
  expect(kept.upDownColor).toBe('red-up');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByText('Colour scheme', { exact: true })).toBeVisible();
  await expect(page.getByText('Red up / green down', { exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Night mode' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await pageBackground(page)).toBe(NIGHT_BG);

  // --- Pair detail (from the home top pairs) ---
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: 'Home' })).toBeVisible();
  expect(await pageBackground(page)).toBe(NIGHT_BG);
  // Red rises, green falls on the home top pairs as well.
  const topPct = page.getByRole('region', { name: 'Top pairs' }).getByText(/^[+-]\d+\.\d+%$/);
  await expect(topPct.first()).toBeVisible();
  for (const el of await topPct.all()) {
    const text = await el.innerText();
    if (/^\+0\.00%$|^-0\.00%$/.test(text)) continue;
    expect(await colourOf(el), `colour of ${text}`).toBe(text.startsWith('+') ? RED : GREEN);
  }

  const framesBefore = frames.length;
  await page.getByRole('region', { name: 'Top pairs' }).getByRole('button', { name: 'BTC/USDT' }).click();
  await expect(page).toHaveURL(/\/quotes\/quotesDetail\?.*type=bibi/);
  await expect(page.getByRole('heading', { name: /BTC\/USDT/ })).toBeVisible();
  const ticker = page.getByRole('region', { name: 'BTC/USDT' });
  await expect(ticker).toBeVisible();
  expect(await pageBackground(page)).toBe(NIGHT_BG);

  // Chart: a drawn canvas, live kline pushes for this pair, and the drawing changes over time.
  const chart = page.getByRole('img', { name: /^BTC\/USDT candlestick chart/ });
  await expect(chart).toBeVisible();
  const canvas = chart.locator('canvas').first();
  await expect(canvas).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.height).toBeGreaterThan(150);
  await expect
    .poll(() => frames.slice(framesBefore).some((m) => m.channel === 'kline' && m.pairsName === 'BTC/USDT'), {
      timeout: 60_000,
      message: 'a WebSocket kline message for BTC/USDT',
    })
    .toBe(true);
  const drawing = () =>
    chart.evaluate((el) =>
      Array.from(el.querySelectorAll('canvas'))
        .map((c) => c.toDataURL())
        .join('|'),
    );
  const firstDrawing = await drawing();
  await expect.poll(drawing, { timeout: 60_000, message: 'the chart drawing changes' }).not.toBe(firstDrawing);

  // Order book: bids and asks with prices, in red (bids, rising side) and green (asks), and it changes.
  const book = page.getByLabel('Order book', { exact: true });
  const bids = book.getByRole('list', { name: 'Bid' });
  const asks = book.getByRole('list', { name: 'Ask' });
  await expect(bids.getByRole('listitem').first()).toBeVisible({ timeout: 30_000 });
  await expect(asks.getByRole('listitem').first()).toBeVisible();
  expect(
    await colourOf(
      bids
        .getByRole('listitem')
        .first()
        .getByText(/^[\d,]+\.\d+$/)
        .last(),
    ),
  ).toBe(RED);
  expect(
    await colourOf(
      asks
        .getByRole('listitem')
        .first()
        .getByText(/^[\d,]+\.\d+$/)
        .first(),
    ),
  ).toBe(GREEN);
  const bookText = async () => `${await bids.innerText()}||${await asks.innerText()}`;
  const firstBook = await bookText();
  await expect.poll(bookText, { timeout: 60_000, message: 'the order book changes' }).not.toBe(firstBook);
  expect(frames.some((m) => m.channel === 'depth' && m.pairsName === 'BTC/USDT')).toBe(true);
});
