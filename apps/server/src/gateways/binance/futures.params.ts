/**
 * Parameters of the Binance USDⓈ-M futures routes: TypeBox schemas of every parameter as Binance sends
 * them (strings: decimals as plain decimal strings, integers as digit strings, enums as words), so a malformed value
 * fails the route's schema (answered -1100 "Illegal characters found in parameter" by binance.errors.ts), and the
 * helpers that turn well-formed strings into values with Binance's errors. No floating point: decimals go to the
 * perpetuals service as strings and are parsed there exactly (parseUnits).
 * Source: https://developers.binance.com/docs/derivatives/usds-margined-futures (each endpoint's parameter table).
 */
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { BinanceError, BX } from './binance.errors';
import {
  BoolParam,
  ClientOrderIdParam,
  DecimalParam,
  EnumParam,
  IntParam,
  SymbolParam,
  idParam as spotIdParam,
  outOfRange,
  params,
  signedPartialParams,
  timeParam as spotTimeParam,
} from './spot.params';

export { outOfRange };

/** The parameter schemas shared with the spot routes (spot.params.ts), under the names the futures routes use. */
export const FSymbol = SymbolParam;
export const FInt = IntParam;
export const FDecimal = DecimalParam;
export const FClientId = ClientOrderIdParam;
export const FBool = BoolParam;
export const FEnum = EnumParam;
/** Binance's kline intervals (the route answers -1120 for one we do not keep). */
export const FInterval = Type.String({ pattern: '^[0-9]{1,2}[smhdwM]$' });

/** A public route's querystring schema: every parameter optional ('' = absent), mandatory ones checked by the route (-1102). */
export function publicParams(props: TProperties): TSchema {
  const optional: TProperties = {};
  for (const [k, v] of Object.entries(props)) optional[k] = Type.Optional(v);
  return params(optional);
}

/**
 * A signed route's schema, for its query string and its form body alike (spot.params.ts signedPartialParams): every
 * parameter optional, a request without a body passes, and the route checks mandatory ones on the merged parameters
 * (paramsOf) with -1102.
 */
export const signedParams = (props: TProperties): TSchema => signedPartialParams(props);

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

/** A LONG time parameter (ms since the epoch), or undefined; -1100 beyond 2^53 (spot.params.ts timeParam). */
export function timeParam(p: Record<string, string>, name: string): number | undefined {
  return spotTimeParam(optional(p, name), name);
}

/** A LONG id (orderId, fromId) as a canonical decimal string, or undefined (spot.params.ts idParam). */
export function idParam(p: Record<string, string>, name: string): string | undefined {
  return spotIdParam(optional(p, name));
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
