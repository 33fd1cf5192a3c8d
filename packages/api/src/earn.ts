/**
 * Wire schemas of fixed-term savings ("mortgage and redeem": routes /mortgage, /mort_record, /redeem_record) and
 * convert (route /exchange). The engine's rules: packages/core earn/types.ts and spot/convert.ts.
 *
 * Units: coin amounts as decimal strings at the coin's scale ("1000.00000000"); the annual rate as a percent string
 * with up to 4 decimals ("3.65" = 3.65% a year, stored as ppm 36,500); times Unix ms (0 when not applicable).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString } from './schemas';

/** Paths of the app's savings and convert API, relative to `/api/`. */
export const EARN_PATHS = {
  /** GET, public: products open for locking */
  getProducts: 'earn/earn/getProducts',
  /** POST: lock an amount in a product (from the ASSETS account) */
  lock: 'earn/earn/lock',
  /** POST: redeem a lock early (losing the interest paid) or after maturity */
  redeem: 'earn/earn/redeem',
  /** GET: the caller's locks (/mort_record) */
  getLocks: 'earn/earn/getLocks',
  /** GET: the caller's redemptions (/redeem_record) */
  getRedemptions: 'earn/earn/getRedemptions',
  /** GET, public: the coins and markets convert offers, with their taker fee */
  convertPairs: 'exchange/convert/getPairs',
  /** POST: a quote, guaranteed for 10 seconds */
  convertQuote: 'exchange/convert/quote',
  /** POST: convert at a quote (refused when expired or when the book moved below the guaranteed amount) */
  convertConfirm: 'exchange/convert/confirm',
} as const;

/** Paths of the console's savings API (operator session; every change audited). */
export const EARN_ADMIN_PATHS = {
  products: 'admin/earn/products',
  saveProduct: 'admin/earn/saveProduct',
} as const;

/** How long a convert quote is guaranteed (ms). */
export const CONVERT_QUOTE_TTL_MS = 10_000;

const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const ClientId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Coin = Type.String({ pattern: '^[A-Z0-9]{2,12}$' });
/** Annual rate in percent, up to 4 decimals, 0 .. 100. */
export const AprPercent = Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,4})?$', maxLength: 8 });
const Page = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const EarnEarlyRule = Type.Union([Type.Literal('NOT_ALLOWED'), Type.Literal('FORFEIT_INTEREST')]);
export const EarnProductStatus = Type.Union([Type.Literal('ON'), Type.Literal('OFF')]);
export const EarnLockStatus = Type.Union([Type.Literal('LOCKED'), Type.Literal('REDEEMED')]);
export const EarnRedeemKind = Type.Union([Type.Literal(''), Type.Literal('MATURITY'), Type.Literal('EARLY')]);

/** A product as users see it. */
export const EarnProduct = Type.Object({
  productId: Type.String(),
  coin: Type.String(),
  termDays: Type.Integer(),
  /** annual rate, percent ("3.65") */
  apr: Type.String(),
  minAmount: Type.String(),
  maxAmount: Type.String(),
  /** most one user may have locked at once */
  userQuota: Type.String(),
  /** what is left of the product's total quota */
  remainingQuota: Type.String(),
  earlyRedeem: EarnEarlyRule,
  status: EarnProductStatus,
});
export type EarnProduct = Static<typeof EarnProduct>;

/** A product as the console sees it (every field). */
export const AdminEarnProduct = Type.Composite([
  EarnProduct,
  Type.Object({ totalQuota: Type.String(), lockedTotal: Type.String(), createdAt: Type.Integer(), updatedAt: Type.Integer() }),
]);
export type AdminEarnProduct = Static<typeof AdminEarnProduct>;

/** A lock (/mort_record) or, once REDEEMED, a redemption (/redeem_record). */
export const EarnLock = Type.Object({
  lockId: Type.String(),
  productId: Type.String(),
  coin: Type.String(),
  amount: Type.String(),
  apr: Type.String(),
  termDays: Type.Integer(),
  earlyRedeem: EarnEarlyRule,
  startAt: Type.Integer(),
  /** maturity */
  endAt: Type.Integer(),
  daysPaid: Type.Integer(),
  interestPaid: Type.String(),
  /** interest of the whole term at maturity (rounded down) */
  expectedInterest: Type.String(),
  /** what an early redemption would give back now (amount - interest paid); '' when not allowed or ended */
  earlyReturn: Type.String(),
  status: EarnLockStatus,
  redeemKind: EarnRedeemKind,
  redeemedAt: Type.Integer(),
  /** principal given back at redemption ('' while LOCKED) */
  returned: Type.String(),
  /** interest taken back at an early redemption ('' while LOCKED) */
  forfeited: Type.String(),
});
export type EarnLock = Static<typeof EarnLock>;
export const EarnLockPage = Type.Object({ records: Type.Array(EarnLock), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() });
export type EarnLockPage = Static<typeof EarnLockPage>;

/** Body of lock. */
export const EarnLockBody = Type.Object({ productId: Id, amount: DecimalString, clientId: ClientId });
export type EarnLockBody = Static<typeof EarnLockBody>;
export const EarnRedeemBody = Type.Object({ lockId: Id });
/** Query of getLocks: LOCKED (default) or ALL. */
export const GetEarnLocksQuery = Type.Object({ status: Type.Optional(Type.Union([Type.Literal('LOCKED'), Type.Literal('ALL')])), ...Page });
export const GetEarnRedemptionsQuery = Type.Object({ ...Page });

/** Body of the console's saveProduct (no productId: a new product). */
export const SaveEarnProductBody = Type.Object({
  productId: Type.Optional(Id),
  coin: Coin,
  termDays: Type.Integer({ minimum: 1, maximum: 365 }),
  apr: AprPercent,
  minAmount: DecimalString,
  maxAmount: DecimalString,
  userQuota: DecimalString,
  totalQuota: DecimalString,
  earlyRedeem: EarnEarlyRule,
  status: EarnProductStatus,
});
export type SaveEarnProductBody = Static<typeof SaveEarnProductBody>;

// ---------------------------------------------------------------- convert

/** A market convert goes through, in both directions. */
export const ConvertPair = Type.Object({
  symbol: Type.String(),
  base: Type.String(),
  quote: Type.String(),
  /** the market's taker fee, percent ("0.20") */
  feeRate: Type.String(),
  /** the smallest base amount step a SELL must be a multiple of (decimal) */
  baseStep: Type.String(),
  /** the least amount of the quote coin a convert from it takes: the market's minimum order value (decimal, quote scale) */
  minQuote: Type.String(),
  /**
   * the least amount of the base coin a convert from it takes now: the market's minimum quantity, or the whole steps
   * whose sale into the bids reaches the minimum order value, whichever is more (decimal, base scale); '' when the
   * bids cannot reach the minimum order value (nothing can be sold now)
   */
  minBase: Type.String(),
});
export const ConvertPairs = Type.Object({ coins: Type.Array(Type.String()), pairs: Type.Array(ConvertPair) });
export type ConvertPairs = Static<typeof ConvertPairs>;

export const ConvertQuoteBody = Type.Object({ from: Coin, to: Coin, amount: DecimalString });
export type ConvertQuoteBody = Static<typeof ConvertQuoteBody>;

/** A quote: `receive` is guaranteed until `expiresAt` (10 s). */
export const ConvertQuote = Type.Object({
  quoteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  symbol: Type.String(),
  /** the amount asked for, `from` coin */
  amount: Type.String(),
  /** what the order spends of it at the quote (a BUY keeps what cannot buy one more step of the market), `from` coin */
  spend: Type.String(),
  /** the guaranteed amount, `to` coin, fee taken off */
  receive: Type.String(),
  /** the taker fee, `to` coin */
  fee: Type.String(),
  feeRate: Type.String(),
  /** 1 `from` = price `to` (the average of the walk, before fee), 8 decimals rounded down */
  price: Type.String(),
  expiresAt: Type.Integer(),
});
export type ConvertQuote = Static<typeof ConvertQuote>;

export const ConvertConfirmBody = Type.Object({ quoteId: Type.String({ pattern: '^cv[0-9a-f]{24}$' }) });

/** The outcome of a confirmed convert (the market order's figures). */
export const ConvertResult = Type.Object({
  orderId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  spent: Type.String(),
  received: Type.String(),
  fee: Type.String(),
});
export type ConvertResult = Static<typeof ConvertResult>;
