/**
 * The route table: every route of spec section 2. Pages are lazy (lazyPage). A route listed in
 * NOT_YET_AVAILABLE (none today: every route has its screen) renders the shared "not available yet" page.
 * Routes marked `login` redirect to /login?redirect=... when logged out (the balance tab among them, spec
 * section 2).
 *
 * Module paths owned by the quotes/spot/assets engineer (default export = page component):
 *   features/quotes/pages/QuotesPage.tsx, QuotesDetailPage.tsx (the /contract tab: features/contract)
 *   features/spot/pages/TransactionPage.tsx, AllTransactionPage.tsx
 *   features/assets/pages/AssetsPage.tsx, AssetDetailPage.tsx
 */
import type { ComponentType } from 'react';
import { lazyPage } from './lazy-page';

/** One route of the app. */
export interface AppRoute {
  path: string;
  Page: ComponentType;
  /** Shown inside the tab layout (bottom tab bar). */
  tab?: boolean;
  /** Needs a session; logged-out visitors go to /login. */
  login?: boolean;
  /**
   * Not a route object of its own: the `*` route finds it by path (router.tsx `fallthroughRoute`). For the account
   * centre's screens and every route after them, so that home's first match does not compile their regular expressions.
   */
  fallthrough?: boolean;
}

/** The shared "not available yet" page (also the router's for the routes of NOT_YET_AVAILABLE, which may be empty). */
export const NotAvailable = lazyPage(() => import('../features/placeholder/pages/NotAvailablePage'));

// Home dismisses the page's shell itself once its banners are there (the shell shows the first one).
const Home = lazyPage(() => import('../features/home/pages/HomePage'), ['home'], { holdsBootShell: true });
const Quotes = lazyPage(() => import('../features/quotes/pages/QuotesPage'), ['quotes']);
const QuotesDetail = lazyPage(() => import('../features/quotes/pages/QuotesDetailPage'), ['quotes']);
const Kline = lazyPage(() => import('../features/quotes/pages/KlinePage'), ['quotes']);
const OrderManager = lazyPage(() => import('./pages/OrderManagerPage'), ['spot', 'contract']);
// Contract trading (the tab) and all contract orders.
const Contract = lazyPage(() => import('../features/contract/pages/ContractTradePage'), ['contract']);
const AllContract = lazyPage(() => import('../features/contract/pages/AllContractPage'), ['contract']);
const Transaction = lazyPage(() => import('../features/spot/pages/TransactionPage'), ['spot']);
const AllTransaction = lazyPage(() => import('../features/spot/pages/AllTransactionPage'), ['spot']);
const Assets = lazyPage(() => import('../features/assets/pages/AssetsPage'), ['assets']);
const AssetDetail = lazyPage(() => import('../features/assets/pages/AssetDetailPage'), ['assets']);

const Login = lazyPage(() => import('../features/account/pages/LoginPage'), ['account']);
const Register = lazyPage(() => import('../features/account/pages/RegisterPage'), ['account']);
const Forget = lazyPage(() => import('../features/account/pages/ForgetPage'), ['account']);
const ChooseArea = lazyPage(() => import('../features/account/pages/ChooseAreaPage'), ['account']);

const Setting = lazyPage(() => import('../features/settings/pages/SettingPage'), ['settings', 'menu']);
const Langue = lazyPage(() => import('../features/settings/pages/LanguePage'), ['settings', 'menu']);

const NoticeList = lazyPage(() => import('../features/notices/pages/NoticeListPage'), ['notices']);
const NoticeDetail = lazyPage(() => import('../features/notices/pages/NoticeDetailPage'), ['notices']);

// Account centre (security), identity verification and personal centre (kyc), payment methods.
const SECURITY_NS = ['security', 'account'];
const AccountCenter = lazyPage(() => import('../features/security/pages/AccountCenterPage'), SECURITY_NS);
const Bind = lazyPage(() => import('../features/security/pages/BindPage'), SECURITY_NS);
const ChangePassword = lazyPage(() => import('../features/security/pages/ChangePasswordPage'), SECURITY_NS);
const PostPasswordSet = lazyPage(() => import('../features/security/pages/TransPasswordPage'), SECURITY_NS);
const PostPasswordChange = lazyPage(() => import('../features/security/pages/PostPasswordChangePage'), SECURITY_NS);
const PostPasswordForget = lazyPage(() => import('../features/security/pages/PostPasswordForgetPage'), SECURITY_NS);
const GoogleAuthenticator = lazyPage(() => import('../features/security/pages/GoogleAuthenticatorPage'), SECURITY_NS);
const CloseGoogle = lazyPage(() => import('../features/security/pages/CloseGooglePage'), SECURITY_NS);
const Devices = lazyPage(() => import('../features/security/pages/DevicesPage'), SECURITY_NS);
const Activity = lazyPage(() => import('../features/security/pages/ActivityPage'), SECURITY_NS);
// API keys of the Binance-compatible API (the account centre's "API management").
const API_KEYS_NS = ['apikeys', ...SECURITY_NS];
const ApiKeys = lazyPage(() => import('../features/security/pages/ApiKeysPage'), API_KEYS_NS);
const ApiKeyCreate = lazyPage(() => import('../features/security/pages/ApiKeyCreatePage'), API_KEYS_NS);
const PersonalCenter = lazyPage(() => import('../features/kyc/pages/PersonalCenterPage'), ['kyc']);
const Realname = lazyPage(() => import('../features/kyc/pages/RealnamePage'), ['kyc']);
const Realname1 = lazyPage(() => import('../features/kyc/pages/Realname1Page'), ['kyc']);
const Payment = lazyPage(() => import('../features/payment/pages/PaymentPage'), ['payment']);
const BankCard = lazyPage(() => import('../features/payment/pages/BankCardPage'), ['payment']);
const Weixin = lazyPage(() => import('../features/payment/pages/WeixinPage'), ['payment']);
const Zhifubao = lazyPage(() => import('../features/payment/pages/ZhifubaoPage'), ['payment']);

// The wallet (deposit, withdraw, transfer, capital records).
const WALLET_NS = ['wallet', 'account'];
const ChooseCoin = lazyPage(() => import('../features/wallet/pages/ChooseCoinPage'), WALLET_NS);
const CoinCharging = lazyPage(() => import('../features/wallet/pages/CoinChargingPage'), WALLET_NS);
const WithdrawCoin = lazyPage(() => import('../features/wallet/pages/WithdrawCoinPage'), WALLET_NS);
const WithdrawCoinSuccess = lazyPage(() => import('../features/wallet/pages/WithdrawCoinSuccessPage'), WALLET_NS);
const Transfer = lazyPage(() => import('../features/wallet/pages/TransferPage'), WALLET_NS);
const TranferSuccess = lazyPage(() => import('../features/wallet/pages/TranferSuccessPage'), WALLET_NS);
const CapitalRecords = lazyPage(() => import('../features/wallet/pages/CapitalRecordsPage'), WALLET_NS);
const CapitalRecordsDetail = lazyPage(() => import('../features/wallet/pages/CapitalRecordsDetailPage'), WALLET_NS);

// Invitation and rebates (the page shows the rules logged out and asks to log in for the rest).
const Invitation = lazyPage(() => import('../features/invite/pages/InvitationPage'), ['invite']);
// Fixed-term savings (mortgage and redeem) and convert.
const Mortgage = lazyPage(() => import('../features/earn/pages/MortgagePage'), ['earn']);
const MortRecord = lazyPage(() => import('../features/earn/pages/MortRecordPage'), ['earn']);
const RedeemRecord = lazyPage(() => import('../features/earn/pages/RedeemRecordPage'), ['earn']);
const Exchange = lazyPage(() => import('../features/convert/pages/ExchangePage'), ['convert']);
// Proof of reserves (public; verifying asks for a session on the page).
const Reserves = lazyPage(() => import('../features/reserves/pages/ReservesPage'), ['reserves']);

// Peer-to-peer fiat (OTC) trading.
const OtcBuy = lazyPage(() => import('../features/otc/pages/MarketPage'), ['otc']);
const OtcSell = lazyPage(() => import('../features/otc/pages/SellMarketPage'), ['otc']);
const OtcTake = lazyPage(() => import('../features/otc/pages/TransactionDetailPage'), ['otc']);
const OtcOrders = lazyPage(() => import('../features/otc/pages/OtcOrdersPage'), ['otc']);
const OtcOrderDetail = lazyPage(() => import('../features/otc/pages/OrderDetailPage'), ['otc']);
const OtcAppeal = lazyPage(() => import('../features/otc/pages/AppealPage'), ['otc']);
const OtcMerchant = lazyPage(() => import('../features/otc/pages/MerchantAuditPage'), ['otc']);
const OtcAds = lazyPage(() => import('../features/otc/pages/AdvertisementPage'), ['otc']);
const MerchantAgreement = lazyPage(() => import('../features/otc/pages/AgreementPage'), ['otc']);
const Otc365Agreement = lazyPage(() => import('../features/otc/pages/Otc365AgreementPage'), ['otc']);

// Activities (campaigns).
const ActivityCentre = lazyPage(() => import('../features/activity/pages/ActivityPage'), ['activity']);
const ActivityDetails = lazyPage(() => import('../features/activity/pages/ActivityDetailsPage'), ['activity']);
const ActivityHistory = lazyPage(() => import('../features/activity/pages/ActivityHistoryPage'), ['activity']);
// Customer service (the entry and the chat).
const Customer = lazyPage(() => import('../features/support/pages/CustomerPage'), ['support']);
const Kefu = lazyPage(() => import('../features/support/pages/KefuPage'), ['support']);
// The in-app inbox (no login guard in the router, spec section 2: logged out, the page asks to log in).
const Message = lazyPage(() => import('../features/inbox/pages/MessagePage'), ['inbox']);

const About = lazyPage(() => import('../features/about/pages/AboutPage'), ['legal']);
const Agreement = lazyPage(() => import('../features/about/pages/AgreementPage'), ['legal']);
const PrivacyPolicy = lazyPage(() => import('../features/about/pages/PrivacyPage'), ['legal']);

// The help centre and the download page (content edited in the console).
const HelpCenter = lazyPage(() => import('../features/help/pages/HelpCenterPage'), ['help']);
const HelpCategory = lazyPage(() => import('../features/help/pages/HelpCategoryPage'), ['help']);
const HelpArticle = lazyPage(() => import('../features/help/pages/HelpArticlePage'), ['help']);
const HelpSearch = lazyPage(() => import('../features/help/pages/HelpSearchPage'), ['help']);
const HelpPolicies = lazyPage(() => import('../features/help/pages/HelpPoliciesPage'), ['help']);
const DownloadApp = lazyPage(() => import('../features/help/pages/DownloadAppPage'), ['help']);

/** Routes whose screens are not built yet (they show the "not available yet" page); empty: every route has a screen. */
export const NOT_YET_AVAILABLE: readonly string[] = [
  // main routes
];

/**
 * Routes of the app that spec section 2 does not list: the account centre's devices and activity, the
 * proof-of-reserves page and the API keys.
 */
export const EXTRA_ROUTES: readonly string[] = [
  '/accountCenter/devices',
  '/accountCenter/activity',
  '/reserves',
  '/accountCenter/apiKeys',
  '/accountCenter/apiKeys/create',
];

/** Every route of the app (spec section 2, and EXTRA_ROUTES). */
export const ROUTES: readonly AppRoute[] = [
  { path: '/', Page: Home, tab: true },
  { path: '/home', Page: Home, tab: true },
  { path: '/quotes', Page: Quotes, tab: true },
  { path: '/transaction', Page: Transaction, tab: true },
  { path: '/contract', Page: Contract, tab: true },
  { path: '/assets', Page: Assets, tab: true, login: true },
  { path: '/assets/assetsIndex', Page: Assets, tab: true, login: true },

  { path: '/quotes/quotesDetail', Page: QuotesDetail },
  { path: '/transaction/allTransaction', Page: AllTransaction, login: true },
  { path: '/assets/assetDetail', Page: AssetDetail, login: true },

  { path: '/login', Page: Login },
  { path: '/register', Page: Register },
  { path: '/forget', Page: Forget },
  { path: '/chooseArea', Page: ChooseArea },
  { path: '/setting', Page: Setting },
  { path: '/langue', Page: Langue },
  { path: '/noticeList', Page: NoticeList },
  { path: '/noticeDetail', Page: NoticeDetail },
  { path: '/about', Page: About },
  { path: '/agreement', Page: Agreement },
  { path: '/aboutAgreement', Page: PrivacyPolicy },

  // Account centre and payment methods: no router login guard (spec section 2); logged out, each page asks to log in.
  { path: '/accountCenter', Page: AccountCenter, fallthrough: true },
  { path: '/accountCenter/bind', Page: Bind, fallthrough: true },
  { path: '/accountCenter/bindSecond', Page: Bind, fallthrough: true },
  { path: '/accountCenter/change', Page: ChangePassword, fallthrough: true },
  { path: '/accountCenter/postPasswordSet', Page: PostPasswordSet, fallthrough: true },
  { path: '/accountCenter/postPasswordChange', Page: PostPasswordChange, fallthrough: true },
  { path: '/accountCenter/postPasswordForget', Page: PostPasswordForget, fallthrough: true },
  { path: '/accountCenter/googleAuthenticator', Page: GoogleAuthenticator, fallthrough: true },
  { path: '/accountCenter/closeGoogle', Page: CloseGoogle, fallthrough: true },
  { path: '/payment', Page: Payment, fallthrough: true },
  { path: '/payment/bankCard', Page: BankCard, fallthrough: true },
  { path: '/payment/weixin', Page: Weixin, fallthrough: true },
  { path: '/payment/zhifubao', Page: Zhifubao, fallthrough: true },
  // Main routes of the spec: these need a session.
  { path: '/realname', Page: Realname, login: true, fallthrough: true },
  { path: '/realname1', Page: Realname1, login: true, fallthrough: true },
  { path: '/personalCenter', Page: PersonalCenter, login: true, fallthrough: true },
  // Sub-pages of the account centre the spec does not name (sessions and security log, as Binance).
  { path: '/accountCenter/devices', Page: Devices, login: true, fallthrough: true },
  { path: '/accountCenter/activity', Page: Activity, login: true, fallthrough: true },
  // API management (guarded like the other sub-pages the spec does not name).
  { path: '/accountCenter/apiKeys', Page: ApiKeys, login: true, fallthrough: true },
  { path: '/accountCenter/apiKeys/create', Page: ApiKeyCreate, login: true, fallthrough: true },
  { path: '/reserves', Page: Reserves, fallthrough: true },
  // Invitation and rebates (a main route: guarded, as the side menu's "Invite" item).
  { path: '/invitation', Page: Invitation, login: true, fallthrough: true },

  // Fixed-term savings and convert (main routes: guarded, like the rest of the balance screens).
  { path: '/mortgage', Page: Mortgage, login: true, fallthrough: true },
  { path: '/mort_record', Page: MortRecord, login: true, fallthrough: true },
  { path: '/redeem_record', Page: RedeemRecord, login: true, fallthrough: true },
  { path: '/exchange', Page: Exchange, login: true, fallthrough: true },

  // The wallet. Main routes: each needs a session (the router sends logged-out visitors to /login).
  { path: '/assets/chooseCoin', Page: ChooseCoin, login: true, fallthrough: true },
  { path: '/assets/coinCharging', Page: CoinCharging, login: true, fallthrough: true },
  { path: '/assets/withdrawCoin', Page: WithdrawCoin, login: true, fallthrough: true },
  { path: '/assets/withdrawCoinSuccess', Page: WithdrawCoinSuccess, login: true, fallthrough: true },
  { path: '/assets/transfer', Page: Transfer, login: true, fallthrough: true },
  { path: '/assets/tranferSuccess', Page: TranferSuccess, login: true, fallthrough: true },
  { path: '/assets/capitalRecords', Page: CapitalRecords, login: true, fallthrough: true },
  { path: '/assets/capitalRecordsDetail', Page: CapitalRecordsDetail, login: true, fallthrough: true },

  // All contract orders (a main route: needs a session).
  { path: '/contract/allContract', Page: AllContract, login: true, fallthrough: true },

  // OTC. The market and the agreements are public (taking an ad asks to log in); the rest needs a session.
  { path: '/transaction/transactionFabi', Page: OtcBuy, fallthrough: true },
  { path: '/transaction/transactionFabi1', Page: OtcSell, fallthrough: true },
  { path: '/transactionDetail', Page: OtcTake, fallthrough: true },
  { path: '/merchantAgreement', Page: MerchantAgreement, fallthrough: true },
  { path: '/otc365agreement', Page: Otc365Agreement, fallthrough: true },
  { path: '/transaction/otcOrder', Page: OtcOrders, login: true, fallthrough: true },
  { path: '/transaction/orderDetail', Page: OtcOrderDetail, login: true, fallthrough: true },
  { path: '/transaction/appeal', Page: OtcAppeal, login: true, fallthrough: true },
  { path: '/transaction/merchantAudit', Page: OtcMerchant, login: true, fallthrough: true },
  { path: '/advertisement', Page: OtcAds, login: true, fallthrough: true },

  // The k-line chart full screen (public, as the pair detail); the order manager (no login guard in the
  // router, spec section 2: logged out, the page asks to log in).
  { path: '/kline', Page: Kline, fallthrough: true },
  { path: '/orderManger', Page: OrderManager, fallthrough: true },
  // Customer service. Main routes without a guard: /customer is for everyone, the chat asks to log in.
  { path: '/customer', Page: Customer, fallthrough: true },
  { path: '/kefuWebview', Page: Kefu, fallthrough: true },

  // Activities. The centre and the details are public (joining asks to log in); the history needs a session.
  { path: '/activity', Page: ActivityCentre, fallthrough: true },
  { path: '/activityDetails', Page: ActivityDetails, fallthrough: true },
  { path: '/activityHistory', Page: ActivityHistory, login: true, fallthrough: true },
  // The in-app inbox.
  { path: '/message', Page: Message, fallthrough: true },

  // The help centre (public): home, a category (Detail1 ?id=), an article (Detail2 ?id=), search results
  // (Detail3 ?q=), agreements and policies (Detail4, ?slug=); the download page (public).
  { path: '/helpCenter', Page: HelpCenter, fallthrough: true },
  { path: '/helpCenterDetail1', Page: HelpCategory, fallthrough: true },
  { path: '/helpCenterDetail2', Page: HelpArticle, fallthrough: true },
  { path: '/helpCenterDetail3', Page: HelpSearch, fallthrough: true },
  { path: '/helpCenterDetail4', Page: HelpPolicies, fallthrough: true },
  { path: '/downloadApp', Page: DownloadApp, fallthrough: true },

  ...NOT_YET_AVAILABLE.map((path) => ({ path, Page: NotAvailable })),
];
