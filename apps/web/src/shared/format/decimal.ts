/**
 * Exact decimal arithmetic on decimal STRINGS (the wire format of prices, amounts and money,
 * ARCHITECTURE.md section 5, money): values are parsed into a bigint of units plus a scale, never into a float.
 * Rounding is explicit: 'round' = half away from zero, 'down' = toward zero, 'up' = away from zero.
 */

/** A parsed decimal: value = units / 10^scale. */
export interface Dec {
  units: bigint;
  scale: number;
}

/** How to round when dropping digits. */
export type RoundMode = 'round' | 'down' | 'up';

const DEC_RE = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** True when `s` is a plain decimal string such as "-12.5", "0.001", "7". */
export function isDecimal(s: string): boolean {
  const m = DEC_RE.exec(s.trim());
  return !!m && ((m[2] ?? '') + (m[3] ?? '')).length > 0;
}

/** Parses a decimal string; throws RangeError on anything else (no exponent, no NaN). */
export function parseDec(s: string): Dec {
  const m = DEC_RE.exec(String(s).trim());
  if (!m || ((m[2] ?? '') + (m[3] ?? '')).length === 0) throw new RangeError(`not a decimal: ${s}`);
  const frac = m[3] ?? '';
  const digits = (m[2] || '0') + frac;
  const units = BigInt(digits) * (m[1] === '-' ? -1n : 1n);
  return { units, scale: frac.length };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

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

/** Formats a Dec as a plain string with exactly d.scale decimals ("-0.50"). */
export function decToString(d: Dec): string {
  const neg = d.units < 0n;
  const abs = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = abs.slice(0, abs.length - d.scale);
  const frac = d.scale > 0 ? '.' + abs.slice(abs.length - d.scale) : '';
  return (neg && d.units !== 0n ? '-' : '') + int + frac;
}

/** `value` with exactly `decimals` decimals: toFixedDecimal("1.005", 2) === "1.01". */
export function toFixedDecimal(value: string, decimals: number, mode: RoundMode = 'round'): string {
  return decToString(rescale(parseDec(value), decimals, mode));
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
