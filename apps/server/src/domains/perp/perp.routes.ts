/**
 * Routes of contract/contract (paths in packages/api contract.ts CONTRACT_PATHS): the USDT perpetual contracts'
 * account, positions, settings, order entry, close, cancel, order lists and detail, funding and liquidation records,
 * all behind requireAuth. Thin: validation by the shared TypeBox schemas, rules in ContractService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AdjustMarginBody,
  CancelContractConditionalBody,
  CancelContractOrderBody,
  ClosePositionBody,
  CONTRACT_PATHS,
  ContractAccount,
  ContractConditionalOrder,
  ContractConditionalPage,
  ContractFundingPage,
  ContractLiquidationPage,
  ContractOrder,
  ContractOrderDetail,
  ContractOrderPage,
  ContractPosition,
  ContractPositions,
  ContractPositionsQuery,
  ContractRecordsQuery,
  ContractSettings,
  ContractSymbolQuery,
  Envelope,
  GetContractConditionalQuery,
  GetContractOrderDetailQuery,
  GetContractOrdersQuery,
  LeveragePreview,
  LeveragePreviewQuery,
  PlaceContractConditionalBody,
  PlaceContractOrderBody,
  SetLeverageBody,
  SetMarginModeBody,
  SetTpSlBody,
} from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import { createSlidingWindowLimiter } from '../../platform/rate-limit/sliding-window';
import type { PerpService } from './perp.service';
import type { PerpConditionalService } from './perp.conditional';
import type { Config } from '../../platform/config/env';

const TAGS = ['contract'];

/**
 * The perpetual order and position routes over the perpetuals service and its conditional orders (`config.orderRatePer10s`:
 * the per-user order rate, shared by every order entry).
 */
export default function perpRoutes({
  perp,
  conditional,
  config,
}: {
  perp: PerpService;
  conditional: PerpConditionalService;
  config: Pick<Config, 'orderRatePer10s'>;
}): FastifyPluginAsync {
  return async function perpRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    // Users' order entry (placeOrder, closePosition) is rate limited per user, as spot orders are.
    const orderRate = createSlidingWindowLimiter(config.orderRatePer10s, 10_000);

    // A rejection that names the value to meet (minimum quantity, step, tick: AppError.params) is answered here with
    // those values; every other error goes on to the app's handler (app.ts).
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });

    const get = { preHandler: requireAuth };

    app.get(
      `/api/${CONTRACT_PATHS.getAccount}`,
      { ...get, schema: { tags: TAGS, summary: 'Your contract account (USDT) at the current mark prices', response: { 200: Envelope(ContractAccount) } } },
      async (req) => ok(perp.account(req.userId)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getPositions}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your open positions (every field of spec section 3), optionally of one contract',
          querystring: ContractPositionsQuery,
          response: { 200: Envelope(ContractPositions) },
        },
      },
      async (req) => ok(perp.positions(req.userId, req.query.symbol)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getSettings}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your leverage and margin mode in a contract, with its brackets and limits',
          querystring: ContractSymbolQuery,
          response: { 200: Envelope(ContractSettings) },
        },
      },
      async (req) => ok(perp.settings(req.userId, req.query.symbol)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.leveragePreview}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: "What setting a leverage would do to your position's margin, and whether it would be accepted",
          querystring: LeveragePreviewQuery,
          response: { 200: Envelope(LeveragePreview) },
        },
      },
      async (req) => ok(perp.leveragePreview(req.userId, req.query, requestLang(req))),
    );

    app.post(
      `/api/${CONTRACT_PATHS.setLeverage}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: "Set your leverage in a contract (a position's margin follows)",
          body: SetLeverageBody,
          response: { 200: Envelope(ContractSettings) },
        },
      },
      async (req) => ok(await perp.setLeverage(req.userId, req.body)),
    );

    app.post(
      `/api/${CONTRACT_PATHS.setMarginMode}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Set your margin mode (cross or isolated) in a contract without a position or open orders',
          body: SetMarginModeBody,
          response: { 200: Envelope(ContractSettings) },
        },
      },
      async (req) => ok(await perp.setMarginMode(req.userId, req.body)),
    );

    app.post(
      `/api/${CONTRACT_PATHS.adjustMargin}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Add (amount > 0) or remove (amount < 0) margin of an isolated position',
          body: AdjustMarginBody,
          response: { 200: Envelope(ContractPosition) },
        },
      },
      async (req) => ok(await perp.adjustMargin(req.userId, req.body)),
    );

    app.post(
      `/api/${CONTRACT_PATHS.setTpSl}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: "Set or clear ('') your position's take profit and stop loss",
          body: SetTpSlBody,
          response: { 200: Envelope(ContractPosition) },
        },
      },
      async (req) => ok(await perp.setTpSl(req.userId, req.body)),
    );

    app.post(
      `/api/${CONTRACT_PATHS.placeOrder}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary:
            'Place a contract order: LIMIT (price) or MARKET, in lots (1,000 USDT each at the order price) or a quantity; optional TP/SL and reduce-only',
          body: PlaceContractOrderBody,
          response: { 200: Envelope(ContractOrder) },
        },
      },
      async (req) => {
        if (!orderRate.take(req.userId, Date.now())) throw new AppError('order_rate_limited', 429);
        return ok(await perp.placeOrder(req.userId, req.body));
      },
    );

    app.post(
      `/api/${CONTRACT_PATHS.closePosition}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Close your position at market: all of it (one-click close) or `lots` of it',
          body: ClosePositionBody,
          response: { 200: Envelope(ContractOrder) },
        },
      },
      async (req) => {
        if (!orderRate.take(req.userId, Date.now())) throw new AppError('order_rate_limited', 429);
        return ok(await perp.closePosition(req.userId, req.body));
      },
    );

    app.post(
      `/api/${CONTRACT_PATHS.cancelOrder}`,
      {
        ...get,
        schema: { tags: TAGS, summary: 'Cancel one of your open contract orders', body: CancelContractOrderBody, response: { 200: Envelope(ContractOrder) } },
      },
      async (req) => ok(await perp.cancelOrder(req.userId, req.body)),
    );

    app.post(
      `/api/${CONTRACT_PATHS.placeConditionalOrder}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary:
            'Place a conditional order (stop-limit, stop-market, take-profit limit or market, trailing stop) triggered by the mark or the last price; no margin is held until it triggers',
          body: PlaceContractConditionalBody,
          response: { 200: Envelope(ContractConditionalOrder) },
        },
      },
      async (req) => {
        if (!orderRate.take(req.userId, Date.now())) throw new AppError('order_rate_limited', 429);
        return ok(await conditional.place(req.userId, req.body, requestLang(req)));
      },
    );

    app.post(
      `/api/${CONTRACT_PATHS.cancelConditionalOrder}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Cancel one of your pending conditional orders',
          body: CancelContractConditionalBody,
          response: { 200: Envelope(ContractConditionalOrder) },
        },
      },
      async (req) => ok(await conditional.cancel(req.userId, req.body, requestLang(req))),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getConditionalOrders}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your conditional orders: open (pending, oldest first) or history (triggered, cancelled, expired; newest first), paged',
          querystring: GetContractConditionalQuery,
          response: { 200: Envelope(ContractConditionalPage) },
        },
      },
      async (req) => ok(await conditional.list(req.userId, req.query, requestLang(req))),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getOrders}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your contract orders of a tab (matched, unmatched, cancelled, history), newest first, paged',
          querystring: GetContractOrdersQuery,
          response: { 200: Envelope(ContractOrderPage) },
        },
      },
      async (req) => ok(await perp.orders(req.userId, req.query)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getOrderDetail}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'One of your contract orders with its fills',
          querystring: GetContractOrderDetailQuery,
          response: { 200: Envelope(ContractOrderDetail) },
        },
      },
      async (req) => ok(await perp.orderDetail(req.userId, req.query.orderId)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getFundingRecords}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your funding payments (paid negative, received positive), newest first, paged',
          querystring: ContractRecordsQuery,
          response: { 200: Envelope(ContractFundingPage) },
        },
      },
      async (req) => ok(await perp.fundingRecords(req.userId, req.query)),
    );

    app.get(
      `/api/${CONTRACT_PATHS.getLiquidations}`,
      {
        ...get,
        schema: {
          tags: TAGS,
          summary: 'Your liquidations (forced closes at risk level 100%), newest first, paged',
          querystring: ContractRecordsQuery,
          response: { 200: Envelope(ContractLiquidationPage) },
        },
      },
      async (req) => ok(await perp.liquidations(req.userId, req.query)),
    );
  };
}
