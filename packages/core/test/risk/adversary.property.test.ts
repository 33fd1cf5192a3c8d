/**
 * The adversary (ARCHITECTURE.md, convention 16): groups of colluding accounts play strategies against the perpetual
 * engine, and an independent model written from Binance's published USDⓈ-M futures rules (risk-model.ts) judges every
 * step.
 *
 * Two groups, a0/a1 and b0/b1/b2, and an outsider market maker `mm` (1x, deep wallet, quoting a thin book around the
 * index only when the stream turns it on) play, over price paths the test drives (slow drifts, jumps, gaps through a
 * member's bankruptcy price, funding every 8 h):
 *  - hedged pairs: one member rests a limit, a colluder takes it (cross or isolated, up to 125x);
 *  - transfers out of CONTRACT at every step: exactly the model's max withdraw amount, one unit more, or everything;
 *  - isolated margin added and removed (exactly the max removable margin, one unit more), leverage changes with a
 *    position open, margin mode switches (refused with a position or orders), partial, full and reduce-only closes;
 *  - a colluder's order resting far from the mark, where a member's liquidation will land (the fund's close);
 *  - a member's close dumped into a colluder's order far from the mark in a thin book, after moving its max withdraw
 *    amount out or not, as taker (MARKET or limit) or as the maker the colluder takes (the loss beyond the member's
 *    means must not be executed).
 *
 * After every command:
 *  - the engine's result code is the model's (transfers, margin changes, leverage and mode changes: equal; orders: the
 *    engine refuses exactly when the model finds a reason, with one of the model's reasons);
 *  - wallets, positions (side, size, cost, margin, mode, leverage), order holds, available balance and the insurance
 *    fund's balance are the model's; every rule the model checks while applying the engine's events holds (fees, PnL,
 *    takeover at the bankruptcy price, the fund's close limited at the bankruptcy price, ADL ranking and price, funding,
 *    no loss paid by the fund outside a liquidation, no fill without its initial margin and (isolated) open loss, a fill
 *    its users cannot pay never executed and one they can never refused, no user's own fill taking its margin balance
 *    below zero, leverage changes resizing the open orders' holds);
 *  - every asset sums to zero, no user bucket is negative; the book is not crossed;
 *  - the insurance fund's balance never decreases;
 *  - after a mark tick no account is left at risk (maintenance margin >= margin balance), none with a negative margin
 *    balance;
 *  - no group is richer than the rules allow: its value (SPOT + CONTRACT of its members, positions at the mark, read from
 *    the engine) minus its value at the start is at most what the model allowed it (exposure times mark moves, fills
 *    valued at the mark with the fund's fills no better than its bankruptcy price, minus fees, plus funding, ADL at the
 *    bankruptcy price, minus the equity lost in liquidations). For a group whose book is net flat and that trades only
 *    with itself, that is: never richer than it started, minus fees paid.
 *
 * `npm test` runs RISK_RUNS (30) streams of RISK_STEPS (60) strategy steps; scripts/property-long.mjs sets more.
 * RISK_SEED replays a seed (fast-check prints it with the shrunk counterexample); RISK_REPLAY='[...]' plays one stream
 * as printed (with RISK_SKIP's tags passed over, RISK_LOG=n for its last n commands); RISK_STRICT=1 checks the known
 * open findings too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';
import type { MarginMode } from '../../src/perp/types';
import type { Command, CommandResult, Side } from '../../src/types';
import { HOUR, T0, USDT, perpMarket } from '../perp-fixture';
import { FUND, RiskModel } from './risk-model';

const SYM = 'BTC/USDT';
const MM = 'mm';
const GROUPS = [
  ['a0', 'a1'],
  ['b0', 'b1', 'b2'],
];
const MEMBERS = GROUPS.flat();
const LEVERAGES = [1, 2, 5, 10, 20, 50, 75, 100, 125];

type Op =
  | { k: 'hedge'; g: number; i: number; j: number; buy: boolean; qty: number; off: number; market: boolean }
  | { k: 'out'; g: number; i: number; how: 'max' | 'max+1' | 'all' | 'half' }
  | { k: 'in'; g: number; i: number; amount: number }
  | { k: 'adjust'; g: number; i: number; how: 'maxRemove' | 'maxRemove+1' | 'add' | 'addAll' }
  | { k: 'lev'; g: number; i: number; lev: number }
  | { k: 'mode'; g: number; i: number; iso: boolean }
  | { k: 'close'; g: number; i: number; pct: number; reduce: boolean; market: boolean }
  | { k: 'rest'; g: number; i: number; buy: boolean; off: number; qty: number }
  | {
      k: 'dump';
      g: number;
      i: number;
      j: number;
      buy: boolean;
      qty: number;
      off: number;
      pct: number;
      reduce: boolean;
      market: boolean;
      maker: boolean;
      drain: boolean;
    }
  | { k: 'cancel'; g: number; i: number }
  | { k: 'mm'; on: boolean }
  | { k: 'drift'; ppm: number; ticks: number }
  | { k: 'jump'; ppm: number }
  | { k: 'gap'; g: number; i: number; beyond: number }
  | { k: 'funding' };

const g = fc.nat(1);
const i = fc.nat(2);
/** Each strategy's generator and weight (the focused properties below draw from a subset). */
const ARBS: { [K in Op['k']]: [fc.Arbitrary<Op>, number] } = {
  hedge: [
    fc.record({
      k: fc.constant('hedge' as const),
      g,
      i,
      j: fc.nat(2),
      buy: fc.boolean(),
      qty: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 100, max: 700 })),
      // per mille of the mark: mostly at the mark (the pair trades with itself), sometimes through the maker's quotes
      off: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: -5, max: 5 }), weight: 1 }),
      market: fc.boolean(),
    }),
    8,
  ],
  out: [fc.record({ k: fc.constant('out' as const), g, i, how: fc.constantFrom('max' as const, 'max+1' as const, 'all' as const, 'half' as const) }), 5],
  in: [fc.record({ k: fc.constant('in' as const), g, i, amount: fc.integer({ min: 1, max: 500 }) }), 2],
  adjust: [
    fc.record({
      k: fc.constant('adjust' as const),
      g,
      i,
      how: fc.constantFrom('maxRemove' as const, 'maxRemove+1' as const, 'add' as const, 'addAll' as const),
    }),
    3,
  ],
  lev: [fc.record({ k: fc.constant('lev' as const), g, i, lev: fc.constantFrom(...LEVERAGES) }), 3],
  mode: [fc.record({ k: fc.constant('mode' as const), g, i, iso: fc.boolean() }), 2],
  close: [fc.record({ k: fc.constant('close' as const), g, i, pct: fc.constantFrom(25, 50, 100), reduce: fc.boolean(), market: fc.boolean() }), 2],
  rest: [
    fc.record({ k: fc.constant('rest' as const), g, i, buy: fc.boolean(), off: fc.integer({ min: 5, max: 400 }), qty: fc.integer({ min: 1, max: 400 }) }),
    2,
  ],
  dump: [
    fc.record({
      k: fc.constant('dump' as const),
      g,
      i,
      j: fc.nat(2),
      buy: fc.boolean(),
      qty: fc.integer({ min: 1, max: 120 }),
      off: fc.integer({ min: 5, max: 400 }),
      pct: fc.constantFrom(25, 50, 100, 150),
      reduce: fc.boolean(),
      market: fc.boolean(),
      maker: fc.boolean(),
      drain: fc.boolean(),
    }),
    2,
  ],
  cancel: [fc.record({ k: fc.constant('cancel' as const), g, i }), 1],
  mm: [fc.record({ k: fc.constant('mm' as const), on: fc.boolean() }), 2],
  drift: [fc.record({ k: fc.constant('drift' as const), ppm: fc.integer({ min: -3_000, max: 3_000 }), ticks: fc.integer({ min: 1, max: 4 }) }), 3],
  jump: [fc.record({ k: fc.constant('jump' as const), ppm: fc.integer({ min: -150_000, max: 150_000 }) }), 2],
  gap: [fc.record({ k: fc.constant('gap' as const), g, i, beyond: fc.integer({ min: -20, max: 60 }) }), 3],
  funding: [fc.record({ k: fc.constant('funding' as const) }), 1],
};
/** Streams of the given strategies (all of them by default). */
function opsOf(kinds: Op['k'][], steps: number): fc.Arbitrary<Op[]> {
  const op = fc.oneof(...kinds.map((k) => ({ arbitrary: ARBS[k][0], weight: ARBS[k][1] })));
  return fc.array(op, { minLength: 1, maxLength: steps, size: 'max' });
}

const show = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}` : x));

/** Thrown when a stream cannot go on past a known finding that is passed over (the engine threw). */
class StreamEnded extends Error {}

/** One stream: the engine, the model, the driver's clock and index, the log of commands. */
class Game {
  e = new Engine();
  m = new RiskModel(perpMarket(), 8);
  ts = T0 + 1000;
  index = 400_000n; // 40,000.0 USDT
  mmOn = true;
  log: string[] = [];
  /** every command and its result, when kept (the fixed counterexamples read them) */
  results: { cmd: Command; r: CommandResult }[] | null = null;
  /** value of each group at the start (quote units) */
  start: bigint[] = [];
  startOf = new Map<string, bigint>();
  fundSeen = 0n;
  stats: Map<string, number>;

  constructor(
    stats: Map<string, number>,
    readonly skip: Set<string>,
  ) {
    this.stats = stats;
    this.m.skip = skip;
    this.setup({ type: 'addAsset', ts: this.ts, asset: { code: 'USDT', scale: 8 } });
    this.setup({ type: 'addPerpMarket', ts: this.ts, market: perpMarket() });
    const wallets: [string, bigint][] = [
      [MM, 100_000_000n * USDT],
      ...MEMBERS.map((u, k) => [u, BigInt([300, 2_000, 500, 1_000, 5_000][k]!) * USDT] as [string, bigint]),
    ];
    for (const [u, amount] of wallets) {
      this.setup({ type: 'deposit', ts: this.ts, userId: u, asset: 'USDT', account: 'SPOT', amount, from: '@faucet' });
      this.m.user(u).spot = amount;
      this.run({ type: 'transfer', ts: this.ts, userId: u, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: u === MM ? amount : (amount * 4n) / 5n });
    }
    // the fund starts with 1,000 USDT: enough for a close below bankruptcy to show, if the engine allows one
    this.run({ type: 'fundInsurance', ts: this.ts, asset: 'USDT', amount: 1_000n * USDT, from: '@faucet' });
    this.run({ type: 'perpSetLeverage', ts: this.ts, userId: MM, symbol: SYM, leverage: 1 });
    MEMBERS.forEach((u, k) => {
      this.run({ type: 'perpSetMarginMode', ts: this.ts, userId: u, symbol: SYM, marginMode: k % 2 === 0 ? 'ISOLATED' : 'CROSS' });
      this.run({ type: 'perpSetLeverage', ts: this.ts, userId: u, symbol: SYM, leverage: [125, 100, 125, 50, 125][k]! });
    });
    this.tick();
    this.requote();
    this.start = GROUPS.map((grp) => this.groupValue(grp));
    for (const u of MEMBERS) this.startOf.set(u, this.groupValue([u]));
  }

  count(k: string): void {
    this.stats.set(k, (this.stats.get(k) ?? 0) + 1);
  }

  setup(cmd: Command): void {
    const r = this.e.execute(cmd);
    if (r.code !== 'ok') throw new Error(`setup ${cmd.type}: ${r.code}`);
  }

  /** The model's verdict on a command: the exact code, or (orders) the reasons to refuse and the hold. */
  verdict(cmd: Command): {
    code: string | null;
    reasons: string[] | null;
    hold: bigint | null;
    margin: bigint | null;
    holds?: Map<string, bigint>;
    loss?: bigint;
  } {
    const m = this.m;
    switch (cmd.type) {
      case 'transfer':
        return { code: m.transferCode(cmd.userId, cmd.from, cmd.to, cmd.amount), reasons: null, hold: null, margin: null };
      case 'perpAdjustMargin':
        return { code: m.adjustCode(cmd.userId, cmd.amount), reasons: null, hold: null, margin: null };
      case 'perpSetLeverage': {
        const { code, margin, holds } = m.leverageCheck(cmd.userId, cmd.leverage);
        return { code, reasons: null, hold: null, margin, holds };
      }
      case 'perpSetMarginMode':
        return { code: m.modeCode(cmd.userId), reasons: null, hold: null, margin: null };
      case 'perpCancelOrder':
        return {
          code: m.orders.has(cmd.orderId ?? '') && m.orders.get(cmd.orderId!)!.user === cmd.userId ? 'ok' : 'order_not_found',
          reasons: null,
          hold: null,
          margin: null,
        };
      case 'perpPlaceOrder': {
        const d = this.e.perpDepth(SYM, 10_000);
        const book = cmd.side === 'BUY' ? d.asks : d.bids;
        const { reasons, hold, loss } = m.orderCheck(cmd.userId, cmd.side, cmd.price ?? null, cmd.quantity, cmd.reduceOnly === true, book);
        return { code: null, reasons, hold, margin: null, loss };
      }
      case 'fundInsurance':
        return { code: 'ok', reasons: null, hold: null, margin: null };
      case 'perpMarkPrice':
        return { code: cmd.indexPrice > 0n ? 'ok' : 'invalid_config', reasons: null, hold: null, margin: null };
      case 'perpFunding':
        return { code: null, reasons: null, hold: null, margin: null };
      default:
        throw new Error(`not modelled: ${cmd.type}`);
    }
  }

  /** Fails with a tagged message unless RISK_SKIP names the tag (to look past a known finding while hunting). */
  ok(tag: string, cond: boolean, what: string): void {
    if (!cond && !this.skip.has(tag)) throw new Error(`[${tag}] ${what}`);
  }

  /** Runs one command through the engine and the model and checks everything. */
  run(cmd: Command): CommandResult {
    const v = this.verdict(cmd);
    const fundBefore = this.fundBalance();
    this.m.excused = 0n;
    let r: CommandResult;
    try {
      r = this.e.execute(cmd);
    } catch (err) {
      // an exception out of the engine is a bug; the known one ('leverage-throws') ends the stream when passed over
      const tag = cmd.type === 'perpSetLeverage' && /bad hold/.test((err as Error).message) ? 'leverage-throws' : 'engine-throws';
      this.log.push(`${show(cmd)} -> threw ${(err as Error).message}`);
      if (this.skip.has(tag)) throw new StreamEnded();
      throw new Error(
        `[${tag}] ${cmd.type}${'userId' in cmd ? ` of ${cmd.userId}` : ''} threw: ${(err as Error).message} (model ${v.code ?? v.reasons?.join(', ')}, ${this.why(cmd)})`,
      );
    }
    this.log.push(`${show(cmd)} -> ${r.code}`);
    this.results?.push({ cmd, r });
    this.count(`${cmd.type} ${r.code}`);
    const who = 'userId' in cmd ? ` of ${cmd.userId}` : '';
    const tag = `decision-${cmd.type === 'transfer' ? 'transfer' : cmd.type === 'perpAdjustMargin' ? 'adjust' : cmd.type === 'perpSetLeverage' ? 'leverage' : cmd.type === 'perpPlaceOrder' ? 'order' : cmd.type === 'perpSetMarginMode' ? 'mode' : 'other'}`;
    if (v.code !== null) this.ok(tag, r.code === v.code, `${cmd.type}${who}: engine ${r.code}, model ${v.code} (${this.why(cmd)})`);
    if (v.reasons !== null) {
      if (v.reasons.length === 0) this.ok(tag, r.code === 'ok', `order${who}: engine refused (${r.code}), model accepts (hold ${v.hold}, ${this.why(cmd)})`);
      else
        this.ok(tag, v.reasons.includes(r.code), `order${who}: engine ${r.code}, model refuses for ${v.reasons.join(', ')} (hold ${v.hold}, ${this.why(cmd)})`);
    }
    if (r.code === 'ok') {
      // with the decision check skipped, the model follows what the engine accepted
      let margin = v.margin;
      if (cmd.type === 'perpSetLeverage' && v.code !== 'ok') margin = this.e.position(cmd.userId, SYM)?.margin ?? null;
      this.apply(cmd, r, v.hold, margin, v.holds ?? new Map(), v.loss ?? 0n);
    }
    this.check(cmd, r, fundBefore);
    return r;
  }

  /** The model's figures behind a decision of a user (for the messages). */
  why(cmd: Command): string {
    if (!('userId' in cmd) || typeof cmd.userId !== 'string') return '';
    const m = this.m;
    const u = cmd.userId;
    const p = m.user(u).pos;
    const pos =
      p === undefined
        ? 'no position'
        : `${p.mode} ${p.side} ${p.size} cost ${p.cost} margin ${p.margin} lev ${p.leverage} uPnL ${m.upnl(p)} maxRemovable ${m.maxRemovable(p, p.leverage)}`;
    return `mark ${m.mark}, wallet ${m.user(u).wallet}, available ${m.available(u)}, max withdraw ${m.maxWithdraw(u)}, ${pos}`;
  }

  apply(cmd: Command, r: CommandResult, hold: bigint | null, margin: bigint | null, holds: Map<string, bigint>, loss: bigint): void {
    const m = this.m;
    switch (cmd.type) {
      case 'transfer':
        m.applyTransfer(cmd.userId, cmd.from, cmd.amount);
        break;
      case 'fundInsurance':
        m.fund += cmd.amount;
        break;
      case 'perpAdjustMargin':
        m.applyAdjust(cmd.userId, cmd.amount);
        break;
      case 'perpSetLeverage':
        m.applyLeverage(cmd.userId, cmd.leverage, margin, holds, r.events);
        break;
      case 'perpSetMarginMode':
        m.user(cmd.userId).mode = cmd.marginMode;
        break;
      case 'perpFunding': {
        const s = r.events.find((ev) => ev.type === 'fundingSettled');
        if (s === undefined || s.type !== 'fundingSettled') throw new Error('funding without fundingSettled');
        expect(s.markPrice, 'funding at the mark').toBe(m.mark);
        const want = m.funding(BigInt(s.rateE8), s.markPrice);
        const got = new Map<string, bigint>();
        for (const ev of r.events) if (ev.type === 'fundingPayment') got.set(ev.userId, ev.amount);
        this.ok(
          'funding',
          show([...got].sort()) === show([...want.payments].sort()),
          `funding payments at rate ${s.rateE8}: engine ${show([...got])}, model ${show([...want.payments])}`,
        );
        this.ok(
          'funding',
          s.paid === want.paid && s.received === want.received,
          `fundingSettled paid/received ${s.paid}/${s.received}, model ${want.paid}/${want.received}`,
        );
        if (want.paid < want.owed) this.count('funding: receivers cut to what was collected');
        if (want.payments.size > 0) this.count(`funding rate ${s.rateE8 > 0 ? '+' : s.rateE8 < 0 ? '-' : '0'}`);
        break;
      }
      default:
        m.applyEvents(r.events, hold, loss);
        break;
    }
    for (const [k, n] of m.counts) this.stats.set(k, (this.stats.get(k) ?? 0) + n);
    m.counts.clear();
    for (const ev of r.events) {
      if (ev.type === 'perpTrade') this.count(`trade ${ev.kind}${ev.takerUserId === FUND ? ' by the fund' : ''}`);
      if (ev.type === 'liquidated') this.count(`liquidated ${ev.marginMode}${ev.equity < 0n ? ' past bankruptcy' : ''}`);
    }
  }

  fundBalance(): bigint {
    const b = this.e.balance(FUND, 'SYSTEM', 'USDT');
    return b.available + b.frozen;
  }

  /** A group's value: SPOT + CONTRACT of its members, positions at the mark (engine reads, model's mark). */
  groupValue(grp: string[]): bigint {
    let v = 0n;
    for (const u of grp) {
      for (const kind of ['SPOT', 'CONTRACT'] as const) {
        const b = this.e.balance(u, kind, 'USDT');
        v += b.available + b.frozen;
      }
      const p = this.e.position(u, SYM);
      if (p !== undefined && this.m.mark !== null) {
        const val = this.m.notional(p.size, this.m.mark);
        v += p.side === 'LONG' ? val - p.cost : p.cost - val;
      }
    }
    return v;
  }

  /** Invariants and the comparison with the model after a command. */
  check(cmd: Command, r: CommandResult, fundBefore: bigint): void {
    const e = this.e;
    const m = this.m;
    this.ok('model', m.violations.length === 0, `rules the model checks on the engine's events, after ${cmd.type}:\n${m.violations.join('\n')}`);
    for (const [asset, total] of e.assetTotals()) this.ok('conservation', total === 0n, `${asset} sums to ${total}`);
    for (const a of e.ledger.accounts())
      if (a.kind !== 'SYSTEM') this.ok('conservation', a.available >= 0n && a.frozen >= 0n, `bucket of ${a.owner}/${a.kind} negative`);
    // the book is never left crossed: a taker whose next fill it cannot pay stops (EXPIRED) rather than resting over
    // the maker it could not pay
    const d = e.perpDepth(SYM, 1);
    if (d.bids.length > 0 && d.asks.length > 0)
      this.ok('book', d.bids[0]!.price < d.asks[0]!.price, `book crossed after ${cmd.type}: best bid ${d.bids[0]!.price}, best ask ${d.asks[0]!.price}`);
    const fund = this.fundBalance();
    this.ok('state', fund === m.fund, `insurance fund ${fund}, model ${m.fund}`);
    // (what the model already reported as paid for a user beyond its means is not counted twice when that rule is skipped)
    const excused = m.excused;
    this.ok('fund-decrease', fund + excused >= fundBefore, `the insurance fund decreased by ${fundBefore - fund} in ${cmd.type}`);
    for (const u of [MM, ...MEMBERS]) {
      const mu = m.user(u);
      const b = e.balance(u, 'CONTRACT', 'USDT');
      const p = e.position(u, SYM);
      const mp = mu.pos;
      const ev = p === undefined ? 'none' : show({ side: p.side, size: p.size, cost: p.cost, margin: p.margin, mode: p.marginMode, leverage: p.leverage });
      const mv = mp === undefined ? 'none' : show({ side: mp.side, size: mp.size, cost: mp.cost, margin: mp.margin, mode: mp.mode, leverage: mp.leverage });
      this.ok('state', ev === mv, `position of ${u}: engine ${ev}, model ${mv}`);
      this.ok('state', b.available + b.frozen === mu.wallet, `wallet of ${u}: engine ${b.available + b.frozen}, model ${mu.wallet}`);
      const eo = show(e.perpOpenOrders(u, SYM).map((o) => [o.orderId, o.hold]));
      const mo = show([...m.orders.values()].filter((o) => o.user === u).map((o) => [o.id, o.hold]));
      this.ok('state', eo === mo, `open orders and holds of ${u}: engine ${eo}, model ${mo}`);
      this.ok('state', b.frozen === m.frozen(u), `frozen of ${u}: engine ${b.frozen}, model ${m.frozen(u)}`);
      const usable = m.usable(u);
      const av = e.perpAccount(u).availableBalance;
      this.ok('state', av === (usable > 0n ? usable : 0n), `available balance of ${u}: engine ${av}, model ${usable}`);
      if (cmd.type === 'perpMarkPrice' && mp !== undefined) {
        const bal = m.marginBalance(u);
        this.ok('after-liquidation', bal >= 0n, `${u} keeps a negative margin balance ${bal} after the liquidation step`);
        this.ok('after-liquidation', !m.atRisk(u), `${u} left at risk after the liquidation step (margin balance ${bal}, maintenance ${m.maintOf(u)})`);
      }
    }
    if (this.start.length > 0) {
      GROUPS.forEach((grp, k) => {
        const gain = this.groupValue(grp) - this.start[k]!;
        let allowed = 0n;
        for (const u of grp) allowed += m.allowed.get(u) ?? 0n;
        if (gain > allowed) {
          const each = grp.map((u) => `${u}: value ${this.groupValue([u]) - this.startOf.get(u)!}, allowed ${m.allowed.get(u) ?? 0n}`).join('; ');
          this.ok('group', false, `group ${grp.join('/')} gained ${gain}, the rules allow ${allowed} (${each})`);
        }
      });
    }
  }

  // ---- driving ---------------------------------------------------------------------------------------------------

  tick(): void {
    this.ts += 1000;
    // a drift from a gap to a bankruptcy price near 0 would reach 0, which the engine refuses (invalid_config)
    if (this.index < 1n) this.index = 1n;
    this.run({ type: 'perpMarkPrice', ts: this.ts, symbol: SYM, indexPrice: this.index });
  }

  /** The market maker cancels its quotes and, when on, quotes three thin levels a side around the index. */
  requote(): void {
    for (const o of [...this.m.orders.values()].filter((x) => x.user === MM)) this.run({ type: 'perpCancelOrder', ts: this.ts, userId: MM, orderId: o.id });
    if (!this.mmOn) return;
    const d = this.e.perpDepth(SYM, 1);
    for (let k = 1n; k <= 3n; k++) {
      const step = (this.index * k) / 1000n + 1n;
      const bid = this.index - step;
      const ask = this.index + step;
      if (bid <= 0n) continue;
      // never cross the members' orders (mm is a maker here)
      if (d.asks.length === 0 || d.asks[0]!.price > bid)
        this.run({
          type: 'perpPlaceOrder',
          ts: this.ts,
          userId: MM,
          symbol: SYM,
          side: 'BUY',
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: bid,
          quantity: 20n * k,
        });
      if (d.bids.length === 0 || d.bids[0]!.price < ask)
        this.run({
          type: 'perpPlaceOrder',
          ts: this.ts,
          userId: MM,
          symbol: SYM,
          side: 'SELL',
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: ask,
          quantity: 20n * k,
        });
    }
  }

  /** True when an order of `u` on `side` up to `price` (null: any) could meet the user's own resting order. */
  selfCross(u: string, side: Side, price: bigint | null): boolean {
    for (const o of this.m.orders.values()) {
      if (o.user !== u || o.side === side) continue;
      if (price === null || (side === 'BUY' ? o.price! <= price : o.price! >= price)) return true;
    }
    return false;
  }

  place(u: string, side: Side, price: bigint | null, qty: bigint, tif: 'GTC' | 'IOC', reduceOnly = false): CommandResult | null {
    if (qty <= 0n || this.selfCross(u, side, price)) {
      this.count('order skipped (would meet its own order)');
      return null;
    }
    return this.run({
      type: 'perpPlaceOrder',
      ts: this.ts,
      userId: u,
      symbol: SYM,
      side,
      orderType: price === null ? 'MARKET' : 'LIMIT',
      timeInForce: price === null ? 'IOC' : tif,
      ...(price === null ? {} : { price }),
      quantity: qty,
      ...(reduceOnly ? { reduceOnly: true } : {}),
    });
  }

  step(op: Op): void {
    const m = this.m;
    this.ts += 1000;
    const mark = m.mark ?? this.index;
    const grp = 'g' in op ? GROUPS[op.g]! : [];
    const who = 'i' in op ? grp[op.i % grp.length]! : MM;
    this.count(`op ${op.k}`);
    switch (op.k) {
      case 'hedge': {
        const other = grp[op.j % grp.length]!;
        if (other === who) return;
        const price = (mark * BigInt(1000 + op.off)) / 1000n;
        const side: Side = op.buy ? 'BUY' : 'SELL';
        const qty = BigInt(op.qty);
        const made = this.place(who, side, price, qty, 'GTC');
        if (made === null || made.code !== 'ok') return;
        this.place(other, side === 'BUY' ? 'SELL' : 'BUY', op.market ? null : price, qty, 'IOC');
        return;
      }
      case 'out': {
        const max = m.maxWithdraw(who);
        const b = this.e.balance(who, 'CONTRACT', 'USDT');
        const amount = op.how === 'max' ? max : op.how === 'max+1' ? max + 1n : op.how === 'all' ? b.available : b.available / 2n;
        if (amount <= 0n) return;
        this.run({ type: 'transfer', ts: this.ts, userId: who, asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount });
        return;
      }
      case 'in':
        this.run({ type: 'transfer', ts: this.ts, userId: who, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: BigInt(op.amount) * USDT });
        return;
      case 'adjust': {
        const p = m.user(who).pos;
        let amount: bigint;
        if (op.how === 'maxRemove' || op.how === 'maxRemove+1') {
          if (p === undefined || p.mode !== 'ISOLATED') amount = -USDT;
          else amount = -(m.maxRemovable(p, p.leverage) + (op.how === 'maxRemove+1' ? 1n : 0n));
        } else amount = op.how === 'add' ? 5n * USDT : this.e.balance(who, 'CONTRACT', 'USDT').available;
        if (amount === 0n) return;
        this.run({ type: 'perpAdjustMargin', ts: this.ts, userId: who, symbol: SYM, amount });
        return;
      }
      case 'lev':
        this.run({ type: 'perpSetLeverage', ts: this.ts, userId: who, symbol: SYM, leverage: op.lev });
        return;
      case 'mode':
        this.run({ type: 'perpSetMarginMode', ts: this.ts, userId: who, symbol: SYM, marginMode: (op.iso ? 'ISOLATED' : 'CROSS') as MarginMode });
        return;
      case 'close': {
        const p = m.user(who).pos;
        if (p === undefined) return;
        const side: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
        const qty = (p.size * BigInt(op.pct) + 99n) / 100n;
        const price = op.market ? null : p.side === 'LONG' ? (mark * 95n) / 100n : (mark * 105n) / 100n;
        this.place(who, side, price, qty, 'IOC', op.reduce);
        return;
      }
      case 'rest': {
        const side: Side = op.buy ? 'BUY' : 'SELL';
        const price = (mark * BigInt(op.buy ? 1000 - op.off : 1000 + op.off)) / 1000n;
        const d = this.e.perpDepth(SYM, 1);
        const best = op.buy ? d.asks[0]?.price : d.bids[0]?.price;
        if (best !== undefined && (op.buy ? best <= price : best >= price)) return; // rests, never takes
        this.place(who, side, price, BigInt(op.qty), 'GTC');
        return;
      }
      case 'dump': {
        // a member closes into a colluder's order `off` per mille beyond the mark, the market maker's quotes gone (a
        // member without a position first opens `qty` with the colluder at the mark)
        const other = grp[op.j % grp.length]!;
        if (other === who) return;
        this.mmOn = false;
        this.requote();
        if (m.user(who).pos === undefined) {
          const made = this.place(who, op.buy ? 'BUY' : 'SELL', mark, BigInt(op.qty), 'GTC');
          if (made === null || made.code !== 'ok') return;
          this.place(other, op.buy ? 'SELL' : 'BUY', mark, BigInt(op.qty), 'IOC');
          // what did not fill stays as the member's order: taken back
          for (const o of [...m.orders.values()].filter((x) => x.user === who)) this.run({ type: 'perpCancelOrder', ts: this.ts, userId: who, orderId: o.id });
        }
        const p = m.user(who).pos;
        if (p === undefined) return;
        // with `drain`, the member first moves its max withdraw amount out: only its margin is left to pay a loss
        const out = m.maxWithdraw(who);
        if (op.drain && out > 0n) this.run({ type: 'transfer', ts: this.ts, userId: who, asset: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: out });
        const side: Side = p.side === 'LONG' ? 'SELL' : 'BUY';
        const price = (mark * BigInt(side === 'SELL' ? 1000 - op.off : 1000 + op.off)) / 1000n;
        const qty = (p.size * BigInt(op.pct) + 99n) / 100n;
        const reduce = op.reduce && op.pct <= 100;
        const seen = (r: CommandResult | null, what: string): void =>
          this.count(`dump: ${what} ${r === null ? 'skipped' : r.code === 'ok' ? `${r.perpOrder?.status}` : r.code}`);
        if (op.maker) {
          // the member's close rests, the colluder takes it
          const made = this.place(who, side, price, qty, 'GTC', reduce);
          seen(made, 'resting close placed');
          if (made === null || made.code !== 'ok') return;
          const id = made.perpOrder?.orderId;
          this.place(other, side === 'SELL' ? 'BUY' : 'SELL', price, qty, 'IOC');
          this.count(`dump: resting close after the take ${id !== undefined && this.e.perpOrder(id)?.status}`);
          return;
        }
        const made = this.place(other, side === 'SELL' ? 'BUY' : 'SELL', price, qty, 'GTC');
        if (made === null || made.code !== 'ok') return;
        seen(this.place(who, side, op.market ? null : price, qty, 'IOC', reduce), 'close');
        return;
      }
      case 'cancel': {
        const o = [...m.orders.values()].find((x) => x.user === who);
        if (o !== undefined) this.run({ type: 'perpCancelOrder', ts: this.ts, userId: who, orderId: o.id });
        return;
      }
      case 'mm':
        this.mmOn = op.on;
        this.requote();
        return;
      case 'drift':
        for (let k = 0; k < op.ticks; k++) {
          this.index = (this.index * BigInt(1_000_000 + op.ppm)) / 1_000_000n;
          if (k === 0) this.requote();
          this.tick();
        }
        return;
      case 'jump':
        this.index = (this.index * BigInt(1_000_000 + op.ppm)) / 1_000_000n;
        this.requote();
        this.tick();
        this.tick();
        return;
      case 'gap': {
        // through a member's bankruptcy price (margin in scope lost), `beyond` per mille past it (negative: short of it)
        const p = m.user(who).pos;
        if (p === undefined) return;
        const scope = p.mode === 'ISOLATED' ? p.margin : m.crossWallet(who);
        const n = p.size * m.mult;
        const bk = p.side === 'LONG' ? (p.cost - scope) / n : (p.cost + scope) / n;
        if (bk <= 0n) return;
        const target = p.side === 'LONG' ? (bk * BigInt(1000 - op.beyond)) / 1000n : (bk * BigInt(1000 + op.beyond)) / 1000n;
        if (target <= 0n) return;
        this.index = target;
        this.requote();
        for (let k = 0; k < 3; k++) this.tick();
        return;
      }
      case 'funding': {
        // the last mark tick half a second before the funding time (tick() adds a second), then the settlement
        const next = Math.floor((this.ts + 2000) / (8 * HOUR)) * 8 * HOUR + 8 * HOUR;
        this.ts = next - 1500;
        this.tick();
        this.ts = next + 1;
        this.run({ type: 'perpFunding', ts: this.ts, symbol: SYM, fundingTs: next });
        return;
      }
    }
  }
}

const ENV = (globalThis as unknown as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
/** RISK_RUNS streams (30 by default) of RISK_STEPS strategy steps (60), from RISK_SEED when given */
const RUNS = Number(ENV.RISK_RUNS ?? 30);
const STEPS = Number(ENV.RISK_STEPS ?? 60);
const SEED = ENV.RISK_SEED;
/** RISK_PATH: fast-check's path of a failure (with RISK_SEED: replays its shrunk counterexample at once) */
const PATH = ENV.RISK_PATH;
/** RISK_LOG: how many of the last commands a failure prints (12; more also shows the market maker's) */
const LOG = Number(ENV.RISK_LOG ?? 12);
/**
 * Rules the engine broke (tags once passed over, each with its counterexample as a test below; none is open today):
 *  - a partial close of an isolated position whose loss beyond its released margin share (or whose fee beyond the
 *    order's hold) is taken from the margin of the part left before the available balance, or (found later by a random
 *    stream) before the closing order's own hold, so the position left has a negative margin balance though the user
 *    could pay ('fill-bankrupt'); the next tick takes it over past bankruptcy and the deficit is auto-deleveraged onto
 *    the best-ranked opposite position;
 *  - a cross close whose loss and fee beyond the available balance, its own order's hold and its margin are paid by
 *    the fund while the user's other open orders still hold enough: the fill was judged payable on the cross wallet,
 *    which counts every cross order's hold, but only the paying order's hold pays ('unpaid-beside-hold').
 *  - a fill that only adds to an isolated position is judged with the position's margin counted (0deffcf:
 *    `margin = pos?.margin`), where the rule counts it only for a fill that closes part of the position: a resting order
 *    filled after the mark moved past it adds to the position without its own initial margin and open loss, which
 *    come out of the margin already there ('fill-payable-margin');
 * (What the fund pays under 'unpaid-beside-hold' is excused from 'fund-decrease', 'fund-paid' and the group check.)
 * Fixed by the engine after ccbd03e: 'open-loss', a resting order filled after the mark moved past it (now every
 * fill is judged, its opening part too); 'unpaid-beside-margin', an isolated close's fee paid by the fund while the
 * margin could pay; 'funding-unpaid', funding paid by the fund; 'leverage-throws', a leverage change throwing out of
 * the engine. Fixed by ba3696f: 'unpayable', a close or ADL beyond what the user can pay; 'no-margin', a leverage
 * lowered under an open order. RISK_STRICT=1 checks the open ones too.
 */
const KNOWN_OPEN: string[] = [];
/** RISK_SKIP: comma-separated tags of more checks to pass over (to find what else fails behind a known finding) */
const SKIP = new Set([...KNOWN_OPEN, ...(ENV.RISK_SKIP ?? '').split(',').filter((t) => t !== '')]);

/** Plays one fixed stream (with every check on unless `skip` names some); throws the first broken rule with the last commands. */
function replay(ops: Op[], skip = new Set<string>()): Game {
  const game = new Game(new Map(), skip);
  game.results = [];
  try {
    for (const op of ops) game.step(op);
  } catch (err) {
    (err as Error).message += `\nlast commands:\n${game.log
      .filter((l) => LOG > 12 || !l.includes('"userId":"mm"'))
      .slice(-LOG)
      .join('\n')}`;
    throw err;
  }
  return game;
}

/** One property: RUNS streams of up to `steps` steps of the given strategies, every check after every command. */
function play(kinds: Op['k'][], runs: number, steps: number): void {
  const stats = new Map<string, number>();
  fc.assert(
    fc.property(opsOf(kinds, steps), (ops) => {
      const game = new Game(stats, SKIP);
      try {
        for (const op of ops) game.step(op);
      } catch (err) {
        if (err instanceof StreamEnded) return;
        (err as Error).message += `\nlast commands:\n${game.log
          .filter((l) => LOG > 12 || !l.includes('"userId":"mm"'))
          .slice(-LOG)
          .join('\n')}`;
        throw err;
      }
    }),
    { numRuns: runs, ...(SEED !== undefined ? { seed: Number(SEED) } : {}), ...(PATH !== undefined ? { path: PATH } : {}) },
  );
  (globalThis as unknown as { console: { log(s: string): void } }).console.log(
    `risk adversary [${kinds.join(' ')}]: ${[...stats]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
  );
}

const ALL = Object.keys(ARBS) as Op['k'][];
const FOCUS = Math.max(1, Math.round(RUNS / 3));

describe('colluding accounts against the risk rules (independent model)', () => {
  it(
    'all strategies: no group richer than the rules allow, the fund never pays, every decision and balance as the rules say',
    () => {
      play(ALL, RUNS, STEPS);
    },
    60_000 + RUNS * STEPS * 50,
  );
  it(
    'hedged pairs withdrawing at every step through drifts, jumps and gaps (max withdraw amount)',
    () => {
      play(['hedge', 'out', 'drift', 'jump', 'gap', 'funding'], FOCUS, STEPS);
    },
    60_000 + FOCUS * STEPS * 50,
  );
  it(
    'leverage and isolated margin changes with losing positions open (max removable margin)',
    () => {
      play(['hedge', 'lev', 'adjust', 'out', 'drift', 'gap'], FOCUS, STEPS);
    },
    60_000 + FOCUS * STEPS * 50,
  );
  it(
    "a colluder's order far from the mark where a member's liquidation lands (the fund's close)",
    () => {
      play(['hedge', 'rest', 'mm', 'gap', 'jump', 'close', 'dump'], FOCUS, STEPS);
    },
    60_000 + FOCUS * STEPS * 50,
  );
});

/**
 * The counterexamples the adversary found (fast-check's shrunk streams, or the same attack written out), kept as fixed
 * streams. Each failed on the engine named in its comment.
 */
/** RISK_REPLAY: a stream as fast-check prints it (JSON, the inner array) to replay alone, with RISK_SKIP's tags passed over */
const REPLAY = ENV.RISK_REPLAY;
if (REPLAY !== undefined) {
  it('RISK_REPLAY', () => {
    const ops = JSON.parse(REPLAY) as Op[] | Op[][];
    const game = replay((Array.isArray(ops[0]) ? ops[0] : ops) as Op[], SKIP);
    (globalThis as unknown as { console: { log(s: string): void } }).console.log(game.log.slice(-LOG).join('\n'));
  });
}

describe('counterexamples of the adversary', () => {
  it('max withdraw amount: a cross short 1 tick under water cannot transfer out all of its available balance', () => {
    // engine of 18029d1: a1 (cross 100x) short 0.001 BTC at 40,000.0, the mark one tick up (uPnL -0.0001 USDT), and the
    // transfer of all 1,599.5920 USDT available was accepted; the max withdraw amount is 1,599.5919 (insufficient_balance)
    replay([
      { k: 'hedge', g: 0, i: 1, j: 0, buy: false, qty: 1, off: 0, market: false },
      { k: 'drift', ppm: 3, ticks: 1 },
      { k: 'out', g: 0, i: 1, how: 'all' },
    ]);
  });
  it('raising the leverage of a losing isolated position releases at most the max removable margin', () => {
    // engine of 18029d1: b2 isolated long 0.010 BTC at 10x (margin 40 USDT), the mark 1% down (uPnL -4 USDT); leverage
    // 125x released margin down to ceil(cost / 125) = 3.2 USDT, below the loss (margin balance -0.8 USDT), where the max
    // removable margin at 125x keeps 7.168 USDT (the initial margin at the mark, 3.168, plus the loss)
    replay([
      { k: 'lev', g: 1, i: 2, lev: 10 },
      { k: 'hedge', g: 1, i: 0, j: 2, buy: false, qty: 10, off: 0, market: false },
      { k: 'drift', ppm: -10_000, ticks: 1 },
      { k: 'lev', g: 1, i: 2, lev: 125 },
      { k: 'drift', ppm: 0, ticks: 1 },
    ]);
  });
  it("the fund's close is limited at the bankruptcy price: a colluder's bid 30% below the mark does not fill", () => {
    // engine of 18029d1: b0 isolated long 0.001 BTC at 125x liquidated at its bankruptcy price 39,680.0; the fund's IOC
    // was limited at 50% below the mark (19,840.0) and sold to a0's bid at 28,000.0 (the fund lost 11.68 USDT, group
    // a0/a1 gained it)
    replay([
      { k: 'mm', on: false },
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 1, off: 0, market: false },
      { k: 'rest', g: 0, i: 0, buy: true, off: 300, qty: 1 },
      { k: 'gap', g: 1, i: 0, beyond: 0 },
    ]);
  });
  // Failed on a1e60e3 and on 18029d1 (passes on ba3696f): the close filled, b0 paid its 7.04 USDT margin and the
  // insurance fund paid the other 256.96 USDT of the loss and the 0.308 USDT fee; group b0/b1 was 257.268 USDT richer.
  it("a user's own close never fills beyond what the user can pay: a reduce-only sell into a colluder's bid 30% down, as taker or maker", () => {
    // b0 isolated long 0.022 BTC at 40,000.0, 125x (margin 7.04 USDT), withdraws its max (392.52 USDT: nothing is left
    // available), then sells its position by a reduce-only MARKET order into b1's bid at 28,000.0. The fill is not
    // payable: margin 7.04 + max withdraw 0 + realized (28,000 - 40,000) x 0.022 = -264 - fee 0.308 = -257.268 < 0, so
    // the taker expires unfilled, b1's bid stays, nothing moves and the fund keeps its 1,000 USDT.
    const game = replay([
      { k: 'mm', on: false },
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 22, off: 0, market: false },
      { k: 'out', g: 1, i: 0, how: 'max' },
      { k: 'rest', g: 1, i: 1, buy: true, off: 300, qty: 22 },
      { k: 'close', g: 1, i: 0, pct: 100, reduce: true, market: true },
    ]);
    const out = lastOf(game, 'transfer', 'b0');
    expect(out.cmd.type === 'transfer' && out.cmd.amount).toBe(39_252_000_000n);
    const close = lastOf(game, 'perpPlaceOrder', 'b0');
    expect(close.r.code).toBe('ok');
    expect(close.r.perpOrder).toMatchObject({ side: 'SELL', orderType: 'MARKET', reduceOnly: true, status: 'EXPIRED', filledQty: 0n });
    expect(close.r.events.filter((ev) => ev.type === 'perpTrade')).toEqual([]);
    expect(game.e.position('b0', SYM)).toMatchObject({ side: 'LONG', size: 22n, cost: 88_000_000_000n, margin: 704_000_000n });
    expect(game.e.balance('b0', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 704_000_000n });
    expect(game.e.perpOpenOrders('b1', SYM).map((o) => [o.side, o.price, o.quantity - o.filledQty])).toEqual([['BUY', 280_000n, 22n]]);
    expect(game.fundBalance()).toBe(1_000n * USDT);
    // The same close resting as a maker (a reduce-only ask at 28,000.0) that b1 then takes: the maker's fill is the
    // one not payable, so b0's ask expires, b1's IOC finds nothing else and expires, and nothing moves either.
    const maker = replay([{ k: 'dump', g: 1, i: 0, j: 1, buy: true, qty: 22, off: 300, pct: 100, reduce: true, market: false, maker: true, drain: true }]);
    const ask = lastOf(maker, 'perpPlaceOrder', 'b0').r.perpOrder!;
    expect(ask).toMatchObject({ side: 'SELL', price: 280_000n, reduceOnly: true, status: 'NEW' });
    const take = lastOf(maker, 'perpPlaceOrder', 'b1');
    expect(take.r.events.filter((ev) => ev.type === 'perpTrade')).toEqual([]);
    expect(take.r.perpOrder).toMatchObject({ side: 'BUY', status: 'EXPIRED', filledQty: 0n });
    expect(maker.e.perpOrder(ask.orderId)).toMatchObject({ status: 'EXPIRED', filledQty: 0n, hold: 0n });
    expect(maker.e.position('b0', SYM)).toMatchObject({ side: 'LONG', size: 22n, cost: 88_000_000_000n, margin: 704_000_000n });
    expect(maker.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on a1e60e3 and on 18029d1 (passes on ba3696f): perpSetLeverage checked only the position, so the lower
  // leverage of an open order was never held for; the position opened at 1x with 0.33034 USDT of margin.
  it('lowering the leverage with an open order holds its initial margin at the new leverage, or is refused', () => {
    // b2 (isolated, 125x) rests a bid of 0.001 BTC at 39,800.0: hold 0.3184 initial margin + 0.0199 fee = 0.3383 USDT.
    const steps: Op[] = [
      { k: 'mm', on: false },
      { k: 'rest', g: 1, i: 2, buy: true, off: 5, qty: 1 },
    ];
    const fill: Op = { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 1, off: -5, market: false };
    // It withdraws its max, then asks for 1x: the bid would hold 39.80 - 0.3184 = 39.4816 USDT more, with nothing
    // available: insufficient_balance, nothing changes; b1's sell then opens b2's long at 125x with 0.3184 margin.
    const poor = replay([...steps, { k: 'out', g: 1, i: 2, how: 'max' }, { k: 'lev', g: 1, i: 2, lev: 1 }, fill]);
    expect(lastOf(poor, 'perpSetLeverage', 'b2').r.code).toBe('insufficient_balance');
    expect(poor.e.position('b2', SYM)).toMatchObject({ side: 'LONG', size: 1n, cost: 3_980_000_000n, margin: 31_840_000n, leverage: 125 });
    // Without the withdrawal (3,999.6617 USDT available), 1x is accepted: the bid holds 39.8199 USDT at 1x (reported by
    // perpOrderUpdated), and the fill opens the long at 1x with its 39.80 USDT margin; the maker fee 0.00796 comes from
    // the hold and the rest of the hold, 0.01194 USDT, goes back.
    const rich = replay([...steps, { k: 'lev', g: 1, i: 2, lev: 1 }]);
    const lev = lastOf(rich, 'perpSetLeverage', 'b2');
    expect(lev.r.code).toBe('ok');
    const updated = lev.r.events
      .filter((ev) => ev.type === 'perpOrderUpdated')
      .map((ev) => ev.type === 'perpOrderUpdated' && [ev.order.leverage, ev.order.hold]);
    expect(updated).toEqual([[1, 3_981_990_000n]]);
    expect(rich.e.balance('b2', 'CONTRACT', 'USDT').frozen).toBe(3_981_990_000n);
    rich.step(fill);
    expect(rich.e.position('b2', SYM)).toMatchObject({ side: 'LONG', size: 1n, cost: 3_980_000_000n, margin: 3_980_000_000n, leverage: 1 });
    expect(rich.e.balance('b2', 'CONTRACT', 'USDT')).toEqual({ available: 400_000_000_000n - 3_980_000_000n - 796_000n, frozen: 3_980_000_000n });
  });
  // Failed on a1e60e3 (passes on ba3696f): b0 (isolated 125x) bought 0.115 BTC at 43,800.0, 9.5% above the mark, from
  // a1's resting ask, holding only its initial margin 40.296 USDT; the gap to b0's bankruptcy (43,449.6) liquidated b2's
  // short past bankruptcy; the fund found no ask and ADL'd b0, the only long, at b2's bankruptcy price 40,320.0, a loss
  // of 400.2 USDT beyond b0's margin: the fund paid 2.7185 USDT of it.
  it('auto-deleveraging never closes a counterparty beyond what it can pay: a buy 9.5% above the mark holds its open loss', () => {
    const steps: Op[] = [
      { k: 'rest', g: 0, i: 1, buy: false, off: 95, qty: 115 },
      { k: 'hedge', g: 0, i: 1, j: 0, buy: true, qty: 126, off: 0, market: false },
      { k: 'mm', on: false },
    ];
    const buy: Op = { k: 'hedge', g: 1, i: 2, j: 0, buy: false, qty: 115, off: 0, market: true };
    // The MARKET buy of 0.115 BTC would fill at 43,800.0 (5,037 USDT) with the mark at 40,000.0: it holds 40.296 initial
    // margin + 2.5185 fee + 437 open loss = 479.8145 USDT, more than b0's 400: insufficient_balance, and the gap finds
    // no position of b0 to take past bankruptcy.
    const poor = replay([...steps, buy, { k: 'gap', g: 1, i: 0, beyond: 0 }]);
    expect(lastOf(poor, 'perpPlaceOrder', 'b0').r.code).toBe('insufficient_balance');
    expect(poor.e.position('b0', SYM)).toBeUndefined();
    expect(poor.fundBalance()).toBe(1_000n * USDT);
    // With 100 USDT more, the buy is accepted and b0's isolated margin keeps the open loss: 40.296 + 437 = 477.296 USDT
    // (bankruptcy 39,649.6). The gap to b2's bankruptcy (40,320.0) liquidates b2, the fund finds no ask and ADLs b0 at
    // 40,320.0: b0 realizes (40,320 - 43,800) x 0.115 = -400.2 USDT out of its margin, and the fund pays nothing.
    const rich = replay([...steps, { k: 'in', g: 1, i: 0, amount: 100 }, buy]);
    expect(rich.e.position('b0', SYM)).toMatchObject({ side: 'LONG', size: 115n, cost: 503_700_000_000n, margin: 47_729_600_000n });
    rich.step({ k: 'gap', g: 1, i: 2, beyond: 0 });
    const adl = rich.results!.flatMap((x) => x.r.events).filter((ev) => ev.type === 'perpTrade' && ev.kind === 'ADL');
    expect(adl.map((ev) => ev.type === 'perpTrade' && [ev.takerUserId, ev.quantity, ev.price, ev.takerRealizedPnl])).toEqual([
      ['b0', 115n, 403_200n, -40_020_000_000n],
    ]);
    expect(rich.e.position('b0', SYM)).toBeUndefined();
    expect(rich.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on ba3696f (passes once every fill is judged, its opening part too): the fill opened a0's short at 40,200.0
  // with the mark at 44,000.0, an open loss of 152 USDT of which its hold paid 0.4824 (margin 13.3464 USDT, margin
  // balance -138.6536); a1 sold its long to mm at 43,955.9 and 43,911.9 (+149.356 USDT realized); at the next tick a0
  // was taken over past bankruptcy, the fund found no ask at or under a0's bankruptcy price 40,533.7 and ADL'd mm, the
  // only long, there: mm realized -136.0096 USDT and group a0/a1 ended 134.005322 USDT richer.
  it("a resting order filled after the mark moved past it never opens a position beyond what its owner can pay (an outsider is not ADL'd for it)", () => {
    // a0 (isolated 125x) rests an ask of 0.040 BTC at 40,200.0 (hold 12.864 + 0.804 = 13.668 USDT, no open loss at
    // the mark 40,000.0), withdraws its max (226.332 USDT); the index jumps 10% to 44,000.0 with nobody lifting the
    // ask; its colluder a1 bids at 44,000.0 and meets the stale ask at 40,200.0
    const game = replay([
      { k: 'mm', on: false },
      { k: 'rest', g: 0, i: 0, buy: false, off: 5, qty: 40 },
      { k: 'out', g: 0, i: 0, how: 'max' },
      { k: 'jump', ppm: 100_000 },
      { k: 'hedge', g: 0, i: 1, j: 0, buy: true, qty: 40, off: 0, market: false },
      { k: 'mm', on: true },
      { k: 'close', g: 0, i: 1, pct: 100, reduce: true, market: true },
      { k: 'drift', ppm: 0, ticks: 1 },
    ]);
    // The maker's fill is not payable: max withdraw 0 + hold 13.668 - fee 0.3216 - (initial margin 12.864 + open
    // loss (44,000 - 40,200) x 0.040 = 152) < 0. a1 (the taker, payable: it buys 3,800 under the mark) is judged
    // first; a0's ask expires unfilled and its hold goes back, a1's bid rests with nothing else to meet, a1 has no
    // long to close, and nobody is taken over or ADL'd.
    const bid = lastOf(game, 'perpPlaceOrder', 'a1');
    expect(bid.r.events.filter((ev) => ev.type === 'perpTrade')).toEqual([]);
    expect(
      bid.r.events
        .filter((ev) => ev.type === 'perpOrderUpdated')
        .map((ev) => ev.type === 'perpOrderUpdated' && [ev.order.userId, ev.order.status, ev.order.filledQty]),
    ).toEqual([['a0', 'EXPIRED', 0n]]);
    expect(bid.r.perpOrder).toMatchObject({ side: 'BUY', price: 440_000n, status: 'NEW', filledQty: 0n });
    expect(game.e.position('a0', SYM)).toBeUndefined();
    expect(game.e.balance('a0', 'CONTRACT', 'USDT')).toEqual({ available: 1_366_800_000n, frozen: 0n });
    expect(game.e.position('a1', SYM)).toBeUndefined();
    expect(game.e.perpOpenOrders('a1', SYM).map((o) => [o.side, o.price, o.hold])).toEqual([['BUY', 440_000n, 1_848_000_000n]]);
    const adl = game.results!.flatMap((x) => x.r.events).filter((ev) => ev.type === 'perpTrade' && ev.kind === 'ADL');
    expect(adl).toEqual([]);
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on ba3696f: a1's close was payable (cross wallet 1,594.78 - 789.36 loss - 0.92532 fee = 804.49468 >= 0),
  // but its loss was paid from the available balance (707.98828 after the released margin share) and the cross margin
  // (78.00), not from the 808.79172 USDT the closing order itself held; the fund paid the other 3.37172 USDT and the
  // hold then went back to a1 (wallet 807.8664 USDT).
  it("a cross close's loss is paid from the user's wallet, the closing order's hold included, never by the fund", () => {
    // a1 (cross 100x) long 0.261 BTC at 40,000.0 from b1's ask; a0 bids 0.066 at 28,040.0; a1 sells 25% by a MARKET
    // order that is not reduce-only: it holds 18.5064 initial margin + 0.92532 fee + 789.36 open loss
    const game = replay([
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 261, off: 0, market: false },
      { k: 'hedge', g: 0, i: 1, j: 0, buy: true, qty: 261, off: 0, market: false },
      { k: 'mm', on: false },
      { k: 'rest', g: 0, i: 0, buy: true, off: 299, qty: 66 },
      { k: 'close', g: 0, i: 1, pct: 25, reduce: false, market: true },
    ]);
    // The loss (28,040 - 40,000) x 0.066 = -789.36 and the fee 0.92532 come from the available balance, then the
    // order's hold: a1 keeps 1,594.78 - 789.36 - 0.92532 = 804.49468 USDT, 78.00 of it the margin of the 0.195 left.
    const close = lastOf(game, 'perpPlaceOrder', 'a1');
    expect(close.r.perpOrder).toMatchObject({
      side: 'SELL',
      orderType: 'MARKET',
      status: 'FILLED',
      filledQty: 66n,
      realizedPnl: -78_936_000_000n,
      fee: 92_532_000n,
      hold: 0n,
    });
    expect(game.e.position('a1', SYM)).toMatchObject({ side: 'LONG', size: 195n, cost: 780_000_000_000n, margin: 7_800_000_000n });
    expect(game.e.balance('a1', 'CONTRACT', 'USDT')).toEqual({ available: 72_649_468_000n, frozen: 7_800_000_000n });
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on ba3696f: the close was payable (margin 0.64 + max withdraw 0 - 0.32 realized - 0.02016 fee = 0.29984 >=
  // 0); the loss came out of the closed half's margin, but the fee was taken from the available balance (0) only, so
  // the fund paid the 0.02016 USDT while the other half's margin, 0.32, stayed.
  it("an isolated close's fee beyond the available balance comes out of the position's margin, never from the fund", () => {
    // a0 (isolated 125x) short 0.002 BTC at 40,000.0 from a1 (margin 0.64 USDT), withdraws its max; a1 rests an ask of
    // 0.001 at 40,320.0 and a0 buys it back reduce-only
    const game = replay([
      { k: 'dump', g: 0, i: 0, j: 1, buy: false, qty: 2, off: 8, pct: 25, reduce: false, market: false, maker: false, drain: true },
      { k: 'dump', g: 0, i: 0, j: 1, buy: false, qty: 1, off: 8, pct: 25, reduce: true, market: false, maker: false, drain: false },
    ]);
    // The closed half realizes -0.32 out of its own margin share (0.32); the fee 0.02016, with nothing available and
    // a reduce-only order holding nothing, comes out of the margin of the half left: 0.32 - 0.02016 = 0.29984.
    const close = lastOf(game, 'perpPlaceOrder', 'a0');
    expect(close.r.perpOrder).toMatchObject({ side: 'BUY', reduceOnly: true, status: 'FILLED', filledQty: 1n, realizedPnl: -32_000_000n, fee: 2_016_000n });
    expect(game.e.position('a0', SYM)).toMatchObject({ side: 'SHORT', size: 1n, cost: 4_000_000_000n, margin: 29_984_000n });
    expect(game.e.balance('a0', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 29_984_000n });
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on 0deffcf, fixed since (a fill's loss or fee comes from the free balance before the margin of what stays
  // open): b2's reduce-only close is payable
  // (margin 0.72064 + max withdraw 3,999.23932 - 0.68 realized - 0.01968 fee >= 0), but the loss beyond the closed
  // half's margin share (0.68 - 0.36032 = 0.31968) and the fee 0.01968 come out of the other half's margin first
  // (0.36032 -> 0.02096) while 3,999.23932 USDT stay available: the long left has a margin balance of 0.02096 - 0.04
  // = -0.01904 USDT. At the next tick it is taken over past bankruptcy (equity -0.01904) and b0, its colluder and the
  // best-ranked short, is auto-deleveraged at the bankruptcy price 40,019.0 (mark 40,000.0): b0 carries the deficit.
  it("an isolated partial close never leaves the position's rest with a negative margin balance while the user can pay", () => {
    // b2 (isolated 125x) long 0.002 BTC at 40,040.0 from b0 (margin 0.64064 + open loss 0.08 = 0.72064 USDT); a0 bids
    // 0.001 at 39,360.0; b2 sells 0.001 reduce-only into it
    const game = replay([
      { k: 'mm', on: false },
      { k: 'hedge', g: 1, i: 0, j: 2, buy: false, qty: 2, off: 1, market: false },
      { k: 'rest', g: 0, i: 0, buy: true, off: 16, qty: 1 },
      { k: 'close', g: 1, i: 2, pct: 25, reduce: true, market: false },
    ]);
    const close = lastOf(game, 'perpPlaceOrder', 'b2');
    expect(close.r.perpOrder).toMatchObject({ side: 'SELL', reduceOnly: true, status: 'FILLED', filledQty: 1n, realizedPnl: -68_000_000n, fee: 1_968_000n });
    const p = game.e.position('b2', SYM)!;
    expect(p).toMatchObject({ side: 'LONG', size: 1n, cost: 4_004_000_000n });
    expect(p.margin + game.m.notional(p.size, game.m.mark!) - p.cost).toBeGreaterThanOrEqual(0n);
    game.step({ k: 'drift', ppm: 0, ticks: 1 });
    expect(game.results!.flatMap((x) => x.r.events).filter((ev) => ev.type === 'liquidated' || (ev.type === 'perpTrade' && ev.kind === 'ADL'))).toEqual([]);
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Found by a random stream (seed 991963845), fixed since: the loss of a partial close beyond the released margin was
  // paid from the available balance, then the margin of the rest, then the closing order's hold, so a (not
  // reduce-only) buy whose hold could pay it left the rest with no margin. b0 (isolated 125x) shorts 0.100 BTC at
  // 39,960.0 to its colluder b1 and buys 0.050 back at 43,800.0 (a loss of 192 USDT; the buy holds its cost, about
  // 208 USDT, beside 154 USDT available): the hold pays before the rest's margin.
  it("an isolated partial close's loss is paid by the closing order's hold before the margin of the position's rest", () => {
    const game = replay([
      { k: 'hedge', g: 1, i: 0, j: 1, buy: false, qty: 100, off: -1, market: false },
      { k: 'dump', g: 1, i: 0, j: 1, buy: false, qty: 1, off: 95, pct: 50, reduce: false, market: false, maker: false, drain: false },
    ]);
    const close = lastOf(game, 'perpPlaceOrder', 'b0');
    expect(close.r.perpOrder).toMatchObject({ side: 'BUY', status: 'FILLED', filledQty: 50n, realizedPnl: -19_200_000_000n });
    const p = game.e.position('b0', SYM)!;
    // half the opening margin (3,596.8 at 125x with its open loss) stays with the half left open
    expect(p).toMatchObject({ side: 'SHORT', size: 50n, margin: 1_798_400_000n });
    expect(p.margin + p.cost - game.m.notional(p.size, game.m.mark!)).toBeGreaterThanOrEqual(0n);
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on 0deffcf, fixed since (a cross fill is judged without the user's other orders' holds): b1 (cross 50x) buys
  // back its short
  // of 0.050 BTC (entry 39,960.0) reduce-only at 43,400.0 from its colluder b0: a loss of 172 USDT and a fee of 1.085.
  // The fill is judged payable on b1's cross wallet, which counts the 246.77654 USDT its resting ask (0.257 at
  // 46,840.0) holds; but the loss and fee are paid from the available balance, the closing order's hold (none: it is
  // reduce-only) and the released margin only, and the fund pays the other 0.08134 USDT while the ask keeps its hold.
  it("a cross close judged payable on the cross wallet is paid from it, the user's other orders' holds included, never by the fund", () => {
    // b1 (cross 50x) sells 0.050 at 39,960.0 to b0, moves half its available balance out, rests an ask of 0.257 at
    // 46,840.0; the market maker leaves; b0 rests an ask of 0.050 at 43,400.0 and b1 buys it reduce-only (IOC)
    const game = replay([
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 50, off: -1, market: false },
      { k: 'out', g: 1, i: 1, how: 'half' },
      { k: 'rest', g: 1, i: 1, buy: false, off: 171, qty: 257 },
      { k: 'dump', g: 1, i: 1, j: 0, buy: false, qty: 1, off: 85, pct: 100, reduce: true, market: false, maker: false, drain: false },
    ]);
    expect(game.e.perpOpenOrders('b1', SYM).map((o) => [o.side, o.price, o.quantity])).toEqual([['SELL', 468_400n, 257n]]);
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on 0deffcf, fixed since (a fill that closes nothing must bring its own initial margin and open loss; the
  // margin already there still counts for the position's own loss): a0 (isolated 125x) is short 0.001 BTC at 40,000.0
  // with 239.64 USDT of margin (all its available balance added) and 0.001 of its ask at 40,000.0 still resting
  // (hold 0.352). The gap to b0's bankruptcy price 40,320.0 takes b0's short over; the fund's close buys a0's ask at
  // 40,000.0 with the mark at 40,320.0: the new 0.001 needs initial margin 0.32 + open loss 0.32, the hold pays 0.344
  // of it after the 0.008 fee and 0.296 USDT comes out of the margin already there. By the rule the fill is not
  // payable (0 available + hold 0.352 - fee 0.008 - 0.64 + min(0, rest -0.32) = -0.616 < 0) and a0's ask expires.
  it('a fill that only adds to an isolated position brings its own initial margin and open loss (the margin already there is not counted)', () => {
    // b1 moves its max out; b0 rests an ask of 0.001 at 40,000.0 that b1 cannot take; a0 rests an ask of 0.002 at
    // 40,000.0 and a1 takes 0.002 (b0's 0.001 and 0.001 of a0's); a0 adds all its available balance to its margin
    const game = replay([
      { k: 'out', g: 1, i: 1, how: 'max' },
      { k: 'hedge', g: 1, i: 0, j: 1, buy: false, qty: 1, off: 0, market: false },
      { k: 'hedge', g: 0, i: 0, j: 1, buy: false, qty: 2, off: 0, market: false },
      { k: 'adjust', g: 0, i: 0, how: 'addAll' },
    ]);
    expect(game.e.position('a0', SYM)).toMatchObject({ side: 'SHORT', size: 1n, margin: 23_964_000_000n });
    expect(game.e.perpOpenOrders('a0', SYM).map((o) => [o.side, o.price, o.quantity - o.filledQty, o.hold])).toEqual([['SELL', 400_000n, 1n, 35_200_000n]]);
    game.step({ k: 'gap', g: 1, i: 0, beyond: 0 });
    const a0Fills = game
      .results!.flatMap((x) => x.r.events)
      .filter((ev) => ev.type === 'perpTrade' && ev.kind === 'BOOK' && ev.makerUserId === 'a0' && ev.takerUserId === FUND);
    expect(a0Fills).toEqual([]);
    expect(game.e.position('a0', SYM)).toMatchObject({ side: 'SHORT', size: 1n, margin: 23_964_000_000n });
  });
  // Failed on ba3696f: perpSetLeverage held the orders' increase (73.7472 USDT) before it released the position's
  // margin (3,670.9432 USDT), with nothing available: the ledger threw "ledger: bad hold on b2/CONTRACT/USDT" out of
  // execute (a programmer error, not a result code) and nothing changed.
  it('a leverage change that releases more position margin than it holds for open orders is accepted (no exception)', () => {
    // b2 (isolated 125x) sells 0.100 BTC at 40,080.0: 0.080 fill, 0.020 rest (hold 7.77552 USDT); it adds all its
    // available balance to the position's margin (3,991.5832 USDT), then sets 10x: the position needs ceil(cost / 10) =
    // 320.64 and releases 3,670.9432 (its max removable margin at 10x is 3,671.5832), the resting ask holds 80.16 -
    // 6.4128 = 73.7472 more: a total of -3,597.196, which needs no available balance
    const game = replay([
      { k: 'hedge', g: 1, i: 2, j: 0, buy: false, qty: 100, off: 2, market: false },
      { k: 'adjust', g: 1, i: 2, how: 'addAll' },
      { k: 'lev', g: 1, i: 2, lev: 10 },
    ]);
    expect(lastOf(game, 'perpSetLeverage', 'b2').r.code).toBe('ok');
    expect(game.e.position('b2', SYM)).toMatchObject({ side: 'SHORT', size: 80n, margin: 32_064_000_000n, leverage: 10 });
    expect(game.e.perpOpenOrders('b2', SYM).map((o) => [o.leverage, o.hold])).toEqual([[10, 8_152_272_000n]]);
    expect(game.e.balance('b2', 'CONTRACT', 'USDT')).toEqual({ available: 359_719_600_000n, frozen: 40_216_272_000n });
  });
  // Failed on ba3696f: a0's funding payments drained its isolated margin from 0.32 to 0.09337967 USDT while its
  // unrealized profit (0.0665) kept its margin balance 0.15987967 just above maintenance (0.159734), so no tick
  // liquidated it; it moved its available balance out, and of the next payment, 0.09363328, the margin paid 0.09337967
  // and the insurance fund the other 0.00025361 USDT (to a1, its colluder on the other side).
  it('funding an isolated position owes beyond its margin and the available balance is never paid by the fund', () => {
    // a0 (isolated 125x) short 0.001 BTC at 40,000.0 against a1; the index dips 0.68% and comes back to 39,933.6;
    // funding rates -0.098548% and -0.234473% (shorts pay) three times, a0's max withdraw moved out, a fourth funding
    const game = replay([
      { k: 'hedge', g: 0, i: 1, j: 0, buy: true, qty: 1, off: 0, market: false },
      { k: 'jump', ppm: -6768 },
      { k: 'drift', ppm: 1285, ticks: 4 },
      { k: 'funding' },
      { k: 'funding' },
      { k: 'funding' },
      { k: 'out', g: 0, i: 0, how: 'max' },
      { k: 'funding' },
    ]);
    // a0 owes 0.09363328 and pays what its margin has, 0.09337967; a1, owed 0.09363327, receives its share of what was
    // collected, floor(0.09363327 x 0.09337967 / 0.09363328) = 0.09337966 (the dust stays in '@funding')
    const last = game.results![game.results!.length - 1]!.r.events;
    const pays = last.filter((ev) => ev.type === 'fundingPayment').map((ev) => ev.type === 'fundingPayment' && [ev.userId, ev.amount]);
    expect(pays).toEqual([
      ['a0', -9_337_967n],
      ['a1', 9_337_966n],
    ]);
    expect(last.find((ev) => ev.type === 'fundingSettled')).toMatchObject({ rateE8: -234_473, paid: 9_337_967n, received: 9_337_966n });
    expect(game.e.position('a0', SYM)).toMatchObject({ side: 'SHORT', size: 1n, margin: 0n });
    expect(game.e.balance('a0', 'CONTRACT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
    expect(game.fundBalance()).toBe(1_000n * USDT);
  });
  // Failed on da80976 (random stream of seed 415502653): b1 (cross 50x) is short 0.137 BTC at 36,496.3 with an ask of
  // 0.534 at 40,000.0 resting (hold 43,788 USDT). A 4% drop liquidates b0's and b2's longs and the fund's closes find
  // too few bids: b1 is auto-deleveraged for 0.033 and 0.104 at the bankruptcy prices 38,145.4 and 39,455.8, a loss of
  // 36,220.984294 USDT where its available balance and margin had 36,220.969938; the fund paid the other 0.014356 USDT
  // while the resting ask kept its hold.
  it("a deleveraged user's open orders are cancelled and their holds pay its loss, never the fund", () => {
    const game = replay([
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 534, off: 0, market: false },
      { k: 'jump', ppm: -26436 },
      { k: 'jump', ppm: -62814 },
      { k: 'hedge', g: 1, i: 1, j: 0, buy: false, qty: 137, off: 0, market: false },
      { k: 'jump', ppm: 89711 },
      { k: 'drift', ppm: -3, ticks: 2 },
      { k: 'funding' },
      { k: 'hedge', g: 1, i: 0, j: 2, buy: false, qty: 104, off: 0, market: false },
      { k: 'funding' },
      { k: 'drift', ppm: 2047, ticks: 1 },
      { k: 'hedge', g: 1, i: 2, j: 0, buy: false, qty: 46, off: 2, market: false },
    ]);
    expect(game.e.perpOpenOrders('b1', SYM).map((o) => [o.side, o.price, o.quantity, o.hold])).toEqual([['SELL', 400_000n, 534n, 43_788_000_000n]]);
    expect(game.e.balance('b1', 'CONTRACT', 'USDT')).toEqual({ available: 26_220_983_738n, frozen: 53_787_986_200n });
    const n0 = game.results!.length;
    game.step({ k: 'jump', ppm: -40890 });
    const events = game.results!.slice(n0).flatMap((x) => x.r.events);
    const adl = events.filter((ev) => ev.type === 'perpTrade' && ev.kind === 'ADL' && ev.takerUserId === 'b1');
    expect(adl.map((ev) => ev.type === 'perpTrade' && [ev.quantity, ev.takerRealizedPnl])).toEqual([
      [33n, -5_442_007_494n],
      [104n, -30_778_976_800n],
    ]);
    expect(game.e.perpOpenOrders('b1', SYM)).toEqual([]);
    // 80,008.96993800 (available and frozen) - 36,220.98429400 lost = 43,787.98564400, all available
    expect(game.e.balance('b1', 'CONTRACT', 'USDT')).toEqual({ available: 43_787_985_644n, frozen: 0n });
    const liq = events.filter((ev) => ev.type === 'liquidated').map((ev) => ev.type === 'liquidated' && [ev.userId, ev.insuranceDelta]);
    expect(liq).toEqual([
      ['b0', 76_213_641n],
      ['b2', 0n],
    ]);
  });
});

/** The last command of a type by a user in a replayed stream, with its result. */
function lastOf(game: Game, type: Command['type'], userId: string): { cmd: Command; r: CommandResult } {
  const x = game.results!.filter((c) => c.cmd.type === type && 'userId' in c.cmd && c.cmd.userId === userId).pop();
  if (x === undefined) throw new Error(`no ${type} of ${userId}`);
  return x;
}
