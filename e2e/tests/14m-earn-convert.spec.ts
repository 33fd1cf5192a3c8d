/**
 * Journey 14m (fixed savings: lock and redeem; convert): a new user (10,000 USDT of demo funds in SPOT) moves
 * 2,000 USDT to the funding (ASSETS) account through the API, opens "Fixed savings" from the assets screen, locks
 * 1,000 USDT in the demo's USDT 7-day product at 5% (the sheet shows the term's interest 0.9589041 =
 * floor(1000 x 5% x 7 / 365) to 8 decimals), and sees the lock in /mort_record. The test moves the server clock one day
 * forward (POST /api/demo/clock/advance, demo mode and loopback only; the clock never moves back, so this journey runs
 * in the 'clock' lane after the others); the daily job pays 0.1369863 USDT (1000 x 5% / 365, rounded down); the user
 * redeems early, is told 999.8630137 comes back (the interest paid is deducted), and finds it in /redeem_record; the
 * funding account holds exactly 2,000 USDT again. Then /exchange: 100 USDT to BTC, a quote with the fee and what
 * it spends (whole steps of BTC), converted; the BTC received and the USDT spent equal the quote exactly. Finally
 * the console's savings products page (the demo operator, 1280x800). Screenshots: docs/screenshots/{mortgage,
 * mort-record,redeem-record,exchange}{,-zh-night}.png, console-earn-products.png.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, lookOf, phoneAs } from './otc-support';
import { apiPost, freshEmail, grouped, operatorLogin, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
type Assets = { accounts: { type: string; items: { coin: string; available: string }[] }[] };
/** A decimal string as an integer of 10^-8 units (no float). */
const units = (v: string): bigint => {
  const [i = '0', f = ''] = v.split('.');
  return BigInt(i) * 10n ** 8n + BigInt((f + '00000000').slice(0, 8));
};
const bal = (a: Assets, type: string, coin: string) => a.accounts.find((x) => x.type === type)?.items.find((i) => i.coin === coin)?.available ?? '0';

test('savings: lock 1,000 USDT, a day of interest, early redemption; convert USDT to BTC at the guaranteed amount', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const s = await registerByApi(request, freshEmail('j14m'), 'Journey14mPass');
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'ASSETS', amount: '2000', clientId: 'j14m-1' }, s);
  const page = await phoneAs(browser, s);

  // --- Fixed savings from the assets screen ---
  await page.goto('/assets');
  await page.getByRole('button', { name: /Fixed savings/ }).click();
  await expect(page).toHaveURL(/\/mortgage$/);
  const product = page.getByRole('listitem', { name: 'USDT 7 days' });
  await expect(product).toContainText('5%');
  await expect(product).toContainText('Allowed, the interest paid is deducted');
  await page.screenshot({ path: path.join(SHOTS, 'mortgage.png') });
  await product.getByRole('button', { name: 'Lock' }).click();
  const sheet = page.getByRole('dialog', { name: 'Lock USDT' });
  await expect(sheet).toContainText('2,000.00');
  await sheet.getByRole('textbox', { name: 'Amount' }).fill('5');
  await expect(sheet).toContainText('Lock from 10.00 to 50,000.00 USDT');
  await sheet.getByRole('textbox', { name: 'Amount' }).fill('1000');
  await expect(sheet.getByTestId('expected-interest')).toHaveText('0.9589041 USDT');
  await sheet.getByRole('button', { name: 'Confirm lock' }).click();
  await expect(page).toHaveURL(/\/mort_record$/);
  const lock = page.getByRole('listitem', { name: '1,000.00 USDT' });
  await expect(lock).toContainText('0 / 7');
  expect(bal(await apiGet<Assets>(request, 'asset/asset/getAssets', s), 'ASSETS', 'USDT')).toBe('1000.00000000');

  // --- One day later the job has paid a day of interest ---
  await apiPost(request, 'demo/clock/advance', { minutes: '1440' });
  await expect.poll(async () => bal(await apiGet<Assets>(request, 'asset/asset/getAssets', s), 'ASSETS', 'USDT'), { timeout: 30_000 }).toBe('1000.13698630');
  await page.reload();
  await expect(lock.getByTestId('interest-paid')).toHaveText('0.1369863 USDT');
  await expect(lock).toContainText('1 / 7');
  await page.screenshot({ path: path.join(SHOTS, 'mort-record.png') });

  // --- Early redemption: the interest paid is deducted from the principal ---
  await lock.getByRole('button', { name: 'Redeem early' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('You will receive 999.8630137 USDT');
  await dialog.getByRole('button', { name: 'Redeem early' }).click();
  await expect(page.getByText('No running locks')).toBeVisible();
  expect(bal(await apiGet<Assets>(request, 'asset/asset/getAssets', s), 'ASSETS', 'USDT')).toBe('2000.00000000');
  await page.getByRole('button', { name: 'Redeemed' }).click();
  await expect(page).toHaveURL(/\/redeem_record$/);
  const red = page.getByRole('listitem', { name: '1,000.00 USDT' });
  await expect(red).toContainText('Early');
  await expect(red.getByTestId('returned')).toHaveText('999.8630137 USDT');
  await page.screenshot({ path: path.join(SHOTS, 'redeem-record.png') });

  // --- Convert 100 USDT to BTC ---
  const before = await apiGet<Assets>(request, 'asset/asset/getAssets', s);
  await page.goto('/assets');
  await page.getByRole('button', { name: /Convert coins/ }).click();
  await expect(page).toHaveURL(/\/exchange$/);
  await page.getByRole('combobox', { name: 'Coin to pay' }).selectOption('USDT');
  await page.getByRole('combobox', { name: 'Coin to receive' }).selectOption('BTC');
  // The order's minimum (the market's minimum notional, in the coin paid) is shown before any quote, and an amount
  // below it is not sent: the same number the server's convert_below_minimum refuses with.
  const pairs = await apiGet<{ pairs: { symbol: string; minQuote: string }[] }>(request, 'exchange/convert/getPairs', s);
  const minQuote = pairs.pairs
    .find((p) => p.symbol === 'BTC/USDT')!
    .minQuote.replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  const minimum = page.getByTestId('minimum');
  // USDT shows at least 2 decimals, grouped (apps/web shared/format): "5" -> "5.00".
  const [minInt = '0', minFrac = ''] = minQuote.split('.');
  await expect(minimum).toHaveText(`Minimum ${grouped(`${minInt}.${minFrac.padEnd(2, '0')}`)} USDT`);
  const below = (units(minQuote) - 1n).toString().padStart(9, '0');
  await page.getByRole('textbox', { name: 'Amount to convert' }).fill(`${below.slice(0, -8)}.${below.slice(-8)}`);
  await expect(minimum).toHaveClass(/cv-min-below/);
  await expect(page.getByRole('button', { name: 'Preview conversion' })).toBeDisabled();
  await page.screenshot({ path: path.join(SHOTS, 'exchange-minimum.png') });
  await page.getByRole('textbox', { name: 'Amount to convert' }).fill('100');
  await page.getByRole('button', { name: 'Preview conversion' }).click();
  await expect(page.getByText(/Quote valid for \d+ s/)).toBeVisible();
  await expect(page.getByText(/^Fee \(\d/)).toBeVisible();
  const receive = (await page.getByTestId('receive').textContent())!.trim();
  expect(units(receive)).toBeGreaterThan(0n);
  // A market BUY by quote amount spends whole steps of BTC: what cannot buy one more step stays in USDT.
  const spend = (await page.getByTestId('spend').textContent())!.replace(' USDT', '').trim();
  expect(units(spend) <= 100n * 10n ** 8n).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'exchange.png') });
  await page.getByRole('button', { name: 'Convert', exact: true }).click();
  await expect(page.getByRole('status')).toContainText(`Converted ${spend} USDT to ${receive} BTC`);
  const after = await apiGet<Assets>(request, 'asset/asset/getAssets', s);
  expect(units(bal(after, 'SPOT', 'BTC')) - units(bal(before, 'SPOT', 'BTC'))).toBe(units(receive));
  expect(units(bal(before, 'SPOT', 'USDT')) - units(bal(after, 'SPOT', 'USDT'))).toBe(units(spend));

  // --- Chinese, night theme ---
  await lookOf(page, 'zh', 'night');
  await page.getByRole('textbox', { name: '兑换数量' }).fill('50');
  await page.getByRole('button', { name: '预览兑换' }).click();
  await expect(page.getByText(/报价 \d+ 秒内有效/)).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'exchange-zh-night.png') });
  await page.goto('/mortgage');
  await expect(page.getByRole('listitem', { name: 'USDT 7天' })).toContainText('支持，扣除已发利息');
  await page.screenshot({ path: path.join(SHOTS, 'mortgage-zh-night.png') });
  await page.goto('/redeem_record');
  await expect(page.getByRole('listitem', { name: '1,000.00 USDT' })).toContainText('提前赎回');
  await page.screenshot({ path: path.join(SHOTS, 'redeem-record-zh-night.png') });
  await page.goto('/mort_record');
  await expect(page.getByText('暂无锁仓')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'mort-record-zh-night.png') });
  await page.context().close();

  // --- The console's savings products page (desktop, 1280x800): the demo's three products with the locked principal ---
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const op = await desk.newPage();
  await operatorLogin(op);
  await op.getByRole('menuitem', { name: 'Savings products' }).click();
  await expect(op).toHaveURL(/\/admin\/earn-products$/);
  await expect(op.getByRole('row').filter({ hasText: 'Allowed, interest paid deducted' })).toHaveCount(2);
  await expect(op.getByRole('row').filter({ hasText: 'Not allowed' })).toHaveCount(1);
  await op.screenshot({ path: path.join(SHOTS, 'console-earn-products.png') });
  await desk.close();
});
