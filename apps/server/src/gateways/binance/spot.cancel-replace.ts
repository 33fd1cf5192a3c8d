/**
 * Binance spot "Cancel an Existing Order and Send a New Order (TRADE)", POST /api/v3/order/cancelReplace
 * (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints): cancels one of the caller's
 * open orders of `symbol` (cancelOrderId or cancelOrigClientOrderId, with cancelRestrictions as DELETE /api/v3/order
 * takes them) and places a new order on the same symbol with POST /api/v3/order's parameters. Both steps are one
 * engine command (EntrustService.cancelReplace, the engine's cancelReplaceOrder), so no other request lands between
 * them and the new order may use the funds the cancelled one held. As on Binance the new order's parameters and
 * filters are checked before the cancel (a bad one is answered as POST /api/v3/order answers it and cancels nothing):
 * - both succeed: 200 `{ cancelResult: "SUCCESS", newOrderResult: "SUCCESS", cancelResponse, newOrderResponse }`;
 * - the cancel fails under STOP_ON_FAILURE: 400 -2022 "Order cancel-replace failed." with `data` (newOrderResult
 *   NOT_ATTEMPTED, cancelResponse the cancel's `{ code, msg }`, newOrderResponse null);
 * - exactly one fails (the cancel under ALLOW_FAILURE, or the placement after a cancel): 409 -2021 "Order
 *   cancel-replace partially failed." with `data` carrying the one that succeeded and the other's `{ code, msg }`;
 * - both fail (ALLOW_FAILURE): 400 -2022 with both errors.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatDecimal, type CancelReplaceMode, type MarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { SpotService } from '../../domains/spot/spot.service';
import type { BinanceRouteConfig } from './binance.auth';
import { BinanceError, BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { spotMarketOrThrow } from './binance.symbols';
import { canceledOrder, idNumber, newOrderResponse, type OrderScales } from './spot.format';
import { binanceOrderError, checkFilters, newClientOrderId, parseNewOrder } from './spot.order';
import { ClientOrderIdParam, DecimalParam, EnumParam, idParam, IntParam, signedPartialParams, SymbolParam } from './spot.params';
import { answers, CancelReplaceFailure, CancelReplaceResponse } from './binance.responses';
import { AppError } from '../../platform/shared/errors';
import { type marketScales } from '../../platform/shared/market-scales';

/** Binance's cancelReplaceMode values. */
const MODES = new Set(['STOP_ON_FAILURE', 'ALLOW_FAILURE']);

/** The parameters of POST /api/v3/order/cancelReplace: the cancel's, then the new order's (POST /api/v3/order). */
const cancelReplaceSchema = signedPartialParams({
  symbol: SymbolParam,
  side: EnumParam,
  type: EnumParam,
  cancelReplaceMode: EnumParam,
  timeInForce: EnumParam,
  quantity: DecimalParam,
  quoteOrderQty: DecimalParam,
  price: DecimalParam,
  cancelNewClientOrderId: ClientOrderIdParam,
  cancelOrigClientOrderId: ClientOrderIdParam,
  cancelOrderId: IntParam,
  newClientOrderId: ClientOrderIdParam,
  strategyId: IntParam,
  strategyType: IntParam,
  stopPrice: DecimalParam,
  trailingDelta: IntParam,
  icebergQty: DecimalParam,
  newOrderRespType: EnumParam,
  selfTradePreventionMode: EnumParam,
  cancelRestrictions: EnumParam,
  orderRateLimitExceededMode: EnumParam,
  pegPriceType: EnumParam,
  pegOffsetValue: IntParam,
  pegOffsetType: EnumParam,
});

/** What the route uses of the spot trading routes (spot.trade.routes.ts). */
export interface CancelReplaceDeps {
  host: EnginePort;
  spot: Pick<SpotService, 'cancelReplace' | 'detail'>;
  scalesOf: (m: MarketConfig) => OrderScales & ReturnType<typeof marketScales>;
  userOf: (req: FastifyRequest) => string;
  trade: (weight: number, order?: boolean) => { binance: BinanceRouteConfig };
}

const present = (v: string | undefined): v is string => v !== undefined && v !== '';
/** A step's failure as Binance shows it inside `data`. */
const codeMsg = (err: unknown) => {
  const e = binanceOrderError(err);
  if (!(e instanceof BinanceError) || e.status >= 500) throw e;
  return { code: e.code, msg: e.msg };
};

/** Registers POST /api/v3/order/cancelReplace (weight 1, counts as an order, as Binance's). */
export function registerCancelReplaceRoute(app: FastifyInstance, { host, spot, scalesOf, userOf, trade }: CancelReplaceDeps): void {
  const engine = host.engine;
  const listIdOf = (orderId: string): number => {
    const l = engine.order(orderId)?.orderListId;
    return l === undefined ? -1 : idNumber(l);
  };

  app.post(
    '/api/v3/order/cancelReplace',
    {
      config: trade(1, true),
      schema: {
        querystring: cancelReplaceSchema,
        body: cancelReplaceSchema,
        response: { ...answers(CancelReplaceResponse), 400: CancelReplaceFailure, 409: CancelReplaceFailure },
      },
    },
    async (req, reply: FastifyReply) => {
      const p = paramsOf(req);
      const m = spotMarketOrThrow(host, p.symbol);
      const mode = p.cancelReplaceMode;
      if (!present(mode)) throw BX.mandatoryMissing('cancelReplaceMode');
      if (!MODES.has(mode)) throw BX.badParam("Data sent for parameter 'cancelReplaceMode' is not valid.");
      // Our order limits are checked before the request is read: the DO_NOTHING behaviour, Binance's default.
      if (present(p.orderRateLimitExceededMode) && p.orderRateLimitExceededMode !== 'DO_NOTHING')
        throw BX.badParam("Data sent for parameter 'orderRateLimitExceededMode' is not valid.");
      const cancelId = idParam(p.cancelOrderId);
      const cancelCid = present(p.cancelOrigClientOrderId) ? p.cancelOrigClientOrderId : undefined;
      if (cancelId === undefined && cancelCid === undefined)
        throw new BinanceError(-1102, "Param 'cancelOrigClientOrderId' or 'cancelOrderId' must be sent, but both were empty/null!", 400);
      const restriction = p.cancelRestrictions;
      if (present(restriction) && restriction !== 'ONLY_NEW' && restriction !== 'ONLY_PARTIALLY_FILLED')
        throw new BinanceError(-1145, 'Invalid cancelRestrictions', 400);
      // The new order is parsed and its filters checked before anything is cancelled (Binance: "Filters and Order
      // Count are evaluated before the processing of the cancellation and order placement occurs").
      const order = parseNewOrder(p, m);
      const s = scalesOf(m);
      checkFilters(order, m, s.quoteScale);
      const userId = userOf(req);

      // One engine command (cancelReplaceOrder): the cancel, then the new order against the balance it released, with
      // nothing in between; only the caller's open order of this market is cancelled, as DELETE /api/v3/order finds it.
      const a = await spot.cancelReplace(userId, {
        mode: mode as CancelReplaceMode,
        ...(cancelId !== undefined ? { cancelOrderId: cancelId } : {}),
        ...(cancelCid !== undefined ? { cancelClientOrderId: cancelCid } : {}),
        ...(present(restriction) ? { restriction } : {}),
        body: order.body,
      });
      let cancelResponse: ReturnType<typeof canceledOrder> | { code: number; msg: string };
      const cancelled = !(a.canceled instanceof AppError);
      if (!(a.canceled instanceof AppError)) {
        const e = a.canceled;
        const newCid = present(p.cancelNewClientOrderId) ? p.cancelNewClientOrderId : newClientOrderId();
        cancelResponse = canceledOrder(e, s, e.clientOrderId, newCid, listIdOf(e.id));
      } else if (a.cancelRestricted) cancelResponse = { code: -2011, msg: 'Order was not canceled due to cancel restrictions.' };
      else if (a.canceled.code === 'order_not_found') cancelResponse = { code: -2011, msg: 'Unknown order sent.' };
      else cancelResponse = codeMsg(a.canceled);
      if (!cancelled && mode === 'STOP_ON_FAILURE') {
        return reply.code(400).send({
          code: -2022,
          msg: 'Order cancel-replace failed.',
          data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse, newOrderResponse: null },
        });
      }

      let placedResponse: ReturnType<typeof newOrderResponse> | { code: number; msg: string };
      if (a.placed === null) throw new Error('cancelReplaceOrder attempted no placement after a cancel it may place after');
      const placed = !(a.placed instanceof AppError);
      if (a.placed instanceof AppError) placedResponse = codeMsg(a.placed);
      else {
        const e = a.placed;
        if (order.respType !== 'FULL' || e.dealAmount === formatDecimal(0n, m.qtyDecimals)) placedResponse = newOrderResponse(e, s, order.respType);
        else placedResponse = newOrderResponse(e, s, 'FULL', (await spot.detail(userId, e.id)).fills);
      }
      const result = (ok: boolean) => (ok ? 'SUCCESS' : 'FAILURE');
      const data = { cancelResult: result(cancelled), newOrderResult: result(placed), cancelResponse, newOrderResponse: placedResponse };
      if (cancelled && placed) return data;
      if (cancelled || placed) return reply.code(409).send({ code: -2021, msg: 'Order cancel-replace partially failed.', data });
      return reply.code(400).send({ code: -2022, msg: 'Order cancel-replace failed.', data });
    },
  );
}
