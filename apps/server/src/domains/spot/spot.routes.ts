/**
 * Routes of entrust/entrust (paths in packages/api paths.ts): place, cancel, list and detail of spot orders, place and
 * cancel OCO lists, and one's own fills (trade history), all behind requireAuth. Thin: validation by the shared TypeBox schemas, rules in EntrustService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  API_PATHS,
  CancelEntrustBody,
  CancelOcoEntrustBody,
  Entrust,
  EntrustDetail,
  EntrustPage,
  Envelope,
  GetEntrustDetailQuery,
  GetEntrustListQuery,
  GetTradeListQuery,
  OcoEntrust,
  SetEntrustBody,
  SetOcoEntrustBody,
  UserTradePage,
} from '@exchange/api';
import { fail, ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import { createSlidingWindowLimiter } from '../../platform/rate-limit/sliding-window';
import type { SpotService } from './spot.service';
import type { Config } from '../../platform/config/env';

const TAGS = ['entrust'];

/** The spot order routes over the spot order service (`config.orderRatePer10s`: the per-user order rate). */
export default function spotRoutes({ spot, config }: { spot: SpotService; config: Pick<Config, 'orderRatePer10s'> }): FastifyPluginAsync {
  return async function spotRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    // Users' order entry is rate limited per user (the liquidity bots call the service directly, not this route).
    const orderRate = createSlidingWindowLimiter(config.orderRatePer10s, 10_000);

    // An order rejection that names the market's value to meet (minimum order value, step: AppError.params) is
    // answered here with those values; every other error goes on to the app's handler (app.ts), which renders
    // a code and a field only.
    app.setErrorHandler((err, req, reply) => {
      if (!(err instanceof AppError) || err.params === undefined) throw err;
      void reply.status(err.status).send(fail(err.code, requestLang(req), err.field, err.params));
    });

    app.post(
      `/api/${API_PATHS.setEntrust}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Place a spot order: LIMIT (price + amount) or MARKET (SELL amount; BUY amount or total); a repeated clientOrderId returns the first result',
          body: SetEntrustBody,
          response: { 200: Envelope(Entrust) },
        },
      },
      async (req) => {
        if (!orderRate.take(req.userId, Date.now())) throw new AppError('order_rate_limited', 429);
        return ok(await spot.place(req.userId, req.body));
      },
    );

    app.post(
      `/api/${API_PATHS.cancelEntrust}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Cancel one of your open orders by id or clientOrderId', body: CancelEntrustBody, response: { 200: Envelope(Entrust) } },
      },
      async (req) => ok(await spot.cancel(req.userId, req.body)),
    );

    app.post(
      `/api/${API_PATHS.setOcoEntrust}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary:
            'Place an OCO list: a limit maker leg at price (take profit) and a stop-limit leg (stopPrice, stopLimitPrice: stop loss) of one amount; when one leg fills or triggers the other is cancelled',
          body: SetOcoEntrustBody,
          response: { 200: Envelope(OcoEntrust) },
        },
      },
      async (req) => {
        // An OCO places two orders: it takes one turn of the order rate, as one request.
        if (!orderRate.take(req.userId, Date.now())) throw new AppError('order_rate_limited', 429);
        return ok(await spot.placeOco(req.userId, req.body));
      },
    );

    app.post(
      `/api/${API_PATHS.cancelOcoEntrust}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Cancel one of your OCO lists (both open legs) by orderListId or clientOrderId',
          body: CancelOcoEntrustBody,
          response: { 200: Envelope(OcoEntrust) },
        },
      },
      async (req) => ok(await spot.cancelOco(req.userId, req.body)),
    );

    app.get(
      `/api/${API_PATHS.getEntrustList}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Your open (current) or ended (history) orders, newest first, paged',
          querystring: GetEntrustListQuery,
          response: { 200: Envelope(EntrustPage) },
        },
      },
      async (req) => ok(await spot.list(req.userId, req.query)),
    );

    app.get(
      `/api/${API_PATHS.getEntrustDetail}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'One of your orders with its fills', querystring: GetEntrustDetailQuery, response: { 200: Envelope(EntrustDetail) } },
      },
      async (req) => ok(await spot.detail(req.userId, req.query.id)),
    );

    app.get(
      `/api/${API_PATHS.getTradeList}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Your fills (trade history: maker and taker, with your order, side, fee and role), newest first, paged',
          querystring: GetTradeListQuery,
          response: { 200: Envelope(UserTradePage) },
        },
      },
      async (req) => ok(await spot.trades(req.userId, req.query)),
    );
  };
}
