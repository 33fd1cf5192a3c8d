/**
 * Quick engine throughput check (not a vitest test): `npx tsx packages/core/test/throughput.ts [N] [closedOrderRetention]`.
 * A seeded flow of LIMIT GTC places around a drifting mid price (about 10% crossing) and cancels
 * of random resting orders, pre-built so that only `execute` is timed. Prints commands per second of
 * wall time and of CPU time (the machine is shared: CPU time is the steadier figure).
 * The repository benchmark with real order flow and a peer library lives in bench/.
 */
import { Engine } from '../src/engine';
import type { Command } from '../src/types';

const { process, console } = globalThis as unknown as {
  process: {
    argv: string[];
    env: Record<string, string | undefined>;
    hrtime: { bigint(): bigint };
    cpuUsage(prev?: { user: number; system: number }): { user: number; system: number };
  };
  console: { log(...args: unknown[]): void };
};

const N = process.argv[2] !== undefined ? Number.parseInt(process.argv[2], 10) : 2_000_000;
let seed = 42;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};

function build(): { setup: Command[]; flow: Command[] } {
  const setup: Command[] = [
    { type: 'addAsset', ts: 0, asset: { code: 'BTC', scale: 8 } },
    { type: 'addAsset', ts: 0, asset: { code: 'USDT', scale: 8 } },
    {
      type: 'addMarket',
      ts: 0,
      market: {
        symbol: 'BTC/USDT',
        base: 'BTC',
        quote: 'USDT',
        priceDecimals: 2,
        qtyDecimals: 6,
        tickSize: 1n,
        stepSize: 1n,
        minQty: 1n,
        minNotional: 0n,
        makerFeePpm: 1000,
        takerFeePpm: 2000,
        status: 'TRADING',
      },
    },
  ];
  const users = 1000;
  for (let u = 0; u < users; u++) {
    setup.push({ type: 'deposit', ts: 0, userId: `u${u}`, asset: 'USDT', account: 'SPOT', amount: 10n ** 18n, from: '@faucet' });
    setup.push({ type: 'deposit', ts: 0, userId: `u${u}`, asset: 'BTC', account: 'SPOT', amount: 10n ** 16n, from: '@faucet' });
  }
  const flow: Command[] = [];
  const live: [string, string][] = [];
  let nextId = 1;
  let mid = 3_000_000;
  for (let i = 0; i < N; i++) {
    const ts = i + 1;
    if (live.length > 2000 && rnd() < 0.45) {
      const k = Math.floor(rnd() * live.length);
      const [userId, orderId] = live[k]!;
      live[k] = live[live.length - 1]!;
      live.pop();
      flow.push({ type: 'cancelOrder', ts, userId, orderId });
      continue;
    }
    mid += Math.floor(rnd() * 3) - 1;
    const side = rnd() < 0.5 ? 'BUY' : 'SELL';
    const off = Math.floor(rnd() * 200) - 20; // mostly passive, ~10% crossing
    const price = BigInt(side === 'BUY' ? mid - off : mid + off);
    const userId = `u${Math.floor(rnd() * users)}`;
    flow.push({
      type: 'placeOrder',
      ts,
      userId,
      symbol: 'BTC/USDT',
      side,
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price,
      quantity: BigInt(1 + Math.floor(rnd() * 1000)),
    });
    live.push([userId, `${nextId++}`]); // ids of filled orders get a harmless order_not_found on cancel
  }
  return { setup, flow };
}

const { setup, flow } = build();
const e = new Engine(process.argv[3] !== undefined ? { closedOrderRetention: Number.parseInt(process.argv[3], 10) } : {});
for (const c of setup) e.execute(c);
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let events = 0;
// THROUGHPUT_SKIP=1 builds the flow but executes nothing: the baseline to subtract when counting
// instructions (valgrind --tool=callgrind) of the execute loop alone.
if (process.env.THROUGHPUT_SKIP === undefined) for (const c of flow) events += e.execute(c).events.length;
const ns = Number(process.hrtime.bigint() - t0);
const cpu = process.cpuUsage(cpu0);
const cpuUs = cpu.user + cpu.system;
// CPU time of this process is printed too: on a shared, loaded machine wall time understates the engine.
console.log(
  `${flow.length} commands in ${(ns / 1e6).toFixed(0)} ms wall = ${Math.round((flow.length / ns) * 1e9).toLocaleString('en')} commands/s; ` +
    `${(cpuUs / 1e3).toFixed(0)} ms CPU = ${Math.round((flow.length / cpuUs) * 1e6).toLocaleString('en')} commands/CPU-s; ${events} events; resting ${e.bookOf('BTC/USDT')!.size()}`,
);
