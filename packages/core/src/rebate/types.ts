/**
 * Invitation rebates (spec section 9): the constants, the day arithmetic, the command, events and reads.
 *
 * Rules (spec section 9, "Rebate ratio 30%, permanent, settled daily at 00:00; inviter rebate threshold 5000 USDT;
 * rebate = fee times ratio; only USDT perpetual contract trades earn rebate"):
 * - An invitee is a user registered with an inviter's invitation code (profile field `invitedBy` = the inviter's
 *   user id, set once at registration: the binding is permanent).
 * - Every perpetual contract fee an invitee pays in a market settled in USDT (maker or taker fee of a book fill)
 *   accrues to the invitee's rebate day: the calendar day in Asia/Shanghai (UTC+8, no daylight saving) of the fill.
 *   Spot fees, withdrawal fees and liquidation fills (which charge no fee) earn nothing.
 * - The daily settlement (command settleRebates, run by the server's job after 00:00 Asia/Shanghai) pays, per
 *   invitee and day, `floor(fee * 30 / 100)` USDT units from the fee account '@fee' to the inviter's CONTRACT
 *   account (available). The rebate is exact to the unit (fee x ratio); the payout rounds the fraction down.
 * - The 5,000 USDT inviter threshold, read as: an inviter qualifies for the rebates of a settlement when, at that
 *   settlement, the inviter holds at least 5,000 USDT in total (available plus frozen, over the four accounts
 *   ASSETS, SPOT, CONTRACT and OTC). Below it, the rebates of the days being settled are not paid (they stay in the
 *   fee account; recorded with paid = 0 so the inviter can see why). The reading is documented in docs/rebates.md.
 */

/** The rebate ratio in parts per million: 30% (spec section 9). */
export const REBATE_RATIO_PPM = 300_000n;
/** The only settle asset whose contract fees earn rebates (spec: "only USDT perpetual contract trades"). */
export const REBATE_ASSET = 'USDT';
/** The inviter threshold in whole REBATE_ASSET coins (spec section 9: 5000 USDT; reading in the file comment). */
export const REBATE_THRESHOLD_COINS = 5_000n;
/** Offset of the settlement time zone, Asia/Shanghai (UTC+8, no daylight saving), in ms. */
export const REBATE_TZ_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** The rebate day of a Unix ms time: whole days since 1970-01-01 in Asia/Shanghai (day 0 = 1970-01-01 +08:00). */
export function rebateDay(ts: number): number {
  return Math.floor((ts + REBATE_TZ_OFFSET_MS) / DAY_MS);
}

/** Unix ms of 00:00 Asia/Shanghai starting rebate day `day`. */
export function rebateDayStart(day: number): number {
  return day * DAY_MS - REBATE_TZ_OFFSET_MS;
}

/** The rebate of a fee (both in the asset's smallest unit): fee x 30%, rounded down to the unit (spec section 9). */
export function rebateOf(fee: bigint): bigint {
  return (fee * REBATE_RATIO_PPM) / 1_000_000n;
}

/** Largest day number accepted by settleRebates (about the year 29349; any real day is far below). */
export const MAX_REBATE_DAY = 10_000_000;

/**
 * The rebate command. settleRebates pays every accrued rebate of the days up to and including `day` (a rebate day,
 * see rebateDay) that were not settled yet, once: refused with rebate_day_open while `day` is not over at the
 * command's ts (day >= rebateDay(ts)); invalid_config for a day that is not a whole number in 0..MAX_REBATE_DAY. A
 * day at or before the last settled day changes nothing (code 'ok', `duplicate` true, no events), so the job may
 * retry it any number of times, across restarts.
 */
export type RebateCommand = { ts: number; type: 'settleRebates'; day: number };

/** One invitee's rebate of one day, settled. Amounts in REBATE_ASSET units. */
export interface RebatePayout {
  /** the rebate day (rebateDay) of the fees */
  day: number;
  inviterId: string;
  inviteeId: string;
  asset: string;
  /** the invitee's contract fees of the day */
  fee: bigint;
  /** floor(fee x ratio) */
  rebate: bigint;
  /** what was paid: the rebate, or 0 when the inviter was below the threshold at the settlement */
  paid: bigint;
}

/** The rebate events. */
export type RebateEvent =
  /** One payout (in the order paid: day ascending, then invitees in the order their first fee of the day came). */
  | ({ type: 'rebatePaid'; ts: number } & RebatePayout)
  /** A settlement: every day from `fromDay` to `day` is settled now (after the rebatePaid events). */
  | { type: 'rebatesSettled'; ts: number; fromDay: number; day: number; payouts: number; paid: bigint };

/** Reads of the rebate state. */
export interface RebateReads {
  /** The last settled rebate day, or -1 when none was settled yet. */
  rebateSettledThrough(): number;
  /** The fees (and the rebates they earn so far) accrued and not settled yet of one invitee, per day ascending. */
  rebateAccrued(inviteeId: string): { day: number; inviterId: string; fee: bigint; rebate: bigint }[];
}
