/**
 * Bad input: every /api route the app serves gets the table of malformed values in every field of its
 * querystring, body or path (missing, wrong type, NaN, Infinity, -1, 0, 1e308, too many decimals, a 1 MB string,
 * injection strings, unknown enum values), as JSON and as a form for POST bodies, with a logged-in user where the
 * route needs one, in zh and in en. Each answer must be a 4xx FAILED envelope with a known errorCode and a message
 * in each language (never a 5xx, never a success), and after the whole table nothing has changed: the engine's
 * state hash, both users' balances in every account, and every database table (row count and checksum).
 *
 * Routes come from the app's own route tree and fields from the OpenAPI document its validating schemas generate,
 * so a new route fails here until it has an entry in ROUTES, and a new field is covered without an edit. A value
 * a field legitimately accepts (a free-text nonce, time 0) is listed in the route's `accepts` with the reason; the
 * answer must then still be an envelope and not a 5xx, and nothing may change. Business rejections of valid-looking
 * input (price off tick, insufficient balance, another user's order, ...) are checked with their exact code.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (see helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { ACCOUNT_KINDS, pow10, type MarketConfig } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from './helpers';
import { ensureMarket } from '../src/platform/engine-host/test-fixtures';
import { PERP as TEST_PERP, ensurePerpMarket, fundContract, tick } from '../src/domains/perp/perp-test-support';
import { totpAt } from '../src/domains/admin/totp';
import {
  SCALAR_VALUES,
  acceptedProblems,
  casesFor,
  fieldsOf,
  inBatches,
  listRoutes,
  rejectionProblems,
  send,
  type Case,
  type Encoding,
  type Envelope,
  type Field,
  type RouteKey,
  type Shot,
} from './bad-input.matrix';

/** An engine-only market with coarse rules, so off-tick, off-step and below-minimum inputs exist. */
const TBAD: MarketConfig = {
  symbol: 'TBAD/USDT',
  base: 'TBAD',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 4,
  tickSize: 5n, // 0.05
  stepSize: 10n, // 0.0010
  minQty: 100n, // 0.0100
  minNotional: 0n, // 10 USDT, set from the USDT scale in beforeAll
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};
const THALT: MarketConfig = { ...TBAD, symbol: 'THLT/USDT', base: 'THLT', status: 'HALTED' };

const ALICE = 'alice@bad-input.test';
const BOB = 'bob@bad-input.test';
const PASSWORD = 'secret-pass-1';

/** A rule the test asserts on: a successful (or failed) answer of the route adds one row to `table` by design. */
interface Records {
  table: string;
  when: (body: Envelope) => boolean;
  why: string;
}

/** How one route is exercised. */
interface RouteSpec {
  /** Behind requireAuth: sent with alice's token; also probed without and with a wrong token. */
  auth: boolean;
  /**
   * Behind the console's requireOperator (domains/admin): sent with the table's admin operator's x-admin-token; also
   * probed without it, with a forged one and with alice's user token (each 401 admin_unauthorized).
   */
  admin?: true;
  /** A well-formed request each bad value is put into (one field at a time). */
  base: () => Record<string, string>;
  /** What the base answers: 'SUCCEED' (a read, or an idempotent no-op) or the errorCode of its rejection; 'skip' = never sent. */
  baseAnswer: string;
  /** Rows of the table a field may accept (the answer may then succeed), with the reason. */
  accepts?: Record<string, { values: readonly string[]; why: string }>;
  /** Extra well-formed but unknown values per field (an unlisted pair), which must be rejected. */
  unknown?: Record<string, string[]>;
  /** Valid-looking input the rules reject: the fields over the base, the errorCode and HTTP status. */
  business?: () => Array<{ data: Record<string, string | undefined>; code: string; status?: number }>;
  /** Table rows the route writes by design even for rejected or read-only requests. */
  records?: Records;
  /** A table of counters the route updates by design for every request it gets that far (rows come and change). */
  counters?: { table: string; why: string };
}

const PAIR = 'BTC/USDT';
const UNKNOWN_PAIR = ['NOPE/USDT', 'BTC/NOPE'];
const every = SCALAR_VALUES;

/** The table's console operator (role admin). */
const ADMIN_OPERATOR = 'admin@bad-input.test';
let adminToken = '';
/** What the console's KYC routes answer for unknown ids (the KYC service is wired: context.ts kyc: () => kyc). */
const ADMIN_KYC_BASE = { list: 'SUCCEED', unknownId: 'admin_kyc_not_found', unknownImage: 'not_found' };

let t: TestApp;
const users: Record<'alice' | 'bob', { userId: string; token: string }> = { alice: { userId: '', token: '' }, bob: { userId: '', token: '' } };
let bobOrderId = '';

/** A well-formed OTC ad (publishAd, updateAd): a fixed price, limits, a payment window of the offered ones. */
const OTC_UPDATE = {
  priceType: 'FIXED',
  price: '7.20',
  quantity: '100',
  minFiat: '100',
  maxFiat: '720',
  paymentWindowMinutes: '15',
  paymentMethodIds: '1',
  remarks: 'bank only',
};
const OTC_AD = { side: 'SELL', ...OTC_UPDATE };

/** A perpetual market whose first bracket allows 20x (leverage 50 is refused) and a mark of 50,000; bob's resting contract order. */
const TBADP = {
  ...TEST_PERP,
  symbol: 'TBDP/USDT',
  base: 'TBDP',
  brackets: [
    { notionalCap: 100_000n * 10n ** 8n, maxLeverage: 20, maintMarginPpm: 5_000 },
    { notionalCap: 1_000_000n * 10n ** 8n, maxLeverage: 10, maintMarginPpm: 10_000 },
  ],
};
let bobPerpOrderId = '';
/** A limit order far outside the 50% band: refused whatever else it carries. */
const PERP_ORDER = { symbol: TBADP.symbol, side: 'BUY', orderType: 'LIMIT', price: '20000', lots: '1' };

const ROUTES: Record<string, RouteSpec> = {
  // ---------------------------------------------------------------- data/data (public)
  'GET /api/data/data/getMainCurs': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/data/data/getPairsByMainCur': {
    auth: false,
    base: () => ({ mainCur: 'USDT', type: 'SPOT' }),
    baseAnswer: 'SUCCEED',
    unknown: { mainCur: ['NOPE', 'usdt'] },
  },
  'GET /api/data/data/getBanners': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/data/data/getNotices': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/data/data/getNoticeDetail': {
    auth: false,
    base: () => ({ id: '1' }),
    baseAnswer: 'SUCCEED',
    unknown: { id: ['999999'] },
    business: () => [{ data: { id: '9007199254740993' }, code: 'value_too_large' }],
  },
  'GET /api/data/data/getIndexCoin': { auth: false, base: () => ({ getCoinType: 'TOP' }), baseAnswer: 'SUCCEED' },
  'GET /api/data/data/getCoinInfo': { auth: false, base: () => ({ pairsName: PAIR }), baseAnswer: 'SUCCEED', unknown: { pairsName: UNKNOWN_PAIR } },
  'GET /api/data/data/getKline': {
    auth: false,
    base: () => ({ pairsName: PAIR, type: 'SPOT', period: '1min' }),
    baseAnswer: 'SUCCEED',
    unknown: { pairsName: UNKNOWN_PAIR },
    accepts: { endTime: { values: ['0'], why: 'an exclusive end at time 0 is valid: no bars before it' } },
  },
  'GET /api/data/data/getDepth': { auth: false, base: () => ({ pairsName: PAIR }), baseAnswer: 'SUCCEED', unknown: { pairsName: UNKNOWN_PAIR } },
  'GET /api/data/data/getTrades': { auth: false, base: () => ({ pairsName: PAIR }), baseAnswer: 'SUCCEED', unknown: { pairsName: UNKNOWN_PAIR } },
  'GET /api/static/banners/:file': { auth: false, base: () => ({ file: 'nope.svg' }), baseAnswer: 'not_found' },
  // ---------------------------------------------------------------- contract/market (public)
  'GET /api/contract/market/getMarkets': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/contract/market/getMarket': {
    auth: false,
    base: () => ({ symbol: PAIR }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: [...UNKNOWN_PAIR, 'ADA/USDT'] },
  },
  'GET /api/contract/market/getDepth': {
    auth: false,
    base: () => ({ symbol: PAIR }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, limit: ['201'] },
  },
  'GET /api/contract/market/getTrades': {
    auth: false,
    base: () => ({ symbol: PAIR }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, limit: ['201'] },
  },
  'GET /api/contract/market/getKlines': {
    auth: false,
    base: () => ({ symbol: PAIR, period: '1min' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, price: ['index'], limit: ['1501'] },
    accepts: { endTime: { values: ['0'], why: 'time 0 is a valid exclusive end (no bar before it)' } },
  },
  'GET /api/contract/market/getIndexComponents': {
    auth: false,
    base: () => ({ symbol: PAIR }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR },
  },
  'GET /api/contract/market/getFundingHistory': {
    auth: false,
    base: () => ({ symbol: PAIR }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, limit: ['1001'] },
    accepts: { endTime: { values: ['0'], why: 'time 0 is a valid exclusive end (no funding before it)' } },
  },

  // ---------------------------------------------------------------- data/sms (public)
  'POST /api/data/sms/geetestCode': {
    auth: false,
    base: () => ({ randomCode: 'abc123' }),
    baseAnswer: 'SUCCEED',
    accepts: {
      randomCode: { values: every, why: "the client's opaque nonce (any text up to 64 characters), stored as a bound parameter" },
      clientType: { values: every, why: 'a free client label up to 16 characters, not interpreted' },
    },
    records: { table: 'captcha_challenges', when: (b) => b.status === 'SUCCEED', why: 'each issued puzzle is a row' },
  },
  'POST /api/data/sms/geetestVerify': { auth: false, base: () => ({ challenge: 'no-such-challenge', x: '10' }), baseAnswer: 'captcha_invalid' },
  'POST /api/data/sms/sendCode': {
    auth: false,
    base: () => ({ account: 'new-user@bad-input.test', type: 'REGISTER', geetest_challenge: 'c', geetest_validate: 'v', geetest_seccode: 's' }),
    baseAnswer: 'captcha_invalid',
  },

  // ---------------------------------------------------------------- demo
  'GET /api/demo/info': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/demo/outbox': {
    auth: false,
    base: () => ({ account: ALICE }),
    baseAnswer: 'SUCCEED',
    accepts: { account: { values: every, why: 'a demo-only read keyed by what the user typed; an unknown key lists nothing' } },
  },
  // The test-only clock control (demo mode, loopback): moves the process clock forward (memory only: no row, no
  // engine state); the base moves it one minute, once. Zero, negative, fractional and over-a-day moves are refused.
  'POST /api/demo/clock/advance': {
    auth: false,
    base: () => ({ minutes: '1' }),
    baseAnswer: 'SUCCEED',
    business: () => [{ data: { minutes: '1441' }, code: 'validation_failed' }],
  },
  // The test-only reference price control (demo mode, loopback): pins a contract's reference price in memory (no row, no
  // engine state); a price of 0 or with more decimals than the market's is refused.
  'POST /api/demo/contract/setReferencePrice': {
    auth: false,
    base: () => ({ symbol: PAIR, price: '90000.5' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR },
    business: () => [
      { data: { price: '90000.123' }, code: 'price_not_on_tick' },
      { data: { price: '0.00' }, code: 'price_required' },
      { data: { price: '10000000000.01' }, code: 'validation_failed' },
      { data: { symbol: 'ADA/USDT' }, code: 'market_not_found' },
    ],
  },
  // The test-only control of the pause on a stale index (demo mode, loopback): silences a contract's index sources in
  // memory (no row, no engine state until the index job's next tick); the base case lets them speak (no change).
  'POST /api/demo/contract/silenceIndexSources': {
    auth: false,
    base: () => ({ symbol: PAIR, silent: 'false' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR },
    accepts: { silent: { values: ['0'], why: 'JSON 0 is read as false (the schema coercion of every route): the sources speak, nothing changes' } },
    business: () => [{ data: { symbol: 'ADA/USDT' }, code: 'market_not_found' }],
  },

  // ---------------------------------------------------------------- member/member
  'POST /api/member/member/register': {
    auth: false,
    base: () => ({ registerType: 'EMAIL', mail: ALICE, code: '123456', password: 'Passw0rd-x', confirmPassword: 'Passw0rd-x', agreement: 'true' }),
    // The code is checked first, so a wrong code does not tell whether the account exists.
    baseAnswer: 'code_invalid',
  },
  'POST /api/member/member/login': {
    auth: false,
    base: () => ({ account: ALICE, password: 'wrong-password-1' }),
    baseAnswer: 'login_failed',
    records: { table: 'login_failures', when: (b) => b.errorCode === 'login_failed', why: 'a failed login is recorded' },
    counters: { table: 'login_counters', why: 'every login attempt is counted per account and per IP before its password is checked (the lockout)' },
  },
  'POST /api/member/member/logout': { auth: true, base: () => ({}), baseAnswer: 'skip' },
  'POST /api/member/member/forgetPassword': {
    auth: false,
    base: () => ({ account: ALICE, code: '123456', password: 'Passw0rd-x', confirmPassword: 'Passw0rd-x' }),
    baseAnswer: 'code_invalid',
  },
  'GET /api/member/member/getMember': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/member/member/setNickName': { auth: true, base: () => ({ nickName: 'another' }), baseAnswer: 'nickname_already_set' },
  'GET /api/member/member/getFavorites': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/member/member/getFavorites': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/member/member/addFavorite': {
    auth: true,
    base: () => ({ pairsName: PAIR }), // already a favourite of alice: an idempotent no-op
    baseAnswer: 'SUCCEED',
    unknown: { pairsName: UNKNOWN_PAIR },
  },
  'POST /api/member/member/cancelFavorite': {
    auth: true,
    base: () => ({ pairsName: 'ETH/USDT' }), // not a favourite: an idempotent no-op
    baseAnswer: 'SUCCEED',
    accepts: { pairsName: { values: UNKNOWN_PAIR, why: 'removing is idempotent and must work for a delisted pair; there is nothing to remove' } },
    unknown: { pairsName: UNKNOWN_PAIR },
  },
  'GET /api/member/member/code': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },

  // ---------------------------------------------------------------- entrust/entrust
  'POST /api/entrust/entrust/setEntrust': {
    auth: true,
    // 1000 x 100 USDT is more than alice's 10,000 USDT: every variant of it is rejected somewhere.
    base: () => ({ pairsName: TBAD.symbol, side: 'BUY', orderType: 'LIMIT', price: '100', amount: '1000' }),
    baseAnswer: 'insufficient_balance',
    unknown: { pairsName: UNKNOWN_PAIR },
    business: () => [
      { data: { price: '100.01', amount: '1' }, code: 'price_not_on_tick' },
      { data: { price: '0', amount: '1' }, code: 'price_not_on_tick' },
      { data: { price: '100', amount: '1.0005' }, code: 'quantity_not_on_step' },
      { data: { price: '100', amount: '0.0010' }, code: 'quantity_below_minimum' },
      { data: { price: '100', amount: '0' }, code: 'quantity_below_minimum' },
      { data: { price: '100', amount: '0.05' }, code: 'notional_below_minimum' },
      { data: { price: '100.123', amount: '1' }, code: 'too_many_decimals' },
      { data: { price: '100', amount: '0.123456789012345678901' }, code: 'too_many_decimals' },
      { data: { price: '100', amount: '999999999999999999999999999999' }, code: 'value_too_large' },
      { data: { price: undefined, amount: '1' }, code: 'price_required' },
      { data: { price: '100', amount: undefined }, code: 'quantity_required' },
      { data: { side: 'SELL', price: '100', amount: '1' }, code: 'insufficient_balance' },
      { data: { orderType: 'MARKET', price: undefined, amount: '1', total: '5' }, code: 'invalid_order' },
      { data: { timeInForce: 'POST_ONLY', price: '200', amount: '0.05' }, code: 'would_take_liquidity' },
      { data: { pairsName: THALT.symbol, price: '100', amount: '1' }, code: 'market_halted' },
      { data: { pairsName: 'NOPE/USDT', price: '100', amount: '1' }, code: 'market_not_found' },
    ],
  },
  'POST /api/entrust/entrust/cancelEntrust': {
    auth: true,
    base: () => ({ id: bobOrderId }), // bob's open order: alice cannot cancel it
    baseAnswer: 'order_not_found',
    business: () => [
      { data: { id: undefined, clientOrderId: 'bob-open-1' }, code: 'order_not_found', status: 404 },
      { data: { id: '18446744073709551616' }, code: 'order_not_found', status: 404 },
    ],
  },
  // An OCO BUY of 1000 at 150 (its larger leg) is more than alice's 10,000 USDT; TBAD has no trade yet, so only the
  // limit price against the trigger price is checked there.
  'POST /api/entrust/entrust/setOcoEntrust': {
    auth: true,
    base: () => ({ pairsName: TBAD.symbol, side: 'BUY', amount: '1000', price: '100', stopPrice: '150', stopLimitPrice: '150' }),
    baseAnswer: 'insufficient_balance',
    unknown: { pairsName: UNKNOWN_PAIR },
    business: () => [
      { data: { amount: '1', price: '100.01' }, code: 'price_not_on_tick' },
      { data: { amount: '1', stopLimitPrice: '150.01' }, code: 'price_not_on_tick' },
      { data: { amount: '1', stopPrice: '150.01' }, code: 'stop_price_not_on_tick' },
      { data: { amount: '1', price: '160' }, code: 'oco_buy_prices' },
      { data: { side: 'SELL', amount: '1' }, code: 'oco_sell_prices' },
      { data: { amount: '0.0010' }, code: 'quantity_below_minimum' },
      { data: { amount: '1.0005' }, code: 'quantity_not_on_step' },
      { data: { price: undefined }, code: 'price_required' },
      { data: { stopPrice: undefined }, code: 'trigger_price_required' },
      { data: { stopLimitPrice: '0' }, code: 'stop_limit_price_required' },
      { data: { amount: undefined }, code: 'quantity_required' },
      { data: { pairsName: THALT.symbol, amount: '1' }, code: 'market_halted' },
      { data: { pairsName: 'NOPE/USDT', amount: '1' }, code: 'market_not_found' },
    ],
  },
  'POST /api/entrust/entrust/cancelOcoEntrust': {
    auth: true,
    base: () => ({ orderListId: bobOrderId }), // an order's id names no list; bob's lists are not alice's either
    baseAnswer: 'order_not_found',
    business: () => [
      { data: { orderListId: undefined, clientOrderId: 'bob-open-1' }, code: 'order_not_found', status: 404 },
      { data: { orderListId: '18446744073709551616' }, code: 'order_not_found', status: 404 },
      { data: { orderListId: undefined }, code: 'validation_failed' },
    ],
  },
  'GET /api/entrust/entrust/getEntrustList': {
    auth: true,
    base: () => ({ type: 'current' }),
    baseAnswer: 'SUCCEED',
    unknown: { pairsName: UNKNOWN_PAIR },
  },
  'GET /api/entrust/entrust/getTradeList': {
    auth: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    unknown: { pairsName: UNKNOWN_PAIR },
  },
  'GET /api/entrust/entrust/getEntrustDetail': { auth: true, base: () => ({ id: bobOrderId }), baseAnswer: 'order_not_found' },

  // ---------------------------------------------------------------- asset/asset
  'GET /api/asset/asset/getAssets': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },

  // ---------------------------------------------------------------- member/upload, member/kyc, member/payment
  // The upload takes multipart only, which this table does not send: here its other bodies (form, JSON, none) are
  // refused; the file cases (renamed text, SVG, 6 MB, 100x100, PNG bomb, truncated JPEG) are in domains/uploads.
  'POST /api/member/upload/image': { auth: true, base: () => ({ purpose: 'ID_FRONT' }), baseAnswer: 'upload_no_file' },
  'GET /api/member/upload/image': { auth: true, base: () => ({ imageId: 'A'.repeat(22) }), baseAnswer: 'not_found' },
  'POST /api/member/kyc/submitBasic': {
    auth: true,
    // Two bad fields (a digit in the name, a wrong check character), so no single value put in makes it valid.
    base: () => ({ realName: 'Alice1', idType: 'ID_CARD', idNumber: '110101199003071230' }),
    baseAnswer: 'real_name_invalid',
    business: () => [
      { data: { realName: '王小明' }, code: 'id_number_invalid' },
      { data: { realName: '王小明', idNumber: '110101209901011239' }, code: 'id_number_invalid' }, // born in 2099
      { data: { realName: '王小明', country: 'XX' }, code: 'country_invalid' },
      { data: { realName: '王小明', idType: 'PASSPORT', idNumber: 'E1' }, code: 'id_number_invalid' },
    ],
  },
  'POST /api/member/kyc/submitAdvanced': {
    auth: true,
    base: () => ({ frontImageId: 'A'.repeat(22), backImageId: 'B'.repeat(22), handheldImageId: 'C'.repeat(22) }),
    baseAnswer: 'kyc_basic_required',
  },
  'GET /api/member/kyc/getKyc': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  // Alice has no verified real name: every payment route refuses her whatever the fields (payment.test.ts has the rest).
  'GET /api/member/payment/getPayments': { auth: true, base: () => ({}), baseAnswer: 'real_name_required' },
  'POST /api/member/payment/addPayment': {
    auth: true,
    base: () => ({ payType: 'BANK', bankName: '中国银行', branch: '北京分行', cardNo: '6222021234567890128', transPassword: '123456' }),
    baseAnswer: 'real_name_required',
  },
  'POST /api/member/payment/updatePayment': {
    auth: true,
    base: () => ({ id: '1', payType: 'ALIPAY', account: 'alice@alipay.test', qrImageId: 'A'.repeat(22), transPassword: '123456' }),
    baseAnswer: 'real_name_required',
  },
  'POST /api/member/payment/setPaymentEnabled': { auth: true, base: () => ({ id: '1', enabled: 'false' }), baseAnswer: 'real_name_required' },
  'POST /api/member/payment/deletePayment': { auth: true, base: () => ({ id: '1', transPassword: '123456' }), baseAnswer: 'real_name_required' },

  // ---------------------------------------------------------------- member/security (domains/security)
  'GET /api/member/security/getSecurity': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/member/security/bindAccount': {
    auth: true,
    // No BIND code was sent to this phone: the code is checked first, so nothing else is looked at.
    base: () => ({ bindType: 'PHONE', phone: '13700137000', areaCode: '86', code: '123456', verifyCode: '123456' }),
    baseAnswer: 'code_invalid',
    business: () => [{ data: { bindType: 'EMAIL', mail: ALICE, phone: undefined, areaCode: undefined }, code: 'account_already_bound' }],
  },
  'POST /api/member/security/changePassword': {
    auth: true,
    base: () => ({ oldPassword: 'wrong-password-1', password: 'Passw0rd-x', confirmPassword: 'Passw0rd-x', verifyCode: '123456' }),
    baseAnswer: 'password_wrong',
    business: () => [
      { data: { password: '12345678', confirmPassword: '12345678' }, code: 'password_invalid' },
      { data: { confirmPassword: 'Passw0rd-y' }, code: 'password_mismatch' },
      { data: { oldPassword: PASSWORD, verifyCode: undefined }, code: 'verify_code_required' },
      { data: { oldPassword: PASSWORD }, code: 'code_invalid' },
    ],
  },
  'POST /api/member/security/setTransPassword': {
    auth: true,
    // alice has no transaction password and no VERIFY code was sent.
    base: () => ({ transPassword: '123456', confirmTransPassword: '123456', verifyCode: '123456' }),
    baseAnswer: 'code_invalid',
    business: () => [
      { data: { transPassword: '１２３４５６', confirmTransPassword: '１２３４５６' }, code: 'trans_password_invalid' },
      { data: { confirmTransPassword: '123457' }, code: 'trans_password_mismatch' },
    ],
  },
  'POST /api/member/security/changeTransPassword': {
    auth: true,
    base: () => ({ oldTransPassword: '123456', transPassword: '654321', confirmTransPassword: '654321' }),
    baseAnswer: 'trans_password_not_set',
  },
  'POST /api/member/security/forgetTransPassword': {
    auth: true,
    base: () => ({ verifyCode: '123456', transPassword: '654321', confirmTransPassword: '654321' }),
    baseAnswer: 'trans_password_not_set',
  },
  'GET /api/member/security/googleSecret': {
    auth: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    counters: { table: 'pending_totp_secrets', why: "asking for the secret to bind stores alice's pending secret (sealed), one row replaced after 10 minutes" },
  },
  'POST /api/member/security/bindGoogle': {
    auth: true,
    // The VERIFY code is checked first (none was sent), whether or not a pending secret exists.
    base: () => ({ googleCode: '123456', verifyCode: '123456' }),
    baseAnswer: 'code_invalid',
  },
  'POST /api/member/security/closeGoogle': { auth: true, base: () => ({ googleCode: '123456', verifyCode: '123456' }), baseAnswer: 'google_not_bound' },
  'GET /api/member/security/getSessions': {
    auth: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    counters: { table: 'sessions', why: "an authenticated request refreshes its session's last-seen time, at most once a minute" },
  },
  'POST /api/member/security/revokeSession': {
    auth: true,
    base: () => ({ id: '999999' }),
    baseAnswer: 'session_not_found',
    // Session 2 is bob's (beforeAll logs in alice, then bob): alice cannot end it.
    business: () => [{ data: { id: '2' }, code: 'session_not_found', status: 404 }],
  },
  'GET /api/member/security/getSecurityLog': {
    auth: true,
    base: () => ({ pageNo: '1', pageSize: '20' }),
    baseAnswer: 'SUCCEED',
    counters: { table: 'security_events', why: "the login route's failed logins of alice (base and table) are entries of her security log" },
  },

  // ---------------------------------------------------------------- admin (operator console, x-admin-token)
  'POST /api/admin/auth/login': {
    auth: false,
    base: () => ({ email: 'nobody@bad-input.test', password: 'wrong-password-1', totp: '123456' }),
    baseAnswer: 'admin_login_failed',
    records: { table: 'audit_log', when: (b) => b.errorCode === 'admin_login_failed', why: 'a failed console login is audited' },
    counters: { table: 'operator_login_failures', why: 'failed console logins are counted per e-mail and per IP (the lockout)' },
  },
  'POST /api/admin/auth/logout': { auth: false, admin: true, base: () => ({}), baseAnswer: 'skip' },
  'GET /api/admin/auth/me': {
    auth: false,
    admin: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    counters: {
      table: 'operator_sessions',
      why: "an operator's request refreshes its console session's last-seen time, at most once a minute (a run over a minute)",
    },
  },
  'GET /api/admin/user/search': {
    auth: false,
    admin: true,
    base: () => ({ q: ALICE }),
    baseAnswer: 'SUCCEED',
    accepts: { q: { values: every, why: 'a read-only lookup by whatever the operator typed; an unknown value finds nobody' } },
  },
  'GET /api/admin/user/detail': {
    auth: false,
    admin: true,
    base: () => ({ userId: users.alice.userId }),
    baseAnswer: 'SUCCEED',
    unknown: { userId: ['999999'] },
  },
  'POST /api/admin/user/freeze': {
    auth: false,
    admin: true,
    base: () => ({ userId: '999999', reason: 'bad input' }),
    baseAnswer: 'user_not_found',
    business: () => [{ data: { userId: users.bob.userId, reason: '' }, code: 'validation_failed' }],
  },
  'POST /api/admin/user/unfreeze': {
    auth: false,
    admin: true,
    // bob is not frozen: every reason, however hostile, is refused for that.
    base: () => ({ userId: users.bob.userId, reason: 'bad input' }),
    baseAnswer: 'admin_not_frozen',
  },
  'GET /api/admin/audit/list': {
    auth: false,
    admin: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    accepts: {
      from: { values: ['0'], why: 'a time range from the epoch is valid: every row' },
      to: { values: ['0'], why: 'a time range up to the epoch is valid: no rows' },
    },
  },
  'GET /api/admin/kyc/list': { auth: false, admin: true, base: () => ({}), baseAnswer: ADMIN_KYC_BASE.list },
  'GET /api/admin/kyc/detail': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: ADMIN_KYC_BASE.unknownId },
  'GET /api/admin/kyc/image': { auth: false, admin: true, base: () => ({ imageId: '999999' }), baseAnswer: ADMIN_KYC_BASE.unknownImage },
  'POST /api/admin/kyc/approve': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: ADMIN_KYC_BASE.unknownId },
  'POST /api/admin/kyc/reject': {
    auth: false,
    admin: true,
    base: () => ({ id: '999999', reasonZh: '照片模糊', reasonEn: 'Blurred photo' }),
    baseAnswer: ADMIN_KYC_BASE.unknownId,
  },
  'GET /api/admin/operator/list': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/admin/operator/create': {
    auth: false,
    admin: true,
    // The table's own operator's e-mail: every name and role variant is refused (invalid, or operator_exists).
    base: () => ({ email: ADMIN_OPERATOR, name: 'Again', role: 'support' }),
    baseAnswer: 'operator_exists',
  },
  'POST /api/admin/operator/disable': { auth: false, admin: true, base: () => ({ operatorId: '999999', disabled: 'true' }), baseAnswer: 'operator_not_found' },
  'POST /api/admin/operator/resetTotp': { auth: false, admin: true, base: () => ({ operatorId: '999999' }), baseAnswer: 'operator_not_found' },
  // ---------------------------------------------------------------- wallet, user side (domains/wallet)
  // Alice is unverified and holds no USDT in her ASSETS account: a withdrawal is kyc_required, a transfer from ASSETS
  // exceeds what she has, whatever else is sent; wallet.test.ts has the successes and the other rules.
  'GET /api/asset/wallet/getCoins': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/asset/wallet/getDepositAddress': {
    auth: true,
    base: () => ({ coin: 'USDT', chain: 'ETH' }),
    baseAnswer: 'SUCCEED',
    unknown: { coin: ['NOPE'], chain: ['TRX'] },
    business: () => [{ data: { coin: 'BTC', chain: 'BTC' }, code: 'chain_not_available' }],
  },
  'GET /api/asset/wallet/getWithdrawInfo': {
    auth: true,
    base: () => ({ coin: 'USDT', chain: 'ETH' }),
    baseAnswer: 'SUCCEED',
    unknown: { coin: ['NOPE'], chain: ['TRX'] },
  },
  'POST /api/asset/wallet/withdraw': {
    auth: true,
    base: () => ({
      coin: 'USDT',
      chain: 'ETH',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '100',
      transPassword: '123456',
      code: '123456',
      clientId: 'bad-w-1',
    }),
    baseAnswer: 'kyc_required',
    unknown: { coin: ['NOPE'], chain: ['TRX'] },
    business: () => [{ data: { coin: 'BTC', chain: 'BTC' }, code: 'chain_not_available' }],
  },
  'POST /api/asset/wallet/cancelWithdraw': { auth: true, base: () => ({ id: '999999' }), baseAnswer: 'withdrawal_not_found' },
  'POST /api/asset/wallet/transfer': {
    auth: true,
    base: () => ({ coin: 'USDT', from: 'ASSETS', to: 'SPOT', amount: '1', clientId: 'bad-t-1' }),
    baseAnswer: 'transfer_amount_exceeds',
    unknown: { coin: ['NOPE'] },
    business: () => [
      { data: { to: 'ASSETS' }, code: 'same_account' },
      { data: { coin: 'BTC', to: 'CONTRACT' }, code: 'transfer_coin_not_allowed' },
      { data: { amount: '0.000000001' }, code: 'too_many_decimals' },
    ],
  },
  'GET /api/asset/wallet/getRecords': {
    auth: true,
    base: () => ({ type: 'transfer' }),
    baseAnswer: 'SUCCEED',
    unknown: { coin: ['NOPE'], page: ['0'], pageSize: ['51'] },
  },
  'GET /api/asset/wallet/getRecordDetail': { auth: true, base: () => ({ type: 'withdrawCoin', id: '999999' }), baseAnswer: 'record_not_found' },
  'GET /api/asset/wallet/getAddressBook': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/asset/wallet/addAddress': {
    auth: true,
    // The zero address: refused, so no value put into another field saves a row.
    base: () => ({ coin: 'USDT', chain: 'ETH', address: '0x0000000000000000000000000000000000000000', label: 'cold' }),
    baseAnswer: 'address_invalid',
    business: () => [
      { data: { address: '0x52908400098527886E0F7030069857D2E4169Ee7' }, code: 'address_invalid' },
      { data: { address: '0x52908400098527886E0F7030069857D2E4169EE7', label: ' ' }, code: 'address_label_required' },
      { data: { coin: 'BTC', chain: 'BTC' }, code: 'chain_not_available' },
    ],
  },
  'POST /api/asset/wallet/deleteAddress': { auth: true, base: () => ({ id: '999999' }), baseAnswer: 'address_book_not_found' },
  // ---------------------------------------------------------------- wallet console (domains/wallet)
  'GET /api/admin/wallet/withdrawals': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { status: ['PENDING'], userId: ['0'] } },
  'POST /api/admin/wallet/approveWithdrawal': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'withdrawal_not_found' },
  'POST /api/admin/wallet/rejectWithdrawal': {
    auth: false,
    admin: true,
    base: () => ({ id: '999999', reasonZh: '地址有风险', reasonEn: 'Risky address' }),
    baseAnswer: 'withdrawal_not_found',
    business: () => [{ data: { reasonZh: ' ' }, code: 'reason_required' }],
  },
  // ---------------------------------------------------------------- chain side (domains/wallet chain.*)
  // This table's app has no chain node: the demo deposit answers not_found whatever it is sent (chain-watcher.test.ts
  // proves its rules on a dev chain); the hot wallet rows carry no on-chain balances.
  'POST /api/asset/wallet/demoDeposit': { auth: true, base: () => ({ coin: 'USDT', chain: 'ETH', amount: '1' }), baseAnswer: 'not_found' },
  'GET /api/admin/wallet/deposits': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { status: ['PENDING'], page: ['0', '01'] } },
  'GET /api/admin/wallet/alerts': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/admin/wallet/hotWallet': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  // ---------------------------------------------------------------- proof of reserves (domains/reserves)
  // No snapshot is taken in this table (the console's base is never sent: it would publish one and write rows by
  // design; reserves.test.ts proves it), so the two reads answer reserves_no_snapshot whatever else they are sent.
  'GET /api/asset/reserves/getRoot': { auth: false, base: () => ({}), baseAnswer: 'reserves_no_snapshot' },
  'GET /api/asset/reserves/getMyProof': { auth: true, base: () => ({}), baseAnswer: 'reserves_no_snapshot' },
  'POST /api/admin/wallet/reservesSnapshot': { auth: false, admin: true, base: () => ({}), baseAnswer: 'skip' },
  // ---------------------------------------------------------------- contract/contract (domains/perp)
  // Alice has USDT in her contract account and a resting order in TBDP/USDT (so her margin mode cannot change) and no
  // position; bob has a resting order there. Every base is a read or a refusal: nothing changes.
  'GET /api/contract/contract/getAccount': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/contract/contract/getPositions': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { symbol: UNKNOWN_PAIR } },
  'GET /api/contract/contract/getSettings': { auth: true, base: () => ({ symbol: TBADP.symbol }), baseAnswer: 'SUCCEED', unknown: { symbol: UNKNOWN_PAIR } },
  'GET /api/contract/contract/leveragePreview': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, leverage: '10' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, leverage: ['126', '0'] },
  },
  'POST /api/contract/contract/setLeverage': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, leverage: '50' }),
    baseAnswer: 'leverage_invalid',
    unknown: { symbol: UNKNOWN_PAIR, leverage: ['126'] },
  },
  'POST /api/contract/contract/setMarginMode': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, marginMode: 'ISOLATED' }),
    baseAnswer: 'position_exists',
    unknown: { symbol: UNKNOWN_PAIR },
  },
  'POST /api/contract/contract/adjustMargin': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, amount: '1' }),
    baseAnswer: 'no_position',
    unknown: { symbol: UNKNOWN_PAIR, amount: ['--1', '1-'] },
    business: () => [{ data: { amount: '0' }, code: 'amount_invalid' }],
  },
  'POST /api/contract/contract/setTpSl': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, takeProfit: '60000' }),
    baseAnswer: 'no_position',
    unknown: { symbol: UNKNOWN_PAIR },
  },
  'POST /api/contract/contract/placeOrder': {
    auth: true,
    base: () => ({ ...PERP_ORDER }),
    baseAnswer: 'price_out_of_band',
    unknown: { symbol: UNKNOWN_PAIR, lots: ['1000000001', '1.5'] },
    business: () => [
      { data: { price: undefined }, code: 'price_required' },
      { data: { lots: undefined }, code: 'lots_required' },
      { data: { quantity: '0.01' }, code: 'invalid_order' },
      { data: { price: '50000.001' }, code: 'too_many_decimals' },
      { data: { price: '50000', takeProfit: '40000' }, code: 'take_profit_invalid' },
      { data: { price: '50000', lots: '50' }, code: 'contract_insufficient_balance' },
      { data: { price: '50000', lots: undefined, quantity: '0' }, code: 'quantity_below_minimum' },
    ],
  },
  'POST /api/contract/contract/closePosition': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol }),
    baseAnswer: 'no_position',
    unknown: { symbol: UNKNOWN_PAIR },
  },
  'POST /api/contract/contract/cancelOrder': {
    auth: true,
    base: () => ({ orderId: '999999' }),
    baseAnswer: 'order_not_found',
    unknown: { orderId: ['99999999999999999999'] },
    business: () => [{ data: { orderId: bobPerpOrderId }, code: 'order_not_found', status: 404 }],
  },
  'GET /api/contract/contract/getOrders': {
    auth: true,
    base: () => ({ tab: 'history' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, pageSize: ['101'] },
  },
  'GET /api/contract/contract/getOrderDetail': {
    auth: true,
    base: () => ({ orderId: '999999' }),
    baseAnswer: 'order_not_found',
    business: () => [{ data: { orderId: bobPerpOrderId }, code: 'order_not_found', status: 404 }],
  },
  'POST /api/contract/contract/placeConditionalOrder': {
    auth: true,
    base: () => ({ symbol: TBADP.symbol, side: 'SELL', type: 'STOP_LIMIT', stopPrice: '40000', lots: '1' }),
    baseAnswer: 'price_required',
    unknown: { symbol: UNKNOWN_PAIR, type: ['STOP', 'LIMIT'], workingType: ['INDEX_PRICE'], lots: ['1000000001', '1.5'] },
    business: () => [
      { data: { stopPrice: undefined }, code: 'stop_price_required' },
      { data: { type: 'STOP_MARKET', price: '40000' }, code: 'limit_price_not_allowed' },
      { data: { type: 'STOP_MARKET', lots: undefined, closePosition: 'true', reduceOnly: 'true' }, code: 'close_position_invalid' },
      { data: { type: 'TRAILING_STOP', stopPrice: undefined, callbackRate: '20' }, code: 'callback_rate_invalid' },
      { data: { price: '40000', lots: undefined }, code: 'lots_required' },
      { data: { price: '40000', stopPrice: '40000.001' }, code: 'too_many_decimals' },
    ],
  },
  'POST /api/contract/contract/cancelConditionalOrder': {
    auth: true,
    base: () => ({ orderId: '999999' }),
    baseAnswer: 'order_not_found',
    unknown: { orderId: ['99999999999999999999'] },
    business: () => [{ data: { orderId: bobPerpOrderId }, code: 'order_not_found', status: 404 }],
  },
  'GET /api/contract/contract/getConditionalOrders': {
    auth: true,
    base: () => ({ tab: 'history' }),
    baseAnswer: 'SUCCEED',
    unknown: { symbol: UNKNOWN_PAIR, tab: ['unmatched'], pageSize: ['101'] },
  },
  'GET /api/contract/contract/getFundingRecords': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { symbol: UNKNOWN_PAIR, pageSize: ['101'] } },
  'GET /api/contract/contract/getLiquidations': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { symbol: UNKNOWN_PAIR, pageSize: ['101'] } },
  // ---------------------------------------------------------------- otc/otc (domains/otc)
  // Alice is not verified and no merchant; no ad or order 999999 exists: every write is refused before the engine
  // (or by it, for an unknown ad), every read is a read.
  'GET /api/otc/otc/getConfig': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/otc/otc/getAds': { auth: false, base: () => ({ side: 'BUY' }), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/otc/otc/getAd': { auth: false, base: () => ({ adId: '999999' }), baseAnswer: 'otc_ad_not_found' },
  'GET /api/otc/otc/getMerchant': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/otc/otc/applyMerchant': { auth: true, base: () => ({ agree: '1', transPassword: '135790' }), baseAnswer: 'real_name_required' },
  'POST /api/otc/otc/leaveMerchant': { auth: true, base: () => ({ transPassword: '135790' }), baseAnswer: 'otc_not_merchant' },
  'GET /api/otc/otc/getMyAds': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/otc/otc/publishAd': { auth: true, base: () => ({ ...OTC_AD }), baseAnswer: 'real_name_required' },
  'POST /api/otc/otc/updateAd': { auth: true, base: () => ({ ...OTC_UPDATE, adId: '999999' }), baseAnswer: 'otc_ad_not_found' },
  'POST /api/otc/otc/setAdStatus': { auth: true, base: () => ({ adId: '999999', status: 'PAUSED' }), baseAnswer: 'otc_ad_not_found' },
  'POST /api/otc/otc/takeAd': { auth: true, base: () => ({ adId: '999999', fiatAmount: '100', clientId: 'bad-take-1' }), baseAnswer: 'real_name_required' },
  'GET /api/otc/otc/getOrders': { auth: true, base: () => ({ tab: 'ALL' }), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/otc/otc/getOrderDetail': { auth: true, base: () => ({ orderId: '999999' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/markPaid': { auth: true, base: () => ({ orderId: '999999', paymentMethodId: '1' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/release': { auth: true, base: () => ({ orderId: '999999', transPassword: '135790' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/cancelOrder': { auth: true, base: () => ({ orderId: '999999' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/appeal': { auth: true, base: () => ({ orderId: '999999', reason: 'OTHER', description: 'not paid' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/cancelAppeal': { auth: true, base: () => ({ orderId: '999999' }), baseAnswer: 'otc_order_not_found' },
  'GET /api/otc/otc/getMessages': { auth: true, base: () => ({ orderId: '999999' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/otc/otc/sendMessage': { auth: true, base: () => ({ orderId: '999999', text: 'hello' }), baseAnswer: 'otc_order_not_found' },
  'GET /api/otc/otc/image': { auth: true, base: () => ({ orderId: '999999', imageId: 'abc' }), baseAnswer: 'otc_order_not_found' },
  'GET /api/admin/otc/merchants': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'POST /api/admin/otc/reviewMerchant': {
    auth: false,
    admin: true,
    base: () => ({ userId: '999999', approve: 'true', reason: 'ok' }),
    baseAnswer: 'otc_not_merchant',
  },
  'POST /api/admin/otc/setMerchantStatus': {
    auth: false,
    admin: true,
    base: () => ({ userId: '999999', status: 'SUSPENDED', reason: 'risk' }),
    baseAnswer: 'otc_not_merchant',
  },
  'GET /api/admin/otc/ads': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'POST /api/admin/otc/closeAd': { auth: false, admin: true, base: () => ({ adId: '999999', reason: 'risk' }), baseAnswer: 'otc_ad_not_found' },
  'GET /api/admin/otc/orders': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/admin/otc/orderDetail': { auth: false, admin: true, base: () => ({ orderId: '999999' }), baseAnswer: 'otc_order_not_found' },
  'POST /api/admin/otc/resolveAppeal': {
    auth: false,
    admin: true,
    base: () => ({ orderId: '999999', outcome: 'RELEASE', reason: 'paid' }),
    baseAnswer: 'otc_order_not_found',
  },
  'GET /api/admin/otc/image': { auth: false, admin: true, base: () => ({ orderId: '999999', imageId: 'abc' }), baseAnswer: 'otc_order_not_found' },
  // ---------------------------------------------------------------- app versions (domains/app-version)
  // android 9.0.0 is published in beforeAll, so a well-formed publish of 1.0.0 is refused (not newer) and changes nothing.
  'GET /api/app/version/latest': { auth: false, base: () => ({ platform: 'android', current: '1.0.0' }), baseAnswer: 'SUCCEED' },
  'GET /api/app/version/bundle': { auth: false, base: () => ({ id: '999999' }), baseAnswer: 'app_version_not_found' },
  'GET /api/admin/appVersion/list': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/admin/appVersion/publish': {
    auth: false,
    admin: true,
    base: () => ({
      platform: 'android',
      version: '1.0.0',
      reasonsZh: '修复问题',
      reasonsEn: 'Fixes',
      force: 'false',
      bundle: 'false',
      downloadUrl: 'https://example.com/app.apk',
    }),
    baseAnswer: 'app_version_not_newer',
    business: () => [
      { data: { version: '9.0.0' }, code: 'app_version_not_newer' },
      { data: { platform: 'web', bundle: 'true', version: '9.0.1' }, code: 'app_bundle_web_only' },
      { data: { reasonsZh: '  ', version: '9.0.1' }, code: 'reason_required' },
    ],
  },
  'POST /api/admin/appVersion/withdraw': {
    auth: false,
    admin: true,
    base: () => ({ id: '999999' }),
    baseAnswer: 'app_version_not_found',
    business: () => [{ data: { id: '999998' }, code: 'app_version_not_found', status: 404 }],
  },
  // ---------------------------------------------------------------- activity/activity (domains/activity)
  'GET /api/activity/activity/list': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/activity/activity/detail': { auth: false, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  'GET /api/activity/activity/leaderboard': { auth: false, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  'GET /api/activity/activity/my': { auth: true, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  'POST /api/activity/activity/join': { auth: true, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  'GET /api/activity/activity/history': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/admin/activity/list': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/admin/activity/detail': { auth: false, admin: true, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  // Two independent faults (an end in the past, prizes above the budget): no single bad value makes the base succeed.
  'POST /api/admin/activity/create': {
    auth: false,
    admin: true,
    base: () => ({
      kind: 'TRADING',
      titleZh: '大赛',
      titleEn: 'Cup',
      rulesZh: '规则',
      rulesEn: 'Rules',
      startTime: '1000',
      endTime: '2000',
      coin: 'USDT',
      scope: 'SPOT',
      prizes: '300,200',
      budget: '100',
    }),
    baseAnswer: 'activity_time_invalid',
  },
  'POST /api/admin/activity/end': { auth: false, admin: true, base: () => ({ activityId: '999999' }), baseAnswer: 'activity_not_found' },
  // ---------------------------------------------------------------- invite/invite (domains/invite)
  'GET /api/invite/invite/rules': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/invite/invite/summary': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/invite/invite/invitees': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/invite/invite/rebates': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/invite/invite/ranking': { auth: true, base: () => ({ month: 'this' }), baseAnswer: 'SUCCEED', unknown: { month: ['next', 'THIS'] } },
  'GET /api/invite/invite/leaderboard': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  // ---------------------------------------------------------------- content (domains/content)
  // The app's routes read published copies only; the console's writes are each refused by a rule of their base
  // (unknown id, unknown category), so nothing changes whatever field is malformed.
  'GET /api/data/help/getCategories': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/data/help/getArticles': { auth: false, base: () => ({ categoryId: '999999' }), baseAnswer: 'content_not_found' },
  'GET /api/data/help/getArticle': { auth: false, base: () => ({ id: '999999' }), baseAnswer: 'content_not_found' },
  'GET /api/data/help/search': {
    auth: false,
    base: () => ({ q: 'deposit' }),
    baseAnswer: 'SUCCEED',
    accepts: { q: { values: every, why: 'free search words (up to 50 characters), matched literally as a bound LIKE parameter with its wildcards escaped' } },
  },
  'GET /api/data/content/getPage': { auth: false, base: () => ({ slug: 'privacy' }), baseAnswer: 'SUCCEED', unknown: { slug: ['about', 'PRIVACY'] } },
  'GET /api/static/content/:file': { auth: false, base: () => ({ file: 'nope.png' }), baseAnswer: 'not_found' },
  'GET /api/admin/content/list': { auth: false, admin: true, base: () => ({ kind: 'notice' }), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/admin/content/detail': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'content_not_found' },
  'POST /api/admin/content/create': {
    auth: false,
    admin: true,
    base: () => ({ kind: 'help_article', parentId: '999999', titleZh: '标题', titleEn: 'Title', bodyZh: '正文', bodyEn: 'Body' }),
    baseAnswer: 'content_category_not_found',
  },
  'POST /api/admin/content/update': {
    auth: false,
    admin: true,
    base: () => ({ id: '999999', titleZh: '标题', titleEn: 'Title', bodyZh: '正文', bodyEn: 'Body' }),
    baseAnswer: 'content_not_found',
  },
  'POST /api/admin/content/publish': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'content_not_found' },
  'POST /api/admin/content/unpublish': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'content_not_found' },
  'POST /api/admin/content/delete': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'content_not_found' },
  // Multipart only (the file cases are in domains/content/content.api.test.ts): the table's other bodies are refused.
  'POST /api/admin/content/uploadImage': { auth: false, admin: true, base: () => ({}), baseAnswer: 'upload_no_file' },
  'GET /api/admin/content/image': { auth: false, admin: true, base: () => ({ file: 'nope.png' }), baseAnswer: 'not_found' },
  // ---------------------------------------------------------------- earn/earn, exchange/convert (domains/earn, domains/convert)
  // No savings product, lock or quote exists; the quote asks for a coin no market has: every write is refused.
  'GET /api/earn/earn/getProducts': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/earn/earn/lock': {
    auth: true,
    base: () => ({ productId: '999999', amount: '100', clientId: 'bad-lock-1' }),
    baseAnswer: 'earn_product_not_found',
  },
  'POST /api/earn/earn/redeem': { auth: true, base: () => ({ lockId: '999999' }), baseAnswer: 'earn_lock_not_found' },
  'GET /api/earn/earn/getLocks': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'], status: ['REDEEMED'] } },
  'GET /api/earn/earn/getRedemptions': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/exchange/convert/getPairs': { auth: false, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/exchange/convert/quote': { auth: true, base: () => ({ from: 'USDT', to: 'NOPE1', amount: '1' }), baseAnswer: 'convert_pair_invalid' },
  'POST /api/exchange/convert/confirm': { auth: true, base: () => ({ quoteId: 'cv000000000000000000000000' }), baseAnswer: 'record_not_found' },
  'GET /api/admin/earn/products': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/admin/earn/saveProduct': {
    auth: false,
    admin: true,
    base: () => ({
      productId: '999999',
      coin: 'NOPE',
      termDays: '7',
      apr: '5',
      minAmount: '10',
      maxAmount: '100',
      userQuota: '100',
      totalQuota: '1000',
      earlyRedeem: 'FORFEIT_INTEREST',
      status: 'ON',
    }),
    baseAnswer: 'asset_not_found',
  },
  // ---------------------------------------------------------------- support (domains/support)
  'GET /api/support/chat/getState': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/support/chat/getMessages': {
    auth: true,
    base: () => ({}),
    baseAnswer: 'SUCCEED',
    accepts: { afterId: { values: ['0'], why: 'after message 0: every message' }, beforeId: { values: ['0'], why: 'before message 0: none' } },
  },
  // A blank text and an image that is not the caller's: each field alone still leaves the other wrong.
  'POST /api/support/chat/sendMessage': { auth: true, base: () => ({ text: '   ', imageId: 'abc' }), baseAnswer: 'support_image_invalid' },
  'GET /api/support/chat/image': { auth: true, base: () => ({ imageId: 'abc' }), baseAnswer: 'not_found' },
  'GET /api/admin/support/conversations': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED', unknown: { pageSize: ['101'] } },
  'GET /api/admin/support/conversation': { auth: false, admin: true, base: () => ({ conversationId: '999999' }), baseAnswer: 'support_conversation_not_found' },
  'POST /api/admin/support/reply': {
    auth: false,
    admin: true,
    base: () => ({ conversationId: '999999', text: 'hello' }),
    baseAnswer: 'support_conversation_not_found',
  },
  'POST /api/admin/support/assign': { auth: false, admin: true, base: () => ({ conversationId: '999999' }), baseAnswer: 'support_conversation_not_found' },
  'POST /api/admin/support/close': { auth: false, admin: true, base: () => ({ conversationId: '999999' }), baseAnswer: 'support_conversation_not_found' },
  'GET /api/admin/support/image': { auth: false, admin: true, base: () => ({ conversationId: '999999', imageId: 'abc' }), baseAnswer: 'not_found' },
  'GET /api/admin/support/agents': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'GET /api/admin/support/cannedReplies': { auth: false, admin: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  // An unknown id and a blank title: without the id the blank title is refused, with a title the id is unknown.
  'POST /api/admin/support/saveCannedReply': {
    auth: false,
    admin: true,
    base: () => ({ id: '999999', title: ' ', textZh: '您好', textEn: 'Hello' }),
    baseAnswer: 'validation_failed',
  },
  'POST /api/admin/support/deleteCannedReply': { auth: false, admin: true, base: () => ({ id: '999999' }), baseAnswer: 'support_canned_not_found' },
  // ---------------------------------------------------------------- member/message (the in-app inbox, domains/inbox)
  'GET /api/member/message/list': {
    auth: true,
    base: () => ({ category: 'TRADE' }),
    baseAnswer: 'SUCCEED',
    unknown: { pageSize: ['101'], category: ['SYSTEM'] },
  },
  'GET /api/member/message/unreadCount': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  'POST /api/member/message/markRead': { auth: true, base: () => ({ id: '999999' }), baseAnswer: 'inbox_message_not_found' },
  // Alice has no unread message in this table's run (no fill, no chain deposit, one log-in device): nothing changes.
  'POST /api/member/message/markAllRead': { auth: true, base: () => ({ category: 'ASSET' }), baseAnswer: 'SUCCEED', unknown: { category: ['SYSTEM'] } }, // ---------------------------------------------------------------- member/apiKey and admin/apiKey (domains/api-keys)
  'GET /api/member/apiKey/list': { auth: true, base: () => ({}), baseAnswer: 'SUCCEED' },
  // No VERIFY code was sent to alice: the form is checked first, then the second factor refuses; no key is made.
  'POST /api/member/apiKey/create': {
    auth: true,
    base: () => ({ label: 'bot', keyType: 'HMAC_SHA256', verifyCode: '123456' }),
    baseAnswer: 'code_invalid',
    accepts: {
      label: { values: every, why: 'a free label of 1-32 characters (stored as a bound parameter); the second factor still refuses' },
      publicKey: { values: every, why: 'not read for an HMAC key; the second factor still refuses' },
    },
    business: () => [
      { data: { keyType: 'ED25519', publicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----' }, code: 'api_key_public_key_invalid' },
      { data: { ipWhitelist: '10.0.0.1, 10.0.0.256' }, code: 'api_key_ip_invalid' },
      { data: { withdraw: 'true' }, code: 'api_key_withdraw_needs_ip' },
    ],
  },
  'POST /api/member/apiKey/delete': { auth: true, base: () => ({ id: '999999' }), baseAnswer: 'api_key_not_found' },
  'GET /api/admin/apiKey/list': { auth: false, admin: true, base: () => ({ userId: '999999' }), baseAnswer: 'not_found' },
  'POST /api/admin/apiKey/delete': { auth: false, admin: true, base: () => ({ id: '999999', reason: 'test' }), baseAnswer: 'api_key_not_found' },
};

/**
 * The projector's cursor is the journal position it has written up to. Commands the engine rejects (insufficient
 * balance, price off tick, ...) are journaled like any other, since the engine decides, so the position moves;
 * what such a command could change is covered by the engine's state hash and the order and trade tables.
 */
const JOURNAL_POSITION_TABLE = 'projection_cursor';

/** Routes whose answers are not the envelope: the OpenAPI pages, and Binance's /api/v3 (its own table: gateways/binance). */
const NOT_ENVELOPE_PREFIXES = ['/api/docs', '/api/v3/'];

function authHeaders(spec: RouteSpec): Record<string, string> {
  if (spec.admin) return { 'x-admin-token': adminToken };
  return spec.auth ? { token: users.alice.token, userId: users.alice.userId } : {};
}

/** Rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
async function rows<T>(query: SQL): Promise<T[]> {
  return ((await t.ctx.db.execute(query)) as { rows: T[] }).rows;
}

/** Everything that must not change: engine state hash, balances of both users, every table's count and checksum. */
async function snapshot(): Promise<{ hash: string; balances: Record<string, string>; tables: Record<string, { n: number; sum: string }> }> {
  await t.ctx.host.projected();
  const engine = t.ctx.host.engine;
  const balances: Record<string, string> = {};
  for (const [name, u] of Object.entries(users)) {
    for (const a of engine.assets()) {
      for (const acct of ACCOUNT_KINDS) {
        const b = engine.balance(u.userId, acct, a.code);
        balances[`${name} ${acct} ${a.code}`] = `${b.available}/${b.frozen}`;
      }
    }
  }
  const list = await rows<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const tables: Record<string, { n: number; sum: string }> = {};
  for (const row of list) {
    const name = row.table_name;
    const r = await rows<{ n: number; sum: string }>(
      sql.raw(`select count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as sum from "${name}" x`),
    );
    const first = r[0]!;
    tables[name] = { n: Number(first.n), sum: first.sum };
  }
  return { hash: engine.stateHash(), balances, tables };
}

async function login(mail: string): Promise<{ userId: string; token: string }> {
  await t.ctx.members.ensureEmailUser(mail, PASSWORD, mail.split('@')[0]!);
  const res = await t.app.inject({ method: 'POST', url: '/api/member/member/login', payload: { account: mail, password: PASSWORD } });
  const body = res.json<Envelope & { result: { userId: string; token: string } }>();
  expect(body.status).toBe('SUCCEED');
  return { userId: body.result.userId, token: body.result.token };
}

beforeAll(async () => {
  // ~4,000 requests from one IP, many with wrong tokens: this table is about answers, not the per-IP budgets.
  t = await makeTestApp(NO_RATE_LIMITS);
  const usdtScale = t.ctx.host.engine.asset('USDT')!.scale;
  await ensureMarket(t.ctx.host, { ...TBAD, minNotional: 10n * pow10(usdtScale) });
  await ensureMarket(t.ctx.host, { ...THALT, minNotional: 10n * pow10(usdtScale) });
  users.alice = await login(ALICE);
  users.bob = await login(BOB);
  const tbadScale = t.ctx.host.engine.asset('TBAD')!.scale;
  expect(
    (await t.ctx.host.submit({ type: 'deposit', userId: users.bob.userId, asset: 'TBAD', account: 'SPOT', amount: 5n * pow10(tbadScale), from: '@chain' }))
      .code,
  ).toBe('ok');
  const sell = await t.app.inject({
    method: 'POST',
    url: '/api/entrust/entrust/setEntrust',
    headers: { token: users.bob.token, userId: users.bob.userId },
    payload: { pairsName: TBAD.symbol, side: 'SELL', orderType: 'LIMIT', price: '200', amount: '1', clientOrderId: 'bob-open-1' },
  });
  expect(sell.json<Envelope>().status).toBe('SUCCEED');
  bobOrderId = sell.json<{ result: { id: string } }>().result.id;
  const op = await t.ctx.admin.createOperator(null, { email: ADMIN_OPERATOR, name: 'Bad input', role: 'admin' });
  const opLogin = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { email: ADMIN_OPERATOR, password: op.password, totp: totpAt(op.totpSecret, Math.floor(Date.now() / 30_000)) },
  });
  expect(opLogin.json<Envelope>().status).toBe('SUCCEED');
  adminToken = opLogin.json<{ result: { token: string } }>().result.token;
  // App versions: android 9.0.0 is live, so the table's publish (1.0.0) is refused as not newer.
  const published = await t.app.inject({
    method: 'POST',
    url: '/api/admin/appVersion/publish',
    headers: { 'x-admin-token': adminToken },
    payload: { platform: 'android', version: '9.0.0', reasonsZh: '修复问题', reasonsEn: 'Fixes' },
  });
  expect(published.json<Envelope>().status, published.body).toBe('SUCCEED');
  const fav = await t.app.inject({
    method: 'POST',
    url: '/api/member/member/addFavorite',
    headers: { token: users.alice.token, userId: users.alice.userId },
    payload: { pairsName: PAIR },
  });
  expect(fav.json<Envelope>().status).toBe('SUCCEED');
  // Contracts: TBDP/USDT at a mark of 50,000; alice and bob funded, each with a resting order.
  await ensurePerpMarket(t.ctx.host, TBADP);
  await tick(t.ctx.host, 5_000_000n, TBADP.symbol);
  for (const u of [users.alice, users.bob]) await fundContract(t.ctx.host, u.userId, 1000n);
  const perpOrder = async (u: { userId: string; token: string }, price: string) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/contract/contract/placeOrder',
      headers: { token: u.token, userId: u.userId },
      payload: { symbol: TBADP.symbol, side: 'BUY', orderType: 'LIMIT', price, lots: '1' },
    });
    expect(r.json<Envelope>().status, r.body).toBe('SUCCEED');
    return r.json<{ result: { orderId: string } }>().result.orderId;
  };
  await perpOrder(users.alice, '45000');
  bobPerpOrderId = await perpOrder(users.bob, '45000');
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('bad input on every /api route', () => {
  let routes: RouteKey[] = [];
  let doc: Parameters<typeof fieldsOf>[0];

  beforeAll(async () => {
    routes = listRoutes(t.app).filter((r) => r.url.startsWith('/api/') && !NOT_ENVELOPE_PREFIXES.some((p) => r.url.startsWith(p)));
    // every route's schema, the console's and the demo's included (the public /api/docs/json leaves those out)
    doc = t.app.swagger() as typeof doc;
  });

  it('has a case list for every route the app serves, and every case list names a served route', () => {
    const served = routes.map((r) => `${r.method} ${r.url}`);
    expect(served.length).toBeGreaterThan(25);
    expect(
      served.filter((k) => !(k in ROUTES)),
      'routes without a case list in ROUTES',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((k) => !served.includes(k)),
      'case lists of routes the app does not serve',
    ).toEqual([]);
    for (const [key, spec] of Object.entries(ROUTES)) {
      const [method, url] = key.split(' ') as [string, string];
      const names = fieldsOf(doc, { method, url }).map((f) => f.name);
      for (const f of [...Object.keys(spec.accepts ?? {}), ...Object.keys(spec.unknown ?? {})]) expect(names, `${key}: ${f}`).toContain(f);
    }
  });

  it('rejects the whole table in zh and en with a 4xx FAILED envelope, and changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const recorded: Record<string, number> = {};
    const record = (spec: RouteSpec, body: Envelope | undefined) => {
      if (spec.records && body && spec.records.when(body)) recorded[spec.records.table] = (recorded[spec.records.table] ?? 0) + 1;
    };
    let sent = 0;

    interface Job {
      key: string;
      spec: RouteSpec;
      shot: Shot;
      /** 'reject': must be a 4xx FAILED pair; 'accept': may succeed; otherwise the exact errorCode expected. */
      expect: 'reject' | 'accept' | { code: string; status?: number };
      /** The route's base request: sent before every other job, so its answer does not depend on what the table's
       * requests did meanwhile (e.g. the login base's login_failed must come before the table's failed logins from
       * the same IP reach the per-IP puzzle threshold, whatever order the pool runs them in under load). */
      base?: true;
    }
    const jobs: Job[] = [];

    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const spec = ROUTES[key]!;
      const fields = fieldsOf(doc, route);
      const headers = authHeaders(spec);
      const encodings: Encoding[] = route.method === 'GET' || !fields.some((f) => f.in === 'body') ? ['query'] : ['json', 'form'];
      const shot = (kase: Case | null, encoding: Encoding, extra: Partial<Shot> = {}): Shot => ({
        route,
        base: spec.base(),
        fields,
        kase,
        encoding,
        headers,
        ...extra,
      });

      // The base request answers what the spec says (so the bad values below are put into a meaningful request).
      if (spec.baseAnswer !== 'skip') {
        jobs.push({ key, spec, shot: shot(null, encodings[0]!), expect: spec.baseAnswer === 'SUCCEED' ? 'accept' : { code: spec.baseAnswer }, base: true });
      }

      // Every field: the table; the 1 MB string once per route (on its first field).
      fields.forEach((field: Field, i) => {
        const accepts = spec.accepts?.[field.name];
        for (const kase of casesFor(field, spec.unknown?.[field.name] ?? [], i === 0)) {
          for (const encoding of encodings) {
            if (encoding === 'json' && kase.value.kind === 'repeat') continue;
            if (encoding !== 'json' && kase.value.kind === 'json') continue;
            const accepted = accepts !== undefined && kase.value.kind !== 'missing' && accepts.values.includes(kase.tableValue);
            jobs.push({ key, spec, shot: shot(kase, encoding), expect: accepted ? 'accept' : 'reject' });
          }
        }
      });

      // Business rejections of well-formed input, with their exact code.
      for (const b of spec.business?.() ?? []) {
        for (const encoding of encodings) {
          const base = { ...spec.base() };
          for (const [k, v] of Object.entries(b.data)) {
            if (v === undefined) delete base[k];
            else base[k] = v;
          }
          jobs.push({ key, spec, shot: { ...shot(null, encoding), base }, expect: { code: b.code, status: b.status } });
        }
      }

      // No route takes a body over 1 MiB, malformed JSON, or a text/plain body.
      if (route.method !== 'GET') {
        jobs.push({
          key,
          spec,
          shot: shot(null, 'json', { rawBody: JSON.stringify({ junk: 'B'.repeat(1024 * 1024 + 16) }) }),
          expect: { code: 'payload_too_large', status: 413 },
        });
        jobs.push({ key, spec, shot: shot(null, 'json', { rawBody: '{"pairsName": "BTC/USDT", ' }), expect: 'reject' });
      } else if (fields.length === 0) {
        // A GET without inputs ignores unknown parameters, even a 1 MB one.
        jobs.push({
          key,
          spec,
          shot: { ...shot(null, 'query'), base: { junk: 'A'.repeat(1_000_000) } },
          expect: spec.baseAnswer === 'SUCCEED' ? 'accept' : 'reject',
        });
      }

      // A path parameter with a malformed percent-encoding never reaches the route.
      if (fields.some((f) => f.in === 'params')) {
        jobs.push({ key, spec, shot: { ...shot(null, 'query'), rawUrl: route.url.replace(/:[A-Za-z0-9_]+/g, '%E0%A4%A') }, expect: 'reject' });
      }

      // Behind requireAuth: no credentials, a wrong token, and alice's token with bob's id.
      if (spec.auth) {
        jobs.push({ key, spec, shot: { ...shot(null, encodings[0]!), headers: {} }, expect: { code: 'unauthorized', status: 401 } });
        jobs.push({
          key,
          spec,
          shot: { ...shot(null, encodings[0]!), headers: { token: 'x'.repeat(64), userId: users.alice.userId } },
          expect: { code: 'SYS.0015', status: 401 },
        });
        jobs.push({
          key,
          spec,
          shot: { ...shot(null, encodings[0]!), headers: { token: users.alice.token, userId: users.bob.userId } },
          expect: { code: 'SYS.0015', status: 401 },
        });
        jobs.push({
          key,
          spec,
          shot: { ...shot(null, encodings[0]!), headers: { token: `' OR 1=1 --`, userId: `1 OR 1=1` } },
          expect: { code: 'SYS.0015', status: 401 },
        });
      }
      // Behind the console's requireOperator: no operator token, a forged one, an injection, and a user's session.
      if (spec.admin) {
        const unauthorized = { code: 'admin_unauthorized', status: 401 };
        jobs.push({ key, spec, shot: { ...shot(null, encodings[0]!), headers: {} }, expect: unauthorized });
        jobs.push({ key, spec, shot: { ...shot(null, encodings[0]!), headers: { 'x-admin-token': 'x'.repeat(43) } }, expect: unauthorized });
        jobs.push({ key, spec, shot: { ...shot(null, encodings[0]!), headers: { 'x-admin-token': `' OR 1=1 --` } }, expect: unauthorized });
        jobs.push({
          key,
          spec,
          shot: { ...shot(null, encodings[0]!), headers: { token: users.alice.token, userId: users.alice.userId } },
          expect: unauthorized,
        });
        jobs.push({ key, spec, shot: { ...shot(null, encodings[0]!), headers: { 'x-admin-token': users.alice.token } }, expect: unauthorized });
      }
    }

    // A method the route does not take is a 4xx envelope too.
    for (const route of routes) {
      const other = route.method === 'GET' ? 'DELETE' : 'PUT';
      jobs.push({
        key: `${route.method} ${route.url}`,
        spec: ROUTES[`${route.method} ${route.url}`]!,
        shot: { route: { ...route, method: other }, base: {}, fields: [], kase: null, encoding: 'query', headers: {} },
        expect: 'reject',
      });
    }

    const runJob = async (job: Job) => {
      const [zh, en] = [await send(t.app, job.shot, 'zh'), await send(t.app, job.shot, 'en')];
      sent += 2;
      const what = `${job.key} ${job.shot.kase ? `${job.shot.kase.field}=${job.shot.kase.label}` : JSON.stringify(job.shot.base).slice(0, 80)} (${job.shot.encoding})`;
      const bodies = [zh, en].map((r) => {
        try {
          return r.json<Envelope>();
        } catch {
          return undefined;
        }
      });
      for (const b of bodies) record(job.spec, b);
      let problems: string[];
      if (job.expect === 'accept') {
        problems = [...acceptedProblems(zh), ...acceptedProblems(en)];
        if (bodies[0]?.status === 'FAILED' || bodies[1]?.status === 'FAILED') problems.push(...rejectionProblems(zh, en, job.spec.records !== undefined));
      } else {
        problems = rejectionProblems(zh, en, job.spec.records !== undefined);
        if (typeof job.expect === 'object' && problems.length === 0) {
          const want = job.expect;
          if (bodies[1]!.errorCode !== want.code) problems.push(`errorCode ${bodies[1]!.errorCode} (want ${want.code}): ${bodies[1]!.errorMessage}`);
          if (want.status !== undefined && en.statusCode !== want.status) problems.push(`HTTP ${en.statusCode} (want ${want.status})`);
        }
      }
      if (problems.length > 0) failures.push(`${what}: ${problems.join('; ')}`);
    };
    await inBatches(
      jobs.filter((j) => j.base),
      8,
      runJob,
    );
    await inBatches(
      jobs.filter((j) => !j.base),
      8,
      runJob,
    );

    const after = await snapshot();
    expect(failures, `${failures.length} of ${jobs.length} bad requests were not answered properly`).toEqual([]);
    expect(after.hash, 'engine state hash').toBe(before.hash);
    expect(after.balances).toEqual(before.balances);
    const changed: string[] = [];
    for (const [name, b] of Object.entries(before.tables)) {
      const a = after.tables[name];
      if (!a) changed.push(`${name}: gone`);
      else if (name === JOURNAL_POSITION_TABLE) continue;
      else if (Object.values(ROUTES).some((s) => s.counters?.table === name)) continue;
      else if (Object.values(ROUTES).some((s) => s.records?.table === name)) {
        if (a.n !== b.n + (recorded[name] ?? 0)) changed.push(`${name}: ${a.n} rows, want ${b.n} + ${recorded[name] ?? 0} written by design`);
      } else if (a.n !== b.n || a.sum !== b.sum) changed.push(`${name}: ${b.n} -> ${a.n} rows, checksum ${a.sum === b.sum ? 'same' : 'differs'}`);
    }
    expect(changed, 'database tables changed by bad requests').toEqual([]);
    expect(Object.keys(after.tables).sort()).toEqual(Object.keys(before.tables).sort());
    expect(sent).toBe(jobs.length * 2);
    // One test sends the whole table twice: 80-100 s on PGlite, over 240 s on PostgreSQL beside the journeys on 2 cores.
  }, 600_000);
});
