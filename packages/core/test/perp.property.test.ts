/**
 * Model-based property test of the perpetual contracts (ARCHITECTURE.md, convention 5): random streams of transfers
 * into CONTRACT, orders of four users at leverages 1x..125x in both margin modes (limit GTC/IOC, market, reduce-only,
 * with TP/SL), cancels, leverage / margin mode / TP-SL / isolated margin changes, a maker re-quoting around the mark,
 * mark price moves including gaps of up to 30%, time passing with funding at every 8 h boundary, and insurance fund
 * seeds, run against the Engine and against test/perp-model.ts. After every command:
 *  - the same result code; the same fills (maker order, price, quantity, realized PnL, fees) of every order, including
 *    the engine's own (take profit / stop loss closes, the insurance fund's close);
 *  - positions (side, size, cost, margin, entry price, realized PnL, funding, fees, TP/SL, mode, leverage), wallets,
 *    open orders (with their holds), '@fee', '@funding', '@clearing' and '@insurance' equal the model's; the model
 *    tracks every hold and every cross and isolated margin itself (nothing read from the engine but its order ids,
 *    its own orders and the order of its liquidation steps), so a frozen balance is the model's holds + margins;
 *  - every asset sums to 0n, no user bucket is negative, '@clearing' + sum long cost - sum short cost = 0, a user's
 *    frozen CONTRACT balance is its orders' holds plus its positions' margins, the account view's wallet and
 *    available balance are what they say;
 *  - after a mark tick, followed event by event (markModel): the TP/SL the model finds triggered fire, the
 *    liquidation rounds take over exactly the scopes the model finds at risk level >= 100% at each round's start
 *    (the takeover at the model's bankruptcy value, the `liquidated` event's equity and insurance delta the model's),
 *    and no position is left at risk or with a negative margin balance; a liquidated position's mark is beyond
 *    math.ts's liquidation price, a survivor's on the safe side; the mark and the funding rate are the model's.
 * Every 25 commands the engine is replaced by Engine.restore(snapshot) (same stateHash).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import { fundingTimeAtOrBefore, liquidationPrice, lotsToQty } from '../src/perp/math';
import type { PerpOrderView, PositionView } from '../src/perp/types';
import type { Command, CommandResult, EngineEvent, Side } from '../src/types';
import { HOUR, T0, USDT, perpMarket } from './perp-fixture';
import { PerpModel, type MFill, type MOrder, type MPos, type MTaker } from './perp-model';

const SYM = 'BTC/USDT';
const USERS = ['u1', 'u2', 'u3', 'u4'];
const MM = 'mm';
const LEVERAGES = [1, 2, 5, 10, 20, 50, 75, 100, 125];

type Op =
  | { k: 'transfer'; u: number; amount: number }
  | { k: 'transferOut'; u: number; amount: number; all: boolean }
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
  { arbitrary: fc.record({ k: fc.constant('transferOut' as const), u, amount: fc.integer({ min: 1, max: 3000 }), all: fc.boolean() }), weight: 2 },
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

/** What the streams exercised (printed after the property, to see that it reaches fills, TP/SL and liquidations). */
const STATS = new Map<string, number>();
const count = (k: string, n = 1): void => {
  STATS.set(k, (STATS.get(k) ?? 0) + n);
};

/** The liquidation the driver is following inside a mark tick. */
interface Liq {
  who: string;
  p: MPos;
  /** orders in scope the engine must still cancel, in order */
  cancels: string[];
  /** the takeover was seen (its equity and the fund's balance when the liquidation began) */
  taken: boolean;
  equity: bigint;
  fundBefore: bigint;
  /** the limit of the fund's closing order the model expects after the takeover (null: none), and whether it came */
  fundLimit: bigint | null;
  fundClosed: boolean;
  /** the ADL order the model ranks when the first ADL comes (null before) */
  adl: string[] | null;
}

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
  /** the model's hold of the order being placed */
  nextHold = 0n;

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

  /**
   * A transfer out of the contract account: accepted up to the max withdraw amount, the available balance plus cross
   * unrealized losses (docs/perpetuals.md "Orders and margin"; Binance's maxWithdrawAmount). `all`: exactly that
   * amount, then one quote unit more.
   */
  transferOut(who: string, amount: bigint, all: boolean): void {
    const max = this.m.orderAvailable(who);
    const tries = all ? [max + 1n, max] : [amount];
    for (const amt of tries) {
      if (amt <= 0n) continue;
      const code = amt > max ? 'insufficient_balance' : 'ok';
      const r = this.e.execute({ type: 'transfer', ts: this.ts, userId: who, asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: amt });
      expect(r.code, `transfer out ${amt} of ${max}`).toBe(code);
      if (code === 'ok') {
        this.spot.set(who, (this.spot.get(who) ?? 0n) + amt);
        this.m.addWallet(who, -amt);
      }
      this.check(r, null);
    }
  }

  /** available balance as perpAccount defines it, from the model alone (wallet - holds - margins + cross losses) */
  available(who: string): bigint {
    const a = this.m.orderAvailable(who);
    return a > 0n ? a : 0n;
  }

  /** Runs a command through the engine and the model, then checks everything. */
  run(cmd: Command): CommandResult {
    this.n++;
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
    if (r.code === 'ok' || cmd.type === 'perpMarkPrice') this.apply(cmd, r);
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
      case 'perpPlaceOrder': {
        const { code, hold } = m.placeCheck({
          user: cmd.userId,
          side: cmd.side,
          type: cmd.orderType,
          price: cmd.price ?? null,
          qty: cmd.quantity,
          reduceOnly: cmd.reduceOnly === true,
          takeProfit: cmd.takeProfit ?? null,
          stopLoss: cmd.stopLoss ?? null,
        });
        this.nextHold = hold;
        return code;
      }
      case 'perpCancelOrder':
        return m.orders.some((o) => o.id === cmd.orderId && o.user === cmd.userId) ? 'ok' : 'order_not_found';
      case 'perpSetLeverage':
        if (cmd.leverage < 1 || cmd.leverage > m.cfg.brackets[0]!.maxLeverage || !Number.isInteger(cmd.leverage)) return 'leverage_invalid';
        return m.setLeverage(cmd.userId, cmd.leverage, false);
      case 'perpSetMarginMode':
        return m.positions.has(cmd.userId) || m.userOrders(cmd.userId).length > 0 ? 'position_exists' : 'ok';
      case 'perpSetTpSl': {
        const p = m.positions.get(cmd.userId);
        if (p === undefined) return 'no_position';
        return m.tpslCode(p.side, cmd.takeProfit, cmd.stopLoss);
      }
      case 'perpAdjustMargin':
        return m.adjustMargin(cmd.userId, cmd.amount, false);
      case 'fundInsurance':
        return cmd.amount <= 0n ? 'amount_invalid' : 'ok';
      case 'perpFunding':
        return cmd.fundingTs % m.cfg.fundingIntervalMs === 0 && cmd.fundingTs <= cmd.ts && (m.lastFundingTs === null || cmd.fundingTs > m.lastFundingTs)
          ? 'ok'
          : 'funding_not_due';
      default:
        return null;
    }
  }

  apply(cmd: Command, r: CommandResult): void {
    const m = this.m;
    const expectedFills = new Map<string, MFill[]>();
    const accepted = r.events.filter((ev): ev is Extract<EngineEvent, { type: 'perpOrderAccepted' }> => ev.type === 'perpOrderAccepted');
    switch (cmd.type) {
      case 'perpPlaceOrder': {
        const ov = accepted.find((ev) => ev.order.userId === cmd.userId && ev.order.trigger === null)?.order;
        if (ov === undefined) throw new Error('no perpOrderAccepted for an accepted order');
        this.placeModel(ov, expectedFills, this.nextHold);
        break;
      }
      case 'perpCancelOrder':
        m.removeOrder(cmd.orderId!, 'CANCELED');
        break;
      case 'perpSetLeverage':
        expect(m.setLeverage(cmd.userId, cmd.leverage, true)).toBe('ok');
        break;
      case 'perpSetMarginMode':
        m.settings.set(cmd.userId, { ...m.settingsOf(cmd.userId), marginMode: cmd.marginMode });
        break;
      case 'perpSetTpSl': {
        const p = m.positions.get(cmd.userId)!;
        p.takeProfit = cmd.takeProfit;
        p.stopLoss = cmd.stopLoss;
        break;
      }
      case 'perpAdjustMargin':
        expect(m.adjustMargin(cmd.userId, cmd.amount, true)).toBe('ok');
        break;
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
        this.markModel(cmd, r, expectedFills);
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
      l.push({
        makerOrderId: ev.makerOrderId ?? '?',
        makerUser: ev.makerUserId,
        takerUser: ev.takerUserId,
        price: ev.price,
        qty: ev.quantity,
        makerPnl: ev.makerRealizedPnl,
        takerPnl: ev.takerRealizedPnl,
        makerFee: ev.makerFee,
        takerFee: ev.takerFee,
      });
      got.set(k, l);
    }
    for (const [k, l] of expectedFills) if (l.length === 0) expectedFills.delete(k);
    expect(got, 'fills').toEqual(expectedFills);
  }

  /**
   * An order accepted by the engine (user's or engine's), run through the model's book with the model's hold (a user
   * order's, from placeCheck; the engine's own orders hold nothing).
   */
  placeModel(ov: PerpOrderView, fills: Map<string, MFill[]>, hold: bigint): void {
    const m = this.m;
    const pos = m.positions.get(ov.userId);
    const reduces = pos !== undefined && pos.side !== (ov.side === 'BUY' ? 'LONG' : 'SHORT');
    if (ov.trigger === null) {
      expect(ov.tradeType, 'trade type').toBe(reduces ? (ov.side === 'SELL' ? 'CLOSE_LONG' : 'CLOSE_SHORT') : ov.side === 'BUY' ? 'OPEN_LONG' : 'OPEN_SHORT');
      expect([ov.hold, ov.leverage, ov.marginMode], `hold, leverage and margin mode of order ${ov.orderId}`).toEqual([
        hold,
        m.settingsOf(ov.userId).leverage,
        m.settingsOf(ov.userId).marginMode,
      ]);
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
      marginMode: ov.marginMode,
      hold: ov.trigger === null ? hold : 0n,
      tradeType: ov.tradeType,
      takeProfit: ov.takeProfit,
      stopLoss: ov.stopLoss,
      status: 'NEW',
    };
    const got = m.execute(o);
    fills.set(o.id, got);
    for (const f of got) {
      o.filled += f.qty;
      const maker = f.makerUser;
      const mo = this.makerTpSl.get(f.makerOrderId);
      if (mo !== undefined) this.setTpSl(maker, makerSide(m, f.makerOrderId), mo[0], mo[1]);
    }
    if (got.length > 0) this.setTpSl(o.user, o.side, o.takeProfit, o.stopLoss);
    m.expiredMakers = [];
    if (o.filled < o.qty && o.type === 'LIMIT' && ov.timeInForce === 'GTC' && !(o as MTaker).stopped && !(o.reduceOnly && !m.positions.has(o.user))) {
      o.status = o.filled > 0n ? 'PARTIALLY_FILLED' : 'NEW';
      m.orders.push(o);
      if (o.takeProfit !== null || o.stopLoss !== null) this.makerTpSl.set(o.id, [o.takeProfit, o.stopLoss]);
      m.expireReduceOnly();
    } else o.hold = 0n; // what is left of the hold goes back when the order ends
  }
  makerTpSl = new Map<string, [bigint | null, bigint | null]>();
  /** An order's TP/SL go on the position it opened (not on what is left of a position it only reduced). */
  setTpSl(user: string, side: Side | undefined, tp: bigint | null, sl: bigint | null): void {
    const p = this.m.positions.get(user);
    if (p === undefined || (tp === null && sl === null) || p.side !== (side === 'BUY' ? 'LONG' : 'SHORT')) return;
    if (tp !== null) p.takeProfit = tp;
    if (sl !== null) p.stopLoss = sl;
  }

  /**
   * A mark tick, followed event by event in the engine's order, every step decided or allowed by the model's own
   * state (its margins included, nothing read from the engine):
   *  - the mark and the predicted funding rate;
   *  - the TP/SL closes: the positions the model finds triggered and not at risk, in the positions' order; one is
   *    passed over only when its position is gone or the book has no bid (ask) for its close;
   *  - the liquidation rounds: a round's scopes are the positions the model finds at risk when it starts, in the
   *    positions' order; each is liquidated (its orders in scope cancelled, then, if still at risk, the takeover at the
   *    model's bankruptcy value, the fund's close, ADL (each deleveraged user's open orders cancelled first, in the
   *    model's ranking), the `liquidated` event with the model's equity and the fund's
   *    exact change) or passed over only when its position is gone or no longer at risk; after the last round the
   *    model finds nothing at risk.
   */
  markModel(cmd: Extract<Command, { type: 'perpMarkPrice' }>, r: CommandResult, fills: Map<string, MFill[]>): void {
    const m = this.m;
    const mark = m.tick(cmd.indexPrice, cmd.ts);
    const ev0 = r.events.find((ev) => ev.type === 'markPrice');
    expect(ev0 !== undefined && ev0.type === 'markPrice' ? ev0.state.markPrice : null, 'mark price').toBe(mark);
    expect(ev0 !== undefined && ev0.type === 'markPrice' ? ev0.state.predictedFundingRateE8 : null, 'predicted funding rate').toBe(m.fundingRate());
    // a position already at risk is not closed by its TP/SL: liquidation takes it over at bankruptcy instead
    const hits = m.triggered().filter(([who, , p]) => !m.isAtRisk(who, p));
    /** passes over the TP/SL hits before `upTo` (all of them when null), each only if allowed */
    const passTpSl = (upTo: string | null): void => {
      while (hits.length > 0 && hits[0]![0] !== upTo) {
        const [who, , p] = hits.shift()!;
        const gone = m.positions.get(who) !== p;
        expect(gone || m.best(p.side === 'LONG' ? 'BUY' : 'SELL') === null, `TP/SL of ${who} should have fired (the book has liquidity)`).toBe(true);
      }
      if (upTo !== null && hits.length === 0) throw new Error(`TP/SL of ${upTo} fired, model: not triggered (or not in this order)`);
    };
    // the round being followed (its scopes not reached yet), rounds so far, the liquidation being followed
    const st: { round: [string, MPos][] | null; rounds: number; cur: Liq | null } = { round: null, rounds: 0, cur: null };
    const liquidated: string[] = [];
    /** a scope of the round the engine passes over: its position is gone, or it is not at risk and has no orders */
    const passOk = (u: string, p: MPos): boolean => m.positions.get(u) !== p || (!m.isAtRisk(u, p) && m.ordersInScope(u).length === 0);
    const endCurrent = (): void => {
      if (st.cur === null) return;
      expect(st.cur.cancels, `orders of ${st.cur.who} its liquidation should have cancelled`).toEqual([]);
      if (st.cur.taken) throw new Error(`liquidation of ${st.cur.who} without its liquidated event`);
      // its orders cancelled, the scope is no longer at risk: the liquidation stops there
      expect(m.isAtRisk(st.cur.who, st.cur.p), `${st.cur.who}'s orders were cancelled but it was not taken over, model: still at risk`).toBe(false);
      st.cur = null;
    };
    const begin = (who: string): Liq => {
      passTpSl(null);
      endCurrent();
      for (;;) {
        if (st.round === null || st.round.length === 0) {
          st.round = m.atRiskPositions();
          st.rounds++;
          expect(st.round.length > 0 && st.rounds <= 16, `${who} liquidated in round ${st.rounds}, model: nothing at risk`).toBe(true);
        }
        const [u, p] = st.round.shift()!;
        if (u === who) {
          expect(m.positions.get(u) === p, `${u}'s position changed before its liquidation in round ${st.rounds}`).toBe(true);
          st.cur = {
            who,
            p,
            cancels: m.ordersInScope(who),
            taken: false,
            equity: 0n,
            fundBefore: m.system.insurance,
            fundLimit: null,
            fundClosed: false,
            adl: null,
          };
          return st.cur;
        }
        expect(passOk(u, p), `${u} at risk in round ${st.rounds} (model), but the engine liquidated ${who} first`).toBe(true);
      }
    };
    for (const ev of r.events) {
      if (ev.type === 'perpOrderAccepted' && (ev.order.trigger === 'TAKE_PROFIT' || ev.order.trigger === 'STOP_LOSS')) {
        const who = ev.order.userId;
        expect(st.round, `TP/SL of ${who} after a liquidation`).toBeNull();
        passTpSl(who);
        const [, t, p] = hits.shift()!;
        expect(ev.order.trigger, `TP/SL of ${who}`).toBe(t);
        expect(ev.order.reduceOnly && ev.order.orderType === 'MARKET', 'TP/SL closes by a MARKET reduce-only order').toBe(true);
        expect(ev.order.quantity, 'TP/SL closes the whole position').toBe(p.size);
        expect(ev.order.tradeType).toBe('NORMAL_CLOSE');
        // a fired TP/SL is spent (both of them), whatever the close fills
        p.takeProfit = null;
        p.stopLoss = null;
        this.placeModel(ev.order, fills, 0n);
        continue;
      }
      if (ev.type === 'perpOrderUpdated' && ev.order.status === 'CANCELED' && st.cur?.taken === true) {
        // BitMEX and Delta Exchange: a deleveraged trader's open orders in the contract are cancelled before its close
        const c = st.cur;
        c.adl ??= m.adlRanking();
        expect(ev.order.userId, `orders cancelled for ADL (model's ranking ${c.adl.join(' ')})`).toBe(c.adl[0]);
        expect(m.removeOrder(ev.order.orderId, 'CANCELED'), `ADL cancels an open order of ${ev.order.userId}`).toBeDefined();
        continue;
      }
      if (ev.type === 'perpOrderUpdated' && ev.order.status === 'CANCELED') {
        const who = ev.order.userId;
        const c = st.cur !== null && st.cur.who === who && !st.cur.taken ? st.cur : begin(who);
        expect(ev.order.orderId, `liquidation of ${who} cancels its orders in scope, in order`).toBe(c.cancels[0]);
        c.cancels.shift();
        m.removeOrder(ev.order.orderId, 'CANCELED');
        continue;
      }
      if (ev.type === 'perpTrade' && ev.kind === 'TAKEOVER') {
        const who = ev.takerUserId;
        const c = st.cur !== null && st.cur.who === who && !st.cur.taken ? st.cur : begin(who);
        expect(c.cancels, `orders of ${who} cancelled before its takeover`).toEqual([]);
        const p = m.positions.get(who)!;
        expect(m.isAtRisk(who, p), `${who} taken over, model: not at risk (margin balance ${m.marginBalance(who, p)}, maintenance ${m.mm(p)})`).toBe(true);
        expect([ev.quantity, ev.makerUserId], 'takeover of the whole position by the fund').toEqual([p.size, '@insurance']);
        // the mark reached math.ts's liquidation price (wallet in scope: the isolated margin, or the cross wallet)
        const lp = liquidationPrice(p.side, p.size, p.cost, p.marginMode === 'ISOLATED' ? p.margin : m.crossWallet(who), m.tiers, m.mult);
        if (lp !== null) expect(p.side === 'LONG' ? mark <= lp : mark >= lp, `${who} liquidated at ${mark}, before its liquidation price ${lp}`).toBe(true);
        const size = p.size;
        const t = m.takeover(who);
        c.taken = true;
        c.equity = t.equity;
        c.fundLimit = m.fundCloseLimit();
        expect([ev.takerRealizedPnl, ev.makerRealizedPnl, ev.takerFee, ev.makerFee], 'takeover: the user realizes -margin in scope').toEqual([
          t.pnl,
          0n,
          0n,
          0n,
        ]);
        // the trade's price is the bankruptcy price rounded to a price unit
        const d = ev.price * size * m.mult - t.fundCost;
        expect(d < 0n ? -d : d, `takeover price ${ev.price} is the bankruptcy price`).toBeLessThan(size * m.mult);
        continue;
      }
      if (ev.type === 'perpOrderAccepted' && ev.order.userId === '@insurance') {
        expect(st.cur?.taken && !st.cur.fundClosed, "the fund's close inside a liquidation, once").toBe(true);
        expect(ev.order.price, "the fund's close's limit (model)").toBe(st.cur!.fundLimit);
        st.cur!.fundClosed = true;
        expect(ev.order.tradeType).toBe('FORCE_CLOSE');
        const fp = m.positions.get('@insurance');
        expect(fp !== undefined && fp.side !== (ev.order.side === 'BUY' ? 'LONG' : 'SHORT'), "the fund's close reduces its position").toBe(true);
        // bounded by its balance: filled entirely at its limit, the fund's loss is at most what it has
        if (ev.order.price !== null) {
          const q = ev.order.quantity < fp!.size ? ev.order.quantity : fp!.size;
          const rel = q === fp!.size ? fp!.cost : (fp!.cost * q) / fp!.size;
          const value = ev.order.price * q * m.mult;
          const loss = fp!.side === 'LONG' ? rel - value : value - rel;
          expect(
            loss <= (m.system.insurance > 0n ? m.system.insurance : 0n),
            `the fund's close at ${ev.order.price} could lose ${loss}, more than its ${m.system.insurance}`,
          ).toBe(true);
        }
        this.placeModel(ev.order, fills, 0n);
        continue;
      }
      if (ev.type === 'perpTrade' && ev.kind === 'ADL') {
        expect(st.cur?.taken, 'ADL inside a liquidation').toBe(true);
        const c = st.cur!;
        expect(c.fundClosed || c.fundLimit === null, `the fund's close at ${c.fundLimit} before ADL`).toBe(true);
        c.adl ??= m.adlRanking();
        const who = ev.takerUserId;
        expect(who, `ADL counterparty (model's ranking ${c.adl.join(' ')})`).toBe(c.adl.shift());
        const p = m.positions.get(who);
        const fp = m.positions.get('@insurance');
        expect(p !== undefined && fp !== undefined && p.side !== fp.side, `ADL of ${who} against the fund`).toBe(true);
        expect(ev.quantity, `ADL quantity of ${who}`).toBe(fp!.size < p!.size ? fp!.size : p!.size);
        expect(
          m.userOrders(who).map((o) => o.id),
          `open orders of ${who} when it is deleveraged`,
        ).toEqual([]);
        const [up, fpnl] = m.adl(who, ev.quantity);
        expect([ev.takerRealizedPnl, ev.makerRealizedPnl, ev.takerFee, ev.makerFee], 'ADL PnL').toEqual([up, fpnl, 0n, 0n]);
        m.expireReduceOnly();
        continue;
      }
      if (ev.type === 'liquidated') {
        const c = st.cur;
        expect(c !== null && c.who === ev.userId && c.taken, `${ev.userId} liquidated without its takeover`).toBe(true);
        expect(c!.fundClosed || c!.fundLimit === null, `the fund's close at ${c!.fundLimit} (model) did not come`).toBe(true);
        expect(m.positions.has('@insurance'), 'the fund closed what it took over').toBe(false);
        // insuranceDelta is the exact change of the fund's balance in this liquidation (docs/perpetuals.md)
        expect([ev.markPrice, ev.equity, ev.insuranceDelta], `liquidated ${ev.userId}: mark, equity before, insurance delta`).toEqual([
          mark,
          c!.equity,
          m.system.insurance - c!.fundBefore,
        ]);
        liquidated.push(ev.userId);
        st.cur = null;
        continue;
      }
    }
    passTpSl(null);
    endCurrent();
    for (const [u, p] of st.round ?? []) expect(passOk(u, p), `${u} at risk in the last round (model), not liquidated`).toBe(true);
    if (st.rounds < 16) expect(m.atRisk(), 'nothing at risk (model) after the liquidation step').toEqual([]);
    count('liquidation rounds > 1', st.rounds > 1 ? 1 : 0);
    m.expireReduceOnly();
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
      expect(view(ep), `position of ${who}`).toEqual(
        mp === undefined
          ? undefined
          : {
              side: mp.side,
              size: mp.size,
              cost: mp.cost,
              margin: mp.margin,
              realizedPnl: mp.realizedPnl,
              funding: mp.funding,
              fees: mp.fees,
              takeProfit: mp.takeProfit,
              stopLoss: mp.stopLoss,
              marginMode: mp.marginMode,
              leverage: mp.leverage,
            },
      );
      if (ep !== undefined) {
        const d = ep.size * m.mult;
        expect(ep.entryPrice, 'entry price').toBe((2n * ep.cost + d) / (2n * d));
      }
      const open = e.perpOpenOrders(who, SYM);
      expect(
        open.map((o) => [o.orderId, o.filledQty, o.status, o.hold]),
        `open orders of ${who} (id, filled, status, hold)`,
      ).toEqual(m.userOrders(who).map((o) => [o.id, o.filled, o.status, o.hold]));
      let holds = 0n;
      for (const o of open) holds += o.hold;
      expect(bal.frozen, `frozen of ${who} = holds + margin`).toBe(holds + (ep?.margin ?? 0n));
      expect(bal.frozen, `frozen of ${who} (model)`).toBe(m.frozenOf(who));
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
      case 'transferOut':
        this.transferOut(who, BigInt(op.amount) * USDT, op.all);
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

function view(p: PositionView | undefined): unknown {
  if (p === undefined) return undefined;
  const { side, size, cost, margin, realizedPnl, funding, fees, takeProfit, stopLoss, marginMode, leverage } = p;
  return { side, size, cost, margin, realizedPnl, funding, fees, takeProfit, stopLoss, marginMode, leverage };
}

const ENV = (globalThis as unknown as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
/** PERP_RUNS streams (40 by default), from PERP_SEED when given (fast-check prints the seed of a failure) */
const RUNS = Number(ENV.PERP_RUNS ?? 40);
const SEED = ENV.PERP_SEED;

describe('perpetual engine against the model', () => {
  it(
    'same codes, fills, positions, wallets and system accounts; invariants after every command; snapshot round trips',
    () => {
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
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: Number(SEED) } : {}) },
      );
      (globalThis as unknown as { console: { log(s: string): void } }).console.log(
        `perp property: ${[...STATS]
          .sort((a, b) => (a[0] < b[0] ? -1 : 1))
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
      );
    },
    120_000 + RUNS * 3_000,
  );
});
