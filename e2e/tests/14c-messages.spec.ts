/**
 * Journey 14c (messages, /message: an in-app inbox of the user's events, unread badge, mark read).
 * Logged out, /message asks to log in. A new user (demo funds) buys 20 USDT of BTC at market against the liquidity
 * bot and asks the demo chain for a 100 USDT test deposit (credited after its confirmations). On the home page the
 * avatar shows the unread dot; the side menu lists Messages with the count 2; /message lists "Spot order filled" and
 * "Deposit credited" (en/day, then zh/night); opening the fill marks it read (the count drops to 1), "Mark all read"
 * clears the rest, and back home the dot is gone. Screenshots: docs/screenshots/messages{,-zh-night}.png.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, lookOf, phoneAs } from './otc-support';
import { apiPost, expectToast, freshEmail, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

test('a fill and a deposit arrive in the inbox, the badge shows them, marking read clears it', async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  // Logged out: the log-in prompt (no login guard in the router, spec section 2).
  await page.goto('/message');
  await expect(page.getByRole('button', { name: /log in|登录/i })).toBeVisible();

  const s = await registerByApi(request, freshEmail('j14c'), 'Journey14cpass');
  await apiPost(request, 'entrust/entrust/setEntrust', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', total: '20' }, s);
  await apiPost(request, 'asset/wallet/demoDeposit', { coin: 'USDT', chain: 'ETH', amount: '100' }, s);

  const p = await phoneAs(browser, s);
  await p.goto('/');
  const avatar = p.getByRole('button', { name: /^Open menu/ });
  // The fill is there at once: the dot; the deposit after its confirmations: "2 unread messages".
  await expect(p.getByTestId('unread-dot')).toBeVisible();
  await expect(avatar).toHaveAccessibleName('Open menu (2 unread messages)', { timeout: 90_000 });
  const unread = await apiGet<{ total: number; byCategory: Record<string, number> }>(request, 'member/message/unreadCount', s);
  expect(unread).toEqual({ total: 2, byCategory: { TRADE: 1, ASSET: 1, OTC: 0, ACCOUNT: 0 } });

  await avatar.click();
  const messagesItem = p.getByRole('dialog', { name: 'Menu' }).getByText('Messages');
  await expect(p.getByRole('dialog', { name: 'Menu' }).locator('.menu-badge')).toHaveText('2');
  await messagesItem.click();
  await expect(p).toHaveURL(/\/message$/);
  await expect(p.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const list = p.getByRole('list', { name: 'All' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText('Deposit credited')).toBeVisible();
  await expect(list.getByText('Spot order filled')).toBeVisible();
  await expect(list.getByText(/Your deposit of 100.00 USDT on ETH has been credited to your funding account\./)).toBeVisible();
  await expect(list.getByText(/^Buy BTC\/USDT: [\d.]+ BTC for [\d,.]+ USDT, average price [\d,.]+\.$/)).toBeVisible();
  await expect(p.getByRole('tab', { name: /All/ }).getByLabel('2 unread')).toBeVisible();
  await p.screenshot({ path: path.join(SHOTS, 'messages.png') });

  // Chinese, night.
  await lookOf(p, 'zh', 'night');
  const zhList = p.getByRole('list', { name: '全部' });
  await expect(zhList.getByText('充值到账')).toBeVisible();
  await expect(zhList.getByText('币币委托已成交')).toBeVisible();
  await expect(zhList.getByText('您在 ETH 上充值的 100.00 USDT 已到账资金账户。')).toBeVisible();
  await p.screenshot({ path: path.join(SHOTS, 'messages-zh-night.png') });

  // Opening the fill marks it read: the count drops to 1; the Trades tab has none left.
  await zhList.getByText('币币委托已成交').click();
  await expect(p.getByRole('tab', { name: /全部/ }).getByLabel('1 条未读')).toBeVisible();
  await expect(p.getByRole('tab', { name: /交易/ }).locator('.ib-tab-count')).toHaveCount(0);
  await expect(p.getByRole('button', { name: /查看详情/ })).toBeVisible();
  // Mark all read clears the rest.
  await p.getByRole('button', { name: '全部已读' }).click();
  await expectToast(p, '已全部标为已读');
  await expect(p.locator('.ib-tab-count')).toHaveCount(0);
  await expect(p.locator('.ib-dot')).toHaveCount(0);
  expect((await apiGet<{ total: number }>(request, 'member/message/unreadCount', s)).total).toBe(0);
  // Home: the dot is gone.
  await p.goto('/');
  await expect(p.getByRole('button', { name: '打开菜单' })).toBeVisible();
  await expect(p.getByTestId('unread-dot')).toHaveCount(0);
  await p.context().close();
});
