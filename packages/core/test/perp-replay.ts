/**
 * Replay of a real BTC perpetual price path (perp-ftx.ts) through the engine: every 1-minute bar gives four index
 * ticks 15 s apart (open, then low and high in the order the bar most likely took them, then close), a maker quotes
 * three levels each side around the index before each tick, funding is settled at every 8 h boundary, and 44
 * leveraged accounts (1x..125x, long and short, cross and isolated) hold positions; an account without a position
 * (liquidated, or never opened) opens again at the next funding time. Checked after every command: every asset sums
 * to zero; at every liquidation, the account's equity was >= 0 (liquidated at or before bankruptcy) unless that
 * tick's move jumped over the whole distance from the liquidation price to the bankruptcy price (a gap, counted);
 * and the insurance fund's balance is exactly explained by its entries: its seed + the liquidated events'
 * insuranceDelta (docs/perpetuals.md: the exact change of the fund's balance), which in turn is the realized PnL (less
 * fees) of the fund's own trades (takeovers at the bankruptcy price, closes in the book, auto-deleveraging).
 * Used by perp.replay.test.ts (a few days) and perp-replay-full.ts (the whole month).
 */
import { Engine } from '../src/engine';
import { bracketTiers, lotsToQty, maxNotionalFor } from '../src/perp/math';
import type { LeverageBracket, MarginMode, PositionSide, PositionView } from '../src/perp/types';
import type { Command, CommandResult } from '../src/types';
import { USDT, perpMarket } from './perp-fixture';
import { toPriceUnits, type Bar } from './perp-ftx';

/** Binance's BTCUSDT brackets ("How to Calculate Liquidation Price of USDⓈ-M Futures Contracts"). */
export const BINANCE_BTC_BRACKETS: LeverageBracket[] = (
  [
    [50_000, 4_000, 125],
    [250_000, 5_000, 100],
    [1_000_000, 10_000, 50],
    [10_000_000, 25_000, 20],
    [20_000_000, 50_000, 10],
    [50_000_000, 100_000, 5],
    [100_000_000, 125_000, 4],
    [200_000_000, 150_000, 3],
    [300_000_000, 250_000, 2],
    [500_000_000, 500_000, 1],
  ] as const
).map(([cap, mmr, lev]) => ({ notionalCap: BigInt(cap) * USDT, maintMarginPpm: mmr, maxLeverage: lev }));

/** What a replay measured. */
export interface ReplayStats {
  bars: number;
  commands: number;
  markTicks: number;
  fundings: number;
  opens: number;
  liquidations: number;
  /** liquidations whose equity was < 0 after a tick that jumped over the liquidation-to-bankruptcy distance */
  gapLiquidations: number;
  /** liquidations with equity < 0 without such a jump (must be 0) */
  lateLiquidations: number;
  adlTrades: number;
  insuranceSeed: bigint;
  insuranceFinal: bigint;
  /** seed + the liquidated events' insuranceDelta (docs/perpetuals.md: the exact change of the fund's balance) */
  insuranceExplained: bigint;
  /** the fund's realized PnL less fees over its trades (takeovers, closes in the book, ADL) */
  insuranceTrades: bigint;
  failures: string[];
}

interface Acct {
  id: string;
  side: PositionSide;
  mode: MarginMode;
  leverage: number;
}

const SYM = 'BTC/USDT';
const MM = 'mm';
const LEVS = [1, 2, 3, 5, 10, 20, 25, 50, 75, 100, 125];

/** Runs the replay over `bars`; never throws on a broken property (they are listed in `failures`). */
export function replayPath(bars: Bar[], opts: { insuranceSeed?: bigint; wallet?: bigint } = {}): ReplayStats {
  const market = perpMarket({ brackets: BINANCE_BTC_BRACKETS });
  const tiers = bracketTiers(market.brackets);
  const mult = 10n ** BigInt(8 - market.priceDecimals - market.qtyDecimals);
  const wallet = opts.wallet ?? 1_000n * USDT;
  const seed = opts.insuranceSeed ?? 10_000n * USDT;
  const e = new Engine();
  const st: ReplayStats = {
    bars: bars.length,
    commands: 0,
    markTicks: 0,
    fundings: 0,
    opens: 0,
    liquidations: 0,
    gapLiquidations: 0,
    lateLiquidations: 0,
    adlTrades: 0,
    insuranceSeed: seed,
    insuranceFinal: 0n,
    insuranceExplained: seed,
    insuranceTrades: 0n,
    failures: [],
  };
  const fail = (s: string): void => {
    if (st.failures.length < 20) st.failures.push(s);
  };
  let ts = bars.length > 0 ? bars[0]!.ts : 0;
  const run = (cmd: Command, mustOk = true): CommandResult => {
    st.commands++;
    const r = e.execute(cmd);
    if (mustOk && r.code !== 'ok') fail(`${cmd.type} at ${cmd.ts}: ${r.code}`);
    for (const ev of r.events) {
      if (ev.type === 'liquidated') st.insuranceExplained += ev.insuranceDelta;
      if (ev.type === 'perpTrade') {
        if (ev.kind === 'ADL') st.adlTrades++;
        if (ev.takerUserId === '@insurance') st.insuranceTrades += ev.takerRealizedPnl - ev.takerFee;
        if (ev.makerUserId === '@insurance') st.insuranceTrades += ev.makerRealizedPnl - ev.makerFee;
      }
    }
    return r;
  };
  run({ type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
  run({ type: 'addPerpMarket', ts, market });
  run({ type: 'fundInsurance', ts, asset: 'USDT', amount: seed, from: '@faucet' });
  const fundIn = (u: string, amount: bigint): void => {
    run({ type: 'deposit', ts, userId: u, asset: 'USDT', account: 'SPOT', amount, from: '@faucet' });
    run({ type: 'transfer', ts, userId: u, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount });
  };
  fundIn(MM, 10n ** 10n * USDT);
  run({ type: 'perpSetLeverage', ts, userId: MM, symbol: SYM, leverage: 1 });
  const accts: Acct[] = [];
  for (const leverage of LEVS)
    for (const side of ['LONG', 'SHORT'] as const)
      for (const mode of ['CROSS', 'ISOLATED'] as const) {
        const a = { id: `${side[0]}${mode[0]}${leverage}`, side, mode, leverage };
        accts.push(a);
        fundIn(a.id, wallet);
        run({ type: 'perpSetMarginMode', ts, userId: a.id, symbol: SYM, marginMode: mode });
        run({ type: 'perpSetLeverage', ts, userId: a.id, symbol: SYM, leverage });
      }
  let quoteIds: string[] = [];
  const quote = (index: bigint): void => {
    for (const id of quoteIds) run({ type: 'perpCancelOrder', ts, userId: MM, orderId: id }, false);
    quoteIds = [];
    for (let i = 1n; i <= 3n; i++) {
      const step = (index * i) / 4000n + 1n; // 0.025% per level
      for (const side of ['BUY', 'SELL'] as const) {
        const r = run(
          {
            type: 'perpPlaceOrder',
            ts,
            userId: MM,
            symbol: SYM,
            side,
            orderType: 'LIMIT',
            timeInForce: 'GTC',
            price: side === 'BUY' ? index - step : index + step,
            quantity: 2_000n * i,
          },
          false,
        );
        for (const ev of r.events)
          if (ev.type === 'perpOrderAccepted' && ev.order.userId === MM && (ev.order.status === 'NEW' || ev.order.status === 'PARTIALLY_FILLED'))
            quoteIds.push(ev.order.orderId);
      }
    }
  };
  let mark: bigint | null = null;
  const open = (): void => {
    if (mark === null) return;
    for (const a of accts) {
      if (e.position(a.id, SYM) !== undefined) continue;
      const bal = e.balance(a.id, 'CONTRACT', 'USDT');
      if (bal.available + bal.frozen < wallet) fundIn(a.id, wallet - bal.available - bal.frozen);
      // about 90% of the wallet at the leverage, within the leverage's bracket
      let notional = (wallet * 9n * BigInt(a.leverage)) / 10n;
      const cap = (maxNotionalFor(tiers, a.leverage) * 9n) / 10n;
      if (notional > cap) notional = cap;
      const lots = notional / market.lotNotional;
      const qty = lotsToQty(lots < 1n ? 1n : lots, mark, market.lotNotional, market.stepSize, mult);
      const r = run(
        {
          type: 'perpPlaceOrder',
          ts,
          userId: a.id,
          symbol: SYM,
          side: a.side === 'LONG' ? 'BUY' : 'SELL',
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity: qty,
        },
        false,
      );
      if (r.code === 'ok') st.opens++;
    }
  };
  const before = new Map<string, { p: PositionView; wallet: bigint }>();
  const tick = (index: bigint): void => {
    quote(index);
    before.clear();
    for (const a of accts) {
      const p = e.position(a.id, SYM);
      const bal = e.balance(a.id, 'CONTRACT', 'USDT');
      if (p !== undefined) before.set(a.id, { p, wallet: bal.available + bal.frozen });
    }
    const prev = mark;
    const r = run({ type: 'perpMarkPrice', ts, symbol: SYM, indexPrice: index });
    st.markTicks++;
    for (const ev of r.events) {
      if (ev.type === 'markPrice') mark = ev.state.markPrice;
      if (ev.type !== 'liquidated') continue;
      st.liquidations++;
      if (ev.equity >= 0n) continue;
      const bf = before.get(ev.userId);
      if (bf === undefined || prev === null) {
        st.lateLiquidations++;
        fail(`liquidation of ${ev.userId} with equity ${ev.equity} and no prior position or mark`);
        continue;
      }
      // the wallet in scope before the tick and the distance from the liquidation price to bankruptcy
      const p = bf.p;
      const wb = p.marginMode === 'ISOLATED' ? p.margin : bf.wallet;
      const n = p.size * mult;
      const bp = p.side === 'LONG' ? (p.cost - wb) / n : (p.cost + wb) / n;
      const jumped = p.side === 'LONG' ? prev > bp && ev.markPrice <= bp : prev < bp && ev.markPrice >= bp;
      if (jumped) st.gapLiquidations++;
      else {
        st.lateLiquidations++;
        fail(`late liquidation of ${ev.userId}: equity ${ev.equity} at mark ${ev.markPrice}, previous mark ${prev}, bankruptcy ~${bp}`);
      }
    }
  };
  const interval = market.fundingIntervalMs;
  let nextFunding = Math.floor(ts / interval) * interval + interval;
  for (const b of bars) {
    const up = b.close >= b.open;
    const path = [b.open, up ? b.low : b.high, up ? b.high : b.low, b.close];
    for (let i = 0; i < 4; i++) {
      ts = b.ts + i * 15_000 + 1;
      if (ts > nextFunding) {
        const r = run({ type: 'perpFunding', ts, symbol: SYM, fundingTs: nextFunding });
        if (r.code === 'ok') st.fundings++;
        nextFunding += interval;
        open();
      }
      tick(toPriceUnits(path[i]!, market.priceDecimals));
      if (st.markTicks === 2) open();
    }
    const totals = e.assetTotals();
    for (const [asset, t] of totals) if (t !== 0n) fail(`${asset} sums to ${t} at ${ts}`);
    const ins = e.balance('@insurance', 'SYSTEM', 'USDT');
    if (ins.available + ins.frozen !== st.insuranceExplained) fail(`insurance ${ins.available + ins.frozen} != explained ${st.insuranceExplained} at ${ts}`);
  }
  const ins = e.balance('@insurance', 'SYSTEM', 'USDT');
  st.insuranceFinal = ins.available + ins.frozen;
  if (st.insuranceExplained - seed !== st.insuranceTrades)
    fail(`sum of insuranceDelta ${st.insuranceExplained - seed} != the fund's trades' PnL less fees ${st.insuranceTrades}`);
  return st;
}
