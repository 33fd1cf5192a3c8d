// public/boot.js requests the home banners before the app loads; the API client takes that answer once, for the very
// URL it would request itself (so the URL boot.js builds must stay equal to the client's), and falls back to its
// own request when boot.js's failed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '@exchange/api';
import { apiGet } from './index';
import { useAppStore } from '../storage';
import { globalOf } from '../content-api';
import bootJs from '../../../public/boot.js?raw';

const ok = (result: unknown) => JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result });
const banners = [{ id: 1, bannerUrl: '/api/static/banners/welcome-en.svg', title: 'Welcome', link: '' }];

let calls: string[] = [];
function stubFetch(answer: (url: string) => Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return answer(url);
    }),
  );
}
/** Runs boot.js as the page would (a classic script), on `pathname`. */
function runBoot(pathname: string) {
  window.history.replaceState(null, '', pathname);
  new Function(bootJs)();
}
const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  calls = [];
  delete window.__exchangeEarly;
  document.head.querySelectorAll('link[rel=preload]').forEach((l) => l.remove());
  document.body.innerHTML = '<div id="boot"><div class="boot-shell"></div></div><div id="root"></div>';
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('early banners (boot.js + early.ts)', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`boot.js requests the URL the client requests, in ${lang}, and the client takes its answer once`, async () => {
      localStorage.setItem('currentLangue', lang);
      useAppStore.setState({ currentLangue: lang });
      stubFetch(async () => new Response(ok(banners), { status: 200 }));
      runBoot('/');
      expect(calls).toHaveLength(1);
      const first = await apiGet(API_PATHS.getBanners, { bannerType: 'DATA_BANNER', global: globalOf(lang) });
      expect(first).toEqual(banners);
      expect(calls).toHaveLength(1); // no second request: the early answer was used
      const second = await apiGet(API_PATHS.getBanners, { bannerType: 'DATA_BANNER', global: globalOf(lang) });
      expect(second).toEqual(banners);
      expect(calls).toHaveLength(2); // taken once only
      expect(calls[0]).toBe(calls[1]);
    });
  }

  it('preloads the first banner and shows it in the shell while the app has not rendered', async () => {
    localStorage.setItem('currentLangue', 'en');
    stubFetch(async () => new Response(ok(banners), { status: 200 }));
    runBoot('/home');
    await vi.waitFor(() => expect(document.querySelector('img.boot-banner')).not.toBeNull());
    expect(document.head.querySelector('link[rel=preload][as=image]')?.getAttribute('href')).toBe('/api/static/banners/welcome-en.svg');
    const img = document.querySelector<HTMLImageElement>('#boot > img.boot-banner');
    expect(img?.getAttribute('src')).toBe('/api/static/banners/welcome-en.svg');
    expect(img?.alt).toBe('Welcome');
  });

  it('keeps the banner the server put in the shell when it is of the app language (no second image, no preload)', async () => {
    localStorage.setItem('currentLangue', 'en');
    document
      .getElementById('boot')!
      .insertAdjacentHTML('beforeend', '<img class="boot-banner" alt="Welcome" src="/api/static/banners/welcome-en.svg" data-lang="en">');
    const served = document.querySelector('img.boot-banner');
    stubFetch(async () => new Response(ok(banners), { status: 200 }));
    runBoot('/');
    await window.__exchangeEarly?.[calls[0]!];
    await settle();
    expect(document.querySelectorAll('img.boot-banner')).toHaveLength(1);
    expect(document.querySelector('img.boot-banner')).toBe(served);
    expect(document.head.querySelector('link[rel=preload][as=image]')).toBeNull();
  });

  it('replaces a banner the server put in the shell in the other language', async () => {
    localStorage.setItem('currentLangue', 'en');
    document
      .getElementById('boot')!
      .insertAdjacentHTML('beforeend', '<img class="boot-banner" alt="欢迎" src="/api/static/banners/welcome-zh.svg" data-lang="zh">');
    stubFetch(async () => new Response(ok(banners), { status: 200 }));
    runBoot('/');
    await vi.waitFor(() => expect(document.querySelector('img.boot-banner')?.getAttribute('src')).toBe('/api/static/banners/welcome-en.svg'));
    expect(document.querySelectorAll('img.boot-banner')).toHaveLength(1);
    expect(document.querySelector<HTMLImageElement>('img.boot-banner')?.alt).toBe('Welcome');
  });

  it('applies the persisted night theme on any route, and leaves the default one alone', () => {
    stubFetch(async () => new Response(ok(banners), { status: 200 }));
    document.documentElement.setAttribute('data-theme', 'default');
    runBoot('/trade');
    expect(document.documentElement.getAttribute('data-theme')).toBe('default');
    localStorage.setItem('theme', 'night');
    runBoot('/trade');
    expect(document.documentElement.getAttribute('data-theme')).toBe('night');
    document.documentElement.setAttribute('data-theme', 'default');
  });

  it('does nothing off the home screen, and never loads a banner image from another origin', async () => {
    stubFetch(async () => new Response(ok(banners), { status: 200 }));
    runBoot('/trade');
    expect(calls).toHaveLength(0);
    expect(window.__exchangeEarly).toBeUndefined();
    stubFetch(async () => new Response(ok([{ ...banners[0], bannerUrl: '//evil.example/x.svg' }]), { status: 200 }));
    runBoot('/');
    await window.__exchangeEarly?.['/api/data/data/getBanners?bannerType=DATA_BANNER&global=CHINESE_SIM']?.catch(() => null);
    await settle();
    expect(calls).toHaveLength(1);
    expect(document.querySelector('img.boot-banner')).toBeNull();
    expect(document.head.querySelector('link[rel=preload][as=image]')).toBeNull();
  });

  it('falls back to its own request when boot.js failed', async () => {
    localStorage.setItem('currentLangue', 'en');
    useAppStore.setState({ currentLangue: 'en' });
    let n = 0;
    stubFetch(async () => {
      n += 1;
      if (n === 1) throw new TypeError('network down');
      return new Response(ok(banners), { status: 200 });
    });
    runBoot('/');
    const got = await apiGet(API_PATHS.getBanners, { bannerType: 'DATA_BANNER', global: 'ENGLISH' }, { silent: true });
    expect(got).toEqual(banners);
    expect(calls).toHaveLength(2);
  });
});
