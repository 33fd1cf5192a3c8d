/**
 * Journey 8: a new user (registered through the API) finds the payment methods closed without a
 * real name and is led to /realname; in the account centre sets the transaction password (a VERIFY code from the demo
 * outbox, then the 6-digit PIN twice on the number keyboard), binds Google authenticator (the key read from the page,
 * the code computed here with otplib, as an authenticator app would), logs out and back in with the second step
 * asking for the Google code, binds a phone number (code to the new number, Google code as the second proof) and logs
 * in with it, changes the login password and sees the 24 h withdrawal lock with its end time; then
 * submits basic verification and sees it under review. Screenshots of the account centre and basic verification go
 * to docs/screenshots/ (390x844).
 * A second journey: a user whose basic verification an operator approved (console API, demo operator) uploads the
 * three photos of advanced verification (real PNGs drawn in the browser, compressed before upload) and sees it under
 * review, then adds a bank card and an Alipay method with its QR image, each saved with the transaction password on
 * the number keyboard, and switches one off. A third: a user registered with a phone number binds an e-mail address
 * (bindSecond: a code to the new address, a code to the phone) and logs in with it. Texts are the zh locale strings.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { apiPost, CODE_GAP_MS, expectToast, freshEmail, mainlandId, outboxCode, puzzlePass, recordToasts, solvePuzzle, typePin } from './support';

const PASSWORD = 'Journey8pass';
const NEW_PASSWORD = 'Journey8next';
const PIN = '250816';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
/** When the last code went to the journey's account: the server sends one per CODE_GAP_MS per account (code_too_frequent). */
let lastSentAt = 0;

/** The session headers of the logged-in page (for the owner-only outbox). */
async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => ({ token: localStorage.getItem('token') ?? '', userId: localStorage.getItem('userId') ?? '' }));
}

/**
 * Waits, when needed, for a fresh per-IP request budget (the server's global RATE_LIMIT_PER_MIN counts every request,
 * static chunks included): a journey that ran just before on the same loopback IP can leave too little of the minute's
 * budget for these pages, whose chunks would then answer 429 ("failed to load the page").
 */
async function freshBudget(request: APIRequestContext, need = 300): Promise<void> {
  const res = await request.get('/api/demo/info');
  const remaining = Number(res.headers()['x-ratelimit-remaining'] ?? need);
  const resetS = Number(res.headers()['x-ratelimit-reset'] ?? 0);
  if (remaining < need && resetS > 0) await new Promise((r) => setTimeout(r, (resetS + 1) * 1000));
}

/** Registers `email` through the API (code from the outbox). */
async function register(request: APIRequestContext, email: string): Promise<void> {
  const after = Date.now();
  await apiPost(request, 'data/sms/sendCode', { account: email, type: 'REGISTER', ...(await puzzlePass(request)) });
  lastSentAt = Date.now();
  const code = await outboxCode(request, email, after);
  await apiPost(request, 'member/member/register', {
    registerType: 'EMAIL',
    mail: email,
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    agreement: 'true',
  });
}

/** Clicks "获取验证码" of the VERIFY code field (no puzzle: the code goes to the user's own address), reads the code and fills it in. */
async function fillVerifyCode(page: Page, request: APIRequestContext, email: string): Promise<void> {
  const wait = lastSentAt + CODE_GAP_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  const after = Date.now();
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expectToast(page, '验证码已发送');
  await expect(page.getByRole('dialog', { name: '安全验证' })).toHaveCount(0);
  lastSentAt = Date.now();
  const code = await outboxCode(request, email, after, await sessionHeaders(page));
  await page.getByLabel('验证码', { exact: true }).fill(code);
}

/** The row of the account centre (or personal centre) whose title is `title`. */
function row(page: Page, title: string) {
  return page.locator('.adm-list-item').filter({ has: page.locator('.adm-list-item-content-main', { hasText: new RegExp(`^${title}`) }) });
}

/** The last TOTP step used in this run, per secret (the server refuses a step not after the last one it accepted). */
const lastSteps = new Map<string, number>();
/**
 * A TOTP code of `secret` from a 30 s step after every step used before in this run (the server refuses a replayed or
 * older step). The server accepts one step either side of its clock (drift), so the code of the previous step (when
 * 8 s or more of the current step are left) or of the next step is used before waiting for the clock: five codes take
 * about two steps instead of five. The codes are the authenticator's codes at those times (otplib, as an app).
 */
async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const nowS = Date.now() / 1000;
    const current = Math.floor(nowS / 30);
    const last = lastSteps.get(secret) ?? -1;
    const earliest = 30 - (nowS % 30) >= 8 ? current - 1 : current;
    const step = Math.max(earliest, last + 1);
    if (step <= current + 1) {
      lastSteps.set(secret, step);
      return generateSync({ secret, epoch: step * 30 });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

test('account centre: transaction password, Google 2FA login, password change lock; basic verification; payment needs a real name', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  await recordToasts(page);
  const email = freshEmail('j8');
  await freshBudget(request);
  await register(request, email);

  // --- Log in ---
  await page.goto('/login');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expectToast(page, '登录成功');

  // --- Payment methods without a real name: a prompt leading to /realname ---
  await page.goto('/payment');
  await expect(page.getByText('收款方式需要先完成实名认证')).toBeVisible();
  await page.getByRole('button', { name: '去认证' }).click();
  await expect(page).toHaveURL(/\/realname$/);

  // --- Account centre: nothing set yet ---
  await page.goto('/accountCenter');
  await expect(page.getByRole('heading', { name: '账户中心' })).toBeVisible();
  await expect(page.getByText(email.slice(0, 3), { exact: false }).first()).toBeVisible();

  // --- Set the transaction password: the row offers "去设置" (set up), then VERIFY code, then the PIN twice ---
  await expect(row(page, '交易密码').getByText('去设置')).toBeVisible();
  await row(page, '交易密码').click();
  await expect(page).toHaveURL(/\/accountCenter\/postPasswordSet$/);
  await fillVerifyCode(page, request, email);
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page.getByText('新交易密码')).toBeVisible();
  await typePin(page, PIN);
  await expect(page.getByText('再次输入')).toBeVisible();
  await typePin(page, PIN);
  await expect(page.getByText('交易密码设置成功')).toBeVisible();

  // --- Bind Google authenticator: key from the page, code computed here ---
  await page.goto('/accountCenter');
  await row(page, '谷歌验证器').click();
  await expect(page).toHaveURL(/\/accountCenter\/googleAuthenticator$/);
  await expect(page.getByRole('img', { name: '验证器密钥二维码' })).toBeVisible();
  const secret = (await page.getByTestId('google-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByRole('button', { name: '下一步' }).click();
  await fillVerifyCode(page, request, email);
  await page.getByLabel('谷歌验证码', { exact: true }).fill(await freshTotp(secret));
  await page.getByRole('button', { name: '绑定', exact: true }).click();
  await expectToast(page, '谷歌验证器绑定成功');
  await expect(page).toHaveURL(/\/accountCenter$/);
  await expect(row(page, '谷歌验证器').getByText('已绑定')).toBeVisible();
  // Once set, the row offers "修改" (change) instead.
  await expect(row(page, '交易密码').getByText('修改')).toBeVisible();
  await expect(row(page, '交易密码').getByText('去设置')).toHaveCount(0);

  // --- Log out and in again: the second step asks for the Google code ---
  await page.goto('/setting');
  await page.getByRole('button', { name: '退出登录' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByLabel('谷歌验证码', { exact: true })).toBeVisible();
  await page.getByLabel('谷歌验证码', { exact: true }).fill(await freshTotp(secret));
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expectToast(page, '登录成功');

  // --- Bind a phone (bindSecond: the e-mail user adds the missing address): a BIND code sent to the new number (puzzle
  // first), and, Google being bound, the Google code as the second proof ---
  const phone = `139${String(Date.now()).slice(-8)}`;
  await page.goto('/accountCenter');
  await row(page, '手机').click();
  await expect(page).toHaveURL(/\/accountCenter\/bind/);
  await page.getByLabel('手机', { exact: true }).fill(phone);
  const bindAfter = Date.now();
  await page.getByRole('button', { name: '获取验证码' }).click();
  await solvePuzzle(page, '安全验证', '拖动滑块完成拼图');
  await expectToast(page, '验证码已发送');
  await page.getByLabel('新账号收到的验证码', { exact: true }).fill(await outboxCode(request, phone, bindAfter, await sessionHeaders(page)));
  await page.getByLabel('谷歌验证码', { exact: true }).fill(await freshTotp(secret));
  await page.getByRole('button', { name: '去绑定', exact: true }).click();
  await expectToast(page, '绑定成功');
  await expect(page).toHaveURL(/\/accountCenter$/);
  // The side menu's mask: the first 3 and last 4 digits (spec section 9).
  await expect(row(page, '手机')).toContainText(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  // The bound number is now the user's: a log-in with it and the password works (checked through the API).
  const byPhone = await request.post('/api/member/member/login', {
    form: { account: phone, areaCode: '86', password: PASSWORD, googleCode: await freshTotp(secret) },
  });
  expect(((await byPhone.json()) as { status: string; errorCode: string }).status).toBe('SUCCEED');

  // --- Change the login password: the 24 h withdrawal lock and its end time are shown ---
  await page.goto('/accountCenter/change');
  await page.getByLabel('当前密码', { exact: true }).fill(PASSWORD);
  await page.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('确认新密码', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('谷歌验证码', { exact: true }).fill(await freshTotp(secret));
  const changedAt = Date.now();
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText('密码已修改')).toBeVisible();
  const lock = page.getByRole('status').filter({ hasText: '提币已锁定至' });
  await expect(lock).toBeVisible();
  await expect(lock).toContainText('您修改了登录密码');
  // The end time shown is 24 h after the change (to the minute, local time as the page formats it).
  const until = new Date(changedAt + 24 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  await expect(lock).toContainText(`${until.getFullYear()}-${p(until.getMonth() + 1)}-${p(until.getDate())}`);
  await page.goto('/accountCenter');
  await expect(page.getByRole('status').filter({ hasText: '提币已锁定至' })).toBeVisible();
  await expect(row(page, '谷歌验证器').getByText('已绑定')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'account-centre.png') });
  // The same screen in English and the night theme (the persisted fields of spec section 3).
  await page.evaluate(() => {
    localStorage.setItem('currentLangue', 'en');
    localStorage.setItem('theme', 'night');
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account centre' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'night');
  await expect(page.getByRole('status').filter({ hasText: 'Withdrawals are locked until' })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'account-centre-en-night.png') });
  await page.evaluate(() => {
    localStorage.setItem('currentLangue', 'zh');
    localStorage.setItem('theme', 'default');
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: '账户中心' })).toBeVisible();

  // --- Basic verification: submitted, under review ---
  await page.goto('/realname');
  await page.getByLabel('真实姓名', { exact: true }).fill('张三');
  await page.getByLabel('证件号码', { exact: true }).fill(mainlandId('19900101', 123));
  await page.screenshot({ path: path.join(SHOTS, 'realname.png') });
  await page.getByRole('button', { name: '提交' }).click();
  await expect(page.getByText('审核中', { exact: true })).toBeVisible();
  await page.goto('/personalCenter');
  await expect(row(page, '初级认证').getByText('审核中')).toBeVisible();
});

/** The demo operator of `--demo` (apps/server: printed at start). */
const OPERATOR = { email: 'operator@exchange.local', password: 'DemoOperator-2026', totpKey: 'DEMOOPERATORTOTPKEYEXCHANGE23456' };

/** A PNG of `w` x `h` noisy pixels drawn by the page (so that it is a real, decodable image above 300x300). */
async function pngOf(page: Page, w: number, h: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const ctx = c.getContext('2d')!;
      for (let i = 0; i < 400; i++) {
        ctx.fillStyle = `hsl(${(i * 37) % 360} 70% 50%)`;
        ctx.fillRect((i * 53) % w, (i * 97) % h, 40, 40);
      }
      return c.toDataURL('image/png');
    },
    [w, h] as const,
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test('verified user: advanced verification photos, a bank card and an Alipay QR saved with the transaction password', async ({ page, request }) => {
  test.setTimeout(240_000);
  await recordToasts(page);
  const email = freshEmail('j8v');
  await freshBudget(request);
  await register(request, email);
  await page.goto('/login');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expectToast(page, '登录成功');
  const headers = await sessionHeaders(page);

  // Basic verification through the API, approved by the demo operator through the console API.
  await apiPost(
    request,
    'member/kyc/submitBasic',
    { country: 'CN', realName: '李四', idType: 'ID_CARD', idNumber: mainlandId('19900101', Date.now() % 900) },
    headers,
  );
  const op = await apiPost<{ token: string }>(request, 'admin/auth/login', {
    email: OPERATOR.email,
    password: OPERATOR.password,
    totp: await freshTotp(OPERATOR.totpKey),
  });
  const admin = { 'x-admin-token': op.token };
  const queue = await request.get('/api/admin/kyc/list?state=PENDING&page=1&pageSize=100', { headers: admin });
  const rows = ((await queue.json()) as { result: { rows: { id: string; userId: string }[] } }).result.rows;
  const mine = rows.find((r) => r.userId === headers.userId);
  expect(mine, 'the application in the console queue').toBeTruthy();
  await apiPost(request, 'admin/kyc/approve', { id: mine!.id }, admin);

  // --- Advanced verification: three photos, each compressed and uploaded with progress ---
  await page.goto('/realname1');
  await expect(page.getByRole('heading', { name: '高级认证' })).toBeVisible();
  for (const label of ['证件正面', '证件反面', '手持证件照']) {
    await page.getByLabel(label, { exact: true }).setInputFiles({ name: `${label}.png`, mimeType: 'image/png', buffer: await pngOf(page, 900, 600) });
    await expect(page.locator('.kyc-slot').filter({ hasText: label }).getByLabel('已上传')).toBeVisible();
  }
  // A file that is not an image: the spec's "upload failed" toast with the reason, the slot stays empty.
  await page.getByLabel('证件正面', { exact: true }).setInputFiles({ name: 'note.png', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expectToast(page, '上传失败：文件不是图片');
  await page.getByLabel('证件正面', { exact: true }).setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await pngOf(page, 900, 600) });
  await expect(page.locator('.kyc-slot').filter({ hasText: '证件正面' }).getByLabel('已上传')).toBeVisible();
  await page.getByRole('button', { name: '提交' }).click();
  await expect(page.getByText('审核中', { exact: true })).toBeVisible();

  // --- Transaction password (through the UI's endpoint; the code limit allows one code a minute) ---
  await page.goto('/accountCenter/postPasswordSet');
  await fillVerifyCode(page, request, email);
  await page.getByRole('button', { name: '下一步' }).click();
  await typePin(page, PIN);
  await expect(page.getByText('再次输入')).toBeVisible();
  await typePin(page, PIN);
  await expect(page.getByText('交易密码设置成功')).toBeVisible();

  // --- Bank card: holder is the verified name; a Luhn typo is refused before the PIN ---
  await page.goto('/payment');
  await expect(page.getByText('暂无收款方式')).toBeVisible();
  await page.getByRole('button', { name: '添加收款方式' }).click();
  await page.getByText('银行卡', { exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/bankCard$/);
  await expect(page.getByLabel('姓名')).toHaveText('李四');
  await page.getByLabel('开户银行', { exact: true }).fill('中国银行');
  await page.getByLabel('开户支行', { exact: true }).fill('北京海淀支行');
  await page.getByLabel('银行卡号', { exact: true }).fill('4111111111111112');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('请检查银行卡号')).toBeVisible();
  await page.getByLabel('银行卡号', { exact: true }).fill('4111111111111111');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('dialog', { name: '交易密码' })).toBeVisible();
  await typePin(page, PIN);
  await expectToast(page, '保存成功');
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByText(/1111$/)).toBeVisible();

  // --- Alipay with its receiving QR ---
  await page.getByRole('button', { name: '添加收款方式' }).click();
  await page.getByText('支付宝', { exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/zhifubao$/);
  await page.getByLabel('支付宝账号', { exact: true }).fill('lisi@example.com');
  await page.getByLabel('收款二维码', { exact: true }).setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: await pngOf(page, 400, 400) });
  await expect(page.locator('.pay-qr').getByLabel('已上传')).toBeVisible();
  await page.getByRole('button', { name: '保存' }).click();
  await typePin(page, PIN);
  await expectToast(page, '保存成功');
  await expect(page.getByText('lisi@example.com')).toBeVisible();

  // --- Switch the Alipay method off ---
  const alipay = page.locator('.pay-card').filter({ hasText: 'lisi@example.com' });
  await alipay.getByRole('switch').click();
  await expect(alipay.getByText('已停用')).toBeVisible();
  await page.reload();
  await expect(page.locator('.pay-card').filter({ hasText: 'lisi@example.com' }).getByText('已停用')).toBeVisible();
});

test('phone user: binds an e-mail address (a code to the new address, a code to the phone) and logs in with it', async ({ page, request }) => {
  test.setTimeout(240_000);
  await recordToasts(page);
  await freshBudget(request);
  // Registered with a phone number through the API (REGISTER code from the demo outbox).
  const phone = `138${String(Date.now()).slice(-8)}`;
  const registerAfter = Date.now();
  await apiPost(request, 'data/sms/sendCode', { account: phone, areaCode: '86', type: 'REGISTER', ...(await puzzlePass(request)) });
  const phoneCodeAt = Date.now();
  const code = await outboxCode(request, phone, registerAfter);
  const session = await apiPost<{ token: string; userId: string }>(request, 'member/member/register', {
    registerType: 'PHONE',
    phone,
    areaCode: '86',
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    agreement: 'true',
  });
  await page.addInitScript((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('userId', s.userId);
    localStorage.setItem('isLogin', 'true');
  }, session);
  const headers = { token: session.token, userId: session.userId };

  // The account centre: the phone is bound, the e-mail row leads to bindSecond.
  await page.goto('/accountCenter');
  await expect(row(page, '手机').getByText('已绑定')).toBeVisible();
  await row(page, '邮箱').click();
  await expect(page).toHaveURL(/\/accountCenter\/bindSecond\?type=EMAIL$/);
  const email = freshEmail('j8b');
  await page.getByLabel('邮箱', { exact: true }).fill(email);
  // First "Send code": the BIND code to the new address.
  const bindAfter = Date.now();
  await page.getByRole('button', { name: '获取验证码' }).first().click();
  await solvePuzzle(page, '安全验证', '拖动滑块完成拼图');
  await expectToast(page, '验证码已发送');
  await page.getByLabel('新账号收到的验证码', { exact: true }).fill(await outboxCode(request, email, bindAfter, headers));
  // Then the VERIFY code to the phone (Google is not bound): codes to one account are CODE_GAP_MS apart, the REGISTER code came first.
  const wait = phoneCodeAt + CODE_GAP_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  const verifyAfter = Date.now();
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expectToast(page, '验证码已发送');
  await page.getByLabel('验证码', { exact: true }).fill(await outboxCode(request, phone, verifyAfter, headers));
  await page.getByRole('button', { name: '去绑定', exact: true }).click();
  await expectToast(page, '绑定成功');
  await expect(page).toHaveURL(/\/accountCenter$/);
  await expect(row(page, '邮箱').getByText('已绑定')).toBeVisible();
  await expect(row(page, '邮箱')).toContainText(email.slice(0, 3));

  // The e-mail is now this user's: a log-in with it and the password lands on the same user.
  const byMail = await apiPost<{ userId: string }>(request, 'member/member/login', { account: email, password: PASSWORD });
  expect(byMail.userId).toBe(session.userId);
});
