/**
 * Unit types of the integers that carry money, prices and quantities.
 *
 * Every amount is a bigint, but of one of several units: an asset's amount in 10^-scale of the asset (1 USDT at
 * scale 8 is 100_000_000n), a price in 10^-priceDecimals of the quote per one base coin (or contract), a quantity in
 * 10^-qtyDecimals of the base (a spot quantity) or in lots (a perpetual's quantity). The types below mark which one
 * a value is, so that a price passed where a quantity is expected, or an amount where a price is, does not compile.
 *
 * The marks are "soft": each type is a bigint with an optional phantom property, so a plain bigint (a literal, the
 * result of arithmetic, a value read from storage) is accepted wherever a unit is expected, and only two values of
 * different declared units are refused in each other's place. Arithmetic answers a plain bigint: name its unit
 * where the result is stored or returned (`const cost: Amount = price * qty * m`).
 */
declare const unit: unique symbol;

/** An asset's amount, an integer count of 10^-scale of the asset (balances, holds, fees, notionals). */
export type Amount = bigint & { readonly [unit]?: 'amount' };

/** A price, an integer count of 10^-priceDecimals of the quote asset per one base coin or contract. */
export type Price = bigint & { readonly [unit]?: 'price' };

/** A quantity, an integer count of 10^-qtyDecimals of the base asset, or of lots for a perpetual. */
export type Quantity = bigint & { readonly [unit]?: 'quantity' };

/** A rate in parts per million (a fee rate of 0.1% is 1_000n). */
export type Ppm = bigint & { readonly [unit]?: 'ppm' };
