/**
 * The complete screen gallery (every screen in both languages and themes, docs/screens.md lists
 * every screen with a screenshot link): every route of the web app (apps/web/src/app/routes.tsx and the features'
 * routes.tsx it assembles: spec section 2 and the routes beyond it)
 * at 390x844, device scale 1, in English/day and Chinese/night, into docs/screenshots/routes/<slug>-en-day.png and
 * <slug>-zh-night.png, and docs/screens.md's "## Every screen" table (between its markers) regenerated from the list below.
 *
 * Usage (a demo server already running, CAPTCHA_TEST_MODE=1, e.g. as e2e/playwright.config.ts starts it):
 *   BASE_URL=http://127.0.0.1:8171 npx tsx e2e/screens-all.ts          # every route
 *   BASE_URL=... ONLY=login,kline npx tsx e2e/screens-all.ts           # some slugs (the gallery page is left alone)
 *   README_ONLY=1 npx tsx e2e/screens-all.ts                           # only the gallery table (no server needed)
 * Signs the demo account (demo@exchange.local / Demo12345) in through the API for the screens that need a user, sets
 * the language and theme through the persisted fields of spec section 3 (localStorage currentLangue, theme), and
 * looks up real ids (a notice, a help category and article, an OTC ad) and makes a transfer through the API so the
 * detail screens show real content. Before each capture it waits for the page's loading indicators to go away.
 * Exits non-zero when a route of routes.tsx has no entry here or a capture fails.
 */
import path from 'node:path';
import fs from 'node:fs';
import { chromium, type Page } from '@playwright/test';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs', 'screenshots', 'routes');
const GALLERY = path.join(ROOT, 'docs', 'screens.md');
const DEMO = { account: 'demo@exchange.local', password: 'Demo12345' };
const ONLY = process.env.ONLY ? new Set(process.env.ONLY.split(',')) : null;

/** Real ids and values the detail screens need, looked up on the running server. */
interface Ids {
  noticeId: string;
  helpCategoryId: string;
  helpArticleId: string;
  sellAdId: string;
  transferId: string;
}

/** One screen of the gallery: a route of routes.tsx, with the query it needs. */
interface Screen {
  /** The route exactly as routes.tsx spells it. */
  route: string;
  /** File name stem (docs/screenshots/routes/<slug>-...). */
  slug: string;
  /** What the screen is, a few words (the gallery table). */
  what: string;
  /** The URL to open (path and query); defaults to the route. */
  url?: (ids: Ids) => string;
  /** 'guest' = logged out (login, register ...); default logged in as the demo account. */
  as?: 'guest' | 'user';
  /** A note for the gallery table (e.g. an honest empty state). */
  note?: string;
}

const SCREENS: Screen[] = [
  { route: '/', slug: 'home', what: 'Home (tab)' },
  { route: '/home', slug: 'home-alias', what: 'Home, second path (tab)' },
  { route: '/quotes', slug: 'quotes', what: 'Markets (tab)' },
  { route: '/transaction', slug: 'transaction', what: 'Spot trading (tab)' },
  { route: '/contract', slug: 'contract', what: 'USDT perpetuals trading (tab)' },
  { route: '/assets', slug: 'assets', what: 'Assets (tab)' },
  { route: '/assets/assetsIndex', slug: 'assets-index', what: 'Assets, second path (tab)', url: () => '/assets/assetsIndex?account=SPOT' },
  {
    route: '/quotes/quotesDetail',
    slug: 'quotes-detail',
    what: 'Pair detail, chart and book',
    url: () => '/quotes/quotesDetail?type=bibi&pairsName=BTC%2FUSDT',
  },
  { route: '/transaction/allTransaction', slug: 'all-transaction', what: 'All spot orders' },
  { route: '/assets/assetDetail', slug: 'asset-detail', what: 'One coin of an account', url: () => '/assets/assetDetail?coin=USDT&type=SPOT' },
  { route: '/login', slug: 'login', what: 'Log in', as: 'guest' },
  { route: '/register', slug: 'register', what: 'Sign up', as: 'guest' },
  { route: '/forget', slug: 'forget', what: 'Forgot password', as: 'guest' },
  { route: '/chooseArea', slug: 'choose-area', what: 'Country calling code', as: 'guest' },
  { route: '/setting', slug: 'setting', what: 'Settings' },
  { route: '/langue', slug: 'langue', what: 'Language' },
  { route: '/noticeList', slug: 'notice-list', what: 'Notices' },
  { route: '/noticeDetail', slug: 'notice-detail', what: 'A notice', url: (ids) => `/noticeDetail?id=${ids.noticeId}` },
  { route: '/about', slug: 'about', what: 'About us' },
  { route: '/agreement', slug: 'agreement', what: 'User agreement' },
  { route: '/aboutAgreement', slug: 'about-agreement', what: 'Privacy policy' },
  { route: '/accountCenter', slug: 'account-center', what: 'Account centre (security)' },
  { route: '/accountCenter/bind', slug: 'account-bind', what: 'Bind a phone or email', url: () => '/accountCenter/bind?type=phone' },
  { route: '/accountCenter/bindSecond', slug: 'account-bind-second', what: 'Bind, second step' },
  { route: '/accountCenter/change', slug: 'account-change', what: 'Change login password' },
  { route: '/accountCenter/postPasswordSet', slug: 'post-password-set', what: 'Set fund password' },
  { route: '/accountCenter/postPasswordChange', slug: 'post-password-change', what: 'Change fund password' },
  { route: '/accountCenter/postPasswordForget', slug: 'post-password-forget', what: 'Reset fund password' },
  { route: '/accountCenter/googleAuthenticator', slug: 'google-authenticator', what: 'Bind Google authenticator' },
  { route: '/accountCenter/closeGoogle', slug: 'close-google', what: 'Unbind Google authenticator' },
  { route: '/accountCenter/devices', slug: 'account-devices', what: 'Devices and sessions (extra route)' },
  { route: '/accountCenter/activity', slug: 'account-activity', what: 'Security log (extra route)' },
  { route: '/accountCenter/apiKeys', slug: 'api-keys', what: 'API management, the keys (extra route)' },
  { route: '/accountCenter/apiKeys/create', slug: 'api-key-create', what: 'Create an API key (extra route)' },
  { route: '/payment', slug: 'payment', what: 'Payment methods' },
  { route: '/payment/bankCard', slug: 'payment-bank-card', what: 'Add a bank card' },
  { route: '/payment/weixin', slug: 'payment-weixin', what: 'Add WeChat Pay' },
  { route: '/payment/zhifubao', slug: 'payment-zhifubao', what: 'Add Alipay' },
  { route: '/realname', slug: 'realname', what: 'Identity verification, basic' },
  { route: '/realname1', slug: 'realname1', what: 'Identity verification, advanced' },
  { route: '/personalCenter', slug: 'personal-center', what: 'Personal centre' },
  { route: '/reserves', slug: 'reserves', what: 'Proof of reserves (extra route)' },
  { route: '/invitation', slug: 'invitation', what: 'Invitation and rebates' },
  { route: '/mortgage', slug: 'mortgage', what: 'Fixed savings' },
  { route: '/mort_record', slug: 'mort-record', what: 'My savings locks' },
  { route: '/redeem_record', slug: 'redeem-record', what: 'Redemptions' },
  { route: '/exchange', slug: 'exchange', what: 'Convert' },
  { route: '/assets/chooseCoin', slug: 'choose-coin', what: 'Choose a coin (deposit)', url: () => '/assets/chooseCoin?type=coinCharging' },
  { route: '/assets/coinCharging', slug: 'coin-charging', what: 'Deposit address', url: () => '/assets/coinCharging?coin=USDT' },
  { route: '/assets/withdrawCoin', slug: 'withdraw-coin', what: 'Withdraw', url: () => '/assets/withdrawCoin?coin=USDT' },
  {
    route: '/assets/withdrawCoinSuccess',
    slug: 'withdraw-coin-success',
    what: 'Withdrawal submitted',
    note: "no withdrawal id (a withdrawal needs the fund password and codes): the page's state without one",
  },
  { route: '/assets/transfer', slug: 'transfer', what: 'Transfer between accounts' },
  {
    route: '/assets/tranferSuccess',
    slug: 'transfer-success',
    what: 'Transfer done',
    url: () => '/assets/tranferSuccess?coin=USDT&amount=10&from=SPOT&to=ASSETS',
  },
  { route: '/assets/capitalRecords', slug: 'capital-records', what: 'Capital records (transfers)', url: () => '/assets/capitalRecords?type=transfer' },
  {
    route: '/assets/capitalRecordsDetail',
    slug: 'capital-records-detail',
    what: 'A capital record',
    url: (ids) => `/assets/capitalRecordsDetail?type=transfer&id=${ids.transferId}`,
  },
  { route: '/contract/allContract', slug: 'all-contract', what: 'All contract orders' },
  { route: '/transaction/transactionFabi', slug: 'otc-buy', what: 'P2P market, buy' },
  { route: '/transaction/transactionFabi1', slug: 'otc-sell', what: 'P2P market, sell' },
  { route: '/transactionDetail', slug: 'otc-take', what: 'Take a P2P ad', url: (ids) => `/transactionDetail?adId=${ids.sellAdId}` },
  { route: '/merchantAgreement', slug: 'merchant-agreement', what: 'Merchant agreement' },
  { route: '/otc365agreement', slug: 'otc365-agreement', what: 'P2P agreement' },
  { route: '/transaction/otcOrder', slug: 'otc-orders', what: 'My P2P orders' },
  {
    route: '/transaction/orderDetail',
    slug: 'otc-order-detail',
    what: 'A P2P order',
    note: 'the demo account has no P2P order: the page without an order id',
  },
  { route: '/transaction/appeal', slug: 'otc-appeal', what: 'Appeal a P2P order', note: 'without an order id' },
  { route: '/transaction/merchantAudit', slug: 'otc-merchant', what: 'Become a P2P merchant' },
  { route: '/advertisement', slug: 'advertisement', what: 'My P2P ads' },
  { route: '/kline', slug: 'kline', what: 'Chart full screen', url: () => '/kline?type=bibi&pairsName=BTC%2FUSDT' },
  { route: '/orderManger', slug: 'order-manager', what: 'Order manager' },
  { route: '/customer', slug: 'customer', what: 'Customer service' },
  { route: '/kefuWebview', slug: 'kefu', what: 'Support chat' },
  { route: '/activity', slug: 'activity', what: 'Activity centre', note: 'no activity defined in a fresh demo: the empty list' },
  {
    route: '/activityDetails',
    slug: 'activity-details',
    what: 'An activity',
    note: 'no activity in a fresh demo: the page without an activity id',
  },
  { route: '/activityHistory', slug: 'activity-history', what: 'My activities' },
  { route: '/message', slug: 'message', what: 'Messages (inbox)' },
  { route: '/helpCenter', slug: 'help-center', what: 'Help centre' },
  { route: '/helpCenterDetail1', slug: 'help-category', what: 'Help category', url: (ids) => `/helpCenterDetail1?id=${ids.helpCategoryId}` },
  { route: '/helpCenterDetail2', slug: 'help-article', what: 'Help article', url: (ids) => `/helpCenterDetail2?id=${ids.helpArticleId}` },
  { route: '/helpCenterDetail3', slug: 'help-search', what: 'Help search', url: () => '/helpCenterDetail3?q=USDT' },
  { route: '/helpCenterDetail4', slug: 'help-policies', what: 'Agreements and policies', url: () => '/helpCenterDetail4?slug=privacy' },
  { route: '/downloadApp', slug: 'download-app', what: 'Download the app' },
];

/** What is on the page while it loads (the boot shell, the app's spinners, antd-mobile's loaders, skeletons). */
const BUSY = '#boot, .ex-spinner, .ex-page-loading, .ex-inline-loading, .adm-spin-loading, .adm-dot-loading, .skeleton, .adm-skeleton';

/**
 * The routes of the app (ROUTES, those beyond the spec among them), read from the sources: app/routes.tsx (the app's
 * own routes) and each feature's features/<feature>/routes.tsx, which app/routes.tsx assembles.
 */
function appRoutes(): string[] {
  const web = path.join(ROOT, 'apps', 'web', 'src');
  const src = fs.readFileSync(path.join(web, 'app', 'routes.tsx'), 'utf8');
  const featureFiles = fs
    .readdirSync(path.join(web, 'features'))
    .map((f) => path.join(web, 'features', f, 'routes.tsx'))
    .filter((f) => fs.existsSync(f));
  const paths = [src, ...featureFiles.map((f) => fs.readFileSync(f, 'utf8'))].flatMap((s) => [...s.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!));
  return [...new Set(paths)];
}

/** GET/POST one API path; throws on a failed envelope. */
async function api<T>(p: string, init: { token?: string; userId?: string; body?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.token) Object.assign(headers, { token: init.token, userId: init.userId ?? '' });
  if (init.body) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(`${BASE_URL}/api/${p}`, {
    method: init.body ? 'POST' : 'GET',
    headers,
    body: init.body ? new URLSearchParams(init.body).toString() : undefined,
  });
  const env = (await res.json()) as { status: string; errorMessage: string; result: T };
  if (env.status !== 'SUCCEED') throw new Error(`${p}: ${env.errorMessage}`);
  return env.result;
}

/** Looks the ids up and makes one transfer (so the capital records and their detail show a real row). */
async function lookUp(s: { token: string; userId: string }): Promise<Ids> {
  const notices = await api<{ id: number }[]>('data/data/getNotices');
  const cats = await api<{ id: number; articleCount: number }[]>('data/help/getCategories');
  const cat = cats.find((c) => c.articleCount > 0) ?? cats[0]!;
  const arts = await api<{ articles: { id: number }[] }>(`data/help/getArticles?categoryId=${cat.id}`);
  const ads = await api<{ records: { adId: string }[] }>('otc/otc/getAds?side=BUY&coin=USDT');
  const auth = { token: s.token, userId: s.userId };
  const records = () => api<{ transfers: { id: string }[] }>('asset/wallet/getRecords?type=transfer&page=1&pageSize=5', auth);
  let transfers = (await records()).transfers;
  if (!transfers.length) {
    for (const [from, to] of [
      ['SPOT', 'ASSETS'],
      ['ASSETS', 'SPOT'],
    ]) {
      try {
        await api('asset/wallet/transfer', { ...auth, body: { coin: 'USDT', from: from!, to: to!, amount: '10', clientId: `gallery-${Date.now()}` } });
        break;
      } catch (e) {
        console.error(`transfer ${from}->${to}: ${(e as Error).message}`);
      }
    }
    transfers = (await records()).transfers;
  }
  return {
    noticeId: String(notices[0]?.id ?? ''),
    helpCategoryId: String(cat.id),
    helpArticleId: String(arts.articles[0]?.id ?? ''),
    sellAdId: ads.records[0]?.adId ?? '',
    transferId: transfers[0]?.id ?? '',
  };
}

/** Waits until the page has no loading indicator for a moment (or 30 s), then lets transitions settle. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  const until = Date.now() + 30_000;
  let quiet = 0;
  while (Date.now() < until && quiet < 3) {
    const busy = await page
      .locator(BUSY)
      .filter({ visible: true })
      .count()
      .catch(() => 1);
    quiet = busy ? 0 : quiet + 1;
    await page.waitForTimeout(300);
  }
  await page.waitForTimeout(700);
}

/** The gallery table of docs/screens.md between its markers. */
function readmeTable(): string {
  const rows = SCREENS.map((s) => {
    const notes = [s.as === 'guest' ? 'logged out' : '', s.note ?? ''].filter(Boolean);
    const what = notes.length ? `${s.what} (${notes.join('; ')})` : s.what;
    const link = (v: string) => `[${v}](screenshots/routes/${s.slug}-${v}.png)`;
    return `| \`${s.route}\` | ${what} | ${link('en-day')} | ${link('zh-night')} |`;
  });
  return [
    '<!-- screens-all:begin (generated by `npx tsx e2e/screens-all.ts`) -->',
    `Every route of the app (spec section 2 and the extra routes of \`routes.tsx\`), ${SCREENS.length} screens at 390x844`,
    '(device scale 1) in English/day and Chinese/night, taken from a fresh demo server by `npx tsx e2e/screens-all.ts`',
    '(logged in as the demo account except where the table says logged out).',
    '',
    '| Route | Screen | English, day | Chinese, night |',
    '|---|---|---|---|',
    ...rows,
    '<!-- screens-all:end -->',
  ].join('\n');
}

function writeGallery(): void {
  const text = fs.readFileSync(GALLERY, 'utf8');
  const begin = text.indexOf('<!-- screens-all:begin');
  const endMark = '<!-- screens-all:end -->';
  const block = readmeTable();
  let next: string;
  if (begin >= 0) {
    next = text.slice(0, begin) + block + text.slice(text.indexOf(endMark) + endMark.length);
  } else {
    next = `${text.trimEnd()}\n\n## Every screen\n\n${block}\n`;
  }
  fs.writeFileSync(GALLERY, next);
}

async function main(): Promise<void> {
  const listed = new Set(SCREENS.map((s) => s.route));
  const missing = appRoutes().filter((r) => !listed.has(r));
  if (missing.length) throw new Error(`routes without a gallery entry: ${missing.join(', ')}`);
  if (process.env.README_ONLY === '1') return writeGallery();
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const session = await api<{ token: string; userId: string }>('member/member/login', { body: DEMO });
  const ids = await lookUp(session);
  console.log('ids', ids);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  let failed = 0;
  try {
    for (const [lang, theme] of [
      ['en', 'day'],
      ['zh', 'night'],
    ] as const) {
      for (const as of ['user', 'guest'] as const) {
        const context = await browser.newContext({
          baseURL: BASE_URL,
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 1,
          isMobile: true,
          hasTouch: true,
          locale: lang === 'zh' ? 'zh-CN' : 'en-US',
          serviceWorkers: 'block',
        });
        // The persisted fields of spec section 3, written before the app reads them.
        await context.addInitScript(
          ({ s, th, lg }) => {
            if (s) {
              localStorage.setItem('token', s.token);
              localStorage.setItem('userId', s.userId);
              localStorage.setItem('isLogin', 'true');
              localStorage.setItem('phone', 'demo@exchange.local');
            }
            localStorage.setItem('theme', th);
            localStorage.setItem('currentLangue', lg);
            localStorage.setItem('pairsName', 'BTC/USDT');
          },
          { s: as === 'user' ? session : null, th: theme === 'night' ? 'night' : 'default', lg: lang },
        );
        const page = await context.newPage();
        for (const screen of SCREENS.filter((s) => (s.as ?? 'user') === as && (!ONLY || ONLY.has(s.slug)))) {
          const file = path.join(OUT_DIR, `${screen.slug}-${lang}-${theme}.png`);
          try {
            await page.goto(screen.url ? screen.url(ids) : screen.route, { timeout: 60_000 });
            await settle(page);
            await page.screenshot({ path: file });
            console.log(`saved ${path.relative(ROOT, file)}`);
          } catch (e) {
            failed++;
            console.error(`${screen.slug}-${lang}-${theme}: ${(e as Error).message.split('\n')[0]}`);
          }
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  if (!ONLY) writeGallery();
  if (failed) process.exit(1);
}

await main();
