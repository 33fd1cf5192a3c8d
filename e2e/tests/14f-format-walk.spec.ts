/**
 * Journey 14f: one number format on every main screen (apps/web shared/format's rule). A new user (the demo's opening
 * grant in spot) moves 2,000 USDT to funding, then visits assets, an asset's detail, transfer, withdraw, capital
 * records, fixed savings, convert, spot, futures and the P2P market. On each screen every amount with 4 or more
 * integer digits must be grouped: no ungrouped decimal such as "9410.2226254" or "5000.00000000", no ungrouped whole
 * amount before a coin such as "5000 USDT" (dates, times and ids are not amounts: they carry '-' or ':' or letters).
 */
import { expect, test } from '@playwright/test';
import { phoneAs } from './otc-support';
import { apiPost, freshEmail, registerByApi } from './support';

/** Ungrouped amounts in a screen's text: a decimal with 4+ integer digits, or a whole 4+ digit amount before a coin. */
export function ungrouped(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?<![\w.,:/-])\d{4,}\.\d+(?![\w:-])/g)) found.push(m[0]);
  for (const m of text.matchAll(/(?<![\w.,:/-])\d{4,}(?:\.\d+)? ?(?:USDT|BTC|ETH|CNY)\b/g)) found.push(m[0]);
  return found;
}

test('the scanner of ungrouped amounts can fail', () => {
  expect(ungrouped('Available 9410.2226254 USDT')).toEqual(['9410.2226254', '9410.2226254 USDT']);
  expect(ungrouped('Left 5000.00000000 USDT · 5000 USDT')).toEqual(['5000.00000000', '5000.00000000 USDT', '5000 USDT']);
  expect(ungrouped('9,410.22 USDT 2026-12-03 13:54:12 #1234 0.00123 BTC 999.86 USDT')).toEqual([]);
});

const SCREENS = [
  '/assets',
  '/assets/assetDetail?coin=USDT&type=ASSETS',
  '/assets/transfer?coin=USDT',
  '/assets/withdrawCoin?coin=USDT',
  '/assets/capitalRecords?type=transfer',
  '/mortgage',
  '/exchange',
  '/transaction',
  '/contract',
  '/transaction/transactionFabi',
];

test('every main screen of a funded user groups its amounts', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const s = await registerByApi(request, freshEmail('j14f'), 'Journey14fPass');
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'ASSETS', amount: '2000', clientId: 'j14f-1' }, s);
  const page = await phoneAs(browser, s);
  const seen: Record<string, string[]> = {};
  for (const url of SCREENS) {
    await page.goto(url);
    // Amounts are there once a digit is: wait for the page's data, then let the live pushes settle.
    await expect(page.locator('main, #root').first()).toContainText(/\d/, { timeout: 20_000 });
    await page.waitForTimeout(1_500);
    seen[url] = ungrouped(await page.locator('body').innerText());
  }
  expect(seen).toEqual(Object.fromEntries(SCREENS.map((u) => [u, []])));
  // The funding account's 2,000 USDT is shown grouped on the transfer screen (the Available that All fills).
  await page.goto('/assets/transfer?coin=USDT&from=ASSETS&to=SPOT');
  await expect(page.getByTestId('transfer-available')).toHaveText(/^\d{1,3}(,\d{3})*(\.\d+)? USDT$/);
});
