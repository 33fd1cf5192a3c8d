/**
 * Wire schemas of the USDT perpetual contracts' public market data (spec sections 2 "contract list tabs,
 * pair detail with type=contract", 9 "index price, 1000 USDT per lot"): markets with last, mark and index prices,
 * 24 h change and volume, funding (predicted rate, next funding time, settled history), depth, recent trades and
 * k-lines of the trades or of the mark price. Public (no login). The private screens are in contract.ts.
 *
 * Routes: GET under `/api/contract/market/...` (CONTRACT_MARKET_PATHS), envelope. A perpetual market has its own
 * namespace: "BTC/USDT" here is the perpetual contract, never the spot pair of that name. Prices are decimal strings
 * at the market's priceDecimals, quantities in the base coin at qtyDecimals, amounts in USDT; a price that does not
 * exist yet (no trade, no mark tick) is ''. Rates are percent strings: fees and maintenance margin rates "0.02" =
 * 0.02% (fees with 4 decimals, "0.0200"); funding rates with 6 decimals, exact (the engine counts them in units of 1e-8): "0.010000" = 0.01%, signed.
 * Times are Unix ms.
 *
 * WebSocket (public, same socket as spot): `{ op: 'subscribe' | 'unsubscribe', channel, pairsName }` with channel one
 * of CONTRACT_WS_CHANNELS (a prefix of their own, so spot and contract topics never mix); pushes are
 * ContractMarketWsMessage: contractTicker (the ContractMarket row, at most twice a second), contractDepth (the top
 * 20 levels per side as a snapshot after each change, coalesced), contractTrades (new trades, newest first) and
 * contractMark (each mark price tick, once a second).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString, DepthRow, Kline, KlinePeriod, OrderSide, PairsName } from './schemas';
import { ContractBracket } from './contract';

/** Query naming a perpetual market: ContractSymbolQuery of contract.ts ({ symbol }). */
export { ContractSymbolQuery } from './contract';

/** Paths of the contract market data, relative to `/api/`. */
export const CONTRACT_MARKET_PATHS = {
  getMarkets: 'contract/market/getMarkets',
  getMarket: 'contract/market/getMarket',
  getDepth: 'contract/market/getDepth',
  getTrades: 'contract/market/getTrades',
  getKlines: 'contract/market/getKlines',
  getFundingHistory: 'contract/market/getFundingHistory',
  getIndexComponents: 'contract/market/getIndexComponents',
  /** test-only control (demo/test mode, loopback only): POST {symbol, price} */
  demoSetReferencePrice: 'demo/contract/setReferencePrice',
  demoSilenceIndexSources: 'demo/contract/silenceIndexSources',
} as const;
export type ContractMarketPath = (typeof CONTRACT_MARKET_PATHS)[keyof typeof CONTRACT_MARKET_PATHS];

/** A perpetual market with its prices now (getMarkets, getMarket, WS contractTicker). */
export const ContractMarket = Type.Object({
  symbol: Type.String(), // "BTC/USDT"
  base: Type.String(),
  quote: Type.String(), // settle asset, "USDT"
  status: Type.String(), // TRADING | HALTED
  priceDecimals: Type.Integer(),
  qtyDecimals: Type.Integer(),
  tickSize: Type.String(),
  stepSize: Type.String(),
  minQty: Type.String(),
  /** face value of one lot, USDT ("1000.00000000") */
  lotNotional: Type.String(),
  makerFeeRate: Type.String(), // percent, "0.0200" (as contract.ts ContractSettings)
  takerFeeRate: Type.String(), // percent, "0.0500"
  /** a limit price further than this from the mark price is refused, percent ("50.0000") */
  priceBandRate: Type.String(),
  /** the first bracket's leverage */
  maxLeverage: Type.Integer(),
  /** contract.ts ContractBracket: notionalFloor, notionalCap (USDT), maxLeverage, maintMarginRate (percent) */
  brackets: Type.Array(ContractBracket),
  /** last trade price, '' before the first trade */
  lastPrice: Type.String(),
  /** mark price, '' before the first tick */
  markPrice: Type.String(),
  indexPrice: Type.String(),
  /** 24 h change of the last price (the mark price before any trade), percent with 2 decimals, signed */
  change24h: Type.String(),
  high24h: Type.String(),
  low24h: Type.String(),
  /** 24 h traded quantity, base coin */
  volume24h: Type.String(),
  /** 24 h traded value, USDT */
  quoteVolume24h: Type.String(),
  /** the rate the next funding would apply if it were now (predicted), percent with 6 decimals, signed */
  fundingRate: Type.String(),
  /** the rate of the last settled funding, percent ("0.000000" before the first) */
  lastFundingRate: Type.String(),
  /** Unix ms of the next funding (00:00, 08:00, 16:00 UTC) */
  nextFundingTime: Type.Number(),
  fundingIntervalMs: Type.Number(),
  /** interest rate per funding interval and the funding rate's cap, percent */
  interestRate: Type.String(),
  fundingCap: Type.String(),
  /** the underlying's price path is a seeded model, not real history */
  demoData: Type.Boolean(),
  /**
   * True while the contract is paused: its index price is stale (fewer live sources than its minimum), so the mark
   * price holds, nothing is liquidated and only closing / reduce-only orders are accepted (error index_stale). The
   * server always sends the three pause fields; optional for older payloads.
   */
  paused: Type.Optional(Type.Boolean()),
  /** why the contract is paused: 'index_stale', or '' when it is not */
  pauseReason: Type.Optional(Type.String()),
  /** Unix ms the pause began, 0 when not paused */
  pausedSince: Type.Optional(Type.Number()),
  time: Type.Number(),
});
export type ContractMarket = Static<typeof ContractMarket>;

/** GET getDepth: the best `limit` levels per side (default 20, at most 200). */
export const ContractDepthQuery = Type.Object({ symbol: PairsName, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) });
export type ContractDepthQuery = Static<typeof ContractDepthQuery>;
/** A book snapshot: [price, quantity] rows, bids high to low, asks low to high. */
export const ContractDepth = Type.Object({ symbol: Type.String(), bids: Type.Array(DepthRow), asks: Type.Array(DepthRow), time: Type.Number() });
export type ContractDepth = Static<typeof ContractDepth>;

/** GET getTrades: the latest `limit` book trades (default 50, at most 200), newest first. */
export const ContractTradesQuery = Type.Object({ symbol: PairsName, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) });
export type ContractTradesQuery = Static<typeof ContractTradesQuery>;
/** A public trade of a perpetual book (liquidation takeovers and auto-deleveraging are not book trades). */
export const ContractTrade = Type.Object({
  id: Type.String(),
  price: Type.String(),
  /** quantity, base coin */
  amount: Type.String(),
  /** the taker's side */
  side: OrderSide,
  time: Type.Number(),
});
export type ContractTrade = Static<typeof ContractTrade>;

/** Which price a k-line follows: the trades (last, default) or the mark price. */
export const ContractKlinePrice = Type.Union([Type.Literal('last'), Type.Literal('mark')]);
export type ContractKlinePrice = Static<typeof ContractKlinePrice>;
/** GET getKlines: bars before endTime (exclusive), oldest first, at most `limit` (default 300, at most 1500). */
export const ContractKlineQuery = Type.Object({
  symbol: PairsName,
  period: KlinePeriod,
  price: Type.Optional(ContractKlinePrice),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1500 })),
  endTime: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ContractKlineQuery = Static<typeof ContractKlineQuery>;
/** Bars as spot's (mark price bars have volume "0"). */
export const ContractKline = Kline;

/** GET getFundingHistory: settled fundings, newest first, at most `limit` (default 100, at most 1000), before endTime. */
export const ContractFundingQuery = Type.Object({
  symbol: PairsName,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  endTime: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ContractFundingQuery = Static<typeof ContractFundingQuery>;
/** One settled funding of a market. */
export const ContractFunding = Type.Object({
  symbol: Type.String(),
  /** the funding time (a multiple of 8 h), Unix ms */
  fundingTime: Type.Number(),
  /** percent with 6 decimals, signed: positive, longs pay shorts */
  fundingRate: Type.String(),
  markPrice: Type.String(),
});
export type ContractFunding = Static<typeof ContractFunding>;

/**
 * One source of a contract's index price at a tick (getIndexComponents). `source`: an exchange id (binance, okx, ...)
 * with INDEX_SOURCE=live; with the replay, 'reference' (the replayed outside market), 'lastTrade' (our spot market's
 * last trade), 'mid' (our spot book's mid price) or 'pinned' (a test control's price). `price` as the source gave it
 * ('' when it gave none usable); `weight` its share of the average, a fraction with 8 decimals rounded down ("0.5",
 * "0.25"), "0" when dropped; `status` what the rule did with it (spec section 9: clamped to the median +-3%; stale:
 * too old; jump: too far from the median; invalid: not a positive price or volume).
 */
export const IndexComponent = Type.Object({
  source: Type.String(),
  price: Type.String(),
  weight: Type.String(),
  status: Type.Union([Type.Literal('used'), Type.Literal('clamped'), Type.Literal('stale'), Type.Literal('jump'), Type.Literal('invalid')]),
});
export type IndexComponent = Static<typeof IndexComponent>;

/**
 * GET getIndexComponents?symbol=: the sources of a contract's last index tick. `mode` live (outside exchanges) or
 * replay (the demo's replayed market and our own spot market); `time` the tick (Unix ms, 0 before the first);
 * `price` the index at the market's priceDecimals ('' when none); `stale` with its `reason` when too few sources were
 * left (the contract is then paused). `components` is empty when this server does not compute the index and has no
 * recorded tick (a scale-out gateway without the market jobs, on the replay).
 */
export const IndexComponents = Type.Object({
  symbol: Type.String(),
  mode: Type.Union([Type.Literal('live'), Type.Literal('replay')]),
  time: Type.Number(),
  price: Type.String(),
  stale: Type.Boolean(),
  reason: Type.Union([Type.Literal('no_sources'), Type.Literal('too_few_sources'), Type.Null()]),
  components: Type.Array(IndexComponent),
});
export type IndexComponents = Static<typeof IndexComponents>;

/** POST demo/contract/setReferencePrice (demo/test mode only): the market's reference price follows `price` from now. */
export const SetReferencePriceBody = Type.Object({ symbol: PairsName, price: DecimalString });
export type SetReferencePriceBody = Static<typeof SetReferencePriceBody>;
/** POST demo/contract/silenceIndexSources (demo mode, loopback): every index source of the contract stopped (`silent`), or back. */
export const SilenceIndexSourcesBody = Type.Object({ symbol: PairsName, silent: Type.Boolean() });
export type SilenceIndexSourcesBody = Static<typeof SilenceIndexSourcesBody>;

/** The public WebSocket channels of the contracts. */
export const CONTRACT_WS_CHANNELS = ['contractTicker', 'contractDepth', 'contractTrades', 'contractMark'] as const;
export type ContractWsChannel = (typeof CONTRACT_WS_CHANNELS)[number];

/** A mark price tick. */
export interface ContractMarkTick {
  markPrice: string;
  indexPrice: string;
  fundingRate: string;
  nextFundingTime: number;
  time: number;
  /** true while the contract is paused on a stale index (the mark price holds): see ContractMarket.paused */
  indexStale?: boolean;
}

/** Public pushes of the contracts (see the file comment). */
export type ContractMarketWsMessage =
  | { channel: 'contractTicker'; pairsName: string; data: ContractMarket }
  | { channel: 'contractDepth'; pairsName: string; data: ContractDepth }
  | { channel: 'contractTrades'; pairsName: string; data: ContractTrade[] }
  | { channel: 'contractMark'; pairsName: string; data: ContractMarkTick };
