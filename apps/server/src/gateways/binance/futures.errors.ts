/**
 * Binance's USDⓈ-M futures error codes for the perpetuals service's rejections (see
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code). Futures words some rejections
 * differently from spot (-2019 margin insufficient instead of -2010, -4014/-4023 for tick and step, -5022 for a
 * post-only order that would take); whatever has no futures-specific code falls back to binance.errors.ts
 * fromAppError, shared with spot.
 */
import { AppError } from '../../platform/shared/errors';
import { BinanceError, fromAppError } from './binance.errors';

/** Futures error texts used by the /fapi routes (as Binance's error-code page words them). */
export const FX = {
  marginInsufficient: () => new BinanceError(-2019, 'Margin is insufficient.'),
  reduceOnlyRejected: () => new BinanceError(-2022, 'ReduceOnly Order is rejected.'),
  wouldTrigger: () => new BinanceError(-2021, 'Order would immediately trigger.'),
  callbackRateInvalid: () => new BinanceError(-2007, 'Invalid callback rate.'),
  maxOpenOrders: () => new BinanceError(-2025, 'Reach max open order limit.'),
  positionTooLarge: () => new BinanceError(-2027, 'Exceeded the maximum allowable position at current leverage.'),
  leverageMarginInsufficient: () => new BinanceError(-2028, 'Leverage is smaller than permitted: insufficient margin balance.'),
  quantityNotPositive: () => new BinanceError(-4003, 'Quantity less than or equal to zero.'),
  quantityBelowMin: () => new BinanceError(-4004, 'Quantity less than min quantity.'),
  priceNotOnTick: () => new BinanceError(-4014, 'Price not increased by tick size.'),
  priceTooHigh: (max: string) => new BinanceError(-4016, `Limit price can't be higher than ${max}.`),
  invalidDepthLimit: () => new BinanceError(-4021, 'Invalid depth limit.'),
  quantityNotOnStep: () => new BinanceError(-4023, 'Quantity not increased by step size.'),
  priceTooLow: (min: string) => new BinanceError(-4024, `Limit price can't be lower than ${min}.`),
  leverageInvalid: (lev: string) => new BinanceError(-4028, `Leverage ${lev} is not valid`),
  noMarginTypeChange: () => new BinanceError(-4046, 'No need to change margin type.'),
  marginTypeOpenOrders: () => new BinanceError(-4047, 'Margin type cannot be changed if there exists open orders.'),
  marginTypePosition: () => new BinanceError(-4048, 'Margin type cannot be changed if there exists position.'),
  noPositionSideChange: () => new BinanceError(-4059, 'No need to change position side.'),
  positionSideMismatch: () => new BinanceError(-4061, "Order's position side does not match user's setting."),
  noNeedToModify: () => new BinanceError(-5027, 'No need to modify the order.'),
  /** Binance's -5026 EXCEED_MAXIMUM_MODIFY_ORDER_LIMIT: the engine's amend_limit_reached (10,000 changes per order). */
  modifyLimit: () => new BinanceError(-5026, 'Exceed maximum modify order limit.'),
  postOnlyRejected: () => new BinanceError(-5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected.'),
  /**
   * Binance's reduce-only mode (-4400 TRADING_QUANTITATIVE_RULE, "only reduceOnly order is allowed, please try again
   * later"), worded for the engine's index_stale: the contract is paused on a stale index.
   */
  indexStale: () => new BinanceError(-4400, 'Index price is stale, only reduceOnly order is allowed, please try again later.'),
  noSuchOrder: () => new BinanceError(-2013, 'Order does not exist.'),
  unknownOrder: () => new BinanceError(-2011, 'Unknown order sent.'),
  idOrClientIdMissing: () => new BinanceError(-1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"),
  notRequired: (param: string) => new BinanceError(-1106, `Parameter '${param}' sent when not required.`),
  invalidData: (param: string) => new BinanceError(-1130, `Data sent for parameter '${param}' is not valid.`),
} as const;

/** The futures error of an error thrown by the perpetuals service (an AppError), else the error itself. */
export function futuresError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  switch (err.code) {
    case 'insufficient_balance':
    case 'contract_insufficient_balance':
      return FX.marginInsufficient();
    case 'reduce_only_rejected':
    case 'no_position':
      return FX.reduceOnlyRejected();
    case 'take_profit_invalid':
    case 'stop_loss_invalid':
    case 'would_trigger_immediately':
      return FX.wouldTrigger();
    case 'too_many_open_orders':
      return FX.maxOpenOrders();
    case 'leverage_too_high':
      return FX.positionTooLarge();
    case 'price_not_on_tick':
      return FX.priceNotOnTick();
    case 'quantity_not_on_step':
      return FX.quantityNotOnStep();
    case 'quantity_below_minimum':
      return FX.quantityBelowMin();
    case 'would_take_liquidity':
      return FX.postOnlyRejected();
    case 'order_not_found':
      return FX.unknownOrder();
    case 'index_stale':
      return FX.indexStale();
    case 'amend_limit_reached':
      return FX.modifyLimit();
    default:
      return fromAppError(err);
  }
}

/** Runs a perpetuals service call and answers its rejection with the futures error. */
export async function futuresCall<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw futuresError(err);
  }
}
