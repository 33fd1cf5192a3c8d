/**
 * Journey 1: a visitor opens home. Banners rotate (spec: every 3 s), notices show,
 * the four top pairs carry live prices matching data/data/getIndexCoin TOP, the ranking tabs switch
 * between different lists (UPDOWN / VOLUME / PROJECT), and the balance tab sends the visitor to /login.
 * The app runs in Chinese (browser locale zh-CN), so texts are the zh locale strings.
 */
import { expect, test, type Locator } from '@playwright/test';
import { indexCoin, num } from './support';

/** Alt text of the banner whose centre is inside the carousel's box (the slide the visitor sees). */
async function visibleBanner(carousel: Locator): Promise<string> {
  return carousel.evaluate((section) => {
    const r = section.getBoundingClientRect();
    for (const img of Array.from(section.querySelectorAll('img'))) {
      const b = img.getBoundingClientRect();
      const cx = b.left + b.width / 2;
      if (b.width > 0 && cx > r.left && cx < r.right) return img.alt;
    }
    return '';
  });
}

/** Pair names of the rows of a ranking list, in display order. */
async function rankingNames(list: Locator): Promise<string[]> {
  return list.getByRole('button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

test('a visitor sees rotating banners, notices, live top pairs and rankings; the balance tab asks to log in', async ({ page, request }) => {
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto('/');
  // The page's boot script (apps/web/public/boot.js: the early banners request, the night theme) ran under the policy.
  expect(await page.evaluate(() => typeof (window as { __exchangeEarly?: unknown }).__exchangeEarly)).toBe('object');

  // Banners: the three banners of the API, and the visible one changes by itself (autoplay 3 s).
  const banners = (await (await request.get('/api/data/data/getBanners?bannerType=DATA_BANNER&global=CHINESE_SIM')).json()) as {
    result: { title: string }[];
  };
  expect(banners.result.length).toBeGreaterThan(1);
  const carousel = page.getByRole('region', { name: '轮播图' });
  for (const b of banners.result) await expect(carousel.getByRole('img', { name: b.title })).toBeAttached();
  await expect.poll(() => visibleBanner(carousel)).not.toBe('');
  const first = await visibleBanner(carousel);
  expect(banners.result.map((b) => b.title)).toContain(first);
  // One 3 s period plus slack for a loaded 2-core machine.
  await expect.poll(() => visibleBanner(carousel), { timeout: 6_000, intervals: [100] }).not.toBe(first);
  const second = await visibleBanner(carousel);
  await expect.poll(() => visibleBanner(carousel), { timeout: 6_000, intervals: [100] }).not.toBe(second);

  // Notices: the notice line shows the official notices of the API.
  const notices = (await (await request.get('/api/data/data/getNotices?noticeType=OFFICIAL&global=CHINESE_SIM')).json()) as {
    result: { title: string }[];
  };
  expect(notices.result.length).toBeGreaterThan(0);
  const noticeLine = page.getByRole('button', { name: '公告' });
  await expect(noticeLine).toContainText(notices.result[0]!.title);

  // Top pairs: four buttons, the first four of getIndexCoin TOP, with positive prices equal to the API's.
  const topRegion = page.getByRole('region', { name: '热门交易对' });
  const top = await indexCoin(request, 'TOP');
  const topNames = top.slice(0, 4).map((p) => p.pairsName);
  expect(topNames).toHaveLength(4);
  for (const name of topNames) await expect(topRegion.getByRole('button', { name })).toBeVisible();
  await expect(topRegion.getByRole('button')).toHaveCount(4);
  const shownPrice = async (name: string) => num((await topRegion.getByRole('button', { name }).innerText()).split('\n')[1]);
  const uiPrices = async () => Promise.all(topNames.map(shownPrice));
  for (const p of await uiPrices()) expect(p).toBeGreaterThan(0);
  // The list polls every 5 s; UI and a fresh API answer agree once the UI has caught up.
  await expect
    .poll(
      async () => {
        const api = (await indexCoin(request, 'TOP')).slice(0, 4);
        const ui = await uiPrices();
        return api.map((p, i) => `${p.pairsName}=${Number(p.price) === ui[i] ? 'same' : `${p.price}!=${ui[i]}`}`);
      },
      { timeout: 30_000, message: 'top-pair prices equal getIndexCoin TOP' },
    )
    .toEqual(topNames.map((n) => `${n}=same`));
  // Live: at least one of the four prices moves while the page stays open (market bots trade).
  const before = (await uiPrices()).join('|');
  await expect.poll(async () => (await uiPrices()).join('|'), { timeout: 60_000, message: 'a top-pair price changes' }).not.toBe(before);

  // Rankings: three tabs; change ranking sorted by change, volume ranking in the API's volume order,
  // new coins only the new listings; the three lists differ.
  const rank = page.getByRole('region', { name: '排行榜' });
  await expect(rank.getByRole('tab', { name: '涨幅榜' })).toHaveAttribute('aria-selected', 'true');
  const upList = rank.getByRole('list', { name: '涨幅榜' });
  await expect(upList.getByRole('button').first()).toBeVisible();
  const upNames = await rankingNames(upList);
  const pcts = await upList.getByRole('button').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim().split('\n').pop() ?? ''));
  const pctNums = pcts.map((p) => Number(p.replace('%', '')));
  expect(pctNums.every((n) => Number.isFinite(n))).toBe(true);
  expect(pctNums).toEqual([...pctNums].sort((a, b) => b - a));

  await rank.getByRole('tab', { name: '成交额榜' }).click();
  await expect(rank.getByRole('tab', { name: '成交额榜' })).toHaveAttribute('aria-selected', 'true');
  const volList = rank.getByRole('list', { name: '成交额榜' });
  await expect(volList.getByRole('button').first()).toBeVisible();
  await expect
    .poll(async () => (await rankingNames(volList)).join(',') === (await indexCoin(request, 'VOLUME')).map((p) => p.pairsName).join(','), {
      timeout: 20_000,
      message: 'volume ranking in getIndexCoin VOLUME order',
    })
    .toBe(true);
  const volNames = await rankingNames(volList);

  await rank.getByRole('tab', { name: '新币榜' }).click();
  const newList = rank.getByRole('list', { name: '新币榜' });
  await expect(newList.getByRole('button').first()).toBeVisible();
  const newNames = await rankingNames(newList);
  const project = (await indexCoin(request, 'PROJECT')).map((p) => p.pairsName);
  expect([...newNames].sort()).toEqual([...project].sort());
  for (const name of newNames) await expect(newList.getByRole('button', { name })).toContainText('新');

  expect(new Set([upNames.join(','), volNames.join(','), newNames.join(',')]).size).toBe(3);

  // Back to the change tab: its list comes back.
  await rank.getByRole('tab', { name: '涨幅榜' }).click();
  await expect(rank.getByRole('list', { name: '涨幅榜' })).toBeVisible();

  // Balance tab while logged out -> /login (with the way back to /assets).
  await page.getByRole('navigation', { name: 'tabs' }).getByRole('link', { name: '资产' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fassets$/);
  await expect(page.getByRole('heading', { name: '欢迎回来' })).toBeVisible();
  await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
  expect(cspErrors, 'no script or style refused by the Content-Security-Policy').toEqual([]);
});
