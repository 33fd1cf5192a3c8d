/**
 * Binance USDⓈ-M "Place Multiple Orders (TRADE)" and "Cancel Multiple Orders (TRADE)": POST and DELETE
 * /fapi/v1/batchOrders (https://developers.binance.com/docs/derivatives/usds-margined-futures/trade/rest-api/Place-Multiple-Orders,
 * .../Cancel-Multiple-Orders). Each order of a batch goes through the same path as POST /fapi/v1/order (the route's
 * `newOrder`: every parameter check, then the perpetuals service's journaled command), each cancel through the same
 * lookup and service call as DELETE /fapi/v1/order; the answer is a list in the order sent, each entry the order or
 * Binance's `{ code, msg }` of its own failure. The batch is not atomic (as on Binance): the orders before a failed
 * one stay placed. PUT /fapi/v1/batchOrders ("Modify Multiple Orders") runs each element through PUT /fapi/v1/order's
 * modify (the engine's perpAmendOrder) the same way.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { PerpMarketConfig, PerpOrderView } from '@exchange/core';
import { callerOf, type BinanceRouteConfig, type OrderCount } from './binance.auth';
import { BinanceError, BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { futuresCall } from './futures.errors';
import { FSymbol, optional, signedParams } from './futures.params';
import { answers, FuturesBatchCancelResponse, FuturesBatchOrdersResponse } from './binance.responses';

/** Binance's most orders in one POST /fapi/v1/batchOrders, and most ids in one DELETE. */
export const MAX_BATCH_ORDERS = 5;
export const MAX_BATCH_CANCELS = 10;

/** What the batch routes use of the futures routes (futures.routes.ts): the single-order paths they repeat. */
export interface FuturesBatchDeps {
  /** The parameter schema of POST /fapi/v1/order: each batch element is checked against it. */
  orderParams: TSchema;
  /** POST /fapi/v1/order's placement: its answer, or a BinanceError. */
  newOrder: (userId: string, p: Record<string, string>) => Promise<unknown>;
  /** The parameter schema of PUT /fapi/v1/order, and its modify (answer or BinanceError). */
  modifyParams: TSchema;
  modifyOrder: (userId: string, p: Record<string, string>) => Promise<unknown>;
  /** The caller's order named by `orderId` or `origClientOrderId` in market `m`, or undefined. */
  findOrder: (userId: string, m: PerpMarketConfig, p: Record<string, string>) => Promise<PerpOrderView | undefined>;
  orderById: (userId: string, orderId: string) => Promise<PerpOrderView | undefined>;
  marketOf: (p: Record<string, string>) => PerpMarketConfig;
  orderOut: (o: PerpOrderView, withTime?: boolean) => unknown;
  /** ContractService.cancelOrder of one order id. */
  cancelOrder: (userId: string, orderId: string) => Promise<{ orderId: string }>;
}

/**
 * What one POST or PUT /fapi/v1/batchOrders counts against the ORDERS limits, whatever the number of its orders:
 * Binance's pages "Place Multiple Orders" and "Modify Multiple Orders" give the request weight "5 on 10s order rate
 * limit (X-MBX-ORDER-COUNT-10S); 1 on 1min order rate limit (X-MBX-ORDER-COUNT-1M); 5 on IP rate limit", that is a
 * full batch's five orders on the short window. Our longer window is the day's (Binance futures has a minute's): it
 * counts the batch once, as Binance's longer window does. A batch that would pass a limit is refused whole, -1015,
 * with none of its orders placed (binance.weights.ts countOrder, before the handler runs).
 */
export const BATCH_ORDER_COUNT: OrderCount = { tenSeconds: MAX_BATCH_ORDERS, day: 1 };

/** A batch element's failure as Binance answers it in place. */
const failure = (e: BinanceError) => ({ code: e.code, msg: e.msg });

const JSON_LIST = Type.String({ pattern: '^\\[.{0,8000}\\]$', maxLength: 8002 });

/**
 * The orders of a `batchOrders` parameter: a JSON array of 1 to 5 objects whose values are strings (numbers and
 * booleans are taken as their text, as Binance reads them). -1130 when it is not such an array.
 */
export function parseBatchOrders(raw: string): Array<Record<string, unknown>> {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH_ORDERS || list.some((x) => x === null || typeof x !== 'object' || Array.isArray(x)))
    throw BX.badParam("Data sent for parameter 'batchOrders' is not valid.");
  return list as Array<Record<string, unknown>>;
}

/**
 * The ids of an `orderIdList` (a JSON array of LONGs, kept as digit strings) or an `origClientOrderIdList` (a JSON
 * array of client order ids): 1 to 10 of them, else -1130.
 */
export function parseIdList(raw: string, name: 'orderIdList' | 'origClientOrderIdList'): string[] {
  const bad = () => BX.badParam(`Data sent for parameter '${name}' is not valid.`);
  let ids: string[];
  if (name === 'orderIdList') {
    // Parsed by pattern, not JSON.parse: ids stay exact decimal strings whatever their size.
    if (!/^\[\s*\d{1,18}(\s*,\s*\d{1,18}){0,9}\s*\]$/.test(raw)) throw bad();
    ids = raw
      .slice(1, -1)
      .split(',')
      .map((x) => x.trim().replace(/^0+(?=\d)/, ''));
  } else {
    let list: unknown;
    try {
      list = JSON.parse(raw);
    } catch {
      throw bad();
    }
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !/^[.A-Z:/a-z0-9_-]{1,36}$/.test(x))) throw bad();
    ids = list as string[];
  }
  if (ids.length === 0 || ids.length > MAX_BATCH_CANCELS) throw bad();
  return ids;
}

/** Registers POST and DELETE /fapi/v1/batchOrders on the futures scope. */
export function registerFuturesBatchRoutes(app: FastifyInstance, deps: FuturesBatchDeps): void {
  const { orderParams, newOrder, modifyParams, modifyOrder, findOrder, orderById, marketOf, orderOut, cancelOrder } = deps;
  const trade = (weight: number, order?: OrderCount): { binance: BinanceRouteConfig } => ({
    binance: { weight, security: 'TRADE', permission: 'futuresTrade', ...(order ? { order } : {}) },
  });
  /** Turns one element of batchOrders into the parameters of the route whose schema is `schema`. */
  const elementReader = (schema: TSchema) => {
    const check = TypeCompiler.Compile(schema);
    const names = new Set(Object.keys((schema as { properties?: object }).properties ?? {}));
    for (const n of ['timestamp', 'recvWindow', 'signature']) names.delete(n);
    return (el: Record<string, unknown>) => elementParams(el, check, names);
  };

  /** One element of batchOrders as its single route's parameters; a BinanceError as that route would answer it. */
  function elementParams(
    el: Record<string, unknown>,
    elementCheck: ReturnType<typeof TypeCompiler.Compile>,
    elementNames: ReadonlySet<string>,
  ): Record<string, string> {
    const p: Record<string, string> = {};
    let read = 0;
    for (const [k, v] of Object.entries(el)) {
      if (elementNames.has(k)) read++;
      if (typeof v === 'string') p[k] = v;
      else if (typeof v === 'number' || typeof v === 'boolean') p[k] = String(v);
      else throw BX.illegalChars(k);
    }
    if (read < Object.keys(el).length) throw BX.unreadParams(read, Object.keys(el).length);
    const first = elementCheck.Errors(p).First();
    if (first !== undefined) throw BX.illegalChars(first.path.replace(/^\//, '') || 'batchOrders');
    return p;
  }

  const placeSchema = signedParams({ batchOrders: JSON_LIST });
  /** A batch route: each element read as its single route's parameters and run through `one`, answered in place. */
  const batchOf =
    (read: (el: Record<string, unknown>) => Record<string, string>, one: (userId: string, p: Record<string, string>) => Promise<unknown>) =>
    async (req: FastifyRequest) => {
      const p = paramsOf(req);
      const userId = callerOf(req).userId;
      const raw = optional(p, 'batchOrders');
      if (raw === undefined) throw BX.mandatoryMissing('batchOrders');
      const out: unknown[] = [];
      for (const el of parseBatchOrders(raw)) {
        try {
          out.push(await one(userId, read(el)));
        } catch (err) {
          if (!(err instanceof BinanceError) || err.status >= 500) throw err;
          out.push(failure(err));
        }
      }
      return out;
    };
  app.post(
    '/fapi/v1/batchOrders',
    { config: trade(5, BATCH_ORDER_COUNT), schema: { querystring: placeSchema, body: placeSchema, response: answers(FuturesBatchOrdersResponse) } },
    batchOf(elementReader(orderParams), newOrder),
  );
  // Binance "Modify Multiple Orders": each element as PUT /fapi/v1/order takes it (CCXT's editOrders).
  app.put(
    '/fapi/v1/batchOrders',
    { config: trade(5, BATCH_ORDER_COUNT), schema: { querystring: placeSchema, body: placeSchema, response: answers(FuturesBatchOrdersResponse) } },
    batchOf(elementReader(modifyParams), modifyOrder),
  );

  // Binance names the lists orderIdList and origClientOrderIdList; CCXT sends them lower-case (orderidlist): both read.
  const cancelSchema = signedParams({
    symbol: FSymbol,
    orderIdList: JSON_LIST,
    origClientOrderIdList: JSON_LIST,
    orderidlist: JSON_LIST,
    origclientorderidlist: JSON_LIST,
  });
  app.delete(
    '/fapi/v1/batchOrders',
    { config: trade(1), schema: { querystring: cancelSchema, body: cancelSchema, response: answers(FuturesBatchCancelResponse) } },
    async (req) => {
      const p = paramsOf(req);
      const userId = callerOf(req).userId;
      const m = marketOf(p);
      const byId = optional(p, 'orderIdList') ?? optional(p, 'orderidlist');
      const byClientId = optional(p, 'origClientOrderIdList') ?? optional(p, 'origclientorderidlist');
      if (byId === undefined && byClientId === undefined)
        throw new BinanceError(-1102, "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!");
      if (byId !== undefined && byClientId !== undefined) throw new BinanceError(-1128, 'Combination of optional parameters invalid.');
      const names = byId !== undefined ? parseIdList(byId, 'orderIdList') : parseIdList(byClientId!, 'origClientOrderIdList');
      const out: unknown[] = [];
      for (const name of names) {
        try {
          const o = await findOrder(userId, m, byId !== undefined ? { orderId: name } : { origClientOrderId: name });
          if (!o) throw new BinanceError(-2011, 'Unknown order sent.');
          const after = await futuresCall(() => cancelOrder(userId, o.orderId));
          out.push(orderOut((await orderById(userId, after.orderId)) ?? o, false));
        } catch (err) {
          if (!(err instanceof BinanceError) || err.status >= 500) throw err;
          out.push(failure(err));
        }
      }
      return out;
    },
  );
}
