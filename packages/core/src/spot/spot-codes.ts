/**
 * Spot's closed list of rejections, apart from the machine (spot-engine.ts) so that the markets (spot-market.ts) and
 * the machine both import it downwards.
 */
import type { RejectCode } from '../types';

/**
 * Every rejection a spot command may answer, in precedence order (the order of REJECT_CODES): a closed list, the
 * compiler refuses any other code in spot-engine.ts and spot-market.ts.
 */
export const SPOT_REJECT_CODES = [
  'asset_exists',
  'market_exists',
  'invalid_config',
  'asset_not_found',
  'market_not_found',
  'account_frozen',
  'market_halted',
  'invalid_order',
  'price_required',
  'price_not_on_tick',
  'quantity_required',
  'quantity_not_on_step',
  'quantity_below_minimum',
  'notional_below_minimum',
  'amount_invalid',
  'too_many_open_orders',
  'insufficient_balance',
  'would_take_liquidity',
  'no_liquidity',
  'would_trigger_immediately',
  'order_not_found',
  'convert_quote_expired',
  'convert_slippage',
] as const satisfies readonly RejectCode[];
/** A spot command's rejection (SPOT_REJECT_CODES). */
export type SpotRejectCode = (typeof SPOT_REJECT_CODES)[number];
