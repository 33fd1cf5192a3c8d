/**
 * Auto-deleveraging (the layer above perp-settings.ts): what the insurance fund's liquidation order cannot fill at the
 * bankruptcy price closes against the opposite positions ranked by profit and effective leverage (Binance ADL). A
 * deleveraged user's open orders in the contract are cancelled (BitMEX and Delta Exchange: "Open orders will be
 * cancelled, and you are free to re-enter"), and, when the close's loss is more than its free balance and margins can
 * pay, its other open orders too, newest first, so their holds pay it before the insurance fund would.
 */
import type { Side } from '../types';
import { entryPriceOf, unrealizedPnl } from './math';
import type { PositionSide } from './types';
import { INSURANCE, PerpMarket, PerpOrder, type Pos } from './perp-market';
import { PerpSettingsCommands } from './perp-settings';

/** Auto-deleveraging. */
export abstract class PerpAdl extends PerpSettingsCommands {
  /** Auto-deleveraging of the fund's remaining position (see fundClose). */
  protected adl(m: PerpMarket): void {
    const f = m.positions.get(INSURANCE);
    if (f === undefined || f.size === 0n) return;
    const opp: PositionSide = f.side === 'LONG' ? 'SHORT' : 'LONG';
    const mark = m.markPrice as bigint;
    const ranked: { p: Pos; num: bigint; den: bigint }[] = [];
    for (const p of m.positions.values()) {
      if (p.side !== opp || p.userId === INSURANCE) continue;
      const v = p.size * mark * m.mult;
      const pnl = unrealizedPnl(p.side, p.size, p.cost, mark, m.mult);
      const eq = p.mode === 'ISOLATED' ? p.margin + pnl : this.crossFigures(p.userId).wallet + this.crossUpnl(p.userId);
      const e = eq > 0n ? eq : 1n;
      // Binance: profit% x effective leverage when profitable (pnl/cost x value/equity), else profit% / leverage.
      ranked.push(pnl > 0n ? { p, num: pnl * v, den: p.cost * e } : { p, num: pnl * e, den: p.cost * v });
    }
    ranked.sort((x, y) => {
      const a = x.num * y.den;
      const b = y.num * x.den;
      return a > b ? -1 : a < b ? 1 : x.p.userId < y.p.userId ? -1 : x.p.userId > y.p.userId ? 1 : 0;
    });
    for (const r of ranked) {
      if (f.size === 0n) break;
      const p = r.p;
      const q = f.size < p.size ? f.size : p.size;
      const notional = q === f.size ? f.cost : (f.cost * q) / f.size;
      this.freeOrdersOf(m, p, q, notional);
      // The fund closes at its own entry (PnL 0); the user closes q at that notional.
      this.closePart(m, f, q, notional);
      const pnl = this.closePart(m, p, q, notional);
      const seq = this.host.allocOrderSeq();
      const closeSide: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
      const o = new PerpOrder(seq, `${seq}`, null, p.userId, m.cfg.symbol, closeSide, 'MARKET', 'IOC', null, q, null, m.cfg.quote, 'EXPIRE_TAKER', this.ts);
      o.reduceOnly = true;
      o.trigger = 'ADL';
      o.tradeType = 'FORCE_CLOSE';
      o.leverage = p.leverage;
      o.marginMode = p.mode;
      o.filledQty = q;
      o.filledQuote = notional;
      o.remaining = 0n;
      o.realizedPnl = pnl;
      o.status = 'FILLED';
      this.orders.set(seq, o);
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
      this.host.events.push({
        type: 'perpTrade',
        ts: this.ts,
        tradeId: this.host.allocTradeId(),
        symbol: m.cfg.symbol,
        kind: 'ADL',
        price: entryPriceOf(notional, q, m.mult),
        quantity: q,
        quoteAmount: notional,
        takerSide: closeSide,
        makerOrderId: null,
        takerOrderId: o.orderId,
        makerUserId: INSURANCE,
        takerUserId: p.userId,
        makerFee: 0n,
        takerFee: 0n,
        makerRealizedPnl: 0n,
        takerRealizedPnl: pnl,
      });
      this.ended(o);
    }
  }

  /**
   * Cancels the open orders of a position's owner before q of it is deleveraged at `notional`: every order in the
   * contract, then, while the close's loss exceeds what the free balance and the margins in scope (the isolated
   * position's, or every cross position's) can pay, its other open orders, newest first.
   */
  protected freeOrdersOf(m: PerpMarket, p: Pos, q: bigint, notional: bigint): void {
    const om = this.open.get(p.userId);
    if (om === undefined) return;
    for (const o of [...om.values()]) if (o.symbol === m.cfg.symbol) this.closeResting(m, o, 'CANCELED');
    const relCost = q === p.size ? p.cost : (p.cost * q) / p.size;
    const loss = p.side === 'LONG' ? relCost - notional : notional - relCost;
    if (loss <= 0n) return;
    let free = this.acc(p.userId, m.cfg.quote).available;
    if (p.mode === 'ISOLATED') free += p.margin;
    else
      for (const sym of this.userMarkets.get(p.userId) ?? []) {
        const x = this.markets.get(sym)?.positions.get(p.userId);
        if (x !== undefined && x.mode === 'CROSS') free += x.margin;
      }
    const rest = [...(this.open.get(p.userId)?.values() ?? [])].sort((x, y) => (x.seq > y.seq ? -1 : 1));
    for (const o of rest) {
      if (free >= loss) break;
      free += o.hold;
      this.closeResting(this.markets.get(o.symbol) as PerpMarket, o, 'CANCELED');
    }
  }
}
