/**
 * Journey 7: the operator console at 1280x800. A new user (registered through the API) submits
 * basic verification; the demo operator (documented credentials, domains/admin/demo-operator.ts) logs into /admin/ with
 * the TOTP code computed here (otplib, as an authenticator app would), finds the user by e-mail and opens the detail,
 * opens the KYC queue, rejects the application with a reason in zh and en (the user reads it through getKyc in both
 * languages, and on /realname in the app), approves the resubmission (the user is verified), then reviews the advanced application with its three
 * images, finds the decisions in the audit log, and logs out. The KYC queue and the review drawer are saved as
 * docs/screenshots/console-kyc-queue.png and console-kyc-review.png. The console runs in English (the browser's
 * language).
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { freshEmail, mainlandId, openConsoleUser, operatorLogin, registerByApi } from './support';

const PASSWORD = 'Journey7pass';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const REASON_ZH = '证件照片模糊，请重新提交';
const REASON_EN = 'The document photo is blurred, please submit again';

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1, locale: 'en-US' });

/** The envelope's result, failing the test on FAILED. */
async function ok<T>(res: { json(): Promise<unknown> }, what: string): Promise<T> {
  const body = (await res.json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${what}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}

/** A `side` x `side` PNG of one colour (a real image the server decodes and re-encodes). */
function png(side: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
    return Buffer.concat([len, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + side * 3);
  for (let x = 0; x < side; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: side }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The user's basic verification as the app reads it, in `lang`. */
async function basicKyc(request: APIRequestContext, user: { token: string; userId: string }, lang: 'zh' | 'en') {
  return (await ok<{ basic: { state: string; rejectReason: string } }>(await request.get('/api/member/kyc/getKyc', { headers: { ...user, lang } }), 'getKyc'))
    .basic;
}

/** Closes the review drawer with its close button and waits until it is gone. */
async function closeDrawer(page: Page): Promise<void> {
  // antd's toast sits over the drawer's close button and stays while the pointer hovers it: wait until it has gone,
  // with the pointer elsewhere.
  await page.mouse.move(640, 700);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.locator('.ant-drawer-close').click();
  await expect(page.locator('.ant-drawer-content')).toBeHidden();
}

test('console: operator logs in with TOTP, finds a user, reviews KYC (reject with reason, approve, images), audit log', async ({ page, request }) => {
  test.setTimeout(240_000);
  const email = freshEmail('j7');
  const user = await registerByApi(request, email, PASSWORD);
  const idNumber = mainlandId('19900307', Date.now() % 1000);
  const submitBasic = async () =>
    ok(await request.post('/api/member/kyc/submitBasic', { headers: user, form: { realName: '王小明', idType: 'ID_CARD', idNumber } }), 'submitBasic');
  await submitBasic();

  await operatorLogin(page);

  // Users: found by e-mail; the detail shows the profile and the other tabs.
  await openConsoleUser(page, email);
  await page.getByRole('tab', { name: 'Balances' }).click();
  await page.getByRole('tab', { name: 'KYC' }).click();
  await expect(page.getByRole('tabpanel').getByText('Pending')).toBeVisible();

  // KYC queue: pending first; reject with a reason in both languages.
  await page.getByRole('menuitem', { name: 'KYC queue' }).click();
  // The queue's rows of this user (its second column is the user id), by level.
  const userCell = page.locator('td:nth-child(2)', { hasText: new RegExp(`^${user.userId}$`) });
  const pendingRow = page.getByRole('row').filter({ has: userCell }).filter({ hasText: 'Basic' }).filter({ hasText: 'Pending' });
  await expect(pendingRow).toBeVisible();
  await pendingRow.getByRole('button', { name: 'Review' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByText(idNumber.slice(0, 6), { exact: false }).first()).toBeVisible();
  await drawer.getByLabel('Reason (Chinese)').fill(REASON_ZH);
  await drawer.getByLabel('Reason (English)').fill(REASON_EN);
  await drawer.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Application rejected')).toBeVisible();
  await expect(drawer.getByText('Rejected', { exact: true })).toBeVisible();
  await closeDrawer(page);
  expect(await basicKyc(request, user, 'en')).toMatchObject({ state: 'REJECTED', rejectReason: REASON_EN });
  expect(await basicKyc(request, user, 'zh')).toMatchObject({ state: 'REJECTED', rejectReason: REASON_ZH });
  // ... and sees it in the app: /realname on a phone (390x844, Chinese), with the way to submit again.
  const phone = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN', baseURL: new URL(page.url()).origin });
  const app = await phone.newPage();
  await app.addInitScript((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('userId', s.userId);
    localStorage.setItem('isLogin', 'true');
  }, user);
  await app.goto('/realname');
  await expect(app.getByText(`原因：${REASON_ZH}`)).toBeVisible();
  await phone.close();

  // The user submits again; the operator approves.
  await submitBasic();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(pendingRow).toBeVisible();
  await pendingRow.getByRole('button', { name: 'Review' }).click();
  await drawer.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Application approved')).toBeVisible();
  await closeDrawer(page);
  expect((await basicKyc(request, user, 'en')).state).toBe('PASS');

  // Advanced verification with three real images: the operator sees them in the drawer.
  const upload = async (purpose: string, rgb: [number, number, number]) =>
    (
      await ok<{ imageId: string }>(
        await request.post('/api/member/upload/image', {
          headers: user,
          multipart: { purpose, file: { name: `${purpose}.png`, mimeType: 'image/png', buffer: png(360, rgb) } },
        }),
        `upload ${purpose}`,
      )
    ).imageId;
  const images = {
    frontImageId: await upload('ID_FRONT', [200, 60, 60]),
    backImageId: await upload('ID_BACK', [60, 160, 60]),
    handheldImageId: await upload('ID_HANDHELD', [60, 60, 200]),
  };
  await ok(await request.post('/api/member/kyc/submitAdvanced', { headers: user, form: images }), 'submitAdvanced');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const advancedRow = page.getByRole('row').filter({ has: userCell }).filter({ hasText: 'Advanced' });
  await expect(advancedRow).toBeVisible();
  // Every state: the rejected and approved basic applications beside the pending advanced one (the screenshot).
  await page
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox', { name: 'State' }) })
    .click();
  await page.locator('.ant-select-item-option[title="All"]').click();
  await expect(page.getByRole('row').filter({ has: userCell })).toHaveCount(3);
  await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SHOTS, 'console-kyc-queue.png') });
  await advancedRow.getByRole('button', { name: 'Review' }).click();
  await expect(drawer.locator('img.ant-image-img')).toHaveCount(3);
  for (const img of await drawer.locator('img.ant-image-img').all())
    await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(SHOTS, 'console-kyc-review.png') });
  await closeDrawer(page);

  // The audit log holds the decisions (before and after) and the image views.
  await page.getByRole('menuitem', { name: 'Audit log' }).click();
  await page.getByLabel('User id').fill(user.userId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'kyc_reject' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'kyc_approve' })).toBeVisible();

  // Logout ends the session: the console shows the login page again.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/kyc');
  await expect(page).toHaveURL(/\/admin\/login$/);
});
