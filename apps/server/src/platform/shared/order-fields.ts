/**
 * The fields of an order request as the server reads them, for spot and perpetual orders alike: a decimal field into
 * engine units with the error that names what is allowed, a decimal as a person reads it in a message, and the
 * canonical form of a wire order id. Over the one money module (@exchange/money).
 */
import { formatDecimal, tryParseDecimal } from '@exchange/money';
import { AppError } from './errors';

/** Largest accepted price, amount or total in engine units (int64 range; anything above is absurd). */
export const MAX_UNITS = 2n ** 63n - 1n;

/** What a field's value must be a multiple of, for the message: the step ("0.00001") and its coin ("BTC"). */
export interface FieldStep {
  step: string;
  coin: string;
}

/**
 * Parses a decimal field into engine units: AppError 'too_many_decimals' (field named, and `step` when given,
 * so the message says what is allowed; a function is called only then: the texts cost a little on every order) when it has more fraction digits than `decimals`, 'value_too_large'
 * above MAX_UNITS, 'validation_failed' for bad syntax.
 */
export function parseUnits(value: string, decimals: number, field: string, step?: FieldStep | (() => FieldStep)): bigint {
  const r = tryParseDecimal(value, decimals);
  if (!r.ok && r.error === 'too_many_decimals') {
    const named = typeof step === 'function' ? step() : step;
    throw new AppError('too_many_decimals', 400, field, named ? { ...named } : undefined);
  }
  if (!r.ok) throw new AppError('validation_failed', 400, field);
  if (r.value > MAX_UNITS) throw new AppError('value_too_large', 400, field);
  return r.value;
}

/** `units` of 10^-decimals as a decimal a person reads: trailing zeros dropped, thousands grouped ("5", "0.00001", "1,000"). */
export function plainDecimal(units: bigint, decimals: number): string {
  const [int = '0', frac = ''] = formatDecimal(units, decimals).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const kept = frac.replace(/0+$/, '');
  return kept === '' ? grouped : `${grouped}.${kept}`;
}

/** Largest order id the database can hold (bigint). */
const MAX_ORDER_ID = 9_223_372_036_854_775_807n;

/** The canonical decimal form of a wire order id (digits only), or null when it is above MAX_ORDER_ID. */
export function canonicalOrderId(id: string): string | null {
  const v = BigInt(id);
  return v > MAX_ORDER_ID ? null : v.toString();
}
