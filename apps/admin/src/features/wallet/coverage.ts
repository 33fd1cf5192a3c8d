/**
 * Coverage of user liabilities by on-chain holdings, exact (no floating point): amounts are the wire's decimal strings
 * with at most 18 places, read by @exchange/money's one parser (`tryParseDecimal`) and compared as integers at that
 * common scale.
 */
import { formatDecimal, pow10, tryParseDecimal } from '@exchange/money';
import { groupThousands } from '../../shared/format';

/** Places of the integers of `decimalUnits` (the finest scale of a coin on the wire). */
export const UNITS_SCALE = 18;

/**
 * A non-negative decimal string of the wire (spaces around ignored) as an integer at 18 places ("1.5" ->
 * 1500000000000000000n), or null when it is not one ('' = unknown; a sign, more than 18 places).
 */
export function decimalUnits(s: string): bigint | null {
  const r = tryParseDecimal(s.trim(), UNITS_SCALE);
  return r.ok ? r.value : null;
}

/**
 * (hot wallet + deposit addresses) / liabilities as a percentage with 2 places, rounded down, thousands grouped
 * ("100.00%", "1,000,000.00%"); '' when
 * a figure is unknown or the liabilities are 0.
 */
export function coveragePercent(hotWallet: string, depositAddresses: string, liabilities: string): string {
  const a = decimalUnits(hotWallet);
  const b = decimalUnits(depositAddresses);
  const l = decimalUnits(liabilities);
  if (a === null || b === null || l === null || l === 0n) return '';
  const bp = ((a + b) * 10_000n) / l; // hundredths of a percent
  return `${groupThousands(formatDecimal(bp, 2))}%`;
}

/** True when a coverage text of coveragePercent is below 100%. */
export function isShort(coverage: string): boolean {
  const units = decimalUnits(coverage.replace(/%$/, '').replaceAll(',', ''));
  return units !== null && units < 100n * pow10(UNITS_SCALE);
}
