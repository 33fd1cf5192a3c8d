/** Money helpers: decimal strings at the edge, unit conversions, rounding. */
export * from './decimal';
export * from './units';
