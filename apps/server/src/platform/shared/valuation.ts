/**
 * An asset's value in USDT, exact with bigint, for the assets screen and the withdrawal limits: (amount) x the
 * engine's last price of `<COIN>/USDT` (USDT itself counts 1; an asset with no such market or no trade yet counts 0),
 * kept at VALUE_DECIMALS (18) decimals and rounded down.
 */
import { rescaleFloor, type EngineApi } from '@exchange/core';

/** Decimals of the internal valuation (USDT per unit of value = 10^-18). */
export const VALUE_DECIMALS = 18;

/**
 * USDT value of `amount` units of asset `code` (scale `scale`) at 10^-VALUE_DECIMALS, rounded down;
 * 0 when the asset has no `<code>/USDT` market or no last price.
 */
export function usdtValue(engine: EngineApi, code: string, scale: number, amount: bigint): bigint {
  if (amount === 0n) return 0n;
  if (code === 'USDT') return rescaleFloor(amount, scale, VALUE_DECIMALS);
  const symbol = `${code}/USDT`;
  const market = engine.market(symbol);
  const price = market ? engine.lastPrice(symbol) : null;
  if (!market || price === null) return 0n;
  // amount / 10^scale coins x price / 10^priceDecimals USDT per coin.
  return rescaleFloor(amount * price, scale + market.priceDecimals, VALUE_DECIMALS);
}
