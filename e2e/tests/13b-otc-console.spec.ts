/**
 * Journey 13b: the operator console's OTC pages at 1280x800 (en). A merchant (a new user verified by
 * the demo operator, with a transaction password, a bank card and 2,000 USDT moved into the OTC account, all through
 * the API) applies with the 1,000 USDT security deposit. The demo operator logs into the console, finds the
 * application at the head of "OTC merchants" (the PENDING queue) and approves it: getMerchant answers ACTIVE with the
 * deposit held. The merchant publishes a SELL ad of 500 USDT at 7.20 CNY; a verified buyer takes 720.00 CNY
 * (100 USDT), marks it paid and, once the appeal wait has passed, appeals. The operator opens the order from
 * "OTC appeals" by its id, sees both real names, the appeal and the chat, and releases to the buyer after the dialog
 * "Release 100.00000000 USDT to buyer <nickname> (<id>)". Through the API: the order is COMPLETED by
 * APPEAL_RELEASED, the buyer's OTC account holds exactly 100 USDT, the merchant's 500 available and 1,400 frozen
 * (deposit + the ad's remaining 400). "OTC ads" lists the ad with 400 / 500 USDT, alone when filtered by the merchant.
 * Screenshots: docs/screenshots/console-otc-{merchants,appeals,release-confirm,ads}.png.
 *
 * The server must run with a short appeal wait (OTC_APPEAL_AFTER_MS, e.g. 2000): the journey waits at most 90 s.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, OTC_PIN, otcUsdt, verifiedUser } from './otc-support';
import { apiPost, operatorApiLogin, operatorLogin } from './support';

const PASSWORD = 'Journey13bpass';
const PIN = OTC_PIN;
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1, locale: 'en-US' });

test('console OTC: a merchant application approved, an appeal released to the buyer, the ad listed', async ({ page, request }) => {
  test.setTimeout(420_000);
  const op = await operatorApiLogin(request);
  const admin = { 'x-admin-token': op.token };
  const merchant = await verifiedUser(request, admin, {
    tag: 'j13bm',
    realName: '王商家',
    merchant: true,
    password: PASSWORD,
    birth: '19900202',
    cardNo: '6222021234567890128',
  });
  const buyer = await verifiedUser(request, admin, { tag: 'j13bb', realName: '李买家', merchant: false, password: PASSWORD, birth: '19900202', cardNo: '' });
  await apiPost(request, 'otc/otc/applyMerchant', { agree: '1', transPassword: PIN }, merchant);
  expect((await apiGet<{ state: string }>(request, 'otc/otc/getMerchant', merchant)).state).toBe('PENDING');

  // --- The operator approves the application from the review queue ---
  await operatorLogin(page);
  await page.getByRole('menuitem', { name: 'OTC merchants' }).click();
  // (The console masks the account: the row is found by the merchant's nickname.)
  const row = page.getByRole('row').filter({ hasText: merchant.nickName });
  await expect(row).toBeVisible();
  await expect(row.getByText('Pending review')).toBeVisible();
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'console-otc-merchants.png') });
  await row.click();
  const drawer = page.getByRole('dialog').filter({ hasText: `Merchant ${merchant.userId}` });
  await expect(drawer.getByText('王商家')).toBeVisible();
  await drawer.getByRole('button', { name: 'Approve' }).click();
  const confirm = page.locator('.ant-modal-content').filter({ hasText: `Approve ${merchant.nickName} as a merchant?` });
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Merchant approved', { exact: true })).toBeVisible();
  const approved = await apiGet<{ state: string; deposit: string }>(request, 'otc/otc/getMerchant', merchant);
  expect(approved).toMatchObject({ state: 'ACTIVE', deposit: '1000.00000000' });
  expect(await otcUsdt(request, merchant)).toEqual({ available: '1000.00000000', frozen: '1000.00000000' });

  // --- A SELL ad, an order of 720.00 CNY = 100 USDT, paid, appealed by the buyer (API) ---
  const ad = await apiPost<{ adId: string }>(
    request,
    'otc/otc/publishAd',
    {
      side: 'SELL',
      priceType: 'FIXED',
      price: '7.20',
      quantity: '500',
      minFiat: '100',
      maxFiat: '3600',
      paymentWindowMinutes: '15',
      paymentMethodIds: merchant.paymentId,
      remarks: 'Bank transfer only',
      clientId: `j13b-ad-${Date.now()}`,
    },
    merchant,
  );
  const order = await apiPost<{ orderId: string; quantity: string }>(
    request,
    'otc/otc/takeAd',
    { adId: ad.adId, fiatAmount: '720.00', clientId: `j13b-take-${Date.now()}` },
    buyer,
  );
  expect(order.quantity).toBe('100.00000000');
  await apiPost(request, 'otc/otc/sendMessage', { orderId: order.orderId, text: 'Paid from my ICBC card' }, buyer);
  await apiPost(request, 'otc/otc/markPaid', { orderId: order.orderId, paymentMethodId: merchant.paymentId }, buyer);
  const paid = await apiGet<{ appealableAt: number }>(request, `otc/otc/getOrderDetail?orderId=${order.orderId}`, buyer);
  const wait = paid.appealableAt - Date.now();
  expect(wait, 'the server runs with a short OTC_APPEAL_AFTER_MS').toBeLessThan(90_000);
  await new Promise((r) => setTimeout(r, Math.max(0, wait) + 1_000));
  await apiPost(
    request,
    'otc/otc/appeal',
    { orderId: order.orderId, reason: 'PAID_NOT_RELEASED', description: 'I paid 720.00 CNY, the seller does not release' },
    buyer,
  );

  // --- The operator resolves it: release to the buyer ---
  await page.getByRole('menuitem', { name: 'OTC appeals' }).click();
  await expect(page.getByRole('row').filter({ hasText: `${buyer.nickName} (${buyer.userId})` })).toBeVisible();
  await page.getByLabel('Order id').fill(order.orderId);
  await page.getByRole('button', { name: 'Open' }).click();
  const orderDrawer = page.getByRole('dialog').filter({ hasText: `OTC order ${order.orderId}` });
  await expect(orderDrawer.getByText('李买家')).toBeVisible();
  await expect(orderDrawer.getByText('I paid 720.00 CNY, the seller does not release')).toBeVisible();
  await expect(orderDrawer.getByText('Paid from my ICBC card')).toBeVisible();
  await orderDrawer.getByLabel('Resolution reason').fill('The bank statement shows the payment');
  await page.locator('.ant-drawer-body').evaluate((e) => e.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, 'console-otc-appeals.png') });
  await orderDrawer.getByRole('button', { name: 'Release to buyer' }).click();
  const sentence = `Release 100.00000000 USDT to buyer ${buyer.nickName} (${buyer.userId})`;
  const dialog = page.locator('.ant-modal-content').filter({ hasText: sentence });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'console-otc-release-confirm.png') });
  await dialog.getByRole('button', { name: 'Release', exact: true }).click();
  await expect(page.getByText('Appeal resolved', { exact: true })).toBeVisible();

  const done = await apiGet<{ state: string; endReason: string; appeal: { outcome: string; resolution: string } }>(
    request,
    `otc/otc/getOrderDetail?orderId=${order.orderId}`,
    buyer,
  );
  expect(done).toMatchObject({
    state: 'COMPLETED',
    endReason: 'APPEAL_RELEASED',
    appeal: { outcome: 'RELEASE', resolution: 'The bank statement shows the payment' },
  });
  expect(await otcUsdt(request, buyer)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
  // 2,000 - the 100 released; frozen: the 1,000 deposit + the ad's remaining 400; every USDT accounted for.
  expect(await otcUsdt(request, merchant)).toEqual({ available: '500.00000000', frozen: '1400.00000000' });

  // --- The ad in "OTC ads", filtered by the merchant ---
  await page.goto('/admin/otc-ads');
  const adRow = page.getByRole('row').filter({ hasText: `${merchant.nickName} (${merchant.userId})` });
  await expect(adRow).toContainText('400 / 500');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'console-otc-ads.png') });
  await page.getByLabel('User id').fill(merchant.userId);
  await page.getByLabel('User id').press('Enter');
  await expect(page.getByRole('row')).toHaveCount(2); // the header and the merchant's one ad
  await expect(adRow).toContainText('7.20');
});
