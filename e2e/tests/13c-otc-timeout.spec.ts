/**
 * Journey 13c: an unpaid order cancelled by time-out (the test controls the clock through a
 * test-only control, refused in production). A buyer verified through the console API takes the demo merchant's
 * SELL ad in the app (144 CNY at 7.20 = 20.00 USDT, 15-minute payment window) and does not pay. The test moves
 * the server clock 16 minutes forward with POST /api/demo/clock/advance (demo mode and loopback only); the server's
 * time-out job cancels the order at its deadline and the open order screen turns to "Cancelled: not paid within the
 * time limit" through the live push, without a reload; the escrow returns to the ad (its remainder as before) and
 * the order is listed under Cancelled. Screenshots: docs/screenshots/otc-timeout{,-zh-night}.png.
 *
 * The clock only moves forward and every journey shares the server, so this journey runs alone after every other
 * (its own Playwright project, playwright.config.ts).
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, lookOf, phoneAs, verifiedUser } from './otc-support';
import { apiPost, operatorApiLogin } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

type Ad = { adId: string; remaining: string; merchant: { nickName: string } };

test('OTC: an unpaid order is cancelled when its payment time limit passes (the test moves the server clock)', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const op = await operatorApiLogin(request);
  const buyer = await verifiedUser(
    request,
    { 'x-admin-token': op.token },
    { tag: 'j13c', realName: '赵买家', merchant: false, password: 'Journey13cpass', birth: '19920404', cardNo: '' },
  );
  const ads = await apiGet<{ records: Ad[] }>(request, 'otc/otc/getAds?side=BUY&page=1&pageSize=50', {});
  const demoAd = ads.records.find((a) => a.merchant.nickName === 'DemoMerchant');
  expect(demoAd, "the demo merchant's SELL ad on the market").toBeTruthy();
  const remainingBefore = demoAd!.remaining;

  // --- The buyer takes 144 CNY of the demo merchant's ad and does not pay ---
  const b = await phoneAs(browser, buyer);
  await b.goto('/transaction/transactionFabi');
  await b.getByRole('listitem', { name: 'Ad of DemoMerchant' }).getByRole('button', { name: 'Buy USDT' }).click();
  await expect(b).toHaveURL(/\/transactionDetail\?adId=/);
  await b.getByRole('textbox', { name: 'Amount (CNY)' }).fill('144');
  await expect(b.getByTestId('take-quantity')).toHaveText('20.00 USDT');
  await b.getByRole('button', { name: 'Buy USDT' }).click();
  await expect(b).toHaveURL(/\/transaction\/orderDetail\?orderId=\d+/);
  const orderId = new URL(b.url()).searchParams.get('orderId')!;
  await expect(b.getByRole('status')).toContainText('Pending payment');
  await expect(b.getByRole('status')).toContainText(/Pay the seller within 1[45]:\d\d/);
  const held = await apiGet<Ad>(request, `otc/otc/getAd?adId=${demoAd!.adId}`, {});
  expect(BigInt(held.remaining.replace('.', ''))).toBe(BigInt(remainingBefore.replace('.', '')) - 2_000_000_000n);

  // --- 16 minutes pass on the server: the time-out job cancels the order; the open screen follows live ---
  const moved = await apiPost<{ offsetMs: number }>(request, 'demo/clock/advance', { minutes: '16' });
  expect(moved.offsetMs).toBeGreaterThanOrEqual(16 * 60_000);
  await expect(b.getByRole('status')).toContainText('Cancelled: not paid within the time limit', { timeout: 30_000 });
  await expect(b.getByRole('button', { name: 'I have paid' })).toHaveCount(0);
  // The cancellation's SYSTEM note is in the chat but is not an unread message.
  await expect(b.getByRole('button', { name: 'Chat', exact: true })).toBeVisible();
  await b.screenshot({ path: path.join(SHOTS, 'otc-timeout.png'), fullPage: true });
  await lookOf(b, 'zh', 'night');
  await expect(b.getByRole('status')).toContainText('超时未付款，已自动取消');
  await b.screenshot({ path: path.join(SHOTS, 'otc-timeout-zh-night.png'), fullPage: true });

  // --- The escrow is back in the ad; the order is listed under Cancelled ---
  const detail = await apiGet<{ state: string; endReason: string }>(request, `otc/otc/getOrderDetail?orderId=${orderId}`, buyer);
  expect(detail).toMatchObject({ state: 'CANCELLED', endReason: 'TIMEOUT' });
  expect((await apiGet<Ad>(request, `otc/otc/getAd?adId=${demoAd!.adId}`, {})).remaining).toBe(remainingBefore);
  await lookOf(b, 'en', 'default');
  await b.goto('/transaction/otcOrder');
  await b.getByRole('tab', { name: 'Cancelled' }).click();
  await expect(b.getByRole('list', { name: 'Cancelled' }).getByRole('button', { name: `Order ${orderId}` })).toContainText('Cancelled');
  await b.context().close();
});
