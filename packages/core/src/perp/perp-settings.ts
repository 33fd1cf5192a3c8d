/**
 * The perpetuals' settings and position edits (the layer above perp-orders.ts): listing a market, funding the insurance
 * fund, leverage (never releasing more than margin removal allows), margin mode, isolated margin add/remove, and
 * position take profit / stop loss.
 */
import type { CommandResult } from '../types';
import {
  type BracketTier,
  entryPriceOf,
  fundingTimeAtOrBefore,
  initialMargin,
  maxNotionalFor,
  maxRemovableMargin,
  perpNotionalMult,
  unrealizedPnl,
} from './math';
import type { PerpCommand, PerpMarketConfig } from './types';
import { copyConfig, INSURANCE, isInt, PerpMarket, PerpOrder, type Pos, reject } from './perp-market';
import { PerpConditional } from './perp-conditional';

/** Markets, leverage, margin mode, isolated margin and TP/SL. */
export abstract class PerpSettingsCommands extends PerpConditional {
  protected addMarket(cmd: Extract<PerpCommand, { type: 'addPerpMarket' }>): CommandResult {
    const c = cmd.market;
    if (c === null || typeof c !== 'object') return reject('invalid_config');
    if (this.markets.has(c.symbol)) return reject('market_exists');
    const scale = typeof c.quote === 'string' ? this.host.hasAsset(c.quote) : undefined;
    const okBrackets =
      Array.isArray(c.brackets) &&
      c.brackets.length > 0 &&
      c.brackets.length <= 20 &&
      c.brackets.every(
        (b, i) =>
          typeof b.notionalCap === 'bigint' &&
          b.notionalCap > 0n &&
          isInt(b.maxLeverage, 1, 125) &&
          isInt(b.maintMarginPpm, 1, 999_999) &&
          (i === 0 ||
            (b.notionalCap > (c.brackets[i - 1] as typeof b).notionalCap &&
              b.maxLeverage <= (c.brackets[i - 1] as typeof b).maxLeverage &&
              b.maintMarginPpm >= (c.brackets[i - 1] as typeof b).maintMarginPpm)) &&
          // the initial margin rate must exceed the maintenance rate, or a fresh position would be liquidatable
          1_000_000 / b.maxLeverage > b.maintMarginPpm,
      );
    if (
      typeof c.symbol !== 'string' ||
      c.symbol.length === 0 ||
      c.symbol.length > 32 ||
      typeof c.base !== 'string' ||
      c.base.length === 0 ||
      !isInt(c.priceDecimals, 0, 18) ||
      !isInt(c.qtyDecimals, 0, 18) ||
      typeof c.tickSize !== 'bigint' ||
      c.tickSize <= 0n ||
      typeof c.stepSize !== 'bigint' ||
      c.stepSize <= 0n ||
      typeof c.minQty !== 'bigint' ||
      c.minQty < 0n ||
      !isInt(c.makerFeePpm, 0, 100_000) ||
      !isInt(c.takerFeePpm, 0, 100_000) ||
      typeof c.lotNotional !== 'bigint' ||
      c.lotNotional <= 0n ||
      !okBrackets ||
      !isInt(c.priceBandPpm, 1, 999_999) ||
      !isInt(c.fundingIntervalMs, 60_000, 7 * 86_400_000) ||
      !isInt(c.interestRateE8, -1_000_000, 1_000_000) ||
      !isInt(c.fundingCapE8, 0, 10_000_000) ||
      typeof c.impactNotional !== 'bigint' ||
      c.impactNotional <= 0n ||
      !isInt(c.markBasisSamples, 1, 3600) ||
      (c.triggerProtectPpm !== undefined && !isInt(c.triggerProtectPpm, 1, 1_000_000)) ||
      (c.status !== 'TRADING' && c.status !== 'HALTED')
    ) {
      return reject('invalid_config');
    }
    if (scale === undefined) return reject('asset_not_found');
    if (c.priceDecimals + c.qtyDecimals > scale) return reject('invalid_config');
    const cfg: PerpMarketConfig = { ...c, brackets: c.brackets.map((b) => ({ ...b })) };
    const m = new PerpMarket(cfg, perpNotionalMult(scale, c.priceDecimals, c.qtyDecimals), this.bookKind);
    m.lastFundingTs = fundingTimeAtOrBefore(cmd.ts, c.fundingIntervalMs);
    this.markets.set(c.symbol, m);
    this.host.events.push({ type: 'perpMarketAdded', ts: cmd.ts, market: copyConfig(cfg) });
    return { code: 'ok', events: this.host.events };
  }
  protected fundInsurance(cmd: Extract<PerpCommand, { type: 'fundInsurance' }>): CommandResult {
    if (cmd.from !== '@faucet' && cmd.from !== '@fee') return reject('invalid_config');
    if (typeof cmd.asset !== 'string' || this.host.hasAsset(cmd.asset) === undefined) return reject('asset_not_found');
    if (typeof cmd.amount !== 'bigint' || cmd.amount <= 0n) return reject('amount_invalid');
    this.ledger.post(this.sys(cmd.from, cmd.asset), 'available', this.sys(INSURANCE, cmd.asset), 'available', cmd.amount);
    return { code: 'ok', events: this.host.events };
  }
  protected setLeverage(cmd: Extract<PerpCommand, { type: 'perpSetLeverage' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string' || cmd.userId.length === 0 || cmd.userId.charCodeAt(0) === 64) return reject('invalid_order');
    if (!isInt(cmd.leverage, 1, (m.tiers[0] as BracketTier).maxLeverage)) return reject('leverage_invalid');
    const pos = m.positions.get(cmd.userId);
    const a = this.acc(cmd.userId, m.cfg.quote);
    // Open orders that open positions follow the leverage: their holds' initial margin is resized (Binance recomputes
    // the open orders' margin on a leverage change), so a fill never opens a position below its initial margin.
    const resized: [PerpOrder, bigint][] = [];
    let total = 0n;
    for (const o of this.open.get(cmd.userId)?.values() ?? []) {
      // a pending conditional order holds nothing: it takes the leverage of the moment it triggers
      if (o.symbol !== cmd.symbol || o.reduceOnly || o.isPendingAlgo || o.leverage === cmd.leverage) continue;
      const d = this.orderHoldMove(m, o, cmd.leverage);
      resized.push([o, d]);
      total += d;
    }
    let move = 0n;
    if (pos !== undefined) {
      const px = m.refPrice() ?? entryPriceOf(pos.cost, pos.size, m.mult);
      if (pos.size * px * m.mult > maxNotionalFor(m.tiers, cmd.leverage)) return reject('leverage_too_high');
      move = this.leverageMarginMove(m, pos, cmd.leverage);
      total += move;
    }
    if (total > 0n && this.spendable(cmd.userId, m.cfg.quote) < total) return reject('insufficient_balance');
    // Releases first, then holds: the net total fits, but a hold before a release could find the available balance short.
    const moves: bigint[] = [...resized.map(([, d]) => d), move];
    for (const release of [true, false]) {
      for (const d of moves) {
        if (release && d < 0n) this.ledger.release(a, -d);
        else if (!release && d > 0n) this.ledger.hold(a, d);
      }
    }
    for (const [o, d] of resized) {
      o.hold += d;
      o.leverage = cmd.leverage;
      o.updatedTs = this.ts;
      this.host.events.push({ type: 'perpOrderUpdated', ts: this.ts, order: o.perpView() });
    }
    if (pos !== undefined) {
      pos.margin += move;
      pos.leverage = cmd.leverage;
      this.touch(pos);
    }
    const st = { ...this.settingsOf(cmd.userId, cmd.symbol), leverage: cmd.leverage };
    this.saveSettings(cmd.userId, cmd.symbol, st);
    return { code: 'ok', events: this.host.events };
  }

  /**
   * The margin a leverage change moves for a position (quote units; > 0 held from the available balance, < 0
   * released to it). The target is the initial margin of the position's cost at the new leverage, ceil(cost /
   * leverage). A cross position's margin becomes the target. An isolated position's margin rises to the target on a
   * decrease, but on an increase it releases no more than margin removal at the new leverage allows
   * (maxRemovableMargin: the unrealized loss at the mark counted, never a profit), as Binance keeps an isolated
   * position's margin unless the user removes it; so a leverage change never frees what covers a loss.
   */
  protected leverageMarginMove(m: PerpMarket, pos: Pos, leverage: number): bigint {
    const need = initialMargin(pos.cost, leverage);
    if (need >= pos.margin || pos.mode === 'CROSS') return need - pos.margin;
    const px = this.valuePrice(m, pos);
    const free = maxRemovableMargin(pos.margin, pos.size * px * m.mult, unrealizedPnl(pos.side, pos.size, pos.cost, px, m.mult), leverage);
    const excess = pos.margin - need;
    return -(free < excess ? free : excess);
  }

  /**
   * How a resting opening order's hold changes when its leverage becomes `leverage` (quote units, signed): the initial
   * margin of its remaining quantity at its price, ceil(remaining notional / leverage), against the same at its
   * current leverage; a release never exceeds the hold.
   */
  protected orderHoldMove(m: PerpMarket, o: PerpOrder, leverage: number): bigint {
    const n = (o.price as bigint) * o.remaining * m.mult;
    const d = initialMargin(n, leverage) - initialMargin(n, o.leverage);
    return d < -o.hold ? -o.hold : d;
  }
  protected setMarginMode(cmd: Extract<PerpCommand, { type: 'perpSetMarginMode' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (
      typeof cmd.userId !== 'string' ||
      cmd.userId.length === 0 ||
      cmd.userId.charCodeAt(0) === 64 ||
      (cmd.marginMode !== 'CROSS' && cmd.marginMode !== 'ISOLATED')
    )
      return reject('invalid_order');
    if (m.positions.has(cmd.userId)) return reject('position_exists');
    for (const o of this.open.get(cmd.userId)?.values() ?? []) if (o.symbol === cmd.symbol) return reject('position_exists');
    this.saveSettings(cmd.userId, cmd.symbol, { ...this.settingsOf(cmd.userId, cmd.symbol), marginMode: cmd.marginMode });
    return { code: 'ok', events: this.host.events };
  }
  protected adjustMargin(cmd: Extract<PerpCommand, { type: 'perpAdjustMargin' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string' || cmd.userId.charCodeAt(0) === 64) return reject('invalid_order');
    if (typeof cmd.amount !== 'bigint' || cmd.amount === 0n) return reject('amount_invalid');
    const pos = m.positions.get(cmd.userId);
    if (pos === undefined) return reject('no_position');
    if (pos.mode !== 'ISOLATED') return reject('margin_mode_invalid');
    const a = this.acc(cmd.userId, m.cfg.quote);
    if (cmd.amount > 0n) {
      if (this.spendable(cmd.userId, m.cfg.quote) < cmd.amount) return reject('insufficient_balance');
      this.ledger.hold(a, cmd.amount);
      pos.margin += cmd.amount;
    } else {
      const out = -cmd.amount;
      const px = m.refPrice() ?? entryPriceOf(pos.cost, pos.size, m.mult);
      // perp/math.ts maxRemovableMargin: the margin above the initial margin at the mark, after an unrealized loss
      if (out > maxRemovableMargin(pos.margin, pos.size * px * m.mult, unrealizedPnl(pos.side, pos.size, pos.cost, px, m.mult), pos.leverage))
        return reject('insufficient_balance');
      this.ledger.release(a, out);
      pos.margin -= out;
    }
    this.touch(pos);
    return { code: 'ok', events: this.host.events };
  }
  protected setTpSl(cmd: Extract<PerpCommand, { type: 'perpSetTpSl' }>): CommandResult {
    const m = this.markets.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (typeof cmd.userId !== 'string') return reject('invalid_order');
    const { takeProfit: tp, stopLoss: sl } = cmd;
    if ((tp !== null && typeof tp !== 'bigint') || (sl !== null && typeof sl !== 'bigint')) return reject('invalid_order');
    const pos = m.positions.get(cmd.userId);
    if (pos === undefined) return reject('no_position');
    const mark = m.markPrice;
    if (mark === null) return reject('mark_price_unavailable');
    for (const [v, isTp] of [
      [tp, true],
      [sl, false],
    ] as const) {
      if (v === null) continue;
      if (v <= 0n || v % m.cfg.tickSize !== 0n) return reject('price_not_on_tick');
      const wantAbove = isTp === (pos.side === 'LONG');
      if (v === mark || v > mark !== wantAbove) return reject(isTp ? 'take_profit_invalid' : 'stop_loss_invalid');
    }
    pos.tp = tp;
    pos.sl = sl;
    this.touch(pos);
    return { code: 'ok', events: this.host.events };
  }
}
