/** Display helpers of the console. */
import { isDecimal, ratioToPercent } from '@exchange/money';

/** A Unix ms time as local "YYYY-MM-DD HH:mm:ss"; '' for 0. */
export function formatTime(ms: number): string {
  if (!ms) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A JSON value of an audit row (before/after) as one line; '' for null. */
export function formatJson(v: unknown): string {
  return v === null || v === undefined ? '' : JSON.stringify(v);
}

/**
 * A decimal amount from the API ("100000000.00000000") for a table: thousands grouped, trailing zeros of the
 * fraction dropped ("100,000,000", "0.25"). Text only: the value is never turned into a number. '' stays ''.
 */
export function formatAmount(v: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*?)0*)?$/.exec(v);
  if (!m) return v;
  return `${m[1]}${groupThousands(m[2]!)}${m[3] ? `.${m[3]}` : ''}`;
}

/**
 * A ratio from the API (a reserve ratio "1.0400") as a percent with thousands grouped, rounded down so it is never
 * overstated ("104.00%", "1,000,000.00%"); '' stays '', anything not a decimal is shown as it came.
 */
export function formatRatio(v: string): string {
  return isDecimal(v) ? `${groupThousands(ratioToPercent(v, 2))}%` : v;
}

/** Thousands separators in the integer part of a plain decimal string ("1000000.00" -> "1,000,000.00"). */
export function groupThousands(s: string): string {
  const [whole = '', frac] = s.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}
