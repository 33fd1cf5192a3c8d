/**
 * API test of the content edited in the console through app.inject() on PGlite (PostgreSQL when DATABASE_URL is set): the seeded content is
 * published and the app shows it as before (three banners, the notices, four help categories, the five pages);
 * operators create, edit, preview (the console's detail), publish, unpublish and delete, and the app's routes only
 * ever show published copies (a draft's title, body and image never appear in any public answer); every change writes
 * exactly one audit row with before and after; roles (support edits but cannot publish; finance cannot edit); the
 * kinds' rules and bad input rejected in zh and en; image upload (cleaned, public only once a published banner
 * shows it); search in both languages; and a restart keeps operators' changes (the seed never overwrites them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, like } from 'drizzle-orm';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';
import { totpAt } from '../admin/totp';
import { multipart, png } from '../kyc/kyc-test-support';
import { snippetOf, isLink } from './content.service';

let t: TestApp;
let setup: DurableTestSetup | undefined;
const ops: Record<'admin' | 'support' | 'finance' | 'compliance', Record<string, string>> = { admin: {}, support: {}, finance: {}, compliance: {} };

type Json = { status: string; errorCode: string; errorMessage: string; result: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function adminGet(who: keyof typeof ops, p: string, q: Record<string, string> = {}, lang = 'en'): Promise<Json> {
  return (await t.app.inject({ method: 'GET', url: `/api/admin/content/${p}?${new URLSearchParams(q).toString()}`, headers: { ...ops[who], lang } })).json();
}
async function adminPost(who: keyof typeof ops, p: string, body: Record<string, string>, lang = 'en'): Promise<Json> {
  return (
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/content/${p}`,
      headers: { ...ops[who], lang, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(body).toString(),
    })
  ).json();
}
async function pub(p: string, q: Record<string, string> = {}, lang = 'en'): Promise<Json> {
  return (await t.app.inject({ method: 'GET', url: `/api/${p}?${new URLSearchParams(q).toString()}`, headers: { lang } })).json();
}
/** Expects `call(lang)` to fail with `code` in both languages, with different messages. */
async function failsBoth(call: (lang: string) => Promise<Json>, code: string): Promise<void> {
  const [en, zh] = [await call('en'), await call('zh')];
  expect([en.status, en.errorCode], JSON.stringify(en)).toEqual(['FAILED', code]);
  expect(zh.errorCode).toBe(code);
  expect(zh.errorMessage).not.toBe(en.errorMessage);
}
/** Every public answer the app can get, as one string (to look for draft texts in it). */
async function everythingPublic(): Promise<string> {
  const out: unknown[] = [];
  for (const lang of ['zh', 'en']) {
    const g = lang === 'zh' ? 'CHINESE_SIM' : 'ENGLISH';
    out.push(await pub('data/data/getBanners', { global: g }), await pub('data/data/getNotices', { global: g }));
    const notices = (await pub('data/data/getNotices', { global: g })).result as Array<{ id: number }>;
    for (const n of notices) out.push(await pub('data/data/getNoticeDetail', { id: String(n.id), global: g }));
    const cats = (await pub('data/help/getCategories', { global: g })).result as Array<{ id: number }>;
    out.push(cats);
    for (const c of cats) {
      const list = await pub('data/help/getArticles', { categoryId: String(c.id), global: g });
      out.push(list);
      for (const a of list.result.articles as Array<{ id: number }>) out.push(await pub('data/help/getArticle', { id: String(a.id), global: g }));
    }
    for (const slug of ['agreement', 'privacy', 'otc', 'merchant', 'download']) out.push(await pub('data/content/getPage', { slug, global: g }));
    out.push(await pub('data/help/search', { q: 'DRAFT', global: g }), await pub('data/help/search', { q: '草稿', global: g }));
  }
  return JSON.stringify(out);
}
async function auditRows(action: string) {
  return t.ctx.db.select().from(auditLog).where(like(auditLog.action, action)).orderBy(desc(auditLog.id));
}

beforeAll(async () => {
  setup = await durableTestSetup('exch-content-');
  t = await setup.open();
  for (const role of ['admin', 'support', 'finance', 'compliance'] as const) {
    const email = `${role}@content.test`;
    const op = await t.ctx.admin.createOperator(null, { email, name: role, role });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { email, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
    });
    expect(r.json().status, r.body).toBe('SUCCEED');
    ops[role] = { 'x-admin-token': r.json().result.token as string };
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

describe('content: seeded, published', () => {
  it('the app shows the seeded banners, notices, help centre and pages in both languages', async () => {
    const zh = (await pub('data/data/getBanners', { global: 'CHINESE_SIM' })).result;
    const en = (await pub('data/data/getBanners', { global: 'ENGLISH' })).result;
    expect(en.map((b: { title: string }) => b.title)).toEqual(['Welcome to the demo exchange', 'SUI and TON are now listed', 'USDT perpetual contracts']);
    expect(zh[0]).toMatchObject({ title: '欢迎体验演示交易所', bannerUrl: '/api/static/banners/welcome-zh.svg', link: '/register' });
    expect((await t.app.inject(en[0].bannerUrl)).statusCode).toBe(200);
    const notices = (await pub('data/data/getNotices', { global: 'ENGLISH' })).result as Array<{ title: string; createTime: number }>;
    expect(notices.length).toBe(6);
    expect(notices[0]!.title).toBe('Listing of Toncoin (TON) and opening of TON/USDT spot trading');
    expect(notices.map((n) => n.createTime)).toEqual([...notices.map((n) => n.createTime)].sort((a, b) => b - a));
    const cats = (await pub('data/help/getCategories', {}, 'zh')).result as Array<{ id: number; title: string; articleCount: number }>;
    expect(cats.map((c) => [c.title, c.articleCount])).toEqual([
      ['新手指南', 2],
      ['充值与提币', 2],
      ['交易', 2],
      ['账户安全', 2],
    ]);
    const list = (await pub('data/help/getArticles', { categoryId: String(cats[0]!.id), global: 'ENGLISH' })).result;
    expect(list.category.title).toBe('Getting started');
    expect(list.articles.map((a: { title: string }) => a.title)).toEqual(['How do I create an account?', 'Why do I need to verify my identity?']);
    const art = (await pub('data/help/getArticle', { id: String(list.articles[0].id), global: 'CHINESE_SIM' })).result;
    expect(art).toMatchObject({ title: '如何注册账户？', categoryTitle: '新手指南', categoryId: cats[0]!.id });
    expect(art.content).toContain('6 位邮箱验证码');
    const agreement = (await pub('data/content/getPage', { slug: 'agreement', global: 'ENGLISH' })).result;
    expect(agreement.title).toBe('User Agreement');
    expect(agreement.content.startsWith('## 1. Acceptance of these terms\n\nBy registering an account')).toBe(true);
    const privacy = (await pub('data/content/getPage', { slug: 'privacy', global: 'CHINESE_SIM' })).result;
    expect(privacy.title).toBe('隐私政策');
    const otc = (await pub('data/content/getPage', { slug: 'otc', global: 'ENGLISH' })).result;
    expect(otc.title).toBe('P2P trading terms');
    const download = (await pub('data/content/getPage', { slug: 'download', global: 'ENGLISH' })).result;
    expect(download).toMatchObject({ slug: 'download', title: 'Download the app', version: '1.0.0', androidUrl: '/', iosUrl: '/' });
  });

  it('searches the published articles in the request language, with a snippet', async () => {
    const en = (await pub('data/help/search', { q: 'liquidat' }, 'en')).result as Array<{ title: string; snippet: string; categoryTitle: string }>;
    expect(en.map((h) => h.title)).toEqual(['When is a perpetual contract position liquidated?']);
    expect(en[0]!.categoryTitle).toBe('Trading');
    const zh = (await pub('data/help/search', { q: '交易密码', global: 'CHINESE_SIM' })).result as Array<{ title: string; snippet: string }>;
    expect(zh[0]!.title).toBe('什么是交易密码？');
    expect(zh.map((h) => h.title)).not.toContain('如何注册账户？');
    // LIKE wildcards are literal: "%" finds the two articles with a per cent sign (0.1% fee, 100% risk), "_" none.
    expect(((await pub('data/help/search', { q: '%' }, 'en')).result as Array<{ title: string }>).map((h) => h.title).sort()).toEqual([
      'What is the difference between limit and market orders?',
      'When is a perpetual contract position liquidated?',
    ]);
    expect((await pub('data/help/search', { q: '_' })).result).toEqual([]);
  });
});

describe('content: operators edit, preview and publish', () => {
  it('a new notice: a draft is invisible to the app until published; each change is one audit row', async () => {
    const before = (await auditRows('content_%')).length;
    const created = await adminPost('support', 'create', {
      kind: 'notice',
      titleZh: '草稿公告 DRAFT-1',
      titleEn: 'DRAFT notice one',
      bodyZh: '草稿正文',
      bodyEn: 'DRAFT body',
    });
    expect(created.status, JSON.stringify(created)).toBe('SUCCEED');
    expect(created.result).toMatchObject({ kind: 'notice', status: 'DRAFT', published: null, updatedBy: 'support@content.test' });
    expect(await everythingPublic()).not.toMatch(/DRAFT|草稿/);
    // The console sees it (list and detail = the preview's source).
    const list = await adminGet('finance', 'list', { kind: 'notice' });
    expect(list.result.records[0]).toMatchObject({ id: created.result.id, status: 'DRAFT' });
    expect((await adminGet('finance', 'detail', { id: created.result.id })).result.draft.bodyEn).toBe('DRAFT body');
    // support may not publish; compliance may.
    expect((await adminPost('support', 'publish', { id: created.result.id })).errorCode).toBe('admin_forbidden');
    const published = await adminPost('compliance', 'publish', { id: created.result.id });
    expect(published.result).toMatchObject({ status: 'PUBLISHED', published: { titleEn: 'DRAFT notice one' } });
    const notices = (await pub('data/data/getNotices', { global: 'ENGLISH' })).result as Array<{ id: number; title: string; createTime: number }>;
    expect(notices[0]).toMatchObject({ id: Number(created.result.id), title: 'DRAFT notice one', createTime: published.result.firstPublishedAt });
    expect((await pub('data/data/getNoticeDetail', { id: created.result.id, global: 'CHINESE_SIM' })).result).toMatchObject({
      title: '草稿公告 DRAFT-1',
      content: '草稿正文',
    });
    // Publishing again without a change writes nothing.
    expect((await adminPost('admin', 'publish', { id: created.result.id })).result.status).toBe('PUBLISHED');
    // An edit changes the draft only: the app keeps the published copy.
    const edited = await adminPost('support', 'update', {
      id: created.result.id,
      titleZh: '公告第二版',
      titleEn: 'Notice, second version',
      bodyZh: '第二版正文',
      bodyEn: 'Second version body',
    });
    expect(edited.result).toMatchObject({ status: 'CHANGED', published: { titleEn: 'DRAFT notice one' }, draft: { titleEn: 'Notice, second version' } });
    expect((await pub('data/data/getNoticeDetail', { id: created.result.id, global: 'ENGLISH' })).result.title).toBe('DRAFT notice one');
    await adminPost('admin', 'publish', { id: created.result.id });
    const detail = (await pub('data/data/getNoticeDetail', { id: created.result.id, global: 'ENGLISH' })).result;
    expect(detail).toMatchObject({ title: 'Notice, second version', content: 'Second version body', createTime: published.result.firstPublishedAt });
    // Unpublish: gone from the app (list and detail), back to the console as UNPUBLISHED.
    expect((await adminPost('admin', 'unpublish', { id: created.result.id })).result.status).toBe('UNPUBLISHED');
    expect(((await pub('data/data/getNotices')).result as Array<{ id: number }>).map((n) => n.id)).not.toContain(Number(created.result.id));
    expect((await pub('data/data/getNoticeDetail', { id: created.result.id })).errorCode).toBe('not_found');
    await failsBoth((lang) => adminPost('admin', 'unpublish', { id: created.result.id }, lang), 'content_not_published');
    // Delete (compliance or admin), then nothing is left.
    expect((await adminPost('support', 'delete', { id: created.result.id })).errorCode).toBe('admin_forbidden');
    expect((await adminPost('admin', 'delete', { id: created.result.id })).status).toBe('SUCCEED');
    await failsBoth((lang) => adminGet('admin', 'detail', { id: created.result.id }, lang), 'content_not_found');
    // Audit: create, publish, update, publish, unpublish, delete: six rows, each with before and after.
    const rows = (await auditRows('content_%')).slice(0, (await auditRows('content_%')).length - before).reverse();
    expect(rows.map((r) => [r.action, r.operatorEmail])).toEqual([
      ['content_create', 'support@content.test'],
      ['content_publish', 'compliance@content.test'],
      ['content_update', 'support@content.test'],
      ['content_publish', 'admin@content.test'],
      ['content_unpublish', 'admin@content.test'],
      ['content_delete', 'admin@content.test'],
    ]);
    expect(rows[0]!.before).toBeNull();
    expect(rows[2]!.before).toMatchObject({ status: 'PUBLISHED', draft: { titleEn: 'DRAFT notice one' } });
    expect(rows[2]!.after).toMatchObject({ status: 'CHANGED', draft: { titleEn: 'Notice, second version' }, published: { titleEn: 'DRAFT notice one' } });
    expect(rows[5]!.after).toBeNull();
  });

  it('help centre: a category and an article, edits of a published article, search sees published text only', async () => {
    const cat = (await adminPost('support', 'create', { kind: 'help_category', titleZh: '合约 DRAFT', titleEn: 'Futures DRAFT', bodyEn: 'desc', sort: '9' }))
      .result;
    const art = await adminPost('support', 'create', {
      kind: 'help_article',
      parentId: cat.id,
      titleZh: '什么是资金费率？',
      titleEn: 'What is the funding rate?',
      bodyZh: '资金费率每 8 小时结算。DRAFT',
      bodyEn: 'Funding is settled every 8 hours. DRAFT',
    });
    expect(art.result).toMatchObject({ status: 'DRAFT', draft: { parentId: cat.id } });
    await adminPost('admin', 'publish', { id: art.result.id });
    // The article is published but its category is not: the app shows neither.
    expect(((await pub('data/help/getCategories')).result as Array<{ id: number }>).map((c) => c.id)).not.toContain(Number(cat.id));
    expect((await pub('data/help/getArticle', { id: art.result.id })).errorCode).toBe('content_not_found');
    expect((await pub('data/help/search', { q: 'funding rate' })).result).toEqual([]);
    await adminPost('admin', 'publish', { id: cat.id });
    const cats = (await pub('data/help/getCategories', { global: 'ENGLISH' })).result as Array<{ id: number; title: string; articleCount: number }>;
    expect(cats[cats.length - 1]).toMatchObject({ id: Number(cat.id), title: 'Futures DRAFT', articleCount: 1 });
    expect((await pub('data/help/search', { q: 'funding rate', global: 'ENGLISH' })).result).toMatchObject([
      { id: Number(art.result.id), title: 'What is the funding rate?', categoryTitle: 'Futures DRAFT', snippet: '' },
    ]);
    expect((await pub('data/help/search', { q: 'settled every', global: 'ENGLISH' })).result).toMatchObject([
      { id: Number(art.result.id), snippet: 'Funding is settled every 8 hours. DRAFT' },
    ]);
    // A draft edit is not searchable until published.
    await adminPost('support', 'update', {
      id: art.result.id,
      parentId: cat.id,
      titleZh: '资金费率',
      titleEn: 'Funding rate',
      bodyZh: '每 8 小时 PREVIEWONLY',
      bodyEn: 'Every 8 hours PREVIEWONLY',
    });
    expect((await pub('data/help/search', { q: 'PREVIEWONLY' })).result).toEqual([]);
    expect((await pub('data/help/getArticle', { id: art.result.id, global: 'ENGLISH' })).result.title).toBe('What is the funding rate?');
    // A category with articles cannot be deleted; its article first.
    await failsBoth((lang) => adminPost('admin', 'delete', { id: cat.id }, lang), 'content_category_not_empty');
    expect((await adminPost('admin', 'delete', { id: art.result.id })).status).toBe('SUCCEED');
    expect((await adminPost('admin', 'delete', { id: cat.id })).status).toBe('SUCCEED');
    expect(await everythingPublic()).not.toMatch(/DRAFT|PREVIEWONLY/);
  });

  it('pages: edited and republished, never unpublished or deleted', async () => {
    const list = (await adminGet('support', 'list', { kind: 'page' })).result.records as Array<{ id: string; slug: string }>;
    expect(list.map((p) => p.slug).sort()).toEqual(['agreement', 'download', 'merchant', 'otc', 'privacy']);
    const dl = list.find((p) => p.slug === 'download')!;
    const upd = await adminPost('support', 'update', {
      id: dl.id,
      titleZh: '下载',
      titleEn: 'Download',
      bodyZh: '正文',
      bodyEn: 'Text',
      version: '2.1.0',
      androidUrl: 'https://example.com/app.apk',
      iosUrl: 'https://apps.example.com/id1',
    });
    expect(upd.result.status).toBe('CHANGED');
    expect((await pub('data/content/getPage', { slug: 'download' })).result.version).toBe('1.0.0');
    await adminPost('compliance', 'publish', { id: dl.id });
    expect((await pub('data/content/getPage', { slug: 'download', global: 'ENGLISH' })).result).toMatchObject({
      title: 'Download',
      version: '2.1.0',
      androidUrl: 'https://example.com/app.apk',
      iosUrl: 'https://apps.example.com/id1',
    });
    await failsBoth((lang) => adminPost('admin', 'unpublish', { id: dl.id }, lang), 'content_page_fixed');
    await failsBoth((lang) => adminPost('admin', 'delete', { id: dl.id }, lang), 'content_page_fixed');
    await failsBoth(
      (lang) =>
        adminPost(
          'admin',
          'update',
          { id: dl.id, titleZh: '下载', titleEn: 'Download', bodyZh: '正文', bodyEn: 'Text', androidUrl: 'javascript:alert(1)' },
          lang,
        ),
      'content_link_invalid',
    );
    await failsBoth(
      (lang) => adminPost('admin', 'update', { id: dl.id, titleZh: '下载', titleEn: 'Download', bodyZh: '正文', bodyEn: '' }, lang),
      'content_body_required',
    );
    // A page cannot be created.
    expect((await adminPost('admin', 'create', { kind: 'page', titleZh: 'x', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' })).errorCode).toBe('validation_failed');
  });

  it('banners: an uploaded image is cleaned, previewable by operators, public only once a published banner shows it', async () => {
    const up = async (who: keyof typeof ops, bytes: Buffer) => {
      const body = multipart({}, { name: 'banner.png', type: 'image/png', bytes });
      return (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/content/uploadImage',
          payload: body.payload,
          headers: { ...body.headers, ...ops[who], lang: 'en' },
        })
      ).json() as Json;
    };
    expect((await up('finance', await png(750, 300))).errorCode).toBe('admin_forbidden');
    expect((await up('support', await png(100, 100))).errorCode).toBe('upload_too_small');
    expect((await up('support', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).errorCode).toBe('upload_not_image');
    const ok = await up('support', await png(750, 300));
    expect(ok.result).toMatchObject({ width: 750, height: 300 });
    expect(ok.result.url).toMatch(/^\/api\/static\/content\/[0-9a-f]{32}\.png$/);
    const file = ok.result.url.split('/').pop();
    expect((await t.app.inject(ok.result.url)).statusCode).toBe(404); // not shown by a published banner yet
    const preview = await t.app.inject({ method: 'GET', url: `/api/admin/content/image?file=${file}`, headers: ops.finance });
    expect([preview.statusCode, preview.headers['content-type']]).toEqual([200, 'image/png']);
    await failsBoth(
      (lang) => adminPost('support', 'create', { kind: 'banner', titleZh: '新横幅', titleEn: 'New banner', imageZh: ok.result.url, link: '/quotes' }, lang),
      'content_image_required',
    );
    await failsBoth(
      (lang) =>
        adminPost(
          'support',
          'create',
          {
            kind: 'banner',
            titleZh: '新横幅',
            titleEn: 'New banner',
            imageZh: ok.result.url,
            imageEn: '/api/static/content/00000000000000000000000000000000.png',
          },
          lang,
        ),
      'content_image_invalid',
    );
    await failsBoth(
      (lang) =>
        adminPost(
          'support',
          'create',
          { kind: 'banner', titleZh: '新横幅', titleEn: 'New banner', imageZh: ok.result.url, imageEn: 'https://evil.example/x.png' },
          lang,
        ),
      'content_image_invalid',
    );
    await failsBoth(
      (lang) =>
        adminPost(
          'support',
          'create',
          { kind: 'banner', titleZh: '新横幅', titleEn: 'New banner', imageZh: ok.result.url, imageEn: ok.result.url, link: '//evil.example' },
          lang,
        ),
      'content_link_invalid',
    );
    const banner = await adminPost('support', 'create', {
      kind: 'banner',
      titleZh: '新横幅',
      titleEn: 'New banner',
      imageZh: ok.result.url,
      imageEn: ok.result.url,
      link: '/quotes',
      sort: '-1',
    });
    expect(banner.status, JSON.stringify(banner)).toBe('SUCCEED');
    expect((await pub('data/data/getBanners')).result).toHaveLength(3);
    await adminPost('admin', 'publish', { id: banner.result.id });
    const banners = (await pub('data/data/getBanners', { global: 'ENGLISH' })).result as Array<{ title: string; bannerUrl: string }>;
    expect(banners[0]).toMatchObject({ title: 'New banner', bannerUrl: ok.result.url });
    const img = await t.app.inject(ok.result.url);
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/png']);
    await adminPost('admin', 'unpublish', { id: banner.result.id });
    expect((await t.app.inject(ok.result.url)).statusCode).toBe(404);
    const uploads = await auditRows('content_image_upload');
    expect(uploads[0]!.after).toMatchObject({ url: ok.result.url, width: 750, height: 300 });
  });

  it("the kinds' rules and unknown ids, in zh and en", async () => {
    await failsBoth(
      (lang) => adminPost('support', 'create', { kind: 'notice', titleZh: '  ', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' }, lang),
      'content_title_required',
    );
    await failsBoth((lang) => adminPost('support', 'create', { kind: 'notice', titleZh: 'x', titleEn: 'x', bodyZh: 'x' }, lang), 'content_body_required');
    await failsBoth(
      (lang) => adminPost('support', 'create', { kind: 'help_article', titleZh: 'x', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' }, lang),
      'content_category_not_found',
    );
    const notice = (await adminGet('support', 'list', { kind: 'notice' })).result.records[0].id as string;
    await failsBoth(
      (lang) => adminPost('support', 'create', { kind: 'help_article', parentId: notice, titleZh: 'x', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' }, lang),
      'content_category_not_found',
    );
    for (const p of ['publish', 'unpublish', 'delete']) await failsBoth((lang) => adminPost('admin', p, { id: '999999' }, lang), 'content_not_found');
    await failsBoth((lang) => adminPost('support', 'update', { id: '999999', titleZh: 'x', titleEn: 'x' }, lang), 'content_not_found');
    expect((await adminPost('finance', 'create', { kind: 'notice', titleZh: 'x', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' })).errorCode).toBe('admin_forbidden');
    expect((await pub('data/help/getArticles', { categoryId: '999999' })).errorCode).toBe('content_not_found');
    expect((await pub('data/content/getPage', { slug: 'secret' })).errorCode).toBe('validation_failed');
    // A user's session never opens the console.
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/content/list?kind=notice', headers: { token: 'x'.repeat(40), userId: '1' } });
    expect([res.statusCode, res.json().errorCode]).toEqual([401, 'admin_unauthorized']);
  });

  it("a restart keeps the operators' changes: the seed never writes again", async () => {
    const cats = (await adminGet('admin', 'list', { kind: 'help_category' })).result.records as Array<{
      id: string;
      draft: { titleZh: string; titleEn: string; bodyZh: string; bodyEn: string };
    }>;
    const first = cats[0]!;
    await adminPost('admin', 'update', { id: first.id, titleZh: '入门', titleEn: 'Start here', bodyZh: first.draft.bodyZh, bodyEn: first.draft.bodyEn });
    await adminPost('admin', 'publish', { id: first.id });
    const notices = (await adminGet('admin', 'list', { kind: 'notice' })).result.records as Array<{ id: string }>;
    expect((await adminPost('admin', 'delete', { id: notices[notices.length - 1]!.id })).status).toBe('SUCCEED');
    const before = await everythingPublic();
    await t.close();
    t = await setup!.open();
    expect(await everythingPublic()).toBe(before);
    expect(((await pub('data/help/getCategories', { global: 'ENGLISH' })).result as Array<{ title: string }>)[0]!.title).toBe('Start here');
    expect((await pub('data/data/getNotices')).result).toHaveLength(5);
  }, 120_000);
});

describe('content: helpers', () => {
  it('links: paths of this site and https URLs only', () => {
    expect(['', '/quotes', '/noticeDetail?id=3', 'https://example.com/a'].map(isLink)).toEqual([true, true, true, true]);
    expect(['//evil.example', 'http://example.com', 'javascript:alert(1)', 'https://', 'quotes', '/a b', 'https://x.com/"'].map(isLink)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
  it('snippets: around the first match, cut with ellipses, headings flattened', () => {
    expect(snippetOf('## Title\n\nabc def', 'DEF')).toBe('Title abc def');
    const long = `${'a'.repeat(200)}needle${'b'.repeat(200)}`;
    const s = snippetOf(long, 'needle', 40);
    expect(s.startsWith('…') && s.endsWith('…') && s.includes('needle')).toBe(true);
    expect(s.length).toBe(42);
    expect(snippetOf('abc', 'x')).toBe('');
  });
});
