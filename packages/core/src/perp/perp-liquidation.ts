/**
 * Mark ticks, triggers and liquidation (the layer above perp-adl.ts): the mark price and the basis and premium samples,
 * take profit / stop loss fired at the mark, and liquidation: the user's scope is taken over at the bankruptcy price
 * by the insurance fund, whose immediate-or-cancel order never trades beyond it; the rest is auto-deleveraged.
 */
import type { CommandResult, Side } from '../types';
import { entryPriceOf, markPriceOf, premiumIndexE8, unrealizedPnl } from './math';
import type { PerpCommand, PerpTrigger, PositionSide } from './types';
import { cmpBig, INSURANCE, MAX_LIQUIDATION_ROUNDS, PerpMarket, PerpOrder, type Pos, reject } from './perp-market';
import { PerpAdl } from './perp-adl';

/** Mark ticks, TP/SL triggers and liquidation. */
export abstract class PerpLiquidation extends PerpAdl {
  protected markTick(cmd: Extract<PerpCommand, { type: 'perpMarkPrice' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    const index = cmd.indexPrice;
    const stale = cmd.indexStale ?? false;
    if (typeof stale !== 'boolean' || typeof index !== 'bigint' || index < 0n || (!stale && index === 0n)) return reject('invalid_config');
    if (stale) {
      // A stale index moves nothing: the mark holds, nothing is sampled, triggered or liquidated (Binance keeps the
      // last index when its sources fail); the market is paused from the first stale tick until a fresh one.
      if (m.indexStaleSince === null) m.indexStaleSince = cmd.ts;
      this.host.events.push({ type: 'markPrice', ts: cmd.ts, state: this.markState(m) });
      return { code: 'ok', events: this.host.events };
    }
    m.indexStaleSince = null;
    const c = m.cfg;
    m.indexPrice = index;
    // Basis sample: book mid - index (both sides quoted), into the moving average.
    const bid = m.book.bestPrice('BUY');
    const ask = m.book.bestPrice('SELL');
    if (bid !== null && ask !== null) {
      const b = (bid + ask) / 2n - index;
      if (m.basis.length < c.markBasisSamples) m.basis.push(b);
      else {
        m.basisSum -= m.basis[m.basisHead] as bigint;
        m.basis[m.basisHead] = b;
        m.basisHead = (m.basisHead + 1) % c.markBasisSamples;
      }
      m.basisSum += b;
    }
    // Premium sample: impact bid and ask against the index, weighted 1, 2, 3 ... within the funding interval.
    const impact = (side: Side): { quote: bigint; qty: bigint; full: boolean } => {
      let quote = 0n;
      let qty = 0n;
      for (let o = m.book.best(side); o !== undefined; o = m.book.after(o)) {
        const p = o.price as bigint;
        const lvl = p * o.remaining * m.mult;
        if (quote + lvl >= c.impactNotional) {
          // the part of this order that completes the impact notional (rounded up to a whole qty unit)
          const needQ = (c.impactNotional - quote + p * m.mult - 1n) / (p * m.mult);
          return { quote: quote + needQ * p * m.mult, qty: qty + needQ, full: true };
        }
        quote += lvl;
        qty += o.remaining;
      }
      return { quote, qty, full: false };
    };
    const ib = impact('BUY');
    const ia = impact('SELL');
    const prem = premiumIndexE8(index, ib.quote, ib.qty, ia.quote, ia.qty, m.mult, { bid: ib.full, ask: ia.full });
    m.premiumCount++;
    m.premiumWeighted += BigInt(m.premiumCount) * prem;
    m.premiumWeights += BigInt(m.premiumCount);
    const next = this.nextFunding(m);
    m.markPrice = markPriceOf(index, m.lastFundingRateE8, Math.max(0, next - cmd.ts), c.fundingIntervalMs, m.basisSum, m.basis.length, m.lastPrice, c.tickSize);
    m.markTs = cmd.ts;
    this.host.events.push({ type: 'markPrice', ts: cmd.ts, state: this.markState(m) });
    if (c.status === 'TRADING') {
      this.triggerTpSl(m);
      this.checkConditional(m);
      this.liquidations(m);
    }
    return { code: 'ok', events: this.host.events };
  }

  /** Fires the take profits and stop losses the mark price crossed: a MARKET reduce-only close of the whole position. */
  protected triggerTpSl(m: PerpMarket): void {
    const mark = m.markPrice as bigint;
    const hits: [Pos, PerpTrigger][] = [];
    for (const p of m.positions.values()) {
      // A position at risk is liquidated instead (its close would realize a loss beyond its margin).
      if (p.userId === INSURANCE || this.atRisk(m, p)) continue;
      const long = p.side === 'LONG';
      if (p.tp !== null && (long ? mark >= p.tp : mark <= p.tp)) hits.push([p, 'TAKE_PROFIT']);
      else if (p.sl !== null && (long ? mark <= p.sl : mark >= p.sl)) hits.push([p, 'STOP_LOSS']);
    }
    for (const [p, trig] of hits) {
      if (m.positions.get(p.userId) !== p || p.size === 0n) continue;
      const side: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
      if (m.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') === null) continue; // stays armed until there is liquidity
      p.tp = null;
      p.sl = null;
      this.touch(p);
      this.placeFor(
        m,
        {
          ts: this.ts,
          type: 'perpPlaceOrder',
          userId: p.userId,
          symbol: m.cfg.symbol,
          side,
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity: p.size,
          reduceOnly: true,
        },
        trig,
      );
    }
  }

  /** Liquidates every account of the market at risk (see perpMarkPrice). */
  protected liquidations(m: PerpMarket): void {
    // Rounds until no account is at risk: the fund's close may fill a stale resting order far from the mark and open
    // a position already past its bankruptcy, which the next round takes over (bounded: each round ends positions).
    for (let round = 0; round < MAX_LIQUIDATION_ROUNDS; round++) {
      const due: Pos[] = [];
      for (const p of m.positions.values()) if (p.userId !== INSURANCE && this.atRisk(m, p)) due.push(p);
      if (due.length === 0) return;
      for (const p of due) {
        if (m.positions.get(p.userId) !== p) continue; // gone with an earlier cross liquidation
        this.liquidate(m, p);
      }
    }
  }
  protected liquidate(m: PerpMarket, p: Pos): void {
    const userId = p.userId;
    const mode = p.mode;
    const size0 = p.size;
    const side0 = p.side;
    const settle = m.cfg.quote;
    // 1. Cancel the open orders in scope and look again.
    for (const o of [...(this.open.get(userId)?.values() ?? [])]) {
      if (mode === 'ISOLATED' ? o.symbol === m.cfg.symbol : o.marginMode === 'CROSS')
        this.closeResting(this.markets.get(o.symbol) as PerpMarket, o, 'CANCELED');
    }
    if (!this.atRisk(m, p)) return;
    const ledger = this.ledger;
    const a = this.acc(userId, settle);
    const fund = this.sys(INSURANCE, settle);
    const fundBefore = fund.available;
    // 2. The positions in scope and their takeover PnL: the user's whole margin in scope is lost.
    const scope: { m: PerpMarket; p: Pos; pnl: bigint }[] = [];
    let equity: bigint;
    if (mode === 'ISOLATED') {
      equity = p.margin + unrealizedPnl(p.side, p.size, p.cost, this.valuePrice(m, p), m.mult);
      scope.push({ m, p, pnl: -p.margin });
    } else {
      const f = this.crossFigures(userId);
      equity = f.wallet + f.upnl;
      const list: { m: PerpMarket; p: Pos; pnl: bigint; notional: bigint }[] = [];
      for (const sym of this.userMarkets.get(userId) ?? []) {
        const mm = this.markets.get(sym) as PerpMarket;
        const pp = mm.positions.get(userId) as Pos;
        if (pp.mode !== 'CROSS') continue;
        const px = this.valuePrice(mm, pp);
        list.push({ m: mm, p: pp, pnl: unrealizedPnl(pp.side, pp.size, pp.cost, px, mm.mult), notional: pp.size * px * mm.mult });
      }
      // The largest takes the bankruptcy price; the others close at their mark: the cross wallet ends at exactly 0.
      list.sort((x, y) => cmpBig(y.notional, x.notional) || (x.m.cfg.symbol < y.m.cfg.symbol ? -1 : 1));
      let others = 0n;
      for (let i = 1; i < list.length; i++) others += (list[i] as (typeof list)[number]).pnl;
      (list[0] as (typeof list)[number]).pnl = -(f.wallet + others);
      for (const x of list) scope.push({ m: x.m, p: x.p, pnl: x.pnl });
    }
    // 3. Takeover: margins released, gains paid first, then losses (the wallet in scope ends at 0), positions to the fund.
    for (const s of scope) {
      if (s.p.margin > 0n) ledger.release(a, s.p.margin);
      s.p.margin = 0n;
    }
    const clearing = this.sys('@clearing', settle);
    const ordered = [...scope].sort((x, y) => (x.pnl > 0n ? 0 : 1) - (y.pnl > 0n ? 0 : 1));
    const taken: { m: PerpMarket; side: PositionSide; size: bigint; cost: bigint }[] = [];
    for (const s of ordered) {
      const { m: mm, p: pp, pnl } = s;
      const takeover = pp.side === 'LONG' ? pp.cost + pnl : pp.cost - pnl;
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      else if (pnl < 0n) {
        const t = -pnl <= a.available ? -pnl : a.available;
        ledger.post(a, 'available', clearing, 'available', t);
        if (t < -pnl) ledger.post(fund, 'available', clearing, 'available', -pnl - t);
      }
      const size = pp.size;
      const side = pp.side;
      const closeSide: Side = side === 'LONG' ? 'SELL' : 'BUY';
      // The user's record of the takeover: an order the engine creates, already filled.
      const seq = this.host.allocOrderSeq();
      const o = new PerpOrder(seq, `${seq}`, null, userId, mm.cfg.symbol, closeSide, 'MARKET', 'IOC', null, size, null, settle, 'EXPIRE_TAKER', this.ts);
      o.reduceOnly = true;
      o.trigger = 'LIQUIDATION';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = pp.leverage;
      o.marginMode = pp.mode;
      o.filledQty = size;
      o.filledQuote = takeover;
      o.remaining = 0n;
      o.realizedPnl = pnl;
      o.status = 'FILLED';
      this.orders.set(seq, o);
      pp.realizedPnl += pnl;
      this.touch(pp); // keeps its entry price for the closing view
      pp.size = 0n;
      pp.cost = 0n;
      this.touch(pp);
      mm.positions.delete(userId);
      const um = this.userMarkets.get(userId);
      um?.delete(mm.cfg.symbol);
      if (um !== undefined && um.size === 0) this.userMarkets.delete(userId);
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.host.events.push({
        type: 'perpTrade',
        ts: this.ts,
        tradeId: this.host.allocTradeId(),
        symbol: mm.cfg.symbol,
        kind: 'TAKEOVER',
        price: entryPriceOf(takeover < 0n ? 0n : takeover, size, mm.mult),
        quantity: size,
        quoteAmount: takeover,
        takerSide: closeSide,
        makerOrderId: null,
        takerOrderId: o.orderId,
        makerUserId: INSURANCE,
        takerUserId: userId,
        makerFee: 0n,
        takerFee: 0n,
        makerRealizedPnl: 0n,
        takerRealizedPnl: pnl,
      });
      this.ended(o);
      this.addFundPosition(mm, side, size, takeover);
      taken.push({ m: mm, side, size, cost: takeover });
    }
    // 4. The fund closes what it took over in the book, no worse than its balance can pay; 5. the rest by ADL.
    for (const t of taken) this.fundClose(t.m);
    this.host.events.push({
      type: 'liquidated',
      ts: this.ts,
      userId,
      symbol: m.cfg.symbol,
      marginMode: mode,
      markPrice: m.markPrice as bigint,
      equity,
      insuranceDelta: fund.available - fundBefore,
      size: size0,
      side: side0,
    });
  }

  /** The insurance fund takes over a position (adds to its own, which it closes in the same command). */
  protected addFundPosition(m: PerpMarket, side: PositionSide, size: bigint, cost: bigint): void {
    let f = m.positions.get(INSURANCE);
    if (f !== undefined && f.side !== side) {
      // Opposite takeovers net out: close the fund's existing position against this one at its own cost share.
      const cq = size < f.size ? size : f.size;
      const closeNotional = cq === size ? cost : (cost * cq) / size;
      this.closePart(m, f, cq, closeNotional);
      size -= cq;
      cost -= closeNotional;
      if (size === 0n) return;
      f = m.positions.get(INSURANCE);
    }
    if (f === undefined) {
      f = {
        userId: INSURANCE,
        symbol: m.cfg.symbol,
        side,
        size: 0n,
        cost: 0n,
        margin: 0n,
        mode: 'CROSS',
        leverage: 1,
        realizedPnl: 0n,
        funding: 0n,
        fees: 0n,
        tp: null,
        sl: null,
        openTs: this.ts,
        updatedTs: this.ts,
      };
      m.positions.set(INSURANCE, f);
    }
    f.size += size;
    f.cost += cost;
    this.touch(f);
  }

  /**
   * The insurance fund's close of its position in a market: an IOC order limited at the bankruptcy price (the fund's
   * entry; never beyond the price band), so the fund only gains in the book, then auto-deleveraging of the rest
   * against the most profitable opposite positions (Binance's ranking: PnL ratio times effective leverage) at the
   * fund's entry (the bankruptcy price).
   */
  protected fundClose(m: PerpMarket): void {
    const f = m.positions.get(INSURANCE);
    if (f === undefined || f.size === 0n) return;
    const n = f.size * m.mult;
    const t = m.cfg.tickSize;
    // The limit is the bankruptcy price (the fund's entry, cost / size), rounded on the tick away from a loss: the
    // fund never sells below nor buys above it, so a fill can only gain (Binance: the liquidation order is sent at the
    // bankruptcy price; what it cannot fill is auto-deleveraged). Never outside the price band either.
    let limit: bigint;
    if (f.side === 'LONG') {
      const p = (f.cost + n - 1n) / n;
      limit = ((p + t - 1n) / t) * t;
      const low = m.bandLow();
      if (limit < low) limit = low;
    } else {
      const p = f.cost / n;
      limit = (p / t) * t;
      const high = m.bandHigh();
      if (limit > high) limit = high;
    }
    if (limit > 0n && m.book.bestPrice(f.side === 'LONG' ? 'BUY' : 'SELL') !== null) {
      const seq = this.host.allocOrderSeq();
      const o = new PerpOrder(
        seq,
        `${seq}`,
        null,
        INSURANCE,
        m.cfg.symbol,
        f.side === 'LONG' ? 'SELL' : 'BUY',
        'LIMIT',
        'IOC',
        limit,
        f.size,
        null,
        m.cfg.quote,
        'EXPIRE_TAKER',
        this.ts,
      );
      o.reduceOnly = true;
      o.trigger = 'LIQUIDATION';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = 1;
      this.orders.set(seq, o);
      this.host.events.push({ type: 'perpOrderAccepted', ts: this.ts, order: o.perpView() });
      this.match(m, o);
      o.status = o.remaining === 0n ? 'FILLED' : 'EXPIRED';
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.ended(o);
    }
    this.adl(m);
    // Orders of users whose positions the fund's close or ADL reduced to nothing.
    this.expireReduceOnly(m);
  }
}
