/**
 * Journey 15 (API keys in the account centre): a new user (registered through the API) logs in, opens the
 * account centre's API management (no keys yet), creates an HMAC key with spot and futures trading and an IP
 * whitelist of the loopback addresses, confirming with a VERIFY code from the demo outbox (the slide puzzle first),
 * and sees the API key and the secret once; the list then shows the key (type, permissions, whitelist, never used).
 * The key calls a signed endpoint (GET /api/v3/account, HMAC-SHA256 computed here with node:crypto as a bot would)
 * and the list shows it used; a wrong signature is refused with Binance's -1022. The same screens in English and the
 * day theme with a second key; then the first key is deleted after the confirmation, is gone from the list, and the
 * signed call with it is refused (-2015). Screenshots (390x844) of the list, the create form and the one-time secret
 * screen in zh/night and en/day go to docs/screenshots/api-keys-*.png.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CODE_GAP_MS, expectToast, freshEmail, outboxCode, recordToasts, registerByApi } from './support';
import { SIGNED_PATH, signedGet } from './api-key-support';

const PASSWORD = 'Journey15pass';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
/** When the last code went to the journey's account (the server sends one per CODE_GAP_MS per account). */
let lastSentAt = 0;

/** Texts of the two languages the journey uses. */
const T = {
  zh: {
    sendCode: '获取验证码',
    captcha: ['安全验证', '拖动滑块完成拼图'],
    codeSent: '验证码已发送',
    code: '验证码',
    title: 'API管理',
    create: '创建API密钥',
    label: '备注名',
    futures: '合约交易',
    ips: 'IP白名单（选填）',
    submit: '创建',
    created: 'API密钥已创建',
    saved: '我已保存Secret Key',
    delete: '删除',
    deleted: 'API密钥已删除',
  },
  en: {
    sendCode: 'Send code',
    captcha: ['Security verification', 'Drag the slider to complete the puzzle'],
    codeSent: 'Code sent',
    code: 'Verification code',
    title: 'API management',
    create: 'Create API key',
    label: 'Label',
    futures: 'Futures trading',
    ips: 'IP whitelist (optional)',
    submit: 'Create',
    created: 'API key created',
    saved: 'I have saved the secret key',
    delete: 'Delete',
    deleted: 'API key deleted',
  },
} as const;

/** The session headers of the logged-in page (for the owner-only outbox). */
async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => ({ token: localStorage.getItem('token') ?? '', userId: localStorage.getItem('userId') ?? '' }));
}

/** Switches the app to `lang` and `theme` (the persisted fields of spec section 3) and reloads. */
async function look(page: Page, lang: 'en' | 'zh', theme: 'default' | 'night'): Promise<void> {
  await page.evaluate(
    ([l, th]) => {
      localStorage.setItem('currentLangue', l!);
      localStorage.setItem('theme', th!);
    },
    [lang, theme],
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Sends the VERIFY code from the form (no puzzle: it goes to the user's own address), reads it from the outbox and fills it in. */
async function fillVerifyCode(page: Page, request: APIRequestContext, email: string, lang: 'en' | 'zh'): Promise<void> {
  const t = T[lang];
  const wait = lastSentAt + CODE_GAP_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  const after = Date.now();
  await page.getByRole('button', { name: t.sendCode }).click();
  await expectToast(page, t.codeSent);
  await expect(page.getByRole('dialog', { name: t.captcha[0] })).toHaveCount(0);
  lastSentAt = Date.now();
  const code = await outboxCode(request, email, after, await sessionHeaders(page));
  await page.getByLabel(t.code, { exact: true }).fill(code);
}

/** Fills and submits the create form in `lang`; the key and (HMAC) secret read from the one-time screen. */
async function createKey(
  page: Page,
  request: APIRequestContext,
  email: string,
  lang: 'en' | 'zh',
  label: string,
  ips: string,
  shot: string,
): Promise<{ apiKey: string; secret: string }> {
  const t = T[lang];
  await page.getByRole('button', { name: t.create, exact: true }).last().click();
  await expect(page).toHaveURL(/\/accountCenter\/apiKeys\/create$/);
  await page.getByLabel(t.label, { exact: true }).fill(label);
  await page.getByRole('switch', { name: t.futures }).click();
  await page.getByLabel(t.ips).fill(ips);
  await fillVerifyCode(page, request, email, lang);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `api-keys-create-${shot}.png`) });
  await page.getByRole('button', { name: t.submit, exact: true }).click();
  await expect(page.getByRole('heading', { name: t.created })).toBeVisible();
  const apiKey = (await page.getByTestId('api-key').innerText()).trim();
  const secret = (await page.getByTestId('api-secret').innerText()).trim();
  expect(apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);
  await page.screenshot({ path: path.join(SHOTS, `api-keys-secret-${shot}.png`) });
  await page.getByRole('button', { name: t.saved }).click();
  await expect(page).toHaveURL(/\/accountCenter\/apiKeys$/);
  return { apiKey, secret };
}

/** The card of the key labelled `label` on the list. */
function card(page: Page, label: string) {
  return page.getByRole('listitem', { name: label, exact: true });
}

test('API keys: create an HMAC key with the second factor, see the secret once, sign with it, delete it', async ({ page, request }) => {
  test.setTimeout(300_000);
  await recordToasts(page);
  const email = freshEmail('j15');
  await registerByApi(request, email, PASSWORD);
  lastSentAt = Date.now();

  // --- Log in (Chinese, the browser's language), then the night theme ---
  await page.goto('/login');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('isLogin'))).toBe('true');
  await page.goto('/accountCenter');
  await look(page, 'zh', 'night');

  // --- Account centre -> API management: no keys yet ---
  await page.locator('.adm-list-item', { hasText: 'API管理' }).click();
  await expect(page).toHaveURL(/\/accountCenter\/apiKeys$/);
  await expect(page.getByText('暂无API密钥')).toBeVisible();

  // --- Create an HMAC key with the VERIFY code; the secret shown once ---
  const first = await createKey(page, request, email, 'zh', 'Grid bot', '127.0.0.1\n::1', 'zh-night');
  const bot = card(page, 'Grid bot');
  await expect(bot).toBeVisible();
  await expect(bot.getByText(first.apiKey)).toBeVisible();
  await expect(bot.getByText('HMAC', { exact: true })).toBeVisible();
  for (const p of ['读取', '现货交易', '合约交易']) await expect(bot.getByText(p, { exact: true })).toBeVisible();
  await expect(bot.getByText('提现', { exact: true })).toHaveCount(0);
  await expect(bot.getByText('127.0.0.1, ::1')).toBeVisible();
  await expect(bot.getByText('从未使用')).toBeVisible();
  // The secret is nowhere on the list, and nowhere in what the server lists.
  await expect(page.getByText(first.secret)).toHaveCount(0);
  const listed = await request.get('/api/member/apiKey/list', { headers: await sessionHeaders(page) });
  expect(await listed.text()).not.toContain(first.secret);
  await page.screenshot({ path: path.join(SHOTS, 'api-keys-list-zh-night.png') });

  // --- The key signs a request as a bot would; a wrong signature is refused ---
  const used = await signedGet(request, SIGNED_PATH, first);
  expect(used.status, JSON.stringify(used.body)).toBe(200);
  expect(Array.isArray(used.body.balances)).toBe(true);
  const forged = await signedGet(request, SIGNED_PATH, { apiKey: first.apiKey, secret: 'x'.repeat(64) });
  expect(forged).toMatchObject({ status: 400, body: { code: -1022 } });
  await page.reload();
  await expect(card(page, 'Grid bot').getByText('从未使用')).toHaveCount(0);
  await expect(card(page, 'Grid bot').getByText('最近使用')).toBeVisible();

  // --- English, day: a second key; the list holds both ---
  await look(page, 'en', 'default');
  await expect(page.getByRole('heading', { name: 'API management' })).toBeVisible();
  const second = await createKey(page, request, email, 'en', 'Market maker', '203.0.113.7', 'en-day');
  expect(second.apiKey).not.toBe(first.apiKey);
  await expect(card(page, 'Market maker').getByText('203.0.113.7')).toBeVisible();
  await expect(card(page, 'Grid bot')).toBeVisible();
  await expect(page.getByText('Keys: 2 / 30')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'api-keys-list-en-day.png') });

  // --- Delete the first key after the confirmation: gone from the list, refused by the API ---
  await card(page, 'Grid bot').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete "Grid bot"? Programs using it stop working at once.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'API key deleted');
  await expect(card(page, 'Grid bot')).toHaveCount(0);
  await expect(card(page, 'Market maker')).toBeVisible();
  await page.reload();
  await expect(card(page, 'Market maker')).toBeVisible();
  await expect(card(page, 'Grid bot')).toHaveCount(0);
  expect(await signedGet(request, SIGNED_PATH, first)).toMatchObject({ status: 401, body: { code: -2015 } });
});
