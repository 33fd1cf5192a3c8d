/**
 * Journey 4: session expiry. The user signs in with the demo account; the token is
 * then revoked on the server (POST /api/member/member/logout with the token from localStorage); the next
 * authenticated call made by the UI answers HTTP 401 with errorCode SYS.0015, and the app clears the
 * session, shows the spec's message 'login expired, please log in again' (zh locale:
 * '登录已过期，请重新登录', errors:loginExpired used by the api-client for SYS.0015) and lands on /login.
 */
import { expect, test } from '@playwright/test';
import { expectToast, persisted, recordToasts, toasts } from './support';

const DEMO_EMAIL = 'demo@exchange.local';
const DEMO_PASSWORD = 'Demo12345';

test('a token revoked on the server sends the user to /login with the session-expired message', async ({ page }) => {
  test.setTimeout(120_000);
  await recordToasts(page);

  // --- Sign in with the demo account ---
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: '欢迎回来' })).toBeVisible();
  await page.getByLabel('邮箱', { exact: true }).fill(DEMO_EMAIL);
  await page.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expectToast(page, '登录成功');
  await expect(page).toHaveURL(/\/$/);
  const session = await persisted(page);
  expect(session.isLogin).toBe('true');
  expect(session.token).toBeTruthy();
  expect(session.userId).toBeTruthy();

  // Authenticated screen works while the session is live.
  await page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '资产' }).click();
  await expect(page).toHaveURL(/\/assets/);
  await expect(page.getByTestId('total-cny')).toHaveText(/¥[\d,]+\.\d{2}/, { timeout: 30_000 });

  // --- Revoke the token on the server ---
  const revoked = await page.request.post('/api/member/member/logout', { headers: { token: session.token!, userId: session.userId! } });
  expect(revoked.status()).toBe(200);
  expect(((await revoked.json()) as { status: string }).status).toBe('SUCCEED');
  // The server now refuses that token with 401 / SYS.0015.
  const probe = await page.request.get('/api/asset/asset/getAssets', { headers: { token: session.token!, userId: session.userId! } });
  expect(probe.status()).toBe(401);
  expect(((await probe.json()) as { errorCode: string }).errorCode).toBe('SYS.0015');

  // --- An authenticated call from the UI: open the trading tab (current orders and balance) ---
  const before = (await toasts(page)).length;
  await page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '交易' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expectToast(page, '登录已过期，请重新登录');
  // The message is the SYS.0015 one, not the generic HTTP 401 alert.
  expect((await toasts(page)).slice(before)).not.toContain('授权已过期，请重新登录');
  await expect(page.getByRole('heading', { name: '欢迎回来' })).toBeVisible();

  // Session cleared as the spec says (section 4: credentials removed, logged-out state set).
  const after = await persisted(page);
  expect(after.token).toBe('');
  expect(after.userId).toBe('');
  expect(after.isLogin).toBe('false');
  // The balance tab now asks to log in again.
  await page.goto('/');
  await page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '资产' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fassets$/);
});
