/**
 * Journey 14u (the web app as a PWA and the update flow of spec section 4).
 *
 * Offline (service workers allowed in this file only: playwright.config.ts blocks them elsewhere): a visitor opens
 * home; the service worker installs, precaches the app shell and takes control; nothing under /api is in any cache.
 * The browser goes offline and reloads: the page comes from the service worker and shows the app's no-network screen
 * ('No network, please check network settings', Reload) instead of the browser's error; the API is not answered from
 * a cache; Reload while still offline starts the app again onto the same screen (also in zh/night). Back online, the
 * screen goes and home loads its top pairs from the server.
 *
 * Update (operator lane): the demo operator publishes a web version (higher than any before, reasons in zh and en) in
 * the console's App versions page. A user's app shows the new-version dialog with the version and the English
 * reasons; "Update now" shows "Updating..." then "Update failed" (state 4), since the server still serves build
 * 0.1.0. With a newer build deployed (the browser answered /version.json as a deployment of the version would:
 * the journey cannot redeploy mid-run), "Version" in the settings offers it again and "Update now" ends in "Update
 * complete" (state 3) and the app restarts about 2 s later. In zh/night the dialog shows the Chinese reasons. The
 * operator withdraws the version; "Version" then says 'Already the latest version'.
 * Screenshots: docs/screenshots/offline{,-zh-night}.png, update-dialog{,-zh-night}.png, update-failed.png,
 * update-done.png, console-app-versions.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { lookOf, phoneAs } from './otc-support';
import { expectToast, freshEmail, operatorLogin, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** The URLs in every Cache Storage cache of the page's origin. */
async function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) out.push(new URL(req.url).pathname);
    return out;
  });
}

test.describe('PWA', () => {
  test.use({ serviceWorkers: 'allow', locale: 'en-US' });

  test('a reload while offline shows the no-network screen; back online the app recovers', async ({ page }) => {
    await page.addInitScript(() => {
      if (!localStorage.getItem('currentLangue')) localStorage.setItem('currentLangue', 'en');
      if (!localStorage.getItem('theme')) localStorage.setItem('theme', 'default');
    });
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Top pairs' }).getByRole('button')).toHaveCount(4);
    // The worker is active (its precache complete) and controls the page (clientsClaim).
    await expect
      .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.active && !!navigator.serviceWorker.controller), {
        timeout: 60_000,
      })
      .toBe(true);
    const cached = await cachedUrls(page);
    expect(cached).toContain('/index.html');
    expect(cached.filter((u) => u.startsWith('/assets/')).length).toBeGreaterThan(10);
    expect(cached.filter((u) => u.startsWith('/api/') || u.startsWith('/ws/'))).toEqual([]);

    await page.context().setOffline(true);
    const res = await page.reload();
    expect(res?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
    const screen = page.getByRole('alertdialog', { name: 'No network, please check network settings' });
    await expect(screen).toBeVisible();
    await expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
    // Nothing lies over it: the page's boot shell (kept until home's banners arrive, never offline) is gone at once.
    await expect(page.locator('#boot')).toHaveCount(0, { timeout: 3_000 });
    expect(
      await page.evaluate(() =>
        fetch('/api/data/data/getMainCurs').then(
          () => 'answered',
          () => 'failed',
        ),
      ),
      'no API answer from a cache',
    ).toBe('failed');
    await page.screenshot({ path: path.join(SHOTS, 'offline.png') });

    // Reload while still offline: the app starts again from the cache onto the same screen.
    await Promise.all([page.waitForEvent('load'), screen.getByRole('button', { name: 'Reload' }).click()]);
    await expect(screen).toBeVisible();
    await lookOf(page, 'zh', 'night');
    const zhScreen = page.getByRole('alertdialog', { name: '网络未连接，请检查网络设置' });
    await expect(zhScreen.getByRole('button', { name: '重新加载' })).toBeVisible();
    await expect(page.locator('#boot')).toHaveCount(0, { timeout: 3_000 });
    await page.screenshot({ path: path.join(SHOTS, 'offline-zh-night.png') });

    // Back online: the screen goes, and a reload loads home from the server.
    await page.context().setOffline(false);
    await expect(zhScreen).toBeHidden();
    await page.reload();
    await expect(page.getByRole('region', { name: '热门交易对' }).getByRole('button')).toHaveCount(4);
    await expect(zhScreen).toBeHidden();
  });
});

test('a version published in the console: the new-version dialog, failed, complete, latest', async ({ browser, request }) => {
  // A version above every one published before (a rerun publishes a higher one), and above the app's 0.1.0.
  const now = new Date();
  const version = `1.${now.getUTCDate() * 100 + now.getUTCHours()}.${now.getUTCMinutes() * 60 + now.getUTCSeconds()}`;
  const reasonsEn = ['Invitation posters you can save to the album', 'Quotes refresh faster'];
  const reasonsZh = ['邀请海报可保存到相册', '行情刷新更快'];

  const consoleCtx = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    locale: 'en-US',
  });
  const op = await consoleCtx.newPage();
  await operatorLogin(op);
  await op.getByRole('menuitem', { name: 'App versions' }).click();
  await op
    .locator('.ant-select')
    .filter({ has: op.getByRole('combobox', { name: 'Platform' }) })
    .click();
  await op.locator('.ant-select-item-option[title="Web"]').click();
  await op.getByLabel('Version', { exact: true }).fill(version);
  await op.getByLabel('Reasons (Chinese)').fill(reasonsZh.join('\n'));
  await op.getByLabel('Reasons (English)').fill(reasonsEn.join('\n'));
  await op.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(op.getByText(`Web ${version} published`)).toBeVisible();
  const row = op.getByRole('row').filter({ hasText: version });
  await expect(row).toContainText(version);
  await expect(row).toContainText('Live');
  await op.screenshot({ path: path.join(SHOTS, 'console-app-versions.png') });

  const s = await registerByApi(request, freshEmail('j14u'), 'Journey14upass');
  const p = await phoneAs(browser, s);
  await p.goto('/');
  const dialog = p.getByRole('dialog').filter({ hasText: `New version ${version}` });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('list', { name: "What's new" }).getByRole('listitem')).toHaveText(reasonsEn);
  await expect(dialog.getByText('Later')).toBeVisible();
  await p.screenshot({ path: path.join(SHOTS, 'update-dialog.png') });
  // The server still serves build 0.1.0: state 4, update failed.
  await dialog.getByText('Update now').click();
  await expect(dialog.getByRole('alert')).toHaveText('Update failed');
  await p.screenshot({ path: path.join(SHOTS, 'update-failed.png') });
  await dialog.getByText('Close').click();
  await expect(dialog).toBeHidden();

  // A newer build is deployed: /version.json names it. "Version" in the settings offers the version again.
  await p.route('**/version.json*', (route) => route.fulfill({ json: { buildId: `build-${version}`, version } }));
  await p.goto('/setting');
  await p.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));
  await p.getByText('Version', { exact: true }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByText('Update now').click();
  await expect(dialog.getByRole('status')).toContainText('Update complete');
  const doneAt = Date.now();
  await expect(dialog.getByRole('status')).toContainText('The app restarts in 2 seconds');
  await p.screenshot({ path: path.join(SHOTS, 'update-done.png') });
  // The restart: a new document (the marker is gone), about 2 s after "Update complete".
  await expect
    .poll(() => p.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate === true).catch(() => true), { timeout: 15_000 })
    .toBe(false);
  const restartedAt = await p.evaluate(() => performance.timeOrigin);
  expect(restartedAt - doneAt).toBeGreaterThan(1000);
  expect(restartedAt - doneAt).toBeLessThan(6000);

  // zh/night: the Chinese reasons.
  await lookOf(p, 'zh', 'night');
  const zhDialog = p.getByRole('dialog').filter({ hasText: `发现新版本 ${version}` });
  await expect(zhDialog).toBeVisible({ timeout: 30_000 });
  await expect(zhDialog.getByRole('list', { name: '更新内容' }).getByRole('listitem')).toHaveText(reasonsZh);
  await p.screenshot({ path: path.join(SHOTS, 'update-dialog-zh-night.png') });
  await zhDialog.getByText('稍后').click();

  // The operator withdraws it: nothing to offer any more.
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await op.getByRole('button', { name: 'OK' }).click();
  await expect(row).toContainText('Withdrawn');
  await p.unroute('**/version.json*');
  await p.goto('/setting');
  await p.getByText('版本', { exact: true }).click();
  await expectToast(p, '已是最新版本');
  await expect(zhDialog).toBeHidden();
  await consoleCtx.close();
  await p.context().close();
});
