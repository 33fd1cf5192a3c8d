/**
 * The USDT perpetual contracts, user side (spec sections 2-5, 9): the contract account, positions with
 * every field of spec section 3, leverage and margin mode, margin adjustment, TP/SL, order entry (lots or quantity),
 * one-click and partial close, cancel, the order lists' tabs, order detail with fills, funding and liquidation
 * records.
 *
 * Everything that changes state is an engine command (journaled before it is applied; the engine enforces the
 * rules again: margin, brackets, the 50% price band, TP/SL sides, reduce-only); this service turns decimal strings
 * into engine integers exactly (parseUnits of the spot service) and the engine's reject codes into AppErrors with the
 * field and, where the message can name it, the value to meet. Open positions, settings and open orders are read from
 * the engine; ended orders, fills, funding and liquidations from the projection (after waiting for it).
 */
import type { Static } from '@sinclair/typebox';
import {
  closeLotsQty,
  lotsToQty,
  positionLots,
  maxNotionalFor,
  formatDecimal,
  type Command,
  type CommandResult,
  type PerpConditionType,
  type PerpMarketConfig,
  type PerpOrderView,
  type PerpWorkingType,
  type PositionView,
  type TimeInForce,
} from '@exchange/core';
import type {
  AdjustMarginBody,
  CancelContractOrderBody,
  ClosePositionBody,
  ContractAccount,
  ContractFundingPage,
  ContractLiquidationPage,
  ContractOrder,
  ContractOrderDetail,
  ContractOrderPage,
  ContractPosition,
  ContractRecordsQuery,
  ContractSettings,
  GetContractOrdersQuery,
  LeveragePreview,
  LeveragePreviewQuery,
  PlaceContractOrderBody,
  SetLeverageBody,
  SetMarginModeBody,
  SetTpSlBody,
} from '@exchange/api';
import { errorText } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { CommandInput } from '../../platform/engine-host/engine-host';
import { AppError } from '../../platform/shared/errors';
import { canonicalOrderId, parseUnits, plainDecimal } from '../../platform/shared/order-fields';
import { createPerpRepository } from './perp.repository';
import {
  isolatedRiskPpm,
  positionFigures,
  ppmPercent4,
  rowToPerpOrderView,
  toContractAccount,
  toContractFill,
  toContractOrder,
  toContractPosition,
  toFundingRecord,
  toLiquidation,
  type PositionFigures,
} from './perp.format';
import { perpScales, type PerpScales } from '../../platform/shared/market-scales';

/** The contracts' user-side service (see the file comment). */
export interface PerpService {
  /** The caller's contract account (USDT) at the current mark prices. */
  account(userId: string): ContractAccount;
  /** The caller's open positions, optionally of one market (market_not_found). */
  positions(userId: string, symbol?: string): ContractPosition[];
  /** Leverage, margin mode and the market's limits for the caller. */
  settings(userId: string, symbol: string): ContractSettings;
  setLeverage(userId: string, body: Static<typeof SetLeverageBody>): Promise<ContractSettings>;
  /** What setLeverage would do to the caller's position's margin (leverage_too_high, leverage_margin_insufficient). */
  leveragePreview(userId: string, q: LeveragePreviewQuery, lang: 'zh' | 'en'): LeveragePreview;
  setMarginMode(userId: string, body: Static<typeof SetMarginModeBody>): Promise<ContractSettings>;
  /** Adds or removes margin of an isolated position; answers the position after. */
  adjustMargin(userId: string, body: Static<typeof AdjustMarginBody>): Promise<ContractPosition>;
  /** Sets or clears the position's TP/SL (a field left out keeps its value); answers the position after. */
  setTpSl(userId: string, body: Static<typeof SetTpSlBody>): Promise<ContractPosition>;
  /**
   * Places an order (lots or quantity); a repeated clientOrderId answers the first order. `timeInForce` of a LIMIT
   * order (default GTC; the Binance API's IOC, FOK and GTX = POST_ONLY); a MARKET order is always IOC.
   */
  placeOrder(userId: string, body: Static<typeof PlaceContractOrderBody>, opts?: { timeInForce?: TimeInForce }): Promise<ContractOrder>;
  /**
   * Places a conditional order (docs/perp-conditional-orders.md): decimal strings at the market's price and quantity
   * scales are converted exactly (price_not_on_tick, quantity_not_on_step as for placeOrder); the engine's rejections
   * (invalid_order, would_trigger_immediately, too_many_open_orders, ...) are thrown as AppErrors. Answers the engine's
   * view of the order (pending, with its `condition`), or the first order of a repeated clientOrderId.
   */
  placeConditional(userId: string, input: ConditionalOrderInput): Promise<PerpOrderView>;
  /** MARKET reduce-only close of the whole position or of `lots` of it. */
  closePosition(userId: string, body: Static<typeof ClosePositionBody>): Promise<ContractOrder>;
  /** Cancels one of the caller's open orders (order_not_found, 404, for anyone else's). */
  cancelOrder(userId: string, body: Static<typeof CancelContractOrderBody>): Promise<ContractOrder>;
  /**
   * Modifies one of the caller's resting LIMIT orders in place (the engine's perpAmendOrder; Binance USDⓈ-M "Modify
   * Order"): `price` and `quantity` (the new total, filled part included) as decimal strings of the market's scales,
   * converted exactly (price_not_on_tick, quantity_not_on_step). The engine's rejections (order_not_found for anyone
   * else's, unknown or ended order; invalid_order for a pending conditional order; price_out_of_band,
   * insufficient_balance, ...) are thrown as AppErrors and leave the order as it was. Answers the engine's view of the
   * order after the command (same orderId; CANCELED when the quantity is at or below the filled part).
   */
  amendOrder(userId: string, input: { orderId: string; price: string; quantity: string }): Promise<PerpOrderView>;
  /** An order list tab, newest first, paged. */
  orders(userId: string, query: Static<typeof GetContractOrdersQuery>): Promise<ContractOrderPage>;
  /** One of the caller's orders with its fills (order_not_found, 404, for anyone else's). */
  orderDetail(userId: string, orderId: string): Promise<ContractOrderDetail>;
  /** The caller's funding payments, newest first, paged. */
  fundingRecords(userId: string, query: Static<typeof ContractRecordsQuery>): Promise<ContractFundingPage>;
  /** The caller's liquidations, newest first, paged. */
  liquidations(userId: string, query: Static<typeof ContractRecordsQuery>): Promise<ContractLiquidationPage>;
}

/**
 * A conditional order as the Binance API takes it (POST /fapi/v1/order or /fapi/v1/algoOrder): prices and quantity as
 * decimal strings of the market's scales. `condition` decides the order it becomes: STOP and TAKE_PROFIT a LIMIT
 * order at `price` (timeInForce GTC, IOC or FOK), the others a MARKET order. `quantity` is absent with closePosition;
 * `callbackRateBps` is Binance's callbackRate in basis points (1% = 100).
 */
export interface ConditionalOrderInput {
  symbol: string;
  side: 'BUY' | 'SELL';
  condition: PerpConditionType;
  quantity?: string;
  price?: string;
  timeInForce?: 'GTC' | 'IOC' | 'FOK';
  stopPrice?: string;
  workingType?: PerpWorkingType;
  priceProtect?: boolean;
  closePosition?: boolean;
  reduceOnly?: boolean;
  callbackRateBps?: number;
  activationPrice?: string;
  clientOrderId?: string;
}

/** Longest wait for the projection before a history read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 3000;
/** The settle asset when no perpetual market is listed. */
const DEFAULT_SETTLE = 'USDT';

/** HTTP status of an engine rejection: 404 for a missing order, 400 for every other. */
function rejectStatus(code: string): number {
  return code === 'order_not_found' ? 404 : 400;
}

/** The field an engine rejection of a command is about (named in the message when it has a label). */
function rejectField(code: string): string | undefined {
  switch (code) {
    case 'price_required':
    case 'price_not_on_tick':
    case 'price_out_of_band':
      return 'price';
    case 'quantity_not_on_step':
    case 'quantity_below_minimum':
      return 'quantity';
    case 'leverage_invalid':
    case 'leverage_too_high':
      return 'leverage';
    case 'take_profit_invalid':
      return 'takeProfit';
    case 'stop_loss_invalid':
      return 'stopLoss';
    default:
      return undefined;
  }
}

/** The values a rejection's message names (the market's minimum quantity, step, tick), else undefined. */
export function perpRejectParams(code: string, m: PerpMarketConfig): Record<string, string> | undefined {
  switch (code) {
    case 'quantity_below_minimum':
      return { min: plainDecimal(m.minQty, m.qtyDecimals), coin: m.base };
    case 'quantity_not_on_step':
      return { step: plainDecimal(m.stepSize, m.qtyDecimals), coin: m.base };
    case 'price_not_on_tick':
      return { step: plainDecimal(m.tickSize, m.priceDecimals), coin: m.quote };
    default:
      return undefined;
  }
}

/** The engine's rejection as an AppError; insufficient_balance becomes its contract variant (spec section 5). */
function rejection(code: string, m?: PerpMarketConfig): AppError {
  const c = code === 'insufficient_balance' ? 'contract_insufficient_balance' : code;
  return new AppError(c as ConstructorParameters<typeof AppError>[0], rejectStatus(code), rejectField(code), m ? perpRejectParams(code, m) : undefined);
}

/** The last state of order `orderId` among a command's events, or undefined. */
function orderFromEvents(r: CommandResult, orderId?: string): PerpOrderView | undefined {
  let found: PerpOrderView | undefined;
  for (const e of r.events) {
    if (e.type !== 'perpOrderAccepted' && e.type !== 'perpOrderUpdated') continue;
    if (orderId === undefined && e.type === 'perpOrderAccepted' && found === undefined) found = e.order;
    else if (e.order.orderId === (orderId ?? found?.orderId)) found = e.order;
  }
  return found;
}

type PerpPlace = Omit<Extract<Command, { type: 'perpPlaceOrder' }>, 'ts'>;

/** Builds the service over the engine port (state and commands) and the database (history). */
export function createPerpService(deps: { db: Db; host: EnginePort }): PerpService {
  const { host } = deps;
  const engine = host.engine;
  const repo = createPerpRepository(deps.db);

  /** Waits for the projector (read-your-writes), but never longer than PROJECTION_WAIT_MS. */
  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected(), new Promise<void>((resolve) => (timer = setTimeout(resolve, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }

  const scalesCache = new Map<string, PerpScales>();
  function scalesOfMarket(m: PerpMarketConfig): PerpScales {
    let s = scalesCache.get(m.symbol);
    if (!s || s.market !== m) {
      s = perpScales(m, engine.asset(m.quote)?.scale);
      scalesCache.set(m.symbol, s);
    }
    return s;
  }
  /** The scales of a listed perpetual market (AppError market_not_found, field symbol). */
  function scalesOf(symbol: string): PerpScales {
    const m = engine.perpMarket(symbol);
    if (!m) throw new AppError('market_not_found', 400, 'symbol');
    return scalesOfMarket(m);
  }
  function markOf(symbol: string): bigint | null {
    return engine.perpMarkState(symbol)?.markPrice ?? null;
  }
  function settleAsset(): string {
    return engine.perpMarkets()[0]?.quote ?? DEFAULT_SETTLE;
  }

  function orderView(o: PerpOrderView): ContractOrder {
    return toContractOrder(o, scalesOf(o.symbol), markOf(o.symbol));
  }

  /** Every open position of the user with its scales and figures at the mark. */
  function figuresOf(userId: string): Array<{ p: PositionView; s: PerpScales; f: PositionFigures }> {
    return engine.positions(userId).map((p) => {
      const s = scalesOf(p.symbol);
      return { p, s, f: positionFigures(p, s, markOf(p.symbol)) };
    });
  }

  function positionsOf(userId: string, symbol?: string): ContractPosition[] {
    const all = figuresOf(userId);
    const acc = all.length > 0 ? engine.perpAccount(userId) : undefined;
    const out: ContractPosition[] = [];
    for (const x of all) {
      if (symbol !== undefined && x.p.symbol !== symbol) continue;
      if (x.p.marginMode === 'ISOLATED') {
        out.push(toContractPosition(x.p, x.s, x.f, x.p.margin, isolatedRiskPpm(x.p.margin, x.f)));
        continue;
      }
      // Cross: the cross wallet less the other cross positions' maintenance margin plus their unrealized PnL.
      let wallet = acc?.crossWalletBalance ?? 0n;
      for (const o of all) {
        if (o === x || o.p.marginMode !== 'CROSS') continue;
        wallet += o.f.upnl - o.f.maint;
      }
      out.push(toContractPosition(x.p, x.s, x.f, wallet, acc?.riskLevelPpm ?? 0));
    }
    return out;
  }

  function positionOf(userId: string, symbol: string): ContractPosition {
    const p = positionsOf(userId, symbol)[0];
    if (!p) throw new AppError('no_position', 400, 'symbol');
    return p;
  }

  function settingsOf(userId: string, symbol: string): ContractSettings {
    const s = scalesOf(symbol);
    const m = s.market;
    const st = engine.perpSettings(userId, symbol);
    const money = (v: bigint) => formatDecimal(v, s.scale);
    return {
      symbol,
      leverage: st.leverage,
      marginMode: st.marginMode,
      maxLeverage: m.brackets[0]?.maxLeverage ?? 1,
      maxNotional: money(maxNotionalFor(s.tiers, st.leverage)),
      brackets: s.tiers.map((t) => ({
        notionalFloor: money(t.notionalFloor),
        notionalCap: money(t.notionalCap),
        maxLeverage: t.maxLeverage,
        maintMarginRate: ppmPercent4(t.maintMarginPpm),
      })),
      makerFeeRate: ppmPercent4(m.makerFeePpm),
      takerFeeRate: ppmPercent4(m.takerFeePpm),
      lotNotional: plainDecimal(m.lotNotional, s.scale).replace(/,/g, ''),
      priceDecimals: m.priceDecimals,
      qtyDecimals: m.qtyDecimals,
      tickSize: formatDecimal(m.tickSize, m.priceDecimals),
      stepSize: formatDecimal(m.stepSize, m.qtyDecimals),
      minQty: formatDecimal(m.minQty, m.qtyDecimals),
      priceBand: plainDecimal(BigInt(m.priceBandPpm), 4).replace(/,/g, ''),
      locked: engine.position(userId, symbol) !== undefined || engine.perpOpenOrders(userId, symbol).length > 0,
    };
  }

  /** Submits a command; throws the rejection. */
  async function submit(cmd: CommandInput, m?: PerpMarketConfig): Promise<CommandResult> {
    const r = await host.submit(cmd);
    if (r.code !== 'ok') throw rejection(r.code, m);
    return r;
  }

  /** A price field (TP, SL, limit price): '' or absent -> null, else the exact price units. */
  function priceOf(v: string | undefined, s: PerpScales, field: string): bigint | null {
    if (v === undefined || v === '') return null;
    const m = s.market;
    return parseUnits(v, m.priceDecimals, field, () => ({ step: plainDecimal(m.tickSize, m.priceDecimals), coin: m.quote }));
  }

  /** The order placed by a command: its last state in the events, or the retained/projected first order of a retry. */
  async function placedOrder(r: CommandResult): Promise<PerpOrderView> {
    let order = r.perpOrder ?? orderFromEvents(r);
    if (!order && r.duplicateOfOrderId !== undefined) {
      order = engine.perpOrder(r.duplicateOfOrderId);
      if (!order) {
        await caughtUp();
        const row = await repo.order(r.duplicateOfOrderId);
        order = row ? rowToPerpOrderView(row) : undefined;
      }
    }
    if (!order) throw new Error('perpPlaceOrder accepted without an order');
    return order;
  }

  /**
   * The values of leverage_margin_insufficient (a leverage decrease the contract account cannot hold the margin of):
   * the leverage, the extra margin it holds and the max withdraw amount, formatted; null without a position.
   */
  function leverageRefusal(userId: string, symbol: string, leverage: number, scale: number, coin: string): Record<string, string> | null {
    const mv = engine.perpLeverageMarginMove(userId, symbol, leverage);
    const need = mv === undefined ? 0n : mv.position + mv.orders;
    if (need <= 0n) return null;
    return { leverage: String(leverage), need: formatDecimal(need, scale), max: formatDecimal(engine.perpAccount(userId).maxWithdrawAmount, scale), coin };
  }

  function page(q: { page?: number; pageSize?: number }): { page: number; pageSize: number; offset: number } {
    const p = q.page ?? 1;
    const size = q.pageSize ?? 20;
    return { page: p, pageSize: size, offset: (p - 1) * size };
  }

  return {
    account(userId) {
      const coin = settleAsset();
      const scale = engine.asset(coin)?.scale ?? 8;
      const ledger = engine.balance(userId, 'CONTRACT', coin);
      const positions = figuresOf(userId).map((x) => ({ margin: x.p.margin, upnl: x.f.upnl }));
      return toContractAccount(coin, scale, engine.perpAccount(userId), ledger, positions);
    },

    positions(userId, symbol) {
      if (symbol !== undefined) scalesOf(symbol);
      return positionsOf(userId, symbol);
    },

    settings: settingsOf,

    async setLeverage(userId, body) {
      const s = scalesOf(body.symbol);
      const r = await host.submit({ type: 'perpSetLeverage', userId, symbol: body.symbol, leverage: body.leverage });
      if (r.code === 'insufficient_balance') {
        const e = leverageRefusal(userId, body.symbol, body.leverage, s.scale, s.market.quote);
        if (e !== null) throw new AppError('leverage_margin_insufficient', 400, 'leverage', e);
      }
      if (r.code !== 'ok') throw rejection(r.code, s.market);
      return settingsOf(userId, body.symbol);
    },

    leveragePreview(userId, q, lang) {
      const s = scalesOf(q.symbol);
      const money = (v: bigint) => formatDecimal(v, s.scale);
      const pos = engine.position(userId, q.symbol);
      const maxOut = engine.perpAccount(userId).maxWithdrawAmount;
      const mode = pos?.marginMode ?? engine.perpSettings(userId, q.symbol).marginMode;
      const mv = engine.perpLeverageMarginMove(userId, q.symbol, q.leverage) ?? { position: 0n, orders: 0n };
      const move = mv.position;
      let code = '';
      let params: Record<string, string> | undefined;
      if (q.leverage > (s.market.brackets[0]?.maxLeverage ?? 0)) code = 'leverage_invalid';
      else if (pos !== undefined) {
        const mark = engine.perpMarkState(q.symbol)?.markPrice ?? pos.entryPrice;
        if (pos.size * mark * s.mult > maxNotionalFor(s.tiers, q.leverage)) code = 'leverage_too_high';
      }
      if (code === '' && mv.position + mv.orders > maxOut) {
        code = 'leverage_margin_insufficient';
        params = leverageRefusal(userId, q.symbol, q.leverage, s.scale, s.market.quote) ?? undefined;
      }
      const margin = pos?.margin ?? 0n;
      return {
        symbol: q.symbol,
        leverage: q.leverage,
        hasPosition: pos !== undefined,
        marginMode: mode,
        margin: money(margin),
        marginAfter: money(margin + move),
        marginChange: money(move),
        maxWithdrawAmount: money(maxOut),
        allowed: code === '',
        code,
        message: code === '' ? '' : errorText(code, lang, undefined, params),
      };
    },

    async setMarginMode(userId, body) {
      const s = scalesOf(body.symbol);
      await submit({ type: 'perpSetMarginMode', userId, symbol: body.symbol, marginMode: body.marginMode }, s.market);
      return settingsOf(userId, body.symbol);
    },

    async adjustMargin(userId, body) {
      const s = scalesOf(body.symbol);
      const neg = body.amount.startsWith('-');
      const abs = parseUnits(neg ? body.amount.slice(1) : body.amount, s.scale, 'amount', () => ({ step: plainDecimal(1n, s.scale), coin: s.market.quote }));
      if (abs === 0n) throw new AppError('amount_invalid', 400, 'amount');
      if (!engine.position(userId, body.symbol)) throw new AppError('no_position', 400, 'symbol');
      const r = await host.submit({ type: 'perpAdjustMargin', userId, symbol: body.symbol, amount: neg ? -abs : abs });
      if (r.code === 'insufficient_balance' && neg) {
        // Removing more than the position can give back is not a balance problem: say how much can be removed.
        const max = positionOf(userId, body.symbol).maxRemovableMargin;
        throw new AppError('margin_remove_exceeded', 400, 'amount', max !== '' ? { max, coin: s.market.quote } : undefined);
      }
      if (r.code !== 'ok') throw rejection(r.code, s.market);
      return positionOf(userId, body.symbol);
    },

    async setTpSl(userId, body) {
      const s = scalesOf(body.symbol);
      const p = engine.position(userId, body.symbol);
      if (!p) throw new AppError('no_position', 400, 'symbol');
      const takeProfit = body.takeProfit === undefined ? p.takeProfit : priceOf(body.takeProfit, s, 'takeProfit');
      const stopLoss = body.stopLoss === undefined ? p.stopLoss : priceOf(body.stopLoss, s, 'stopLoss');
      await submit({ type: 'perpSetTpSl', userId, symbol: body.symbol, takeProfit, stopLoss }, s.market);
      return positionOf(userId, body.symbol);
    },

    async placeOrder(userId, body, opts) {
      const s = scalesOf(body.symbol);
      const m = s.market;
      const isLimit = body.orderType === 'LIMIT';
      const price = isLimit ? priceOf(body.price, s, 'price') : null;
      if (isLimit && price === null) throw new AppError('price_required', 400, 'price');
      const hasQty = body.quantity !== undefined && body.quantity !== '';
      if (hasQty && body.lots !== undefined) throw new AppError('invalid_order', 400, 'quantity');
      if (!hasQty && body.lots === undefined) throw new AppError('lots_required', 400, 'lots');
      let quantity: bigint;
      if (body.lots !== undefined) {
        // A lot is 1,000 USDT of face value at the order's price (MARKET: at the mark price).
        const ref = price ?? markOf(m.symbol);
        if (ref === null) throw new AppError('mark_price_unavailable', 400);
        quantity = lotsToQty(BigInt(body.lots), ref, m.lotNotional, m.stepSize, s.mult);
      } else {
        quantity = parseUnits(body.quantity!, m.qtyDecimals, 'quantity', () => ({ step: plainDecimal(m.stepSize, m.qtyDecimals), coin: m.base }));
      }
      if (quantity === 0n)
        throw new AppError('quantity_below_minimum', 400, body.lots !== undefined ? 'lots' : 'quantity', perpRejectParams('quantity_below_minimum', m));
      const takeProfit = priceOf(body.takeProfit, s, 'takeProfit');
      const stopLoss = priceOf(body.stopLoss, s, 'stopLoss');
      const cmd: PerpPlace = {
        type: 'perpPlaceOrder',
        userId,
        symbol: m.symbol,
        side: body.side,
        orderType: body.orderType,
        timeInForce: isLimit ? (opts?.timeInForce ?? 'GTC') : 'IOC',
        quantity,
        ...(price !== null ? { price } : {}),
        ...(body.reduceOnly ? { reduceOnly: true } : {}),
        ...(body.clientOrderId ? { clientOrderId: body.clientOrderId } : {}),
        ...(body.lots !== undefined ? { lots: body.lots } : {}),
        ...(takeProfit !== null ? { takeProfit } : {}),
        ...(stopLoss !== null ? { stopLoss } : {}),
      };
      const r = await submit(cmd, m);
      return orderView(await placedOrder(r));
    },

    async placeConditional(userId, input) {
      const s = scalesOf(input.symbol);
      const m = s.market;
      const isLimit = input.condition === 'STOP' || input.condition === 'TAKE_PROFIT';
      const price = isLimit ? priceOf(input.price, s, 'price') : null;
      if (isLimit && price === null) throw new AppError('price_required', 400, 'price');
      const quantity =
        input.quantity === undefined || input.quantity === ''
          ? 0n
          : parseUnits(input.quantity, m.qtyDecimals, 'quantity', () => ({ step: plainDecimal(m.stepSize, m.qtyDecimals), coin: m.base }));
      const stopPrice = priceOf(input.stopPrice, s, 'stopPrice');
      const activationPrice = priceOf(input.activationPrice, s, 'activationPrice');
      const cmd: PerpPlace = {
        type: 'perpPlaceOrder',
        userId,
        symbol: m.symbol,
        side: input.side,
        orderType: isLimit ? 'LIMIT' : 'MARKET',
        timeInForce: isLimit ? (input.timeInForce ?? 'GTC') : 'IOC',
        quantity,
        ...(price !== null ? { price } : {}),
        ...(input.reduceOnly ? { reduceOnly: true } : {}),
        ...(input.clientOrderId ? { clientOrderId: input.clientOrderId } : {}),
        condition: input.condition,
        ...(stopPrice !== null ? { stopPrice } : {}),
        ...(input.workingType ? { workingType: input.workingType } : {}),
        ...(input.priceProtect ? { priceProtect: true } : {}),
        ...(input.closePosition ? { closePosition: true } : {}),
        ...(input.callbackRateBps !== undefined ? { callbackRateBps: input.callbackRateBps } : {}),
        ...(activationPrice !== null ? { activationPrice } : {}),
      };
      return placedOrder(await submit(cmd, m));
    },

    async closePosition(userId, body) {
      const s = scalesOf(body.symbol);
      const m = s.market;
      const p = engine.position(userId, body.symbol);
      if (!p) throw new AppError('no_position', 400, 'symbol');
      let quantity = p.size;
      if (body.lots !== undefined) {
        // Close lots of the position's hands (its entry notional in lots): as many as it has (or more) close it all.
        const q = closeLotsQty(p.size, positionLots(p.cost, m.lotNotional), BigInt(body.lots), m.stepSize);
        if (q === 0n) throw new AppError('quantity_below_minimum', 400, 'lots', perpRejectParams('quantity_below_minimum', m));
        quantity = q;
      }
      const r = await submit(
        {
          type: 'perpPlaceOrder',
          userId,
          symbol: m.symbol,
          side: p.side === 'LONG' ? 'SELL' : 'BUY',
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity,
          reduceOnly: true,
          ...(body.lots !== undefined ? { lots: body.lots } : {}),
        },
        m,
      );
      return orderView(await placedOrder(r));
    },

    async cancelOrder(userId, body) {
      const id = canonicalOrderId(body.orderId);
      if (id === null) throw new AppError('order_not_found', 404);
      const r = await submit({ type: 'perpCancelOrder', userId, orderId: id });
      const order = r.perpOrder ?? orderFromEvents(r, id) ?? engine.perpOrder(id);
      if (!order) throw new Error('perpCancelOrder accepted without an order');
      return orderView(order);
    },

    async amendOrder(userId, input) {
      const id = canonicalOrderId(input.orderId);
      const o = id === null ? undefined : engine.perpOrder(id);
      if (id === null || o === undefined || o.userId !== userId) throw new AppError('order_not_found', 404);
      const s = scalesOf(o.symbol);
      const m = s.market;
      const price = priceOf(input.price, s, 'price');
      if (price === null) throw new AppError('price_required', 400, 'price');
      const quantity = parseUnits(input.quantity, m.qtyDecimals, 'quantity', () => ({ step: plainDecimal(m.stepSize, m.qtyDecimals), coin: m.base }));
      const r = await submit({ type: 'perpAmendOrder', userId, orderId: id, price, quantity }, m);
      const order = r.perpOrder ?? engine.perpOrder(id);
      if (!order) throw new Error('perpAmendOrder accepted without an order');
      return order;
    },

    async orders(userId, query) {
      const { page: p, pageSize, offset } = page(query);
      if (query.symbol !== undefined) scalesOf(query.symbol);
      if (query.tab === 'unmatched') {
        // A pending conditional order waits unbooked (getConditionalOrders lists it with its trigger); once triggered
        // it is the plain order it became and is listed here.
        const open = engine
          .perpOpenOrders(userId, query.symbol)
          .filter((o) => o.condition === undefined || o.condition.workingTs !== null)
          .reverse();
        return { records: open.slice(offset, offset + pageSize).map(orderView), total: open.length, page: p, pageSize };
      }
      await caughtUp();
      const { rows, total } = await repo.orders(userId, query.tab, query.symbol, offset, pageSize);
      // An order still open is shown in its current state (the engine's), ended ones as projected.
      const records = rows.map((r) => {
        const live = r.closed ? undefined : engine.perpOrder(r.id.toString());
        return orderView(live ?? rowToPerpOrderView(r));
      });
      return { records, total, page: p, pageSize };
    },

    async orderDetail(userId, orderId) {
      const id = canonicalOrderId(orderId);
      if (id === null) throw new AppError('order_not_found', 404);
      let order = engine.perpOrder(id);
      await caughtUp();
      if (!order) {
        const row = await repo.order(id);
        order = row ? rowToPerpOrderView(row) : undefined;
      }
      if (!order || order.userId !== userId) throw new AppError('order_not_found', 404);
      const s = scalesOf(order.symbol);
      const fills = await repo.fills(id);
      return { ...toContractOrder(order, s, markOf(order.symbol)), fills: fills.map((t) => toContractFill(t, id, s)) };
    },

    async fundingRecords(userId, query) {
      const { page: p, pageSize, offset } = page(query);
      if (query.symbol !== undefined) scalesOf(query.symbol);
      await caughtUp();
      const { rows, total } = await repo.funding(userId, query.symbol, offset, pageSize);
      const scale = engine.asset(settleAsset())?.scale ?? 8;
      return { records: rows.map((r) => toFundingRecord(r, scale)), total, page: p, pageSize };
    },

    async liquidations(userId, query) {
      const { page: p, pageSize, offset } = page(query);
      if (query.symbol !== undefined) scalesOf(query.symbol);
      await caughtUp();
      const { rows, total } = await repo.liquidations(userId, query.symbol, offset, pageSize);
      return {
        records: rows.map((r) => {
          const m = engine.perpMarket(r.symbol);
          return toLiquidation(r, m ? scalesOfMarket(m) : undefined);
        }),
        total,
        page: p,
        pageSize,
      };
    },
  };
}
