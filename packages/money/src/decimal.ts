/**
 * Decimal strings <-> bigint integers in a fixed scale.
 *
 * `tryParseDecimal` / `parseDecimal` and `formatDecimal` are the one pair of conversions between the wire (decimal
 * strings such as "0.00150000") and integers (bigint counts of 10^-decimals units) in every package: the engine, the
 * server, the web app and the console. No floating point is involved anywhere.
 */

/** Why a decimal string was refused by `tryParseDecimal`. */
export type DecimalParseError = 'invalid_format' | 'too_many_decimals' | 'too_long';

/** Result of `tryParseDecimal`: the value in 10^-decimals units, or the reason it was refused. */
export type DecimalParseResult = { ok: true; value: bigint } | { ok: false; error: DecimalParseError };

/** Options of `tryParseDecimal`. */
export interface DecimalParseOptions {
  /** Accept one leading '-' (a signed value such as a PnL or a balance change); default false. */
  signed?: boolean;
  /**
   * Accept fraction digits beyond `decimals` when they are all zeros ("1.50000000000" at 8 decimals), as a person or
   * a data file may write them; default false (the wire's precision is a contract).
   */
  trailingZeros?: boolean;
}

/** Longest decimal string accepted (characters); protects the parser from megabyte inputs. */
export const MAX_DECIMAL_LENGTH = 64;

const DECIMAL_RE = /^(-)?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** 10^n as a bigint, cached for n in 0..76 (n must be a non-negative integer). */
export function pow10(n: number): bigint {
  const cached = POW10[n];
  if (cached !== undefined) return cached;
  if (!(n >= 0) || Math.floor(n) !== n) throw new RangeError(`pow10: bad exponent ${n}`);
  return 10n ** BigInt(n);
}
const POW10: bigint[] = [];
for (let i = 0; i <= 76; i++) POW10.push(10n ** BigInt(i));

/**
 * Parse a non-negative decimal string into an integer count of 10^-decimals units.
 * Strict: digits, optionally one '.' followed by at least one digit; no sign (one leading '-' with
 * `options.signed`), exponent, spaces,
 * leading zeros ("007") or bare dots (".5", "5."). Trailing fraction zeros beyond `decimals` are
 * still "too many decimals" (the caller's precision is a contract, not a rounding hint).
 * Example: tryParseDecimal("0.0015", 8) -> { ok: true, value: 150000n }.
 */
export function tryParseDecimal(str: string, decimals: number, options: DecimalParseOptions = {}): DecimalParseResult {
  if (typeof str !== 'string') return { ok: false, error: 'invalid_format' };
  if (str.length > MAX_DECIMAL_LENGTH) return { ok: false, error: 'too_long' };
  const m = DECIMAL_RE.exec(str);
  if (m === null || (m[1] !== undefined && options.signed !== true)) return { ok: false, error: 'invalid_format' };
  const intPart = m[2] as string;
  let frac = m[3] ?? '';
  if (frac.length > decimals && options.trailingZeros === true && /^0*$/.test(frac.slice(decimals))) frac = frac.slice(0, decimals);
  if (frac.length > decimals) return { ok: false, error: 'too_many_decimals' };
  const abs = BigInt(intPart) * pow10(decimals) + (frac.length === 0 ? 0n : BigInt(frac) * pow10(decimals - frac.length));
  return { ok: true, value: m[1] === undefined ? abs : -abs };
}

/** Thrown by `parseDecimal` for a string `tryParseDecimal` refuses; `code` says why. */
export class DecimalError extends Error {
  constructor(
    readonly code: DecimalParseError,
    readonly input: string,
  ) {
    super(`${code}: ${input.length > 40 ? `${input.slice(0, 40)}...` : input}`);
    this.name = 'DecimalError';
  }
}

/**
 * Parse a decimal string into 10^-decimals units (see `tryParseDecimal` for the accepted syntax).
 * Throws `DecimalError` when the string is refused; use `tryParseDecimal` for a value result.
 */
export function parseDecimal(str: string, decimals: number, options: DecimalParseOptions = {}): bigint {
  const r = tryParseDecimal(str, decimals, options);
  if (!r.ok) throw new DecimalError(r.error, String(str));
  return r.value;
}

/**
 * Format an integer count of 10^-decimals units as a decimal string with exactly `decimals`
 * fraction digits (none and no dot when decimals = 0). Negative values get a leading '-'.
 * Example: formatDecimal(150000n, 8) -> "0.00150000".
 */
export function formatDecimal(value: bigint, decimals: number): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  if (decimals === 0) return (neg ? '-' : '') + abs.toString();
  const s = abs.toString().padStart(decimals + 1, '0');
  const cut = s.length - decimals;
  return (neg ? '-' : '') + s.slice(0, cut) + '.' + s.slice(cut);
}

/** Change the scale of a value from `fromDecimals` to `toDecimals`, rounding down (towards zero) when narrowing. */
export function rescaleFloor(value: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return value * pow10(toDecimals - fromDecimals);
  return value / pow10(fromDecimals - toDecimals);
}
