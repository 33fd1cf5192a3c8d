/**
 * Journey 9b: USDT on four networks, each the demo's own dev chain (Ethereum on the app's port + 10, BNB Smart Chain
 * + 11, Arbitrum One + 12, Polygon + 13; the same USDT token address on each, 18 decimals on BNB Smart Chain).
 * A new user, verified by the demo operator through the console API and with a transaction password set through the
 * API, opens the USDT deposit screen (390x844, en, day), sees the four networks in the chooser, picks BNB Smart Chain
 * and sends the demo's test deposit: it is credited with its network shown (latest deposits, records, detail), and
 * the BNB Smart Chain dev chain has the transaction (its receipt: a transfer of 1000 x 10^18 token units to the
 * user's deposit address), Ethereum's does not. On the withdraw screen a TRON address is refused as it is typed,
 * naming the chosen network, with the button off; then 25 USDT go out on Arbitrum One to an outside address, the
 * operator approves them in the console (1280x800, en), and the Arbitrum dev chain shows the destination received
 * 25 - 0.2 (fee) = 24.8 USDT (24,800,000 units of 6 decimals) while its balance on the other three chains is still 0;
 * the user's only withdrawal is that one. Screenshots of the network chooser on deposit and withdraw, in en day and
 * zh night, of the BSC deposit credited (the whole page) and of the wrong-network error:
 * docs/screenshots/review/usdt-networks-*.png.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { lookOf, phoneAs } from './otc-support';
import { CODE_GAP_MS, expectToast, freshEmail, outboxCode, typePin, verifiedUserWithPin } from './support';

const PASSWORD = 'Journey9bPass';
const PIN = '381704';
/** A fresh outside address (all lower case: no checksum claimed), its balances 0 on every dev chain. */
const DEST = `0x${randomBytes(20).toString('hex')}`;
const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
/** The dev chains' USDT token (packages/chain DEV_USDT_ADDRESS: deployed by account #0 at nonce 0 on each chain). */
const DEV_USDT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PORT = Number(process.env.E2E_PORT ?? 8091);
/** Each network's dev chain: the app's port + 10, 11, 12, 13. */
const RPC = { ETH: PORT + 10, BSC: PORT + 11, ARBITRUM: PORT + 12, MATIC: PORT + 13 } as const;
type Net = keyof typeof RPC;
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'review');
/** keccak256("Transfer(address,address,uint256)"): the ERC-20 transfer event's topic. */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** One JSON-RPC call to the dev chain of `net`. */
async function rpc<T>(net: Net, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${RPC[net]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T };
  return body.result;
}

/** The USDT balance of `address` on `net`'s dev chain, in token units (18 decimals on BSC, 6 elsewhere). */
async function usdtOn(net: Net, address: string): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`;
  return BigInt(await rpc<string>(net, 'eth_call', [{ to: DEV_USDT, data }, 'latest']));
}

/** A 20-byte address as a 32-byte log topic. */
const topicOf = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

/** Opens the network chooser from the network row of the deposit or withdraw screen. */
async function openChooser(page: Page, rowName: RegExp) {
  await page.getByRole('button', { name: rowName }).click();
  const sheet = page.getByRole('dialog', { name: /^(Choose network|选择网络)$/ });
  await expect(sheet.getByRole('radio')).toHaveCount(4);
  return sheet;
}

test('USDT networks: a deposit on BNB Smart Chain lands on its chain, a TRON address is refused, a withdrawal on Arbitrum One lands on its chain', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const email = freshEmail('j9b');
  // Verified (basic verification approved by the demo operator) and a transaction password, through the APIs.
  const { user, op, lastCodeAt: pinCodeAt } = await verifiedUserWithPin(request, email, PASSWORD, PIN, { realName: '赵六', born: '19890909' });

  const page = await phoneAs(browser, user);

  // --- (a) Deposit on BNB Smart Chain: the chooser lists the four networks; the test deposit goes out on BSC ---
  await page.goto('/assets/coinCharging?coin=USDT');
  const address = (await page.getByTestId('deposit-address').textContent())!.trim();
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  let sheet = await openChooser(page, /^Network: Ethereum \(ERC20\)/);
  await expect(sheet.getByRole('radio', { name: /BNB Smart Chain \(BEP20\)/ })).toContainText('Min. deposit 0.01 USDT');
  await page.waitForTimeout(400); // the sheet's slide-in
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-deposit-en.png') });
  await sheet.getByRole('radio', { name: /BNB Smart Chain \(BEP20\)/ }).click();
  await expect(page.getByRole('button', { name: 'Network: BNB Smart Chain (BEP20). Choose another' })).toBeVisible();
  await expect(page).toHaveURL(/chain=BSC/);
  await expect(page.getByRole('note')).toContainText('Send only USDT on BNB Smart Chain (BEP20) to this address.');
  // The same deposit address on every network (one key, as on Binance).
  await expect(page.getByTestId('deposit-address')).toHaveText(address);
  const sent = page.waitForResponse((r) => r.url().includes('/api/asset/wallet/demoDeposit'));
  await page.getByRole('button', { name: 'Send a test deposit of 1000 USDT' }).click();
  const deposit = (await (await sent).json()) as { status: string; result: { txHash: string } };
  expect(deposit.status).toBe('SUCCEED');
  const txHash = deposit.result.txHash;
  await expectToast(page, 'Test deposit sent, waiting for the block');
  const recent = page.getByRole('region', { name: 'Latest deposits' });
  await expect(recent.getByText('Credited')).toBeVisible({ timeout: 90_000 });
  await expect(recent.getByText('+1,000.00 USDT')).toBeVisible();
  await expect(recent.getByText('BSC', { exact: true })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-deposit-bsc-en.png'), fullPage: true });

  // The transaction is on the BNB Smart Chain dev chain: a transfer of 1000 USDT (18 decimals) to the deposit address.
  const receipt = await rpc<{ status: string; to: string; logs: { address: string; topics: string[]; data: string }[] } | null>(
    'BSC',
    'eth_getTransactionReceipt',
    [txHash],
  );
  expect(receipt, 'the deposit transaction on the BSC dev chain').not.toBeNull();
  expect(receipt!.status).toBe('0x1');
  const transfer = receipt!.logs.find((l) => l.topics[0] === TRANSFER_TOPIC && l.topics[2] === topicOf(address));
  expect(transfer, 'a USDT transfer to the deposit address').toBeTruthy();
  expect(transfer!.address.toLowerCase()).toBe(DEV_USDT.toLowerCase());
  expect(BigInt(transfer!.data)).toBe(1000n * 10n ** 18n);
  expect(await rpc('ETH', 'eth_getTransactionReceipt', [txHash]), 'not on the Ethereum dev chain').toBeNull();

  // The records name the network: the list's code, the detail's name.
  await page.goto('/assets/capitalRecords?type=coinCharging');
  const depositRow = page.getByRole('list', { name: 'Deposits' }).getByRole('button').first();
  await expect(depositRow).toContainText('BSC');
  await expect(depositRow).toContainText('Credited');
  await depositRow.click();
  await expect(page.getByTestId('record-network')).toHaveText('BNB Smart Chain (BEP20)');

  // --- (c) Withdraw: a TRON address is refused at once for the chosen network, the button stays off ---
  await page.goto('/assets/withdrawCoin?coin=USDT');
  await expect(page.getByTestId('withdraw-available')).toHaveText('1,000.00 USDT');
  sheet = await openChooser(page, /^Network: Ethereum \(ERC20\)/);
  await expect(sheet.getByRole('radio', { name: /Arbitrum One/ })).toContainText('Fee 0.20 USDT');
  await expect(sheet.getByRole('radio', { name: /Arbitrum One/ })).toContainText('Min. withdrawal 2.00 USDT');
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-withdraw-en.png') });
  await sheet.getByRole('radio', { name: /Arbitrum One/ }).click();
  await expect(page.getByPlaceholder('Paste an Arbitrum One address')).toBeVisible();
  await page.getByLabel('Withdrawal address', { exact: true }).fill(TRON);
  await page.getByLabel('Amount', { exact: true }).fill('25');
  const wrongNetwork = page.getByRole('alert').filter({ hasText: 'This is not' });
  await expect(wrongNetwork).toHaveText('This is not an Arbitrum One address: it looks like a TRON address. Choose the network the address belongs to.');
  const submit = page.getByRole('button', { name: 'Withdraw', exact: true });
  await expect(submit).toBeDisabled();
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-wrong-network-en.png') });

  // --- (b) 25 USDT on Arbitrum One to an outside address: PIN and e-mail code ---
  const before = {
    ETH: await usdtOn('ETH', DEST),
    BSC: await usdtOn('BSC', DEST),
    ARBITRUM: await usdtOn('ARBITRUM', DEST),
    MATIC: await usdtOn('MATIC', DEST),
  };
  await page.getByLabel('Withdrawal address', { exact: true }).fill(DEST);
  await expect(wrongNetwork).toHaveCount(0);
  await expect(submit).toBeEnabled();
  await submit.click();
  const confirm = page.getByRole('dialog', { name: 'Withdrawal verification' });
  await expect(confirm.getByTestId('confirm-network')).toHaveText('Arbitrum One');
  await expect(confirm.getByText(/^24\.80 USDT$/)).toBeVisible();
  await confirm.getByLabel('Transaction password', { exact: true }).click();
  await typePin(page, PIN);
  await new Promise((r) => setTimeout(r, Math.max(0, pinCodeAt + CODE_GAP_MS - Date.now())));
  const codeAt = Date.now();
  await confirm.getByRole('button', { name: 'Send code' }).click();
  await expectToast(page, 'Code sent');
  await confirm.getByLabel('E-mail verification code', { exact: true }).fill(await outboxCode(request, email, codeAt, user));
  await confirm.getByRole('button', { name: 'Confirm withdrawal' }).click();
  await expect(page).toHaveURL(/\/assets\/withdrawCoinSuccess/);
  await expect(page.getByText('Withdrawal submitted')).toBeVisible();
  await expect(page.getByTestId('record-network')).toHaveText('Arbitrum One');

  // --- The operator approves it in the console ---
  const consoleContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await consoleContext.addInitScript((s) => sessionStorage.setItem('exchange-console-session', s), JSON.stringify(op));
  const consolePage = await consoleContext.newPage();
  await consolePage.goto('/admin/withdrawals');
  await consolePage
    .getByRole('row')
    .filter({ hasText: DEST.slice(0, 10) })
    .first()
    .click();
  await consolePage.getByRole('button', { name: 'Approve' }).click();
  await expect(consolePage.getByText('Approval recorded')).toBeVisible();
  await consoleContext.close();

  // --- The records show it completed on Arbitrum One, and the Arbitrum dev chain agrees; the other chains do not move ---
  await page.goto('/assets/capitalRecords?type=withdrawCoin');
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Completed').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 120_000, intervals: [2_000] });
  const withdrawalRow = page.getByRole('list', { name: 'Withdrawals' }).getByRole('button');
  await expect(withdrawalRow).toHaveCount(1); // the TRON address made no withdrawal
  await expect(withdrawalRow).toContainText('ARBITRUM');
  await withdrawalRow.click();
  await expect(page.getByTestId('record-network')).toHaveText('Arbitrum One');
  await expect(page.getByText('24.80 USDT', { exact: true })).toBeVisible();
  expect(await usdtOn('ARBITRUM', DEST)).toBe(before.ARBITRUM + 24_800_000n);
  expect(await usdtOn('ETH', DEST)).toBe(before.ETH);
  expect(await usdtOn('BSC', DEST)).toBe(before.BSC);
  expect(await usdtOn('MATIC', DEST)).toBe(before.MATIC);
  const records = (await (await request.get('/api/asset/wallet/getRecords?type=withdrawCoin', { headers: user })).json()) as {
    result: { withdrawals: { chain: string; address: string }[] };
  };
  expect(records.result.withdrawals.map((w) => [w.chain, w.address.toLowerCase()])).toEqual([['ARBITRUM', DEST]]);

  // --- The choosers in zh, night ---
  await lookOf(page, 'zh', 'night');
  await page.goto('/assets/coinCharging?coin=USDT&chain=BSC');
  await expect(page.getByTestId('deposit-address')).toHaveText(address);
  sheet = await openChooser(page, /^网络：BNB Smart Chain \(BEP20\)/);
  await expect(sheet.getByRole('radio', { name: /BNB Smart Chain/ })).toHaveAttribute('aria-checked', 'true');
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-deposit-zh-night.png') });
  await page.goto('/assets/withdrawCoin?coin=USDT&chain=ARBITRUM');
  await expect(page.getByTestId('withdraw-available')).toBeVisible();
  sheet = await openChooser(page, /^网络：Arbitrum One/);
  await expect(sheet.getByRole('radio', { name: /Arbitrum One/ })).toContainText('手续费 0.20 USDT');
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SHOTS, 'usdt-networks-withdraw-zh-night.png') });
  await page.context().close();
});
