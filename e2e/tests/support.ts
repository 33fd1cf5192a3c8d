/**
 * Shared helpers of the Playwright journeys: a toast recorder (antd-mobile toasts live 1000 ms, too short
 * to poll for reliably on a slow machine), the demo outbox, the slide puzzle, number parsing and the
 * persisted localStorage fields of spec section 3.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { generateSync } from 'otplib';

declare global {
  interface Window {
    /** Texts of every toast shown since the page loaded (filled by the recorder of `recordToasts`). */
    __toasts?: string[];
  }
}

/**
 * Least time between two verification codes to one account on the journeys' server: playwright.config.ts starts it
 * with CODE_RESEND_MS=3000 (production keeps 60 s), plus half a second of margin. An external server (E2E_BASE_URL)
 * needs the same setting.
 */
export const CODE_GAP_MS = 3_500;

/**
 * Installs (before any page script runs, on every navigation) a MutationObserver that records the text
 * of each antd-mobile toast (the app) and antd message (the console) into `window.__toasts`, so a journey can assert
 * on one that has already disappeared (a message lives 3 s; a loaded machine can starve the page that long). Call
 * once per page before the first `goto`.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__toasts = [];
    const seen = new WeakSet<Element>();
    const scan = () => {
      for (const el of Array.from(document.querySelectorAll('.adm-toast-main, .ant-message-notice-content'))) {
        const text = (el.textContent ?? '').trim();
        if (!text || seen.has(el)) continue;
        seen.add(el);
        window.__toasts!.push(text);
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** All toast texts recorded so far on `page` (see `recordToasts`). */
export async function toasts(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__toasts ?? []);
}

/**
 * Waits until a toast with exactly `text` has been shown (since the last page load). The default wait is the app's own
 * request timeout (60 s, apps/web shared/api-client): a toast that follows a request may come as late as the app
 * would wait for its answer (on CI the journeys share two cores with the PostgreSQL and scale-out suites). When it does
 * not come, the error says where the page is and what it shows (a dialog, an error under a field) instead of only
 * the empty list of toasts.
 */
export async function expectToast(page: Page, text: string, timeout = 60_000): Promise<void> {
  try {
    await expect.poll(() => toasts(page), { timeout, message: `toast "${text}"` }).toContain(text);
  } catch (err) {
    const shown = await page
      .evaluate(() => (document.body?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 600))
      .catch((e: unknown) => `(page unreadable: ${String(e)})`);
    const seen = await toasts(page).catch(() => []);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\npage ${page.url()} shows: ${shown}\ntoasts: ${JSON.stringify(seen)}`);
  }
}

/**
 * Newest verification code the demo sender "sent" to `account` (GET /api/demo/outbox, newest first),
 * waiting until one newer than `after` (ms since epoch) arrives. Codes to an address a user owns are shown only to
 * that user: pass its session `headers` (token, userId) then.
 */
export async function outboxCode(request: APIRequestContext, account: string, after: number, headers: Record<string, string> = {}): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/demo/outbox?account=${encodeURIComponent(account)}`, { headers });
        const body = (await res.json()) as { status: string; result: { code: string; createdAt: number }[] };
        const hit = body.status === 'SUCCEED' ? body.result.find((m) => m.createdAt >= after - 1000) : undefined;
        code = hit?.code ?? '';
        return code;
      },
      { timeout: 20_000, message: `verification code for ${account} in the demo outbox` },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** The envelope's result of a POST (form-encoded, as the app sends), failing the test on FAILED. */
export async function apiPost<T>(request: APIRequestContext, url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<T> {
  const res = await request.post(`/api/${url}`, { form, headers });
  const body = (await res.json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${url}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}

/** A slide-puzzle pass through the API (the journeys' server runs with CAPTCHA_TEST_MODE: any answer passes). */
export async function puzzlePass(request: APIRequestContext): Promise<Record<string, string>> {
  const randomCode = `pz${Date.now()}${Math.floor(performance.now())}`;
  const ch = await apiPost<{ challenge: string }>(request, `data/sms/geetestCode?randomCode=${randomCode}&clientType=h5`, {});
  return apiPost<Record<string, string>>(request, 'data/sms/geetestVerify', { challenge: ch.challenge, x: '100', y: '20', randomCode });
}

/** Registers `email` with `password` through the API (REGISTER code from the demo outbox); its session headers. */
export async function registerByApi(request: APIRequestContext, email: string, password: string): Promise<{ token: string; userId: string }> {
  const after = Date.now();
  await apiPost(request, 'data/sms/sendCode', { account: email, type: 'REGISTER', ...(await puzzlePass(request)) });
  const code = await outboxCode(request, email, after);
  const s = await apiPost<{ token: string; userId: string }>(request, 'member/member/register', {
    registerType: 'EMAIL',
    mail: email,
    code,
    password,
    confirmPassword: password,
    agreement: 'true',
  });
  return { token: s.token, userId: s.userId };
}

/**
 * A valid 18-character mainland ID number for birth date `yyyymmdd` and sequence `seq` (0-999), with its ISO 7064
 * MOD 11-2 check character. A number verified once cannot be verified by another user: each run takes its own.
 */
export function mainlandId(yyyymmdd: string, seq: number): string {
  const body = `110101${yyyymmdd}${String(seq % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(body[i]) * w[i]!;
  return body + '10X98765432'[sum % 11]!;
}

/** Types `digits` on the app's on-screen number keyboard (transaction password). */
export async function typePin(page: Page, digits: string): Promise<void> {
  const keys = page.locator('.adm-number-keyboard-main');
  await expect(keys).toBeVisible();
  for (const d of digits) await keys.getByRole('button', { name: d, exact: true }).click();
}

/** The demo operator printed at `npm start` (domains/admin/demo-operator.ts). */
export const DEMO_OPERATOR = { email: 'operator@exchange.local', password: 'DemoOperator-2026', totpSecret: 'DEMOOPERATORTOTPKEYEXCHANGE23456' };

/**
 * Solves the slide puzzle in the UI: waits for the puzzle dialog to load its image, drags the slider
 * handle with the pointer (CAPTCHA_TEST_MODE on the server accepts any offset) and waits for the
 * dialog to close after the pass.
 */
export async function solvePuzzle(page: Page, title: string, sliderName: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  const slider = dialog.getByRole('slider', { name: sliderName });
  // aria-valuemax is the puzzle width once the challenge has loaded.
  await expect(slider).not.toHaveAttribute('aria-valuemax', '0', { timeout: 30_000 });
  // The popup opens with an animation: hover() waits until the handle is stable and hit-testable before
  // the pointer goes down on it; a drag that did not catch the handle is tried again.
  for (let attempt = 1; ; attempt++) {
    await slider.hover();
    const box = await slider.boundingBox();
    if (!box) throw new Error('puzzle slider has no box');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let dx = 10; dx <= 150; dx += 10) await page.mouse.move(x + dx, y);
    const moved = await expect(slider)
      .not.toHaveAttribute('aria-valuenow', '0', { timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    await page.mouse.up();
    if (moved) break;
    if (attempt === 3) throw new Error('the puzzle slider did not follow the pointer');
  }
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** Parses a displayed number ("98,391.24", "+1.47%", "≈¥699,173.35", "0.00100 BTC") into a JS number (assertion use only). */
export function num(text: string | null | undefined): number {
  const m = (text ?? '').replace(/,/g, '').match(/[-+]?\d+(\.\d+)?/);
  if (!m) throw new Error(`no number in "${text}"`);
  return Number(m[0]);
}

/** Groups the integer part of a plain decimal string with commas ("98391.24" -> "98,391.24"). */
export function grouped(plain: string): string {
  const [i = '', f] = plain.split('.');
  const neg = i.startsWith('-');
  const digits = neg ? i.slice(1) : i;
  const g = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${g}${f !== undefined ? `.${f}` : ''}`;
}

/** The persisted fields of spec section 3 (and the colour convention) as stored in localStorage. */
export async function persisted(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(() => {
    const keys = ['token', 'userId', 'isLogin', 'phone', 'pairsName', 'pairsName1', 'theme', 'currentLangue', 'upDownColor'];
    return Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)]));
  });
}

/** A pair as answered by data/data/getIndexCoin (the fields the journeys compare). */
export interface ApiPair {
  pairsName: string;
  price: string;
  priceDecimals: number;
  updown: string;
}

/** GET /api/data/data/getIndexCoin?getCoinType=... -> the pairs. */
export async function indexCoin(request: APIRequestContext, type: 'TOP' | 'UPDOWN' | 'VOLUME' | 'PROJECT'): Promise<ApiPair[]> {
  const res = await request.get(`/api/data/data/getIndexCoin?getCoinType=${type}`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { status: string; result: ApiPair[] };
  expect(body.status).toBe('SUCCEED');
  return body.result;
}

/** A spot pair as answered by data/data/getPairsByMainCur (the trading rules the journeys need). */
export interface ApiSpotPair {
  pairsName: string;
  price: string;
  minNotional: string;
  stepSize: string;
}

/** GET /api/data/data/getPairsByMainCur?mainCur=USDT&type=SPOT -> the USDT spot pairs with their rules. */
export async function pairsOf(request: APIRequestContext, mainCur = 'USDT'): Promise<ApiSpotPair[]> {
  const res = await request.get(`/api/data/data/getPairsByMainCur?mainCur=${mainCur}&type=SPOT`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { status: string; result: ApiSpotPair[] };
  expect(body.status).toBe('SUCCEED');
  return body.result;
}

/** A unique e-mail address for a fresh account. */
export function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}@e2e.test`;
}

/**
 * Logs the demo operator in through the console API with the current TOTP code and returns the session (as the
 * console keeps it in sessionStorage). A code is accepted once across the whole run: when an earlier journey used
 * this 30 s step's code, the login waits for the next step and tries again.
 */
export async function operatorApiLogin(request: APIRequestContext): Promise<{ token: string; expiresAt: number; operator: unknown }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await request.post('/api/admin/auth/login', {
      data: { email: DEMO_OPERATOR.email, password: DEMO_OPERATOR.password, totp: generateSync({ secret: DEMO_OPERATOR.totpSecret }) },
    });
    const body = (await res.json()) as { status: string; errorCode: string; result: { token: string; expiresAt: number; operator: unknown } };
    if (body.status === 'SUCCEED') return body.result;
    await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 500));
  }
  throw new Error('the demo operator could not log in through the console API');
}

/**
 * Logs the demo operator into the console (/admin/) with a fresh TOTP code; a code is accepted once, so on a refusal
 * it waits for the next 30 s step's code. Journeys 7 and 13b.
 */
export async function operatorLogin(page: Page): Promise<void> {
  await page.goto('/admin/');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('E-mail').fill(DEMO_OPERATOR.email);
  await page.getByLabel('Password').fill(DEMO_OPERATOR.password);
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.getByLabel('Authenticator code').fill(generateSync({ secret: DEMO_OPERATOR.totpSecret }));
    await page.getByRole('button', { name: 'Log in' }).click();
    const done = await page
      .getByRole('menuitem', { name: 'Users' })
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (done) return;
    await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500);
  }
  throw new Error('the operator could not log in');
}

/** In the console (logged in), finds the user by e-mail on the Users page and opens their detail page. */
export async function openConsoleUser(page: Page, email: string): Promise<void> {
  await page.getByPlaceholder('UID, e-mail or phone').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  const userRow = page.getByRole('row').filter({ hasText: email });
  await expect(userRow).toBeVisible();
  await userRow.getByRole('link', { name: 'Open' }).click();
  await expect(page.getByText(email).first()).toBeVisible();
}

/**
 * A new user made through the APIs, verified (basic verification submitted, then approved by the demo operator through
 * the console API) and with transaction password `pin` (set with an e-mail code): what a withdrawal needs. Answers the
 * user's headers, the operator's console session and when the PIN's code was sent (the next code to the account waits
 * CODE_GAP_MS after it).
 */
export async function verifiedUserWithPin(
  request: APIRequestContext,
  email: string,
  password: string,
  pin: string,
  person: { realName: string; born: string },
): Promise<{ user: { token: string; userId: string }; op: Awaited<ReturnType<typeof operatorApiLogin>>; lastCodeAt: number }> {
  const user = await registerByApi(request, email, password);
  const registeredAt = Date.now();
  await apiPost(
    request,
    'member/kyc/submitBasic',
    { country: 'CN', realName: person.realName, idType: 'ID_CARD', idNumber: mainlandId(person.born, Date.now() % 1000) },
    user,
  );
  const op = await operatorApiLogin(request);
  const admin = { 'x-admin-token': op.token };
  const queue = (await (await request.get('/api/admin/kyc/list?state=PENDING&page=1&pageSize=100', { headers: admin })).json()) as {
    result: { rows: { id: string; userId: string }[] };
  };
  const application = queue.result.rows.find((r) => r.userId === user.userId);
  expect(application, 'the application in the console queue').toBeTruthy();
  await apiPost(request, 'admin/kyc/approve', { id: application!.id }, admin);
  await new Promise((r) => setTimeout(r, Math.max(0, registeredAt + CODE_GAP_MS - Date.now())));
  const lastCodeAt = Date.now();
  await apiPost(request, 'data/sms/sendCode', { type: 'VERIFY', ...(await puzzlePass(request)) }, user);
  const pinCode = await outboxCode(request, email, lastCodeAt, user);
  await apiPost(request, 'member/security/setTransPassword', { transPassword: pin, confirmTransPassword: pin, verifyCode: pinCode }, user);
  return { user, op, lastCodeAt };
}
