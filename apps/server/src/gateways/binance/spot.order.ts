/**
 * Binance's POST /api/v3/order parameters -> the app's order request (SetEntrustBody) for EntrustService.place, with
 * Binance's checks of the parameter combinations and its error codes (see
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints#new-order-trade, errors.md):
 * LIMIT (timeInForce GTC/IOC/FOK, price, quantity), LIMIT_MAKER (our POST_ONLY LIMIT), MARKET (quantity, or
 * quoteOrderQty for a BUY). The engine's rules (tick, step, minimums, balance) are the engine's: the order goes
 * through the same service as the app's; `checkFilters` is only for order/test, which places nothing.
 */
import crypto from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { SetEntrustBody } from '@exchange/api';
import type { MarketConfig } from '@exchange/core';
import { AppError } from '../../platform/shared/errors';
import { MAX_TRAILING_DELTA_BIPS, MIN_TRAILING_DELTA_BIPS } from '../../domains/spot/spot.service';
import { parseUnits } from '../../platform/shared/order-fields';
import { BinanceError, BX, fromAppError } from './binance.errors';
import { STP_MODE } from './spot.format';

/** Binance's response types of a new order. */
export type NewOrderRespType = 'ACK' | 'RESULT' | 'FULL';

/** A parsed new order: the app's request and the response type asked for. */
export interface SpotOrderRequest {
  body: Static<typeof SetEntrustBody>;
  respType: NewOrderRespType;
}

/**
 * Binance's conditional order types (docs/conditional-orders.md): the kind (the app's stopType) and whether the
 * triggered order is a LIMIT (price and timeInForce) or a MARKET order (quantity only).
 */
const CONDITIONAL_TYPES: Readonly<Record<string, { kind: 'STOP_LOSS' | 'TAKE_PROFIT'; limit: boolean }>> = {
  STOP_LOSS: { kind: 'STOP_LOSS', limit: false },
  STOP_LOSS_LIMIT: { kind: 'STOP_LOSS', limit: true },
  TAKE_PROFIT: { kind: 'TAKE_PROFIT', limit: false },
  TAKE_PROFIT_LIMIT: { kind: 'TAKE_PROFIT', limit: true },
};

/** Binance's name of a field of the app's order request (for -1111/-1102 texts). */
const BINANCE_FIELD: Readonly<Record<string, string>> = {
  amount: 'quantity',
  total: 'quoteOrderQty',
  pairsName: 'symbol',
  id: 'orderId',
  clientOrderId: 'newClientOrderId',
  stopType: 'type',
};

/** An AppError of the order service as Binance's error, with Binance's parameter names. */
export function binanceOrderError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  const field = err.field !== undefined ? (BINANCE_FIELD[err.field] ?? err.field) : undefined;
  return fromAppError(new AppError(err.code, err.status, field, err.params));
}

/** A client order id as Binance generates one when none is sent: 22 characters of [A-Za-z0-9_-]. */
export function newClientOrderId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

/** -1106 for a parameter a combination does not take. */
const notRequired = (name: string) => BX.paramNotRequired(name);

/**
 * Parses POST /api/v3/order's (and order/test's) merged parameters `p` for market `m`. Throws BinanceError:
 * -1102 missing side/type/timeInForce/price/quantity, or neither stopPrice nor trailingDelta on a STOP_LOSS,
 * STOP_LOSS_LIMIT, TAKE_PROFIT or TAKE_PROFIT_LIMIT; -1117 side, -1116 type, -1115 timeInForce, -1106 a parameter the
 * type does not take (stopPrice/trailingDelta on LIMIT, LIMIT_MAKER or MARKET; price, timeInForce or quoteOrderQty on
 * STOP_LOSS/TAKE_PROFIT, quoteOrderQty on the _LIMIT types: Binance's "Mandatory parameters based on type"); -2010 for
 * iceberg and pegged orders; -1014 a quoteOrderQty SELL (Binance has it; our engine buys by quote only); -1130
 * newOrderRespType or selfTradePreventionMode.
 */
export function parseNewOrder(p: Record<string, string>, m: MarketConfig): SpotOrderRequest {
  if (!present(p.side)) throw BX.mandatoryMissing('side');
  if (p.side !== 'BUY' && p.side !== 'SELL') throw BX.invalidSide();
  if (!present(p.type)) throw BX.mandatoryMissing('type');
  const type = p.type;
  const conditional = Object.hasOwn(CONDITIONAL_TYPES, type) ? CONDITIONAL_TYPES[type]! : undefined;
  if (conditional === undefined && type !== 'LIMIT' && type !== 'LIMIT_MAKER' && type !== 'MARKET') throw BX.invalidOrderType();
  if (present(p.timeInForce) && p.timeInForce !== 'GTC' && p.timeInForce !== 'IOC' && p.timeInForce !== 'FOK') throw BX.invalidTimeInForce();
  if (conditional === undefined && present(p.stopPrice)) throw notRequired('stopPrice');
  if (conditional === undefined && present(p.trailingDelta)) throw notRequired('trailingDelta');
  if (present(p.icebergQty)) throw BX.newOrderRejected('Iceberg orders are not supported for this symbol.');
  if (present(p.pegPriceType) || present(p.pegOffsetValue) || present(p.pegOffsetType))
    throw BX.newOrderRejected('Pegged orders are not supported for this symbol.');
  if (present(p.selfTradePreventionMode) && p.selfTradePreventionMode !== STP_MODE)
    throw BX.badParam("Data sent for parameter 'selfTradePreventionMode' is not valid.");
  // Binance answers FULL by default for MARKET and LIMIT orders only, ACK for every other type.
  const respType = p.newOrderRespType ?? (type === 'LIMIT' || type === 'MARKET' ? 'FULL' : 'ACK');
  if (respType !== 'ACK' && respType !== 'RESULT' && respType !== 'FULL') throw BX.badParam("Data sent for parameter 'newOrderRespType' is not valid.");
  const clientOrderId = present(p.newClientOrderId) ? p.newClientOrderId : newClientOrderId();
  const base = { pairsName: m.symbol, side: p.side, clientOrderId } as const;

  if (conditional !== undefined) {
    const hasStop = present(p.stopPrice);
    const hasTrailing = present(p.trailingDelta);
    if (!hasStop && !hasTrailing) throw new BinanceError(-1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!", 400);
    if (present(p.quoteOrderQty)) throw notRequired('quoteOrderQty');
    if (!present(p.quantity)) throw BX.mandatoryMissing('quantity');
    // IntParam's pattern keeps the value to 18 digits, within a JS number's exact range.
    const trigger = {
      stopType: conditional.kind,
      ...(hasStop ? { stopPrice: p.stopPrice } : {}),
      ...(hasTrailing ? { trailingDelta: Number(p.trailingDelta) } : {}),
    };
    if (conditional.limit) {
      if (!present(p.timeInForce)) throw BX.mandatoryMissing('timeInForce');
      if (!present(p.price)) throw BX.mandatoryMissing('price');
      const timeInForce = p.timeInForce as 'GTC' | 'IOC' | 'FOK';
      return { respType, body: { ...base, orderType: 'LIMIT', timeInForce, price: p.price, amount: p.quantity, ...trigger } };
    }
    if (present(p.timeInForce)) throw notRequired('timeInForce');
    if (present(p.price)) throw notRequired('price');
    return { respType, body: { ...base, orderType: 'MARKET', amount: p.quantity, ...trigger } };
  }

  if (type === 'LIMIT' || type === 'LIMIT_MAKER') {
    if (type === 'LIMIT' && !present(p.timeInForce)) throw BX.mandatoryMissing('timeInForce');
    if (type === 'LIMIT_MAKER' && present(p.timeInForce)) throw notRequired('timeInForce');
    if (present(p.quoteOrderQty)) throw notRequired('quoteOrderQty');
    if (!present(p.quantity)) throw BX.mandatoryMissing('quantity');
    if (!present(p.price)) throw BX.mandatoryMissing('price');
    const timeInForce = type === 'LIMIT_MAKER' ? 'POST_ONLY' : (p.timeInForce as 'GTC' | 'IOC' | 'FOK');
    return { respType, body: { ...base, orderType: 'LIMIT', timeInForce, price: p.price, amount: p.quantity } };
  }
  // MARKET
  if (present(p.timeInForce)) throw notRequired('timeInForce');
  if (present(p.price)) throw notRequired('price');
  const hasQty = present(p.quantity);
  const hasQuote = present(p.quoteOrderQty);
  if (!hasQty && !hasQuote) throw new BinanceError(-1102, "Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!", 400);
  if (hasQty && hasQuote) throw notRequired('quoteOrderQty');
  if (hasQuote && p.side === 'SELL') throw new BinanceError(-1014, 'Unsupported order combination.', 400);
  return { respType, body: { ...base, orderType: 'MARKET', ...(hasQty ? { amount: p.quantity } : { total: p.quoteOrderQty }) } };
}

/**
 * What POST /api/v3/order/test checks beyond `parseNewOrder`, without the engine: the decimals of each value
 * (-1111), and the market's filters (-2010 "Filter failure: PRICE_FILTER" for the price or stopPrice, TRAILING_DELTA,
 * LOT_SIZE, NOTIONAL for a LIMIT's
 * price x quantity or a quoteOrderQty) and status (-2010 "Market is closed."). Balances are not checked, as on
 * Binance. `quoteScale` is the quote asset's scale.
 */
export function checkFilters(req: SpotOrderRequest, m: MarketConfig, quoteScale: number): void {
  try {
    const { body } = req;
    if (m.status !== 'TRADING') throw new AppError('market_halted', 400);
    const price = body.price !== undefined ? parseUnits(body.price, m.priceDecimals, 'price') : undefined;
    const qty = body.amount !== undefined ? parseUnits(body.amount, m.qtyDecimals, 'amount') : undefined;
    const quote = body.total !== undefined ? parseUnits(body.total, quoteScale, 'total') : undefined;
    if (price !== undefined && (price <= 0n || price % m.tickSize !== 0n)) throw new AppError('price_not_on_tick', 400);
    if (body.stopPrice !== undefined) {
      const stop = parseUnits(body.stopPrice, m.priceDecimals, 'stopPrice');
      if (stop <= 0n || stop % m.tickSize !== 0n) throw new AppError('stop_price_not_on_tick', 400);
    }
    const d = body.trailingDelta;
    if (d !== undefined && (d < MIN_TRAILING_DELTA_BIPS || d > MAX_TRAILING_DELTA_BIPS)) throw new AppError('trailing_delta_out_of_range', 400);
    if (qty !== undefined) {
      if (qty % m.stepSize !== 0n) throw new AppError('quantity_not_on_step', 400);
      if (qty <= 0n || qty < m.minQty) throw new AppError('quantity_below_minimum', 400);
    }
    // price units x qty units = 10^-(priceDecimals + qtyDecimals) quote; the engine keeps that sum <= the quote scale.
    const notional = price !== undefined && qty !== undefined ? price * qty * 10n ** BigInt(quoteScale - m.priceDecimals - m.qtyDecimals) : quote;
    if (notional !== undefined && notional < m.minNotional) throw new AppError('notional_below_minimum', 400);
  } catch (err) {
    throw binanceOrderError(err);
  }
}
