/**
 * Our perpetual values -> Binance USDⓈ-M futures JSON shapes (see
 * https://developers.binance.com/docs/derivatives/usds-margined-futures, the response examples of each endpoint).
 * Integers only: engine values are bigint units, formatted with formatDecimal at the market's decimals; the service
 * answers' decimal strings are re-read exactly (toUnits) where a sum or a sign is needed. Binance's decimals are
 * strings, its times and ids numbers, as in its examples.
 */
import { Type } from '@sinclair/typebox';
import { formatDecimal, type PerpMarketConfig, type PerpOrderView } from '@exchange/core';
import type { ContractAccount, ContractPosition, ContractSettings } from '@exchange/api';
import type { ContractFigures } from '../../domains/market-data/contract-feed';
import { fromUnits, toUnits } from '../../platform/shared/decimal';
import { MAX_UNITS } from '../../platform/shared/order-fields';
import { toBinanceSymbol } from './binance.symbols';
import { BinanceSymbol, Decimal, TimeMs } from './binance.responses';
import { type PerpScales } from '../../platform/shared/market-scales';

/** An E8 rate (funding, interest) as Binance prints it: a fraction with 8 decimals (10000 -> "0.00010000"). */
export function e8Rate(e8: number): string {
  return formatDecimal(BigInt(e8), 8);
}

/** ppm as a fraction with 4 decimals (Binance's percent fields of exchangeInfo: 25000 -> "2.5000" is percent). */
function ppmAsPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), 4);
}

/** The order types a perpetual takes here (STOP_MARKET and TAKE_PROFIT_MARKET only with closePosition=true). */
export const FUTURES_ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'] as const;
/** Binance's time in force values we take: GTX is post-only (the engine's POST_ONLY). */
export const FUTURES_TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX'] as const;
/** Binance's MAX_NUM_ORDERS of a symbol: the engine's limit of open orders per user and market. */
const MAX_OPEN_ORDERS = 200;
/** Binance's deliveryDate of a perpetual (2100-12-25). */
const PERPETUAL_DELIVERY = 4133404800000;

/**
 * One symbol of GET /fapi/v1/exchangeInfo: Binance's fields for a USDT perpetual, with the engine's rules as
 * filters: PRICE_FILTER (tick; no min/max beyond the tick and the engine's limit), LOT_SIZE and MARKET_LOT_SIZE
 * (step, minQty), MAX_NUM_ORDERS 200, MIN_NOTIONAL 0 (we have no minimum notional), PERCENT_PRICE from the price
 * band (a limit price within ±priceBandPpm of the mark price). requiredMarginPercent is the first bracket's initial
 * margin (1 / max leverage), maintMarginPercent its maintenance rate.
 */
export function exchangeSymbol(m: PerpMarketConfig, onboardDate: number) {
  const pd = m.priceDecimals;
  const qd = m.qtyDecimals;
  const band = BigInt(m.priceBandPpm);
  const first = m.brackets[0];
  const maxPrice = MAX_UNITS - (MAX_UNITS % m.tickSize);
  const maxQty = MAX_UNITS - (MAX_UNITS % m.stepSize);
  return {
    symbol: toBinanceSymbol(m.symbol),
    pair: toBinanceSymbol(m.symbol),
    contractType: 'PERPETUAL',
    deliveryDate: PERPETUAL_DELIVERY,
    onboardDate,
    status: m.status === 'TRADING' ? 'TRADING' : 'PAUSED',
    maintMarginPercent: ppmAsPercent(first?.maintMarginPpm ?? 0),
    requiredMarginPercent: first ? formatDecimal(1_000_000n / BigInt(first.maxLeverage), 4) : '100.0000',
    baseAsset: m.base,
    quoteAsset: m.quote,
    marginAsset: m.quote,
    pricePrecision: pd,
    quantityPrecision: qd,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: [] as string[],
    settlePlan: 0,
    triggerProtect: '0.0500',
    liquidationFee: '0',
    marketTakeBound: formatDecimal(band, 6),
    maxMoveOrderLimit: 10000,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: fromUnits(m.tickSize, pd), maxPrice: fromUnits(maxPrice, pd), tickSize: fromUnits(m.tickSize, pd) },
      { filterType: 'LOT_SIZE', minQty: fromUnits(m.minQty, qd), maxQty: fromUnits(maxQty, qd), stepSize: fromUnits(m.stepSize, qd) },
      { filterType: 'MARKET_LOT_SIZE', minQty: fromUnits(m.minQty, qd), maxQty: fromUnits(maxQty, qd), stepSize: fromUnits(m.stepSize, qd) },
      { filterType: 'MAX_NUM_ORDERS', limit: MAX_OPEN_ORDERS },
      { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 2 },
      { filterType: 'MIN_NOTIONAL', notional: '0' },
      {
        filterType: 'PERCENT_PRICE',
        multiplierUp: formatDecimal(1_000_000n + band, 6).slice(0, -2),
        multiplierDown: formatDecimal(1_000_000n - band, 6).slice(0, -2),
        multiplierDecimal: '4',
      },
    ],
    orderTypes: [...FUTURES_ORDER_TYPES],
    timeInForce: [...FUTURES_TIME_IN_FORCE],
  };
}

/** The fields of every order answer that are the same here for all orders: one-way, mark-price triggers, EXPIRE_TAKER. */
const ORDER_CONSTANTS = {
  positionSide: 'BOTH',
  workingType: 'MARK_PRICE',
  priceProtect: false,
  priceMatch: 'NONE',
  selfTradePreventionMode: 'EXPIRE_TAKER',
  goodTillDate: 0,
} as const;

/** Digits kept beyond the price decimals in an average price (Binance prints avgPrice with more digits than the tick). */
const AVG_EXTRA = 3;

/** Average fill price of `quote` quote units over `qty` qty units, at priceDecimals + 3 decimals, rounded down; "0" without fills. */
export function avgPrice(quote: bigint, qty: bigint, s: PerpScales): string {
  if (qty <= 0n) return '0';
  const extra = 10n ** BigInt(AVG_EXTRA);
  return formatDecimal((quote * extra) / (qty * s.mult), s.market.priceDecimals + AVG_EXTRA);
}

/** The engine's time in force as Binance names it (POST_ONLY -> GTX). */
export function binanceTif(tif: PerpOrderView['timeInForce']): string {
  return tif === 'POST_ONLY' ? 'GTX' : tif;
}

/** Binance's order type of an order: the user's LIMIT/MARKET, or what the engine placed it for. */
function orderTypeOf(o: PerpOrderView): string {
  switch (o.trigger) {
    case 'TAKE_PROFIT':
      return 'TAKE_PROFIT_MARKET';
    case 'STOP_LOSS':
      return 'STOP_MARKET';
    case 'LIQUIDATION':
    case 'ADL':
      return 'LIQUIDATION';
    default:
      return o.orderType;
  }
}

/** The client order id Binance shows: the user's, "autoclose-<id>" for a liquidation, "adl_autoclose" for ADL, else "". */
function clientIdOf(o: PerpOrderView): string {
  if (o.clientOrderId !== null) return o.clientOrderId;
  if (o.trigger === 'LIQUIDATION') return `autoclose-${o.orderId}`;
  if (o.trigger === 'ADL') return 'adl_autoclose';
  return '';
}

/**
 * An order in Binance's shape (POST/GET/DELETE /fapi/v1/order, openOrders, allOrders): one-way positions
 * (positionSide BOTH), prices at the market's decimals, cumQuote in USDT. `time` is included for the query routes.
 */
export function binanceOrder(o: PerpOrderView, s: PerpScales, withTime: boolean) {
  const { priceDecimals: pd, qtyDecimals: qd } = s.market;
  const c = o.condition;
  const type = c ? c.type : orderTypeOf(o);
  const closing = c ? c.closePosition : o.trigger === 'TAKE_PROFIT' || o.trigger === 'STOP_LOSS';
  const trailing = c?.type === 'TRAILING_STOP_MARKET';
  return {
    orderId: Number(o.orderId),
    symbol: toBinanceSymbol(o.symbol),
    status: o.status,
    clientOrderId: clientIdOf(o),
    price: o.price === null ? '0' : fromUnits(o.price, pd),
    avgPrice: avgPrice(o.filledQuote, o.filledQty, s),
    origQty: fromUnits(o.quantity, qd),
    executedQty: fromUnits(o.filledQty, qd),
    cumQty: fromUnits(o.filledQty, qd),
    cumQuote: fromUnits(o.filledQuote, s.scale),
    // A conditional MARKET order waits as GTC at Binance (its IOC applies once triggered).
    timeInForce: c && o.orderType === 'MARKET' ? (c.closePosition ? 'GTE_GTC' : 'GTC') : binanceTif(o.timeInForce),
    type,
    reduceOnly: o.reduceOnly || (c?.closePosition ?? false),
    closePosition: closing,
    side: o.side,
    stopPrice: c?.stopPrice != null ? fromUnits(c.stopPrice, pd) : '0',
    origType: type,
    ...ORDER_CONSTANTS,
    ...(c ? { workingType: c.workingType, priceProtect: c.priceProtect } : {}),
    ...(trailing
      ? { activatePrice: c.activationPrice === null ? '0' : fromUnits(c.activationPrice, pd), priceRate: callbackRateOf(c.callbackRateBps ?? 0) }
      : {}),
    ...(withTime ? { time: o.createdTs } : {}),
    updateTime: o.updatedTs,
  };
}

/** A decimal string without trailing fractional zeros ("50000.00000000" -> "50000", "0.30" -> "0.3"), as Binance prints some fields. */
export function trimZeros(v: string): string {
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** Basis points as Binance's callbackRate percent ("30" -> "0.3", "100" -> "1"): at most two decimals, trimmed. */
export function callbackRateOf(bps: number): string {
  return trimZeros(formatDecimal(BigInt(bps), 2));
}

/** A Binance order shape of the response type of POST /fapi/v1/order. */
export type BinanceFuturesOrder = ReturnType<typeof binanceOrder>;

/**
 * The answer of POST /fapi/v1/order for a TAKE_PROFIT_MARKET / STOP_MARKET closePosition order: it is set as the
 * position's take profit or stop loss (ctx.contract.setTpSl), which has no order id of its own; `orderId` 0.
 */
export function tpSlOrder(
  symbol: string,
  side: 'BUY' | 'SELL',
  type: 'TAKE_PROFIT_MARKET' | 'STOP_MARKET',
  stopPrice: string,
  clientOrderId: string,
  ts: number,
) {
  return {
    orderId: 0,
    symbol,
    status: 'NEW',
    clientOrderId,
    price: '0',
    avgPrice: '0',
    origQty: '0',
    executedQty: '0',
    cumQty: '0',
    cumQuote: '0',
    timeInForce: 'GTE_GTC',
    type,
    reduceOnly: true,
    closePosition: true,
    side,
    stopPrice,
    origType: type,
    ...ORDER_CONSTANTS,
    updateTime: ts,
  };
}

/**
 * GET /fapi/v1/ticker/24hr of one market from the contract market's figures (the one source of every ticker):
 * change and percent (3 decimals, rounded half away from zero) from the window's open to the last price, the
 * volume-weighted average (quote volume / volume), the last trade's quantity and id.
 */
export function ticker24h(m: PerpMarketConfig, f: ContractFigures, lastTrade: { id: string; amount: string } | undefined, now: number) {
  const pd = m.priceDecimals;
  const last = f.last ?? 0n;
  const open = f.open ?? last;
  const change = last - open;
  let pct = 0n; // thousandths of a percent
  if (open > 0n) {
    const num = change * 100_000n;
    pct = (num + (num >= 0n ? open / 2n : -open / 2n)) / open;
  }
  // quoteVolume is in USDT units (1e-8), volume in qty units: average price units = quote / (volume * mult).
  const mult = 10n ** BigInt(8 - pd - m.qtyDecimals);
  const vwap = f.volume > 0n ? f.quoteVolume / (f.volume * mult) : last;
  const lastId = lastTrade ? Number(lastTrade.id) : -1;
  return {
    symbol: toBinanceSymbol(m.symbol),
    priceChange: fromUnits(change, pd),
    priceChangePercent: formatDecimal(pct, 3),
    weightedAvgPrice: fromUnits(vwap, pd),
    lastPrice: fromUnits(last, pd),
    lastQty: lastTrade?.amount ?? '0',
    openPrice: fromUnits(open, pd),
    highPrice: fromUnits(f.high ?? last, pd),
    lowPrice: fromUnits(f.low ?? last, pd),
    volume: fromUnits(f.volume, m.qtyDecimals),
    quoteVolume: fromUnits(f.quoteVolume, 8),
    openTime: now - 86_400_000,
    closeTime: now,
    firstId: -1,
    lastId,
    count: 0,
  };
}

/** A signed decimal string: `v` negated for a short position ("0" stays "0"). */
function signed(v: string, short: boolean): string {
  return short && /[1-9]/.test(v) ? `-${v}` : v;
}

/** Sum of two decimal strings of the same scale, exactly. */
function add(a: string, b: string, scale: number): string {
  return fromUnits(toUnits(a, scale) + toUnits(b, scale), scale);
}

/**
 * One entry of GET /fapi/v2/positionRisk: the position (or zeros when there is none) with the user's leverage and
 * margin mode. isolatedMargin is the isolated wallet plus the unrealized PnL (Binance), isolatedWallet the margin.
 */
export function positionRiskV2(m: PerpMarketConfig, st: ContractSettings, p: ContractPosition | undefined, scale: number, markPrice: string) {
  const zero = fromUnits(0n, scale);
  const short = p?.side === 'SHORT';
  const isolated = (p?.marginMode ?? st.marginMode) === 'ISOLATED';
  return {
    symbol: toBinanceSymbol(m.symbol),
    positionAmt: p ? signed(p.quantity, short) : fromUnits(0n, m.qtyDecimals),
    entryPrice: p ? p.avgPrice : '0.0',
    breakEvenPrice: p ? p.avgPrice : '0.0',
    markPrice: p ? p.markPrice : markPrice,
    unRealizedProfit: p ? p.unrealizedPnl : zero,
    liquidationPrice: p && p.liquidationPrice !== '' ? p.liquidationPrice : '0',
    leverage: String(p?.leverage ?? st.leverage),
    maxNotionalValue: st.maxNotional,
    marginType: isolated ? 'isolated' : 'cross',
    isolatedMargin: p && isolated ? add(p.margin, p.unrealizedPnl, scale) : zero,
    isAutoAddMargin: 'false',
    positionSide: 'BOTH',
    notional: p ? signed(p.positionValue, short) : zero,
    isolatedWallet: p && isolated ? p.margin : zero,
    updateTime: p?.updateTime ?? 0,
  };
}

/**
 * One entry of GET /fapi/v3/positionRisk (only markets with a position): v2's figures without leverage and margin
 * type, plus the margins: initialMargin = positionInitialMargin = the position's margin, maintMargin, no open-order
 * margin per position (we hold order margin per account), adl 0.
 */
export function positionRiskV3(m: PerpMarketConfig, st: ContractSettings, p: ContractPosition, scale: number) {
  const v2 = positionRiskV2(m, st, p, scale, p.markPrice);
  const zero = fromUnits(0n, scale);
  return {
    symbol: v2.symbol,
    positionSide: 'BOTH',
    positionAmt: v2.positionAmt,
    entryPrice: v2.entryPrice,
    breakEvenPrice: v2.breakEvenPrice,
    markPrice: v2.markPrice,
    unRealizedProfit: v2.unRealizedProfit,
    liquidationPrice: v2.liquidationPrice,
    isolatedMargin: v2.isolatedMargin,
    notional: v2.notional,
    marginAsset: m.quote,
    isolatedWallet: v2.isolatedWallet,
    initialMargin: p.margin,
    maintMargin: p.maintMargin,
    positionInitialMargin: p.margin,
    openOrderInitialMargin: zero,
    adl: 0,
    bidNotional: zero,
    askNotional: zero,
    updateTime: p.updateTime,
  };
}

/**
 * The USDT entry of GET /fapi/v2/balance, and of the `assets` of /fapi/v2|v3/account: wallet = available + frozen
 * of the CONTRACT account, marginBalance = wallet + unrealized PnL, initialMargin = position margins + order holds,
 * availableBalance the engine's (available + cross unrealized losses), maxWithdrawAmount the same capped at the
 * ledger's available (what a transfer out can move). `updateTime` is never 0 (CCXT skips an asset of updateTime 0).
 */
export function balanceEntry(a: ContractAccount, scale: number, now: number) {
  const initial = add(a.positionMargin, a.orderMargin, scale);
  const avail = toUnits(a.availableBalance, scale);
  const ledger = toUnits(a.available, scale);
  return {
    asset: a.coin,
    walletBalance: a.walletBalance,
    unrealizedProfit: a.unrealizedPnl,
    marginBalance: a.marginBalance,
    maintMargin: a.crossMaintMargin,
    initialMargin: initial,
    positionInitialMargin: a.positionMargin,
    openOrderInitialMargin: a.orderMargin,
    crossWalletBalance: a.crossWalletBalance,
    crossUnPnl: a.crossUnrealizedPnl,
    availableBalance: a.availableBalance,
    maxWithdrawAmount: fromUnits(avail < ledger ? avail : ledger, scale),
    marginAvailable: true,
    updateTime: now,
  };
}

/** A fill of GET /fapi/v1/userTrades, for the user's side of it (maker or taker). */
export function userTrade(
  t: {
    id: bigint;
    price: string;
    quantity: string;
    quoteAmount: string;
    takerSide: string;
    makerOrderId: bigint | null;
    takerOrderId: bigint | null;
    makerUserId: string;
    makerFee: string;
    takerFee: string;
    makerRealizedPnl: string;
    takerRealizedPnl: string;
    ts: number;
  },
  userId: string,
  s: PerpScales,
) {
  const maker = t.makerUserId === userId;
  const takerBuys = t.takerSide === 'BUY';
  const side = maker ? (takerBuys ? 'SELL' : 'BUY') : t.takerSide;
  return {
    buyer: side === 'BUY',
    commission: fromUnits(BigInt(maker ? t.makerFee : t.takerFee), s.scale),
    commissionAsset: s.market.quote,
    id: Number(t.id),
    maker,
    orderId: Number((maker ? t.makerOrderId : t.takerOrderId) ?? 0n),
    price: fromUnits(BigInt(t.price), s.market.priceDecimals),
    qty: fromUnits(BigInt(t.quantity), s.market.qtyDecimals),
    quoteQty: fromUnits(BigInt(t.quoteAmount), s.scale),
    realizedPnl: fromUnits(BigInt(maker ? t.makerRealizedPnl : t.takerRealizedPnl), s.scale),
    side,
    positionSide: 'BOTH',
    symbol: toBinanceSymbol(s.market.symbol),
    time: t.ts,
  };
}

/** Binance's income types (GET /fapi/v1/income `incomeType`); we record REALIZED_PNL, FUNDING_FEE and COMMISSION. */
export const INCOME_TYPES = [
  'TRANSFER',
  'WELCOME_BONUS',
  'REALIZED_PNL',
  'FUNDING_FEE',
  'COMMISSION',
  'INSURANCE_CLEAR',
  'REFERRAL_KICKBACK',
  'COMMISSION_REBATE',
  'API_REBATE',
  'CONTEST_REWARD',
  'CROSS_COLLATERAL_TRANSFER',
  'OPTIONS_PREMIUM_FEE',
  'OPTIONS_SETTLE_PROFIT',
  'INTERNAL_TRANSFER',
  'AUTO_EXCHANGE',
  'DELIVERED_SETTELMENT',
  'COIN_SWAP_DEPOSIT',
  'COIN_SWAP_WITHDRAW',
  'POSITION_LIMIT_INCREASE_FEE',
  'STRATEGY_UMFUTURES_TRANSFER',
  'FEE_RETURN',
  'BFUSD_REWARD',
] as const;

/** One row of GET /fapi/v1/income. `income` is signed (negative: paid), in the settlement asset. */
export interface IncomeRow {
  symbol: string;
  incomeType: 'REALIZED_PNL' | 'FUNDING_FEE' | 'COMMISSION';
  income: string;
  asset: string;
  info: string;
  time: number;
  tranId: number;
  tradeId: string;
}

/**
 * The income history of GET /fapi/v1/income (Binance "Get Income History (USER_DATA)") from the user's fills and
 * funding payments: for each side of a fill the user was on, REALIZED_PNL (that side's realized PnL) and COMMISSION
 * (minus that side's fee) when non-zero; each funding payment as FUNDING_FEE (the signed amount). Oldest first (time,
 * then tranId), at most `limit` rows, of the `types` asked for. tranId is the fill's id, or the funding's journal
 * sequence; tradeId the fill's id as a string ("" for funding). Amounts are engine integers at `scale` (the
 * settlement asset's), written as decimals.
 */
export function incomeRows(
  trades: ReadonlyArray<{
    id: bigint;
    symbol: string;
    makerUserId: string;
    takerUserId: string;
    makerFee: string;
    takerFee: string;
    makerRealizedPnl: string;
    takerRealizedPnl: string;
    ts: number;
  }>,
  funding: ReadonlyArray<{ symbol: string; amount: string; ts: number; seq: number }>,
  userId: string,
  types: ReadonlySet<string>,
  asset: string,
  scale: number,
  limit: number,
): IncomeRow[] {
  const out: IncomeRow[] = [];
  for (const t of trades) {
    const sides: Array<[string, string]> = [];
    if (t.makerUserId === userId) sides.push([t.makerRealizedPnl, t.makerFee]);
    if (t.takerUserId === userId) sides.push([t.takerRealizedPnl, t.takerFee]);
    const base = { symbol: toBinanceSymbol(t.symbol), asset, info: '', time: t.ts, tranId: Number(t.id), tradeId: String(t.id) };
    for (const [pnl, fee] of sides) {
      if (types.has('REALIZED_PNL') && BigInt(pnl) !== 0n) out.push({ ...base, incomeType: 'REALIZED_PNL', income: fromUnits(BigInt(pnl), scale) });
      if (types.has('COMMISSION') && BigInt(fee) !== 0n) out.push({ ...base, incomeType: 'COMMISSION', income: fromUnits(-BigInt(fee), scale) });
    }
  }
  if (types.has('FUNDING_FEE')) {
    for (const f of funding) {
      out.push({
        symbol: toBinanceSymbol(f.symbol),
        incomeType: 'FUNDING_FEE',
        income: fromUnits(BigInt(f.amount), scale),
        asset,
        info: 'FUNDING_FEE',
        time: f.ts,
        tranId: f.seq,
        tradeId: '',
      });
    }
  }
  return out.sort((a, b) => a.time - b.time || a.tranId - b.tranId).slice(0, limit);
}

/**
 * Binance's algoStatus of a conditional order (USDⓈ-M "New Algo Order"): NEW while pending, CANCELED when cancelled
 * pending, EXPIRED when it could not be placed at its trigger, TRIGGERED once placed while the order it became is open,
 * FINISHED when that order ended (filled, cancelled or expired).
 */
export function algoStatusOf(o: PerpOrderView): 'NEW' | 'CANCELED' | 'EXPIRED' | 'TRIGGERED' | 'FINISHED' {
  const c = o.condition;
  if (!c || c.workingTs === null) return o.status === 'CANCELED' ? 'CANCELED' : o.status === 'EXPIRED' ? 'EXPIRED' : 'NEW';
  if (c.expireReason !== null) return 'EXPIRED';
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' ? 'TRIGGERED' : 'FINISHED';
}

/**
 * A conditional order in Binance's algo-order shape (POST/GET /fapi/v1/algoOrder, openAlgoOrders, allAlgoOrders, as in
 * Binance's "New Algo Order" response example). The algoId is the engine's orderId (the order keeps it after the
 * trigger, so `actualOrderId` is the same id once triggered, "" before); prices and quantities as decimal strings.
 */
export function algoOrder(o: PerpOrderView, s: PerpScales) {
  const { priceDecimals: pd, qtyDecimals: qd } = s.market;
  const c = o.condition!;
  const trailing = c.type === 'TRAILING_STOP_MARKET';
  return {
    algoId: Number(o.orderId),
    clientAlgoId: clientIdOf(o),
    algoType: 'CONDITIONAL' as const,
    orderType: c.type,
    symbol: toBinanceSymbol(o.symbol),
    side: o.side,
    positionSide: 'BOTH' as const,
    timeInForce: o.orderType === 'MARKET' ? (c.closePosition ? 'GTE_GTC' : 'GTC') : binanceTif(o.timeInForce),
    quantity: fromUnits(o.quantity, qd),
    algoStatus: algoStatusOf(o),
    actualOrderId: c.workingTs === null ? '' : o.orderId,
    actualPrice: o.filledQty > 0n ? avgPrice(o.filledQuote, o.filledQty, s) : '0',
    triggerPrice: c.stopPrice === null ? '0' : fromUnits(c.stopPrice, pd),
    price: o.price === null ? '0' : fromUnits(o.price, pd),
    icebergQuantity: null,
    selfTradePreventionMode: 'EXPIRE_TAKER',
    workingType: c.workingType,
    priceMatch: 'NONE',
    closePosition: c.closePosition,
    priceProtect: c.priceProtect,
    reduceOnly: o.reduceOnly || c.closePosition,
    ...(trailing
      ? { activatePrice: c.activationPrice === null ? '0' : fromUnits(c.activationPrice, pd), callbackRate: callbackRateOf(c.callbackRateBps ?? 0) }
      : {}),
    createTime: o.createdTs,
    updateTime: o.updatedTs,
    triggerTime: c.workingTs ?? 0,
    goodTillDate: 0,
  };
}

/** The response schema of a Binance algo order (algoOrder above). */
export const FuturesAlgoOrder = Type.Object(
  {
    algoId: Type.Integer({ minimum: 0 }),
    clientAlgoId: Type.String(),
    algoType: Type.Literal('CONDITIONAL'),
    orderType: Type.String({ description: 'STOP, TAKE_PROFIT, STOP_MARKET, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET' }),
    symbol: BinanceSymbol,
    side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
    positionSide: Type.Literal('BOTH'),
    timeInForce: Type.String(),
    quantity: Decimal,
    algoStatus: Type.String({ description: 'NEW, CANCELED, EXPIRED, TRIGGERED, FINISHED' }),
    actualOrderId: Type.String(),
    actualPrice: Decimal,
    triggerPrice: Decimal,
    price: Decimal,
    icebergQuantity: Type.Null(),
    selfTradePreventionMode: Type.String(),
    workingType: Type.String(),
    priceMatch: Type.String(),
    closePosition: Type.Boolean(),
    priceProtect: Type.Boolean(),
    reduceOnly: Type.Boolean(),
    activatePrice: Type.Optional(Decimal),
    callbackRate: Type.Optional(Decimal),
    createTime: TimeMs,
    updateTime: TimeMs,
    triggerTime: TimeMs,
    goodTillDate: Type.Integer(),
  },
  { additionalProperties: false },
);
/** DELETE /fapi/v1/algoOrder: Binance's `{ algoId, clientAlgoId, code: "200", msg: "success" }`. */
export const AlgoCancelResponse = Type.Object(
  { algoId: Type.Integer({ minimum: 0 }), clientAlgoId: Type.String(), code: Type.String(), msg: Type.String() },
  { additionalProperties: false },
);
