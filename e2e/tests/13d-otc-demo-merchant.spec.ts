/**
 * Journey 13d: a P2P buy from the demo merchant completes with nobody at the console. A buyer verified through the
 * console API takes the demo merchant's SELL ad in the app (360 CNY at 7.20 = 50.00 USDT), pays with the
 * merchant's bank card and taps "I have paid"; the demo merchant checks the order and releases about 30 s later
 * (otc.demo.ts runOtcDemoMerchant, through the OTC service), and the open order screen turns to "Completed" through
 * the live push, without a reload. The 50 USDT are in the buyer's OTC account, and the market's ad card shows the
 * merchant's average release time beside its 30-day orders and completion rate. Screenshots:
 * docs/screenshots/otc-demo-release{,-zh-night}.png.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, lookOf, otcUsdt, phoneAs, verifiedUser } from './otc-support';
import { operatorApiLogin } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

test('OTC: a buy from the demo merchant is released by the merchant within a minute of "I have paid"', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const op = await operatorApiLogin(request);
  const buyer = await verifiedUser(
    request,
    { 'x-admin-token': op.token },
    { tag: 'j13d', realName: '周买家', merchant: false, password: 'Journey13dpass', birth: '19930505', cardNo: '' },
  );

  // --- The buyer takes 360 CNY of the demo merchant's SELL ad ---
  const b = await phoneAs(browser, buyer);
  await b.goto('/transaction/transactionFabi');
  await b.getByRole('listitem', { name: 'Ad of DemoMerchant' }).getByRole('button', { name: 'Buy USDT' }).click();
  await expect(b).toHaveURL(/\/transactionDetail\?adId=/);
  await b.getByRole('textbox', { name: 'Amount (CNY)' }).fill('360');
  await expect(b.getByTestId('take-quantity')).toHaveText('50.00 USDT');
  await b.getByRole('button', { name: 'Buy USDT' }).click();
  await expect(b).toHaveURL(/\/transaction\/orderDetail\?orderId=\d+/);
  const orderId = new URL(b.url()).searchParams.get('orderId')!;
  await expect(b.getByRole('status')).toContainText('Pending payment');

  // --- "I have paid" with the merchant's bank card; the merchant releases by itself ---
  await b.locator('.otc-method').filter({ hasText: 'Bank card' }).locator('.adm-radio').click();
  await b.getByRole('button', { name: 'I have paid' }).click();
  await b.locator('.adm-dialog').getByRole('button', { name: 'I have paid' }).click();
  await expect(b.getByRole('status')).toContainText('Pending release');
  const paidAt = Date.now();
  await expect(b.getByRole('status')).toContainText('Completed', { timeout: 90_000 });
  const waited = Date.now() - paidAt;
  expect(waited, 'released about 30 s after "I have paid" (the job looks every 5 s)').toBeGreaterThan(20_000);
  expect(waited).toBeLessThan(70_000);
  await expect(b.getByRole('status')).toContainText('50.00 USDT were credited to your OTC account');
  await b.screenshot({ path: path.join(SHOTS, 'otc-demo-release.png'), fullPage: true });
  await lookOf(b, 'zh', 'night');
  await expect(b.getByRole('status')).toContainText('已完成');
  await b.screenshot({ path: path.join(SHOTS, 'otc-demo-release-zh-night.png'), fullPage: true });
  await lookOf(b, 'en', 'default');

  const detail = await apiGet<{ state: string; endReason: string }>(request, `otc/otc/getOrderDetail?orderId=${orderId}`, buyer);
  expect(detail).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED' });
  expect(await otcUsdt(request, buyer)).toEqual({ available: '50.00000000', frozen: '0.00000000' });

  // --- The market shows the merchant's average release time, computed from its orders ---
  await b.goto('/transaction/transactionFabi');
  await expect(b.getByRole('listitem', { name: 'Ad of DemoMerchant' })).toContainText(/\d+\.\d min avg\. release/, { timeout: 20_000 });
  await b.context().close();
});
