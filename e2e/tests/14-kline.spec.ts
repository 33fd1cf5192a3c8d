/**
 * Journey 14 (/kline, the chart full screen, landscape-friendly, with the indicators users expect): from
 * BTC/USDT's detail page the full-screen button opens /kline with the pair and interval; the chart fills the
 * viewport; MA, EMA and BOLL redraw the legend over the candles with values; MACD and RSI open the lower pane with
 * their values (RSI between 0 and 100); turned to landscape, the chart takes the new height. In en/day and zh/night.
 * Screenshots: docs/screenshots/kline{,-zh-night,-landscape}.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** A number in a legend entry "LABEL: 65,432.10" (thousands separators dropped), or NaN for "--". */
function legendNumber(text: string | null): number {
  const m = /:\s*(-?[\d,]+(?:\.\d+)?)/.exec(text ?? '');
  return m ? Number(m[1]!.replace(/,/g, '')) : Number.NaN;
}

async function look(page: Page, lang: 'en' | 'zh', theme: 'default' | 'night'): Promise<void> {
  await page.addInitScript(
    ([l, th]) => {
      localStorage.setItem('currentLangue', l!);
      localStorage.setItem('theme', th!);
    },
    [lang, theme],
  );
}

test('the chart full screen with MA, EMA, BOLL, MACD and RSI, in portrait and landscape', async ({ page }) => {
  await look(page, 'en', 'default');
  await page.goto('/quotes/quotesDetail?type=bibi&pairsName=BTC/USDT');
  await page.getByRole('tab', { name: '1H' }).click();
  await page.getByRole('button', { name: 'Full-screen chart' }).click();
  await expect(page).toHaveURL(/\/kline\?type=bibi&pairsName=BTC%2FUSDT&period=1hour/);
  const chart = page.getByRole('img', { name: 'BTC/USDT candlestick chart, 1H' });
  await expect(chart).toBeVisible();
  await expect.poll(async () => Number(await chart.getAttribute('data-bars'))).toBeGreaterThan(100);
  // The chart takes the viewport below the header, intervals, indicators and legend (844 - 138 px).
  expect((await chart.boundingBox())!.height).toBeGreaterThanOrEqual(700);
  await expect(page.getByTestId('kline-last')).toHaveText(/^\d[\d,]*\.\d{2} [+-]?\d+\.\d{2}%$/);

  const legend = page.locator('.qt-ma-legend').first();
  await expect(legend).toContainText('MA5:');
  expect(legendNumber(await legend.locator('span').first().textContent())).toBeGreaterThan(0);
  await page.getByRole('tablist', { name: 'Lines over the candles' }).getByRole('tab', { name: 'EMA' }).click();
  await expect(legend).toContainText('EMA30:');
  await expect.poll(async () => legendNumber(await legend.locator('span').nth(2).textContent())).toBeGreaterThan(0);
  await page.getByRole('tablist', { name: 'Lines over the candles' }).getByRole('tab', { name: 'BOLL' }).click();
  await expect(legend).toContainText('BOLL(20,2) MID:');
  await expect
    .poll(async () => {
      const [mid, up, dn] = await Promise.all([0, 1, 2].map(async (i) => legendNumber(await legend.locator('span').nth(i).textContent())));
      return up! >= mid! && mid! >= dn! && dn! > 0;
    })
    .toBe(true);

  const lower = page.getByRole('tablist', { name: 'Lower pane' });
  await lower.getByRole('tab', { name: 'MACD' }).click();
  const sub = page.getByTestId('sub-legend');
  await expect(sub).toContainText('MACD(12,26,9) DIF:');
  await expect.poll(async () => Number.isFinite(legendNumber(await sub.locator('span').nth(1).textContent()))).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'kline.png') });
  await lower.getByRole('tab', { name: 'RSI' }).click();
  await expect(sub).toContainText('RSI(14):');
  await expect.poll(async () => legendNumber(await sub.locator('span').first().textContent())).toBeGreaterThanOrEqual(0);
  const r = legendNumber(await sub.locator('span').first().textContent());
  expect(r).toBeLessThanOrEqual(100);

  // Landscape: the chart is rebuilt at the new height.
  await page.setViewportSize({ width: 844, height: 390 });
  await expect.poll(async () => Math.round((await chart.boundingBox())!.height)).toBe(390 - 138);
  await page.screenshot({ path: path.join(SHOTS, 'kline-landscape.png') });
  await lower.getByRole('tab', { name: 'VOL' }).click();
  await expect(sub).toHaveCount(0);
});

test('the chart full screen in Chinese and the night theme', async ({ page }) => {
  await look(page, 'zh', 'night');
  await page.goto('/kline?type=bibi&pairsName=ETH/USDT&period=15min');
  const chart = page.getByRole('img', { name: 'ETH/USDT K线图，15分' });
  await expect(chart).toBeVisible();
  await expect.poll(async () => Number(await chart.getAttribute('data-bars'))).toBeGreaterThan(100);
  await page.getByRole('tablist', { name: '主图指标' }).getByRole('tab', { name: 'BOLL' }).click();
  await page.getByRole('tablist', { name: '副图指标' }).getByRole('tab', { name: 'MACD' }).click();
  await expect(page.getByTestId('sub-legend')).toContainText('DEA:');
  await page.screenshot({ path: path.join(SHOTS, 'kline-zh-night.png') });
});
