/**
 * The order vocabulary every market shares (spot and perpetuals): a market's status, an order's side, type, time in
 * force, self-trade prevention mode and status, as Binance names them. A leaf: it imports nothing, so that the spot
 * types (types.ts) and the perpetual types (perp/types.ts) both build on it without importing each other.
 */

/** A market accepts orders (TRADING) or only cancellations (HALTED). */
export type MarketStatus = 'TRADING' | 'HALTED';
export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET';
/** POST_ONLY = Binance LIMIT_MAKER: rejected if it would take liquidity. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
/** Self-trade prevention mode (Binance STP). Default EXPIRE_TAKER. */
export type StpMode = 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | 'EXPIRE_BOTH' | 'NONE';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
