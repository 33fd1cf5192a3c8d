/**
 * The user data stream events from the engine's events of one command, the same events the app's private
 * WebSocket channels are built from (gateways/ws/ws.hub.ts, domains/perp/perp.push.ts):
 * - spot (https://developers.binance.com/docs/binance-spot-api-docs/user-data-stream): `executionReport` for each
 *   order change (NEW on acceptance, one TRADE per fill with that fill's quantity, price, commission and trade id,
 *   CANCELED / EXPIRED; a conditional order's type, stop price `P` and trailing delta `d`, and at its trigger a NEW,
 *   TRADE or EXPIRED report with its working time `W` once it is on the book), `outboundAccountPosition` with the SPOT balances the command changed, `balanceUpdate` for a
 *   transfer into or out of the spot account and a credited deposit;
 * - USDT perpetuals (https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams):
 *   `ORDER_TRADE_UPDATE` likewise (a modified order, `perpAmendOrder`: one AMENDMENT report with its new price and
 *   quantity and its status unchanged, then a TRADE report per fill the modify caused, as Binance's "Event: Order
 *   Update" lists "AMENDMENT - Order Modified"), `ACCOUNT_UPDATE` with the CONTRACT wallet and the positions the command changed.
 * Each event is built once per user and command, only for users someone listens to (`wanted`), as JSON text.
 * Amounts are formatted from bigint units at the market's or asset's decimals.
 */
import type { Command, EngineApi, EngineEvent, OrderListView, OrderView, PerpOrderView, PositionView, TradeEvent } from '@exchange/core';
import { formatDecimal } from '@exchange/core';
import { positionFigures } from '../../domains/perp/perp.format';
import { toBinanceSymbol } from './binance.symbols';
import { binanceOrderType } from './spot.format';
import type { StreamMarket } from './streams.names';
import { avgPriceOf, perpScales } from '../../platform/shared/market-scales';

/** One event for one user's stream of one namespace. */
export interface UserEvent {
  userId: string;
  market: StreamMarket;
  json: string;
}

/** The engine reads the events need. */
export type UserEventEngine = Pick<EngineApi, 'market' | 'asset' | 'perpMarket' | 'perpMarkState' | 'perpAccount' | 'balance'>;

type PerpTrade = Extract<EngineEvent, { type: 'perpTrade' }>;

/** Binance's self-trade prevention mode of our spot orders (the engine expires the taker). */
const STP_MODE = 'EXPIRE_TAKER';

/** A spot or perpetual fill as the reports need it. */
interface Fill {
  tradeId: string;
  price: bigint;
  quantity: bigint;
  quote: bigint;
  fee: bigint;
  feeAsset: string;
  maker: boolean;
  realizedPnl: bigint;
}

/** Unreported fills per order id, in the order they happened. */
class Fills {
  private readonly byOrder = new Map<string, Fill[]>();
  add(orderId: string | null, f: Fill): void {
    if (orderId === null) return;
    let list = this.byOrder.get(orderId);
    if (!list) this.byOrder.set(orderId, (list = []));
    list.push(f);
  }
  has(orderId: string): boolean {
    return this.byOrder.has(orderId);
  }
  take(orderId: string): Fill[] {
    const list = this.byOrder.get(orderId);
    if (!list) return [];
    this.byOrder.delete(orderId);
    return list;
  }
}

/** One report per fill of `o` (its fills of this command, oldest first), then its end (CANCELED / EXPIRED) if any. */
function reportsOf(
  o: { filledQty: bigint; filledQuote: bigint; status: string },
  fills: Fill[],
): Array<{ x: string; X: string; fill: Fill | null; z: bigint; Z: bigint }> {
  let z = o.filledQty;
  let Z = o.filledQuote;
  for (const f of fills) {
    z -= f.quantity;
    Z -= f.quote;
  }
  const out: Array<{ x: string; X: string; fill: Fill | null; z: bigint; Z: bigint }> = [];
  fills.forEach((f, i) => {
    z += f.quantity;
    Z += f.quote;
    const last = i === fills.length - 1;
    out.push({ x: 'TRADE', X: last && o.status === 'FILLED' ? 'FILLED' : 'PARTIALLY_FILLED', fill: f, z, Z });
  });
  if (o.status === 'CANCELED' || o.status === 'EXPIRED') out.push({ x: o.status, X: o.status, fill: null, z, Z });
  else if (fills.length === 0) out.push({ x: o.status === 'NEW' ? 'NEW' : 'TRADE', X: o.status, fill: null, z, Z });
  return out;
}

/** The executionReport texts of a spot order change. */
function executionReports(engine: UserEventEngine, o: OrderView, fills: Fill[], ts: number, now: number, accepted: boolean): string[] {
  const m = engine.market(o.symbol);
  if (!m) return [];
  const quoteScale = engine.asset(m.quote)?.scale ?? 8;
  const scaleOf = (code: string) => engine.asset(code)?.scale ?? 8;
  const px = (v: bigint | null) => formatDecimal(v ?? 0n, m.priceDecimals);
  const qty = (v: bigint | null) => formatDecimal(v ?? 0n, m.qtyDecimals);
  const quote = (v: bigint | null) => formatDecimal(v ?? 0n, quoteScale);
  const reports = accepted ? [{ x: 'NEW', X: 'NEW', fill: null, z: 0n, Z: 0n }] : reportsOf(o, fills);
  return reports.map((r) => {
    const f = r.fill;
    // A conditional order is on the book only from its trigger (workingTs), as a LIMIT order.
    const t = o.trigger;
    const onBook = o.orderType === 'LIMIT' && (r.X === 'NEW' || r.X === 'PARTIALLY_FILLED') && (t === undefined || t.workingTs !== null);
    return JSON.stringify({
      e: 'executionReport',
      E: now,
      s: toBinanceSymbol(o.symbol),
      c: o.clientOrderId ?? '',
      S: o.side,
      o: binanceOrderType({ orderType: o.orderType, timeInForce: o.timeInForce, ...(t ? { stopType: t.kind } : {}) }),
      f: o.timeInForce === 'POST_ONLY' ? 'GTC' : o.timeInForce,
      q: qty(o.quantity),
      p: px(o.price),
      P: px(t?.stopPrice ?? 0n),
      ...(t?.trailingDelta != null ? { d: t.trailingDelta } : {}),
      F: qty(0n),
      g: o.orderListId !== undefined ? Number(o.orderListId) : -1,
      C: '',
      x: r.x,
      X: r.X,
      r: 'NONE',
      i: Number(o.orderId),
      l: qty(f ? f.quantity : 0n),
      z: qty(r.z),
      L: px(f ? f.price : 0n),
      n: f ? formatDecimal(f.fee, scaleOf(f.feeAsset)) : '0',
      N: f ? f.feeAsset : null,
      T: ts,
      t: f ? Number(f.tradeId) : -1,
      w: onBook,
      m: f ? f.maker : false,
      M: false,
      O: o.createdTs,
      Z: quote(r.Z),
      Y: quote(f ? f.quote : 0n),
      Q: quote(o.quoteAmount),
      ...(onBook ? { W: t?.workingTs ?? o.createdTs } : {}),
      V: STP_MODE,
    });
  });
}

/**
 * How a perpetual order's event is reported: `accepted` NEW; `amended` Binance's AMENDMENT (status and filled
 * quantity unchanged, the new terms); `updated` its fills of the command, then its end.
 */
type PerpReportKind = 'accepted' | 'amended' | 'updated';

/** The ORDER_TRADE_UPDATE texts of a perpetual order change. */
function orderTradeUpdates(engine: UserEventEngine, o: PerpOrderView, fills: Fill[], ts: number, now: number, kind: PerpReportKind): string[] {
  const m = engine.perpMarket(o.symbol);
  if (!m) return [];
  const s = perpScales(m, engine.asset(m.quote)?.scale);
  const px = (v: bigint | null) => formatDecimal(v ?? 0n, m.priceDecimals);
  const qty = (v: bigint) => formatDecimal(v, m.qtyDecimals);
  const money = (v: bigint) => formatDecimal(v, s.scale);
  const reports =
    kind === 'accepted'
      ? [{ x: 'NEW', X: 'NEW', fill: null, z: 0n, Z: 0n }]
      : kind === 'amended'
        ? [{ x: 'AMENDMENT', X: o.status, fill: null, z: o.filledQty, Z: o.filledQuote }]
        : reportsOf(o, fills);
  const plainType = o.trigger === 'TAKE_PROFIT' ? 'TAKE_PROFIT_MARKET' : o.trigger === 'STOP_LOSS' ? 'STOP_MARKET' : o.orderType;
  // A conditional order (Binance): `o` its type while pending and the LIMIT/MARKET it became once triggered, `ot` its
  // type throughout; `sp`, `wt`, `cp`, `pP` its condition; `AP` and `cr` only on a trailing order.
  const c = o.condition;
  const type = c && c.workingTs === null ? c.type : plainType;
  const origType = c ? c.type : plainType;
  const trailing = c?.type === 'TRAILING_STOP_MARKET' ? { AP: px(c.activationPrice), cr: formatDecimal(BigInt(c.callbackRateBps ?? 0), 2) } : {};
  const client = o.clientOrderId ?? (o.trigger === 'LIQUIDATION' ? `autoclose-${o.orderId}` : o.trigger === 'ADL' ? 'adl_autoclose' : '');
  return reports.map((r) => {
    const f = r.fill;
    const avg = avgPriceOf(r.Z, r.z, s.mult);
    return JSON.stringify({
      e: 'ORDER_TRADE_UPDATE',
      E: now,
      T: ts,
      o: {
        s: toBinanceSymbol(o.symbol),
        c: client,
        S: o.side,
        o: type,
        f: o.timeInForce === 'POST_ONLY' ? 'GTX' : o.timeInForce,
        q: qty(o.quantity),
        p: px(o.price),
        ap: px(avg),
        sp: px(c?.stopPrice ?? 0n),
        x: r.x,
        X: r.X,
        i: Number(o.orderId),
        l: qty(f ? f.quantity : 0n),
        z: qty(r.z),
        L: px(f ? f.price : 0n),
        N: m.quote,
        n: money(f ? f.fee : 0n),
        T: ts,
        t: f ? Number(f.tradeId) : 0,
        b: '0',
        a: '0',
        m: f ? f.maker : false,
        R: o.reduceOnly,
        wt: c?.workingType ?? 'CONTRACT_PRICE',
        ot: origType,
        ps: 'BOTH',
        cp: c?.closePosition ?? false,
        ...trailing,
        rp: money(f ? f.realizedPnl : 0n),
        pP: c?.priceProtect ?? false,
        si: 0,
        ss: 0,
        V: 'NONE',
        pm: 'NONE',
        gtd: 0,
      },
    });
  });
}

/** The ACCOUNT_UPDATE text of a user's contract wallet and changed positions. */
function accountUpdate(engine: UserEventEngine, userId: string, asset: string, positions: PositionView[], reason: string, ts: number, now: number): string {
  const scale = engine.asset(asset)?.scale ?? 8;
  const acc = engine.perpAccount(userId);
  const P = positions.flatMap((p) => {
    const m = engine.perpMarket(p.symbol);
    if (!m) return [];
    const s = perpScales(m, scale);
    const f = positionFigures(p, s, engine.perpMarkState(m.symbol)?.markPrice ?? null);
    const size = formatDecimal(p.side === 'SHORT' ? -p.size : p.size, m.qtyDecimals);
    const open = p.size > 0n;
    return [
      {
        s: toBinanceSymbol(p.symbol),
        pa: size,
        ep: formatDecimal(open ? p.entryPrice : 0n, m.priceDecimals),
        bep: formatDecimal(open ? p.entryPrice : 0n, m.priceDecimals),
        cr: formatDecimal(p.realizedPnl, scale),
        up: formatDecimal(open ? f.upnl : 0n, scale),
        mt: p.marginMode === 'ISOLATED' ? 'isolated' : 'cross',
        iw: formatDecimal(p.marginMode === 'ISOLATED' && open ? p.margin : 0n, scale),
        ps: 'BOTH',
      },
    ];
  });
  return JSON.stringify({
    e: 'ACCOUNT_UPDATE',
    E: now,
    T: ts,
    a: { m: reason, B: [{ a: asset, wb: formatDecimal(acc.walletBalance, scale), cw: formatDecimal(acc.crossWalletBalance, scale), bc: '0' }], P },
  });
}

/**
 * Binance's `listStatus` of an OCO list change (user-data-stream, "listStatus"): `g` the list id, `c` OCO, `l`/`L` the
 * list's status type and order status, `r` NONE, `C` the listClientOrderId, `T` its transaction time, `O` the legs in
 * orderId order with their client order ids (`clientIds`: those seen in the same command's order events).
 */
function listStatus(l: OrderListView, clientIds: ReadonlyMap<string, string>, now: number): string {
  const legs = [l.aboveOrderId, l.belowOrderId].sort((a, b) => Number(a) - Number(b));
  return JSON.stringify({
    e: 'listStatus',
    E: now,
    s: toBinanceSymbol(l.symbol),
    g: Number(l.orderListId),
    c: l.contingencyType,
    l: l.listStatusType,
    L: l.listOrderStatus,
    r: 'NONE',
    C: l.listClientOrderId ?? '',
    T: l.updatedTs,
    O: legs.map((id) => ({ s: toBinanceSymbol(l.symbol), i: Number(id), c: clientIds.get(id) ?? '' })),
  });
}

/**
 * The user events of one command's `events`, in Binance's order (order reports, then the account), for the users
 * `wanted` says someone listens to in that namespace. `now` is the event time E (ms). `cmd`, the command that made the
 * events, tells a modify (`perpAmendOrder`) apart: the engine's first update of the modified order (its new terms,
 * before it matches) is reported as AMENDMENT, its last as the fills the modify caused (nothing more without a fill
 * or an end); a modify that cancels the order is reported CANCELED alone. Without `cmd` every update is reported by
 * its fills and status.
 */
export function userEvents(
  engine: UserEventEngine,
  events: readonly EngineEvent[],
  wanted: (userId: string, market: StreamMarket) => boolean,
  now: number,
  cmd?: Command,
): UserEvent[] {
  const out: UserEvent[] = [];
  const spotFills = new Fills();
  /** Client order ids of the OCO legs seen in this command (a list's events follow its legs' in the same command). */
  const legClientIds = new Map<string, string>();
  const perpFills = new Fills();
  const spotBalances = new Map<string, Map<string, { f: bigint; l: bigint; scale: number }>>();
  const contractUsers = new Map<string, { asset: string; positions: Map<string, PositionView> }>();
  /** Users whose wallet or positions moved (a hold for an order moves neither: no ACCOUNT_UPDATE, as on Binance). */
  const moved = new Set<string>();
  let lastTs = 0;
  let reason = 'ORDER';
  /** The order a modify changed, until its AMENDMENT report is out (or the modify cancelled it). */
  const amendedId = cmd?.type === 'perpAmendOrder' ? cmd.orderId : null;
  let amendReported = false;
  const contractOf = (userId: string, asset: string) => {
    let c = contractUsers.get(userId);
    if (!c) contractUsers.set(userId, (c = { asset, positions: new Map() }));
    return c;
  };
  for (const e of events) {
    lastTs = e.ts;
    switch (e.type) {
      case 'orderAccepted':
        if (e.order.orderListId !== undefined) legClientIds.set(e.order.orderId, e.order.clientOrderId ?? '');
        if (wanted(e.order.userId, 'spot'))
          for (const json of executionReports(engine, e.order, [], e.ts, now, true)) out.push({ userId: e.order.userId, market: 'spot', json });
        break;
      case 'trade': {
        const t: TradeEvent = e;
        const common = { tradeId: t.tradeId, price: t.price, quantity: t.quantity, quote: t.quoteAmount, realizedPnl: 0n };
        if (wanted(t.makerUserId, 'spot')) spotFills.add(t.makerOrderId, { ...common, fee: t.makerFee, feeAsset: t.makerFeeAsset, maker: true });
        if (wanted(t.takerUserId, 'spot')) spotFills.add(t.takerOrderId, { ...common, fee: t.takerFee, feeAsset: t.takerFeeAsset, maker: false });
        break;
      }
      case 'orderListUpdated':
        if (wanted(e.orderList.userId, 'spot')) out.push({ userId: e.orderList.userId, market: 'spot', json: listStatus(e.orderList, legClientIds, now) });
        break;
      case 'orderUpdated':
        if (e.order.orderListId !== undefined) legClientIds.set(e.order.orderId, e.order.clientOrderId ?? '');
        if (wanted(e.order.userId, 'spot')) {
          for (const json of executionReports(engine, e.order, spotFills.take(e.order.orderId), e.ts, now, false))
            out.push({ userId: e.order.userId, market: 'spot', json });
        }
        break;
      case 'balanceChanged':
        if (e.account === 'SPOT' && wanted(e.owner, 'spot')) {
          let b = spotBalances.get(e.owner);
          if (!b) spotBalances.set(e.owner, (b = new Map()));
          b.set(e.asset, { f: e.available, l: e.frozen, scale: engine.asset(e.asset)?.scale ?? 8 });
        } else if (e.account === 'CONTRACT' && wanted(e.owner, 'futures')) {
          contractOf(e.owner, e.asset);
        }
        break;
      case 'transferred':
        if ((e.from === 'SPOT' || e.to === 'SPOT') && e.from !== e.to && wanted(e.userId, 'spot')) {
          const d = formatDecimal(e.to === 'SPOT' ? e.amount : -e.amount, engine.asset(e.asset)?.scale ?? 8);
          out.push({ userId: e.userId, market: 'spot', json: JSON.stringify({ e: 'balanceUpdate', E: now, a: e.asset, d, T: e.ts }) });
        }
        if ((e.from === 'CONTRACT' || e.to === 'CONTRACT') && e.from !== e.to) {
          reason = e.to === 'CONTRACT' ? 'DEPOSIT' : 'WITHDRAW';
          moved.add(e.userId);
        }
        break;
      case 'depositCredited':
        if (wanted(e.deposit.userId, 'spot')) {
          const d = formatDecimal(e.deposit.amount, engine.asset(e.deposit.asset)?.scale ?? 8);
          out.push({ userId: e.deposit.userId, market: 'spot', json: JSON.stringify({ e: 'balanceUpdate', E: now, a: e.deposit.asset, d, T: e.ts }) });
        }
        break;
      case 'perpOrderAccepted':
        if (wanted(e.order.userId, 'futures'))
          for (const json of orderTradeUpdates(engine, e.order, [], e.ts, now, 'accepted')) out.push({ userId: e.order.userId, market: 'futures', json });
        break;
      case 'perpTrade': {
        const t: PerpTrade = e;
        const common = { tradeId: t.tradeId, price: t.price, quantity: t.quantity, quote: t.quoteAmount, feeAsset: '' };
        moved.add(t.makerUserId).add(t.takerUserId);
        if (wanted(t.makerUserId, 'futures')) perpFills.add(t.makerOrderId, { ...common, fee: t.makerFee, maker: true, realizedPnl: t.makerRealizedPnl });
        if (wanted(t.takerUserId, 'futures')) perpFills.add(t.takerOrderId, { ...common, fee: t.takerFee, maker: false, realizedPnl: t.takerRealizedPnl });
        break;
      }
      case 'perpOrderUpdated': {
        const o = e.order;
        const live = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
        let kind: PerpReportKind = 'updated';
        if (o.orderId === amendedId) {
          if (!amendReported) {
            amendReported = true;
            if (live) kind = 'amended';
          } else if (live && !perpFills.has(o.orderId)) break;
        }
        if (wanted(o.userId, 'futures')) {
          for (const json of orderTradeUpdates(engine, o, kind === 'amended' ? [] : perpFills.take(o.orderId), e.ts, now, kind))
            out.push({ userId: o.userId, market: 'futures', json });
        }
        break;
      }
      case 'positionChanged': {
        const p = e.position;
        if (!wanted(p.userId, 'futures')) break;
        const m = engine.perpMarket(p.symbol);
        if (m) contractOf(p.userId, m.quote).positions.set(p.symbol, p);
        moved.add(p.userId);
        break;
      }
      case 'fundingPayment':
        reason = 'FUNDING_FEE';
        moved.add(e.userId);
        break;
      case 'liquidated':
        moved.add(e.userId);
        break;
      default:
        break;
    }
  }
  for (const [userId, b] of spotBalances) {
    const B = [...b].map(([a, v]) => ({ a, f: formatDecimal(v.f, v.scale), l: formatDecimal(v.l, v.scale) }));
    out.push({ userId, market: 'spot', json: JSON.stringify({ e: 'outboundAccountPosition', E: now, u: lastTs, B }) });
  }
  for (const [userId, c] of contractUsers)
    if (moved.has(userId))
      out.push({ userId, market: 'futures', json: accountUpdate(engine, userId, c.asset, [...c.positions.values()], reason, lastTs, now) });
  return out;
}
