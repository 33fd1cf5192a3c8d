/**
 * Proves the page the server sends for the web app: on the home screen (`/`, `/home`) the shell carries the first
 * published banner of the request's language at the build's marker, as an image on this origin with its language;
 * any other route, a page without the marker, a banner whose image is elsewhere and a failing banners read get the
 * page as built; titles are escaped; a rebuilt page is read again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lang } from '@exchange/api';
import { makeTestApp, type TestApp } from '../../test/helpers';
import { BOOT_BANNER_MARKER, bootBannerHtml, createWebShell } from './web-shell';

const PAGE = `<!doctype html><title>app</title><div id="boot"><div class="boot-shell"></div>${BOOT_BANNER_MARKER}</div><div id="root"></div>`;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-shell-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A web shell over `page` written to a file of its own, with banners answered by `banners`. */
function shellOver(page: string, banners: (lang: Lang) => Promise<{ bannerUrl: string; title: string }[]>) {
  const indexFile = path.join(dir, `index-${Math.random().toString(36).slice(2)}.html`);
  fs.writeFileSync(indexFile, page);
  const warnings: string[] = [];
  return { indexFile, warnings, shell: createWebShell({ indexFile, banners, warn: (m) => warnings.push(m) }) };
}

const byLang = async (lang: Lang) => [
  { bannerUrl: `/api/static/banners/welcome-${lang}.svg`, title: lang === 'en' ? 'Welcome' : '欢迎' },
  { bannerUrl: `/api/static/banners/second-${lang}.svg`, title: 'second' },
];

describe('web shell', () => {
  it('puts the first banner of the language in the home screen shell, at the marker', async () => {
    const { shell } = shellOver(PAGE, byLang);
    for (const p of ['/', '/home']) {
      const en = await shell.page(p, 'en');
      expect(en).toContain(
        '<div class="boot-shell"></div><img class="boot-banner" alt="Welcome" src="/api/static/banners/welcome-en.svg" data-lang="en" fetchpriority="high"></div>',
      );
      expect(en).not.toContain(BOOT_BANNER_MARKER);
      expect(en).not.toContain('second');
      const zh = await shell.page(p, 'zh');
      expect(zh).toContain('alt="欢迎" src="/api/static/banners/welcome-zh.svg" data-lang="zh"');
    }
  });

  it('sends every other route, and a page without the marker, as built', async () => {
    const { shell } = shellOver(PAGE, byLang);
    for (const p of ['/trade', '/home/x', '/assets']) expect(await shell.page(p, 'en')).toBe(PAGE);
    const plain = '<!doctype html><div id="boot"></div><div id="root"></div>';
    expect(await shellOver(plain, byLang).shell.page('/', 'en')).toBe(plain);
  });

  it('leaves the shell without a banner when none is published, when its image is elsewhere, or when the read fails', async () => {
    expect(await shellOver(PAGE, async () => []).shell.page('/', 'en')).toBe(PAGE);
    for (const bannerUrl of ['https://cdn.example.com/a.png', '//cdn.example.com/a.png', 'a.png', '/a b.png', '/a"onerror="x.png']) {
      expect(await shellOver(PAGE, async () => [{ bannerUrl, title: 't' }]).shell.page('/', 'en'), bannerUrl).toBe(PAGE);
    }
    const failing = shellOver(PAGE, async () => {
      throw new Error('database gone');
    });
    expect(await failing.shell.page('/', 'en')).toBe(PAGE);
    expect(failing.warnings).toEqual([expect.stringContaining('database gone')]);
  });

  it('escapes the title', () => {
    expect(bootBannerHtml({ bannerUrl: '/b.png', title: '"><script>alert(1)</script>&' }, 'en')).toBe(
      '<img class="boot-banner" alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;" src="/b.png" data-lang="en" fetchpriority="high">',
    );
  });

  it('reads the page again when a new build replaces it', async () => {
    const { shell, indexFile } = shellOver(PAGE, byLang);
    expect(await shell.page('/trade', 'en')).toBe(PAGE);
    const rebuilt = PAGE.replace('<title>app</title>', '<title>app 2</title>');
    fs.writeFileSync(indexFile, rebuilt);
    fs.utimesSync(indexFile, new Date(), new Date(Date.now() + 5_000));
    expect(await shell.page('/trade', 'en')).toBe(rebuilt);
  });
});

describe('web shell served by the app', () => {
  let web: string;
  let t: TestApp;
  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-web-shell-'));
    fs.writeFileSync(path.join(web, 'index.html'), PAGE);
    t = await makeTestApp({ webDist: web });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it('sends the home screen with the first published banner of the Accept-Language, never cached', async () => {
    for (const [accept, global] of [
      ['en-US,en;q=0.9', 'ENGLISH'],
      ['zh-CN,zh;q=0.9', 'CHINESE_SIM'],
    ] as const) {
      const api = (await t.app.inject({ method: 'GET', url: `/api/data/data/getBanners?bannerType=DATA_BANNER&global=${global}` })).json<{
        result: { bannerUrl: string; title: string }[];
      }>();
      const first = api.result[0]!;
      expect(first.bannerUrl).toMatch(/^\/api\//);
      for (const url of ['/', '/home', '/home?from=app']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': accept } });
        expect(res.statusCode, url).toBe(200);
        expect(String(res.headers['content-type'])).toMatch(/text\/html/);
        expect(String(res.headers['cache-control'])).toMatch(/no-cache/);
        expect(String(res.headers.vary)).toMatch(/accept-language/i);
        expect(res.body, `${url} ${accept}`).toContain(`src="${first.bannerUrl}" data-lang="${global === 'ENGLISH' ? 'en' : 'zh'}"`);
      }
    }
    const other = await t.app.inject({ method: 'GET', url: '/trade', headers: { 'accept-language': 'en' } });
    expect(other.body).toBe(PAGE);
  });
});
