/**
 * The perpetual contracts' state machine: markets with their own books (the spot books: price-time
 * priority, fills at the maker's price), orders, one-way positions, cross and isolated margin, the mark price, funding,
 * take profit / stop loss and liquidation with the insurance fund and auto-deleveraging. The engine (engine.ts) owns
 * one and routes the perp* commands here; perp/types.ts documents each command, perp/math.ts the formulas.
 *
 * The state machine is one class built in layers, one concern per file, each calling only the layers below it:
 * perp-market.ts (orders, positions, one market's state, shared limits), perp-margin.ts (the state, accounts, payments,
 * the risk figures), perp-settlement.ts (fills into positions), perp-orders.ts, perp-settings.ts (markets, leverage,
 * margin mode, isolated margin, TP/SL), perp-adl.ts (auto-deleveraging), perp-liquidation.ts (mark ticks, triggers,
 * liquidation), perp-funding.ts, and this file: the command router, the reads and the snapshot.
 *
 * Money flows (all double-entry, in the settle asset):
 * - margin: a user's CONTRACT account, available <-> frozen (order holds and position margins are frozen);
 * - realized PnL: '@clearing' <-> the user (clearing + sum long cost - sum short cost = 0 after every command);
 * - fees: the user -> '@fee' (the trade event names the user); funding: payers -> '@funding' -> receivers;
 * - liquidation: the user's whole margin in scope -> '@clearing' at the takeover, the insurance fund ('@insurance',
 *   a SYSTEM account that also holds positions while it closes them) realizes the difference in the book.
 * A loss no margin can pay (a gap beyond bankruptcy) is paid by the insurance fund, so user buckets never go negative.
 *
 * Determinism: positions and orders are kept in Maps whose insertion order is part of the state (snapshots list them
 * in that order and restore re-inserts them so), so sweeps visit accounts in the same order after a restore.
 */
import type { Ledger } from '../ledger/ledger';
import type { BookKind } from '../spot/book';
import type { CommandResult, DepthLevel, Side } from '../types';
import { entryPriceOf, perpNotionalMult, toSafeInt } from './math';
import type {
  MarginMode,
  PerpAccountView,
  PerpCommand,
  PerpConditionView,
  PerpMarketConfig,
  PerpMarkState,
  PerpOrderView,
  PerpReads,
  PerpSettings,
  PerpTradeType,
  PerpTrigger,
  PositionSide,
  PositionView,
} from './types';
import { copyConfig, E6, INSURANCE, isInt, type PerpHost, PerpMarket, PerpOrder, reject, seqOf } from './perp-market';
import { PerpFunding } from './perp-funding';

export type { PerpHost } from './perp-market';
export { PERP_REJECT_CODES, type PerpRejectCode } from './perp-market';

/** The command types the perpetuals handle (the engine routes them here; `PerpCommand` in types.ts is their union). */
export const PERP_COMMANDS = [
  'addPerpMarket',
  'perpPlaceOrder',
  'perpCancelOrder',
  'perpAmendOrder',
  'perpSetLeverage',
  'perpSetMarginMode',
  'perpAdjustMargin',
  'perpSetTpSl',
  'perpMarkPrice',
  'perpFunding',
  'fundInsurance',
] as const satisfies readonly PerpCommand['type'][];

/** The perpetual markets' state (see the file comment): the command router, the reads and the snapshot. */
export class PerpState extends PerpFunding implements PerpReads {
  /** Apply one perpetual command (the engine started the command: events, ledger touch list). */
  execute(cmd: PerpCommand, host: PerpHost): CommandResult {
    this.host = host;
    this.ts = cmd.ts;
    this.changed = new Map();
    this.depth = new Map();
    // the prices before the command: conditional orders are checked in the markets whose mark or last price it moves
    const before = [...this.markets.values()].map((m) => [m.markPrice, m.lastPrice]);
    let r: CommandResult;
    switch (cmd.type) {
      case 'addPerpMarket':
        r = this.addMarket(cmd);
        break;
      case 'perpPlaceOrder':
        r = this.place(cmd);
        break;
      case 'perpCancelOrder':
        r = this.cancel(cmd);
        break;
      case 'perpAmendOrder':
        r = this.amend(cmd);
        break;
      case 'perpSetLeverage':
        r = this.setLeverage(cmd);
        break;
      case 'perpSetMarginMode':
        r = this.setMarginMode(cmd);
        break;
      case 'perpAdjustMargin':
        r = this.adjustMargin(cmd);
        break;
      case 'perpSetTpSl':
        r = this.setTpSl(cmd);
        break;
      case 'perpMarkPrice':
        r = this.markTick(cmd);
        break;
      case 'perpFunding':
        r = this.funding(cmd);
        break;
      case 'fundInsurance':
        r = this.fundInsurance(cmd);
        break;
      default:
        r = reject('invalid_order');
    }
    if (r.code === 'ok') {
      let i = 0;
      for (const m of this.markets.values()) {
        const [mark, last] = before[i++] ?? [null, null];
        if (m.markPrice !== mark || m.lastPrice !== last) this.checkConditional(m);
      }
      this.flush();
    }
    return r;
  }
  /** Emits the command's depth and position changes (after its own events). */
  protected flush(): void {
    const ev = this.host.events;
    for (const d of this.depth.values()) ev.push({ type: 'perpDepthChanged', ts: this.ts, ...d });
    for (const p of this.changed.values()) ev.push({ type: 'positionChanged', ts: this.ts, position: this.view(p) });
  }
  perpMarket(symbol: string): PerpMarketConfig | undefined {
    const m = this.markets.get(symbol);
    return m === undefined ? undefined : copyConfig(m.cfg);
  }
  /** True when some perpetual market settles in `asset` (its CONTRACT balance then backs margin). */
  settlesIn(asset: string): boolean {
    for (const m of this.markets.values()) if (m.cfg.quote === asset) return true;
    return false;
  }
  /** The settle asset of a perpetual market, or undefined for an unknown market (rebate accrual, engine.ts). */
  settleAssetOf(symbol: string): string | undefined {
    return this.markets.get(symbol)?.cfg.quote;
  }
  perpMarkets(): PerpMarketConfig[] {
    return [...this.markets.values()].map((m) => copyConfig(m.cfg));
  }
  perpMarkState(symbol: string): PerpMarkState | undefined {
    const m = this.markets.get(symbol);
    return m === undefined ? undefined : this.markState(m);
  }
  perpOrder(orderId: string): PerpOrderView | undefined {
    return this.orders.get(seqOf(orderId))?.perpView();
  }
  perpOpenOrders(userId: string, symbol?: string): PerpOrderView[] {
    const out: PerpOrderView[] = [];
    for (const o of this.open.get(userId)?.values() ?? []) if (symbol === undefined || o.symbol === symbol) out.push(o.perpView());
    return out;
  }
  perpDepth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const m = this.markets.get(symbol);
    if (m === undefined) return { bids: [], asks: [] };
    return { bids: m.book.depth('BUY', levels), asks: m.book.depth('SELL', levels) };
  }
  position(userId: string, symbol: string): PositionView | undefined {
    const p = this.markets.get(symbol)?.positions.get(userId);
    return p === undefined ? undefined : this.view(p);
  }
  positions(userId: string): PositionView[] {
    const out: PositionView[] = [];
    for (const m of this.markets.values()) {
      const p = m.positions.get(userId);
      if (p !== undefined) out.push(this.view(p));
    }
    return out;
  }
  perpSettings(userId: string, symbol: string): PerpSettings {
    return { ...this.settingsOf(userId, symbol) };
  }
  perpAccount(userId: string): PerpAccountView {
    const s = this.anySettle();
    const b = s === null ? { available: 0n, frozen: 0n } : this.ledger.balance(userId, 'CONTRACT', s);
    const f = this.crossFigures(userId);
    const bal = f.wallet + f.upnl;
    const mm = (f.mmE6 + E6 - 1n) / E6;
    const avail = b.available + (f.upnl < 0n ? f.upnl : 0n);
    const spend = s === null ? 0n : this.spendable(userId, s);
    return {
      walletBalance: b.available + b.frozen,
      crossWalletBalance: f.wallet,
      crossUnrealizedPnl: f.upnl,
      crossMarginBalance: bal,
      crossMaintMargin: mm,
      availableBalance: avail > 0n ? avail : 0n,
      maxWithdrawAmount: spend,
      riskLevelPpm: f.positions === 0 ? 0 : bal <= 0n ? 1_000_000_000 : toSafeInt(f.mmE6 / bal < 1_000_000_000n ? f.mmE6 / bal : 1_000_000_000n),
    };
  }
  perpLeverageMarginMove(userId: string, symbol: string, leverage: number): { position: bigint; orders: bigint } | undefined {
    const m = this.markets.get(symbol);
    if (m === undefined || !isInt(leverage, 1, 125)) return undefined;
    const p = m.positions.get(userId);
    let orders = 0n;
    for (const o of this.open.get(userId)?.values() ?? [])
      if (o.symbol === symbol && !o.reduceOnly && !o.isPendingAlgo && o.leverage !== leverage) orders += this.orderHoldMove(m, o, leverage);
    return { position: p === undefined ? 0n : this.leverageMarginMove(m, p, leverage), orders };
  }
  positionCount(symbol: string): number {
    const m = this.markets.get(symbol);
    if (m === undefined) return 0;
    return m.positions.size - (m.positions.has(INSURANCE) ? 1 : 0);
  }
  openInterest(symbol: string): bigint {
    const m = this.markets.get(symbol);
    if (m === undefined) return 0n;
    let total = 0n;
    for (const p of m.positions.values()) if (p.side === 'LONG') total += p.size;
    return total;
  }
  /** JSON-serializable state (bigints as strings), in the Maps' orders. */
  rows(): PerpSnapshot {
    const s = (v: bigint | null): string | null => (v === null ? null : v.toString());
    const orderRow = (o: PerpOrder): unknown[] => [
      o.seq,
      o.clientOrderId,
      o.userId,
      o.symbol,
      o.side,
      o.orderType,
      o.timeInForce,
      s(o.price),
      s(o.quantity),
      o.createdTs,
      o.updatedTs,
      o.status,
      o.filledQty.toString(),
      o.filledQuote.toString(),
      o.fee.toString(),
      o.remaining.toString(),
      o.hold.toString(),
      o.lots,
      o.reduceOnly,
      o.tradeType,
      o.trigger,
      o.leverage,
      o.marginMode,
      o.realizedPnl.toString(),
      s(o.takeProfit),
      s(o.stopLoss),
      o.algo === null ? null : algoRow(o.algo),
      // appended only once an order was amended, so the rows (and the state hash) of every other order stay as they were
      ...(o.amendCount > 0 ? [o.amendCount] : []),
    ];
    const open: unknown[] = [];
    for (const o of [...this.orders.values()].sort((x, y) => x.seq - y.seq)) if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') open.push(orderRow(o));
    return {
      markets: [...this.markets.values()].map((m) => ({
        config: configRow(m.cfg),
        lastPrice: s(m.lastPrice),
        indexPrice: s(m.indexPrice),
        markPrice: s(m.markPrice),
        markTs: m.markTs,
        // only while paused, so the snapshot (and state hash) of a market never paused is what it was before the field
        ...(m.indexStaleSince !== null ? { indexStaleSince: m.indexStaleSince } : {}),
        basis: m.basis.map(String),
        basisHead: m.basisHead,
        premiumWeighted: m.premiumWeighted.toString(),
        premiumWeights: m.premiumWeights.toString(),
        premiumCount: m.premiumCount,
        lastFundingRateE8: m.lastFundingRateE8,
        lastFundingTs: m.lastFundingTs,
        positions: [...m.positions.values()].map((p) => [
          p.userId,
          p.side,
          p.size.toString(),
          p.cost.toString(),
          p.margin.toString(),
          p.mode,
          p.leverage,
          p.realizedPnl.toString(),
          p.funding.toString(),
          p.fees.toString(),
          s(p.tp),
          s(p.sl),
          p.openTs,
          p.updatedTs,
        ]),
      })),
      openOrders: open,
      closedOrders: this.closed.map(orderRow),
      settings: [...this.settings.entries()].flatMap(([u, mm]) => [...mm.entries()].map(([sym, st]) => [u, sym, st.leverage, st.marginMode])),
      userMarkets: [...this.userMarkets.entries()].map(([u, set]) => [u, [...set]]),
    };
  }
  /** Rebuilds the state from `rows()` (the ledger is restored by the engine). */
  static restore(d: PerpSnapshot, bookKind: BookKind, scaleOf: (code: string) => number | undefined, ledger: Ledger): PerpState {
    const st = new PerpState(bookKind, ledger);
    const big = (v: unknown): bigint | null => (v === null ? null : BigInt(v as string));
    for (const r of d.markets) {
      const cfg = parseConfig(r.config);
      const m = new PerpMarket(cfg, perpNotionalMult(scaleOf(cfg.quote) as number, cfg.priceDecimals, cfg.qtyDecimals), bookKind);
      m.lastPrice = big(r.lastPrice);
      m.indexPrice = big(r.indexPrice);
      m.markPrice = big(r.markPrice);
      m.markTs = r.markTs;
      m.indexStaleSince = r.indexStaleSince ?? null;
      m.basis = r.basis.map((b) => BigInt(b));
      m.basisHead = r.basisHead;
      m.basisSum = m.basis.reduce((x, y) => x + y, 0n);
      m.premiumWeighted = BigInt(r.premiumWeighted);
      m.premiumWeights = BigInt(r.premiumWeights);
      m.premiumCount = r.premiumCount;
      m.lastFundingRateE8 = r.lastFundingRateE8;
      m.lastFundingTs = r.lastFundingTs;
      for (const p of r.positions) {
        const [userId, side, size, cost, margin, mode, leverage, rp, fu, fe, tp, sl, openTs, updatedTs] = p as [
          string,
          PositionSide,
          string,
          string,
          string,
          MarginMode,
          number,
          string,
          string,
          string,
          string | null,
          string | null,
          number,
          number,
        ];
        m.positions.set(userId, {
          userId,
          symbol: cfg.symbol,
          side,
          size: BigInt(size),
          cost: BigInt(cost),
          margin: BigInt(margin),
          mode,
          leverage,
          realizedPnl: BigInt(rp),
          funding: BigInt(fu),
          fees: BigInt(fe),
          tp: big(tp),
          sl: big(sl),
          openTs,
          updatedTs,
          entry: entryPriceOf(BigInt(cost), BigInt(size), m.mult),
        });
      }
      st.markets.set(cfg.symbol, m);
    }
    const toOrder = (r: unknown[]): PerpOrder => {
      const o = new PerpOrder(
        r[0] as number,
        `${r[0] as number}`,
        r[1] as string | null,
        r[2] as string,
        r[3] as string,
        r[4] as Side,
        r[5] as 'LIMIT' | 'MARKET',
        r[6] as PerpOrder['timeInForce'],
        big(r[7]),
        big(r[8]),
        null,
        (st.markets.get(r[3] as string) as PerpMarket).cfg.quote,
        'EXPIRE_TAKER',
        r[9] as number,
      );
      o.updatedTs = r[10] as number;
      o.status = r[11] as PerpOrder['status'];
      o.filledQty = BigInt(r[12] as string);
      o.filledQuote = BigInt(r[13] as string);
      o.fee = BigInt(r[14] as string);
      o.remaining = BigInt(r[15] as string);
      o.hold = BigInt(r[16] as string);
      o.lots = r[17] as number;
      o.reduceOnly = r[18] as boolean;
      o.tradeType = r[19] as PerpTradeType;
      o.trigger = r[20] as PerpTrigger | null;
      o.leverage = r[21] as number;
      o.marginMode = r[22] as MarginMode;
      o.realizedPnl = BigInt(r[23] as string);
      o.takeProfit = big(r[24]);
      o.stopLoss = big(r[25]);
      o.algo = r[26] === undefined || r[26] === null ? null : parseAlgoRow(r[26] as unknown[]);
      o.amendCount = typeof r[27] === 'number' ? r[27] : 0;
      st.orders.set(o.seq, o);
      if (o.clientOrderId !== null) {
        let cm = st.clientIds.get(o.userId);
        if (cm === undefined) st.clientIds.set(o.userId, (cm = new Map()));
        cm.set(o.clientOrderId, o);
      }
      return o;
    };
    for (const r of d.openOrders) {
      const o = toOrder(r as unknown[]);
      if (o.isPendingAlgo) (st.markets.get(o.symbol) as PerpMarket).pending.set(o.seq, o);
      else (st.markets.get(o.symbol) as PerpMarket).book.add(o);
      let om = st.open.get(o.userId);
      if (om === undefined) st.open.set(o.userId, (om = new Map()));
      om.set(o.seq, o);
    }
    for (const r of d.closedOrders) st.closed.push(toOrder(r as unknown[]));
    for (const [u, sym, lev, mode] of d.settings as [string, string, number, MarginMode][]) {
      let mm = st.settings.get(u);
      if (mm === undefined) st.settings.set(u, (mm = new Map()));
      mm.set(sym, { leverage: lev, marginMode: mode });
    }
    for (const [u, syms] of d.userMarkets as [string, string[]][]) st.userMarkets.set(u, new Set(syms));
    return st;
  }
}

/** The perpetual part of an engine snapshot. */
export interface PerpSnapshot {
  markets: {
    config: Record<string, unknown>;
    lastPrice: string | null;
    indexPrice: string | null;
    markPrice: string | null;
    markTs: number;
    /** set only while the market is paused on a stale index (absent in older snapshots: not paused) */
    indexStaleSince?: number;
    basis: string[];
    basisHead: number;
    premiumWeighted: string;
    premiumWeights: string;
    premiumCount: number;
    lastFundingRateE8: number;
    lastFundingTs: number;
    positions: unknown[];
  }[];
  openOrders: unknown[];
  closedOrders: unknown[];
  settings: unknown[];
  userMarkets: unknown[];
}

/**
 * A conditional order's condition as a snapshot row: [type, stopPrice, workingType, priceProtect, closePosition,
 * callbackRateBps, activationPrice, trailingRef, workingTs, expireReason] (bigints as decimal strings or null).
 */
function algoRow(a: PerpConditionView): unknown[] {
  const s = (v: bigint | null): string | null => (v === null ? null : v.toString());
  return [
    a.type,
    s(a.stopPrice),
    a.workingType,
    a.priceProtect,
    a.closePosition,
    a.callbackRateBps,
    s(a.activationPrice),
    s(a.trailingRef),
    a.workingTs,
    a.expireReason,
  ];
}
function parseAlgoRow(r: unknown[]): PerpConditionView {
  const big = (v: unknown): bigint | null => (v === null ? null : BigInt(v as string));
  return {
    type: r[0] as PerpConditionView['type'],
    stopPrice: big(r[1]),
    workingType: r[2] as PerpConditionView['workingType'],
    priceProtect: r[3] as boolean,
    closePosition: r[4] as boolean,
    callbackRateBps: r[5] as number | null,
    activationPrice: big(r[6]),
    trailingRef: big(r[7]),
    workingTs: r[8] as number | null,
    expireReason: r[9] as PerpConditionView['expireReason'],
  };
}

function configRow(c: PerpMarketConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) out[k] = typeof v === 'bigint' ? v.toString() : v;
  out.brackets = c.brackets.map((b) => ({ notionalCap: b.notionalCap.toString(), maxLeverage: b.maxLeverage, maintMarginPpm: b.maintMarginPpm }));
  return out;
}
function parseConfig(r: Record<string, unknown>): PerpMarketConfig {
  const b = (k: string): bigint => BigInt(r[k] as string);
  return {
    ...(r as unknown as PerpMarketConfig),
    tickSize: b('tickSize'),
    stepSize: b('stepSize'),
    minQty: b('minQty'),
    lotNotional: b('lotNotional'),
    impactNotional: b('impactNotional'),
    brackets: (r.brackets as { notionalCap: string; maxLeverage: number; maintMarginPpm: number }[]).map((x) => ({
      notionalCap: BigInt(x.notionalCap),
      maxLeverage: x.maxLeverage,
      maintMarginPpm: x.maintMarginPpm,
    })),
  };
}
