/**
 * Exact decimal arithmetic on decimal STRINGS of any scale (what the screens compute: a total, a balance after a
 * withdrawal, a rounding for display). A string is read into a bigint of units plus its scale (`parseDec`, through
 * the one parser `tryParseDecimal`) and written back with `formatDecimal`; never a float.
 * Rounding is explicit: 'round' = half away from zero, 'down' = toward zero, 'up' = away from zero.
 */
import { formatDecimal, MAX_DECIMAL_LENGTH, pow10, tryParseDecimal } from './decimal';

/** A parsed decimal: value = units / 10^scale. */
export interface Dec {
  units: bigint;
  scale: number;
}

/** How to round when dropping digits. */
export type RoundMode = 'round' | 'down' | 'up';

/** What a person types: an optional sign, digits, an optional '.' and digits ("-12.5", ".5", "5.", "007"). */
const TYPED_RE = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** The typed form of `s` in the one parser's syntax with its scale, or null when it is not a decimal. */
function canonical(s: string): { text: string; scale: number } | null {
  const m = TYPED_RE.exec(String(s).trim());
  if (!m) return null;
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if ((int + frac).length === 0) return null;
  const digits = int.replace(/^0+(?=\d)/, '') || '0';
  if (digits.length + frac.length + 2 > MAX_DECIMAL_LENGTH) return null;
  return { text: `${m[1] === '-' ? '-' : ''}${digits}${frac.length > 0 ? `.${frac}` : ''}`, scale: frac.length };
}

/** True when `s` is a plain decimal string such as "-12.5", "0.001", "7", ".5" (spaces around are ignored). */
export function isDecimal(s: string): boolean {
  return canonical(s) !== null;
}

/** Parses a decimal string of any scale (see `isDecimal`); throws RangeError on anything else (no exponent, no NaN). */
export function parseDec(s: string): Dec {
  const c = canonical(s);
  const r = c === null ? null : tryParseDecimal(c.text, c.scale, { signed: true });
  if (c === null || r === null || !r.ok) throw new RangeError(`not a decimal: ${s}`);
  return { units: r.value, scale: c.scale };
}

/** Re-scales `d` to `scale` digits, rounding per `mode` when digits are dropped. */
export function rescale(d: Dec, scale: number, mode: RoundMode = 'round'): Dec {
  if (scale >= d.scale) return { units: d.units * pow10(scale - d.scale), scale };
  const div = pow10(d.scale - scale);
  const neg = d.units < 0n;
  const abs = neg ? -d.units : d.units;
  let q = abs / div;
  const r = abs % div;
  if (r !== 0n) {
    if (mode === 'up') q += 1n;
    else if (mode === 'round' && r * 2n >= div) q += 1n;
  }
  return { units: neg ? -q : q, scale };
}

/** Formats a Dec as a plain string with exactly d.scale decimals ("-0.50"): `formatDecimal` of its units. */
export function decToString(d: Dec): string {
  return formatDecimal(d.units, d.scale);
}

/** `value` with exactly `decimals` decimals: toFixedDecimal("1.005", 2) === "1.01". */
export function toFixedDecimal(value: string, decimals: number, mode: RoundMode = 'round'): string {
  return decToString(rescale(parseDec(value), decimals, mode));
}

/**
 * A ratio (a plain decimal: "1.0400" is 104%) as a percent with exactly `decimals` decimals, rounded down so that a
 * ratio such as a reserve ratio is never overstated: ratioToPercent("1.0400", 2) === "104.00",
 * ratioToPercent("0.99999", 2) === "99.99", ratioToPercent("10000.0000", 2) === "1000000.00". Throws RangeError on a
 * string that is not a decimal.
 */
export function ratioToPercent(value: string, decimals: number): string {
  const d = parseDec(value);
  return decToString(rescale({ units: d.units * 100n, scale: d.scale }, decimals, 'down'));
}

/** Compares two decimal strings: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parseDec(a);
  const y = parseDec(b);
  const s = Math.max(x.scale, y.scale);
  const xu = rescale(x, s).units;
  const yu = rescale(y, s).units;
  return xu < yu ? -1 : xu > yu ? 1 : 0;
}

/** a + b, exact. */
export function addDecimal(a: string, b: string): string {
  const x = parseDec(a);
  const y = parseDec(b);
  const s = Math.max(x.scale, y.scale);
  return decToString({ units: rescale(x, s).units + rescale(y, s).units, scale: s });
}

/** a - b, exact. */
export function subDecimal(a: string, b: string): string {
  const y = parseDec(b);
  return addDecimal(a, decToString({ units: -y.units, scale: y.scale }));
}

/** a * b rounded to `decimals` decimals per `mode`. */
export function mulDecimal(a: string, b: string, decimals: number, mode: RoundMode = 'round'): string {
  const x = parseDec(a);
  const y = parseDec(b);
  return decToString(rescale({ units: x.units * y.units, scale: x.scale + y.scale }, decimals, mode));
}

/** a / b to `decimals` decimals per `mode`; throws RangeError when b is zero. */
export function divDecimal(a: string, b: string, decimals: number, mode: RoundMode = 'down'): string {
  const x = parseDec(a);
  const y = parseDec(b);
  if (y.units === 0n) throw new RangeError('division by zero');
  // a/b = (xu / 10^xs) / (yu / 10^ys) = xu * 10^(ys + decimals) / (yu * 10^xs) in units of 10^-decimals.
  const neg = x.units < 0n !== y.units < 0n;
  const num = (x.units < 0n ? -x.units : x.units) * pow10(y.scale + decimals);
  const den = (y.units < 0n ? -y.units : y.units) * pow10(x.scale);
  let q = num / den;
  const r = num % den;
  if (r !== 0n && (mode === 'up' || (mode === 'round' && r * 2n >= den))) q += 1n;
  return decToString({ units: neg ? -q : q, scale: decimals });
}

/** True when the decimal string is zero ("0", "0.000"). */
export function isZeroDecimal(value: string): boolean {
  return parseDec(value).units === 0n;
}

/** Number of decimals of a tick or step size: decimalsOf("0.0100") === 2 (trailing zeros ignored). */
export function decimalsOf(step: string): number {
  const frac = (step.split('.')[1] ?? '').replace(/0+$/, '');
  return frac.length;
}
