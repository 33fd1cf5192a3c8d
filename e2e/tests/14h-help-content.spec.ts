/**
 * Journey 14h (content edited in the console): the demo operator logs into the console at 1280x800, edits
 * the published help article "How do I deposit?" (both languages), sees the change in the preview, saves the draft
 * (the app still shows the published article), then publishes it; creates a notice in both languages, previews it
 * and publishes it; the audit log lists content_update, content_publish and content_create. On the phone (390x844)
 * the app then shows the new article in en (day) through the help centre's categories, its search and the article
 * page, and in zh (night); the notice list and detail show the new notice in both languages. The download page and
 * the help centre home are saved as screenshots too.
 * Screenshots: docs/screenshots/console-content{,-notice}.png, help-centre{,-zh-night}.png,
 * help-article{,-zh-night}.png, help-search.png, download-app{,-zh-night}.png.
 */
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { operatorLogin } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const STAMP = Date.now().toString(36).slice(-5);
const ARTICLE_EN = `How do I deposit coins? (${STAMP})`;
const ARTICLE_ZH = `如何充值数字资产？（${STAMP}）`;
const LINE_EN = `USDT on Ethereum is credited after 12 confirmations (${STAMP}).`;
const LINE_ZH = `以太坊上的 USDT 在 12 个确认后到账（${STAMP}）。`;
const NOTICE_EN = `Help centre updated (${STAMP})`;
const NOTICE_ZH = `帮助中心已更新（${STAMP}）`;

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1, locale: 'en-US' });

/** A phone page (390x844) in `lang` and `theme`, as the app persists them (spec section 3). */
async function phone(browser: Browser, baseURL: string, lang: 'en' | 'zh', theme: 'default' | 'night'): Promise<Page> {
  const ctx = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
  });
  await ctx.addInitScript(
    ([l, th]) => {
      localStorage.setItem('currentLangue', l!);
      localStorage.setItem('theme', th!);
    },
    [lang, theme],
  );
  return ctx.newPage();
}

/** The published article as the app's API answers it in `lang`. */
async function publicArticle(page: Page, id: string, lang: 'zh' | 'en'): Promise<{ title: string; content: string }> {
  const r = await page.request.get(`/api/data/help/getArticle?id=${id}&global=${lang === 'zh' ? 'CHINESE_SIM' : 'ENGLISH'}`);
  return ((await r.json()) as { result: { title: string; content: string } }).result;
}

test('content: an operator edits a help article and a notice, previews, publishes; the app shows them in en and zh', async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  await operatorLogin(page);
  await page.getByRole('menuitem', { name: 'Content' }).click();
  await expect(page).toHaveURL(/\/admin\/content$/);

  // --- The help article: edit both languages, preview, save the draft, publish ---
  await page.getByRole('tab', { name: 'Help articles' }).click();
  await page.getByRole('button', { name: 'Edit How do I deposit?' }).click();
  const editor = page.getByRole('dialog').filter({ hasText: 'Edit help article' });
  await expect(editor.getByText('Published', { exact: true })).toBeVisible();
  await editor.getByLabel('Title (Chinese)').fill(ARTICLE_ZH);
  await editor.getByLabel('Title (English)').fill(ARTICLE_EN);
  const zhBody = editor.getByLabel('Text (Chinese)');
  await zhBody.fill(`${await zhBody.inputValue()}\n\n## 到账时间\n\n${LINE_ZH}`);
  const enBody = editor.getByLabel('Text (English)');
  await enBody.fill(`${await enBody.inputValue()}\n\n## When does it arrive?\n\n${LINE_EN}`);
  // The preview shows the draft as typed, in either language, before anything is saved.
  const preview = editor.getByTestId('content-preview');
  await expect(preview.getByRole('heading', { name: ARTICLE_ZH })).toBeVisible();
  await expect(preview.getByRole('heading', { name: '到账时间' })).toBeVisible();
  await editor.getByText('English', { exact: true }).click();
  await expect(preview.getByRole('heading', { name: ARTICLE_EN })).toBeVisible();
  await expect(preview.getByText(LINE_EN)).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'console-content.png') });
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await expect(editor.getByText('Changed since published')).toBeVisible();
  // Saved, not published: the app's API still answers the published article.
  const articles = (await (
    await page.request.get('/api/admin/content/list?kind=help_article&pageSize=100', { headers: { 'x-admin-token': await consoleToken(page) } })
  ).json()) as {
    result: { records: Array<{ id: string; draft: { titleEn: string } }> };
  };
  const articleId = articles.result.records.find((a) => a.draft.titleEn === ARTICLE_EN)!.id;
  expect((await publicArticle(page, articleId, 'en')).title).toBe('How do I deposit?');
  await editor.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(editor.getByText('Published', { exact: true })).toBeVisible();
  expect(await publicArticle(page, articleId, 'en')).toMatchObject({ title: ARTICLE_EN });
  expect((await publicArticle(page, articleId, 'zh')).content).toContain(LINE_ZH);
  await editor.getByRole('button', { name: 'Close' }).click();

  // --- A new notice in both languages: preview, publish ---
  await page.getByRole('tab', { name: 'Notices' }).click();
  await page.getByRole('button', { name: 'New notice' }).click();
  const noticeEditor = page.getByRole('dialog').filter({ hasText: 'New notice' });
  await noticeEditor.getByLabel('Title (Chinese)').fill(NOTICE_ZH);
  await noticeEditor.getByLabel('Title (English)').fill(NOTICE_EN);
  await noticeEditor.getByLabel('Text (Chinese)').fill(`尊敬的用户：\n\n帮助中心新增了充值到账时间的说明。\n\n平台运营团队`);
  await noticeEditor.getByLabel('Text (English)').fill(`Dear users,\n\nThe help centre now explains when deposits arrive.\n\nThe Operations Team`);
  await expect(noticeEditor.getByTestId('content-preview').getByRole('heading', { name: NOTICE_ZH })).toBeVisible();
  await noticeEditor.getByText('English', { exact: true }).click();
  await expect(noticeEditor.getByTestId('content-preview').getByText('The help centre now explains when deposits arrive.')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'console-content-notice.png') });
  await noticeEditor.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('dialog').filter({ hasText: 'Edit notice' }).getByText('Published', { exact: true })).toBeVisible();
  await page.getByRole('dialog').filter({ hasText: 'Edit notice' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('row').filter({ hasText: NOTICE_EN }).getByText('Published')).toBeVisible();

  // --- The audit log has the changes ---
  await page.getByRole('menuitem', { name: 'Audit log' }).click();
  for (const action of ['content_update', 'content_publish', 'content_create'])
    await expect(page.getByRole('row').filter({ hasText: action }).first()).toBeVisible();

  // --- The app, en / day: help centre -> category -> article; search; notices ---
  const en = await phone(browser, baseURL!, 'en', 'default');
  await en.goto('/');
  await en.getByRole('button', { name: 'Open menu' }).click();
  await en.getByText('Help centre', { exact: true }).click();
  await expect(en).toHaveURL(/\/helpCenter$/);
  await expect(en.getByRole('button', { name: /Deposits and withdrawals/ })).toBeVisible();
  await en.screenshot({ path: path.join(SHOTS, 'help-centre.png') });
  await en.getByRole('button', { name: /Deposits and withdrawals/ }).click();
  await expect(en).toHaveURL(/\/helpCenterDetail1\?id=\d+$/);
  await en.getByText(ARTICLE_EN).click();
  await expect(en).toHaveURL(new RegExp(`/helpCenterDetail2\\?id=${articleId}$`));
  await expect(en.getByRole('heading', { name: ARTICLE_EN })).toBeVisible();
  await expect(en.getByRole('heading', { name: 'When does it arrive?' })).toBeVisible();
  await expect(en.getByText(LINE_EN)).toBeVisible();
  await en.screenshot({ path: path.join(SHOTS, 'help-article.png') });
  await en.goto('/helpCenter');
  await en.getByRole('searchbox').fill('12 confirmations');
  await en.getByRole('searchbox').press('Enter');
  await expect(en).toHaveURL(/\/helpCenterDetail3\?q=12%20confirmations$/);
  await expect(en.getByText(ARTICLE_EN)).toBeVisible();
  await expect(en.getByText('1 article', { exact: true })).toBeVisible();
  await en.screenshot({ path: path.join(SHOTS, 'help-search.png') });
  await en.goto('/noticeList');
  await en.getByText(NOTICE_EN).click();
  await expect(en.getByText('The help centre now explains when deposits arrive.')).toBeVisible();
  await en.goto('/downloadApp');
  await expect(en.getByRole('img', { name: 'QR code of the Android download link' })).toBeVisible();
  await expect(en.getByText('Version 1.0.0')).toBeVisible();
  await en.screenshot({ path: path.join(SHOTS, 'download-app.png') });

  // --- The app, zh / night ---
  const zh = await phone(browser, baseURL!, 'zh', 'night');
  await zh.goto('/helpCenter');
  await expect(zh.getByRole('button', { name: /充值与提币/ })).toBeVisible();
  await zh.screenshot({ path: path.join(SHOTS, 'help-centre-zh-night.png') });
  await zh.goto(`/helpCenterDetail2?id=${articleId}`);
  await expect(zh.getByRole('heading', { name: ARTICLE_ZH })).toBeVisible();
  await expect(zh.getByRole('heading', { name: '到账时间' })).toBeVisible();
  await expect(zh.getByText(LINE_ZH)).toBeVisible();
  await zh.screenshot({ path: path.join(SHOTS, 'help-article-zh-night.png') });
  await zh.goto('/noticeList');
  await zh.getByText(NOTICE_ZH).click();
  await expect(zh.getByText('帮助中心新增了充值到账时间的说明。')).toBeVisible();
  await zh.goto('/helpCenterDetail4');
  await zh.getByText('隐私政策').click();
  await expect(zh.getByRole('heading', { level: 2, name: '隐私政策' })).toBeVisible();
  await expect(zh.getByText('最近更新', { exact: false })).toBeVisible();
  await zh.goto('/downloadApp');
  await expect(zh.getByRole('img', { name: 'iOS 下载链接二维码' })).toBeVisible();
  await zh.screenshot({ path: path.join(SHOTS, 'download-app-zh-night.png') });
  await en.context().close();
  await zh.context().close();
});

/** The console session's token (the console keeps it in sessionStorage or localStorage). */
async function consoleToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (const store of [sessionStorage, localStorage]) {
      for (let i = 0; i < store.length; i++) {
        const v = store.getItem(store.key(i)!) ?? '';
        try {
          const o = JSON.parse(v) as { token?: unknown };
          if (typeof o.token === 'string') return o.token;
        } catch {
          // not JSON
        }
      }
    }
    return '';
  });
}
