/**
 * @exchange/money: the one money module of every package. Decimal strings at the edge (one parser, one formatter),
 * exact arithmetic on decimal strings for the screens, a market's unit conversions, the rounding helpers, and the
 * unit types of amounts, prices and quantities. No floating point anywhere.
 */
export * from './brands';
export * from './decimal';
export * from './decimal-math';
export * from './units';
