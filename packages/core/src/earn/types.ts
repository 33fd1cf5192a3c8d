/**
 * Fixed-term savings ("mortgage" in the spec's routes: /mortgage, /mort_record, /redeem_record), modelled on
 * Binance Simple Earn locked products: an operator defines products (coin, term, annual rate, limits, quotas, the
 * early-redemption rule); a user locks an amount for the term at the product's rate; interest is paid daily; the
 * principal comes back at maturity, or early (when the product allows it) minus the interest already paid.
 *
 * Units: amounts in the coin's smallest unit (bigint); the annual rate in ppm (parts per million: 5% = 50_000);
 * times in Unix ms (command time); a day is 86_400_000 ms counted from the lock's start (not a calendar day).
 *
 * Ledger layout (double-entry, every posting through the journal):
 * - lock: the amount moves from the user's ASSETS account (the funding account, where deposits arrive; Binance
 *   subscribes from the Spot/Funding wallet) to the system account EARN_PRINCIPAL ('@earn'), which therefore holds
 *   exactly the principal of every LOCKED lock (invariant, tested);
 * - interest: from the system account EARN_INTEREST ('@interest', which goes negative by what it paid) to the user's
 *   ASSETS account, by the daily settle command;
 * - maturity: the principal from '@earn' back to the user's ASSETS account;
 * - early redemption (FORFEIT_INTEREST): '@earn' gives the user the principal minus the interest already paid and
 *   gives that interest back to '@interest' (Binance: "rewards already distributed will be deducted from the
 *   principal"), so an early redemption never costs the exchange interest.
 *
 * Interest (Binance Simple Earn: "daily rewards = subscription amount x APR / 365"): the interest owed after `d` whole
 * days of a lock is floor(amount * aprPpm * d / (365 * 10^6)) (earnInterest), d = min(termDays, whole days since the
 * start). Each settle pays the difference between that and what was already paid, so the total is rounded down once
 * (the user never gets more than the exact figure, loses less than one unit in all) and any number of settles at any
 * times pays exactly the same total: the settle command is idempotent by construction (no key needed).
 */

/** One day of a lock, ms. */
export const EARN_DAY_MS = 86_400_000;
/** Days of the year in the interest formula (Binance: APR / 365). */
export const EARN_DAYS_PER_YEAR = 365n;
/** The principal account and the interest account (system owners, kind SYSTEM). */
export const EARN_PRINCIPAL = '@earn';
export const EARN_INTEREST = '@interest';
/** Longest term (days) and highest rate (ppm: 100% a year) of a product: with both, interest never exceeds the principal. */
export const EARN_MAX_TERM_DAYS = 365;
export const EARN_MAX_APR_PPM = 1_000_000;
/** Largest amount anywhere in a product (units): 10^30. */
export const EARN_MAX_AMOUNT = 10n ** 30n;

/** May a lock of the product be redeemed before maturity? FORFEIT_INTEREST: yes, losing the interest paid. */
export type EarnEarlyRule = 'NOT_ALLOWED' | 'FORFEIT_INTEREST';
/** ON: open for new locks; OFF: closed to new locks (existing locks run to their end). */
export type EarnProductStatus = 'ON' | 'OFF';

/** What an operator sets of a product (earnSetProduct). Amounts in units of `asset`. */
export interface EarnProductTerms {
  asset: string;
  termDays: number;
  /** annual rate, ppm */
  aprPpm: number;
  /** smallest and largest amount of one lock */
  minAmount: bigint;
  maxAmount: bigint;
  /** most principal one user may have locked in the product at once */
  userQuota: bigint;
  /** most principal locked in the product by everyone at once */
  totalQuota: bigint;
  earlyRedeem: EarnEarlyRule;
  status: EarnProductStatus;
}

/** A product with its id and the principal now locked in it. */
export interface EarnProductView extends EarnProductTerms {
  productId: string;
  /** principal of the product's LOCKED locks (units) */
  lockedTotal: bigint;
  createdTs: number;
  updatedTs: number;
}

export type EarnLockStatus = 'LOCKED' | 'REDEEMED';
/** How a lock ended: at maturity (by the settle command) or early (by its owner). */
export type EarnRedeemKind = 'MATURITY' | 'EARLY';

/** A lock. The product's rate, term and rule are copied at lock time: a later product change does not alter it. */
export interface EarnLockView {
  lockId: string;
  productId: string;
  userId: string;
  clientId: string;
  asset: string;
  amount: bigint;
  aprPpm: number;
  termDays: number;
  earlyRedeem: EarnEarlyRule;
  startTs: number;
  /** startTs + termDays days: maturity */
  endTs: number;
  /** whole days whose interest was paid (0 .. termDays) */
  daysPaid: number;
  /** interest paid so far (units) */
  interestPaid: bigint;
  status: EarnLockStatus;
  redeemKind: EarnRedeemKind | null;
  redeemedTs: number | null;
  /** principal given back at redemption (amount, or amount - interestPaid when early) */
  returned: bigint | null;
  /** interest taken back from the principal at an early redemption (0n at maturity) */
  forfeited: bigint | null;
  updatedTs: number;
}

interface Base {
  ts: number;
}

/** The fixed-term savings commands (every rejection changes nothing). */
export type EarnCommand =
  /**
   * An operator creates a product (no productId; the engine assigns "1", "2", ...) or changes one (productId). The
   * asset of an existing product cannot change (invalid_config). Rejections: invalid_config (terms out of bounds:
   * termDays 1..365, aprPpm 0..1,000,000, 0 < minAmount <= maxAmount <= userQuota <= totalQuota <= 10^30),
   * asset_not_found, earn_product_not_found.
   */
  | (Base & { type: 'earnSetProduct'; productId?: string; terms: EarnProductTerms; operatorId: string; audit?: Record<string, string> })
  /**
   * A user locks `amount` of the product's coin from the ASSETS account. Idempotent by (userId, clientId) for a day of
   * command time: a repeat returns 'ok', `duplicate`, no events. Rejections in this order: invalid_config,
   * earn_product_not_found, user_not_found, account_frozen, earn_product_closed, amount_invalid,
   * earn_amount_out_of_limits (below min or above max), earn_quota_exceeded (user's or total), insufficient_balance.
   */
  | (Base & { type: 'earnLock'; userId: string; productId: string; amount: bigint; clientId: string })
  /**
   * The owner redeems a LOCKED lock before maturity: earn_lock_not_found (unknown, another user's, or already ended),
   * earn_early_redeem_not_allowed. At or after maturity the lock is redeemed as MATURITY with its full interest.
   */
  | (Base & { type: 'earnRedeem'; userId: string; lockId: string })
  /** The daily job: pays every lock's interest due at `ts` and redeems the locks that matured (idempotent). */
  | (Base & { type: 'earnSettle' });

export type EarnCommandType = EarnCommand['type'];
export const EARN_COMMAND_TYPES: readonly EarnCommandType[] = ['earnSetProduct', 'earnLock', 'earnRedeem', 'earnSettle'];

/**
 * The events: a product after a change (audit: the operator's audit record), a lock after a change with the interest
 * paid by this command (`interest`, 0n when none).
 */
export type EarnEvent =
  | { type: 'earnProductChanged'; ts: number; product: EarnProductView; audit?: Record<string, string> }
  | { type: 'earnLockChanged'; ts: number; lock: EarnLockView; interest: bigint };

/**
 * Savings is a machine the engine is given by its host (earnMachine, ../machine.ts): its commands, events, rejection
 * codes, result fields and reads join the core's by declaration merging, and no file of the core's root names them.
 */
declare module '../types' {
  interface MachineCommands {
    earnSetProduct: Extract<EarnCommand, { type: 'earnSetProduct' }>;
    earnLock: Extract<EarnCommand, { type: 'earnLock' }>;
    earnRedeem: Extract<EarnCommand, { type: 'earnRedeem' }>;
    earnSettle: Extract<EarnCommand, { type: 'earnSettle' }>;
  }
  interface MachineEvents {
    earnProductChanged: Extract<EarnEvent, { type: 'earnProductChanged' }>;
    earnLockChanged: Extract<EarnEvent, { type: 'earnLockChanged' }>;
  }
  interface CommandResult {
    /** For earnSetProduct: the product after the command. */
    earnProduct?: EarnProductView;
    /** For earnLock and earnRedeem: the lock after the command (the first one on a duplicate earnLock while it is LOCKED). */
    earnLock?: EarnLockView;
  }
}
declare module '../reject-codes' {
  interface MachineRejectCodes {
    earn_product_not_found: true;
    earn_product_closed: true;
    earn_amount_out_of_limits: true;
    earn_quota_exceeded: true;
    earn_lock_not_found: true;
    earn_early_redeem_not_allowed: true;
  }
}
declare module '../engine-api' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds the reads
  interface MachineReads extends EarnReads {}
}

/** Reads of the savings state (part of EngineApi, through MachineReads). */
export interface EarnReads {
  /** Every product, in id order. */
  earnProducts(): EarnProductView[];
  earnProduct(productId: string): EarnProductView | undefined;
  /** A LOCKED lock, or undefined (unknown or ended: its history is the database's). */
  earnLock(lockId: string): EarnLockView | undefined;
  /** LOCKED locks, oldest first, optionally one user's. */
  earnLocks(userId?: string): EarnLockView[];
}

/**
 * Interest (units) owed after `days` whole days on `amount` units at `aprPpm`: floor(amount * aprPpm * days /
 * (365 * 10^6)), rounded down (the user's disfavour). Throws RangeError on negative inputs.
 */
export function earnInterest(amount: bigint, aprPpm: number, days: number): bigint {
  if (amount < 0n || aprPpm < 0 || days < 0 || Math.floor(aprPpm) !== aprPpm || Math.floor(days) !== days || aprPpm > 2 ** 31 || days > 2 ** 31)
    throw new RangeError('earnInterest: negative or non-integer input');
  return (amount * BigInt(aprPpm) * BigInt(days)) / (EARN_DAYS_PER_YEAR * 1_000_000n);
}

/** Whole days of a lock started at `startTs` that have passed at `ts`, at most `termDays` (0 before the first day ends). */
export function earnDaysDue(startTs: number, termDays: number, ts: number): number {
  if (ts <= startTs) return 0;
  const d = Math.floor((ts - startTs) / EARN_DAY_MS);
  return d < termDays ? d : termDays;
}
