/**
 * Benchmark 5: the perpetual contracts engine. `npx tsx --expose-gc bench/perp-bench.ts` or
 * `BENCH_ONLY=perp npm run bench`.
 *  a) Contract-engine throughput: one seeded flow of LIMIT GTC orders around a drifting mid (about 10% crossing) and
 *     cancels of resting orders, by 1,000 users, run as spot orders (placeOrder: holds, fees) and as perpetual orders
 *     (perpPlaceOrder: initial margin + fee holds, band and bracket checks, positions, realized PnL) in the same
 *     process, alternating, median of the repetitions; the ratio contract/spot is the figure.
 *  b) Mark-price sweep: 100,000 open positions (50,000 pairs of users, leverages 1x..20x, cross and isolated, a take
 *     profit and stop loss on every tenth), then perpMarkPrice ticks with small index moves (no liquidation):
 *     time per tick (each tick rechecks every position's TP/SL and risk), against the 1 s between ticks.
 * Nothing is asserted; the figures are only comparable within one run.
 */
import { Engine, type Command, type LeverageBracket, type PerpMarketConfig } from '@exchange/core';
import { fmtInt, fmtRatio, heading, maybeGc, median, table } from './src/report';

const USDT = 100_000_000n;
const T0 = 1_640_995_200_000;
const SYM = 'BTC/USDT';

const BRACKETS: LeverageBracket[] = (
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

const PERP: PerpMarketConfig = {
  symbol: SYM,
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 1,
  qtyDecimals: 3,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  makerFeePpm: 200,
  takerFeePpm: 500,
  lotNotional: 1000n * USDT,
  brackets: BRACKETS,
  priceBandPpm: 500_000,
  fundingIntervalMs: 8 * 3_600_000,
  interestRateE8: 10_000,
  fundingCapE8: 300_000,
  impactNotional: 500n * USDT,
  markBasisSamples: 300,
  status: 'TRADING',
};

function must(e: Engine, c: Command): void {
  const r = e.execute(c);
  if (r.code !== 'ok') throw new Error(`${c.type}: ${r.code}`);
}

/** A seeded flow: [userIndex, side, price (0.1 USDT), qty (0.001 BTC)] places and [userIndex, k] cancels. */
type Step = { u: number; buy: boolean; price: bigint; qty: bigint } | { u: number; cancel: number };

function buildFlow(n: number, users: number): Step[] {
  let seed = 42;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const out: Step[] = [];
  let mid = 400_000;
  let placed = 0;
  const live: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (live.length > 2000 && rnd() < 0.45) {
      const k = Math.floor(rnd() * live.length);
      const [u, id] = live[k]!;
      live[k] = live[live.length - 1]!;
      live.pop();
      out.push({ u, cancel: id });
      continue;
    }
    mid += Math.floor(rnd() * 3) - 1;
    const buy = rnd() < 0.5;
    const off = Math.floor(rnd() * 200) - 20;
    const u = Math.floor(rnd() * users);
    out.push({ u, buy, price: BigInt(buy ? mid - off : mid + off), qty: BigInt(1 + Math.floor(rnd() * 1000)) });
    live.push([u, placed++]);
  }
  return out;
}

/** Commands of the flow for one engine kind; order ids are the engine's sequence from `firstId`. */
function commands(flow: Step[], perp: boolean, firstId: number): Command[] {
  const out: Command[] = [];
  let ts = T0 + 10_000;
  for (const s of flow) {
    ts++;
    const userId = `u${s.u}`;
    if ('cancel' in s)
      out.push(
        perp
          ? { type: 'perpCancelOrder', ts, userId, orderId: `${firstId + s.cancel}` }
          : { type: 'cancelOrder', ts, userId, orderId: `${firstId + s.cancel}` },
      );
    else if (perp)
      out.push({
        type: 'perpPlaceOrder',
        ts,
        userId,
        symbol: SYM,
        side: s.buy ? 'BUY' : 'SELL',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: s.price,
        quantity: s.qty,
      });
    else
      out.push({
        type: 'placeOrder',
        ts,
        userId,
        symbol: SYM,
        side: s.buy ? 'BUY' : 'SELL',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: s.price,
        quantity: s.qty,
      });
  }
  return out;
}

function setup(perp: boolean, users: number): Engine {
  const e = new Engine();
  must(e, { type: 'addAsset', ts: T0, asset: { code: 'USDT', scale: 8 } });
  if (perp) {
    must(e, { type: 'addPerpMarket', ts: T0, market: PERP });
    must(e, { type: 'perpMarkPrice', ts: T0 + 1000, symbol: SYM, indexPrice: 400_000n });
  } else {
    must(e, { type: 'addAsset', ts: T0, asset: { code: 'BTC', scale: 8 } });
    must(e, {
      type: 'addMarket',
      ts: T0,
      market: {
        symbol: SYM,
        base: 'BTC',
        quote: 'USDT',
        priceDecimals: 1,
        qtyDecimals: 3,
        tickSize: 1n,
        stepSize: 1n,
        minQty: 1n,
        minNotional: 0n,
        makerFeePpm: 200,
        takerFeePpm: 500,
        status: 'TRADING',
      },
    });
  }
  for (let u = 0; u < users; u++) {
    const userId = `u${u}`;
    must(e, { type: 'deposit', ts: T0, userId, asset: 'USDT', account: 'SPOT', amount: 10n ** 10n * USDT, from: '@faucet' });
    if (perp) must(e, { type: 'transfer', ts: T0, userId, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 10n ** 10n * USDT });
    else must(e, { type: 'deposit', ts: T0, userId, asset: 'BTC', account: 'SPOT', amount: 10n ** 12n, from: '@faucet' });
  }
  return e;
}

/** Throughput of one run (commands/s) and its rejections. */
function timeRun(perp: boolean, flow: Step[], users: number): { perS: number; rejects: Map<string, number> } {
  const e = setup(perp, users);
  // the next order id: probe with a rejected-free read of the sequence (one order placed and cancelled first)
  const probe: Command = perp
    ? { type: 'perpPlaceOrder', ts: T0 + 5000, userId: 'u0', symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 300_000n, quantity: 1n }
    : { type: 'placeOrder', ts: T0 + 5000, userId: 'u0', symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 300_000n, quantity: 1n };
  const pr = e.execute(probe);
  const ev = pr.events.find((x) => x.type === 'orderAccepted' || x.type === 'perpOrderAccepted');
  const id = ev !== undefined && (ev.type === 'orderAccepted' || ev.type === 'perpOrderAccepted') ? Number(ev.order.orderId) : 1;
  e.execute(
    perp ? { type: 'perpCancelOrder', ts: T0 + 5000, userId: 'u0', orderId: `${id}` } : { type: 'cancelOrder', ts: T0 + 5000, userId: 'u0', orderId: `${id}` },
  );
  const cmds = commands(flow, perp, id + 1);
  maybeGc();
  const rejects = new Map<string, number>();
  const t0 = performance.now();
  for (const c of cmds) {
    const r = e.execute(c);
    if (r.code !== 'ok') rejects.set(r.code, (rejects.get(r.code) ?? 0) + 1);
  }
  const ms = performance.now() - t0;
  return { perS: (cmds.length * 1000) / ms, rejects };
}

/** a) contract vs spot throughput on the same flow. */
export function runPerpThroughput(n = 200_000, reps = 3): { spot: number; perp: number } {
  heading('5a. Contract-engine throughput (perpPlaceOrder with margin checks) vs the spot engine, same flow, same run');
  const users = 1000;
  const flow = buildFlow(n, users);
  const rates = { spot: [] as number[], perp: [] as number[] };
  for (let r = 0; r <= reps; r++) {
    for (const perp of r % 2 === 0 ? [false, true] : [true, false]) {
      const { perS, rejects } = timeRun(perp, flow, users);
      if (r === 0)
        console.log(
          `  warm-up ${perp ? 'contract' : 'spot'}: ${fmtInt(perS)} cmd/s; rejections: ${rejects.size === 0 ? 'none' : [...rejects].map(([k, v]) => `${k} ${v}`).join(', ')}`,
        );
      else rates[perp ? 'perp' : 'spot'].push(perS);
    }
  }
  const spot = median(rates.spot);
  const perp = median(rates.perp);
  table([
    ['engine', 'commands', 'cmd/s (median of ' + reps + ')', 'contract/spot'],
    ['spot placeOrder/cancelOrder', fmtInt(n), fmtInt(spot), ''],
    ['contract perpPlaceOrder/perpCancelOrder', fmtInt(n), fmtInt(perp), fmtRatio(perp / spot)],
  ]);
  return { spot, perp };
}

/** b) time per perpMarkPrice tick over `positions` open positions. */
export function runMarkSweep(positions = 100_000, ticks = 30): { msPerTick: number } {
  heading(`5b. Mark-price sweep over ${fmtInt(positions)} open positions (time per perpMarkPrice tick vs the 1 s tick)`);
  const e = new Engine();
  must(e, { type: 'addAsset', ts: T0, asset: { code: 'USDT', scale: 8 } });
  must(e, { type: 'addPerpMarket', ts: T0, market: PERP });
  let ts = T0 + 1000;
  let index = 400_000n;
  must(e, { type: 'perpMarkPrice', ts, symbol: SYM, indexPrice: index });
  const t0 = performance.now();
  const levs = [1, 2, 3, 5, 10, 20];
  for (let i = 0; i < positions / 2; i++) {
    const a = `a${i}`;
    const b = `b${i}`;
    for (const [k, u] of [a, b].entries()) {
      must(e, { type: 'deposit', ts, userId: u, asset: 'USDT', account: 'SPOT', amount: 1_000n * USDT, from: '@faucet' });
      must(e, { type: 'transfer', ts, userId: u, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 1_000n * USDT });
      if ((i + k) % 2 === 1) must(e, { type: 'perpSetMarginMode', ts, userId: u, symbol: SYM, marginMode: 'ISOLATED' });
      must(e, { type: 'perpSetLeverage', ts, userId: u, symbol: SYM, leverage: levs[(i + k) % levs.length]! });
    }
    const price = index + BigInt((i % 21) - 10);
    const tpsl = i % 10 === 0 ? { takeProfit: price * 3n, stopLoss: price / 3n } : {};
    must(e, { type: 'perpPlaceOrder', ts, userId: a, symbol: SYM, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 10n });
    must(e, { type: 'perpPlaceOrder', ts, userId: b, symbol: SYM, side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price, quantity: 10n, ...tpsl });
  }
  const setupS = (performance.now() - t0) / 1000;
  const open = e.positionCount(SYM);
  console.log(`  setup: ${fmtInt(open)} open positions in ${setupS.toFixed(1)} s`);
  const times: number[] = [];
  let liquidations = 0;
  for (let t = 0; t < ticks; t++) {
    ts += 1000;
    index += t % 2 === 0 ? 20n : -20n; // +-2 USDT
    maybeGc();
    const s = performance.now();
    const r = e.execute({ type: 'perpMarkPrice', ts, symbol: SYM, indexPrice: index });
    times.push(performance.now() - s);
    if (r.code !== 'ok') throw new Error(`perpMarkPrice: ${r.code}`);
    for (const ev of r.events) if (ev.type === 'liquidated') liquidations++;
  }
  const ms = median(times);
  table([
    ['open positions', 'ticks', 'ms per tick (median)', 'max ms', 'positions/s', 'share of the 1 s tick'],
    [fmtInt(open), `${ticks}`, ms.toFixed(2), Math.max(...times).toFixed(2), fmtInt((open * 1000) / ms), fmtRatio(ms / 1000)],
  ]);
  if (liquidations > 0) console.log(`  (${liquidations} liquidations during the sweep)`);
  return { msPerTick: ms };
}

/** Both parts (run-all's BENCH_ONLY=perp). */
export function runPerpBench(): void {
  runPerpThroughput(Number.parseInt(process.env.BENCH_PERP_N ?? '200000', 10));
  runMarkSweep(Number.parseInt(process.env.BENCH_PERP_POSITIONS ?? '100000', 10));
}

if (process.argv[1]?.endsWith('perp-bench.ts') === true) runPerpBench();
