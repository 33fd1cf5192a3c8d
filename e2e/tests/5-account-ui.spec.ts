/**
 * Journey 5: the account screens at phone sizes.
 * - The slide-puzzle dialog's picture and slider lie inside its card (bounding boxes) at 390x844 and at 320x640,
 *   on /register (sending a code) and on /login after three failed attempts (the server then asks for the puzzle).
 * - /register says how much demo USDT a new account gets (the figure of GET /api/demo/info).
 * - Logged in, /login and /register leave for the redirect query or home without showing the form, and the
 *   welcome banner's sign-up link goes to the trade screen.
 * - /assets at 320 px: each of the five account tabs can be reached and chosen, and ends up fully on screen;
 *   "Hide small balances" is ticked and hides the zero balances.
 * - Starring a pair in the market list toasts as the detail page does.
 * Texts are the zh locale strings (the app's default language).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectToast, freshEmail, recordToasts } from './support';

const DEMO = { account: 'demo@exchange.local', password: 'Demo12345' };

/** The box of `l`, failing when it has none. */
async function box(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await l.boundingBox();
  if (!b) throw new Error(`no bounding box for ${l.toString()}`);
  return b;
}

/** Asserts that `inner` lies inside `outer` (half a pixel of tolerance for sub-pixel layout). */
async function expectInside(inner: Locator, outer: Locator, what: string): Promise<void> {
  const i = await box(inner);
  const o = await box(outer);
  const eps = 0.5;
  const at = `${what}: x ${i.x.toFixed(1)}-${(i.x + i.width).toFixed(1)} y ${i.y.toFixed(1)}-${(i.y + i.height).toFixed(1)} in card x ${o.x.toFixed(1)}-${(o.x + o.width).toFixed(1)} y ${o.y.toFixed(1)}-${(o.y + o.height).toFixed(1)}`;
  expect(i.x, at).toBeGreaterThanOrEqual(o.x - eps);
  expect(i.y, at).toBeGreaterThanOrEqual(o.y - eps);
  expect(i.x + i.width, at).toBeLessThanOrEqual(o.x + o.width + eps);
  expect(i.y + i.height, at).toBeLessThanOrEqual(o.y + o.height + eps);
}

/** Waits until the box of `l` is the same in two reads 200 ms apart (an opening animation has ended). */
async function waitStill(l: Locator): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await box(l));
        const still = now === last;
        last = now;
        return still;
      },
      { timeout: 10_000, intervals: [200] },
    )
    .toBe(true);
}

/** Waits for the open puzzle to load its picture, then checks that picture, track and handle lie in its card and the card on screen. */
async function expectPuzzleFits(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  await expect(dialog).toBeVisible();
  const slider = dialog.getByRole('slider', { name: '拖动滑块完成拼图' });
  await expect(slider).not.toHaveAttribute('aria-valuemax', '0', { timeout: 30_000 });
  // The card is the popup body around the dialog; let its opening animation end before measuring.
  const card = page.locator('.adm-center-popup-body').filter({ has: dialog });
  await waitStill(card);
  const picture = dialog.locator('.ex-captcha-img');
  await expect(picture.locator('img').first()).toBeVisible();
  await expectInside(picture, card, 'picture');
  await expectInside(picture.locator('img').first(), card, 'background image');
  await expectInside(dialog.locator('.ex-captcha-track'), card, 'slider track');
  await expectInside(slider, card, 'slider handle');
  const viewport = page.viewportSize()!;
  const c = await box(card);
  expect(c.x).toBeGreaterThanOrEqual(0);
  expect(c.x + c.width).toBeLessThanOrEqual(viewport.width);
}

/** Logs the demo account in through the API and writes the persisted session fields before the app starts. */
async function loginDemo(page: Page): Promise<void> {
  const res = await page.request.post('/api/member/member/login', { form: DEMO });
  const body = (await res.json()) as { status: string; result: { token: string; userId: string } };
  expect(body.status).toBe('SUCCEED');
  await page.addInitScript((s) => {
    if (sessionStorage.getItem('e2eSessionSet')) return;
    sessionStorage.setItem('e2eSessionSet', '1');
    localStorage.setItem('token', s.token);
    localStorage.setItem('userId', s.userId);
    localStorage.setItem('isLogin', 'true');
    localStorage.setItem('phone', 'demo@exchange.local');
  }, body.result);
}

for (const size of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  test.describe(`${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    test('register: the demo USDT is said, and the puzzle fits its card', async ({ page, request }) => {
      const info = (await (await request.get('/api/demo/info')).json()) as { result: { demoMode: boolean; welcomeUsdt: string } };
      expect(info.result.demoMode).toBe(true);
      const amount = info.result.welcomeUsdt.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      await page.goto('/register');
      await expect(page.getByRole('heading', { name: '创建账户' })).toBeVisible();
      await expect(page.getByTestId('welcome-usdt')).toHaveText(`注册即得 ${amount} USDT 演示资金，可直接交易`);
      await page.getByLabel('邮箱', { exact: true }).fill(freshEmail(`j5-${size.width}`));
      await page.getByRole('button', { name: '获取验证码' }).click();
      await expectPuzzleFits(page);
    });

    test('register: the demo USDT line arriving late moves no field', async ({ page }) => {
      // GET demo/info held back until the form is drawn: its line then appears, and the fields and the button stay put.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/demo/info*', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/register');
      const email = page.getByLabel('邮箱', { exact: true });
      const submit = page.getByRole('button', { name: '注册', exact: true });
      await expect(submit).toBeVisible();
      await expect(page.getByTestId('welcome-usdt')).toHaveCount(0);
      const tops = async () => [(await email.boundingBox())!.y, (await submit.boundingBox())!.y];
      const before = await tops();
      release();
      await expect(page.getByTestId('welcome-usdt')).toBeVisible();
      expect(await tops()).toEqual(before);
    });

    test('login after three failed attempts: the puzzle fits its card', async ({ page }) => {
      await page.goto('/login');
      // An account that does not exist fails like a wrong password; its failures count the same.
      await page.getByLabel('邮箱', { exact: true }).fill(freshEmail(`j5-fail-${size.width}`));
      await page.getByLabel('密码', { exact: true }).fill('WrongPass123');
      // Attempts 1-3 fail with login_failed; the 4th is answered captcha_required and the puzzle opens.
      const codes: string[] = [];
      for (let i = 0; i < 4 && !codes.includes('captcha_required'); i++) {
        const answer = page.waitForResponse((r) => r.url().includes('/api/member/member/login'));
        await page.getByRole('button', { name: '登录', exact: true }).click();
        codes.push(((await (await answer).json()) as { errorCode: string }).errorCode);
      }
      expect(codes).toEqual(['login_failed', 'login_failed', 'login_failed', 'captcha_required']);
      await expectPuzzleFits(page);
    });
  });
}

test('logged in: /login and /register do not show the form; the welcome banner goes to trading', async ({ page }) => {
  await loginDemo(page);
  await page.goto('/login?redirect=%2Fassets');
  await expect(page).toHaveURL(/\/assets$/);
  await expect(page.getByRole('button', { name: '登录', exact: true })).toHaveCount(0);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: '创建账户' })).toHaveCount(0);

  // The welcome banner ("Sign up and get ... demo USDT") links /register; logged in, it goes to the trade screen.
  const carousel = page.getByRole('region', { name: '轮播图' });
  const welcome = carousel.getByRole('img', { name: '欢迎体验演示交易所' });
  await expect(welcome.first()).toBeAttached({ timeout: 30_000 });
  // Wait until the welcome slide is the one in view, then tap the carousel's centre.
  const cbox = await box(carousel);
  await expect
    .poll(
      async () =>
        page.evaluate(({ x, y }) => (document.elementFromPoint(x, y) as HTMLImageElement | null)?.alt ?? '', {
          x: cbox.x + cbox.width / 2,
          y: cbox.y + cbox.height / 2,
        }),
      { timeout: 20_000, intervals: [100] },
    )
    .toBe('欢迎体验演示交易所');
  await page.mouse.click(cbox.x + cbox.width / 2, cbox.y + cbox.height / 2);
  await expect(page).toHaveURL(/\/transaction$/);
});

test.describe('320x640', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('assets: every account tab can be reached and chosen; small balances are hidden', async ({ page }) => {
    await loginDemo(page);
    await page.goto('/assets');
    const tabs = page.getByRole('tablist', { name: '账户' }).getByRole('tab');
    await expect(tabs).toHaveCount(5);
    const names = ['充提账户', '币币账户', '合约账户', '法币账户', '其他'];
    await expect(tabs).toHaveText(names);
    for (const name of [...names].reverse().concat(names)) {
      const tab = page.getByRole('tab', { name, exact: true });
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      const b = await box(tab);
      expect(b.x, `${name} left edge`).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width, `${name} right edge`).toBeLessThanOrEqual(320);
    }
    // The page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    // The demo account holds USDT only: with the check ticked (default) the zero balances are hidden.
    await page.getByRole('tab', { name: '币币账户', exact: true }).click();
    const hide = page.getByRole('checkbox', { name: '隐藏小额资产' });
    await expect(hide).toBeChecked();
    const coins = page.getByRole('list', { name: '币币账户' }).getByRole('button');
    await expect(coins).toHaveCount(1);
    await expect(coins.first()).toHaveAccessibleName('USDT');
    await hide.uncheck();
    await expect.poll(() => coins.count()).toBeGreaterThan(5);
    await expect(page.getByRole('list', { name: '币币账户' }).getByRole('button', { name: 'BTC', exact: true })).toContainText('0');
  });
});

test('markets: starring a pair in the list toasts', async ({ page }) => {
  await recordToasts(page);
  await loginDemo(page);
  await page.goto('/quotes');
  const list = page.getByRole('list', { name: '行情' });
  const row = list
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'ETH/USDT', exact: true }) })
    .first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  const star = row.getByRole('button', { name: /^(加入自选|取消自选)$/ });
  const wasOn = (await star.getAttribute('aria-pressed')) === 'true';
  await star.click();
  await expectToast(page, wasOn ? '已取消自选' : '已加入自选');
  await expect(star).toHaveAttribute('aria-pressed', wasOn ? 'false' : 'true');
  await star.click();
  await expectToast(page, wasOn ? '已加入自选' : '已取消自选');
});
