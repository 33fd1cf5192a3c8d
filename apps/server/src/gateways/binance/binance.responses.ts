/**
 * The answers of the Binance-compatible API as TypeBox schemas: each route declares its 200 answer
 * (`schema.response`), so the OpenAPI document (/docs) shows every field a bot receives, with Binance's names and
 * types (decimals as strings, ids and times as numbers), as Binance documents them
 * (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints).
 *
 * The schemas document and check; they never rewrite an answer: the Binance scope serializes with JSON.stringify
 * (Fastify's serializer built from a schema would drop or coerce a field the schema missed), and in the test
 * environment (NODE_ENV=test) every answer is checked against its route's schema before it is sent, so each API test
 * of the scope also proves the schemas true (a mismatch fails the request with -1000 and names the field).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { FastifyInstance } from 'fastify';
import { SignedDecimalString } from '@exchange/api';

/** A decimal string as Binance writes it ("0.00150000", "-1.25", "12"): the app's signed decimal string. */
export const Decimal = SignedDecimalString;
/** A Binance symbol: "BTCUSDT". */
export const BinanceSymbol = Type.String({ pattern: '^[A-Z0-9]{2,20}$' });
/** Unix time in milliseconds. */
export const TimeMs = Type.Integer({ minimum: 0, description: 'Unix ms' });
/** An object schema that allows no other property (a field the handler adds without documenting it fails the check). */
const Obj = <T extends Parameters<typeof Type.Object>[0]>(props: T) => Type.Object(props, { additionalProperties: false });
/** One answer or a list: routes taking `symbol` answer an object, with `symbols` or neither a list. */
const OneOrList = <T extends TSchema>(t: T) => Type.Union([t, Type.Array(t)]);

/** GET /api/v3/ping. */
export const PingResponse = Obj({});
/** GET /api/v3/time. */
export const TimeResponse = Obj({ serverTime: TimeMs });
/** GET /sapi/v1/system/status: 0 "normal" or 1 "system maintenance". */
export const SystemStatusResponse = Obj({
  status: Type.Union([Type.Literal(0), Type.Literal(1)]),
  msg: Type.Union([Type.Literal('normal'), Type.Literal('system maintenance')]),
});

/** An entry of exchangeInfo's `rateLimits`. */
export const RateLimit = Obj({
  rateLimitType: Type.Union([Type.Literal('REQUEST_WEIGHT'), Type.Literal('ORDERS'), Type.Literal('RAW_REQUESTS')]),
  interval: Type.Union([Type.Literal('SECOND'), Type.Literal('MINUTE'), Type.Literal('DAY')]),
  intervalNum: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1 }),
});

/** A symbol filter of exchangeInfo (the six this exchange applies). */
export const SpotFilter = Type.Union([
  Obj({ filterType: Type.Literal('PRICE_FILTER'), minPrice: Decimal, maxPrice: Decimal, tickSize: Decimal }),
  Obj({ filterType: Type.Literal('LOT_SIZE'), minQty: Decimal, maxQty: Decimal, stepSize: Decimal }),
  Obj({ filterType: Type.Literal('MARKET_LOT_SIZE'), minQty: Decimal, maxQty: Decimal, stepSize: Decimal }),
  Obj({
    filterType: Type.Literal('NOTIONAL'),
    minNotional: Decimal,
    applyMinToMarket: Type.Boolean(),
    maxNotional: Decimal,
    applyMaxToMarket: Type.Boolean(),
    avgPriceMins: Type.Integer(),
  }),
  Obj({ filterType: Type.Literal('MAX_NUM_ORDERS'), maxNumOrders: Type.Integer({ minimum: 1 }) }),
  // The trailingDelta range of conditional orders, in basis points (Binance's TRAILING_DELTA filter).
  Obj({
    filterType: Type.Literal('TRAILING_DELTA'),
    minTrailingAboveDelta: Type.Integer(),
    maxTrailingAboveDelta: Type.Integer(),
    minTrailingBelowDelta: Type.Integer(),
    maxTrailingBelowDelta: Type.Integer(),
  }),
]);

/** A symbol of GET /api/v3/exchangeInfo. */
export const SpotSymbolInfo = Obj({
  symbol: BinanceSymbol,
  status: Type.Union([Type.Literal('TRADING'), Type.Literal('HALT'), Type.Literal('BREAK')]),
  baseAsset: Type.String(),
  baseAssetPrecision: Type.Integer(),
  quoteAsset: Type.String(),
  quotePrecision: Type.Integer(),
  quoteAssetPrecision: Type.Integer(),
  baseCommissionPrecision: Type.Integer(),
  quoteCommissionPrecision: Type.Integer(),
  orderTypes: Type.Array(Type.String()),
  icebergAllowed: Type.Boolean(),
  ocoAllowed: Type.Boolean(),
  otoAllowed: Type.Boolean(),
  opoAllowed: Type.Boolean(),
  quoteOrderQtyMarketAllowed: Type.Boolean(),
  allowTrailingStop: Type.Boolean(),
  cancelReplaceAllowed: Type.Boolean(),
  amendAllowed: Type.Boolean(),
  pegInstructionsAllowed: Type.Boolean(),
  isSpotTradingAllowed: Type.Boolean(),
  isMarginTradingAllowed: Type.Boolean(),
  filters: Type.Array(SpotFilter),
  permissions: Type.Array(Type.String()),
  permissionSets: Type.Array(Type.Array(Type.String())),
  defaultSelfTradePreventionMode: Type.String(),
  allowedSelfTradePreventionModes: Type.Array(Type.String()),
});

/** GET /api/v3/exchangeInfo. */
export const SpotExchangeInfoResponse = Obj({
  timezone: Type.Literal('UTC'),
  serverTime: TimeMs,
  rateLimits: Type.Array(RateLimit),
  exchangeFilters: Type.Array(Type.Unknown()),
  symbols: Type.Array(SpotSymbolInfo),
});

/** A price level: [price, quantity]. */
export const Level = Type.Tuple([Decimal, Decimal]);
/** GET /api/v3/depth. */
export const DepthResponse = Obj({ lastUpdateId: Type.Integer({ minimum: 0 }), bids: Type.Array(Level), asks: Type.Array(Level) });

/** A trade of GET /api/v3/trades and /api/v3/historicalTrades. */
export const PublicTrade = Obj({
  id: Type.Integer(),
  price: Decimal,
  qty: Decimal,
  quoteQty: Decimal,
  time: TimeMs,
  isBuyerMaker: Type.Boolean(),
  isBestMatch: Type.Boolean(),
});
/** GET /api/v3/trades, /api/v3/historicalTrades. */
export const PublicTradesResponse = Type.Array(PublicTrade);

/** GET /api/v3/aggTrades: a, p, q, first and last trade id, time, buyer is maker, best match. */
export const AggTradesResponse = Type.Array(
  Obj({ a: Type.Integer(), p: Decimal, q: Decimal, f: Type.Integer(), l: Type.Integer(), T: TimeMs, m: Type.Boolean(), M: Type.Boolean() }),
);

/** GET /fapi/v1/aggTrades: Binance's futures aggregate trades (no `M` field). */
export const FuturesAggTradesResponse = Type.Array(
  Obj({ a: Type.Integer(), p: Decimal, q: Decimal, f: Type.Integer(), l: Type.Integer(), T: TimeMs, m: Type.Boolean() }),
);

/**
 * GET /api/v3/klines and /api/v3/uiKlines: rows of open time, open, high, low, close, volume, close time, quote
 * volume, number of trades, taker buy base volume, taker buy quote volume, and an ignored "0".
 */
export const KlinesResponse = Type.Array(
  Type.Tuple([TimeMs, Decimal, Decimal, Decimal, Decimal, Decimal, TimeMs, Decimal, Type.Integer({ minimum: 0 }), Decimal, Decimal, Type.String()]),
);

/** GET /api/v3/avgPrice. */
export const AvgPriceResponse = Obj({ mins: Type.Integer({ minimum: 1 }), price: Decimal, closeTime: TimeMs });

/** The fields of a MINI 24 h ticker, which the FULL one has too. */
const tickerMini = {
  symbol: BinanceSymbol,
  openPrice: Decimal,
  highPrice: Decimal,
  lowPrice: Decimal,
  lastPrice: Decimal,
  volume: Decimal,
  quoteVolume: Decimal,
  openTime: TimeMs,
  closeTime: TimeMs,
  firstId: Type.Integer({ minimum: -1 }),
  lastId: Type.Integer({ minimum: -1 }),
  count: Type.Integer({ minimum: 0 }),
};
/** GET /api/v3/ticker/24hr, type FULL (default) or MINI; an object for `symbol`, a list otherwise. */
export const Ticker24hResponse = OneOrList(
  Type.Union([
    Obj({
      ...tickerMini,
      priceChange: Decimal,
      priceChangePercent: Decimal,
      weightedAvgPrice: Decimal,
      prevClosePrice: Decimal,
      lastQty: Decimal,
      bidPrice: Decimal,
      bidQty: Decimal,
      askPrice: Decimal,
      askQty: Decimal,
    }),
    Obj(tickerMini),
  ]),
);

/** GET /api/v3/ticker/price. */
export const TickerPriceResponse = OneOrList(Obj({ symbol: BinanceSymbol, price: Decimal }));
/** GET /api/v3/ticker/bookTicker. */
export const BookTickerResponse = OneOrList(Obj({ symbol: BinanceSymbol, bidPrice: Decimal, bidQty: Decimal, askPrice: Decimal, askQty: Decimal }));

/** Binance's order sides. */
const SideEnum = Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]);
/** The fields of an order in every spot order answer (RESULT of POST /api/v3/order, cancels, queries). */
const orderCore = {
  symbol: BinanceSymbol,
  orderId: Type.Integer(),
  orderListId: Type.Integer({ minimum: -1, description: 'the OCO list id, -1 for an order outside a list' }),
  clientOrderId: Type.String(),
  price: Decimal,
  origQty: Decimal,
  executedQty: Decimal,
  cummulativeQuoteQty: Decimal,
  status: Type.String({ description: 'NEW, PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED' }),
  timeInForce: Type.String({ description: 'GTC, IOC, FOK' }),
  type: Type.String({ description: 'LIMIT, MARKET, LIMIT_MAKER, STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT, TAKE_PROFIT_LIMIT' }),
  side: SideEnum,
  origQuoteOrderQty: Decimal,
  /** Only on a trailing stop order (Binance's conditional field): basis points. */
  trailingDelta: Type.Optional(Type.Integer({ minimum: 1 })),
};
/** Binance's workingTime: when the order went on the book (Unix ms), -1 while a conditional order waits for its trigger. */
const WorkingTime = Type.Integer({ minimum: -1, description: 'Unix ms, -1 while a stop order is pending' });
/** POST /api/v3/order, newOrderRespType ACK. */
export const NewOrderAck = Obj({
  symbol: BinanceSymbol,
  orderId: Type.Integer(),
  orderListId: Type.Integer({ minimum: -1 }),
  clientOrderId: Type.String(),
  transactTime: TimeMs,
});
const resultFields = {
  ...orderCore,
  stopPrice: Type.Optional(Decimal),
  transactTime: TimeMs,
  workingTime: WorkingTime,
  selfTradePreventionMode: Type.String(),
};
/** POST /api/v3/order, newOrderRespType RESULT. */
export const NewOrderResult = Obj(resultFields);
/** POST /api/v3/order, newOrderRespType FULL: RESULT and its fills. */
export const NewOrderFull = Obj({
  ...resultFields,
  fills: Type.Array(Obj({ price: Decimal, qty: Decimal, commission: Decimal, commissionAsset: Type.String(), tradeId: Type.Integer() })),
});
/** POST /api/v3/order: ACK, RESULT or FULL as asked (FULL by default for MARKET and LIMIT orders). */
export const NewOrderResponse = Type.Union([NewOrderAck, NewOrderResult, NewOrderFull]);

/** Maker and taker rates (decimal strings, "0.00100000" for 0.1%). */
const MakerTaker = Obj({ maker: Decimal, taker: Decimal });
/** Maker, taker, buyer and seller rates. */
const FourRates = Obj({ maker: Decimal, taker: Decimal, buyer: Decimal, seller: Decimal });
/** Binance's BNB discount block (never enabled here). */
const Discount = Obj({ enabledForAccount: Type.Boolean(), enabledForSymbol: Type.Boolean(), discountAsset: Type.String(), discount: Decimal });
/** POST /api/v3/order/test: {} or, with computeCommissionRates=true, the rates the order would pay. */
export const TestOrderResponse = Type.Union([
  Obj({}),
  Obj({ standardCommissionForOrder: MakerTaker, specialCommissionForOrder: MakerTaker, taxCommissionForOrder: MakerTaker, discount: Discount }),
]);
/** GET /api/v3/account/commission. */
export const AccountCommissionResponse = Obj({
  symbol: BinanceSymbol,
  standardCommission: FourRates,
  specialCommission: FourRates,
  taxCommission: FourRates,
  discount: Discount,
});
/** GET /sapi/v1/asset/tradeFee. */
export const TradeFeeResponse = Type.Array(Obj({ symbol: BinanceSymbol, makerCommission: Decimal, takerCommission: Decimal }));

/** An order as GET /api/v3/order, openOrders and allOrders answer it. */
export const QueriedOrder = Obj({
  ...orderCore,
  stopPrice: Decimal,
  icebergQty: Decimal,
  time: TimeMs,
  updateTime: TimeMs,
  isWorking: Type.Boolean(),
  workingTime: WorkingTime,
  selfTradePreventionMode: Type.String(),
});
/** An order as DELETE /api/v3/order and DELETE /api/v3/openOrders answer it. */
export const CanceledOrder = Obj({
  ...orderCore,
  stopPrice: Type.Optional(Decimal),
  origClientOrderId: Type.String(),
  transactTime: TimeMs,
  selfTradePreventionMode: Type.String(),
});

/** One order of an order list: symbol, orderId, clientOrderId (Binance's `orders` of a list). */
const ListOrderRef = Obj({ symbol: BinanceSymbol, orderId: Type.Integer(), clientOrderId: Type.String() });
/** A failed step of POST /api/v3/order/cancelReplace, inside its error's `data`. */
const StepFailure = Obj({ code: Type.Integer({ maximum: -1 }), msg: Type.String() });
/** POST /api/v3/order/cancelReplace when both steps succeeded: the cancel's and the new order's answers. */
export const CancelReplaceResponse = Obj({
  cancelResult: Type.Literal('SUCCESS'),
  newOrderResult: Type.Literal('SUCCESS'),
  cancelResponse: CanceledOrder,
  newOrderResponse: NewOrderResponse,
});
/** Its 400 / 409 answers: Binance's error, with `data` (-2021, -2022) saying what each step did. */
export const CancelReplaceFailure = Obj({
  code: Type.Integer({ maximum: -1 }),
  msg: Type.String(),
  data: Type.Optional(
    Obj({
      cancelResult: Type.Union([Type.Literal('SUCCESS'), Type.Literal('FAILURE')]),
      newOrderResult: Type.Union([Type.Literal('SUCCESS'), Type.Literal('FAILURE'), Type.Literal('NOT_ATTEMPTED')]),
      cancelResponse: Type.Union([CanceledOrder, StepFailure]),
      newOrderResponse: Type.Union([NewOrderResponse, StepFailure, Type.Null()]),
    }),
  ),
});
/** An OCO order list as GET /api/v3/orderList, openOrderList and allOrderList answer it. */
export const OrderListStatus = Obj({
  orderListId: Type.Integer({ minimum: 0 }),
  contingencyType: Type.Literal('OCO'),
  listStatusType: Type.String({ description: 'EXEC_STARTED, ALL_DONE' }),
  listOrderStatus: Type.String({ description: 'EXECUTING, ALL_DONE' }),
  listClientOrderId: Type.String(),
  transactionTime: TimeMs,
  symbol: BinanceSymbol,
  orders: Type.Array(ListOrderRef),
});
/** POST /api/v3/orderList/oco: the list and its legs (orderReports as a RESULT order; ACK has no orderReports' details). */
export const NewOrderListResponse = Obj({
  ...OrderListStatus.properties,
  orderReports: Type.Array(Type.Union([NewOrderResult, NewOrderFull, CanceledOrder])),
});

/** GET /api/v3/account. */
export const SpotAccountResponse = Obj({
  makerCommission: Type.Integer(),
  takerCommission: Type.Integer(),
  buyerCommission: Type.Integer(),
  sellerCommission: Type.Integer(),
  commissionRates: FourRates,
  canTrade: Type.Boolean(),
  canWithdraw: Type.Boolean(),
  canDeposit: Type.Boolean(),
  brokered: Type.Boolean(),
  requireSelfTradePrevention: Type.Boolean(),
  preventSor: Type.Boolean(),
  updateTime: TimeMs,
  accountType: Type.Literal('SPOT'),
  balances: Type.Array(Obj({ asset: Type.String(), free: Decimal, locked: Decimal })),
  permissions: Type.Array(Type.String()),
  uid: Type.Integer({ minimum: 0 }),
});

/** GET /api/v3/myTrades: the caller's fills, one row per side the caller took. */
export const MyTradesResponse = Type.Array(
  Obj({
    symbol: BinanceSymbol,
    id: Type.Integer(),
    orderId: Type.Integer(),
    orderListId: Type.Literal(-1),
    price: Decimal,
    qty: Decimal,
    quoteQty: Decimal,
    commission: Decimal,
    commissionAsset: Type.String(),
    time: TimeMs,
    isBuyer: Type.Boolean(),
    isMaker: Type.Boolean(),
    isBestMatch: Type.Boolean(),
  }),
);

/** An always-empty list (no margin pairs here). */
export const EmptyListResponse = Type.Array(Type.Unknown(), { maxItems: 0 });
/** POST /api/v3/userDataStream and POST (or PUT) /fapi/v1/listenKey. */
export const ListenKeyResponse = Obj({ listenKey: Type.String() });
/** An empty object: a keepalive or close of a listenKey. */
export const EmptyResponse = Obj({});

/** A symbol filter of the futures exchangeInfo (the seven this exchange lists). */
export const FuturesFilter = Type.Union([
  Obj({ filterType: Type.Literal('PRICE_FILTER'), minPrice: Decimal, maxPrice: Decimal, tickSize: Decimal }),
  Obj({ filterType: Type.Literal('LOT_SIZE'), minQty: Decimal, maxQty: Decimal, stepSize: Decimal }),
  Obj({ filterType: Type.Literal('MARKET_LOT_SIZE'), minQty: Decimal, maxQty: Decimal, stepSize: Decimal }),
  Obj({ filterType: Type.Literal('MAX_NUM_ORDERS'), limit: Type.Integer() }),
  Obj({ filterType: Type.Literal('MAX_NUM_ALGO_ORDERS'), limit: Type.Integer() }),
  Obj({ filterType: Type.Literal('MIN_NOTIONAL'), notional: Decimal }),
  Obj({ filterType: Type.Literal('PERCENT_PRICE'), multiplierUp: Decimal, multiplierDown: Decimal, multiplierDecimal: Type.String() }),
]);

/** A symbol of GET /fapi/v1/exchangeInfo (USDT perpetuals). */
export const FuturesSymbolInfo = Obj({
  symbol: BinanceSymbol,
  pair: BinanceSymbol,
  contractType: Type.Literal('PERPETUAL'),
  deliveryDate: Type.Integer(),
  onboardDate: TimeMs,
  status: Type.Union([Type.Literal('TRADING'), Type.Literal('PAUSED')]),
  maintMarginPercent: Decimal,
  requiredMarginPercent: Decimal,
  baseAsset: Type.String(),
  quoteAsset: Type.String(),
  marginAsset: Type.String(),
  pricePrecision: Type.Integer(),
  quantityPrecision: Type.Integer(),
  baseAssetPrecision: Type.Integer(),
  quotePrecision: Type.Integer(),
  underlyingType: Type.String(),
  underlyingSubType: Type.Array(Type.String()),
  settlePlan: Type.Integer(),
  triggerProtect: Decimal,
  liquidationFee: Decimal,
  marketTakeBound: Decimal,
  maxMoveOrderLimit: Type.Integer(),
  filters: Type.Array(FuturesFilter),
  orderTypes: Type.Array(Type.String()),
  timeInForce: Type.Array(Type.String()),
});

/** GET /fapi/v1/exchangeInfo. */
export const FuturesExchangeInfoResponse = Obj({
  timezone: Type.Literal('UTC'),
  serverTime: TimeMs,
  futuresType: Type.Literal('U_MARGINED'),
  rateLimits: Type.Array(RateLimit),
  exchangeFilters: Type.Array(Type.Unknown()),
  assets: Type.Array(Obj({ asset: Type.String(), marginAvailable: Type.Boolean(), autoAssetExchange: Decimal })),
  symbols: Type.Array(FuturesSymbolInfo),
});
/** GET /dapi/v1/exchangeInfo: no coin-margined markets here. */
export const CoinMarginedExchangeInfoResponse = Obj({
  timezone: Type.Literal('UTC'),
  serverTime: TimeMs,
  rateLimits: Type.Array(RateLimit),
  exchangeFilters: Type.Array(Type.Unknown()),
  symbols: Type.Array(Type.Unknown(), { maxItems: 0 }),
});

/** GET /fapi/v1/depth: with the event and transaction times. */
export const FuturesDepthResponse = Obj({ lastUpdateId: Type.Integer({ minimum: 0 }), E: TimeMs, T: TimeMs, bids: Type.Array(Level), asks: Type.Array(Level) });
/** GET /fapi/v1/trades. */
export const FuturesTradesResponse = Type.Array(
  Obj({ id: Type.Integer(), price: Decimal, qty: Decimal, quoteQty: Decimal, time: TimeMs, isBuyerMaker: Type.Boolean() }),
);
/** GET /fapi/v1/constituents: the sources of the last index tick that entered the average, with their weights. */
export const ConstituentsResponse = Obj({
  symbol: BinanceSymbol,
  time: TimeMs,
  constituents: Type.Array(Obj({ exchange: Type.String(), symbol: Type.String(), price: Decimal, weight: Decimal })),
});
/** GET /fapi/v1/premiumIndex: mark and index price, funding. */
export const PremiumIndexResponse = OneOrList(
  Obj({
    symbol: BinanceSymbol,
    markPrice: Decimal,
    indexPrice: Decimal,
    estimatedSettlePrice: Decimal,
    lastFundingRate: Decimal,
    interestRate: Decimal,
    nextFundingTime: TimeMs,
    time: TimeMs,
    /** ours, only while the contract is paused on a stale index: true, with the reason and the pause's start */
    indexStale: Type.Optional(Type.Boolean()),
    pauseReason: Type.Optional(Type.String()),
    pausedSince: Type.Optional(TimeMs),
  }),
);
/** GET /fapi/v1/fundingRate: past funding, oldest first. */
export const FundingRateResponse = Type.Array(Obj({ symbol: BinanceSymbol, fundingRate: Decimal, fundingTime: TimeMs, markPrice: Decimal }));
/** GET /fapi/v1/ticker/24hr. */
export const FuturesTicker24hResponse = OneOrList(
  Obj({
    symbol: BinanceSymbol,
    priceChange: Decimal,
    priceChangePercent: Decimal,
    weightedAvgPrice: Decimal,
    lastPrice: Decimal,
    lastQty: Decimal,
    openPrice: Decimal,
    highPrice: Decimal,
    lowPrice: Decimal,
    volume: Decimal,
    quoteVolume: Decimal,
    openTime: TimeMs,
    closeTime: TimeMs,
    firstId: Type.Integer({ minimum: -1 }),
    lastId: Type.Integer({ minimum: -1 }),
    count: Type.Integer({ minimum: 0 }),
  }),
);
/** GET /fapi/v1/ticker/price and /fapi/v2/ticker/price. */
export const FuturesTickerPriceResponse = OneOrList(Obj({ symbol: BinanceSymbol, price: Decimal, time: TimeMs }));
/** GET /fapi/v1/ticker/bookTicker. */
export const FuturesBookTickerResponse = OneOrList(
  Obj({
    symbol: BinanceSymbol,
    bidPrice: Decimal,
    bidQty: Decimal,
    askPrice: Decimal,
    askQty: Decimal,
    time: TimeMs,
    lastUpdateId: Type.Integer({ minimum: 0 }),
  }),
);

/** The fields of a futures order answer (POST, GET and DELETE /fapi/v1/order, openOrders, allOrders). */
const futuresOrderFields = {
  orderId: Type.Integer({ minimum: 0 }),
  symbol: BinanceSymbol,
  status: Type.String({ description: 'NEW, PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED' }),
  clientOrderId: Type.String(),
  price: Decimal,
  avgPrice: Decimal,
  origQty: Decimal,
  executedQty: Decimal,
  cumQty: Decimal,
  cumQuote: Decimal,
  timeInForce: Type.String(),
  type: Type.String({ description: 'LIMIT, MARKET, STOP, TAKE_PROFIT, STOP_MARKET, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET' }),
  reduceOnly: Type.Boolean(),
  closePosition: Type.Boolean(),
  side: SideEnum,
  stopPrice: Decimal,
  origType: Type.String(),
  positionSide: Type.Literal('BOTH'),
  workingType: Type.String(),
  priceProtect: Type.Boolean(),
  priceMatch: Type.String(),
  selfTradePreventionMode: Type.String(),
  goodTillDate: Type.Integer(),
  /** TRAILING_STOP_MARKET only: the activation price ("0" without one) and the callback rate in percent */
  activatePrice: Type.Optional(Decimal),
  priceRate: Type.Optional(Decimal),
  time: Type.Optional(TimeMs),
  updateTime: TimeMs,
};
/** A futures order (queries carry `time`, the answers of POST and DELETE do not). */
export const FuturesOrder = Obj(futuresOrderFields);
/** One entry of a futures batch that failed, answered in place (Binance's error shape). */
const BatchFailure = Obj({ code: Type.Integer({ maximum: -1 }), msg: Type.String() });
/** POST /fapi/v1/batchOrders: each order as POST /fapi/v1/order answers it, or its error, in the order sent. */
export const FuturesBatchOrdersResponse = Type.Array(Type.Union([FuturesOrder, BatchFailure]));
/** DELETE /fapi/v1/batchOrders: each cancelled order, or its error (-2011), in the order sent. */
export const FuturesBatchCancelResponse = Type.Array(Type.Union([FuturesOrder, BatchFailure]));
/** Binance's `{ code: 200, msg }` success of the futures settings and cancel-all routes. */
export const CodeMsgResponse = Obj({ code: Type.Literal(200), msg: Type.String() });

/** GET /fapi/v1/userTrades: the caller's fills, one row per side the caller took. */
export const FuturesUserTradesResponse = Type.Array(
  Obj({
    buyer: Type.Boolean(),
    commission: Decimal,
    commissionAsset: Type.String(),
    id: Type.Integer(),
    maker: Type.Boolean(),
    orderId: Type.Integer({ minimum: 0 }),
    price: Decimal,
    qty: Decimal,
    quoteQty: Decimal,
    realizedPnl: Decimal,
    side: SideEnum,
    positionSide: Type.Literal('BOTH'),
    symbol: BinanceSymbol,
    time: TimeMs,
  }),
);
/** GET /fapi/v1/income: realized PnL, commissions and funding, oldest first. */
export const IncomeResponse = Type.Array(
  Obj({
    symbol: BinanceSymbol,
    incomeType: Type.Union([Type.Literal('REALIZED_PNL'), Type.Literal('FUNDING_FEE'), Type.Literal('COMMISSION')]),
    income: Decimal,
    asset: Type.String(),
    info: Type.String(),
    time: TimeMs,
    tranId: Type.Integer(),
    tradeId: Type.String(),
  }),
);
/** POST /fapi/v1/leverage. */
export const LeverageResponse = Obj({ leverage: Type.Integer({ minimum: 1 }), maxNotionalValue: Decimal, symbol: BinanceSymbol });
/** GET /fapi/v1/positionSide/dual: one-way mode only. */
export const DualSideResponse = Obj({ dualSidePosition: Type.Literal(false) });
/** GET /fapi/v1/symbolConfig: the caller's margin type and leverage per market (Binance "Symbol Configuration"). */
export const SymbolConfigResponse = Type.Array(
  Obj({
    symbol: BinanceSymbol,
    marginType: Type.Union([Type.Literal('CROSSED'), Type.Literal('ISOLATED')]),
    isAutoAddMargin: Type.Boolean(),
    leverage: Type.Integer({ minimum: 1 }),
    maxNotionalValue: Decimal,
  }),
);
/** GET /fapi/v1/accountConfig: the account's trading configuration (Binance "Futures Account Configuration"). */
export const AccountConfigResponse = Obj({
  feeTier: Type.Integer({ minimum: 0 }),
  canTrade: Type.Boolean(),
  canDeposit: Type.Boolean(),
  canWithdraw: Type.Boolean(),
  dualSidePosition: Type.Boolean(),
  updateTime: TimeMs,
  multiAssetsMargin: Type.Boolean(),
  tradeGroupId: Type.Integer(),
});
/** GET /fapi/v1/openInterest: a market's open interest in base-asset quantity (Binance "Open Interest"). */
export const OpenInterestResponse = Obj({ openInterest: Decimal, symbol: BinanceSymbol, time: TimeMs });
/** GET /futures/data/openInterestHist: a market's sampled open interest (base quantity) and its value (quote), ascending (Binance "Open Interest Statistics"). */
export const OpenInterestHistResponse = Type.Array(Obj({ symbol: BinanceSymbol, sumOpenInterest: Decimal, sumOpenInterestValue: Decimal, timestamp: TimeMs }));
/** GET /fapi/v1/multiAssetsMargin: single-asset margin only. */
export const MultiAssetsMarginResponse = Obj({ multiAssetsMargin: Type.Literal(false) });
/** GET /fapi/v1/fundingInfo: each market's funding rate cap and floor (fractions) and interval (Binance "Get Funding Rate Info"). */
export const FundingInfoResponse = Type.Array(
  Obj({
    symbol: BinanceSymbol,
    adjustedFundingRateCap: Decimal,
    adjustedFundingRateFloor: Decimal,
    fundingIntervalHours: Type.Integer({ minimum: 1 }),
    disclaimer: Type.Boolean(),
  }),
);
/** GET /fapi/v1/leverageBracket: the notional brackets of each market (numbers, as Binance writes them). */
export const LeverageBracketResponse = Type.Array(
  Obj({
    symbol: BinanceSymbol,
    notionalCoef: Type.Number(),
    brackets: Type.Array(
      Obj({
        bracket: Type.Integer({ minimum: 1 }),
        initialLeverage: Type.Integer({ minimum: 1 }),
        notionalCap: Type.Number(),
        notionalFloor: Type.Number(),
        maintMarginRatio: Type.Number(),
        cum: Type.Number(),
      }),
    ),
  }),
);
/** GET /fapi/v1/commissionRate. */
export const FuturesCommissionResponse = Obj({ symbol: BinanceSymbol, makerCommissionRate: Decimal, takerCommissionRate: Decimal });

/** The position figures /fapi/v2/positionRisk and /fapi/v3/positionRisk share. */
const positionCommon = {
  symbol: BinanceSymbol,
  positionAmt: Decimal,
  entryPrice: Decimal,
  breakEvenPrice: Decimal,
  markPrice: Decimal,
  unRealizedProfit: Decimal,
  liquidationPrice: Decimal,
  isolatedMargin: Decimal,
  positionSide: Type.Literal('BOTH'),
  notional: Decimal,
  isolatedWallet: Decimal,
  updateTime: TimeMs,
};
/** GET /fapi/v2/positionRisk: every market, with its leverage and margin type. */
export const PositionRiskV2Response = Type.Array(
  Obj({
    ...positionCommon,
    leverage: Type.String({ pattern: '^[0-9]+$' }),
    maxNotionalValue: Decimal,
    marginType: Type.Union([Type.Literal('isolated'), Type.Literal('cross')]),
    isAutoAddMargin: Type.String(),
  }),
);
/** GET /fapi/v3/positionRisk: the markets with a position, with their margins. */
export const PositionRiskV3Response = Type.Array(
  Obj({
    ...positionCommon,
    marginAsset: Type.String(),
    initialMargin: Decimal,
    maintMargin: Decimal,
    positionInitialMargin: Decimal,
    openOrderInitialMargin: Decimal,
    adl: Type.Integer(),
    bidNotional: Decimal,
    askNotional: Decimal,
  }),
);
/** GET /fapi/v2/balance and /fapi/v3/balance. */
export const FuturesBalanceResponse = Type.Array(
  Obj({
    accountAlias: Type.String(),
    asset: Type.String(),
    balance: Decimal,
    crossWalletBalance: Decimal,
    crossUnPnl: Decimal,
    availableBalance: Decimal,
    maxWithdrawAmount: Decimal,
    marginAvailable: Type.Boolean(),
    updateTime: TimeMs,
  }),
);
/** An asset of /fapi/v2|v3/account. */
const FuturesAccountAsset = Obj({
  asset: Type.String(),
  walletBalance: Decimal,
  unrealizedProfit: Decimal,
  marginBalance: Decimal,
  maintMargin: Decimal,
  initialMargin: Decimal,
  positionInitialMargin: Decimal,
  openOrderInitialMargin: Decimal,
  crossWalletBalance: Decimal,
  crossUnPnl: Decimal,
  availableBalance: Decimal,
  maxWithdrawAmount: Decimal,
  marginAvailable: Type.Boolean(),
  updateTime: TimeMs,
});
const accountPosition = {
  symbol: BinanceSymbol,
  positionSide: Type.Literal('BOTH'),
  positionAmt: Decimal,
  unrealizedProfit: Decimal,
  isolatedMargin: Decimal,
  notional: Decimal,
  isolatedWallet: Decimal,
  initialMargin: Decimal,
  maintMargin: Decimal,
  updateTime: TimeMs,
};
const accountTotals = {
  totalInitialMargin: Decimal,
  totalMaintMargin: Decimal,
  totalWalletBalance: Decimal,
  totalUnrealizedProfit: Decimal,
  totalMarginBalance: Decimal,
  totalPositionInitialMargin: Decimal,
  totalOpenOrderInitialMargin: Decimal,
  totalCrossWalletBalance: Decimal,
  totalCrossUnPnl: Decimal,
  availableBalance: Decimal,
  maxWithdrawAmount: Decimal,
};
/** GET /fapi/v2/account: the totals, the USDT asset and every market's position entry with its settings. */
export const FuturesAccountV2Response = Obj({
  feeTier: Type.Integer(),
  feeBurn: Type.Boolean(),
  canTrade: Type.Boolean(),
  canDeposit: Type.Boolean(),
  canWithdraw: Type.Boolean(),
  updateTime: Type.Integer(),
  multiAssetsMargin: Type.Boolean(),
  tradeGroupId: Type.Integer(),
  ...accountTotals,
  assets: Type.Array(FuturesAccountAsset),
  positions: Type.Array(
    Obj({
      ...accountPosition,
      positionInitialMargin: Decimal,
      openOrderInitialMargin: Decimal,
      leverage: Type.String({ pattern: '^[0-9]+$' }),
      isolated: Type.Boolean(),
      entryPrice: Decimal,
      breakEvenPrice: Decimal,
      maxNotional: Decimal,
      bidNotional: Decimal,
      askNotional: Decimal,
    }),
  ),
});
/** GET /fapi/v3/account: the totals, the USDT asset and the positions held. */
export const FuturesAccountV3Response = Obj({ ...accountTotals, assets: Type.Array(FuturesAccountAsset), positions: Type.Array(Obj(accountPosition)) });

/** GET /sapi/v1/capital/config/getall (CCXT's fetchCurrencies): each coin, the caller's spot balance and its networks. */
export const CoinConfigResponse = Type.Array(
  Obj({
    coin: Type.String(),
    name: Type.String(),
    depositAllEnable: Type.Boolean(),
    withdrawAllEnable: Type.Boolean(),
    free: Decimal,
    locked: Decimal,
    freeze: Decimal,
    withdrawing: Decimal,
    ipoing: Decimal,
    ipoable: Decimal,
    storage: Decimal,
    isLegalMoney: Type.Boolean(),
    trading: Type.Boolean(),
    networkList: Type.Array(
      Obj({
        network: Type.String(),
        coin: Type.String(),
        withdrawIntegerMultiple: Decimal,
        isDefault: Type.Boolean(),
        depositEnable: Type.Boolean(),
        withdrawEnable: Type.Boolean(),
        depositDesc: Type.String(),
        withdrawDesc: Type.String(),
        specialTips: Type.String(),
        name: Type.String(),
        resetAddressStatus: Type.Boolean(),
        addressRegex: Type.String(),
        memoRegex: Type.String(),
        withdrawFee: Type.String(),
        withdrawMin: Type.String(),
        withdrawMax: Type.String(),
        depositDust: Type.String(),
        minConfirm: Type.Integer({ minimum: 0 }),
        unLockConfirm: Type.Integer({ minimum: 0 }),
        sameAddress: Type.Boolean(),
        contractAddress: Type.String(),
        busy: Type.Boolean(),
      }),
    ),
  }),
);

/** POST /sapi/v1/asset/transfer: the transfer's id. */
export const TransferResponse = Obj({ tranId: Type.Integer({ minimum: 1 }) });
/** GET /sapi/v1/asset/transfer: the caller's transfers of one type, newest first, and their count. */
export const TransferHistoryResponse = Obj({
  total: Type.Integer({ minimum: 0 }),
  rows: Type.Array(
    Obj({
      asset: Type.String(),
      amount: Decimal,
      type: Type.String(),
      status: Type.Literal('CONFIRMED'),
      tranId: Type.Integer({ minimum: 1 }),
      timestamp: TimeMs,
    }),
  ),
});
/** GET /sapi/v1/capital/deposit/address: the caller's deposit address (no tags on our chain). */
export const DepositAddressResponse = Obj({ address: Type.String(), coin: Type.String(), tag: Type.Literal(''), url: Type.String() });
/** GET /sapi/v1/capital/deposit/hisrec: status 0 pending, 1 success, 7 wrong deposit (below the minimum), 2 rejected (orphaned). */
export const DepositHistoryResponse = Type.Array(
  Obj({
    id: Type.String(),
    amount: Decimal,
    coin: Type.String(),
    network: Type.String(),
    status: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(7)]),
    address: Type.String(),
    addressTag: Type.String(),
    txId: Type.String(),
    insertTime: TimeMs,
    completeTime: TimeMs,
    transferType: Type.Literal(0),
    confirmTimes: Type.String({ pattern: '^[0-9]+/[0-9]+$' }),
    unlockConfirm: Type.Integer({ minimum: 0 }),
    walletType: Type.Literal(1),
  }),
);
/** POST /sapi/v1/capital/withdraw/apply: the withdrawal's id. */
export const WithdrawApplyResponse = Obj({ id: Type.String({ pattern: '^[1-9][0-9]*$' }) });
/** GET /sapi/v1/capital/withdraw/history: status 1 cancelled, 2 awaiting approval, 3 rejected, 4 processing, 5 failure, 6 completed. */
export const WithdrawHistoryResponse = Type.Array(
  Obj({
    id: Type.String(),
    amount: Decimal,
    transactionFee: Decimal,
    coin: Type.String(),
    status: Type.Integer({ minimum: 1, maximum: 6 }),
    address: Type.String(),
    txId: Type.String(),
    applyTime: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' }),
    network: Type.String(),
    transferType: Type.Literal(0),
    withdrawOrderId: Type.String(),
    info: Type.String(),
    confirmNo: Type.Integer({ minimum: 0 }),
    walletType: Type.Literal(1),
    txKey: Type.String(),
    completeTime: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' })),
  }),
);

/** `schema.response` of a route answering `t` with 200. */
export const answers = (t: TSchema) => ({ 200: t });

/**
 * Serializes the scope's answers with JSON.stringify (the schemas document, they do not rewrite) and, when `check`
 * is on (the test environment), checks each 200 answer against its route's schema before it is sent: a mismatch
 * throws (the client gets -1000, the log names the route and the field).
 */
export function serveDocumentedAnswers(app: FastifyInstance, check: boolean): void {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  if (!check) return;
  const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
  app.addHook('preSerialization', async (req, reply, payload) => {
    const schema = (req.routeOptions.schema?.response as Record<string, TSchema> | undefined)?.[String(reply.statusCode)];
    if (schema === undefined) return payload;
    let c = compiled.get(schema);
    if (c === undefined) {
      c = TypeCompiler.Compile(schema);
      compiled.set(schema, c);
    }
    const first = c.Errors(payload).First();
    if (first !== undefined) throw new Error(`the answer of ${req.method} ${req.routeOptions.url} breaks its schema at ${first.path || '/'}: ${first.message}`);
    return payload;
  });
}
