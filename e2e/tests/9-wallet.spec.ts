/**
 * Journey 9: the wallet on the demo's real dev chain (Hardhat node started by `npm start`).
 * A new user, verified by the demo operator through the console API and with a transaction password set through the
 * API, opens the USDT deposit screen (390x844, zh), sends the demo's test deposit and watches it confirm n/6 until it
 * is credited; transfers 30 USDT from the funding to the spot account; files a 25 USDT withdrawal to an outside
 * address with the PIN and the e-mail code. The operator approves it in the console (1280x800, en). The app's
 * withdrawal records then show it completed with its transaction hash, and the chain itself (JSON-RPC to the dev
 * node) shows the destination received exactly 25 - 1 (fee) = 24 USDT.
 */
import { expect, test, type Page } from '@playwright/test';
import { CODE_GAP_MS, expectToast, freshEmail, outboxCode, recordToasts, typePin, verifiedUserWithPin } from './support';

const PASSWORD = 'Journey9pass';
const PIN = '470913';
/** Hardhat's dev account #1: an outside address (not ours, not the token contract). */
const DEST = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** The dev chain's USDT token (packages/chain DEV_USDT_ADDRESS: deployed by account #0 at nonce 0). */
const DEV_USDT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** The demo's dev chain listens on the app's port + 10 (config DEV_CHAIN_PORT's default). */
const RPC = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8091) + 10}`;

/** The destination's USDT balance on the dev chain, in token units (6 decimals), by eth_call balanceOf. */
async function usdtOnChain(address: string): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`;
  const res = await fetch(RPC, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: DEV_USDT, data }, 'latest'] }),
  });
  const body = (await res.json()) as { result: string };
  return BigInt(body.result);
}

/** Logs in through the app's login page. */
async function login(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expectToast(page, '登录成功');
}

test('wallet: a test deposit confirms on the dev chain, moves to spot, a withdrawal approved in the console lands on chain', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  await recordToasts(page);
  const email = freshEmail('j9');
  // Verified (basic verification approved by the demo operator) and a transaction password, through the APIs.
  const { user, op, lastCodeAt: pinCodeAt } = await verifiedUserWithPin(request, email, PASSWORD, PIN, { realName: '王五', born: '19880808' });

  await login(page, email);
  const destBefore = await usdtOnChain(DEST);

  // --- Deposit: the demo's test deposit, its confirmations counted up to 6, then credited ---
  await page.goto('/assets/coinCharging?coin=USDT');
  await expect(page.getByText(/^0x[0-9a-fA-F]{40}$/)).toBeVisible();
  await page.getByRole('button', { name: /测试充值/ }).click();
  await expectToast(page, '测试充值已发出，等待出块');
  const recent = page.getByRole('region', { name: '最近充值' });
  await expect(recent.getByText(/^[0-5]\/6 个确认$/)).toBeVisible({ timeout: 30_000 });
  await expect(recent.getByText('已到账')).toBeVisible({ timeout: 60_000 });
  await expect(recent.getByText(/1,000/)).toBeVisible();

  // --- Transfer 30 USDT from the funding account to the spot account ---
  await page.goto('/assets/transfer');
  await expect(page.getByRole('button', { name: '从: 资金账户' })).toBeVisible();
  await expect(page.getByRole('button', { name: '到: 币币账户' })).toBeVisible();
  await page.getByLabel('数量', { exact: true }).fill('30');
  await page.getByRole('button', { name: '确认划转' }).click();
  await expect(page).toHaveURL(/\/assets\/tranferSuccess/);
  await expect(page.getByText('划转成功')).toBeVisible();

  // --- Withdraw 25 USDT to an outside address: PIN and e-mail code ---
  await page.goto('/assets/withdrawCoin?coin=USDT');
  await page.getByLabel('提币地址', { exact: true }).fill(DEST);
  await page.getByLabel('数量', { exact: true }).fill('25');
  await page.getByRole('button', { name: '提币', exact: true }).click();
  const sheet = page.getByRole('dialog', { name: '提币验证' });
  await expect(sheet.getByText(/^24\.00 USDT$/)).toBeVisible();
  await sheet.getByLabel('交易密码', { exact: true }).click();
  await typePin(page, PIN);
  await new Promise((r) => setTimeout(r, Math.max(0, pinCodeAt + CODE_GAP_MS - Date.now())));
  const codeAt = Date.now();
  await sheet.getByRole('button', { name: '获取验证码' }).click();
  // The withdrawal code goes to the user's own address: no puzzle.
  await expectToast(page, '验证码已发送');
  await expect(page.getByRole('dialog', { name: '安全验证' })).toHaveCount(0);
  await sheet.getByLabel('邮箱验证码', { exact: true }).fill(await outboxCode(request, email, codeAt, user));
  await sheet.getByRole('button', { name: '确认提币' }).click();
  await expect(page).toHaveURL(/\/assets\/withdrawCoinSuccess/);
  await expect(page.getByText('提币申请已提交')).toBeVisible();

  // --- The operator approves it in the console ---
  const consoleContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await consoleContext.addInitScript((s) => sessionStorage.setItem('exchange-console-session', s), JSON.stringify(op));
  const consolePage = await consoleContext.newPage();
  await consolePage.goto('/admin/withdrawals');
  const row = consolePage
    .getByRole('row')
    .filter({ hasText: DEST.slice(0, 10) })
    .filter({ hasText: '25' });
  await row.first().click();
  await consolePage.getByRole('button', { name: 'Approve' }).click();
  await expect(consolePage.getByText('Approval recorded')).toBeVisible();
  await consoleContext.close();

  // --- The app's records show it completed (broadcast, 6 confirmations), and the chain agrees ---
  await page.goto('/assets/capitalRecords?type=withdrawCoin');
  // The list does not poll: reload until the row says completed (broadcast, then 6 blocks at one a second).
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('已完成').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  await page.getByText('已完成').first().click();
  await expect(page).toHaveURL(/\/assets\/capitalRecordsDetail\?type=withdrawCoin/);
  await expect(page.getByText('6/6 个确认')).toBeVisible();
  await expect(page.getByText('24.00 USDT', { exact: true })).toBeVisible();
  await expect(page.getByText(/^0x[0-9a-f]{8}…[0-9a-f]{8}$/)).toBeVisible(); // the transaction hash, shortened, with its copy button
  expect(await usdtOnChain(DEST)).toBe(destBefore + 24_000_000n);
});
