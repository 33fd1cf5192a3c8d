/**
 * Wire schemas of the app API (TypeBox): the contract between apps/server and apps/web.
 * Paths are relative to `/api/`. Decimals travel as strings ("0.00150000"); times are Unix ms numbers.
 * Every answer is wrapped in `Envelope` (see envelope.ts).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A non-negative decimal string as typed by a user: digits with an optional fraction. */
export const DecimalString = Type.String({ pattern: '^[0-9]{1,30}(\\.[0-9]{1,30})?$', maxLength: 64 });
export const PairsName = Type.String({ pattern: '^[A-Z0-9]{2,12}/[A-Z0-9]{2,12}$', maxLength: 25 });
export const MarketType = Type.Union([Type.Literal('SPOT'), Type.Literal('CONTRACT')]);
export type MarketType = Static<typeof MarketType>;
export const KlinePeriod = Type.Union(['1min', '5min', '15min', '30min', '1hour', '1day', '1week'].map((p) => Type.Literal(p)));
export type KlinePeriod = '1min' | '5min' | '15min' | '30min' | '1hour' | '1day' | '1week';
export const KLINE_PERIOD_MS: Record<KlinePeriod, number> = {
  '1min': 60_000,
  '5min': 300_000,
  '15min': 900_000,
  '30min': 1_800_000,
  '1hour': 3_600_000,
  '1day': 86_400_000,
  '1week': 604_800_000,
};
/** Language of notices and banners: spec's `global` parameter. */
export const GlobalLang = Type.Union([Type.Literal('CHINESE_SIM'), Type.Literal('ENGLISH')]);

// ---------------------------------------------------------------- data/data (public market data)

/** Spec section 3 "Pair" plus the trading rules the app needs to validate an order form. */
export const Pair = Type.Object({
  pairsName: Type.String(), // "BTC/USDT"
  tokenCur: Type.String(), // base, "BTC"
  mainCur: Type.String(), // quote, "USDT"
  type: MarketType,
  price: Type.String(), // last price, at priceDecimals
  chPrice: Type.String(), // CNY price, 2 decimals (or more for tiny prices)
  updown: Type.String(), // 24 h change in percent, 2 decimals, signed: "-1.25"
  volume: Type.String(), // 24 h volume in base
  quoteVolume: Type.String(), // 24 h volume in quote
  high: Type.String(),
  low: Type.String(),
  priceDecimals: Type.Integer(),
  qtyDecimals: Type.Integer(),
  tickSize: Type.String(), // decimal, "0.01"
  stepSize: Type.String(), // decimal, "0.000001"
  minQty: Type.String(),
  minNotional: Type.String(),
  isNew: Type.Boolean(), // listed recently (PROJECT ranking)
  demoData: Type.Boolean(), // price path is a seeded model, not real history
  indexPrice: Type.Optional(Type.String()), // CONTRACT only
});
export type Pair = Static<typeof Pair>;

export const GetPairsByMainCurQuery = Type.Object({ mainCur: Type.String({ maxLength: 12 }), type: MarketType });
export const GetIndexCoinQuery = Type.Object({
  getCoinType: Type.Union([Type.Literal('UPDOWN'), Type.Literal('VOLUME'), Type.Literal('PROJECT'), Type.Literal('TOP')]),
});
export const Banner = Type.Object({ id: Type.Integer(), bannerUrl: Type.String(), title: Type.String(), link: Type.String() });
export type Banner = Static<typeof Banner>;
export const GetBannersQuery = Type.Object({ bannerType: Type.Optional(Type.Literal('DATA_BANNER')), global: Type.Optional(GlobalLang) });
export const Notice = Type.Object({ id: Type.Integer(), title: Type.String(), createTime: Type.Number() });
export type Notice = Static<typeof Notice>;
export const NoticeDetail = Type.Object({ id: Type.Integer(), title: Type.String(), content: Type.String(), createTime: Type.Number() });
export type NoticeDetail = Static<typeof NoticeDetail>;
export const GetNoticesQuery = Type.Object({ noticeType: Type.Optional(Type.Literal('OFFICIAL')), global: Type.Optional(GlobalLang) });
export const GetNoticeDetailQuery = Type.Object({ id: Type.Integer({ minimum: 1 }), global: Type.Optional(GlobalLang) });

/** Coin introduction (spec section 1, quotes). */
export const CoinIntro = Type.Object({
  tokenCur: Type.String(),
  fullName: Type.String(),
  issueTime: Type.String(), // "2009-01-03"
  totalSupply: Type.String(),
  circulatingSupply: Type.String(),
  crowdfundingPrice: Type.String(), // "--" when there was none
  whitePaper: Type.String(), // URL
  website: Type.String(),
  blockExplorer: Type.String(),
  introduction: Type.String(), // in the request's language
});
export type CoinIntro = Static<typeof CoinIntro>;
export const GetCoinInfoQuery = Type.Object({ pairsName: PairsName, type: Type.Optional(MarketType) });
export const CoinInfo = Type.Object({ pair: Pair, coin: CoinIntro });
export type CoinInfo = Static<typeof CoinInfo>;

export const GetKlineQuery = Type.Object({
  pairsName: PairsName,
  type: MarketType,
  period: KlinePeriod,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1500 })),
  endTime: Type.Optional(Type.Integer({ minimum: 0 })), // ms, exclusive
});
export const Kline = Type.Object({
  time: Type.Number(), // bar open, ms
  open: Type.String(),
  high: Type.String(),
  low: Type.String(),
  close: Type.String(),
  volume: Type.String(), // base
});
export type Kline = Static<typeof Kline>;

export const GetDepthQuery = Type.Object({
  pairsName: PairsName,
  type: Type.Optional(MarketType),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
/** [price, quantity] as decimal strings. */
export const DepthRow = Type.Tuple([Type.String(), Type.String()]);
export const Depth = Type.Object({
  pairsName: Type.String(),
  seq: Type.Number(), // depth sequence for WebSocket resync
  bids: Type.Array(DepthRow),
  asks: Type.Array(DepthRow),
});
export type Depth = Static<typeof Depth>;
export const GetTradesQuery = Type.Object({
  pairsName: PairsName,
  type: Type.Optional(MarketType),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
export const PublicTrade = Type.Object({
  id: Type.String(),
  price: Type.String(),
  amount: Type.String(),
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]), // taker side
  time: Type.Number(),
});
export type PublicTrade = Static<typeof PublicTrade>;

// ---------------------------------------------------------------- data/sms (captcha and codes)

/** Spec section 3 slide-captcha challenge, plus the puzzle images of our own slider. */
export const GeetestCodeQuery = Type.Object({
  randomCode: Type.String({ minLength: 1, maxLength: 64 }),
  clientType: Type.Optional(Type.String({ maxLength: 16 })),
});
export const GeetestChallenge = Type.Object({
  gt: Type.String(),
  challenge: Type.String(),
  success: Type.Integer(), // 1
  new_captcha: Type.Boolean(),
  status: Type.Integer(), // 1
  bgImage: Type.String(), // data:image/png;base64 background with the hole, width x height
  pieceImage: Type.String(), // data:image/png;base64 piece, pieceSize x pieceSize
  pieceY: Type.Integer(), // px from the top where the piece starts (at x = 0); it moves in x and y to the gap
  width: Type.Integer(),
  height: Type.Integer(),
  pieceSize: Type.Integer(), // the piece image is pieceSize x pieceSize
});
export type GeetestChallenge = Static<typeof GeetestChallenge>;
/**
 * An answer to a puzzle: where the piece's top-left corner was dropped (image px) and the drag's trail. `y` and
 * `trail` are optional in the schema (the spec's fields stay as they were) but the server refuses an answer without
 * them (captcha_invalid), except in captcha test mode. `trail` = "x,y,t;x,y,t;..." (piece position in image px,
 * ms since the drag began; at most 600 points), ending at (x, y).
 */
export const GeetestVerifyBody = Type.Object({
  challenge: Type.String({ minLength: 1, maxLength: 128 }),
  x: Type.Integer({ minimum: 0, maximum: 1000 }), // piece's left edge in image px
  y: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })), // piece's top edge in image px
  trail: Type.Optional(Type.String({ maxLength: 12_000 })),
  randomCode: Type.Optional(Type.String({ maxLength: 64 })),
});
export const GeetestResult = Type.Object({
  geetest_challenge: Type.String(),
  geetest_validate: Type.String(),
  geetest_seccode: Type.String(),
});
export type GeetestResult = Static<typeof GeetestResult>;
// BIND: to a new address being bound; VERIFY (needs a session): to the caller's own phone or e-mail, `account`
// ignored, `channel` picks which when both are bound (domains/security).
export const CodeType = Type.Union([Type.Literal('REGISTER'), Type.Literal('LOGIN'), Type.Literal('FORGET'), Type.Literal('BIND'), Type.Literal('VERIFY')]);
export const SendCodeBody = Type.Object({
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), // email or phone digits (not for VERIFY)
  areaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })), // phone only, default 86
  type: CodeType,
  channel: Type.Optional(Type.Union([Type.Literal('EMAIL'), Type.Literal('PHONE')])), // VERIFY only
  // The slide puzzle's pass: needed for every type but VERIFY (missing: captcha_required); a VERIFY code goes only to
  // the signed-in user's own proven address and asks for no puzzle.
  geetest_challenge: Type.Optional(Type.String({ maxLength: 128 })),
  geetest_validate: Type.Optional(Type.String({ maxLength: 128 })),
  geetest_seccode: Type.Optional(Type.String({ maxLength: 160 })),
});

// ---------------------------------------------------------------- member/member

export const RegisterBody = Type.Object({
  registerType: Type.Union([Type.Literal('EMAIL'), Type.Literal('PHONE')]),
  mail: Type.Optional(Type.String({ maxLength: 100 })),
  phone: Type.Optional(Type.String({ maxLength: 20 })),
  areaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  code: Type.String({ pattern: '^[0-9]{6}$' }),
  password: Type.String({ minLength: 8, maxLength: 20 }),
  confirmPassword: Type.String({ maxLength: 20 }),
  invitationCode: Type.Optional(Type.String({ maxLength: 32 })),
  agreement: Type.Union([Type.Literal('true'), Type.Literal('1'), Type.Boolean()]),
});
export const Session = Type.Object({ token: Type.String(), userId: Type.String(), expiresAt: Type.Number() });
export type Session = Static<typeof Session>;
export const LoginBody = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 100 }), // email or phone
  areaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  password: Type.String({ minLength: 1, maxLength: 64 }),
  // Required (google_code_required) once the user has Google authenticator bound: a 6-digit TOTP code.
  googleCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', maxLength: 6 })),
  geetest_challenge: Type.Optional(Type.String({ maxLength: 128 })),
  geetest_validate: Type.Optional(Type.String({ maxLength: 128 })),
  geetest_seccode: Type.Optional(Type.String({ maxLength: 160 })),
});
export const ForgetPasswordBody = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 100 }),
  areaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  code: Type.String({ pattern: '^[0-9]{6}$' }),
  password: Type.String({ minLength: 8, maxLength: 20 }),
  confirmPassword: Type.String({ maxLength: 20 }),
  /** the Google Authenticator code, required when the account has it bound (google_code_required without it) */
  googleCode: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', maxLength: 6 })),
});
/** Spec section 3 "User info (member)". cardState 'PASS' = verified; '' none. */
export const Member = Type.Object({
  userId: Type.String(),
  uuid: Type.String(), // shown as UID
  nickName: Type.String(), // '' when not set
  phone: Type.String(),
  mail: Type.String(),
  areaCode: Type.String(),
  cardNo: Type.String(),
  cardState: Type.String(),
});
export type Member = Static<typeof Member>;
export const GetMemberQuery = Type.Object({ member: Type.Optional(Type.String({ maxLength: 32 })) });
export const SetNickNameBody = Type.Object({
  member: Type.Optional(Type.String({ maxLength: 32 })),
  nickName: Type.String({ minLength: 1, maxLength: 20 }),
});
export const FavoriteBody = Type.Object({ pairsName: PairsName, type: Type.Optional(MarketType) });
export const Favorite = Type.Object({ pairsName: Type.String(), type: MarketType });
export type Favorite = Static<typeof Favorite>;
export const MemberCodeQuery = Type.Object({ memberId: Type.Optional(Type.String({ maxLength: 32 })) });
export const MemberCode = Type.Object({ welCode: Type.String() });

// ---------------------------------------------------------------- entrust/entrust (spot orders)

export const OrderSide = Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]);
export const SetEntrustBody = Type.Object({
  pairsName: PairsName,
  side: OrderSide,
  orderType: Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]),
  timeInForce: Type.Optional(Type.Union([Type.Literal('GTC'), Type.Literal('IOC'), Type.Literal('FOK'), Type.Literal('POST_ONLY')])),
  price: Type.Optional(DecimalString), // LIMIT
  amount: Type.Optional(DecimalString), // base quantity (LIMIT, MARKET SELL, MARKET BUY by quantity)
  total: Type.Optional(DecimalString), // quote amount, MARKET BUY only (Binance quoteOrderQty)
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
  /**
   * A conditional order (docs/conditional-orders.md; Binance STOP_LOSS[_LIMIT] / TAKE_PROFIT[_LIMIT]): it waits, not in
   * the book, until the market's last price meets its condition, then works as the LIMIT or MARKET order above. Needs
   * `stopPrice` (a price in the quote asset, on the tick) and/or `trailingDelta` (basis points, integer 10 to 2000);
   * neither field without `stopType`, and not with POST_ONLY.
   */
  stopType: Type.Optional(Type.Union([Type.Literal('STOP_LOSS'), Type.Literal('TAKE_PROFIT'), Type.Literal('')])),
  stopPrice: Type.Optional(DecimalString),
  trailingDelta: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
/** Trigger state of a spot order (Entrust.triggerState): NONE for an ordinary order; PENDING while a conditional order has not triggered (open while status is NEW, or cancelled before its trigger); TRIGGERED once it works as a LIMIT or MARKET order (workingTime set); EXPIRED_AT_TRIGGER when it could not be placed at its trigger (expireReason says why). */
export const TriggerState = Type.Union([Type.Literal('NONE'), Type.Literal('PENDING'), Type.Literal('TRIGGERED'), Type.Literal('EXPIRED_AT_TRIGGER')]);
export type TriggerState = Static<typeof TriggerState>;
/** The role of an order in its OCO list (Entrust.listLeg): '' outside a list. */
export const OcoLegRole = Type.Union([Type.Literal(''), Type.Literal('TAKE_PROFIT'), Type.Literal('STOP_LOSS')]);
export type OcoLegRole = Static<typeof OcoLegRole>;
/**
 * Body of entrust/entrust/setOcoEntrust: an OCO (one-cancels-the-other) list as the Binance app places it, two legs of
 * `amount` (base coin) on one side: a limit maker leg at `price` (take profit) and a stop-limit leg that, once the last
 * price reaches `stopPrice`, works as a LIMIT order at `stopLimitPrice` (stop loss). SELL: price > last price >
 * stopPrice; BUY: price < last price < stopPrice. The funds are held once for the list; when one leg fills (even
 * partly) or triggers, the other is cancelled in the same step. Prices in the quote coin on the market's tick.
 * `clientOrderId` names the list: a retry with it returns the first list. Every field is checked by the service (a
 * missing one has its own message), so all are optional here.
 */
export const SetOcoEntrustBody = Type.Object({
  pairsName: PairsName,
  side: OrderSide,
  amount: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  price: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  stopPrice: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  stopLimitPrice: Type.Optional(Type.Union([DecimalString, Type.Literal('')])),
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
});
/** Body of entrust/entrust/cancelOcoEntrust: one of the caller's OCO lists by its id or its client id; both open legs are cancelled. */
export const CancelOcoEntrustBody = Type.Object({
  orderListId: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
});
export const CancelEntrustBody = Type.Object({
  id: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
  clientOrderId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,36}$' })),
});
export const EntrustStatus = Type.Union(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED'].map((s) => Type.Literal(s)));
export const Entrust = Type.Object({
  id: Type.String(),
  clientOrderId: Type.String(), // '' when none
  pairsName: Type.String(),
  side: OrderSide,
  orderType: Type.Union([Type.Literal('LIMIT'), Type.Literal('MARKET')]),
  timeInForce: Type.String(),
  price: Type.String(), // '' for MARKET
  amount: Type.String(), // '' for MARKET BUY by total
  total: Type.String(), // quote amount of a MARKET BUY by total, else ''
  dealAmount: Type.String(), // filled base
  dealTotal: Type.String(), // filled quote
  avgPrice: Type.String(), // dealTotal / dealAmount at priceDecimals, '' when nothing filled
  fee: Type.String(),
  feeCur: Type.String(),
  status: Type.String(),
  createTime: Type.Number(),
  updateTime: Type.Number(),
  stopType: Type.Union([Type.Literal(''), Type.Literal('STOP_LOSS'), Type.Literal('TAKE_PROFIT')]), // '' when not conditional
  stopPrice: Type.String(), // at priceDecimals, '' when none
  trailingDelta: Type.Integer(), // basis points, 0 when none
  triggerState: TriggerState,
  workingTime: Type.Number(), // Unix ms of the trigger, 0 while pending or not conditional
  expireReason: Type.String(), // '' or the engine's code why it expired at its trigger (insufficient_balance, no_liquidity, notional_below_minimum, market_halted)
  /**
   * A leg of an OCO order list (docs/conditional-orders.md, OCO order lists; Binance orderListId): the list's id, '' on
   * an order outside any list. `listLeg` is the leg's role: TAKE_PROFIT the limit maker leg (or, in a list placed
   * through the Binance API, a take-profit trigger leg), STOP_LOSS the stop-limit leg; '' outside a list. Optional on
   * the wire only for the answers of a server from before OCO lists.
   */
  orderListId: Type.Optional(Type.String()),
  listLeg: Type.Optional(OcoLegRole),
});
export type Entrust = Static<typeof Entrust>;
export const Fill = Type.Object({
  tradeId: Type.String(),
  price: Type.String(),
  amount: Type.String(),
  total: Type.String(),
  fee: Type.String(),
  feeCur: Type.String(),
  role: Type.Union([Type.Literal('MAKER'), Type.Literal('TAKER')]),
  time: Type.Number(),
});
export type Fill = Static<typeof Fill>;
export const EntrustDetail = Type.Intersect([Entrust, Type.Object({ fills: Type.Array(Fill) })]);
export type EntrustDetail = Static<typeof EntrustDetail>;
/**
 * An OCO list (answer of setOcoEntrust and cancelOcoEntrust): its id and client id ('' when none), pair and side,
 * `listStatus` EXECUTING while both legs are open and untouched, ALL_DONE once one filled, triggered or ended and the
 * other was cancelled (Binance listOrderStatus); times in Unix ms; `orders` its legs, the take-profit (limit) leg first.
 */
export const OcoEntrust = Type.Object({
  orderListId: Type.String(),
  clientOrderId: Type.String(),
  pairsName: Type.String(),
  side: OrderSide,
  listStatus: Type.Union([Type.Literal('EXECUTING'), Type.Literal('ALL_DONE')]),
  createTime: Type.Number(),
  updateTime: Type.Number(),
  orders: Type.Array(Entrust),
});
export type OcoEntrust = Static<typeof OcoEntrust>;
export const GetEntrustListQuery = Type.Object({
  type: Type.Union([Type.Literal('current'), Type.Literal('history')]),
  pairsName: Type.Optional(PairsName),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({ records: Type.Array(item), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });
export const EntrustPage = Paged(Entrust);
export type EntrustPage = Static<typeof EntrustPage>;
export const GetEntrustDetailQuery = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,20}$' }) });
/** Query of entrust/entrust/getTradeList: the caller's fills, optionally of one pair, paged like getEntrustList. */
export const GetTradeListQuery = Type.Object({
  pairsName: Type.Optional(PairsName),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
/**
 * One fill of the caller (Binance "Trade history" / myTrades): the trade, the caller's order in it and the
 * caller's side, role and fee. Decimals as strings at the market's precision (price at priceDecimals, amount at
 * qtyDecimals, total at the quote asset's scale, fee at the fee asset's scale); time in Unix ms.
 */
export const UserTrade = Type.Composite([Fill, Type.Object({ orderId: Type.String(), pairsName: Type.String(), side: OrderSide })]);
export type UserTrade = Static<typeof UserTrade>;
export const UserTradePage = Paged(UserTrade);
export type UserTradePage = Static<typeof UserTradePage>;

// ---------------------------------------------------------------- asset/asset

export const AccountType = Type.Union([Type.Literal('ASSETS'), Type.Literal('SPOT'), Type.Literal('CONTRACT'), Type.Literal('OTC')]);
export type AccountType = Static<typeof AccountType>;
/** Spec section 3 "Asset item". current = available + frozen. */
export const AssetItem = Type.Object({
  coin: Type.String(),
  available: Type.String(),
  frozen: Type.String(),
  current: Type.String(),
  convertedUsdt: Type.String(),
  convertedCny: Type.String(),
});
export type AssetItem = Static<typeof AssetItem>;
export const AssetAccount = Type.Object({
  type: AccountType,
  totalUsdt: Type.String(),
  totalCny: Type.String(),
  items: Type.Array(AssetItem), // every listed coin, zero balances included
});
export type AssetAccount = Static<typeof AssetAccount>;
export const Assets = Type.Object({
  totalUsdt: Type.String(),
  totalCny: Type.String(),
  usdtCnyRate: Type.String(),
  accounts: Type.Array(AssetAccount), // ASSETS, SPOT, CONTRACT, OTC in this order
});
export type Assets = Static<typeof Assets>;

// ---------------------------------------------------------------- demo

export const OutboxQuery = Type.Object({ account: Type.String({ minLength: 1, maxLength: 100 }) });
export const OutboxMessage = Type.Object({
  account: Type.String(),
  type: Type.String(),
  code: Type.String(),
  createdAt: Type.Number(),
});
export type OutboxMessage = Static<typeof OutboxMessage>;
/**
 * GET demo/info (public): whether the server runs the demo, and the whole USDT credited to each new
 * account there (a decimal string, e.g. "10000"; "0" when demo mode is off and nothing is credited).
 */
export const DemoInfo = Type.Object({ demoMode: Type.Boolean(), welcomeUsdt: Type.String() });
export type DemoInfo = Static<typeof DemoInfo>;
/** Longest single move of the test clock (minutes): a day, enough for any payment window or appeal wait. */
export const MAX_CLOCK_ADVANCE_MINUTES = 1440;
/** POST demo/clock/advance (test-only control): whole minutes to move the server clock forward, 1 to a day. */
export const AdvanceClockBody = Type.Object({ minutes: Type.Integer({ minimum: 1, maximum: MAX_CLOCK_ADVANCE_MINUTES }) });
export type AdvanceClockBody = Static<typeof AdvanceClockBody>;
/** The server clock after the move: its time now and the whole offset from the wall clock (Unix ms, ms). */
export const ServerClockInfo = Type.Object({ now: Type.Integer(), offsetMs: Type.Integer() });
export type ServerClockInfo = Static<typeof ServerClockInfo>;
