/**
 * The engine's rejections: one closed union over every domain (spot, wallet, users, perpetuals, OTC, activities,
 * rebates, savings and convert), re-exported by types.ts. In a file of its own, importing nothing, so that each
 * domain's types (perp/types.ts ...) can name a rejection without importing types.ts, which imports them.
 */
/**
 * Rejections, a closed union. For the spot commands the list is in precedence order (the first that applies is
 * returned); the perpetual and OTC commands check in the order their documents give (docs/perpetuals.md,
 * otc/types.ts and otc-engine.ts), which is not this list's. Nothing changes when a command is rejected.
 */
export const REJECT_CODES = [
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
  'same_account',
  'too_many_open_orders',
  'insufficient_balance',
  'would_take_liquidity',
  'no_liquidity',
  'would_trigger_immediately',
  'order_not_found',
  'account_exists',
  'user_key_taken',
  'user_not_found',
  'user_field_mismatch',
  'withdrawal_not_found',
  'withdrawal_state_invalid',
  'withdrawal_already_approved',
  'withdrawal_locked',
  'daily_limit_exceeded',
  'wallet_identity_mismatch',
  // perpetual contracts (perp/types.ts)
  'mark_price_unavailable',
  'price_out_of_band',
  'reduce_only_rejected',
  'leverage_invalid',
  'leverage_too_high',
  'position_exists',
  'no_position',
  'margin_mode_invalid',
  'take_profit_invalid',
  'stop_loss_invalid',
  'funding_not_due',
  'index_stale',
  'amend_limit_reached',
  // peer-to-peer fiat trading (otc/types.ts)
  'otc_disabled',
  'otc_not_merchant',
  'otc_merchant_state_invalid',
  'otc_ads_open',
  'otc_ad_not_found',
  'otc_own_ad',
  'otc_ad_unavailable',
  'otc_cancel_limit',
  'otc_amount_out_of_limits',
  'otc_order_not_found',
  'otc_order_state_invalid',
  'otc_payment_expired',
  'otc_appeal_too_early',
  // activities (activity/types.ts)
  'activity_invalid',
  'activity_not_found',
  'activity_not_started',
  'activity_ended',
  'activity_already_joined',
  'activity_not_ended',
  // invitation rebates (rebate/types.ts)
  'rebate_day_open',
  // convert (spot/convert.ts)
  'convert_quote_expired',
  'convert_slippage',
] as const;
/**
 * The rejection codes of machines the engine is given by its host (machine.ts), declared by each machine's file into
 * this interface (TypeScript declaration merging, the code as a key: `interface MachineRejectCodes { tip_too_large:
 * true }`), so a new machine adds its codes without editing this list. Empty in the core itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface MachineRejectCodes {}
/** Every rejection code: the core's closed list and the given machines' (MachineRejectCodes). */
export type RejectCode = (typeof REJECT_CODES)[number] | (keyof MachineRejectCodes & string);
export type ResultCode = 'ok' | RejectCode;
