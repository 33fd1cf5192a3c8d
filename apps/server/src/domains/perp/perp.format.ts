/**
 * Engine perp values -> the wire shapes of packages/api contract.ts. Integers only: prices at the market's
 * priceDecimals, quantities at qtyDecimals, amounts at the settle asset's scale; rates as percent strings (ppm with 4
 * decimals for fees and margin rates, ppm / 100 with 2 for yield and risk level, E8 with 6 for funding). Derived
 * position values (unrealized PnL, value, maintenance margin, liquidation price, removable margin) come from packages/core perp/math.ts,
 * the formulas the engine and the web app use.
 */
import {
  entryPriceOf,
  formatDecimal,
  initialMargin,
  liquidationPrice,
  maintMargin,
  maxRemovableMargin,
  notionalOf,
  positionLots,
  qtyToLots,
  unrealizedPnl,
  yieldRatePpm,
  type PerpAccountView,
  type PerpConditionType,
  type PerpConditionView,
  type PerpOrderView,
  type PerpWorkingType,
  type PositionView,
} from '@exchange/core';
import type { ContractAccount, ContractFill, ContractFundingRecord, ContractLiquidation, ContractOrder, ContractPosition } from '@exchange/api';
import type { perpFundingPayments, perpLiquidations, perpOrders, perpTrades } from './perp.tables';
import { avgPriceOf, type PerpScales } from '../../platform/shared/market-scales';

/** ppm as a percent string with 4 decimals (200 -> "0.0200"). */
export function ppmPercent4(ppm: number | bigint): string {
  return formatDecimal(BigInt(ppm), 4);
}
/** ppm as a percent string with 2 decimals, rounded towards zero (123456 -> "12.34"). */
export function ppmPercent2(ppm: number | bigint): string {
  return formatDecimal(BigInt(ppm) / 100n, 2);
}
/** An E8 rate as a percent string with 6 decimals (10000 -> "0.010000"). */
export function e8Percent(e8: number | bigint): string {
  return formatDecimal(BigInt(e8), 6);
}

const OPEN_STATUSES: ReadonlySet<string> = new Set(['NEW', 'PARTIALLY_FILLED']);

/** True for an order that opens (or adds to) a position. */
function isOpening(o: PerpOrderView): boolean {
  return o.tradeType === 'OPEN_LONG' || o.tradeType === 'OPEN_SHORT';
}

/**
 * Entrust hands of an order: the lots entered, or for an order given as a quantity its whole lots at its price
 * (MARKET: at its average fill price, 0 before a fill). A closing order given as a quantity (a take-profit or
 * stop-loss close, a close by quantity, a liquidation) that has filled counts the hands it closed as the position
 * counts them: its closed cost (entry notional) in lots rounded half up (positionLots), plus the unfilled rest at its
 * price. Counting its fill value at the close price instead rounds a one-lot close down to 0 whenever the close price
 * is below the entry (a short's take profit, a long's stop loss), or the step rounding made the lot worth a little
 * less than its face value.
 */
export function entrustLots(o: PerpOrderView, s: PerpScales): number {
  if (o.lots > 0) return o.lots;
  const p = o.price ?? avgPriceOf(o.filledQuote, o.filledQty, s.mult) ?? 0n;
  if (isOpening(o) || o.filledQty <= 0n) return Number(qtyToLots(o.quantity, p, s.market.lotNotional, s.mult));
  const closed = positionLots(closedCostOf(o), s.market.lotNotional);
  const rest = o.quantity - o.filledQty;
  return Number(closed + (rest > 0n ? qtyToLots(rest, p, s.market.lotNotional, s.mult) : 0n));
}

/**
 * Entry notional (quote units) of the part of the position a closing order's fills closed: the filled value less
 * (SELL, closing a long) or plus (BUY, closing a short) the PnL it realized.
 */
function closedCostOf(o: PerpOrderView): bigint {
  return o.side === 'SELL' ? o.filledQuote - o.realizedPnl : o.filledQuote + o.realizedPnl;
}

/**
 * Revocable hands: the unfilled lots of an open order (lots entered prorated by the unfilled quantity, rounded
 * down; for an order given as a quantity, the whole lots of the rest at its price), 0 for an ended order.
 */
export function revocableLots(o: PerpOrderView, s: PerpScales, markPrice: bigint | null): number {
  if (!OPEN_STATUSES.has(o.status)) return 0;
  const rest = o.quantity - o.filledQty;
  if (rest <= 0n) return 0;
  if (o.lots > 0 && o.quantity > 0n) return Number((rest * BigInt(o.lots)) / o.quantity);
  const p = o.price ?? markPrice ?? 0n;
  return Number(qtyToLots(rest, p, s.market.lotNotional, s.mult));
}

/**
 * Margin of an order (contract.ts ContractOrder.margin): opening orders ceil(value / leverage) of their entrust value
 * (MARKET: the filled value); closing orders the margin of the closed part, ceil(closed cost / leverage), the closed
 * cost being the filled value less (SELL, closing a long) or plus (BUY, closing a short) the realized PnL.
 */
export function orderMargin(o: PerpOrderView, s: PerpScales): bigint {
  const lev = Math.max(1, o.leverage);
  if (isOpening(o)) {
    const value = o.price !== null ? notionalOf(o.price, o.quantity, s.mult) : o.filledQuote;
    return initialMargin(value, lev);
  }
  if (o.filledQty === 0n) return 0n;
  const closedCost = closedCostOf(o);
  return closedCost > 0n ? initialMargin(closedCost, lev) : 0n;
}

/** An engine perpetual order as the API's ContractOrder. */
export function toContractOrder(o: PerpOrderView, s: PerpScales, markPrice: bigint | null = null): ContractOrder {
  const { priceDecimals, qtyDecimals } = s.market;
  const avg = avgPriceOf(o.filledQuote, o.filledQty, s.mult);
  const margin = orderMargin(o, s);
  const entrustValue = o.price !== null ? notionalOf(o.price, o.quantity, s.mult) : o.filledQuote;
  const profitRate = !isOpening(o) && margin > 0n ? ppmPercent2(yieldRatePpm(o.realizedPnl, margin)) : '0.00';
  const ended = !OPEN_STATUSES.has(o.status);
  const px = (v: bigint | null) => (v === null ? '' : formatDecimal(v, priceDecimals));
  return {
    orderId: o.orderId,
    clientOrderId: o.clientOrderId ?? '',
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    tradeType: o.tradeType,
    trigger: o.trigger ?? '',
    reduceOnly: o.reduceOnly,
    leverage: o.leverage,
    marginMode: o.marginMode,
    price: px(o.price),
    avgPrice: px(avg),
    lots: entrustLots(o, s),
    quantity: formatDecimal(o.quantity, qtyDecimals),
    filledQty: formatDecimal(o.filledQty, qtyDecimals),
    filledValue: formatDecimal(o.filledQuote, s.scale),
    entrustValue: formatDecimal(entrustValue, s.scale),
    revocableLots: revocableLots(o, s, markPrice),
    margin: formatDecimal(margin, s.scale),
    hold: formatDecimal(o.hold, s.scale),
    fee: formatDecimal(o.fee, s.scale),
    realizedPnl: formatDecimal(o.realizedPnl, s.scale),
    profitRate,
    takeProfit: px(o.takeProfit),
    stopLoss: px(o.stopLoss),
    status: o.status,
    openTime: o.createdTs,
    closeTime: ended ? o.updatedTs : 0,
    updateTime: o.updatedTs,
  };
}

/** A projected perp_orders row back into the engine's PerpOrderView. */
export function rowToPerpOrderView(r: typeof perpOrders.$inferSelect): PerpOrderView {
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  return {
    orderId: r.id.toString(),
    clientOrderId: r.clientOrderId,
    userId: r.userId,
    symbol: r.symbol,
    side: r.side as PerpOrderView['side'],
    orderType: r.orderType as PerpOrderView['orderType'],
    timeInForce: r.timeInForce as PerpOrderView['timeInForce'],
    price: big(r.price),
    quantity: BigInt(r.quantity),
    lots: r.lots,
    reduceOnly: r.reduceOnly,
    tradeType: r.tradeType as PerpOrderView['tradeType'],
    trigger: (r.trigger ?? null) as PerpOrderView['trigger'],
    leverage: r.leverage,
    marginMode: r.marginMode as PerpOrderView['marginMode'],
    filledQty: BigInt(r.filledQty),
    filledQuote: BigInt(r.filledQuote),
    fee: BigInt(r.fee),
    realizedPnl: BigInt(r.realizedPnl),
    hold: BigInt(r.hold),
    takeProfit: big(r.takeProfit),
    stopLoss: big(r.stopLoss),
    status: r.status as PerpOrderView['status'],
    createdTs: r.createdTs,
    updatedTs: r.updatedTs,
    ...(r.condType !== null
      ? {
          condition: {
            type: r.condType as PerpConditionType,
            stopPrice: big(r.condStopPrice),
            workingType: (r.condWorkingType ?? 'CONTRACT_PRICE') as PerpWorkingType,
            priceProtect: r.condPriceProtect ?? false,
            closePosition: r.condClosePosition ?? false,
            callbackRateBps: r.condCallbackRateBps,
            activationPrice: big(r.condActivationPrice),
            trailingRef: big(r.condTrailingRef),
            workingTs: r.condWorkingTs,
            expireReason: r.condExpireReason as PerpConditionView['expireReason'],
          },
        }
      : {}),
  };
}

/** One projected fill as the ContractFill of order `orderId` (its maker or taker side). */
export function toContractFill(t: typeof perpTrades.$inferSelect, orderId: string, s: PerpScales): ContractFill {
  const maker = t.makerOrderId !== null && t.makerOrderId.toString() === orderId;
  return {
    tradeId: t.id.toString(),
    price: formatDecimal(BigInt(t.price), s.market.priceDecimals),
    quantity: formatDecimal(BigInt(t.quantity), s.market.qtyDecimals),
    value: formatDecimal(BigInt(t.quoteAmount), s.scale),
    fee: formatDecimal(BigInt(maker ? t.makerFee : t.takerFee), s.scale),
    realizedPnl: formatDecimal(BigInt(maker ? t.makerRealizedPnl : t.takerRealizedPnl), s.scale),
    role: maker ? 'MAKER' : 'TAKER',
    kind: t.kind as ContractFill['kind'],
    time: t.ts,
  };
}

/** A position's values at the mark price (quote units), computed with perp/math.ts. */
export interface PositionFigures {
  mark: bigint;
  notional: bigint;
  upnl: bigint;
  maint: bigint;
}

/** The figures of a position at `mark` (the entry price when the market has no mark yet). */
export function positionFigures(p: PositionView, s: PerpScales, mark: bigint | null): PositionFigures {
  const m = mark ?? (p.entryPrice > 0n ? p.entryPrice : entryPriceOf(p.cost, p.size, s.mult));
  const notional = notionalOf(m, p.size, s.mult);
  return { mark: m, notional, upnl: unrealizedPnl(p.side, p.size, p.cost, m, s.mult), maint: maintMargin(s.tiers, notional) };
}

/**
 * A position as the API's ContractPosition. `walletInScope` is the balance the liquidation price is computed over
 * (isolated: the position's margin; cross: the cross wallet less the other cross positions' maintenance margin plus
 * their unrealized PnL); `riskLevelPpm` the risk level of its scope.
 */
export function toContractPosition(p: PositionView, s: PerpScales, f: PositionFigures, walletInScope: bigint, riskLevelPpm: number): ContractPosition {
  const { priceDecimals, qtyDecimals } = s.market;
  const px = (v: bigint | null) => (v === null ? '' : formatDecimal(v, priceDecimals));
  const money = (v: bigint) => formatDecimal(v, s.scale);
  const closed = p.size === 0n;
  const liq = closed ? null : liquidationPrice(p.side, p.size, p.cost, walletInScope, s.tiers, s.mult);
  return {
    symbol: p.symbol,
    base: s.market.base,
    quote: s.market.quote,
    priceDecimals,
    qtyDecimals,
    side: p.side,
    marginMode: p.marginMode,
    leverage: p.leverage,
    quantity: formatDecimal(p.size, qtyDecimals),
    lots: Number(positionLots(p.cost, s.market.lotNotional)),
    avgPrice: px(p.entryPrice),
    markPrice: px(f.mark),
    positionValue: money(f.notional),
    unrealizedPnl: money(f.upnl),
    yieldRate: ppmPercent2(yieldRatePpm(f.upnl, p.margin)),
    margin: money(p.margin),
    maxRemovableMargin: p.marginMode === 'ISOLATED' && !closed ? money(maxRemovableMargin(p.margin, f.notional, f.upnl, p.leverage)) : '',
    maintMargin: money(f.maint),
    // 0n: a long no fall of the price liquidates (shown as none).
    liquidationPrice: liq === null || liq === 0n ? '' : px(liq),
    takeProfit: px(p.takeProfit),
    stopLoss: px(p.stopLoss),
    realizedPnl: money(p.realizedPnl),
    funding: money(p.funding),
    fees: money(p.fees),
    riskLevel: ppmPercent2(riskLevelPpm),
    openTime: p.openTs,
    updateTime: p.updatedTs,
  };
}

/** Risk level (ppm) of an isolated position: maintenance margin / (margin + unrealized PnL); 100% when that is <= 0. */
export function isolatedRiskPpm(margin: bigint, f: PositionFigures): number {
  const balance = margin + f.upnl;
  if (balance <= 0n) return 1_000_000;
  return Number((f.maint * 1_000_000n) / balance);
}

/**
 * The API's ContractAccount from the engine's PerpAccountView, the CONTRACT ledger balance and the positions'
 * figures (every position's unrealized PnL and margin).
 */
export function toContractAccount(
  coin: string,
  scale: number,
  v: PerpAccountView,
  ledger: { available: bigint; frozen: bigint },
  positions: ReadonlyArray<{ margin: bigint; upnl: bigint }>,
): ContractAccount {
  const money = (x: bigint) => formatDecimal(x, scale);
  let upnl = 0n;
  let margin = 0n;
  for (const p of positions) {
    upnl += p.upnl;
    margin += p.margin;
  }
  const wallet = ledger.available + ledger.frozen;
  const orderHold = ledger.frozen - margin;
  return {
    coin,
    available: money(ledger.available),
    frozen: money(ledger.frozen),
    walletBalance: money(wallet),
    crossWalletBalance: money(v.crossWalletBalance),
    crossUnrealizedPnl: money(v.crossUnrealizedPnl),
    crossMarginBalance: money(v.crossMarginBalance),
    crossMaintMargin: money(v.crossMaintMargin),
    unrealizedPnl: money(upnl),
    marginBalance: money(wallet + upnl),
    positionMargin: money(margin),
    orderMargin: money(orderHold > 0n ? orderHold : 0n),
    availableBalance: money(v.availableBalance),
    maxWithdrawAmount: money(v.maxWithdrawAmount),
    riskLevel: ppmPercent2(v.riskLevelPpm),
    riskLevelPpm: v.riskLevelPpm,
  };
}

/** A projected funding payment as the API's record. */
export function toFundingRecord(r: typeof perpFundingPayments.$inferSelect, scale: number): ContractFundingRecord {
  return { symbol: r.symbol, fundingTime: r.fundingTs, rate: e8Percent(r.rateE8), amount: formatDecimal(BigInt(r.amount), scale), time: r.ts };
}

/** A projected liquidation as the API's record (prices at the market's decimals when it is known). */
export function toLiquidation(r: typeof perpLiquidations.$inferSelect, s: PerpScales | undefined): ContractLiquidation {
  const scale = s?.scale ?? 8;
  return {
    symbol: r.symbol,
    marginMode: r.marginMode as ContractLiquidation['marginMode'],
    side: r.side as ContractLiquidation['side'],
    quantity: s ? formatDecimal(BigInt(r.size), s.market.qtyDecimals) : r.size,
    markPrice: s ? formatDecimal(BigInt(r.markPrice), s.market.priceDecimals) : r.markPrice,
    equity: formatDecimal(BigInt(r.equity), scale),
    insuranceDelta: formatDecimal(BigInt(r.insuranceDelta), scale),
    time: r.ts,
  };
}
