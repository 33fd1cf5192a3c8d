/**
 * Fills into positions (the perpetuals' layer above perp-margin.ts): the fill guard (`fillPayable`: a fill executes only
 * while the scope's equity after it stays >= 0), the settlement of a fill (fee, opening part, closing part with its
 * realized PnL through '@clearing'), order holds released and ended orders retired.
 */
import { initialMargin, openLoss, perpFee, unrealizedPnl } from './math';
import { DEFAULT_LEVERAGE, type PositionSide } from './types';
import { INSURANCE, PERP_CLOSED_RETENTION, PerpMarket, PerpOrder, type Pos } from './perp-market';
import { PerpMargin } from './perp-margin';

/** Fills into positions. */
export abstract class PerpSettlement extends PerpMargin {
  /**
   * True when a user can pay for a fill of `q` at `p` of order `o`: the scope's equity after the fill, counting no
   * unrealized profit, stays >= 0. `cq` = the part that closes the user's position, `opens` = the rest; the closed
   * part realizes pnl at p, the rest of the position keeps its unrealized PnL at the mark (`rest`), the opened part
   * starts with its own (`open`: its open loss when priced beyond the mark).
   * - isolated scope (the position's mode, or the user's for a new position): kept + brought >= 0, with kept = the
   *   position's margin (if any) + pnl + min(0, rest) and brought = the max withdraw amount + the order's hold - the fee
   *   - (opening: its initial margin + open loss); a fill that closes nothing also needs brought >= 0;
   * - cross: the cross wallet less the holds of the user's other open orders (the order's own hold is in it) + pnl -
   *   the fee + min(0, cross unrealized PnL after the fill, the opened part's included) >= 0.
   * The engine's own orders (liquidation, ADL, the fund) always fill. Without it a user could close into a colluder's
   * order far from the mark, or a stale resting order could open a position past its bankruptcy price, and leave the
   * loss to the insurance fund or to auto-deleveraged users.
   */
  protected fillPayable(m: PerpMarket, o: PerpOrder, p: bigint, q: bigint, feePpm: number): boolean {
    if (o.userId === INSURANCE || o.trigger === 'LIQUIDATION' || o.trigger === 'ADL') return true;
    const pos = m.positions.get(o.userId);
    const closing = pos !== undefined && (pos.side === 'LONG') === (o.side === 'SELL');
    const mark = m.markPrice ?? p;
    const cq = closing ? (q < pos.size ? q : pos.size) : 0n;
    const opens = q - cq;
    let pnl = 0n;
    let rest = 0n;
    if (pos !== undefined) {
      const relCost = cq === 0n ? 0n : cq === pos.size ? pos.cost : (pos.cost * cq) / pos.size;
      const closeNotional = p * cq * m.mult;
      pnl = cq === 0n ? 0n : pos.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
      rest = unrealizedPnl(pos.side, pos.size - cq, pos.cost - relCost, mark, m.mult);
    }
    const openNotional = p * opens * m.mult;
    const open = opens === 0n ? 0n : o.side === 'BUY' ? mark * opens * m.mult - openNotional : openNotional - mark * opens * m.mult;
    const fee = perpFee(p * q * m.mult, feePpm);
    // A position keeps its mode and leverage; a flip opens the other side with the same (settings cannot change while
    // a position is open); a new position takes the user's settings.
    const st = pos === undefined ? this.settingsOf(o.userId, m.cfg.symbol) : null;
    if ((pos?.mode ?? st?.marginMode) === 'ISOLATED') {
      const openCost = opens > 0n ? initialMargin(openNotional, pos?.leverage ?? st?.leverage ?? DEFAULT_LEVERAGE) + (open < 0n ? -open : 0n) : 0n;
      // what the position keeps (its margin after the close's PnL and the rest's loss) and what the fill brings (the
      // free money and the order's hold, less the fee and the opened part's cost); a fill that only opens must bring
      // its own cost (the margin already there is not released to pay it)
      const kept = (pos?.margin ?? 0n) + pnl + (rest < 0n ? rest : 0n);
      const brought = this.spendable(o.userId, m.cfg.quote) + o.hold - fee - openCost;
      if (cq === 0n && brought < 0n) return false;
      return kept + brought >= 0n;
    }
    const f = this.crossFigures(o.userId);
    const own = pos !== undefined ? unrealizedPnl(pos.side, pos.size, pos.cost, mark, m.mult) : 0n;
    const after = f.upnl - own + rest + open;
    // the other open orders' holds cannot pay this fill (only the paying order's hold can)
    let others = 0n;
    for (const x of this.open.get(o.userId)?.values() ?? []) if (x !== o && x.marginMode === 'CROSS') others += x.hold;
    return f.wallet - others + pnl - fee + (after < 0n ? after : 0n) >= 0n;
  }

  /**
   * The position side of a fill for one order's owner: closes first (realized PnL by cost, margin released), then
   * opens the rest (margin ceil(notional / leverage) from the order's hold, then the available balance); the fee
   * from the hold, then as `pay` takes it. Returns the realized PnL.
   */
  protected settleFill(m: PerpMarket, o: PerpOrder, p: bigint, q: bigint, notional: bigint, fee: bigint): bigint {
    const ledger = this.ledger;
    const settle = m.cfg.quote;
    const userId = o.userId;
    const a = this.acc(userId, settle);
    const side: PositionSide = o.side === 'BUY' ? 'LONG' : 'SHORT';
    let pos = m.positions.get(userId);
    let pnl = 0n;
    let openQty = q;
    if (pos !== undefined && pos.side !== side) {
      const cq = q < pos.size ? q : pos.size;
      pnl = this.closePart(m, pos, cq, p * cq * m.mult, o);
      openQty = q - cq;
      if (pos.size === 0n) pos = undefined;
    }
    // Hold and fee: the order's hold pays the fee and the opening margin first.
    let feeLeft = fee;
    if (o.hold > 0n && feeLeft > 0n) {
      const t = feeLeft < o.hold ? feeLeft : o.hold;
      ledger.post(a, 'frozen', this.sys('@fee', settle), 'available', t);
      o.hold -= t;
      feeLeft -= t;
    }
    if (openQty > 0n) {
      const openNotional = openQty === q ? notional : p * openQty * m.mult;
      const st = this.settingsOf(userId, m.cfg.symbol);
      if (pos === undefined) {
        pos = {
          userId,
          symbol: m.cfg.symbol,
          side,
          size: 0n,
          cost: 0n,
          margin: 0n,
          mode: userId === INSURANCE ? 'CROSS' : st.marginMode,
          leverage: st.leverage,
          realizedPnl: 0n,
          funding: 0n,
          fees: 0n,
          tp: null,
          sl: null,
          openTs: this.ts,
          updatedTs: this.ts,
        };
        m.positions.set(userId, pos);
        let um = this.userMarkets.get(userId);
        if (um === undefined) this.userMarkets.set(userId, (um = new Set()));
        um.add(m.cfg.symbol);
      }
      pos.size += openQty;
      pos.cost += openNotional;
      if (o.takeProfit !== null) pos.tp = o.takeProfit;
      if (o.stopLoss !== null) pos.sl = o.stopLoss;
      if (!a.isSystem) {
        // An isolated position also keeps the fill's open loss against the mark (Binance's order cost), so it starts
        // with its initial margin after that loss; a cross position's loss is carried by the cross wallet.
        const mark = m.markPrice;
        const loss = pos.mode === 'ISOLATED' && mark !== null ? openLoss(o.side, openNotional, mark * openQty * m.mult) : 0n;
        let need = initialMargin(openNotional, pos.leverage) + loss;
        // From the hold (already frozen: it stays frozen as margin), then from the available balance.
        const fromHold = need < o.hold ? need : o.hold;
        o.hold -= fromHold;
        pos.margin += fromHold;
        need -= fromHold;
        if (need > 0n) {
          const t = need < a.available ? need : a.available;
          ledger.hold(a, t);
          pos.margin += t;
        }
      }
      this.touch(pos);
    }
    if (pos !== undefined && fee > 0n) pos.fees += fee;
    if (feeLeft > 0n) this.pay(userId, settle, feeLeft, this.sys('@fee', settle), pos !== undefined && pos.mode === 'ISOLATED' ? pos : null, o, true, true);
    o.fee += fee;
    o.realizedPnl += pnl;
    return pnl;
  }

  /**
   * Closes `cq` of a position at a closing notional (quote units): releases its share of cost and margin, posts the
   * realized PnL with '@clearing' (a loss of an isolated position from its margin first; beyond it as `pay` takes it,
   * `o` the order whose fill closes). Returns the PnL.
   */
  protected closePart(m: PerpMarket, pos: Pos, cq: bigint, closeNotional: bigint, o: PerpOrder | null = null): bigint {
    const ledger = this.ledger;
    const settle = m.cfg.quote;
    const a = this.acc(pos.userId, settle);
    const whole = cq === pos.size;
    const relCost = whole ? pos.cost : (pos.cost * cq) / pos.size;
    const relMargin = whole ? pos.margin : (pos.margin * cq) / pos.size;
    const pnl = pos.side === 'LONG' ? closeNotional - relCost : relCost - closeNotional;
    pos.size -= cq;
    pos.cost -= relCost;
    pos.realizedPnl += pnl;
    const clearing = this.sys('@clearing', settle);
    if (a.isSystem) {
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      else if (pnl < 0n) ledger.post(a, 'available', clearing, 'available', -pnl);
    } else {
      // Margin released: an isolated position's loss comes out of it first.
      let lossLeft = pnl < 0n ? -pnl : 0n;
      let rel = relMargin;
      if (pos.mode === 'ISOLATED' && lossLeft > 0n) {
        const t = lossLeft < rel ? lossLeft : rel;
        ledger.post(a, 'frozen', clearing, 'available', t);
        rel -= t;
        lossLeft -= t;
      }
      pos.margin -= relMargin;
      if (rel > 0n) ledger.release(a, rel);
      if (pnl > 0n) ledger.post(clearing, 'available', a, 'available', pnl);
      if (lossLeft > 0n) this.pay(pos.userId, settle, lossLeft, clearing, pos.mode === 'ISOLATED' ? pos : null, o, true, true);
    }
    this.touch(pos);
    if (pos.size === 0n) {
      if (pos.margin > 0n && !a.isSystem) ledger.release(a, pos.margin);
      pos.margin = 0n;
      m.positions.delete(pos.userId);
      const um = this.userMarkets.get(pos.userId);
      um?.delete(m.cfg.symbol);
      if (um !== undefined && um.size === 0) this.userMarkets.delete(pos.userId);
    }
    return pnl;
  }
  protected releaseHold(o: PerpOrder): void {
    if (o.hold > 0n) {
      this.ledger.release(this.acc(o.userId, (this.markets.get(o.symbol) as PerpMarket).cfg.quote), o.hold);
      o.hold = 0n;
    }
  }

  /** An order reached a final status: into the retention queue. */
  protected ended(o: PerpOrder): void {
    if (o.hold !== 0n) throw new Error(`perp: order ${o.orderId} ended with hold ${o.hold}`);
    this.closed.push(o);
    if (this.closed.length > PERP_CLOSED_RETENTION * 2) {
      const drop = this.closed.splice(0, this.closed.length - PERP_CLOSED_RETENTION);
      for (const d of drop) {
        this.orders.delete(d.seq);
        const cm = this.clientIds.get(d.userId);
        if (d.clientOrderId !== null && cm?.get(d.clientOrderId) === d) {
          cm.delete(d.clientOrderId);
          if (cm.size === 0) this.clientIds.delete(d.userId);
        }
      }
    }
  }
}
