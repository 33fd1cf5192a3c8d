/**
 * Journey 13: peer-to-peer fiat trading in the app with two browser contexts at 390x844. Set up
 * through the API: a merchant (verified by the demo operator through the console API, transaction password, an
 * enabled bank card, 2,000 USDT moved into the OTC account) applies with the security deposit and is approved through
 * the console API (admin/otc/reviewMerchant); a buyer is verified the same way. In the UI: the merchant publishes a
 * SELL ad of 500 USDT at 7.20 CNY on /advertisement (the form in en/day, then zh/night). The buyer finds it on the
 * market (/transaction/transactionFabi), enters 720 CNY and sees 100.00 USDT (floor(fiat * 1e8 / price)),
 * takes it, sees the seller's real name and bank card on the order, marks it paid with the card, and writes in the
 * chat; the merchant's open order turns to "buyer has paid" and its Chat button counts the unread message live, the
 * merchant reads it and releases with the transaction password; both see "Completed". Balances exact through the
 * API: the buyer's OTC account holds 100 USDT, the merchant's 500 available and 1,400 frozen (deposit 1,000 + the
 * ad's remaining 400). Screenshots: docs/screenshots/otc-{market,order,ad-form}{,-zh-night}.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiGet, lookOf, OTC_PIN, otcUsdt, phoneAs, verifiedUser } from './otc-support';
import { apiPost, operatorApiLogin, typePin } from './support';

const PASSWORD = 'Journey13pass';
const PIN = OTC_PIN;
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** Fills the ad form (labels in `lang`): a fixed-price SELL ad of 500 USDT at 7.20, 100-3600 CNY, the bank card. */
async function fillAdForm(page: Page, lang: 'en' | 'zh'): Promise<void> {
  const L =
    lang === 'en'
      ? { price: 'Price (CNY)', qty: 'Quantity (USDT)', min: 'Order minimum (CNY)', max: 'Order maximum (CNY)', bank: /Bank card/, terms: 'Terms' }
      : { price: '单价（CNY）', qty: '数量（USDT）', min: '单笔最低（CNY）', max: '单笔最高（CNY）', bank: /银行卡/, terms: '交易条款' };
  await page.getByRole('textbox', { name: L.price }).fill('7.20');
  await page.getByRole('textbox', { name: L.qty }).fill('500');
  await page.getByRole('textbox', { name: L.min }).fill('100');
  await page.getByRole('textbox', { name: L.max }).fill('3600');
  await page.locator('.otc-method-check').filter({ hasText: L.bank }).click();
  await expect(page.locator('.otc-method-check.adm-checkbox-checked')).toHaveCount(1);
  await page.getByRole('textbox', { name: L.terms }).fill(lang === 'en' ? 'Bank transfer from your own account only.' : '仅接受本人账户银行转账。');
}

test('OTC: a merchant publishes a SELL ad in the app, a buyer buys, pays, chats; the merchant releases; balances exact', async ({ browser, request }) => {
  test.setTimeout(420_000);
  const op = await operatorApiLogin(request);
  const admin = { 'x-admin-token': op.token };
  const merchant = await verifiedUser(request, admin, {
    tag: 'j13m',
    realName: '王商家',
    merchant: true,
    password: PASSWORD,
    birth: '19910303',
    cardNo: '6222020200112233446',
  });
  const buyer = await verifiedUser(request, admin, { tag: 'j13b', realName: '李买家', merchant: false, password: PASSWORD, birth: '19910303', cardNo: '' });
  await apiPost(request, 'otc/otc/applyMerchant', { agree: '1', transPassword: PIN }, merchant);
  await apiPost(request, 'admin/otc/reviewMerchant', { userId: merchant.userId, approve: 'true', reason: 'Journey 13' }, admin);
  expect(await apiGet<{ state: string; deposit: string }>(request, 'otc/otc/getMerchant', merchant)).toMatchObject({
    state: 'ACTIVE',
    deposit: '1000.00000000',
  });
  expect(await otcUsdt(request, merchant)).toEqual({ available: '1000.00000000', frozen: '1000.00000000' });

  // --- The merchant publishes a SELL ad in the app (form shots in en/day and zh/night) ---
  const m = await phoneAs(browser, merchant);
  await m.goto('/advertisement');
  await m.getByRole('button', { name: 'Post an ad' }).first().click();
  await fillAdForm(m, 'en');
  await m.screenshot({ path: path.join(SHOTS, 'otc-ad-form.png') });
  await lookOf(m, 'zh', 'night');
  await m.getByRole('button', { name: '发布广告' }).first().click();
  await fillAdForm(m, 'zh');
  await m.screenshot({ path: path.join(SHOTS, 'otc-ad-form-zh-night.png') });
  await m.getByRole('button', { name: '发布', exact: true }).click();
  const myAd = m.getByRole('listitem').filter({ hasText: '上架中' });
  await expect(myAd).toBeVisible();
  await expect(myAd).toContainText('¥7.20');
  await expect(myAd).toContainText('500.00 / 500.00 USDT');
  expect(await otcUsdt(request, merchant)).toEqual({ available: '500.00000000', frozen: '1500.00000000' });

  // --- The buyer finds it on the market and takes 720 CNY = 100 USDT ---
  const b = await phoneAs(browser, buyer);
  await b.goto('/transaction/transactionFabi');
  const card = b.getByRole('listitem', { name: `Ad of ${merchant.nickName}` });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('ad-price')).toHaveText('7.20');
  await b.screenshot({ path: path.join(SHOTS, 'otc-market.png') });
  await lookOf(b, 'zh', 'night');
  await expect(b.getByRole('listitem', { name: `${merchant.nickName} 的广告` })).toBeVisible();
  await b.screenshot({ path: path.join(SHOTS, 'otc-market-zh-night.png') });
  await lookOf(b, 'en', 'default');
  await b
    .getByRole('listitem', { name: `Ad of ${merchant.nickName}` })
    .getByRole('button', { name: 'Buy USDT' })
    .click();
  await expect(b).toHaveURL(/\/transactionDetail\?adId=/);
  await b.getByRole('textbox', { name: 'Amount (CNY)' }).fill('720');
  await expect(b.getByTestId('take-quantity')).toHaveText('100.00 USDT');
  await b.getByRole('button', { name: 'Buy USDT' }).click();
  await expect(b).toHaveURL(/\/transaction\/orderDetail\?orderId=\d+/);
  const orderId = new URL(b.url()).searchParams.get('orderId')!;

  // --- The buyer sees the payment details; the merchant opens the order ---
  await expect(b.getByRole('status')).toContainText('Pending payment');
  await expect(b.getByRole('status')).toContainText(/Pay the seller within 1[45]:\d\d/);
  await expect(b.getByTestId('order-fiat')).toHaveText('¥720.00');
  await expect(b.getByTestId('order-quantity')).toHaveText('100.00 USDT');
  await expect(b.getByText('6222020200112233446')).toBeVisible();
  await expect(b.getByText('王商家').first()).toBeVisible();
  await b.screenshot({ path: path.join(SHOTS, 'otc-order.png'), fullPage: true });
  await lookOf(b, 'zh', 'night');
  await expect(b.getByRole('status')).toContainText('待付款');
  await b.screenshot({ path: path.join(SHOTS, 'otc-order-zh-night.png'), fullPage: true });
  await lookOf(b, 'en', 'default');

  await lookOf(m, 'en', 'default');
  await m.goto(`/transaction/orderDetail?orderId=${orderId}`);
  await expect(m.getByRole('status')).toContainText("Waiting for the buyer's payment");

  // --- The buyer marks it paid with the bank card and writes in the chat ---
  await b.locator('.otc-method').filter({ hasText: 'Bank card' }).locator('.adm-radio').click();
  await b.getByRole('button', { name: 'I have paid' }).click();
  await b.locator('.adm-dialog').getByRole('button', { name: 'I have paid' }).click();
  await expect(b.getByRole('status')).toContainText('Pending release');
  await expect(m.getByRole('status')).toContainText('Buyer has paid: confirm and release', { timeout: 20_000 });
  await b.getByRole('button', { name: 'Chat' }).click();
  await b.getByRole('textbox', { name: 'Message' }).fill('Paid 720.00 from my ICBC card');
  await b.getByRole('button', { name: 'Send' }).click();
  await expect(b.getByRole('list', { name: 'Messages' })).toContainText('Paid 720.00 from my ICBC card');

  // --- The merchant sees the message (live unread count), then releases with the transaction password ---
  // Only the buyer's message counts: the SYSTEM notes of the order's changes (created, paid) are not unread.
  await expect(m.getByRole('button', { name: 'Chat, 1 unread' })).toBeVisible({ timeout: 20_000 });
  await m.getByRole('button', { name: 'Chat, 1 unread' }).click();
  await expect(m.getByRole('list', { name: 'Messages' })).toContainText('Paid 720.00 from my ICBC card');
  await m.getByRole('dialog', { name: 'Chat' }).getByRole('button', { name: 'Close' }).click();
  await expect(m.getByRole('note')).toContainText('check that ¥720.00 from 李买家 has arrived');
  await m.getByRole('button', { name: 'Payment received, release' }).click();
  await typePin(m, PIN);
  await expect(m.getByRole('status')).toContainText('Completed');
  await expect(b.getByRole('status')).toContainText('Completed', { timeout: 20_000 });
  await expect(b.getByRole('status')).toContainText('100.00 USDT were credited to your OTC account');

  // --- Balances exact ---
  expect(await otcUsdt(request, buyer)).toEqual({ available: '100.00000000', frozen: '0.00000000' });
  expect(await otcUsdt(request, merchant)).toEqual({ available: '500.00000000', frozen: '1400.00000000' });
  const detail = await apiGet<{ state: string; endReason: string }>(request, `otc/otc/getOrderDetail?orderId=${orderId}`, buyer);
  expect(detail).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED' });
  await m.context().close();
  await b.context().close();
});
