/**
 * Binance spot JSON shapes from our values: exchangeInfo symbols with their filters, tickers, trades,
 * orders and account trades, as https://developers.binance.com/docs/binance-spot-api-docs/rest-api documents them.
 * Prices and quantities are decimal strings at the market's decimals (price at priceDecimals, quantity at
 * qtyDecimals, quote amounts at the quote asset's scale), filter values at 8 decimals as Binance prints them
 * ("0.01000000"); times are ms; ids are JSON numbers (our ids are engine sequences, far below 2^53).
 * No floating point: every value is formatted from bigint units or copied from a decimal string.
 */
import { formatDecimal, MAX_OPEN_ORDERS_PER_MARKET, type Asset, type MarketConfig } from '@exchange/core';
import type { Entrust, Fill } from '@exchange/api';
import { MAX_TRAILING_DELTA_BIPS, MIN_TRAILING_DELTA_BIPS } from '../../domains/spot/spot.service';
import { MAX_UNITS } from '../../platform/shared/order-fields';
import { toBinanceSymbol } from './binance.symbols';

/** Decimals Binance prints filter values with. */
const FILTER_DECIMALS = 8;

/**
 * Our order types as Binance names them (LIMIT with POST_ONLY is LIMIT_MAKER; a conditional MARKET or LIMIT order is
 * STOP_LOSS / TAKE_PROFIT or STOP_LOSS_LIMIT / TAKE_PROFIT_LIMIT: docs/conditional-orders.md), in Binance's order.
 */
export const SPOT_ORDER_TYPES = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;

/** The one self-trade prevention mode orders placed here get (the engine's default). */
export const STP_MODE = 'EXPIRE_TAKER';

/** `units` of 10^-decimals at max(decimals, 8) decimals, as Binance prints filter values. */
function filterValue(units: bigint, decimals: number): string {
  const shown = Math.max(decimals, FILTER_DECIMALS);
  return formatDecimal(units * 10n ** BigInt(shown - decimals), shown);
}

/** Binance's status of a market: TRADING, or HALT for our HALTED. */
export function symbolStatus(m: MarketConfig): 'TRADING' | 'HALT' {
  return m.status === 'TRADING' ? 'TRADING' : 'HALT';
}

/**
 * One symbol of GET /api/v3/exchangeInfo from the engine's market config: precisions from the assets' scales,
 * filters PRICE_FILTER (tickSize), LOT_SIZE and MARKET_LOT_SIZE (stepSize, minQty), NOTIONAL (minNotional in the
 * quote asset) and MAX_NUM_ORDERS (the engine's open-order limit per market). Maximums are the engine's int64 range.
 */
export function exchangeInfoSymbol(m: MarketConfig, asset: (code: string) => Asset | undefined) {
  const baseScale = asset(m.base)?.scale ?? 8;
  const quoteScale = asset(m.quote)?.scale ?? 8;
  const lot = {
    minQty: filterValue(m.minQty, m.qtyDecimals),
    maxQty: filterValue(MAX_UNITS, m.qtyDecimals),
    stepSize: filterValue(m.stepSize, m.qtyDecimals),
  };
  return {
    symbol: toBinanceSymbol(m.symbol),
    status: symbolStatus(m),
    baseAsset: m.base,
    baseAssetPrecision: baseScale,
    quoteAsset: m.quote,
    quotePrecision: quoteScale,
    quoteAssetPrecision: quoteScale,
    baseCommissionPrecision: baseScale,
    quoteCommissionPrecision: quoteScale,
    orderTypes: [...SPOT_ORDER_TYPES],
    icebergAllowed: false,
    ocoAllowed: true,
    otoAllowed: false,
    opoAllowed: false,
    quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: true,
    cancelReplaceAllowed: false,
    amendAllowed: false,
    pegInstructionsAllowed: false,
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: filterValue(m.tickSize, m.priceDecimals),
        maxPrice: filterValue(MAX_UNITS, m.priceDecimals),
        tickSize: filterValue(m.tickSize, m.priceDecimals),
      },
      { filterType: 'LOT_SIZE', ...lot },
      { filterType: 'MARKET_LOT_SIZE', ...lot },
      {
        filterType: 'NOTIONAL',
        minNotional: filterValue(m.minNotional, quoteScale),
        applyMinToMarket: true,
        maxNotional: filterValue(MAX_UNITS, quoteScale),
        applyMaxToMarket: false,
        avgPriceMins: 5,
      },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: MAX_OPEN_ORDERS_PER_MARKET },
      // One range for every conditional kind and side (the engine's bounds).
      {
        filterType: 'TRAILING_DELTA',
        minTrailingAboveDelta: MIN_TRAILING_DELTA_BIPS,
        maxTrailingAboveDelta: MAX_TRAILING_DELTA_BIPS,
        minTrailingBelowDelta: MIN_TRAILING_DELTA_BIPS,
        maxTrailingBelowDelta: MAX_TRAILING_DELTA_BIPS,
      },
    ],
    permissions: [] as string[],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: STP_MODE,
    allowedSelfTradePreventionModes: [STP_MODE],
  };
}

/** A JSON number of one of our ids (decimal strings of engine sequences). */
export function idNumber(id: string): number {
  return Number(id);
}

/** What formatting an order needs: its market and the zero strings of its price, quantity and quote amount. */
export interface OrderScales {
  market: MarketConfig;
  quoteScale: number;
}

/**
 * Binance's type of one of our orders: LIMIT_MAKER for a POST_ONLY LIMIT; for a conditional order (`stopType` set) its
 * kind, with _LIMIT when it becomes a LIMIT order (STOP_LOSS_LIMIT, TAKE_PROFIT_LIMIT); the same before and after its
 * trigger, as on Binance.
 */
export function binanceOrderType(e: { orderType: string; timeInForce: string; stopType?: string }): string {
  if (e.stopType !== undefined && e.stopType !== '') return e.orderType === 'LIMIT' ? `${e.stopType}_LIMIT` : e.stopType;
  return e.orderType === 'LIMIT' && e.timeInForce === 'POST_ONLY' ? 'LIMIT_MAKER' : e.orderType;
}

/** Binance's workingTime of an order: the trigger time of a conditional order (-1 while it waits), else its creation time. */
export function workingTimeOf(e: Pick<Entrust, 'stopType' | 'workingTime' | 'createTime'>): number {
  if (e.stopType === '') return e.createTime;
  return e.workingTime === 0 ? -1 : e.workingTime;
}

/** Binance's timeInForce of one of our orders (a LIMIT_MAKER shows GTC, as on Binance). */
function binanceTif(e: Pick<Entrust, 'timeInForce'>): string {
  return e.timeInForce === 'POST_ONLY' ? 'GTC' : e.timeInForce;
}

/**
 * The fields of an order in every Binance answer (RESULT of POST /api/v3/order, cancel, queries); `orderListId` the
 * order's OCO list id (Binance: -1 for an order outside a list).
 */
function orderCore(e: Entrust, s: OrderScales, orderListId = -1) {
  const { market, quoteScale } = s;
  return {
    symbol: toBinanceSymbol(e.pairsName),
    orderId: idNumber(e.id),
    orderListId,
    clientOrderId: e.clientOrderId,
    price: e.price === '' ? formatDecimal(0n, market.priceDecimals) : e.price,
    origQty: e.amount === '' ? formatDecimal(0n, market.qtyDecimals) : e.amount,
    executedQty: e.dealAmount,
    cummulativeQuoteQty: e.dealTotal,
    status: e.status,
    timeInForce: binanceTif(e),
    type: binanceOrderType(e),
    side: e.side,
    origQuoteOrderQty: e.total === '' ? formatDecimal(0n, quoteScale) : e.total,
    ...(e.trailingDelta > 0 ? { trailingDelta: e.trailingDelta } : {}),
  };
}

/** Binance's stopPrice of an order: its stop price, or zero at the price decimals when it has none. */
function stopPriceOf(e: Entrust, s: OrderScales): string {
  return e.stopPrice === '' ? formatDecimal(0n, s.market.priceDecimals) : e.stopPrice;
}

/** The stopPrice field of a new-order or cancel answer: present only on a conditional order (Binance's conditional field). */
function conditionalStop(e: Entrust, s: OrderScales): { stopPrice?: string } {
  return e.stopType === '' ? {} : { stopPrice: stopPriceOf(e, s) };
}

/** An order as POST /api/v3/order answers it: ACK, RESULT, or FULL with its fills (`orderListId` -1 outside a list). */
export function newOrderResponse(e: Entrust, s: OrderScales, respType: 'ACK' | 'RESULT' | 'FULL', fills: Fill[] = [], orderListId = -1) {
  const ack = { symbol: toBinanceSymbol(e.pairsName), orderId: idNumber(e.id), orderListId, clientOrderId: e.clientOrderId, transactTime: e.updateTime };
  if (respType === 'ACK') return ack;
  const result = {
    ...orderCore(e, s, orderListId),
    ...conditionalStop(e, s),
    transactTime: e.updateTime,
    workingTime: workingTimeOf(e),
    selfTradePreventionMode: STP_MODE,
  };
  if (respType === 'RESULT') return result;
  return {
    ...result,
    fills: fills.map((f) => ({ price: f.price, qty: f.amount, commission: f.fee, commissionAsset: f.feeCur, tradeId: idNumber(f.tradeId) })),
  };
}

/** An order as GET /api/v3/order, openOrders and allOrders answer it (`orderListId` its OCO list's id, -1 outside one). */
export function queriedOrder(e: Entrust, s: OrderScales, orderListId = -1) {
  // A pending conditional order is open but not working (not in the book), as on Binance.
  const working = (e.status === 'NEW' || e.status === 'PARTIALLY_FILLED') && e.triggerState !== 'PENDING';
  return {
    ...orderCore(e, s, orderListId),
    stopPrice: stopPriceOf(e, s),
    icebergQty: formatDecimal(0n, s.market.qtyDecimals),
    time: e.createTime,
    updateTime: e.updateTime,
    isWorking: working,
    workingTime: workingTimeOf(e),
    selfTradePreventionMode: STP_MODE,
  };
}

/** An order as DELETE /api/v3/order and DELETE /api/v3/openOrders answer it (`orderListId` -1 outside a list). */
export function canceledOrder(e: Entrust, s: OrderScales, origClientOrderId: string, cancelClientOrderId: string, orderListId = -1) {
  return {
    ...orderCore(e, s, orderListId),
    ...conditionalStop(e, s),
    origClientOrderId,
    clientOrderId: cancelClientOrderId,
    transactTime: e.updateTime,
    selfTradePreventionMode: STP_MODE,
  };
}

/** A commission rate of `ppm` parts per million as Binance's decimal string ("0.00100000" for 1000 ppm). */
export function commissionRate(ppm: number): string {
  return formatDecimal(BigInt(ppm) * 100n, 8);
}
