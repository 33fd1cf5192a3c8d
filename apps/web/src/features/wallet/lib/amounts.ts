/**
 * The amount rules of the withdraw and transfer forms (spec section 5), on decimal strings (shared/format decimal:
 * exact, never a float). They mirror the server's checks so that the user sees the spec's message before sending;
 * the server checks again. Each returns a locale key of the `wallet` namespace (`v.*`), or null when fine.
 */
import { compareDecimal, isZeroDecimal, subDecimal, toFixedDecimal } from '@exchange/money';
import { trimZeros } from '../../../shared/format/format';

/** Decimal places of engine amounts (every coin, packages/core asset scale). */
export const ENGINE_DECIMALS = 8;

/** A plain non-negative decimal as typed: digits, at most one point. */
const AMOUNT_RE = /^(\d+)(?:\.(\d*))?$/;

/** Number of decimal places typed in `amount` ("1.50" has 2). */
export function decimalPlaces(amount: string): number {
  return AMOUNT_RE.exec(amount)?.[2]?.length ?? 0;
}

/** Keeps what the user typed to a plain decimal with at most `decimals` places (digits and one point). */
export function sanitizeAmount(input: string, decimals: number): string {
  let v = input.replace(/[^\d.]/g, '');
  const dot = v.indexOf('.');
  if (dot >= 0) v = v.slice(0, dot + 1) + v.slice(dot + 1).replace(/\./g, '');
  if (decimals === 0) return v.replace('.', '');
  const [int, frac] = v.split('.');
  return frac !== undefined ? `${int}.${frac.slice(0, decimals)}` : v;
}

/** Common checks: required, a positive decimal, at most `decimals` places. */
function checkShape(amount: string, decimals: number): string | null {
  if (!amount) return 'v.amountRequired';
  if (!AMOUNT_RE.exec(amount) || amount.endsWith('.') || isZeroDecimal(amount)) return 'v.amountInvalid';
  if (decimalPlaces(amount) > decimals) return 'v.amountDecimals';
  return null;
}

/** What the withdraw form knows of the limits (WithdrawInfo; decimal strings in coin units). */
export interface WithdrawLimits {
  available: string;
  minWithdraw: string;
  maxWithdraw: string;
  withdrawFee: string;
  withdrawDecimals: number;
}

/**
 * Checks a withdrawal amount (fee included: what leaves the account): required, decimals, not below the minimum,
 * not above the available balance, not above the maximum (per-withdrawal and daily left), more than the fee.
 */
export function checkWithdrawAmount(amount: string, l: WithdrawLimits): string | null {
  const shape = checkShape(amount, l.withdrawDecimals);
  if (shape) return shape;
  if (compareDecimal(amount, l.minWithdraw) < 0) return 'v.amountBelowMin';
  if (compareDecimal(amount, l.available) > 0) return 'v.amountAboveAvailable';
  if (compareDecimal(amount, l.maxWithdraw) > 0) return 'v.amountAboveMax';
  if (compareDecimal(amount, l.withdrawFee) <= 0) return 'v.amountBelowFee';
  return null;
}

/** What the user receives for a valid `amount`: amount - fee, or '' when the amount is not a usable number. */
export function receiveAmount(amount: string, fee: string): string {
  if (!AMOUNT_RE.exec(amount) || amount.endsWith('.')) return '';
  const r = subDecimal(amount, fee);
  return r.startsWith('-') || isZeroDecimal(r) ? '' : r;
}

/**
 * The "Max" of the withdraw form: the smaller of the available balance and the maximum, rounded down to the
 * withdrawal decimals (the balance has 8, a USDT withdrawal takes 6), trailing zeros dropped.
 */
export function withdrawMax(l: WithdrawLimits): string {
  const max = compareDecimal(l.available, l.maxWithdraw) <= 0 ? l.available : l.maxWithdraw;
  return trimZeros(toFixedDecimal(max, l.withdrawDecimals, 'down'));
}

/** Checks a transfer: the two accounts differ, then the amount (spec section 5: 'Amount exceeds maximum'). */
export function checkTransfer(from: string, to: string, amount: string, available: string): string | null {
  if (from === to) return 'v.sameAccount';
  const shape = checkShape(amount, ENGINE_DECIMALS);
  if (shape) return shape;
  if (compareDecimal(amount, available) > 0) return 'v.amountExceedsMax';
  return null;
}
