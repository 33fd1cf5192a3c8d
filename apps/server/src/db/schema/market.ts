/** Tables of the market area. */
export {};
