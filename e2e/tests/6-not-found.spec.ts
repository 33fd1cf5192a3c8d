/**
 * Journey 6: an unknown URL shows the not-found page (title, a sentence, "Back to
 * home") instead of silently going home, in Chinese (browser locale) and in English; its button goes home.
 * A real route that needs a session (/exchange, convert) is not "not found": logged out, it leads to the login page.
 */
import { expect, test } from '@playwright/test';

test('an unknown URL shows the not-found page, whose button goes home', async ({ page }) => {
  await page.goto('/no/such/page?x=1');
  await expect(page.getByRole('heading', { level: 2, name: '页面不存在' })).toBeVisible();
  await expect(page.getByText('您访问的页面不存在或已被移除。')).toBeVisible();
  // The URL stays: nothing redirected the visitor.
  expect(new URL(page.url()).pathname).toBe('/no/such/page');

  await page.getByRole('button', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '首页' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: '页面不存在' })).toHaveCount(0);

  // English: the same page in the other language.
  await page.evaluate(() => localStorage.setItem('currentLangue', 'en'));
  await page.goto('/quotes/nope');
  await expect(page.getByRole('heading', { level: 2, name: 'Page not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to home' }).click();
  await expect(page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: 'Home' })).toBeVisible();

  // A real route is not "not found": /exchange needs a session, so a visitor is sent to log in.
  await page.goto('/exchange');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { level: 2, name: 'Page not found' })).toHaveCount(0);
});
