/**
 * Model-based property test of the perpetual contracts (issue 12; CONVENTIONS rule 5): random streams of transfers
 * into CONTRACT, orders of four users at leverages 1x..125x in both margin modes (limit GTC/IOC, market, reduce-only,
 * with TP/SL), cancels, leverage / margin mode / TP-SL / isolated margin changes, a maker re-quoting around the mark,
 * mark price moves including gaps of up to 30%, time passing with funding at every 8 h boundary, and insurance fund
 * seeds, run against the Engine and against test/perp-model.ts. After every command:
 *  - the same result code; the same fills (maker order, price, quantity, realized PnL, fees) of every order, including
 *    the engine's own (take profit / stop loss closes, the insurance fund's close);
 *  - positions (side, size, cost, entry price, realized PnL, funding, fees, TP/SL, mode, leverage), wallets, open
 *    orders, '@fee', '@funding', '@clearing' and '@insurance' equal the model's;
 *  - every asset sums to 0n, no user bucket is negative, '@clearing' + sum long cost - sum short cost = 0, a user's
 *    frozen CONTRACT balance is its orders' holds plus its positions' margins, the account view's wallet and
 *    available balance are what they say;
 *  - after a mark tick: the engine liquidated exactly the scopes at risk level >= 100% and no position is left at
 *    risk or with a negative margin balance; an isolated survivor's mark is on the safe side of math.ts's
 *    liquidation price, a liquidated one's on the other; the mark and the funding rate are the model's.
 * Every 25 commands the engine is replaced by Engine.restore(snapshot) (same stateHash).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import { fundingTimeAtOrBefore, liquidationPrice, lotsToQty } from '../src/perp/math';
import type { PerpOrderView, PositionView } from '../src/perp/types';
import type { Command, CommandResult, EngineEvent, Side } from '../src/types';
import { HOUR, T0, USDT, perpMarket } from './perp-fixture';
import { PerpModel, type MFill, type MOrder } from './perp-model';

const SYM = 'BTC/USDT';
const USERS = ['u1', 'u2', 'u3', 'u4'];
const MM = 'mm';
const LEVERAGES = [1, 2, 5, 10, 20, 50, 75, 100, 125];

type Op =
  | { k: 'transfer'; u: number; amount: number }
  | { k: 'place'; u: number; buy: boolean; market: boolean; ioc: boolean; off: number; lots: number; reduce: boolean; tp: number | null; sl: number | null }
  | { k: 'cancel'; u: number; i: number }
  | { k: 'lev'; u: number; lev: number }
  | { k: 'mode'; u: number; iso: boolean }
  | { k: 'tpsl'; u: number; tp: number | null; sl: number | null }
  | { k: 'adjust'; u: number; amount: number }
  | { k: 'mark'; move: number; requote: boolean }
  | { k: 'time'; hours: number }
  | { k: 'fund'; amount: number };

const u = fc.nat(3);
const trig = fc.option(fc.integer({ min: -900, max: 900 }), { nil: null, freq: 3 }); // per mille of the mark
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('transfer' as const), u, amount: fc.integer({ min: 1, max: 3000 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      k: fc.constant('place' as const),
      u,
      buy: fc.boolean(),
      market: fc.boolean(),
      ioc: fc.boolean(),
      off: fc.oneof(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -60, max: 60 })), // per mille of the mark
      lots: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 40 })),
      reduce: fc.nat(3).map((n) => n === 0),
      tp: trig,
      sl: trig,
    }),
    weight: 10,
  },
  { arbitrary: fc.record({ k: fc.constant('cancel' as const), u, i: fc.nat(3) }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('lev' as const), u, lev: fc.oneof(fc.constantFrom(...LEVERAGES), fc.constantFrom(0, 126)) }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('mode' as const), u, iso: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('tpsl' as const), u, tp: trig, sl: trig }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('adjust' as const), u, amount: fc.integer({ min: -500, max: 500 }).filter((n) => n !== 0) }), weight: 1 },
  {
    arbitrary: fc.record({
      k: fc.constant('mark' as const),
      // ppm: mostly small steps, sometimes gaps
      move: fc.oneof({ arbitrary: fc.integer({ min: -5_000, max: 5_000 }), weight: 6 }, { arbitrary: fc.integer({ min: -300_000, max: 300_000 }), weight: 1 }),
      requote: fc.nat(2).map((n) => n > 0),
    }),
    weight: 8,
  },
  { arbitrary: fc.record({ k: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 9 }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('fund' as const), amount: fc.constantFrom(0, 10, 1000, 100_000) }), weight: 1 },
);

/** Everything the driver knows of the engine before a command (margins, holds). */
interface Before {
  margin: Map<string, bigint>;
}

/** What the streams exercised (printed after the property, to see that it reaches fills, TP/SL and liquidations). */
const STATS = new Map<string, number>();
const count = (k: string, n = 1): void => {
  STATS.set(k, (STATS.get(k) ?? 0) + n);
};

class Run {
  e: Engine;
  m: PerpModel;
  ts = T0 + 1000;
  index = 400_000n; // 40,000.0 USDT
  spot = new Map<string, bigint>();
  n = 0;
  log: string[] = [];
  /** the engine's result of the last command (to read a failure) */
  last: CommandResult | null = null;

  constructor() {
    this.e = new Engine();
    this.m = new PerpModel(perpMarket(), 8);
    this.exec({ type: 'addAsset', ts: this.ts, asset: { code: 'USDT', scale: 8 } });
    this.exec({ type: 'addPerpMarket', ts: this.ts, market: perpMarket() });
    for (const [who, amount] of [[MM, 100_000_000n * USDT], ...USERS.map((x, i) => [x, BigInt([2_000, 300, 20_000, 50_000][i]!) * USDT] as const)] as const) {
      this.exec({ type: 'deposit', ts: this.ts, userId: who, asset: 'USDT', account: 'SPOT', amount, from: '@faucet' });
      this.spot.set(who, amount);
    }
    this.transfer(MM, 100_000_000n * USDT);
    for (const who of USERS) this.transfer(who, (this.spot.get(who)! * 9n) / 10n);
    // start at high leverages in both modes, so that ordinary moves liquidate
    USERS.forEach((who, i) => {
      this.run({ type: 'perpSetMarginMode', ts: this.ts, userId: who, symbol: SYM, marginMode: i % 2 === 0 ? 'ISOLATED' : 'CROSS' });
      this.run({ type: 'perpSetLeverage', ts: this.ts, userId: who, symbol: SYM, leverage: [125, 50, 20, 100][i]! });
    });
    this.run({ type: 'perpSetLeverage', ts: this.ts, userId: MM, symbol: SYM, leverage: 1 });
    this.markTick(0, false);
    this.requote();
  }

  /** Engine only, for setup commands the model needs not check. */
  exec(cmd: Command): CommandResult {
    const r = this.e.execute(cmd);
    expect(r.code, `${cmd.type}`).toBe('ok');
    return r;
  }

  transfer(who: string, amount: bigint): void {
    const have = this.spot.get(who) ?? 0n;
    const code = have < amount ? 'insufficient_balance' : 'ok';
    const r = this.e.execute({ type: 'transfer', ts: this.ts, userId: who, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount });
    expect(r.code, 'transfer').toBe(code);
    if (code === 'ok') {
      this.spot.set(who, have - amount);
      this.m.addWallet(who, amount);
    }
    this.check(r, null);
  }

  before(): Before {
    const margin = new Map<string, bigint>();
    for (const who of [MM, ...USERS]) {
      const p = this.e.position(who, SYM);
      if (p !== undefined) margin.set(who, p.margin);
    }
    return { margin };
  }

  /** available balance as perpAccount defines it, from the model's wallet and the engine's frozen part */
  available(who: string): bigint {
    const b = this.e.balance(who, 'CONTRACT', 'USDT');
    const cross = this.m.crossUpnl(who);
    const a = this.m.walletOf(who) - b.frozen + (cross < 0n ? cross : 0n);
    return a > 0n ? a : 0n;
  }

  /** Runs a command through the engine and the model, then checks everything. */
  run(cmd: Command): CommandResult {
    this.n++;
    const b = this.before();
    const expected = this.modelCode(cmd);
    const r = this.e.execute(cmd);
    this.last = r;
    this.log.push(`${this.n} ${cmd.type} ${JSON.stringify(cmd, (_k, v) => (typeof v === 'bigint' ? `${v}` : v))} -> ${r.code}`);
    count(`${cmd.type} ${r.code}`);
    for (const ev of r.events) {
      if (ev.type === 'perpTrade') count(`trade ${ev.kind}${ev.takerUserId === '@insurance' ? ' by the fund' : ''}`);
      if (ev.type === 'liquidated') count(`liquidated ${ev.marginMode}${ev.equity < 0n ? ' (gap)' : ''}`);
      if (ev.type === 'perpOrderAccepted' && ev.order.trigger !== null) count(`order ${ev.order.trigger}`);
      if (ev.type === 'fundingPayment') count('funding payment');
    }
    if (expected !== null) expect(r.code, `${cmd.type} result (model ${expected})`).toBe(expected);
    else if (cmd.type !== 'perpMarkPrice') throw new Error('no model code');
    if (r.code === 'ok' || cmd.type === 'perpMarkPrice') this.apply(cmd, r, b);
    this.check(r, cmd);
    if (this.n % 25 === 0) {
      const restored = Engine.restore(JSON.parse(JSON.stringify(this.e.snapshot())));
      expect(restored.stateHash(), 'restore keeps the state').toBe(this.e.stateHash());
      this.e = restored;
    }
    return r;
  }

  /** The model's result code of a user command (null: decided while applying). */
  modelCode(cmd: Command): string | null {
    const m = this.m;
    switch (cmd.type) {
      case 'perpPlaceOrder':
        return m.placeCode(
          { user: cmd.userId, side: cmd.side, type: cmd.orderType, price: cmd.price ?? null, qty: cmd.quantity, reduceOnly: cmd.reduceOnly === true, takeProfit: cmd.takeProfit ?? null, stopLoss: cmd.stopLoss ?? null },
          this.available(cmd.userId),
        );
      case 'perpCancelOrder':
        return m.orders.some((o) => o.id === cmd.orderId && o.user === cmd.userId) ? 'ok' : 'order_not_found';
      case 'perpSetLeverage': {
        if (cmd.leverage < 1 || cmd.leverage > m.cfg.brackets[0]!.maxLeverage || !Number.isInteger(cmd.leverage)) return 'leverage_invalid';
        const p = m.positions.get(cmd.userId);
        if (p !== undefined) {
          // the position's notional at the mark must fit the leverage's bracket; its margin becomes ceil(cost / leverage),
          // the difference from the available balance
          if (p.size * m.mark! * m.mult > maxNotional(m, cmd.leverage)) return 'leverage_too_high';
          const now = this.e.position(cmd.userId, SYM)!.margin;
          const next = (p.cost + BigInt(cmd.leverage) - 1n) / BigInt(cmd.leverage);
          if (next - now > this.e.balance(cmd.userId, 'CONTRACT', 'USDT').available) return 'insufficient_balance';
        }
        return 'ok';
      }
      case 'perpSetMarginMode':
        return m.positions.has(cmd.userId) || m.userOrders(cmd.userId).length > 0 ? 'position_exists' : 'ok';
      case 'perpSetTpSl': {
        const p = m.positions.get(cmd.userId);
        if (p === undefined) return 'no_position';
        return m.tpslCode(p.side, cmd.takeProfit, cmd.stopLoss);
      }
      case 'perpAdjustMargin': {
        const p = m.positions.get(cmd.userId);
        if (p === undefined) return 'no_position';
        if (p.marginMode !== 'ISOLATED') return 'margin_mode_invalid';
        if (cmd.amount > 0n) return cmd.amount > this.e.balance(cmd.userId, 'CONTRACT', 'USDT').available ? 'insufficient_balance' : 'ok';
        // what is left (less an unrealized loss) may not be below the initial margin at the mark
        const margin = this.e.position(cmd.userId, SYM)!.margin;
        const im = (p.size * m.mark! * m.mult + BigInt(p.leverage) - 1n) / BigInt(p.leverage);
        const loss = m.upnl(p) < 0n ? m.upnl(p) : 0n;
        return -cmd.amount > margin || margin + cmd.amount + loss < im ? 'insufficient_balance' : 'ok';
      }
      case 'fundInsurance':
        return cmd.amount <= 0n ? 'amount_invalid' : 'ok';
      case 'perpFunding':
        return cmd.fundingTs % m.cfg.fundingIntervalMs === 0 && cmd.fundingTs <= cmd.ts && (m.lastFundingTs === null || cmd.fundingTs > m.lastFundingTs) ? 'ok' : 'funding_not_due';
      default:
        return null;
    }
  }

  apply(cmd: Command, r: CommandResult, b: Before): void {
    const m = this.m;
    const expectedFills = new Map<string, MFill[]>();
    const accepted = r.events.filter((ev): ev is Extract<EngineEvent, { type: 'perpOrderAccepted' }> => ev.type === 'perpOrderAccepted');
    switch (cmd.type) {
      case 'perpPlaceOrder': {
        const ov = accepted.find((ev) => ev.order.userId === cmd.userId && ev.order.trigger === null)?.order;
        if (ov === undefined) throw new Error('no perpOrderAccepted for an accepted order');
        this.placeModel(ov, expectedFills);
        break;
      }
      case 'perpCancelOrder':
        m.orders = m.orders.filter((o) => o.id !== cmd.orderId);
        break;
      case 'perpSetLeverage': {
        m.settings.set(cmd.userId, { ...m.settingsOf(cmd.userId), leverage: cmd.leverage });
        const p = m.positions.get(cmd.userId);
        if (p !== undefined) p.leverage = cmd.leverage;
        break;
      }
      case 'perpSetMarginMode':
        m.settings.set(cmd.userId, { ...m.settingsOf(cmd.userId), marginMode: cmd.marginMode });
        break;
      case 'perpSetTpSl': {
        const p = m.positions.get(cmd.userId)!;
        p.takeProfit = cmd.takeProfit;
        p.stopLoss = cmd.stopLoss;
        break;
      }
      case 'fundInsurance':
        m.system.insurance += cmd.amount;
        break;
      case 'perpFunding': {
        const settled = r.events.find((ev) => ev.type === 'fundingSettled');
        if (r.code !== 'ok') break;
        const { rate, amounts } = m.settleFunding(cmd.fundingTs);
        expect(settled !== undefined && settled.type === 'fundingSettled' ? settled.rateE8 : null, 'funding rate').toBe(rate);
        const paid = r.events.filter((ev) => ev.type === 'fundingPayment').map((ev) => (ev.type === 'fundingPayment' ? [ev.userId, ev.amount] : []));
        expect(new Map(paid as [string, bigint][]), 'funding payments').toEqual(amounts);
        break;
      }
      case 'perpMarkPrice':
        this.markModel(cmd, r, b, expectedFills);
        break;
      default:
        break;
    }
    // fills of every order placed in this command equal the model's
    const got = new Map<string, MFill[]>();
    for (const ev of r.events) {
      if (ev.type !== 'perpTrade' || ev.kind !== 'BOOK') continue;
      const k = ev.takerOrderId ?? '?';
      const l = got.get(k) ?? [];
      l.push({ makerOrderId: ev.makerOrderId ?? '?', makerUser: ev.makerUserId, takerUser: ev.takerUserId, price: ev.price, qty: ev.quantity, makerPnl: ev.makerRealizedPnl, takerPnl: ev.takerRealizedPnl, makerFee: ev.makerFee, takerFee: ev.takerFee });
      got.set(k, l);
    }
    for (const [k, l] of expectedFills) if (l.length === 0) expectedFills.delete(k);
    expect(got, 'fills').toEqual(expectedFills);
  }

  /** An order accepted by the engine (user's or engine's), run through the model's book. */
  placeModel(ov: PerpOrderView, fills: Map<string, MFill[]>): void {
    const m = this.m;
    const pos = m.positions.get(ov.userId);
    const reduces = pos !== undefined && pos.side !== (ov.side === 'BUY' ? 'LONG' : 'SHORT');
    if (ov.trigger === null) {
      expect(ov.tradeType, 'trade type').toBe(reduces ? (ov.side === 'SELL' ? 'CLOSE_LONG' : 'CLOSE_SHORT') : ov.side === 'BUY' ? 'OPEN_LONG' : 'OPEN_SHORT');
    }
    const o: MOrder = {
      id: ov.orderId,
      user: ov.userId,
      side: ov.side,
      type: ov.orderType,
      price: ov.price,
      qty: ov.quantity,
      filled: 0n,
      reduceOnly: ov.reduceOnly,
      leverage: ov.leverage,
      tradeType: ov.tradeType,
      takeProfit: ov.takeProfit,
      stopLoss: ov.stopLoss,
      status: 'NEW',
    };
    const got = m.execute({ user: o.user, side: o.side, price: o.price, qty: o.qty, reduceOnly: o.reduceOnly, leverage: o.leverage });
    fills.set(o.id, got);
    for (const f of got) {
      o.filled += f.qty;
      const maker = f.makerUser;
      const mo = this.makerTpSl.get(f.makerOrderId);
      if (mo !== undefined) this.setTpSl(maker, makerSide(m, f.makerOrderId), mo[0], mo[1]);
    }
    if (got.length > 0) this.setTpSl(o.user, o.side, o.takeProfit, o.stopLoss);
    if (o.filled < o.qty && o.type === 'LIMIT' && ov.timeInForce === 'GTC' && !(o.reduceOnly && !m.positions.has(o.user))) {
      o.status = o.filled > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      m.orders.push(o);
      if (o.takeProfit !== null || o.stopLoss !== null) this.makerTpSl.set(o.id, [o.takeProfit, o.stopLoss]);
      m.expireReduceOnly();
    }
  }
  makerTpSl = new Map<string, [bigint | null, bigint | null]>();
  /** An order's TP/SL go on the position it opened (not on what is left of a position it only reduced). */
  setTpSl(user: string, side: Side | undefined, tp: bigint | null, sl: bigint | null): void {
    const p = this.m.positions.get(user);
    if (p === undefined || (tp === null && sl === null) || p.side !== (side === 'BUY' ? 'LONG' : 'SHORT')) return;
    if (tp !== null) p.takeProfit = tp;
    if (sl !== null) p.stopLoss = sl;
  }

  /** A mark tick: mark, TP/SL, liquidations, the fund's close and ADL, in the engine's event order. */
  markModel(cmd: Extract<Command, { type: 'perpMarkPrice' }>, r: CommandResult, b: Before, fills: Map<string, MFill[]>): void {
    const m = this.m;
    const mark = m.tick(cmd.indexPrice, cmd.ts);
    const insuranceBefore = m.system.insurance;
    const ev0 = r.events.find((ev) => ev.type === 'markPrice');
    expect(ev0 !== undefined && ev0.type === 'markPrice' ? ev0.state.markPrice : null, 'mark price').toBe(mark);
    expect(ev0 !== undefined && ev0.type === 'markPrice' ? ev0.state.predictedFundingRateE8 : null, 'predicted funding rate').toBe(m.fundingRate());
    // a position already at risk is not closed by its TP/SL: liquidation takes it over at bankruptcy instead
    const atRiskNow = new Set(m.atRisk((x) => b.margin.get(x) ?? 0n));
    const triggered = new Map(m.triggered().filter(([who]) => !atRiskNow.has(who)));
    let riskChecked = false;
    let atRisk: string[] = [];
    const liquidated: string[] = [];
    const lost = new Map<string, bigint>(); // what a liquidated user's wallet loses
    const followMargin = new Map<string, bigint>(); // isolated margins of follow-up rounds' users (the engine's)
    // Isolated margin for the risk check: as before the tick, or, for a position opened in the tick (a TP/SL close or
    // the fund's close filled the user's resting order), the engine's (the model does not track margins).
    const marginOf = (x: string): bigint => b.margin.get(x) ?? this.e.position(x, SYM)?.margin ?? 0n;
    const followUp = new Set<string>(); // users with an order cancelled in the tick but no position before it
    for (const ev of r.events) if (ev.type === 'perpOrderUpdated' && ev.order.status === 'CANCELED' && !b.margin.has(ev.order.userId)) followUp.add(ev.order.userId);
    for (const ev of r.events) {
      if (ev.type === 'perpOrderAccepted' && ev.order.trigger !== null && ev.order.trigger !== 'LIQUIDATION' && ev.order.trigger !== 'ADL') {
        // TP/SL close
        const t = triggered.get(ev.order.userId);
        expect(t, `TP/SL of ${ev.order.userId} fired, model: not triggered`).toBe(ev.order.trigger);
        triggered.delete(ev.order.userId);
        expect(ev.order.reduceOnly && ev.order.orderType === 'MARKET', 'TP/SL closes by a MARKET reduce-only order').toBe(true);
        expect(ev.order.quantity, 'TP/SL closes the whole position').toBe(m.positions.get(ev.order.userId)?.size);
        expect(ev.order.tradeType).toBe('NORMAL_CLOSE');
        this.placeModel(ev.order, fills);
        const p = m.positions.get(ev.order.userId);
        if (p !== undefined) {
          const ep = this.e.position(ev.order.userId, SYM);
          p.takeProfit = ep?.takeProfit ?? null;
          p.stopLoss = ep?.stopLoss ?? null;
        }
        continue;
      }
      if (ev.type === 'perpOrderAccepted' && ev.order.userId === '@insurance') {
        expect(ev.order.tradeType).toBe('FORCE_CLOSE');
        const fp = m.positions.get('@insurance');
        expect(fp !== undefined && fp.side !== (ev.order.side === 'BUY' ? 'LONG' : 'SHORT'), "the fund's close reduces its position").toBe(true);
        // bounded by its balance: filled entirely at its limit, the fund's loss is at most what it has
        if (ev.order.price !== null) {
          const q = ev.order.quantity < fp!.size ? ev.order.quantity : fp!.size;
          const rel = q === fp!.size ? fp!.cost : (fp!.cost * q) / fp!.size;
          const value = ev.order.price * q * m.mult;
          const loss = fp!.side === 'LONG' ? rel - value : value - rel;
          expect(loss <= (m.system.insurance > 0n ? m.system.insurance : 0n), `the fund's close at ${ev.order.price} could lose ${loss}, more than its ${m.system.insurance}`).toBe(true);
        }
        this.placeModel(ev.order, fills);
        continue;
      }
      if ((ev.type === 'liquidated' || (ev.type === 'perpTrade' && ev.kind === 'TAKEOVER') || (ev.type === 'perpOrderUpdated' && ev.order.status === 'CANCELED')) && !riskChecked) {
        riskChecked = true;
        this.armed(triggered);
        atRisk = m.atRisk(marginOf);
      }
      if (ev.type === 'perpOrderUpdated' && ev.order.status === 'CANCELED') {
        // a follow-up round (the engine liquidates until nothing is at risk): a user whose position the fund's close
        // opened in this tick (no position before it) may be liquidated too
        if (b.margin.has(ev.order.userId) || !followUp.has(ev.order.userId)) expect(atRisk, `order ${ev.order.orderId} cancelled in a mark tick`).toContain(ev.order.userId);
        m.orders = m.orders.filter((o) => o.id !== ev.order.orderId);
        continue;
      }
      if (ev.type === 'liquidated') {
        expect(atRisk, `${ev.userId} liquidated at ${ev.markPrice}, model: not at risk`).toContain(ev.userId);
        const p = m.positions.get(ev.userId);
        if (p !== undefined) {
          const wb = p.marginMode === 'ISOLATED' ? (followMargin.get(ev.userId) ?? b.margin.get(ev.userId) ?? 0n) : m.walletOf(ev.userId);
          expect(ev.equity, `equity of ${ev.userId} before its liquidation`).toBe(wb + m.upnl(p));
          // the mark reached math.ts's liquidation price
          const lp = liquidationPrice(p.side, p.size, p.cost, wb, m.tiers, m.mult);
          if (lp !== null) expect(p.side === 'LONG' ? ev.markPrice <= lp : ev.markPrice >= lp, `${ev.userId} liquidated at ${ev.markPrice}, before its liquidation price ${lp}`).toBe(true);
        }
        liquidated.push(ev.userId);
        continue;
      }
      if (ev.type === 'perpTrade' && ev.kind === 'TAKEOVER') {
        const who = ev.takerUserId;
        const p = m.positions.get(who)!;
        expect(p, `takeover of ${who} without a position`).toBeDefined();
        expect(ev.quantity, 'takeover of the whole position').toBe(p.size);
        expect(ev.makerUserId).toBe('@insurance');
        // a position opened in this tick: its isolated margin is the engine's (the takeover realizes exactly -margin)
        if (!b.margin.has(who) && p.marginMode === 'ISOLATED') followMargin.set(who, -ev.takerRealizedPnl);
        if (!atRisk.includes(who)) {
          // A follow-up round: only a position the fund's close opened in this tick; its isolated margin is the
          // engine's (the model does not track margins), and with it the model must find it at risk.
          expect(b.margin.has(who), `${who} taken over in a follow-up round held a position before the tick`).toBe(false);
          const fm = p.marginMode === 'ISOLATED' ? -ev.takerRealizedPnl : 0n;
          followMargin.set(who, fm);
          atRisk = [...new Set([...atRisk, ...m.atRisk((x) => followMargin.get(x) ?? b.margin.get(x) ?? 0n)])].sort();
          expect(atRisk, `${who} taken over in a follow-up round, model: not at risk`).toContain(who);
        }
        const w = p.marginMode === 'ISOLATED' ? (followMargin.get(who) ?? b.margin.get(who) ?? 0n) : m.walletOf(who);
        lost.set(who, w);
        const size = p.size;
        const { pnl, fundCost } = m.takeover(who, w);
        expect([ev.takerRealizedPnl, ev.makerRealizedPnl, ev.takerFee, ev.makerFee], 'takeover: the user realizes -margin in scope').toEqual([pnl, 0n, 0n, 0n]);
        // the trade's price is the bankruptcy price rounded to a price unit
        const d = ev.price * size * m.mult - fundCost;
        expect(d < 0n ? -d : d, `takeover price ${ev.price} is the bankruptcy price`).toBeLessThan(size * m.mult);
        continue;
      }
      if (ev.type === 'perpTrade' && ev.kind === 'ADL') {
        const who = ev.takerUserId;
        const p = m.positions.get(who);
        const fp = m.positions.get('@insurance');
        expect(p !== undefined && fp !== undefined && p.side !== fp.side, `ADL of ${who} against the fund`).toBe(true);
        const [up, fpnl] = m.adl(who, ev.quantity);
        expect([ev.takerRealizedPnl, ev.makerRealizedPnl, ev.takerFee, ev.makerFee], 'ADL PnL').toEqual([up, fpnl, 0n, 0n]);
        m.expireReduceOnly();
        continue;
      }
    }
    if (!riskChecked) {
      this.armed(triggered);
      atRisk = m.atRisk(marginOf);
    }
    expect(liquidated.sort(), 'liquidated scopes').toEqual(atRisk);
    // insuranceDelta is the exact change of the fund's balance (docs/perpetuals.md): their sum is this tick's change
    let deltas = 0n;
    for (const ev of r.events) if (ev.type === 'liquidated') deltas += ev.insuranceDelta;
    expect(deltas, "the liquidations' insuranceDelta sum to the fund's change").toBe(m.system.insurance - insuranceBefore);
    m.expireReduceOnly();
  }

  /** TP/SL the model saw triggered but the engine did not fire: only when the book cannot take the close (still armed). */
  armed(triggered: Map<string, string>): void {
    for (const who of triggered.keys()) {
      const p = this.m.positions.get(who)!;
      const fills = this.m.previewFills({ user: who, side: p.side === 'LONG' ? 'SELL' : 'BUY', price: null, qty: p.size, reduceOnly: true });
      expect(fills, `TP/SL of ${who} should have fired (the book has liquidity)`).toEqual([]);
    }
  }

  /** Invariants and the comparison with the model after a command. */
  check(r: CommandResult, cmd: Command | null): void {
    const e = this.e;
    const m = this.m;
    for (const [asset, total] of e.assetTotals()) expect(total, `${asset} sums to 0`).toBe(0n);
    for (const a of e.ledger.accounts()) {
      if (a.kind === 'SYSTEM') continue;
      expect(a.available >= 0n && a.frozen >= 0n, `bucket of ${a.owner}/${a.kind}`).toBe(true);
    }
    const sys = (o: string): bigint => {
      const bal = e.balance(o, 'SYSTEM', 'USDT');
      return bal.available + bal.frozen;
    };
    let longCost = 0n;
    let shortCost = 0n;
    for (const who of [MM, ...USERS, '@insurance']) {
      const p = e.position(who, SYM);
      if (p === undefined) continue;
      if (p.side === 'LONG') longCost += p.cost;
      else shortCost += p.cost;
    }
    expect(sys('@clearing') + longCost - shortCost, '@clearing identity').toBe(0n);
    expect(e.position('@insurance', SYM), 'the fund holds no position after a command').toBeUndefined();
    expect({ fee: sys('@fee'), funding: sys('@funding'), clearing: sys('@clearing'), insurance: sys('@insurance') }, 'system accounts').toEqual(m.system);
    for (const who of [MM, ...USERS]) {
      const bal = e.balance(who, 'CONTRACT', 'USDT');
      expect(bal.available + bal.frozen, `wallet of ${who}`).toBe(m.walletOf(who));
      const acc = e.perpAccount(who);
      expect(acc.walletBalance, `perpAccount(${who}).walletBalance`).toBe(m.walletOf(who));
      expect(acc.availableBalance, `perpAccount(${who}).availableBalance`).toBe(this.available(who));
      const ep = e.position(who, SYM);
      const mp = m.positions.get(who);
      expect(view(ep), `position of ${who}`).toEqual(mp === undefined ? undefined : { side: mp.side, size: mp.size, cost: mp.cost, realizedPnl: mp.realizedPnl, funding: mp.funding, fees: mp.fees, takeProfit: mp.takeProfit, stopLoss: mp.stopLoss, marginMode: mp.marginMode, leverage: mp.leverage });
      if (ep !== undefined) {
        const d = ep.size * m.mult;
        expect(ep.entryPrice, 'entry price').toBe((2n * ep.cost + d) / (2n * d));
      }
      const open = e.perpOpenOrders(who, SYM);
      expect(open.map((o) => [o.orderId, o.filledQty, o.status]), `open orders of ${who}`).toEqual(m.userOrders(who).map((o) => [o.id, o.filled, o.status]));
      let holds = 0n;
      for (const o of open) holds += o.hold;
      expect(bal.frozen, `frozen of ${who} = holds + margin`).toBe(holds + (ep?.margin ?? 0n));
      if (ep !== undefined && m.mark !== null && cmd?.type === 'perpMarkPrice') {
        // after the liquidation step: no position at risk, none with a negative margin balance
        const upnl = m.upnl(mp!);
        const mb = ep.marginMode === 'ISOLATED' ? ep.margin + upnl : m.walletOf(who) + upnl;
        expect(mb > m.mm(mp!), `${who} left at risk after the liquidation step`).toBe(true);
        // math.ts's estimate with the wallet in scope (isolated: the margin; cross, one market: the whole wallet)
        const lp = liquidationPrice(ep.side, ep.size, ep.cost, ep.marginMode === 'ISOLATED' ? ep.margin : m.walletOf(who), m.tiers, m.mult);
        if (lp !== null && lp > 0n) expect(ep.side === 'LONG' ? m.mark >= lp : m.mark <= lp, `survivor ${who} beyond its liquidation price ${lp}`).toBe(true);
      }
    }
    if (cmd?.type === 'perpMarkPrice') {
      for (const ev of r.events) {
        if (ev.type !== 'liquidated') continue;
        expect(ev.markPrice).toBe(m.mark);
      }
    }
  }

  markTick(move: number, requote: boolean): void {
    this.index = (this.index * BigInt(1_000_000 + move)) / 1_000_000n;
    if (this.index < 1000n) this.index = 1000n;
    if (requote) this.requote();
    this.ts += 1000;
    this.run({ type: 'perpMarkPrice', ts: this.ts, symbol: SYM, indexPrice: this.index });
  }

  /** The maker cancels its orders and quotes three levels each side around the index. */
  requote(): void {
    for (const o of this.m.userOrders(MM)) this.run({ type: 'perpCancelOrder', ts: this.ts, userId: MM, orderId: o.id });
    const mid = this.index;
    for (let i = 1n; i <= 3n; i++) {
      const step = (mid * i) / 2000n + 1n;
      for (const side of ['BUY', 'SELL'] as const) {
        const price = side === 'BUY' ? mid - step : mid + step;
        if (price <= 0n) continue;
        if (this.m.previewFills({ user: MM, side, price, qty: 1n, reduceOnly: false }).length > 0) continue; // never cross users' orders
        this.run({ type: 'perpPlaceOrder', ts: this.ts, userId: MM, symbol: SYM, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 500n * i });
      }
    }
  }

  step(op: Op): void {
    const m = this.m;
    this.ts += 1000;
    const who = 'u' in op ? USERS[op.u]! : MM;
    const ref = m.mark ?? this.index;
    const rel = (pm: number | null): bigint | undefined => (pm === null ? undefined : (ref * BigInt(1000 + pm)) / 1000n);
    switch (op.k) {
      case 'transfer':
        this.transfer(who, BigInt(op.amount) * USDT);
        return;
      case 'place': {
        const side: Side = op.buy ? 'BUY' : 'SELL';
        const price = op.market ? null : (ref * BigInt(1000 + op.off)) / 1000n;
        const qty = lotsToQty(BigInt(op.lots), price ?? ref, m.cfg.lotNotional, m.cfg.stepSize, m.mult);
        // the driver never lets a user meet its own resting order (the engine's self-trade rule is not the subject)
        const own = m.userOrders(who).filter((o) => o.side !== side);
        if (own.some((o) => price === null || (side === 'BUY' ? o.price! <= price : o.price! >= price))) return;
        this.run({
          type: 'perpPlaceOrder',
          ts: this.ts,
          userId: who,
          symbol: SYM,
          side,
          orderType: op.market ? 'MARKET' : 'LIMIT',
          timeInForce: op.market || op.ioc ? 'IOC' : 'GTC',
          ...(price === null ? {} : { price }),
          quantity: qty,
          lots: op.lots,
          ...(op.reduce ? { reduceOnly: true } : {}),
          ...(op.reduce || op.tp === null ? {} : { takeProfit: rel(Math.abs(op.tp) * (op.buy ? 1 : -1))! }),
          ...(op.reduce || op.sl === null ? {} : { stopLoss: rel(Math.abs(op.sl) * (op.buy ? -1 : 1))! }),
        });
        return;
      }
      case 'cancel': {
        const os = m.userOrders(who);
        const id = os.length === 0 ? '999999' : os[op.i % os.length]!.id;
        this.run({ type: 'perpCancelOrder', ts: this.ts, userId: who, orderId: id });
        return;
      }
      case 'lev':
        this.run({ type: 'perpSetLeverage', ts: this.ts, userId: who, symbol: SYM, leverage: op.lev });
        return;
      case 'mode':
        this.run({ type: 'perpSetMarginMode', ts: this.ts, userId: who, symbol: SYM, marginMode: op.iso ? 'ISOLATED' : 'CROSS' });
        return;
      case 'tpsl': {
        const p = m.positions.get(who);
        const long = p?.side !== 'SHORT';
        this.run({
          type: 'perpSetTpSl',
          ts: this.ts,
          userId: who,
          symbol: SYM,
          takeProfit: op.tp === null ? null : rel(Math.abs(op.tp) * (long ? 1 : -1))!,
          stopLoss: op.sl === null ? null : rel(Math.abs(op.sl) * (long ? -1 : 1))!,
        });
        return;
      }
      case 'adjust':
        this.run({ type: 'perpAdjustMargin', ts: this.ts, userId: who, symbol: SYM, amount: BigInt(op.amount) * USDT });
        return;
      case 'mark':
        this.markTick(op.move, op.requote);
        return;
      case 'time': {
        const end = this.ts + op.hours * HOUR;
        for (;;) {
          const next = fundingTimeAtOrBefore(this.ts, m.cfg.fundingIntervalMs) + m.cfg.fundingIntervalMs;
          if (next > end) break;
          this.ts = next - 500;
          this.run({ type: 'perpMarkPrice', ts: this.ts, symbol: SYM, indexPrice: this.index });
          this.ts = next + 1;
          if (m.lastFundingTs !== null) this.run({ type: 'perpFunding', ts: this.ts, symbol: SYM, fundingTs: m.lastFundingTs });
          this.run({ type: 'perpFunding', ts: this.ts, symbol: SYM, fundingTs: next });
        }
        this.ts = end;
        return;
      }
      case 'fund':
        this.run({ type: 'fundInsurance', ts: this.ts, asset: 'USDT', amount: BigInt(op.amount) * USDT, from: '@faucet' });
        return;
    }
  }
}

function makerSide(m: PerpModel, id: string): Side | undefined {
  return m.orders.find((o) => o.id === id)?.side ?? m.filledSides.get(id);
}

function maxNotional(m: PerpModel, leverage: number): bigint {
  let cap = 0n;
  for (const t of m.tiers) if (t.maxLeverage >= leverage) cap = t.notionalCap;
  return cap;
}

function view(p: PositionView | undefined): unknown {
  if (p === undefined) return undefined;
  const { side, size, cost, realizedPnl, funding, fees, takeProfit, stopLoss, marginMode, leverage } = p;
  return { side, size, cost, realizedPnl, funding, fees, takeProfit, stopLoss, marginMode, leverage };
}

describe('perpetual engine against the model', () => {
  it('same codes, fills, positions, wallets and system accounts; invariants after every command; snapshot round trips', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 150 }), (ops) => {
        const run = new Run();
        try {
          for (const op of ops) run.step(op);
        } catch (err) {
          // the last commands help to read a failure
          (err as Error).message += `\n${run.log.slice(-8).join('\n')}`;
          throw err;
        }
      }),
      { numRuns: Number((globalThis as unknown as { process?: { env: Record<string, string | undefined> } }).process?.env.PERP_RUNS ?? 40), ...(((globalThis as unknown as { process?: { env: Record<string, string | undefined> } }).process?.env.PERP_SEED) ? { seed: Number((globalThis as unknown as { process: { env: Record<string, string> } }).process.env.PERP_SEED) } : {}) },
    );
    (globalThis as unknown as { console: { log(s: string): void } }).console.log(
      `perp property: ${[...STATS].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    );
  }, 120_000);
});
