/**
 * The ad form's checks before asking the server (the engine's rules, packages/core otc/types.ts): a fixed price or a
 * floating percentage of 50.00 to 200.00, a positive quantity of at most 8 decimals, 0 < min <= max in CNY with 2
 * decimals, a payment window from getConfig, at least one of the merchant's enabled payment methods.
 */
import type { OtcPriceType, OtcSide } from '@exchange/api';
import { coinToUnits, fiatToCents } from './amount';

/** The form's fields as typed. */
export interface AdFormValues {
  side: OtcSide;
  priceType: OtcPriceType;
  price: string;
  floatPercent: string;
  quantity: string;
  minFiat: string;
  maxFiat: string;
  paymentWindowMinutes: number;
  paymentMethodIds: string[];
  remarks: string;
}

/** Field -> problem key (otc:adForm.error.*). */
export type AdFormErrors = Partial<Record<keyof AdFormValues, string>>;

/** The problems of `v` (empty when it may be sent). */
export function adFormErrors(v: AdFormValues): AdFormErrors {
  const e: AdFormErrors = {};
  if (v.priceType === 'FIXED') {
    const p = fiatToCents(v.price);
    if (p === null || p <= 0n) e.price = 'price';
  } else {
    const ok = /^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(v.floatPercent.trim());
    const cents = ok ? fiatToCents(v.floatPercent) : null;
    if (cents === null || cents < 5000n || cents > 20000n) e.floatPercent = 'floatPercent';
  }
  const q = coinToUnits(v.quantity);
  if (q === null || q <= 0n) e.quantity = 'quantity';
  const min = fiatToCents(v.minFiat);
  const max = fiatToCents(v.maxFiat);
  if (min === null || min <= 0n) e.minFiat = 'fiat';
  if (max === null || max <= 0n) e.maxFiat = 'fiat';
  else if (min !== null && min > max) e.maxFiat = 'minAboveMax';
  if (!v.paymentWindowMinutes) e.paymentWindowMinutes = 'window';
  if (v.paymentMethodIds.length === 0) e.paymentMethodIds = 'methods';
  if (v.remarks.length > 500) e.remarks = 'remarks';
  return e;
}
