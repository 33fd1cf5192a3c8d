/**
 * Display formatting of spec section 9: abbreviations at and above 10,000 (万 / 亿 in Chinese,
 * K / M in English), fixed precision of prices and amounts at the market's precision, signed
 * percentages, CNY valuation, masked phone/email and shortened UID. All on decimal strings, no floats.
 *
 * ONE RULE FOR EVERY NUMBER ON SCREEN (as Binance shows them; every feature uses these functions, never
 * toFixed / toLocaleString / Intl.NumberFormat / trimZeros / a raw API string; features/format-rule.test.ts scans for it):
 * - an amount of an asset: `formatCoin(v, coin)`, thousands grouped, rounded down, at the asset's display precision
 *   (fiat-like coins such as USDT exactly 2 decimals, other coins up to 8 without trailing zeros): balances, totals,
 *   order totals, what a P2P ad has left, earn amounts;
 * - an amount the user acts on exactly: `formatCoin(v, coin, { exact: true })`, grouped, every digit of the asset's
 *   scale (up to 8, trailing zeros dropped, at least 2 for fiat-like coins): the "Available" of a form whose Max/All
 *   button fills the amount (transfer, withdraw, convert, margin), fees (a fee below the display precision
 *   would read "0.00"), the amount of one deposit / withdrawal / transfer record and of a P2P order (what moved);
 * - a price: `formatPrice(v, pair.priceDecimals)`; a quantity of a market's base coin: `formatQty(v, pair.qtyDecimals)`;
 *   both grouped at exactly the market's precision;
 * - fiat (CNY) amounts and prices: `formatCny` ("¥1,234.56");
 * - what goes INTO an input (typed, or put there by Max / a tap on the book) stays ungrouped: `formatFixed(v, d)`,
 *   `trimZeros(v)`, since an input's value must parse back as a decimal.
 */
import { decToString, isDecimal, parseDec, pow10, ratioToPercent, rescale, toFixedDecimal, type RoundMode } from '@exchange/money';

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

/** Drops trailing fraction zeros of a plain decimal string, keeping at least `minDecimals`: ("1.2300", 0) -> "1.23", ("5.000", 0) -> "5", ("5.000", 2) -> "5.00". */
export function trimZeros(s: string, minDecimals = 0): string {
  const dot = s.indexOf('.');
  if (dot < 0) return minDecimals > 0 ? `${s}.${'0'.repeat(minDecimals)}` : s;
  let frac = s.slice(dot + 1).replace(/0+$/, '');
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, '0');
  return frac === '' ? s.slice(0, dot) : `${s.slice(0, dot)}.${frac}`;
}

/**
 * An amount at most `maxDecimals` places (rounded down unless `mode` says otherwise: a balance is never
 * overstated), trailing zeros dropped down to `minDecimals`, with thousands separators unless `group` is false;
 * '--' when missing. formatAmount("7902.14400460", 2, { minDecimals: 2 }) === "7,902.14";
 * formatAmount("0.00000000", 8) === "0"; formatAmount("0.00123400", 8) === "0.001234".
 */
export function formatAmount(
  value: string | null | undefined,
  maxDecimals: number,
  opts: { minDecimals?: number; mode?: RoundMode; group?: boolean } = {},
): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const s = trimZeros(toFixedDecimal(value, maxDecimals, opts.mode ?? 'down'), Math.min(opts.minDecimals ?? 0, maxDecimals));
  return opts.group === false ? s : groupThousands(s);
}

/**
 * Coins whose amounts read like money: balances and totals at 2 decimals, as Binance shows USDT. Every other
 * coin shows up to COIN_DECIMALS with trailing zeros dropped.
 */
export const FIAT_LIKE_COINS: ReadonlySet<string> = new Set(['USDT', 'USDC', 'FDUSD', 'TUSD', 'DAI', 'BUSD']);
/** Most decimals a coin amount shows: the assets' scale (10^-8). */
export const COIN_DECIMALS = 8;

/**
 * An amount of `coin`, the one formatter of asset amounts (module docstring), thousands grouped, rounded down (a
 * balance is never overstated):
 * - display (default; balances, totals, order totals, P2P quantities): fiat-like coins at exactly 2 decimals
 *   ("7,902.14", "0.00"), others up to 8 decimals without trailing zeros ("0.001234", "0");
 * - `exact` (where the user acts on the exact amount: the "Available" a Max/All button puts into the amount input,
 *   fees, a record of what moved): up to 8 decimals without trailing zeros, at least 2 for fiat-like coins ("9,410.2226254 USDT",
 *   "0.00 USDT", "0.000015 BTC").
 * '--' when the value is missing or not a decimal.
 */
export function formatCoin(value: string | null | undefined, coin: string, opts: { exact?: boolean } = {}): string {
  const fiat = FIAT_LIKE_COINS.has(coin);
  if (fiat && !opts.exact) return formatAmount(value, 2, { minDecimals: 2 });
  return formatAmount(value, COIN_DECIMALS, { minDecimals: fiat ? 2 : 0 });
}

/** A price at the market's price precision (priceDecimals), thousands grouped: formatPrice("100000", 2) === "100,000.00". */
export function formatPrice(value: string | null | undefined, priceDecimals: number): string {
  return formatFixed(value, priceDecimals, { group: true });
}

/** A quantity of a market's base coin at its quantity precision (qtyDecimals), thousands grouped: formatQty("1234.5", 3) === "1,234.500". */
export function formatQty(value: string | null | undefined, qtyDecimals: number): string {
  return formatFixed(value, qtyDecimals, { group: true });
}

/**
 * A chart axis or crosshair label: the chart library hands over a float, shown at `decimals` places with
 * thousands separators (display only: no money is computed from it).
 */
export function formatChartNumber(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return groupThousands(value.toFixed(Math.max(0, Math.min(decimals, 20))));
}

/** Units of the spec section 9 abbreviation, largest first: [power of ten, suffix]. */
const COMPACT_UNITS: Record<'zh' | 'en', ReadonlyArray<readonly [number, string]>> = {
  zh: [
    [8, '亿'],
    [4, '万'],
  ],
  en: [
    [6, 'M'],
    [3, 'K'],
  ],
};

/**
 * Spec section 9 abbreviation: below 10,000 the value is shown at `decimals` places; at or above
 * 10,000 it is divided and suffixed: zh 万 (10^4) and 亿 (10^8); en K (10^3) and M (10^6). Thousands
 * separators in both ("9,999.99", "2,345.68M"); a value that rounds up to the next unit takes it
 * ("99,999,999" is "1.00亿", not "10000.00万").
 * formatCompact("123456.7", "zh") === "12.35万"; formatCompact("123456.7", "en") === "123.46K".
 */
export function formatCompact(value: string | null | undefined, lang: 'zh' | 'en', decimals = 2): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const d = parseDec(value);
  const atLeast = (units: bigint, scale: number, p: number) => (units < 0n ? -units : units) >= pow10(p + scale);
  const plain = rescale(d, decimals, 'round');
  if (!atLeast(plain.units, decimals, 4)) return groupThousands(decToString(plain));
  const units = COMPACT_UNITS[lang];
  for (let i = 0; i < units.length; i++) {
    const [shift, suffix] = units[i]!;
    const shifted = rescale({ units: d.units, scale: d.scale + shift }, decimals, 'round');
    // Rounded up to 1,000 of this unit: that is the next unit's 1 (zh 10000.00万 = 1.00亿, en 1000.00K = 1.00M).
    const bigger = units[i - 1];
    if (bigger && atLeast(shifted.units, decimals, bigger[0] - shift)) {
      return groupThousands(decToString(rescale({ units: d.units, scale: d.scale + bigger[0] }, decimals, 'round'))) + bigger[1];
    }
    if (atLeast(plain.units, decimals, shift)) return groupThousands(decToString(shifted)) + suffix;
  }
  return groupThousands(decToString(plain));
}

/** Signed percent of a change such as updown "1.2" -> "+1.20%", "-0.5" -> "-0.50%", "0" -> "0.00%". */
export function formatPercent(value: string | null | undefined, decimals = 2): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  const s = toFixedDecimal(value, decimals);
  const zero = parseDec(s).units === 0n;
  return (zero || s.startsWith('-') ? s : '+' + s) + '%';
}

/**
 * A ratio such as a reserve ratio ("1.0400") as a percent with thousands separators, rounded down so it is never
 * overstated: "1.0400" -> "104.00%", "10000.0000" -> "1,000,000.00%"; '--' when missing or not a decimal.
 */
export function formatRatioPercent(value: string | null | undefined, decimals = 2): string {
  if (value == null || value === '' || !isDecimal(value)) return EMPTY_VALUE;
  return groupThousands(ratioToPercent(value, decimals)) + '%';
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
  if (abs < pow10(d.scale) && abs !== 0n) decimals = Math.min(Math.max(d.scale, 2), 6);
  const s = groupThousands(toFixedDecimal(value, decimals));
  return (opts.symbol === false ? '' : '¥') + s;
}

/**
 * Masks a phone or e-mail. A phone keeps its first 3 and last 4 characters (spec section 9): "138****5678". An
 * e-mail keeps the first 3 characters of its name and its whole domain, as Binance shows it, so the user can tell
 * which mailbox a code goes to: "wallet@example.com" -> "wal***@example.com".
 */
export function maskAccount(account: string | null | undefined): string {
  const s = account ?? '';
  const at = s.lastIndexOf('@');
  if (at > 0) return `${s.slice(0, Math.min(3, at))}***${s.slice(at)}`;
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

/** Time left until `ts` (Unix ms) at `now` as HH:MM:SS, never negative: a countdown (the contracts' next funding). */
export function formatCountdown(ts: number, now: number): string {
  const left = Math.max(0, Math.floor((ts - now) / 1000));
  return [Math.floor(left / 3600), Math.floor((left % 3600) / 60), left % 60].map((n) => String(n).padStart(2, '0')).join(':');
}
