/**
 * The interest estimate shown before locking, by the server's formula (packages/core earn/types.ts earnInterest):
 * floor(amount x apr% x days / 365), on decimal strings (no float), rounded down to the coin's 8 decimals.
 */
import { divDecimal, isDecimal, mulDecimal } from '../../../shared/format';

/** Interest of `amount` at `apr` percent for `days`, 8 decimals, rounded down; '' for a malformed amount. */
export function estimateInterest(amount: string, apr: string, days: number): string {
  if (!isDecimal(amount) || !isDecimal(apr)) return '';
  const perYear = mulDecimal(amount, apr, 12, 'down');
  return divDecimal(mulDecimal(perYear, String(days), 12, 'down'), '36500', 8, 'down');
}
