/**
 * Parameters of the Binance spot REST routes: TypeBox schemas of every parameter as Binance sends them
 * (strings: decimals as decimal strings, integers as digit strings, enums case-sensitive), and the helpers that turn
 * them into values with Binance's errors. A malformed value fails the route's schema (Fastify validation, answered
 * -1100 "Illegal characters found in parameter" by binance.errors.ts); a well-formed value out of range is -1100
 * with the legal range as Binance words it. Decimals are parsed exactly (no floating point) by the services.
 * Source: https://developers.binance.com/docs/binance-spot-api-docs/rest-api (parameter tables) and errors.md.
 */
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { BinanceError, BX } from './binance.errors';

/** A Binance symbol ("BTCUSDT"): Binance's legal range for `symbol`. */
export const SymbolParam = Type.String({ pattern: '^[A-Z0-9-_.]{1,20}$' });
/** A JSON array of symbols (`["BTCUSDT","ETHUSDT"]`), parsed by `symbolsParam`. */
export const SymbolsParam = Type.String({ pattern: '^\\[.{0,4000}\\]$', maxLength: 4002 });
/** An INT or LONG parameter (limit, ids, times in ms): at most 18 digits, so that every value fits a bigint column. */
export const IntParam = Type.String({ pattern: '^[0-9]{1,18}$' });
/** A DECIMAL parameter (price, quantity, quoteOrderQty): a plain non-negative decimal. */
export const DecimalParam = Type.String({ pattern: '^[0-9]{1,20}(\\.[0-9]{1,20})?$' });
/** A client order id: Binance's legal range for newClientOrderId / origClientOrderId. */
export const ClientOrderIdParam = Type.String({ pattern: '^[.A-Z:/a-z0-9_-]{1,36}$' });
/** A BOOLEAN parameter. */
export const BoolParam = Type.Union([Type.Literal('true'), Type.Literal('false')]);
/** An ENUM parameter: upper-case words; the route checks the value (Binance answers -1116/-1117/-1115 and the like). */
export const EnumParam = Type.String({ pattern: '^[A-Za-z_]{1,40}$' });

/**
 * The parameters every SIGNED (TRADE, USER_DATA) route takes: timestamp, recvWindow and the signature. Optional in
 * the schema: the authentication hook checks the key first (-2014/-2015), then a missing timestamp (-1102).
 */
export const SIGNED_PARAMS = {
  timestamp: Type.Optional(IntParam),
  recvWindow: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}(\\.[0-9]{1,3})?$' })),
  signature: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_-]{1,256}$' })),
} as const;

/**
 * `schema` accepting '' as well (a string schema with a pattern): Binance answers an empty parameter as a missing
 * one (-1102 for a mandatory one), so the routes read '' as absent instead of failing its pattern with -1100.
 */
function allowEmpty(schema: TSchema): TSchema {
  const pattern = (schema as { pattern?: unknown }).pattern;
  if (typeof pattern !== 'string' || !pattern.startsWith('^') || !pattern.endsWith('$')) return schema;
  return { ...schema, pattern: `^(?:${pattern.slice(1, -1)})?$` };
}

/** `props` with '' allowed in each. */
function emptyAllowed(props: TProperties): TProperties {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, allowEmpty(v)]));
}

/** A querystring schema of a Binance route: all parameters strings; unknown ones are ignored, as Binance reads them. */
export function params<T extends TProperties>(props: T): TObject<T> {
  return Type.Object(emptyAllowed(props)) as TObject<T>;
}

/** A signed route's querystring schema: `props` plus timestamp, recvWindow and signature. */
export function signedParams<T extends TProperties>(props: T): TObject<T & typeof SIGNED_PARAMS> {
  return Type.Object(emptyAllowed({ ...props, ...SIGNED_PARAMS })) as TObject<T & typeof SIGNED_PARAMS>;
}

/**
 * The schema of a signed POST/DELETE route, for its query string and its form body alike: Binance reads a parameter
 * from either, so every parameter is optional here and the route checks mandatory ones on the merged parameters
 * (paramsOf). A request without a body (all in the query string) is validated as an empty body (the Binance scope's
 * preValidation hook, binance.hooks.ts).
 */
export function signedPartialParams<T extends TProperties>(props: T): TSchema {
  const optional: TProperties = {};
  for (const [k, v] of Object.entries(emptyAllowed({ ...props, ...SIGNED_PARAMS }))) optional[k] = Type.Optional(v);
  return Type.Object(optional);
}

/** -1100 for a value outside its legal range, as Binance words it. */
export function outOfRange(param: string, range: string): BinanceError {
  return new BinanceError(-1100, `Illegal characters found in parameter '${param}'; legal range is '${range}'.`, 400);
}

/**
 * An INT parameter as a number: undefined when absent or empty; `fallback` when absent; -1100 below `min`; values
 * above `max` are lowered to `max` (Binance: "If limit > 5000, only 5000 entries will be returned").
 */
export function intParam(value: string | undefined, name: string, opts: { min: number; max: number; fallback: number }): number {
  if (value === undefined || value === '') return opts.fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < opts.min) throw outOfRange(name, `${opts.min} to ${opts.max}`);
  return Math.min(n, opts.max);
}

/** A LONG time parameter (ms since the epoch) as a number, or undefined when absent; -1100 beyond 2^53. */
export function timeParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw outOfRange(name, `0 to ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

/** A LONG id parameter (orderId, fromId) as a canonical decimal string, or undefined when absent. */
export function idParam(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  return BigInt(value).toString();
}

/** startTime/endTime of a history query: -1127 when more than `hours` apart (Binance: 24 hours). */
export function checkWindow(startTime: number | undefined, endTime: number | undefined, hours = 24): void {
  if (startTime !== undefined && endTime !== undefined && endTime - startTime > hours * 3_600_000) {
    throw new BinanceError(-1127, `More than ${hours} hours between startTime and endTime.`, 400);
  }
}

/**
 * The `symbols` parameter: a JSON array of symbol strings (`["BTCUSDT","BNBUSDT"]`), or undefined when absent.
 * -1100 when it is not such an array or empty; -1101 over `max` entries; duplicates are dropped.
 */
export function symbolsParam(value: string | undefined, max = 100): string[] | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw BX.illegalChars('symbols');
  }
  const re = /^[A-Z0-9-_.]{1,20}$/;
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s): s is string => typeof s === 'string' && re.test(s))) {
    throw BX.illegalChars('symbols');
  }
  if (parsed.length > max) throw BX.tooManyParams();
  return [...new Set(parsed)];
}

/** -1128 when both `symbol` and `symbols` were sent (Binance: "Parameter symbol and symbols cannot be used in combination"). */
export function notBoth(a: string | undefined, b: string | undefined, names: [string, string]): void {
  if (a !== undefined && b !== undefined) {
    throw new BinanceError(-1128, `Combination of optional parameters invalid: '${names[0]}' and '${names[1]}'.`, 400);
  }
}
