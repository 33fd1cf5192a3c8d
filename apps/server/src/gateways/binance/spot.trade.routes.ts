/**
 * Binance spot trading and account endpoints under /api/v3 (see
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints and account-endpoints), and
 * GET /sapi/v1/capital/config/getall (CCXT's fetchCurrencies). Orders go through the app's EntrustService (place,
 * cancel, list, detail): the same journaled engine commands and the same answers as the app API. Balances are the
 * engine's SPOT account. The caller is the API key's user (callerOf); another user's order is never found (-2013 on
 * queries, -2011 on cancels), exactly as an unknown one.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { formatDecimal, type MarketConfig } from '@exchange/core';
import type { Entrust } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ServerClock } from '../../platform/shared/clock';
import type { SpotService } from '../../domains/spot/spot.service';
import type { ChainService } from '../../domains/wallet/chain.service';
import { rowToOrderView, toEntrust } from '../../domains/spot/spot.format';
import { callerOf, type BinanceRouteConfig } from './binance.auth';
import { BinanceError, BX } from './binance.errors';
import { paramsOf } from './binance.hooks';
import { spotMarketOrThrow, toBinanceSymbol } from './binance.symbols';
import { canceledOrder, commissionRate, idNumber, newOrderResponse, queriedOrder, type OrderScales } from './spot.format';
import { binanceOrderError, checkFilters, newClientOrderId, parseNewOrder } from './spot.order';
import { registerOcoRoutes } from './spot.oco';
import { registerCancelReplaceRoute } from './spot.cancel-replace';
import {
  BoolParam,
  checkWindow,
  ClientOrderIdParam,
  DecimalParam,
  EnumParam,
  idParam,
  IntParam,
  intParam,
  notBoth,
  params,
  signedParams,
  signedPartialParams,
  SymbolParam,
  timeParam,
} from './spot.params';
import { createSpotRepository, projectionCaughtUp, type SpotOrderRow } from './spot.repository';
import {
  AccountCommissionResponse,
  answers,
  CanceledOrder,
  CoinConfigResponse,
  EmptyListResponse,
  MyTradesResponse,
  NewOrderResponse,
  QueriedOrder,
  SpotAccountResponse,
  TestOrderResponse,
  TradeFeeResponse,
} from './binance.responses';
import { marketScales } from '../../platform/shared/market-scales';

/** Route config of a TRADE route (key permission spotTrade). */
const trade = (weight: number, order = false): { binance: BinanceRouteConfig } => ({
  binance: { weight, security: 'TRADE', permission: 'spotTrade', ...(order ? { order } : {}) },
});
/** Route config of a USER_DATA route (key permission read). */
const userData = (weight: number): { binance: BinanceRouteConfig } => ({ binance: { weight, security: 'USER_DATA', permission: 'read' } });
/** Binance's `discount` object: we have no fee discount asset (Binance's is BNB). */
const NO_DISCOUNT = { enabledForAccount: false, enabledForSymbol: false, discountAsset: '', discount: commissionRate(0) };

/** The parameters of POST /api/v3/order and order/test. */
const NEW_ORDER = {
  symbol: SymbolParam,
  side: EnumParam,
  type: EnumParam,
  timeInForce: EnumParam,
  quantity: DecimalParam,
  quoteOrderQty: DecimalParam,
  price: DecimalParam,
  newClientOrderId: ClientOrderIdParam,
  strategyId: IntParam,
  strategyType: IntParam,
  stopPrice: DecimalParam,
  trailingDelta: IntParam,
  icebergQty: DecimalParam,
  newOrderRespType: EnumParam,
  selfTradePreventionMode: EnumParam,
  pegPriceType: EnumParam,
  pegOffsetValue: IntParam,
  pegOffsetType: EnumParam,
  computeCommissionRates: BoolParam,
};
const newOrderSchema = signedPartialParams(NEW_ORDER);

/** The parameters naming one order (query and cancel). */
const ONE_ORDER = {
  symbol: SymbolParam,
  orderId: IntParam,
  origClientOrderId: ClientOrderIdParam,
  newClientOrderId: ClientOrderIdParam,
  cancelRestrictions: EnumParam,
};
const cancelSchema = signedPartialParams(ONE_ORDER);

/**
 * What the trading and account routes use: the engine, the database (projected orders and trades), the clock, the
 * app's order service and the wallet's coin catalogue (capital/config/getall).
 */
export interface SpotTradeRoutesDeps {
  host: EnginePort;
  db: Db;
  clock: Pick<ServerClock, 'now'>;
  spot: Pick<SpotService, 'place' | 'detail' | 'cancel' | 'list' | 'cancelReplace'>;
  chain: { catalogue: Pick<ChainService['catalogue'], 'coins'> };
}

/** Binance's spot trading and account routes over the app's order service. */
export default function spotTradeRoutes({ host, db, clock, spot, chain }: SpotTradeRoutesDeps): FastifyPluginAsync {
  return async function spotTradeRoutes(app) {
    const engine = host.engine;
    const repo = createSpotRepository(db);
    const scalesOf = (m: MarketConfig): OrderScales & ReturnType<typeof marketScales> => marketScales(m, (c) => engine.asset(c));
    const userOf = (req: FastifyRequest) => callerOf(req).userId;
    /** The OCO list id of an order the engine retains (Binance's orderListId), -1 outside a list or when not retained. */
    const listIdOf = (orderId: string): number => {
      const l = engine.order(orderId)?.orderListId;
      return l === undefined ? -1 : idNumber(l);
    };
    /** Runs a service call with its AppErrors as Binance's errors. */
    const service = async <T>(f: () => Promise<T>): Promise<T> => {
      try {
        return await f();
      } catch (err) {
        throw binanceOrderError(err);
      }
    };

    // ------------------------------------------------------------------ order entry

    app.post(
      '/api/v3/order',
      { config: trade(1, true), schema: { querystring: newOrderSchema, body: newOrderSchema, response: answers(NewOrderResponse) } },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const order = parseNewOrder(p, m);
        const userId = userOf(req);
        const e = await service(() => spot.place(userId, order.body));
        const s = scalesOf(m);
        if (order.respType !== 'FULL' || e.dealAmount === formatDecimal(0n, m.qtyDecimals)) return newOrderResponse(e, s, order.respType);
        const detail = await service(() => spot.detail(userId, e.id));
        return newOrderResponse(e, s, 'FULL', detail.fills);
      },
    );

    app.post(
      '/api/v3/order/test',
      { config: trade(1), schema: { querystring: newOrderSchema, body: newOrderSchema, response: answers(TestOrderResponse) } },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const order = parseNewOrder(p, m);
        checkFilters(order, m, scalesOf(m).quoteScale);
        if (p.computeCommissionRates !== 'true') return {};
        const rates = { maker: commissionRate(m.makerFeePpm), taker: commissionRate(m.takerFeePpm) };
        const none = { maker: commissionRate(0), taker: commissionRate(0) };
        return { standardCommissionForOrder: rates, specialCommissionForOrder: none, taxCommissionForOrder: none, discount: NO_DISCOUNT };
      },
    );

    // ------------------------------------------------------------------ OCO order lists

    registerOcoRoutes(app, { host, scalesOf, userOf, trade, userData });
    registerCancelReplaceRoute(app, { host, spot, scalesOf, userOf, trade });

    // ------------------------------------------------------------------ commission rates (CCXT's fetchTradingFee(s))

    // Binance "Query Commission Rates (USER_DATA)": the market's maker/taker rates; no buyer/seller, special or tax part,
    // no discount asset. Our fees are per market, the same for every account.
    app.get(
      '/api/v3/account/commission',
      { config: userData(20), schema: { querystring: signedParams({ symbol: SymbolParam }), response: answers(AccountCommissionResponse) } },
      async (req) => {
        const m = spotMarketOrThrow(host, paramsOf(req).symbol);
        const zero = commissionRate(0);
        const none = { maker: zero, taker: zero, buyer: zero, seller: zero };
        return {
          symbol: toBinanceSymbol(m.symbol),
          standardCommission: { maker: commissionRate(m.makerFeePpm), taker: commissionRate(m.takerFeePpm), buyer: zero, seller: zero },
          specialCommission: none,
          taxCommission: none,
          discount: NO_DISCOUNT,
        };
      },
    );

    // Binance "Trade Fee (USER_DATA)", GET /sapi/v1/asset/tradeFee: every market's rates, or one symbol's.
    app.get(
      '/sapi/v1/asset/tradeFee',
      { config: userData(1), schema: { querystring: signedParams({ symbol: Type.Optional(SymbolParam) }), response: answers(TradeFeeResponse) } },
      async (req) => {
        const symbol = paramsOf(req).symbol;
        const markets = symbol !== undefined && symbol !== '' ? [spotMarketOrThrow(host, symbol)] : engine.markets();
        return markets.map((m) => ({
          symbol: toBinanceSymbol(m.symbol),
          makerCommission: commissionRate(m.makerFeePpm),
          takerCommission: commissionRate(m.takerFeePpm),
        }));
      },
    );

    // ------------------------------------------------------------------ one order: query and cancel

    /** -1102 unless orderId or origClientOrderId was sent. */
    const oneOf = (p: Record<string, string>) => {
      if (idParam(p.orderId) === undefined && (p.origClientOrderId === undefined || p.origClientOrderId === '')) {
        throw new BinanceError(-1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!", 400);
      }
    };
    /** Whether order `e` is of market `m` and carries `origClientOrderId` when that was sent too. */
    const matches = (e: Pick<Entrust, 'pairsName' | 'clientOrderId'>, m: MarketConfig, p: Record<string, string>) =>
      e.pairsName === m.symbol && (p.origClientOrderId === undefined || p.origClientOrderId === '' || p.origClientOrderId === e.clientOrderId);

    app.get(
      '/api/v3/order',
      {
        config: userData(4),
        schema: {
          querystring: signedParams({ symbol: SymbolParam, orderId: Type.Optional(IntParam), origClientOrderId: Type.Optional(ClientOrderIdParam) }),
          response: answers(QueriedOrder),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        oneOf(p);
        const userId = userOf(req);
        let id = idParam(p.orderId);
        if (id === undefined) {
          const open = engine.openOrders(userId, m.symbol).find((o) => o.clientOrderId === p.origClientOrderId);
          if (open) id = open.orderId;
          else {
            await projectionCaughtUp(host);
            id = (await repo.orderByClientId(userId, m.symbol, p.origClientOrderId!))?.id.toString();
          }
          if (id === undefined) throw BX.noSuchOrder();
        }
        let e: Entrust;
        try {
          e = await spot.detail(userId, id);
        } catch (err) {
          if (err instanceof AppError && err.code === 'order_not_found') throw BX.noSuchOrder();
          throw binanceOrderError(err);
        }
        if (!matches(e, m, p)) throw BX.noSuchOrder();
        return queriedOrder(e, scalesOf(m), listIdOf(e.id));
      },
    );

    app.delete(
      '/api/v3/order',
      { config: trade(1), schema: { querystring: cancelSchema, body: cancelSchema, response: answers(CanceledOrder) } },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        oneOf(p);
        const restriction = p.cancelRestrictions;
        if (restriction !== undefined && restriction !== 'ONLY_NEW' && restriction !== 'ONLY_PARTIALLY_FILLED')
          throw new BinanceError(-1145, 'Invalid cancelRestrictions', 400);
        const userId = userOf(req);
        const id = idParam(p.orderId);
        // Only the caller's open orders of this market can be cancelled; anything else is an unknown order.
        const order = engine
          .openOrders(userId, m.symbol)
          .find(
            (o) =>
              (id !== undefined ? o.orderId === id : o.clientOrderId === p.origClientOrderId) &&
              (p.origClientOrderId === undefined || p.origClientOrderId === '' || o.clientOrderId === p.origClientOrderId),
          );
        if (!order) throw BX.cancelRejected();
        if ((restriction === 'ONLY_NEW' && order.status !== 'NEW') || (restriction === 'ONLY_PARTIALLY_FILLED' && order.status !== 'PARTIALLY_FILLED')) {
          throw BX.cancelRejected('Order was not canceled due to cancel restrictions.');
        }
        // Cancelling a leg of an OCO list cancels the list (the engine cancels the other leg in the same command).
        const e = await service(() => spot.cancel(userId, { id: order.orderId }));
        return canceledOrder(e, scalesOf(m), e.clientOrderId, p.newClientOrderId || newClientOrderId(), listIdOf(e.id));
      },
    );

    // ------------------------------------------------------------------ open orders, all orders

    /** The caller's open orders (of one market or all), oldest first, through the app's order list. */
    const openOrders = async (userId: string, m: MarketConfig | undefined): Promise<Entrust[]> => {
      const page = await service(() => spot.list(userId, { type: 'current', ...(m ? { pairsName: m.symbol } : {}), page: 1, pageSize: 1_000_000 }));
      return page.records.reverse();
    };

    app.get(
      '/api/v3/openOrders',
      { config: userData(6), schema: { querystring: signedParams({ symbol: Type.Optional(SymbolParam) }), response: answers(Type.Array(QueriedOrder)) } },
      async (req) => {
        const p = paramsOf(req);
        const m = p.symbol !== undefined ? spotMarketOrThrow(host, p.symbol) : undefined;
        const orders = await openOrders(userOf(req), m);
        return orders.map((e) => queriedOrder(e, scalesOf(engine.market(e.pairsName)!), listIdOf(e.id)));
      },
    );

    const cancelAllSchema = signedPartialParams({ symbol: SymbolParam });
    app.delete(
      '/api/v3/openOrders',
      { config: trade(1), schema: { querystring: cancelAllSchema, body: cancelAllSchema, response: answers(Type.Array(CanceledOrder)) } },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const userId = userOf(req);
        const open = await openOrders(userId, m);
        if (open.length === 0) throw BX.cancelRejected();
        const s = scalesOf(m);
        const cancelId = newClientOrderId();
        const out = [];
        for (const o of open) {
          try {
            const e = await spot.cancel(userId, { id: o.id });
            out.push(canceledOrder(e, s, e.clientOrderId, cancelId, listIdOf(e.id)));
          } catch (err) {
            // An order that filled or ended meanwhile is no longer open: nothing to cancel.
            if (!(err instanceof AppError && err.code === 'order_not_found')) throw binanceOrderError(err);
          }
        }
        return out;
      },
    );

    const historyParams = { symbol: SymbolParam, startTime: Type.Optional(IntParam), endTime: Type.Optional(IntParam), limit: Type.Optional(IntParam) };
    /** startTime, endTime (at most 24 h apart) and limit (default 500, max 1000) of a history query. */
    const historyOf = (p: Record<string, string>) => {
      const startTime = timeParam(p.startTime, 'startTime');
      const endTime = timeParam(p.endTime, 'endTime');
      checkWindow(startTime, endTime);
      return {
        limit: intParam(p.limit, 'limit', { min: 1, max: 1000, fallback: 500 }),
        ...(startTime !== undefined ? { startTime } : {}),
        ...(endTime !== undefined ? { endTime } : {}),
      };
    };

    app.get(
      '/api/v3/allOrders',
      {
        config: userData(20),
        schema: { querystring: signedParams({ ...historyParams, orderId: Type.Optional(IntParam) }), response: answers(Type.Array(QueriedOrder)) },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const q = historyOf(p);
        const fromId = idParam(p.orderId);
        await projectionCaughtUp(host);
        // With orderId: the orders from it on (Binance); a time window then narrows nothing more.
        const rows: SpotOrderRow[] = await repo.orders(userOf(req), m.symbol, fromId !== undefined ? { fromId, limit: q.limit } : q);
        const s = scalesOf(m);
        return rows.map((r) => {
          // The projected row keeps a leg's list id, so an ended leg shows it after the engine forgot the order.
          const v = rowToOrderView(r);
          return queriedOrder(toEntrust(v, s), s, v.orderListId !== undefined ? idNumber(v.orderListId) : -1);
        });
      },
    );

    // ------------------------------------------------------------------ account and fills

    app.get(
      '/api/v3/account',
      { config: userData(20), schema: { querystring: signedParams({ omitZeroBalances: Type.Optional(BoolParam) }), response: answers(SpotAccountResponse) } },
      async (req) => {
        const p = paramsOf(req);
        const caller = callerOf(req);
        const markets = engine.markets();
        // Our fees are per market; the account's rate is the highest of them (every market has the same by default).
        const maker = Math.max(0, ...markets.map((m) => m.makerFeePpm));
        const taker = Math.max(0, ...markets.map((m) => m.takerFeePpm));
        const balances = engine
          .assets()
          .map((a) => ({ a, b: engine.balance(caller.userId, 'SPOT', a.code) }))
          .filter(({ b }) => p.omitZeroBalances !== 'true' || b.available !== 0n || b.frozen !== 0n)
          .map(({ a, b }) => ({ asset: a.code, free: formatDecimal(b.available, a.scale), locked: formatDecimal(b.frozen, a.scale) }));
        const canTrade = caller.permissions.includes('spotTrade');
        return {
          makerCommission: Math.round(maker / 100),
          takerCommission: Math.round(taker / 100),
          buyerCommission: 0,
          sellerCommission: 0,
          commissionRates: { maker: commissionRate(maker), taker: commissionRate(taker), buyer: commissionRate(0), seller: commissionRate(0) },
          canTrade,
          canWithdraw: caller.permissions.includes('withdraw'),
          canDeposit: true,
          brokered: false,
          requireSelfTradePrevention: false,
          preventSor: false,
          updateTime: clock.now(),
          accountType: 'SPOT',
          balances,
          permissions: ['SPOT'],
          uid: /^[0-9]{1,15}$/.test(caller.userId) ? Number(caller.userId) : 0,
        };
      },
    );

    app.get(
      '/api/v3/myTrades',
      {
        config: userData(20),
        schema: {
          querystring: signedParams({ ...historyParams, orderId: Type.Optional(IntParam), fromId: Type.Optional(IntParam) }),
          response: answers(MyTradesResponse),
        },
      },
      async (req) => {
        const p = paramsOf(req);
        const m = spotMarketOrThrow(host, p.symbol);
        const q = historyOf(p);
        const orderId = idParam(p.orderId);
        const fromId = idParam(p.fromId);
        if (orderId !== undefined) notBoth(p.orderId, p.startTime ?? p.endTime, ['orderId', 'startTime']);
        if (fromId !== undefined) notBoth(p.fromId, p.startTime ?? p.endTime, ['fromId', 'startTime']);
        const userId = userOf(req);
        await projectionCaughtUp(host);
        const rows = await repo.userTrades(userId, m.symbol, {
          ...(fromId !== undefined ? { fromId, limit: q.limit } : q),
          ...(orderId !== undefined ? { orderId } : {}),
        });
        const s = scalesOf(m);
        const out = [];
        for (const t of rows) {
          for (const role of ['TAKER', 'MAKER'] as const) {
            const mine = role === 'TAKER' ? t.takerUserId === userId : t.makerUserId === userId;
            const oid = (role === 'TAKER' ? t.takerOrderId : t.makerOrderId).toString();
            if (!mine || (orderId !== undefined && oid !== orderId)) continue;
            const feeAsset = role === 'TAKER' ? t.takerFeeAsset : t.makerFeeAsset;
            out.push({
              symbol: toBinanceSymbol(t.symbol),
              id: Number(t.id),
              orderId: idNumber(oid),
              orderListId: -1,
              price: formatDecimal(BigInt(t.price), m.priceDecimals),
              qty: formatDecimal(BigInt(t.quantity), m.qtyDecimals),
              quoteQty: formatDecimal(BigInt(t.quoteAmount), s.quoteScale),
              commission: formatDecimal(BigInt(role === 'TAKER' ? t.takerFee : t.makerFee), s.scaleOf(feeAsset)),
              commissionAsset: feeAsset,
              time: t.ts,
              isBuyer: role === 'TAKER' ? t.takerSide === 'BUY' : t.takerSide === 'SELL',
              isMaker: role === 'MAKER',
              isBestMatch: true,
            });
          }
        }
        return out;
      },
    );

    // ------------------------------------------------------------------ margin: none here (CCXT's loadMarkets asks)

    // CCXT's fetchMarkets and fetchCurrencies read the margin pairs when keys are set (option fetchMargins): we have
    // no margin trading, so both lists are empty.
    app.get(
      '/sapi/v1/margin/allPairs',
      {
        config: { binance: { weight: 1, security: 'MARKET_DATA' } },
        schema: { querystring: params({ symbol: Type.Optional(SymbolParam) }), response: answers(EmptyListResponse) },
      },
      async () => [],
    );
    app.get(
      '/sapi/v1/margin/isolated/allPairs',
      { config: userData(10), schema: { querystring: signedParams({ symbol: Type.Optional(SymbolParam) }), response: answers(EmptyListResponse) } },
      async () => [],
    );

    // ------------------------------------------------------------------ wallet: CCXT's fetchCurrencies

    app.get(
      '/sapi/v1/capital/config/getall',
      { config: userData(10), schema: { querystring: signedParams({}), response: answers(CoinConfigResponse) } },
      async (req) => {
        const userId = userOf(req);
        const assets = engine.assets();
        const scale = new Map(assets.map((a) => [a.code, a.scale]));
        return chain.catalogue.coins(assets.map((a) => a.code)).map((c) => {
          const sc = scale.get(c.coin) ?? 8;
          const b = engine.balance(userId, 'SPOT', c.coin);
          const zero = formatDecimal(0n, sc);
          return {
            coin: c.coin,
            name: c.name,
            depositAllEnable: c.chains.some((x) => x.depositEnabled),
            withdrawAllEnable: c.chains.some((x) => x.withdrawEnabled),
            free: formatDecimal(b.available, sc),
            locked: formatDecimal(b.frozen, sc),
            freeze: zero,
            withdrawing: zero,
            ipoing: zero,
            ipoable: zero,
            storage: zero,
            isLegalMoney: false,
            trading: engine.markets().some((m) => m.base === c.coin || m.quote === c.coin),
            networkList: c.chains.map((x, i) => ({
              network: x.chain,
              coin: c.coin,
              withdrawIntegerMultiple: formatDecimal(1n, x.withdrawDecimals),
              isDefault: i === 0,
              depositEnable: x.depositEnabled,
              withdrawEnable: x.withdrawEnabled,
              depositDesc: x.available ? '' : 'Not available in this deployment',
              withdrawDesc: x.available ? '' : 'Not available in this deployment',
              specialTips: '',
              name: x.chainName,
              resetAddressStatus: false,
              addressRegex: x.chain === 'ETH' ? '^(0x)[0-9A-Fa-f]{40}$' : '',
              memoRegex: '',
              withdrawFee: x.withdrawFee,
              withdrawMin: x.minWithdraw,
              withdrawMax: x.maxWithdraw,
              depositDust: x.minDeposit,
              minConfirm: x.confirmations,
              unLockConfirm: 0,
              sameAddress: false,
              contractAddress: x.contract,
              busy: false,
            })),
          };
        });
      },
    );
  };
}
