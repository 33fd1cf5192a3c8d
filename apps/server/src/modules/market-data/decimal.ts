/**
 * Exact decimal helpers of the market-data module: decimal strings <-> bigint counts of 10^-decimals units.
 * No floating point. Parsing rounds half up (away from zero) to the target decimals, because reference data
 * (ReferencePaths) and the database may carry more decimals than a market shows.
 */

const DEC_RE = /^(-)?([0-9]+)(?:\.([0-9]*))?$/;

/** 10^n as a bigint (n a non-negative integer). */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/**
 * Parses a decimal string ("-12.345", "7", "0.10") into units of 10^-decimals, rounding half away from zero.
 * Throws RangeError on anything else (exponents, spaces, NaN, empty).
 */
export function toUnits(str: string, decimals: number): bigint {
  const m = DEC_RE.exec(str.trim());
  if (m === null) throw new RangeError(`not a decimal: ${str.slice(0, 40)}`);
  const neg = m[1] === '-';
  const int = m[2] as string;
  const frac = m[3] ?? '';
  let v: bigint;
  if (frac.length <= decimals) {
    v = BigInt(int) * pow10(decimals) + (frac.length === 0 ? 0n : BigInt(frac) * pow10(decimals - frac.length));
  } else {
    const kept = frac.slice(0, decimals);
    v = BigInt(int) * pow10(decimals) + (kept.length === 0 ? 0n : BigInt(kept));
    if ((frac.charCodeAt(decimals) - 48) >= 5) v += 1n;
  }
  return neg ? -v : v;
}

/** Formats `units` (10^-decimals) as a decimal string with exactly `decimals` decimals: (12345n, 2) -> "123.45". */
export function fromUnits(units: bigint, decimals: number): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const s = abs.toString();
  if (decimals === 0) return (neg ? '-' : '') + s;
  const padded = s.padStart(decimals + 1, '0');
  const out = `${padded.slice(0, padded.length - decimals)}.${padded.slice(padded.length - decimals)}`;
  return (neg ? '-' : '') + out;
}

/** Re-scales `units` from `from` decimals to `to` decimals, rounding half away from zero when dropping digits. */
export function rescale(units: bigint, from: number, to: number): bigint {
  if (to >= from) return units * pow10(to - from);
  return divRound(units, pow10(from - to));
}

/** a / b rounded half away from zero (b > 0). */
export function divRound(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError('divRound: divisor must be positive');
  const neg = a < 0n;
  const abs = neg ? -a : a;
  const q = (abs * 2n + b) / (2n * b);
  return neg ? -q : q;
}

/** Larger of two bigints. */
export function maxB(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** Smaller of two bigints. */
export function minB(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * Percent change from `open` to `last` with 2 decimals, signed ("-1.25", "0.00", "3.10"), rounded half away
 * from zero. "0.00" when open is 0 (no reference).
 */
export function percentChange(open: bigint, last: bigint): string {
  if (open <= 0n) return '0.00';
  const bps = divRound((last - open) * 10_000n, open);
  return fromUnits(bps, 2);
}
