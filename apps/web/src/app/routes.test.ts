// Proves the route table covers every route of spec section 2 exactly once, that the balance
// tab routes require a session, and that an unknown URL matches the not-found route
// while the routes of later features keep their "not available yet" page. The table is assembled from each
// feature's routes.tsx: it keeps the order the table had when it was one list, and each feature's file declares only
// its own pages, importing nothing but lazyPage (so the eager glob of app/routes.tsx adds no page code to the entry).
import { describe, expect, it, vi } from 'vitest';
import { matchRoutes } from 'react-router';
import type { AppRoute } from '../shared/routing';

vi.mock('../shared/routing/lazy-page', () => ({ lazyPage: (loader: () => unknown) => Object.assign(() => null, { loader }) }));
const { ROUTES, NOT_YET_AVAILABLE, EXTRA_ROUTES } = await import('./routes');
const { routeObjects, unmatchedPage, fallthroughRoute } = await import('./router');

/** The dynamic import a (mocked) lazy page was made with, as text. */
const loaderOf = (r: AppRoute) => String((r.Page as unknown as { loader: () => unknown }).loader);

const SPEC_ROUTES = `/login /register /forget /setting /message /langue /payment /payment/bankCard /payment/weixin
/payment/zhifubao /accountCenter /accountCenter/bind /accountCenter/bindSecond /accountCenter/change
/accountCenter/postPasswordSet /accountCenter/postPasswordChange /accountCenter/postPasswordForget
/accountCenter/googleAuthenticator /accountCenter/closeGoogle /kline /orderManger / /home /noticeList /noticeDetail
/about /realname /realname1 /personalCenter /chooseArea /customer /kefuWebview /agreement /downloadApp
/aboutAgreement /otc365agreement /invitation /helpCenter /helpCenterDetail1 /helpCenterDetail2 /helpCenterDetail3
/helpCenterDetail4 /quotes /quotes/quotesDetail /exchange /transaction /transaction/allTransaction
/transaction/otcOrder /transaction/orderDetail /transaction/appeal /transaction/merchantAudit
/transaction/transactionFabi /transaction/transactionFabi1 /merchantAgreement /transactionDetail /advertisement
/contract /contract/allContract /activity /activityHistory /activityDetails /mortgage /mort_record /redeem_record
/assets /assets/assetsIndex /assets/assetDetail /assets/chooseCoin /assets/coinCharging /assets/withdrawCoin
/assets/withdrawCoinSuccess /assets/transfer /assets/tranferSuccess /assets/capitalRecords
/assets/capitalRecordsDetail`.split(/\s+/);

/** Every route in the order of the route table as it was written as one list in app/routes.tsx. */
const ROUTE_ORDER = `/ /home /quotes /transaction /contract /assets /assets/assetsIndex /quotes/quotesDetail /transaction/allTransaction
/assets/assetDetail /login /register /forget /chooseArea /setting /langue /noticeList /noticeDetail /about
/agreement /aboutAgreement /accountCenter /accountCenter/bind /accountCenter/bindSecond /accountCenter/change
/accountCenter/postPasswordSet /accountCenter/postPasswordChange /accountCenter/postPasswordForget
/accountCenter/googleAuthenticator /accountCenter/closeGoogle /payment /payment/bankCard /payment/weixin
/payment/zhifubao /realname /realname1 /personalCenter /accountCenter/devices /accountCenter/activity
/accountCenter/apiKeys /accountCenter/apiKeys/create /reserves /invitation /mortgage /mort_record /redeem_record
/exchange /assets/chooseCoin /assets/coinCharging /assets/withdrawCoin /assets/withdrawCoinSuccess /assets/transfer
/assets/tranferSuccess /assets/capitalRecords /assets/capitalRecordsDetail /contract/allContract
/transaction/transactionFabi /transaction/transactionFabi1 /transactionDetail /merchantAgreement /otc365agreement
/transaction/otcOrder /transaction/orderDetail /transaction/appeal /transaction/merchantAudit /advertisement /kline
/orderManger /customer /kefuWebview /activity /activityDetails /activityHistory /message /helpCenter
/helpCenterDetail1 /helpCenterDetail2 /helpCenterDetail3 /helpCenterDetail4 /downloadApp`.split(/\s+/);

describe('route table', () => {
  it('has every route of spec section 2 (and the few extra sub-pages), once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_ROUTES, ...EXTRA_ROUTES].sort());
    // A route beyond the spec says so where it is declared; none claims to be beyond the spec while the spec lists it.
    expect(EXTRA_ROUTES.filter((p) => SPEC_ROUTES.includes(p))).toEqual([]);
    expect(EXTRA_ROUTES).toEqual(expect.arrayContaining(['/accountCenter/devices', '/accountCenter/activity', '/reserves', '/accountCenter/apiKeys']));
  });
  it("lists the features' routes in the order of the former single table, no path twice", () => {
    const paths = ROUTES.map((r) => r.path);
    // Today's routes keep their order; a new feature's routes may stand anywhere in between (its folder is all it touches).
    expect(paths.filter((p) => ROUTE_ORDER.includes(p))).toEqual(ROUTE_ORDER);
    // The router finds routes case-insensitively (router.tsx normalisePath), so a path may not come back in other case.
    const lower = paths.map((p) => p.toLowerCase());
    expect(lower.filter((p, i) => lower.indexOf(p) !== i)).toEqual([]);
    const orders = ROUTES.map((r) => r.order);
    expect(orders.filter((o, i) => orders.indexOf(o) !== i)).toEqual([]);
  });
  it('has each feature declare routes to its own pages only, with nothing but lazyPage imported', () => {
    const files = import.meta.glob<readonly AppRoute[]>('../features/*/routes.tsx', { eager: true, import: 'routes' });
    const sources = import.meta.glob<string>('../features/*/routes.tsx', { eager: true, query: '?raw', import: 'default' });
    expect(Object.keys(files).length).toBeGreaterThan(0);
    for (const [file, routes] of Object.entries(files)) {
      const feature = /features\/([^/]+)\//.exec(file)![1]!;
      for (const r of routes) expect(loaderOf(r), `${file} ${r.path}`).toContain(`/features/${feature}/pages/`);
      // Static imports and re-exports, side-effect imports included (dynamic `import(` is not at a line start).
      const imports = [...sources[file]!.matchAll(/^(?:import\b[^;(]*?|export\b[^;=]*?\bfrom\s*)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      expect(imports, file).toEqual(['../../shared/routing']);
    }
  });
  it('puts the five tabs in the tab layout and guards the balance tab', () => {
    const tab = ROUTES.filter((r) => r.tab).map((r) => r.path);
    expect(tab).toEqual(expect.arrayContaining(['/', '/quotes', '/transaction', '/contract', '/assets']));
    expect(ROUTES.find((r) => r.path === '/assets')?.login).toBe(true);
    expect(ROUTES.find((r) => r.path === '/quotes')?.login).toBeFalsy();
  });
});

describe('unknown URLs', () => {
  const leaf = (url: string) => matchRoutes(routeObjects, url)?.at(-1)?.route.path;

  it('match the not-found route', () => {
    for (const url of ['/no-such-page', '/quotes/nope', '/assets/x/y', '/homepage']) {
      expect(leaf(url), url).toBe('*');
      expect(unmatchedPage(url), url).toBe('notFound');
    }
  });

  it('leave known routes and the not-yet-available ones alone', () => {
    expect(leaf('/')).toBe('/');
    expect(leaf('/quotes/quotesDetail')).toBe('/quotes/quotesDetail');
    // The later routes fall through to `*`, which shows them the "not available yet" page (with or without a
    // trailing slash); they are not route objects, so react-router does not compile fifty regular expressions.
    for (const url of NOT_YET_AVAILABLE) {
      expect(leaf(url), url).toBe('*');
      expect(unmatchedPage(url), url).toBe('notAvailable');
      expect(unmatchedPage(`${url}/`), url).toBe('notAvailable');
      expect(unmatchedPage(url.toUpperCase()), url).toBe('notAvailable');
    }
    expect(unmatchedPage('/exchange/x')).toBe('notFound');
    expect(routeObjects[0]?.children?.length).toBeLessThan(20);
    // The account centre's screens are found by the `*` route too, by path, with their login flag.
    expect(leaf('/accountCenter')).toBe('*');
    expect(fallthroughRoute('/accountCenter/')?.path).toBe('/accountCenter');
    expect(fallthroughRoute('/PERSONALCENTER')?.login).toBe(true);
    expect(fallthroughRoute('/payment')?.login).toBeFalsy();
    expect(fallthroughRoute('/no-such-route')).toBeUndefined();
    // Savings and convert: main routes behind the login guard.
    for (const url of ['/mortgage', '/mort_record', '/redeem_record', '/exchange']) expect(fallthroughRoute(url)?.login, url).toBe(true);
    // The full-screen chart: a page of its own, public.
    expect(fallthroughRoute('/kline')?.login).toBeFalsy();
    expect(loaderOf(fallthroughRoute('/kline')!)).toContain('KlinePage');
    // The wallet screens likewise, each behind the login guard, none on the "not available yet" page.
    for (const path of [
      '/assets/chooseCoin',
      '/assets/coinCharging',
      '/assets/withdrawCoin',
      '/assets/withdrawCoinSuccess',
      '/assets/transfer',
      '/assets/tranferSuccess',
      '/assets/capitalRecords',
      '/assets/capitalRecordsDetail',
    ]) {
      expect(leaf(path), path).toBe('*');
      expect(fallthroughRoute(path)?.login, path).toBe(true);
      expect(loaderOf(fallthroughRoute(path)!), path).toContain('features/wallet/pages/');
    }
    // A route still to come (while any is left) shows the "not available yet" page.
    const later = ROUTES.find((r) => NOT_YET_AVAILABLE.includes(r.path));
    if (later) expect(loaderOf(later)).toContain('NotAvailablePage');
    expect(loaderOf(fallthroughRoute('/exchange')!)).toContain('ExchangePage');
  });
});
