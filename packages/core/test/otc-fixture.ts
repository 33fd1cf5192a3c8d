/**
 * The OTC tests' standard ad terms: a FIXED price of 7.20 CNY (fiat cents), orders of 100 to 50,000 CNY, a 15-minute
 * payment window; any field overridable.
 */
import type { OtcAdTerms } from '../src/otc/types';

/** The standard ad terms with `over` applied. */
export const otcTerms = (over: Partial<OtcAdTerms> = {}): OtcAdTerms => ({
  priceType: 'FIXED',
  price: 720n, // 7.20 CNY
  floatPpm: null,
  minFiat: 10_000n, // 100 CNY
  maxFiat: 5_000_000n, // 50,000 CNY
  paymentWindowMs: 15 * 60_000,
  ...over,
});
