/**
 * The peer-to-peer fiat (OTC) part of the engine contract: merchants and their security deposits,
 * advertisements, orders with escrow, payment, release, time-out, appeals. Only what moves money or must be decided
 * atomically lives here; the rest of an ad or an order (payment methods, terms, chat, evidence) is the server's.
 *
 * Units: amounts of the traded asset (USDT) in its smallest unit ("units", 10^-scale); fiat (CNY) amounts and prices
 * in fiat cents (10^-OTC_FIAT_DECIMALS CNY): a price is the fiat cents paid for one whole coin (10^scale units).
 * An order's quantity follows from the fiat amount: quantity = floor(fiatAmount * 10^scale / price) (otcQuantity),
 * so the buyer never receives more than was paid for.
 *
 * Escrow lives in the seller's OTC account, frozen bucket:
 * - a SELL ad (the merchant sells) holds its remaining quantity from the merchant's OTC account when published;
 *   an order taken from it carries that hold over to the order (no ledger change);
 * - a BUY ad (the merchant buys) holds nothing; the taker sells, and the order holds the taker's quantity at creation;
 * - a merchant's security deposit is held in the same account.
 * Invariant after every command, per user and asset: OTC frozen = security deposit (PENDING, ACTIVE or SUSPENDED
 * merchant) + remaining of the user's SELL ads not CLOSED + quantity of open orders where the user is the seller.
 *
 * Order life cycle (rules of Binance P2P where the spec is silent; the engine enforces every transition, anything else
 * is otc_order_state_invalid):
 *
 *   PENDING_PAYMENT --markPaid (buyer, before the deadline)--> PAID --appeal (either side, appealAfterMs after paid)--> APPEAL
 *   PENDING_PAYMENT | PAID --release (seller)--> COMPLETED            (escrow to the buyer's OTC account)
 *   PENDING_PAYMENT | PAID --cancel (buyer)--> CANCELLED              (escrow back to the seller / the ad)
 *   PENDING_PAYMENT --cancel (time-out, at or after the deadline)--> CANCELLED
 *   APPEAL --cancelAppeal (the appellant)--> PAID
 *   APPEAL --resolveAppeal (operator): RELEASE --> COMPLETED | RETURN --> CANCELLED
 *
 * A buyer's cancels and time-outs count per day (Asia/Shanghai, UTC+8): at `cancelLimit` of them the user cannot take
 * an ad until the next day (otc_cancel_limit). Final orders (COMPLETED, CANCELLED) leave the engine's state after
 * their event: their history is the database's.
 */

/** Decimal places of fiat amounts and prices (CNY cents). */
export const OTC_FIAT_DECIMALS = 2;
/** Shortest and longest payment time limit of an ad (ms): 5 to 120 minutes. */
export const OTC_MIN_PAYMENT_WINDOW_MS = 5 * 60_000;
export const OTC_MAX_PAYMENT_WINDOW_MS = 120 * 60_000;
/** Floating price ratio bounds (ppm of the index price): 50% to 200%. */
export const OTC_MIN_FLOAT_PPM = 500_000;
export const OTC_MAX_FLOAT_PPM = 2_000_000;
/** Longest reason text of a review, suspension, appeal or resolution (characters). */
export const OTC_MAX_REASON_LENGTH = 500;
/** The day boundary of the cancel limit: Asia/Shanghai (UTC+8), in ms. */
export const OTC_DAY_OFFSET_MS = 8 * 3_600_000;

/** OTC settings (otcConfigure): set by the listing seed or an operator; every other OTC command needs them. */
export interface OtcConfig {
  /** the coin traded, e.g. "USDT" (a listed asset) */
  asset: string;
  /** the fiat currency, e.g. "CNY" (a label: fiat never moves through the engine) */
  fiat: string;
  /** a merchant's security deposit, asset units, held from the OTC account on application */
  merchantDeposit: bigint;
  /** how long after "I have paid" either side may appeal, ms */
  appealAfterMs: number;
  /** a buyer's cancels (and time-outs) per day that bar taking ads until the next day (Binance: 3) */
  cancelLimit: number;
}

/** Merchant states. PENDING: applied, deposit held, waiting for an operator; LEFT/REJECTED: deposit released. */
export type OtcMerchantState = 'PENDING' | 'ACTIVE' | 'SUSPENDED' | 'REJECTED' | 'LEFT';

/** A merchant record (every user who ever applied). */
export interface OtcMerchantView {
  userId: string;
  state: OtcMerchantState;
  /** the deposit held now (asset units; 0 once REJECTED or LEFT) */
  deposit: bigint;
  /** the operator of the last review or status change, and its reason */
  operatorId: string | null;
  reason: string | null;
  createdTs: number;
  updatedTs: number;
}

/** The merchant's side of an ad: SELL = the merchant sells coins for fiat (takers buy). */
export type OtcSide = 'BUY' | 'SELL';
export type OtcPriceType = 'FIXED' | 'FLOAT';
export type OtcAdStatus = 'ONLINE' | 'PAUSED' | 'CLOSED';

/** The terms of an ad that the engine enforces (publish and update carry them). */
export interface OtcAdTerms {
  priceType: OtcPriceType;
  /** FIXED: fiat cents per coin; null for FLOAT */
  price: bigint | null;
  /** FLOAT: the price is index * floatPpm / 1e6, rounded half up to a cent; null for FIXED */
  floatPpm: number | null;
  /** per-order limits of the fiat amount, cents, 0 < min <= max */
  minFiat: bigint;
  maxFiat: bigint;
  /** payment time limit of its orders, ms (OTC_MIN_PAYMENT_WINDOW_MS..OTC_MAX_PAYMENT_WINDOW_MS) */
  paymentWindowMs: number;
}

/** An advertisement. */
export interface OtcAdView extends OtcAdTerms {
  adId: string;
  userId: string;
  side: OtcSide;
  asset: string;
  fiat: string;
  /** quantity ever offered (asset units): the first quantity plus every increase by update */
  totalQty: bigint;
  /** quantity still offered (asset units); of a SELL ad, held in the merchant's OTC account */
  remainingQty: bigint;
  status: OtcAdStatus;
  /** the server's data of the ad (payment method ids, remarks ...), opaque to the engine, set by publish and update */
  meta: Record<string, string>;
  createdTs: number;
  updatedTs: number;
}

export type OtcOrderState = 'PENDING_PAYMENT' | 'PAID' | 'APPEAL' | 'COMPLETED' | 'CANCELLED';
/** Why an order ended. */
export type OtcEndReason = 'RELEASED' | 'BUYER_CANCELLED' | 'TIMEOUT' | 'APPEAL_RELEASED' | 'APPEAL_RETURNED';

/** An order taken from an ad. */
export interface OtcOrderView {
  orderId: string;
  clientId: string;
  adId: string;
  /** the ad's owner (merchant) and the user who took the ad */
  makerId: string;
  takerId: string;
  buyerId: string;
  sellerId: string;
  asset: string;
  fiat: string;
  /** fiat cents per coin, fixed at creation */
  price: bigint;
  /** asset units, held in the seller's OTC account while the order is open */
  quantity: bigint;
  /** fiat cents the buyer pays */
  fiatAmount: bigint;
  state: OtcOrderState;
  createdTs: number;
  /** the payment deadline: createdTs + the ad's payment window */
  deadlineTs: number;
  paidTs: number | null;
  /** who appealed (buyer or seller) and when; null when no appeal is open or was opened */
  appealBy: string | null;
  appealTs: number | null;
  endReason: OtcEndReason | null;
  /** the operator who resolved an appeal, and the resolution's reason (shown to both sides) */
  resolvedBy: string | null;
  reason: string | null;
  /**
   * The server's data of the order (the taker's payment method, the method paid with, the proof image, the appeal's
   * reason and evidence ...), opaque to the engine: each command's `meta` is merged into it (later keys win).
   */
  meta: Record<string, string>;
  updatedTs: number;
}

interface Base {
  ts: number;
}

/**
 * The OTC commands (see the file comment for the rules; every rejection changes nothing). `meta`: the server's own
 * fields of the ad or order, opaque to the engine (at most 32 keys of 64 characters, values of 2,000), kept in the
 * ad's or order's view so that everything about it is rebuilt from the journal.
 */
export type OtcCommand =
  /** Sets the OTC settings (the first one enables OTC). */
  | (Base & { type: 'otcConfigure'; config: OtcConfig; audit?: Record<string, string> })
  /** A user applies to be a merchant: the deposit is held (from none, REJECTED or LEFT to PENDING). */
  | (Base & { type: 'otcApplyMerchant'; userId: string })
  /** An operator decides an application: PENDING -> ACTIVE, or -> REJECTED with the deposit released. */
  | (Base & { type: 'otcReviewMerchant'; userId: string; operatorId: string; approve: boolean; reason: string; audit?: Record<string, string> })
  /** An operator suspends (ACTIVE -> SUSPENDED: ads not takeable, no publishing) or reinstates a merchant. */
  | (Base & {
      type: 'otcSetMerchantStatus';
      userId: string;
      operatorId: string;
      status: 'ACTIVE' | 'SUSPENDED';
      reason: string;
      audit?: Record<string, string>;
    })
  /** A merchant leaves (ACTIVE or SUSPENDED, every ad CLOSED, no open order): LEFT, the deposit released. */
  | (Base & { type: 'otcLeaveMerchant'; userId: string })
  /** An ACTIVE merchant publishes an ad (ONLINE); a SELL ad holds `quantity`. `clientId`: idempotency key. */
  | (Base & { type: 'otcPublishAd'; userId: string; side: OtcSide; quantity: bigint; terms: OtcAdTerms; clientId?: string; meta?: Record<string, string> })
  /**
   * The owner changes an ad that is not CLOSED: new terms and remaining quantity (a SELL ad's hold follows the
   * difference; an increase adds to totalQty).
   */
  | (Base & { type: 'otcUpdateAd'; userId: string; adId: string; remainingQty: bigint; terms: OtcAdTerms; meta?: Record<string, string> })
  /** Pause, resume or close an ad (the owner, or an operator with `operatorId`); CLOSED is final and releases a SELL ad's remainder. */
  | (Base & { type: 'otcSetAdStatus'; adId: string; status: OtcAdStatus; userId?: string; operatorId?: string; audit?: Record<string, string> })
  /**
   * A verified user takes an ad for `fiatAmount` cents at the ad's price (FLOAT ads: from `indexPrice`, fiat cents per
   * coin, which the server reads from its index). Idempotent by (userId, clientId) within the idempotency window.
   */
  | (Base & { type: 'otcTakeAd'; userId: string; adId: string; fiatAmount: bigint; indexPrice?: bigint; clientId: string; meta?: Record<string, string> })
  /** The buyer says the fiat was paid (PENDING_PAYMENT -> PAID, before the deadline). */
  | (Base & { type: 'otcMarkPaid'; userId: string; orderId: string; meta?: Record<string, string> })
  /** The seller confirms receipt and releases the escrow to the buyer (COMPLETED). */
  | (Base & { type: 'otcRelease'; userId: string; orderId: string })
  /** The buyer cancels (`userId`), or the time-out job cancels an unpaid order past its deadline (no userId). */
  | (Base & { type: 'otcCancelOrder'; orderId: string; userId?: string; meta?: Record<string, string> })
  /** Either side appeals a PAID order, appealAfterMs after it was marked paid. */
  | (Base & { type: 'otcAppeal'; userId: string; orderId: string; meta?: Record<string, string> })
  /** The appellant withdraws the appeal (APPEAL -> PAID). */
  | (Base & { type: 'otcCancelAppeal'; userId: string; orderId: string })
  /** An operator resolves an appeal: RELEASE to the buyer or RETURN to the seller, with the reason shown to both. */
  | (Base & {
      type: 'otcResolveAppeal';
      orderId: string;
      operatorId: string;
      outcome: 'RELEASE' | 'RETURN';
      reason: string;
      audit?: Record<string, string>;
      meta?: Record<string, string>;
    });

export type OtcCommandType = OtcCommand['type'];
/** Every OTC command type (the engine routes these to the OTC state). */
export const OTC_COMMAND_TYPES: readonly OtcCommandType[] = [
  'otcConfigure',
  'otcApplyMerchant',
  'otcReviewMerchant',
  'otcSetMerchantStatus',
  'otcLeaveMerchant',
  'otcPublishAd',
  'otcUpdateAd',
  'otcSetAdStatus',
  'otcTakeAd',
  'otcMarkPaid',
  'otcRelease',
  'otcCancelOrder',
  'otcAppeal',
  'otcCancelAppeal',
  'otcResolveAppeal',
];

/** The OTC events: each carries the record after the change (audit: the command's audit record, if any). */
export type OtcEvent =
  | { type: 'otcConfigured'; ts: number; config: OtcConfig; audit?: Record<string, string> }
  | { type: 'otcMerchantChanged'; ts: number; merchant: OtcMerchantView; audit?: Record<string, string> }
  | { type: 'otcAdChanged'; ts: number; ad: OtcAdView; audit?: Record<string, string> }
  | { type: 'otcOrderChanged'; ts: number; order: OtcOrderView; audit?: Record<string, string> };

/** Reads of the OTC state (part of EngineApi). */
export interface OtcReads {
  /** The OTC settings, or undefined before otcConfigure. */
  otcConfig(): OtcConfig | undefined;
  /** A merchant record (any state), or undefined. */
  otcMerchant(userId: string): OtcMerchantView | undefined;
  /** An ad (any status), or undefined. */
  otcAd(adId: string): OtcAdView | undefined;
  /** Every ad not CLOSED, oldest first (optionally one user's). */
  otcAds(userId?: string): OtcAdView[];
  /** An open order (not COMPLETED or CANCELLED), or undefined (unknown or final: read the database). */
  otcOrder(orderId: string): OtcOrderView | undefined;
  /** Open orders, oldest first: every one, or those where `userId` is maker or taker. */
  otcOpenOrders(userId?: string): OtcOrderView[];
  /** A user's cancels counted on the Asia/Shanghai day of `ts`. */
  otcCancelsOn(userId: string, ts: number): number;
}

/**
 * The quantity (asset units) bought with `fiatAmount` cents at `price` cents per coin of scale `scale`:
 * floor(fiatAmount * 10^scale / price). 0n when the amount buys less than one unit. Throws RangeError on a
 * non-positive price.
 */
export function otcQuantity(fiatAmount: bigint, price: bigint, scale: number): bigint {
  if (price <= 0n) throw new RangeError('otcQuantity: price must be positive');
  return (fiatAmount * 10n ** BigInt(scale)) / price;
}

/**
 * A floating ad's price: indexPrice * floatPpm / 1,000,000 rounded half up to a cent (Binance P2P "floating price
 * margin", as a ratio of the index). Both inputs positive.
 */
export function otcFloatPrice(indexPrice: bigint, floatPpm: number): bigint {
  return (indexPrice * BigInt(floatPpm) * 2n + 1_000_000n) / 2_000_000n;
}

/** The Asia/Shanghai day number of a Unix ms time (the cancel limit's day). */
export function otcDay(ts: number): number {
  return Math.floor((ts + OTC_DAY_OFFSET_MS) / 86_400_000);
}
