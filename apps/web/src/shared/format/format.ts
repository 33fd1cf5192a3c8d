/**
 * Display formatting of spec section 9: abbreviations at and above 10,000 (万 / 亿 in Chinese,
 * K / M in English), fixed precision of prices and amounts at the market's precision, signed
 * percentages, CNY valuation, masked phone/email and shortened UID. All on decimal strings, no floats.
 */
import { decToString, isDecimal, parseDec, rescale, toFixedDecimal, type RoundMode } from './decimal';

/** Placeholder shown for a missing value. */
export const EMPTY_VALUE = '--';

/** Inserts thousands separators into the integer part of a plain decimal string. */
export function groupThousands(s: string): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [int = '0', frac] = body.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (neg ? '-' : '') + grouped + (frac !== undefined ? '.' + frac : '');
}

/**
 * A price or amount at `decimals` places (the market's priceDecimals/qtyDecimals), optionally with
 * thousands separators; '--' when the value is missing or not a decimal.
 */
export function formatFixed(value: string | null | undefined, decimals: number, opts: { group?: boolean; mode?: RoundMode } = {}): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const s = toFixedDecimal(value, decimals, opts.mode ?? 'round');
  return opts.group ? groupThousands(s) : s;
}

/**
 * Spec section 9 abbreviation: below 10,000 the value is shown at `decimals` places; at or above
 * 10,000 it is divided and suffixed: zh 万 (10^4) and 亿 (10^8); en K (10^3) and M (10^6).
 * formatCompact("123456.7", "zh") === "12.35万"; formatCompact("123456.7", "en") === "123.46K".
 */
export function formatCompact(value: string | null | undefined, lang: 'zh' | 'en', decimals = 2): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const d = parseDec(value);
  const abs = d.units < 0n ? -d.units : d.units;
  const ge = (p: number) => abs >= 10n ** BigInt(p + d.scale);
  let shift = 0;
  let suffix = '';
  if (ge(4)) {
    if (lang === 'zh') [shift, suffix] = ge(8) ? [8, '亿'] : [4, '万'];
    else [shift, suffix] = ge(6) ? [6, 'M'] : [3, 'K'];
  }
  const shifted = { units: d.units, scale: d.scale + shift };
  return decToString(rescale(shifted, decimals, 'round')) + suffix;
}

/** Signed percent of a change such as updown "1.2" -> "+1.20%", "-0.5" -> "-0.50%", "0" -> "0.00%". */
export function formatPercent(value: string | null | undefined, decimals = 2): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const s = toFixedDecimal(value, decimals);
  const zero = parseDec(s).units === 0n;
  return (zero || s.startsWith('-') ? s : '+' + s) + '%';
}

/** Direction of a signed change: 'up' (> 0), 'down' (< 0) or 'flat'; for the colour convention. */
export function trendOf(value: string | null | undefined): 'up' | 'down' | 'flat' {
  if (value == null || !isDecimal(value)) return 'flat';
  const u = parseDec(value).units;
  return u > 0n ? 'up' : u < 0n ? 'down' : 'flat';
}

/**
 * CNY valuation "¥1,234.56": 2 decimals, or up to 6 significant decimals below 1 so tiny prices
 * stay readable (chPrice of spec section 3).
 */
export function formatCny(value: string | null | undefined, opts: { symbol?: boolean } = {}): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const d = parseDec(value);
  const abs = d.units < 0n ? -d.units : d.units;
  let decimals = 2;
  if (abs < 10n ** BigInt(d.scale) && abs !== 0n) decimals = Math.min(Math.max(d.scale, 2), 6);
  const s = groupThousands(toFixedDecimal(value, decimals));
  return (opts.symbol === false ? '' : '¥') + s;
}

/** Masks a phone or email: first 3 and last 4 characters kept (spec section 9): "138****5678". */
export function maskAccount(account: string | null | undefined): string {
  const s = account ?? '';
  if (s.length <= 7) return s;
  return s.slice(0, 3) + '****' + s.slice(-4);
}

/** Shortens a UID to its first and last 5 characters (spec section 9): "ab12c...9xyz0". */
export function shortUid(uid: string | null | undefined): string {
  const s = uid ?? '';
  if (s.length <= 10) return s;
  return s.slice(0, 5) + '...' + s.slice(-5);
}

/** Local date-time "2024-05-01 13:05:09" of a Unix ms timestamp. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return EMPTY_VALUE;
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
