/**
 * Exact decimal-string -> integer conversion for the benchmark loaders. No floating point: the
 * exchange strings ("61837.63000000", or "1.48e-06" as the Bitfinex CSV writes small sizes) are
 * rewritten as plain digit strings and read as bigint.
 */

import { tryParseDecimal } from '@exchange/money';

const SCI_RE = /^([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * Split a non-negative decimal string (optionally with an exponent) into its integer and fraction
 * digits, exactly. Example: splitDecimal("1.48e-06") -> { int: "0", frac: "00000148" }.
 * Throws on anything that is not a plain or scientific decimal.
 */
export function splitDecimal(s: string): { int: string; frac: string } {
  const m = SCI_RE.exec(s);
  if (m === null) throw new Error(`not a decimal: "${s}"`);
  let int = m[1] as string;
  let frac = m[2] ?? '';
  const exp = m[3] === undefined ? 0 : Number.parseInt(m[3], 10);
  if (exp > 0) {
    const moved = (frac + '0'.repeat(exp)).slice(0, exp);
    int += moved;
    frac = frac.slice(Math.min(exp, frac.length));
  } else if (exp < 0) {
    const k = -exp;
    const padded = '0'.repeat(k) + int;
    frac = padded.slice(padded.length - k) + frac;
    int = padded.slice(0, padded.length - k);
  }
  int = int.replace(/^0+(?=[0-9])/, '');
  if (int === '') int = '0';
  return { int, frac: frac.replace(/0+$/, '') };
}

/**
 * Number of significant fraction digits (trailing zeros ignored).
 * Example: fractionDigits("61837.63000000") -> 2; fractionDigits("1.48e-06") -> 8.
 */
export function fractionDigits(s: string): number {
  return splitDecimal(s).frac.length;
}

/**
 * Parse a non-negative decimal string (optionally with an exponent) into an integer count of 10^-decimals units,
 * exactly, with the one parser of @exchange/money. Example: toUnits("0.00150000", 5) -> 150n. Throws if the string
 * is not a decimal or has non-zero digits beyond `decimals` (the caller picks `decimals` from the data, so nothing
 * rounds).
 */
export function toUnits(s: string, decimals: number): bigint {
  const { int, frac } = splitDecimal(s);
  const r = tryParseDecimal(frac === '' ? int : `${int}.${frac}`, decimals);
  if (!r.ok) throw new Error(`"${s}" has more than ${decimals} decimals`);
  return r.value;
}
