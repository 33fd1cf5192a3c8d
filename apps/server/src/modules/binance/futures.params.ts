/**
 * Parameters of the Binance USDⓈ-M futures routes (issue 15): TypeBox schemas of every parameter as Binance sends
 * them (strings: decimals as plain decimal strings, integers as digit strings, enums as words), so a malformed value
 * fails the route's schema (answered -1100 "Illegal characters found in parameter" by binance.errors.ts), and the
 * helpers that turn well-formed strings into values with Binance's errors. No floating point: decimals go to the
 * contract service as strings and are parsed there exactly (parseUnits).
 * Source: https://developers.binance.com/docs/derivatives/usds-margined-futures (each endpoint's parameter table).
 */
import { Type, type TProperties } from '@sinclair/typebox';
import { BinanceError, BX } from './binance.errors';

/** A Binance symbol ("BTCUSDT"). */
export const FSymbol = Type.String({ pattern: '^[A-Za-z0-9]{1,20}$' });
/** An INT or LONG parameter (limit, ids, times in ms): digits only, at most 18, so that every value fits a bigint column. */
export const FInt = Type.String({ pattern: '^[0-9]{1,18}$' });
/** A DECIMAL parameter (price, quantity, stopPrice): a plain non-negative decimal. */
export const FDecimal = Type.String({ pattern: '^[0-9]{1,20}(\\.[0-9]{0,20})?$' });
/** A client order id (Binance: ^[\.A-Z\:/a-z0-9_-]{1,36}$). */
export const FClientId = Type.String({ pattern: '^[.A-Z:/a-z0-9_-]{1,36}$' });
/** A BOOLEAN parameter ("true"/"false", as CCXT and Binance's connectors send it). */
export const FBool = Type.String({ pattern: '^(true|false|TRUE|FALSE|True|False)$' });
/** An ENUM parameter: a word; the route checks the value and answers Binance's specific error (-1116, -1117, -1115 ...). */
export const FEnum = Type.String({ pattern: '^[A-Za-z_]{1,40}$' });
/** Binance's kline intervals (the route answers -1120 for one we do not keep). */
export const FInterval = Type.String({ pattern: '^[0-9]{1,2}[smhdwM]$' });

/** timestamp, recvWindow and signature of every SIGNED route (the hooks check them; the schema only their form). */
const SIGNED = {
  timestamp: Type.Optional(FInt),
  recvWindow: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}(\\.[0-9]{1,3})?$' })),
  signature: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_-]{1,256}$' })),
} as const;

/** A public route's querystring schema: every parameter optional here, mandatory ones checked by the route (-1102). */
export function publicParams<T extends TProperties>(props: T) {
  return Type.Object(optionalAll(props));
}

/**
 * A signed route's schema, used for both its query string and its form body: Binance reads a parameter from either,
 * so every one is optional in the schema and the route checks the mandatory ones on the merged parameters
 * (paramsOf) with -1102.
 */
export function signedParams<T extends TProperties>(props: T) {
  return Type.Object(optionalAll({ ...props, ...SIGNED }));
}

function optionalAll(props: TProperties): TProperties {
  const out: TProperties = {};
  for (const [k, v] of Object.entries(props)) out[k] = Type.Optional(v);
  return out;
}

/** -1100 for a value outside its legal range, as Binance words it. */
export function outOfRange(param: string, range: string): BinanceError {
  return new BinanceError(-1100, `Illegal characters found in parameter '${param}'; legal range is '${range}'.`, 400);
}

/** A mandatory parameter: its value, or -1102 when absent or empty. */
export function required(p: Record<string, string>, name: string): string {
  const v = p[name];
  if (v === undefined || v === '') throw BX.mandatoryMissing(name);
  return v;
}

/** An optional parameter: undefined when absent or empty. */
export function optional(p: Record<string, string>, name: string): string | undefined {
  const v = p[name];
  return v === undefined || v === '' ? undefined : v;
}

/** An INT parameter: `fallback` when absent; -1100 outside [min, max]. */
export function intParam(p: Record<string, string>, name: string, min: number, max: number, fallback: number): number {
  const v = optional(p, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw outOfRange(name, `${min} to ${max}`);
  return n;
}

/** A LONG time parameter (ms since the epoch), or undefined; -1100 beyond 2^53. */
export function timeParam(p: Record<string, string>, name: string): number | undefined {
  const v = optional(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw outOfRange(name, `0 to ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

/** A LONG id (orderId, fromId) as a canonical decimal string, or undefined. */
export function idParam(p: Record<string, string>, name: string): string | undefined {
  const v = optional(p, name);
  return v === undefined ? undefined : BigInt(v).toString();
}

/** A BOOLEAN parameter (case-insensitive "true"). */
export function boolParam(p: Record<string, string>, name: string): boolean {
  return optional(p, name)?.toLowerCase() === 'true';
}

/** -1127 when startTime and endTime are more than `days` apart; -1128-like -1100 when endTime precedes startTime. */
export function checkWindow(startTime: number | undefined, endTime: number | undefined, days: number): void {
  if (startTime === undefined || endTime === undefined) return;
  if (endTime < startTime) throw new BinanceError(-1128, 'Combination of optional parameters invalid.', 400);
  if (endTime - startTime > days * 86_400_000) throw new BinanceError(-1127, `More than ${days * 24} hours between startTime and endTime.`, 400);
}
