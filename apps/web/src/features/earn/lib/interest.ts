/**
 * The interest estimate shown before locking, by the server's formula (packages/core earn/types.ts earnInterest):
 * floor(amount x apr% x days / 365), on decimal strings (no float), rounded down to the coin's 8 decimals.
 */
import { divDecimal, isDecimal, mulDecimal, toFixedDecimal, trimZeros } from '../../../shared/format';

/** Interest of `amount` at `apr` percent for `days`, 8 decimals, rounded down; '' for a malformed amount. */
export function estimateInterest(amount: string, apr: string, days: number): string {
  if (!isDecimal(amount) || !isDecimal(apr)) return '';
  const perYear = mulDecimal(amount, apr, 12, 'down');
  return divDecimal(mulDecimal(perYear, String(days), 12, 'down'), '36500', 8, 'down');
}

/** Decimals an annual rate shows (percent): 3.655 -> "3.66". */
export const APR_DECIMALS = 2;

/**
 * An annual rate (percent, as the server sends it: up to 4 decimals, "3.655") as shown: rounded half up to
 * APR_DECIMALS on the decimal string (never truncated, never through a float), trailing zeros dropped, with "%":
 * "3.655" -> "3.66%", "3.6549" -> "3.65%", "5" -> "5%"; the text itself followed by "%" when it is not a decimal.
 */
export function formatApr(apr: string): string {
  if (!isDecimal(apr)) return `${apr}%`;
  return `${trimZeros(toFixedDecimal(apr, APR_DECIMALS, 'round'))}%`;
}
