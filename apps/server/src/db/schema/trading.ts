/** Tables of the trading area. */
export {};
