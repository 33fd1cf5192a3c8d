/**
 * Wire schemas of peer-to-peer fiat trading (OTC; spec sections 1 "fiat trading", 2 "fiat order screens",
 * routes /transaction/otcOrder, /transaction/orderDetail, /transaction/appeal, /transaction/merchantAudit,
 * /transaction/transactionFabi(1), /advertisement, /merchantAgreement, /otc365agreement, /transactionDetail; 3 "fiat
 * order"; 4 "fiat order states"; 6 "merchant"). The engine's rules are packages/core/src/otc/types.ts.
 *
 * Routes: app API style under `/api/otc/otc/...` (OTC_PATHS), the console's under `/api/admin/otc/...`
 * (OTC_ADMIN_PATHS), envelope, headers token/userId, POST bodies form-encoded or JSON. Units: the coin (USDT) as a
 * decimal string at its scale (8); fiat (CNY) amounts and prices as decimal strings with 2 decimals ("7.20" CNY per
 * USDT, "720.00" CNY); times Unix ms (0 when not applicable); percentages as strings ("101.50" = 101.5% of the index).
 *
 * Sides: an ad's `side` is the MERCHANT's (SELL = the merchant sells USDT, users buy from it). The app's market list
 * is asked by the USER's side: `side=BUY` lists SELL ads. An order's `mySide` is the caller's side in it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString, Paged } from './schemas';

/** Paths of the app's OTC API, relative to `/api/`. */
export const OTC_PATHS = {
  /** GET, public: settings and the current index price */
  getConfig: 'otc/otc/getConfig',
  /** GET, public: online ads for a user side, best price first */
  getAds: 'otc/otc/getAds',
  /** GET, public: one ad */
  getAd: 'otc/otc/getAd',
  /** GET: the caller's merchant record and stats */
  getMerchant: 'otc/otc/getMerchant',
  /** POST: apply to be a merchant (agreement accepted, transaction password) */
  applyMerchant: 'otc/otc/applyMerchant',
  /** POST: stop being a merchant (deposit released) */
  leaveMerchant: 'otc/otc/leaveMerchant',
  /** GET: the caller's ads (every status) */
  getMyAds: 'otc/otc/getMyAds',
  publishAd: 'otc/otc/publishAd',
  updateAd: 'otc/otc/updateAd',
  setAdStatus: 'otc/otc/setAdStatus',
  /** POST: take an ad (creates an order) */
  takeAd: 'otc/otc/takeAd',
  /** GET: the caller's orders by tab */
  getOrders: 'otc/otc/getOrders',
  getOrderDetail: 'otc/otc/getOrderDetail',
  markPaid: 'otc/otc/markPaid',
  release: 'otc/otc/release',
  cancelOrder: 'otc/otc/cancelOrder',
  appeal: 'otc/otc/appeal',
  cancelAppeal: 'otc/otc/cancelAppeal',
  /** GET: an order's chat messages after an id */
  getMessages: 'otc/otc/getMessages',
  /** POST: a chat message (text or an uploaded image) */
  sendMessage: 'otc/otc/sendMessage',
} as const;

/** Paths of the console's OTC API, relative to `/api/` (operator session, roles, every action audited). */
export const OTC_ADMIN_PATHS = {
  merchants: 'admin/otc/merchants',
  reviewMerchant: 'admin/otc/reviewMerchant',
  setMerchantStatus: 'admin/otc/setMerchantStatus',
  ads: 'admin/otc/ads',
  closeAd: 'admin/otc/closeAd',
  orders: 'admin/otc/orders',
  orderDetail: 'admin/otc/orderDetail',
  resolveAppeal: 'admin/otc/resolveAppeal',
} as const;

export const OtcSide = Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]);
export type OtcSide = Static<typeof OtcSide>;
export const OtcPriceType = Type.Union([Type.Literal('FIXED'), Type.Literal('FLOAT')]);
export type OtcPriceType = Static<typeof OtcPriceType>;
export const OtcAdStatus = Type.Union([Type.Literal('ONLINE'), Type.Literal('PAUSED'), Type.Literal('CLOSED')]);
export type OtcAdStatus = Static<typeof OtcAdStatus>;
/** 'NONE' = never applied. */
export const OtcMerchantState = Type.Union([
  Type.Literal('NONE'),
  Type.Literal('PENDING'),
  Type.Literal('ACTIVE'),
  Type.Literal('SUSPENDED'),
  Type.Literal('REJECTED'),
  Type.Literal('LEFT'),
]);
export type OtcMerchantState = Static<typeof OtcMerchantState>;
/** Spec section 4: pending payment, pending release (PAID), completed, cancelled, and under appeal. */
export const OtcOrderState = Type.Union([
  Type.Literal('PENDING_PAYMENT'),
  Type.Literal('PAID'),
  Type.Literal('APPEAL'),
  Type.Literal('COMPLETED'),
  Type.Literal('CANCELLED'),
]);
export type OtcOrderState = Static<typeof OtcOrderState>;
export const OtcEndReason = Type.Union([
  Type.Literal(''),
  Type.Literal('RELEASED'),
  Type.Literal('BUYER_CANCELLED'),
  Type.Literal('TIMEOUT'),
  Type.Literal('APPEAL_RELEASED'),
  Type.Literal('APPEAL_RETURNED'),
]);
/** The payment method types of member/payment. */
export const OtcPayType = Type.Union([Type.Literal('BANK'), Type.Literal('WECHAT'), Type.Literal('ALIPAY')]);
export type OtcPayType = Static<typeof OtcPayType>;
/** Fiat amount or price: up to 2 decimals. */
export const FiatString = Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]{1,2})?$', maxLength: 18 });
const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const ClientId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Page = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

// ---------------------------------------------------------------- settings, ads

/** Answer of getConfig. */
export const OtcConfigView = Type.Object({
  enabled: Type.Boolean(),
  coin: Type.String(),
  fiat: Type.String(),
  /** the security deposit a merchant application holds, coin */
  merchantDeposit: Type.String(),
  /** minutes after "I have paid" before an appeal may be opened */
  appealAfterMinutes: Type.Integer(),
  /** buyer cancels a day before taking is barred */
  cancelLimit: Type.Integer(),
  /** the payment time limits an ad may choose, minutes (default 15) */
  paymentWindows: Type.Array(Type.Integer()),
  /** the index price of the coin in fiat (CNY per USDT), what floating ads are priced from */
  indexPrice: FiatString,
});
export type OtcConfigView = Static<typeof OtcConfigView>;

/** A merchant as a taker sees it next to an ad (Binance P2P: name, orders and completion rate in 30 days). */
export const OtcMerchantBrief = Type.Object({
  userId: Type.String(),
  nickName: Type.String(),
  /** completed orders in the last 30 days */
  orders30d: Type.Integer(),
  /** completed / (completed + cancelled) in 30 days, percent "98.50"; "0.00" without orders */
  completionRate30d: Type.String(),
  /** average seconds from "paid" to release in 30 days; 0 without data */
  avgReleaseSeconds: Type.Integer(),
});
export type OtcMerchantBrief = Static<typeof OtcMerchantBrief>;

export const OtcAd = Type.Object({
  adId: Type.String(),
  side: OtcSide,
  coin: Type.String(),
  fiat: Type.String(),
  priceType: OtcPriceType,
  /** the price now (a FLOAT ad's from the current index), fiat per coin */
  price: FiatString,
  /** FLOAT: the percentage of the index ("101.50"); '' for FIXED */
  floatPercent: Type.String(),
  /** coin still offered */
  remaining: Type.String(),
  total: Type.String(),
  /** per-order fiat limits */
  minFiat: FiatString,
  maxFiat: FiatString,
  paymentWindowMinutes: Type.Integer(),
  /** the payment method types accepted (the merchant's for a SELL ad) */
  payTypes: Type.Array(OtcPayType),
  /** the merchant's terms (free text, shown before taking) */
  remarks: Type.String(),
  status: OtcAdStatus,
  merchant: OtcMerchantBrief,
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type OtcAd = Static<typeof OtcAd>;

/** Query of getAds: the user's side (BUY lists SELL ads, cheapest first; SELL lists BUY ads, dearest first). */
export const GetOtcAdsQuery = Type.Object({
  side: OtcSide,
  /** only ads whose limits include this fiat amount */
  amount: Type.Optional(FiatString),
  payType: Type.Optional(OtcPayType),
  ...Page,
});
export const OtcAdPage = Paged(OtcAd);
export type OtcAdPage = Static<typeof OtcAdPage>;
export const AdIdQuery = Type.Object({ adId: Id });

// ---------------------------------------------------------------- merchants

/** Answer of getMerchant: the caller's merchant record. */
export const OtcMerchantView = Type.Object({
  state: OtcMerchantState,
  /** deposit held now, coin */
  deposit: Type.String(),
  /** the deposit an application needs, coin */
  requiredDeposit: Type.String(),
  /** the operator's reason of the last review or suspension ('' none) */
  reason: Type.String(),
  stats: OtcMerchantBrief,
  appliedAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type OtcMerchantView = Static<typeof OtcMerchantView>;

/**
 * Body of applyMerchant: the merchant agreement (/merchantAgreement) accepted, the transaction password; the caller
 * must be verified (KYC), have an enabled payment method and the deposit in the OTC account.
 */
export const ApplyMerchantBody = Type.Object({
  agree: Type.Union([Type.Literal('1'), Type.Literal(true)]),
  transPassword: Type.String({ maxLength: 6 }),
});
export const LeaveMerchantBody = Type.Object({ transPassword: Type.String({ maxLength: 6 }) });

/** Body of publishAd and updateAd (updateAd adds adId; its `quantity` is the new remaining quantity). */
export const PublishAdBody = Type.Object({
  side: OtcSide,
  priceType: OtcPriceType,
  /** FIXED: fiat per coin */
  price: Type.Optional(FiatString),
  /** FLOAT: percent of the index, 50.00 .. 200.00 */
  floatPercent: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,2})?$', maxLength: 6 })),
  quantity: DecimalString,
  minFiat: FiatString,
  maxFiat: FiatString,
  /** one of getConfig's paymentWindows */
  paymentWindowMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  /** the caller's enabled payment method ids (member/payment), comma-separated or an array; at least one */
  paymentMethodIds: Type.Union([Type.String({ maxLength: 200 }), Type.Array(Id, { maxItems: 10 })]),
  remarks: Type.Optional(Type.String({ maxLength: 500 })),
  clientId: Type.Optional(ClientId),
});
export type PublishAdBody = Static<typeof PublishAdBody>;
export const UpdateAdBody = Type.Composite([Type.Omit(PublishAdBody, ['side', 'clientId']), Type.Object({ adId: Id })]);
export type UpdateAdBody = Static<typeof UpdateAdBody>;
export const SetAdStatusBody = Type.Object({ adId: Id, status: OtcAdStatus });

// ---------------------------------------------------------------- orders

/**
 * Body of takeAd: exactly one of `fiatAmount` (what the user pays or receives) and `quantity` (coin; converted to the
 * fiat amount rounded up to a cent, then the engine's quantity floor(fiat / price)). `paymentMethodId`: when the user
 * SELLS (takes a BUY ad), the user's own enabled method the merchant pays into (of a type the ad accepts).
 * `transPassword` required when the user sells.
 */
export const TakeAdBody = Type.Object({
  adId: Id,
  fiatAmount: Type.Optional(FiatString),
  quantity: Type.Optional(DecimalString),
  paymentMethodId: Type.Optional(Id),
  transPassword: Type.Optional(Type.String({ maxLength: 6 })),
  clientId: ClientId,
});
export type TakeAdBody = Static<typeof TakeAdBody>;

/** A payment method as the buyer sees it in an order (full details: the buyer must be able to pay). */
export const OtcPaymentDetail = Type.Object({
  id: Type.String(),
  payType: OtcPayType,
  /** the seller's real name (spec section 3 "real name") */
  realName: Type.String(),
  /** BANK: bank name, branch, card number; WECHAT/ALIPAY: account and the QR image URL (an authorized download) */
  bankName: Type.String(),
  branch: Type.String(),
  cardNo: Type.String(),
  account: Type.String(),
  qrImageUrl: Type.String(),
});
export type OtcPaymentDetail = Static<typeof OtcPaymentDetail>;

/** An order in lists (spec section 3 "fiat order"). */
export const OtcOrder = Type.Object({
  orderId: Type.String(),
  adId: Type.String(),
  /** the caller's side */
  mySide: OtcSide,
  /** the caller's role: MAKER (the ad's merchant) or TAKER */
  myRole: Type.Union([Type.Literal('MAKER'), Type.Literal('TAKER')]),
  coin: Type.String(),
  fiat: Type.String(),
  price: FiatString,
  quantity: Type.String(),
  /** transaction amount, fiat */
  fiatAmount: FiatString,
  state: OtcOrderState,
  endReason: OtcEndReason,
  /** the other side's nickname */
  counterparty: Type.String(),
  createdAt: Type.Integer(),
  /** payment deadline (PENDING_PAYMENT) */
  deadline: Type.Integer(),
  paidAt: Type.Integer(),
  /** when an appeal may be opened (PAID): paidAt + appealAfter */
  appealableAt: Type.Integer(),
  updatedAt: Type.Integer(),
  /** unread chat messages for the caller */
  unread: Type.Integer(),
});
export type OtcOrder = Static<typeof OtcOrder>;

/**
 * Query of getOrders: tab PENDING (PENDING_PAYMENT, PAID, APPEAL), COMPLETED, CANCELLED, ALL. The spec's screens:
 * pending payment, pending release, completed, cancelled, appeal.
 */
export const GetOtcOrdersQuery = Type.Object({
  tab: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED'), Type.Literal('CANCELLED'), Type.Literal('ALL')]),
  ...Page,
});
export const OtcOrderPage = Paged(OtcOrder);
export type OtcOrderPage = Static<typeof OtcOrderPage>;
export const OrderIdQuery = Type.Object({ orderId: Id });

/** An appeal as both sides and the operator see it. */
export const OtcAppealView = Type.Object({
  by: Type.Union([Type.Literal('BUYER'), Type.Literal('SELLER')]),
  reason: Type.String(),
  description: Type.String(),
  /** evidence image URLs (authorized downloads) */
  images: Type.Array(Type.String()),
  createdAt: Type.Integer(),
  /** the operator's resolution shown to both sides ('' while open) */
  outcome: Type.Union([Type.Literal(''), Type.Literal('RELEASE'), Type.Literal('RETURN')]),
  resolution: Type.String(),
  resolvedAt: Type.Integer(),
});
export type OtcAppealView = Static<typeof OtcAppealView>;

/** Answer of getOrderDetail: the order, both sides' names, the payment details, the appeal. */
export const OtcOrderDetail = Type.Composite([
  OtcOrder,
  Type.Object({
    buyerNickName: Type.String(),
    sellerNickName: Type.String(),
    /** the seller's real name (shown to the buyer, spec section 3) and masked phone */
    sellerRealName: Type.String(),
    sellerPhone: Type.String(),
    /** the buyer's real name (shown to the seller, to check the payer) */
    buyerRealName: Type.String(),
    /** where the buyer pays: the seller's methods accepted by the order ([] to anyone but the two sides) */
    paymentMethods: Type.Array(OtcPaymentDetail),
    /** the method the buyer said was used ('' before payment) and the proof image URL ('' none) */
    paidWith: Type.String(),
    proofImageUrl: Type.String(),
    /** the ad's terms */
    remarks: Type.String(),
    appeal: Type.Union([OtcAppealView, Type.Null()]),
  }),
]);
export type OtcOrderDetail = Static<typeof OtcOrderDetail>;

/** Body of markPaid: the method used (one of the order's), an optional proof image (an upload id). */
export const MarkPaidBody = Type.Object({ orderId: Id, paymentMethodId: Id, proofImageId: Type.Optional(Type.String({ maxLength: 64 })) });
/** Body of release: the seller's transaction password, and the Google code when 2FA is bound. */
export const ReleaseBody = Type.Object({ orderId: Id, transPassword: Type.String({ maxLength: 6 }), googleCode: Type.Optional(Type.String({ maxLength: 6 })) });
export const CancelOtcOrderBody = Type.Object({ orderId: Id, reason: Type.Optional(Type.String({ maxLength: 200 })) });
/** Reasons an appeal may give (Binance P2P's list). */
export const OtcAppealReason = Type.Union([
  Type.Literal('PAID_NOT_RELEASED'),
  Type.Literal('NOT_RECEIVED'),
  Type.Literal('AMOUNT_MISMATCH'),
  Type.Literal('OTHER'),
]);
export const AppealBody = Type.Object({
  orderId: Id,
  reason: OtcAppealReason,
  description: Type.String({ minLength: 1, maxLength: 1000 }),
  /** evidence upload ids, comma-separated or an array, at most 5 */
  imageIds: Type.Optional(Type.Union([Type.String({ maxLength: 400 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5 })])),
});
export const CancelAppealBody = Type.Object({ orderId: Id });

// ---------------------------------------------------------------- chat

export const OtcChatMessage = Type.Object({
  id: Type.String(),
  orderId: Type.String(),
  /** BUYER, SELLER, OPERATOR or SYSTEM (state changes written into the chat) */
  from: Type.Union([Type.Literal('BUYER'), Type.Literal('SELLER'), Type.Literal('OPERATOR'), Type.Literal('SYSTEM')]),
  /** true when the caller wrote it */
  mine: Type.Boolean(),
  /**
   * The text; of a SYSTEM note, its key (shown in the reader's language): PENDING_PAYMENT, PAID, APPEAL, RELEASED,
   * BUYER_CANCELLED, TIMEOUT, APPEAL_RELEASED, APPEAL_RETURNED, APPEAL_CANCELLED.
   */
  text: Type.String(),
  /** an image URL (authorized download), '' for text */
  imageUrl: Type.String(),
  createdAt: Type.Integer(),
});
export type OtcChatMessage = Static<typeof OtcChatMessage>;
export const GetOtcMessagesQuery = Type.Object({ orderId: Id, afterId: Type.Optional(Id) });
export const SendOtcMessageBody = Type.Object({
  orderId: Id,
  text: Type.Optional(Type.String({ maxLength: 1000 })),
  imageId: Type.Optional(Type.String({ maxLength: 64 })),
});

// ---------------------------------------------------------------- console

export const AdminOtcMerchantsQuery = Type.Object({ state: Type.Optional(OtcMerchantState), ...Page });
export const AdminOtcMerchant = Type.Object({
  userId: Type.String(),
  account: Type.String(),
  nickName: Type.String(),
  realName: Type.String(),
  state: OtcMerchantState,
  deposit: Type.String(),
  reason: Type.String(),
  stats: OtcMerchantBrief,
  appliedAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type AdminOtcMerchant = Static<typeof AdminOtcMerchant>;
export const AdminOtcMerchantPage = Paged(AdminOtcMerchant);
export const ReviewMerchantBody = Type.Object({ userId: Id, approve: Type.Boolean(), reason: Type.String({ maxLength: 500 }) });
export const SetMerchantStatusBody = Type.Object({
  userId: Id,
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED')]),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
});
export const AdminOtcAdsQuery = Type.Object({ status: Type.Optional(OtcAdStatus), userId: Type.Optional(Id), ...Page });
export const AdminCloseAdBody = Type.Object({ adId: Id, reason: Type.String({ minLength: 1, maxLength: 500 }) });
/** Query of the console's order list: by state (APPEAL = the appeal queue), user. */
export const AdminOtcOrdersQuery = Type.Object({ state: Type.Optional(OtcOrderState), userId: Type.Optional(Id), ...Page });
/** The console's order: both sides, the chat and the evidence. */
export const AdminOtcOrderDetail = Type.Composite([
  Type.Omit(OtcOrderDetail, ['mySide', 'myRole', 'unread', 'counterparty']),
  Type.Object({
    buyerId: Type.String(),
    sellerId: Type.String(),
    makerId: Type.String(),
    messages: Type.Array(OtcChatMessage),
  }),
]);
export type AdminOtcOrderDetail = Static<typeof AdminOtcOrderDetail>;
export const ResolveAppealBody = Type.Object({
  orderId: Id,
  outcome: Type.Union([Type.Literal('RELEASE'), Type.Literal('RETURN')]),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
});

// ---------------------------------------------------------------- WebSocket (private, after login)

/**
 * Private WebSocket pushes (ws.ts conventions): `otcOrder` with an OtcOrder whenever one of the caller's orders
 * changes, `otcChat` with an OtcChatMessage when a message arrives in one of the caller's orders.
 */
export const OTC_WS_TOPICS = { order: 'otcOrder', chat: 'otcChat' } as const;
