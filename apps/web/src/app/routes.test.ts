// Proves the route table covers every route of spec section 2 exactly once, that the balance
// tab routes require a session, and that an unknown URL matches the not-found route
// while the routes of later features keep their "not available yet" page.
import { describe, expect, it, vi } from 'vitest';
import { matchRoutes } from 'react-router';

vi.mock('./lazy-page', () => ({ lazyPage: (loader: () => unknown) => Object.assign(() => null, { loader }) }));
const { ROUTES, NOT_YET_AVAILABLE, EXTRA_ROUTES } = await import('./routes');
const { routeObjects, unmatchedPage, fallthroughRoute } = await import('./router');

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

describe('route table', () => {
  it('has every route of spec section 2 (and the few extra sub-pages), once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_ROUTES, ...EXTRA_ROUTES].sort());
    expect(EXTRA_ROUTES.every((p) => p.startsWith('/accountCenter/') || p === '/reserves')).toBe(true);
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
    expect(String((fallthroughRoute('/kline')!.Page as unknown as { loader: () => unknown }).loader)).toContain('KlinePage');
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
      expect(String((fallthroughRoute(path)!.Page as unknown as { loader: () => unknown }).loader), path).toContain('features/wallet/pages/');
    }
    // A route still to come (while any is left) shows the "not available yet" page.
    const later = ROUTES.find((r) => NOT_YET_AVAILABLE.includes(r.path));
    if (later) expect(String((later.Page as unknown as { loader: () => unknown }).loader)).toContain('NotAvailablePage');
    expect(String((fallthroughRoute('/exchange')!.Page as unknown as { loader: () => unknown }).loader)).toContain('ExchangePage');
  });
});
