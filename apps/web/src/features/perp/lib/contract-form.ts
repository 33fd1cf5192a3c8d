/**
 * Pure rules of the contract order form (spec sections 5 and 9): decimal strings of the wire
 * turned into the engine's integer units and back, the order's quantity from its lots (1 lot = 1000 USDT face value
 * at the order's price), the cost, maximum lots and estimated liquidation price previews (the core's formulas of
 * perp/math.ts, shared with the engine and the server), and the checks of the form in the spec's order: price,
 * leverage, lots entered; the 50% limit price deviation; take profit / stop loss on the right side of the current
 * price; the contract account's balance. Integers only (bigint): nothing here uses floating point.
 */
import {
  bracketTiers,
  closeLotsQty,
  initialMargin,
  lotsToQty,
  liquidationPrice,
  maxLots as coreMaxLots,
  openLoss,
  orderCost,
  perpNotionalMult,
  type BracketTier,
  type LeverageBracket,
} from '@exchange/core';
import { decToString, formatDecimal, isDecimal, parseDec, rescale } from '@exchange/money';

/** Position side (one-way positions). */
export type PositionSide = 'LONG' | 'SHORT';
/** Margin mode. */
export type MarginMode = 'CROSS' | 'ISOLATED';
/** Order type of the form. */
export type ContractOrderType = 'LIMIT' | 'MARKET';

/**
 * The rules of a perpetual market as the form needs them, in wire form (decimal strings in coin units, rates in
 * ppm): built from the market schema by api/get-contract-markets.ts.
 */
export interface ContractRules {
  symbol: string;
  base: string;
  /** the settle asset (USDT) */
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  /** decimals of the settle asset (USDT: 8) */
  settleScale: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  /** face value of one lot, in the settle asset ("1000") */
  lotNotional: string;
  takerFeePpm: number;
  makerFeePpm: number;
  /** leverage brackets: caps in the settle asset, maintenance rates in ppm */
  brackets: { notionalCap: string; maxLeverage: number; maintMarginPpm: number }[];
  /** the limit price band around the mark price, ppm (spec section 9: 50% = 500,000) */
  priceBandPpm: number;
}

/** The form's values as typed ('' when empty). */
export interface ContractFormValues {
  side: PositionSide;
  orderType: ContractOrderType;
  price: string;
  /** whole lots */
  lots: string;
  /** leverage as typed or chosen ("20") */
  leverage: string;
  marginMode: MarginMode;
  takeProfit: string;
  stopLoss: string;
}

/** What the form knows of the account and the market when it checks or previews. */
export interface ContractContext {
  /** available balance of the contract account (USDT, decimal string) */
  available: string;
  /** mark price (decimal string, '' before the first tick) */
  markPrice: string;
  /** the user's position in the market, if any */
  position?: { side: PositionSide; size: string; cost: string; margin: string } | null;
}

/**
 * Integer units of `value` at `decimals`, places beyond `decimals` cut off towards zero ("100.057" at 2 -> 10005n,
 * "-1.5" at 8 -> -150000000n); null when it is not a decimal. Read by @exchange/money's `parseDec` (the one parser,
 * `tryParseDecimal`, after the typed form is made canonical: "5." is 5, ".5" is 0.5, "007" is 7) and `rescale`; the
 * form's own checks (isCompleteDecimal, the places typed) refuse what a field may not hold before its units are used.
 * Write units back with `formatDecimal(units, decimals)`.
 */
export function toUnits(value: string, decimals: number): bigint | null {
  if (!isDecimal(value)) return null;
  return rescale(parseDec(value), decimals, 'down').units;
}

const decimalsIn = (s: string) => (s.split('.')[1] ?? '').length;

/** True when `s` is a complete non-negative decimal ("1", "0.5"). */
export function isCompleteDecimal(s: string): boolean {
  return /^\d+(\.\d+)?$/.test(s);
}

/** The market's integers: multiplier, tiers, tick, step and lot face value in units. */
export interface RulesUnits {
  mult: bigint;
  tiers: BracketTier[];
  tick: bigint;
  step: bigint;
  minQty: bigint;
  lotNotional: bigint;
  /** the highest leverage of the first tier (the leverage selector's maximum) */
  maxLeverage: number;
}

/** The integer form of `rules` (see RulesUnits). */
export function rulesUnits(rules: ContractRules): RulesUnits {
  const brackets: LeverageBracket[] = rules.brackets.map((b) => ({
    notionalCap: toUnits(b.notionalCap, rules.settleScale) ?? 0n,
    maxLeverage: b.maxLeverage,
    maintMarginPpm: b.maintMarginPpm,
  }));
  return {
    mult: perpNotionalMult(rules.settleScale, rules.priceDecimals, rules.qtyDecimals),
    tiers: bracketTiers(brackets),
    tick: toUnits(rules.tickSize, rules.priceDecimals) ?? 1n,
    step: toUnits(rules.stepSize, rules.qtyDecimals) ?? 1n,
    minQty: toUnits(rules.minQty, rules.qtyDecimals) ?? 0n,
    lotNotional: toUnits(rules.lotNotional, rules.settleScale) ?? 0n,
    maxLeverage: rules.brackets[0]?.maxLeverage ?? 1,
  };
}

/** Leverage choices of the selector: 1..max, with the usual marks (1, 2, 3, 5, 10, 20, 50, 75, 100, 125) up to max. */
export function leverageMarks(max: number): number[] {
  const marks = [1, 2, 3, 5, 10, 20, 50, 75, 100, 125].filter((m) => m <= max);
  if (!marks.includes(max) && max >= 1) marks.push(max);
  return marks;
}

/** The price an order is sized and previewed at: the limit price, or the mark price for a market order. */
export function orderPrice(form: ContractFormValues, ctx: ContractContext): string {
  return form.orderType === 'LIMIT' ? form.price : ctx.markPrice;
}

/** Lots as an integer, or null when not a whole positive number. */
export function parseLots(lots: string): bigint | null {
  return /^\d{1,9}$/.test(lots) && BigInt(lots) > 0n ? BigInt(lots) : null;
}

/** Leverage as an integer 1..max, or null. */
export function parseLeverage(leverage: string, max: number): number | null {
  if (!/^\d{1,3}$/.test(leverage)) return null;
  const n = Number.parseInt(leverage, 10);
  return n >= 1 && n <= max ? n : null;
}

/** The previews of the form (decimal strings in the settle asset or the market's units; '' when unknown). */
export interface ContractPreview {
  /** base quantity of the lots at the order's price */
  quantity: string;
  /** face value (price x quantity) */
  notional: string;
  /** initial margin + taker fee + open loss (a price beyond the mark): what the order holds */
  cost: string;
  /** the most lots the available balance pays for at this price and leverage */
  maxLots: string;
  /** estimated liquidation price of the resulting position; '' when unknown, '--' when none */
  liquidationPrice: string;
}

/**
 * The order's open loss against the mark price (perp/math openLoss, Binance's order cost = initial margin + open
 * loss): quote units, 0n without a mark. The engine holds it on top of the initial margin and the fee.
 */
function lossAgainstMark(side: PositionSide, qty: bigint, price: bigint, ctx: ContractContext, rules: ContractRules, mult: bigint): bigint {
  const mark = toUnits(ctx.markPrice, rules.priceDecimals);
  if (mark === null || mark <= 0n) return 0n;
  return openLoss(side === 'LONG' ? 'BUY' : 'SELL', qty * price * mult, qty * mark * mult);
}

/**
 * The previews of the form: quantity and face value of the lots at the order's price, the cost (initial margin at the
 * leverage plus the taker fee, perp/math orderCost, plus the open loss of a price beyond the mark), the maximum lots (perp/math maxLots) and the estimated
 * liquidation price of the position the order would leave (perp/math liquidationPrice; Binance's one-way formula):
 * isolated, the wallet in scope is the new margin (plus an existing position's margin on the same side); cross, it is
 * the available balance less the fee plus the existing position's margin (what backs a cross position).
 */
export function previewOrder(form: ContractFormValues, rules: ContractRules, ctx: ContractContext): ContractPreview {
  const u = rulesUnits(rules);
  const empty: ContractPreview = { quantity: '', notional: '', cost: '', maxLots: '', liquidationPrice: '' };
  const price = toUnits(orderPrice(form, ctx), rules.priceDecimals);
  const leverage = parseLeverage(form.leverage, u.maxLeverage);
  const available = toUnits(ctx.available, rules.settleScale) ?? 0n;
  if (price === null || price <= 0n || leverage === null) return empty;
  const max = coreMaxLots(available > 0n ? available : 0n, price, leverage, rules.takerFeePpm, u.lotNotional, u.step, u.mult, u.tiers);
  const lots = parseLots(form.lots);
  if (lots === null) return { ...empty, maxLots: max.toString() };
  const qty = lotsToQty(lots, price, u.lotNotional, u.step, u.mult);
  const notional = qty * price * u.mult;
  const cost = orderCost(notional, leverage, rules.takerFeePpm) + lossAgainstMark(form.side, qty, price, ctx, rules, u.mult);
  let side = form.side;
  let size = qty;
  let posCost = notional;
  const newMargin = initialMargin(notional, leverage);
  let wallet = form.marginMode === 'ISOLATED' ? newMargin : available - (cost - newMargin);
  const pos = ctx.position;
  if (pos) {
    const pSize = toUnits(pos.size, rules.qtyDecimals) ?? 0n;
    const pCost = toUnits(pos.cost, rules.settleScale) ?? 0n;
    const pMargin = toUnits(pos.margin, rules.settleScale) ?? 0n;
    if (pos.side === form.side) {
      size += pSize;
      posCost += pCost;
      wallet += pMargin;
    } else if (pSize > qty) {
      // The order reduces the position: what is left keeps its average price and margin.
      side = pos.side;
      size = pSize - qty;
      posCost = (pCost * size) / pSize;
      wallet = form.marginMode === 'ISOLATED' ? pMargin : available + pMargin;
    } else if (pSize === qty) {
      return {
        quantity: formatDecimal(qty, rules.qtyDecimals),
        notional: formatDecimal(notional, rules.settleScale),
        cost: formatDecimal(cost, rules.settleScale),
        maxLots: max.toString(),
        liquidationPrice: '--',
      };
    } else {
      size = qty - pSize;
      posCost = size * price * u.mult;
    }
  }
  const lp = qty > 0n ? liquidationPrice(side, size, posCost, wallet, u.tiers, u.mult) : null;
  return {
    quantity: formatDecimal(qty, rules.qtyDecimals),
    notional: formatDecimal(notional, rules.settleScale),
    cost: formatDecimal(cost, rules.settleScale),
    maxLots: max.toString(),
    liquidationPrice: qty === 0n ? '' : lp === null || lp === 0n ? '--' : formatDecimal(lp, rules.priceDecimals),
  };
}

/** Reasons the form is refused before sending (each has a message contract:err.<code>). */
export type ContractFormError =
  | 'price_required'
  | 'price_not_on_tick'
  | 'price_out_of_band'
  | 'mark_price_unavailable'
  | 'leverage_required'
  | 'lots_required'
  | 'lots_too_small'
  | 'take_profit_not_on_tick'
  | 'stop_loss_not_on_tick'
  | 'take_profit_invalid'
  | 'stop_loss_invalid'
  | 'insufficient_balance';

/**
 * True when `price` (a limit price) is within `bandPpm` of `mark`: |price - mark| * 1e6 <= mark * bandPpm (spec
 * section 9: a contract limit price may not deviate more than 50% from the current price).
 */
export function withinBand(price: bigint, mark: bigint, bandPpm: number): boolean {
  const diff = price > mark ? price - mark : mark - price;
  return diff * 1_000_000n <= mark * BigInt(bandPpm);
}

/**
 * Take profit and stop loss against the current price (spec section 5): for a long, take profit above and stop loss
 * below it; for a short the reverse. Empty fields pass. Units of the market's price.
 */
export function checkTpSl(side: PositionSide, takeProfit: string, stopLoss: string, current: string, rules: ContractRules): ContractFormError | null {
  const cur = toUnits(current, rules.priceDecimals);
  const tick = toUnits(rules.tickSize, rules.priceDecimals) ?? 1n;
  for (const [field, value] of [
    ['take_profit', takeProfit],
    ['stop_loss', stopLoss],
  ] as const) {
    if (value === '') continue;
    const v = isCompleteDecimal(value) ? toUnits(value, rules.priceDecimals) : null;
    if (v === null || v <= 0n || decimalsIn(value) > rules.priceDecimals || v % tick !== 0n) return `${field}_not_on_tick`;
    if (cur === null || cur <= 0n) return 'mark_price_unavailable';
    const above = v > cur;
    const below = v < cur;
    if (field === 'take_profit' && !(side === 'LONG' ? above : below)) return 'take_profit_invalid';
    if (field === 'stop_loss' && !(side === 'LONG' ? below : above)) return 'stop_loss_invalid';
  }
  return null;
}

/**
 * Checks the form in the spec's order; null when it may be sent: the limit price entered, on the tick and within the
 * band of the mark price; the leverage entered (1..max); the lots entered (whole, at least one step of quantity at the
 * price); take profit and stop loss on their side of the current (mark) price; the cost within the available balance
 * of the contract account (insufficient balance, contract variant).
 */
export function validateContractOrder(form: ContractFormValues, rules: ContractRules, ctx: ContractContext): ContractFormError | null {
  const u = rulesUnits(rules);
  const mark = toUnits(ctx.markPrice, rules.priceDecimals);
  if (form.orderType === 'LIMIT') {
    if (!isCompleteDecimal(form.price) || (toUnits(form.price, rules.priceDecimals) ?? 0n) <= 0n) return 'price_required';
    const p = toUnits(form.price, rules.priceDecimals)!;
    if (decimalsIn(form.price) > rules.priceDecimals || p % u.tick !== 0n) return 'price_not_on_tick';
    if (mark !== null && mark > 0n && !withinBand(p, mark, rules.priceBandPpm)) return 'price_out_of_band';
  } else if (mark === null || mark <= 0n) return 'mark_price_unavailable';
  const leverage = parseLeverage(form.leverage, u.maxLeverage);
  if (leverage === null) return 'leverage_required';
  const lots = parseLots(form.lots);
  if (lots === null) return 'lots_required';
  const price = toUnits(orderPrice(form, ctx), rules.priceDecimals) ?? 0n;
  const qty = lotsToQty(lots, price, u.lotNotional, u.step, u.mult);
  if (qty <= 0n || qty < u.minQty) return 'lots_too_small';
  const tpsl = checkTpSl(form.side, form.takeProfit, form.stopLoss, ctx.markPrice || orderPrice(form, ctx), rules);
  if (tpsl) return tpsl;
  // An order against the position first reduces it (no margin for that part): only the opening part is checked.
  const pos = ctx.position;
  const pSize = pos && pos.side !== form.side ? (toUnits(pos.size, rules.qtyDecimals) ?? 0n) : 0n;
  const opening = qty > pSize ? qty - pSize : 0n;
  const cost = orderCost(opening * price * u.mult, leverage, rules.takerFeePpm) + lossAgainstMark(form.side, opening, price, ctx, rules, u.mult);
  const available = toUnits(ctx.available, rules.settleScale) ?? 0n;
  if (opening > 0n && cost > available) return 'insufficient_balance';
  return null;
}

/** Checks the close lots of a partial close: whole, at least 1, at most the position's lots. */
export function validateCloseLots(lots: string, positionLots: string): 'close_lots_required' | 'close_lots_too_many' | null {
  const n = parseLots(lots);
  if (n === null) return 'close_lots_required';
  if (/^\d+$/.test(positionLots) && n > BigInt(positionLots)) return 'close_lots_too_many';
  return null;
}

/**
 * The quantity to close for `lots` of a position (a proportional part, rounded down to the step; the whole size when
 * the lots are the position's lots or more).
 */
export function closeQuantity(lots: string, positionLots: string, size: string, rules: ContractRules): string {
  const n = parseLots(lots);
  const all = /^\d+$/.test(positionLots) ? BigInt(positionLots) : 0n;
  const s = toUnits(size, rules.qtyDecimals) ?? 0n;
  if (n === null || all <= 0n) return formatDecimal(s, rules.qtyDecimals);
  // the server's rule (core closeLotsQty), so the preview is what the close does
  return formatDecimal(closeLotsQty(s, all, n, toUnits(rules.stepSize, rules.qtyDecimals) ?? 1n), rules.qtyDecimals);
}

/** Body of the order request for a valid form (decimal strings; lots informational for "entrust hands"). */
export function contractOrderBody(symbol: string, form: ContractFormValues, quantity: string, clientOrderId: string): Record<string, string> {
  const body: Record<string, string> = {
    symbol,
    side: form.side === 'LONG' ? 'BUY' : 'SELL',
    orderType: form.orderType,
    quantity,
    lots: form.lots,
    clientOrderId,
  };
  if (form.orderType === 'LIMIT') body.price = form.price;
  if (form.takeProfit) body.takeProfit = form.takeProfit;
  if (form.stopLoss) body.stopLoss = form.stopLoss;
  return body;
}

/** A funding rate in E8 (1e-8) as a percent with 4 decimals: 10000 -> "0.0100%", -2500 -> "-0.0025%". */
export function formatFundingRate(rateE8: number | string): string {
  const s = String(rateE8);
  if (!/^-?\d+$/.test(s)) return '--';
  // percent = rate / 1e6, so 4 decimals of a percent are rate / 100 (rounded half away from zero).
  return `${decToString(rescale({ units: BigInt(s), scale: 6 }, 4, 'round'))}%`;
}

/** A ppm rate as a percent with 2 decimals (rounded half away from zero): 123456 -> "12.35%", -5000 -> "-0.50%". */
export function formatPpmPercent(ppm: number): string {
  if (!Number.isInteger(ppm)) return '--';
  return `${decToString(rescale({ units: BigInt(ppm), scale: 4 }, 2, 'round'))}%`;
}

/** A percent string ("0.40", "0.0500", "50") in ppm (4,000, 500, 500,000), rounded down; 0 for anything else. */
export function percentToPpm(percent: string): number {
  const u = isDecimal(percent) ? toUnits(percent, 4) : null;
  return u === null ? 0 : Number(u);
}

/** The fields of the market schema (contract-market.ts ContractMarket) the form's rules come from. */
export interface MarketRuleFields {
  symbol: string;
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  lotNotional: string;
  makerFeeRate: string;
  takerFeeRate: string;
  priceBandRate: string;
  brackets: { notionalCap: string; maxLeverage: number; maintMarginRate: string }[];
}

/** Settle asset's scale (USDT, 8 decimals: contract.ts). */
export const SETTLE_SCALE = 8;

/** The form's rules of a market as the API describes it (percent rates turned into ppm). */
export function rulesFromMarket(m: MarketRuleFields): ContractRules {
  return {
    symbol: m.symbol,
    base: m.base,
    quote: m.quote,
    priceDecimals: m.priceDecimals,
    qtyDecimals: m.qtyDecimals,
    settleScale: SETTLE_SCALE,
    tickSize: m.tickSize,
    stepSize: m.stepSize,
    minQty: m.minQty,
    lotNotional: m.lotNotional,
    takerFeePpm: percentToPpm(m.takerFeeRate),
    makerFeePpm: percentToPpm(m.makerFeeRate),
    priceBandPpm: percentToPpm(m.priceBandRate),
    brackets: m.brackets.map((b) => ({ notionalCap: b.notionalCap, maxLeverage: b.maxLeverage, maintMarginPpm: percentToPpm(b.maintMarginRate) })),
  };
}

/** A market value as a person reads it: trailing zeros dropped ("0.1", "0.001"). */
function plain(v: string): string {
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/**
 * The i18n key (contract namespace) and values of an error's message: the tick or minimum to meet, the leverage's
 * range, and the side for take profit / stop loss (spec section 5's four messages).
 */
export function contractFormMessage(
  err: ContractFormError | 'close_lots_required' | 'close_lots_too_many',
  side: PositionSide,
  rules: ContractRules,
  extra: { positionLots?: string } = {},
): { key: string; values: Record<string, string> } {
  switch (err) {
    case 'price_not_on_tick':
    case 'take_profit_not_on_tick':
    case 'stop_loss_not_on_tick':
      return { key: `err.${err}`, values: { step: plain(rules.tickSize), coin: rules.quote } };
    case 'leverage_required':
      return { key: `err.${err}`, values: { max: String(rules.brackets[0]?.maxLeverage ?? 1) } };
    case 'lots_too_small':
      return { key: `err.${err}`, values: { min: plain(rules.minQty), coin: rules.base } };
    case 'take_profit_invalid':
    case 'stop_loss_invalid':
      return { key: `err.${err}_${side}`, values: {} };
    case 'close_lots_too_many':
      return { key: `err.${err}`, values: { n: extra.positionLots ?? '' } };
    default:
      return { key: `err.${err}`, values: {} };
  }
}

/**
 * One stepper press on a price: aligned down to the tick first, then moved one tick up (+1) or down (-1); '' at or
 * below zero. stepPrice("100.05", "0.1", 2, 1) === "100.10"; (..., -1) === "100.00".
 */
export function stepPrice(value: string, tick: string, decimals: number, dir: 1 | -1): string {
  const v = isCompleteDecimal(value) ? (toUnits(value, decimals) ?? 0n) : 0n;
  const t = toUnits(tick, decimals) ?? 1n;
  if (t <= 0n) return value;
  const aligned = v - (v % t);
  const n = dir === 1 ? aligned + t : aligned === v ? v - t : aligned;
  return n <= 0n ? '' : formatDecimal(n, decimals);
}

/** The fields of a position (contract.ts ContractPosition) the live view recomputes. */
export interface LivePositionFields {
  side: PositionSide;
  quantity: string;
  markPrice: string;
  unrealizedPnl: string;
  margin: string;
  positionValue: string;
  yieldRate: string;
}

/**
 * A position moved to a newer mark price: the server's unrealized PnL plus side x size x (new mark - its mark), the
 * position value size x new mark, and the yield rate PnL / margin in percent (2 decimals, truncated). Exact decimals (USDT at 8).
 * The position is returned unchanged without a usable mark.
 */
export function atMark<T extends LivePositionFields>(p: T, mark: string): T {
  if (!isCompleteDecimal(mark) || !isDecimal(p.markPrice) || !isDecimal(p.unrealizedPnl) || !isDecimal(p.quantity) || mark === p.markPrice) return p;
  const S = SETTLE_SCALE;
  const qty = parseDec(p.quantity);
  const m1 = parseDec(mark);
  const m0 = parseDec(p.markPrice);
  const scale = Math.max(m1.scale, m0.scale);
  const diff = rescale(m1, scale).units - rescale(m0, scale).units;
  const delta = rescale({ units: qty.units * diff * (p.side === 'LONG' ? 1n : -1n), scale: qty.scale + scale }, S, 'round').units;
  const pnl = rescale(parseDec(p.unrealizedPnl), S).units + delta;
  const value = rescale({ units: qty.units * m1.units, scale: qty.scale + m1.scale }, S, 'round').units;
  const margin = isDecimal(p.margin) ? rescale(parseDec(p.margin), S).units : 0n;
  // percent with 2 decimals, truncated towards zero
  const yieldRate = margin > 0n ? formatDecimal((pnl * 10_000n) / margin, 2) : p.yieldRate;
  return { ...p, markPrice: mark, unrealizedPnl: formatDecimal(pnl, S), positionValue: formatDecimal(value, S), yieldRate };
}
