/**
 * Profiling driver for the core-throughput benchmark (not part of `npm run bench`): runs only our
 * engine (the same OursAdapter, the same flows) so that a profiler sees nothing else.
 *
 *   npx tsx bench/src/profile-core.ts cache              build both flows from ../shared/data into the cache file
 *   npx tsx bench/src/profile-core.ts run [reps] [flow]  prepare + run each flow `reps` times (default 5);
 *                                                        prints CPU ms and commands per CPU second per run
 *
 * `flow` is `binance`, `bitfinex` or `all` (default). The cache (PROFILE_FLOW_CACHE, default
 * /tmp/exchange-core-flows.bin) is a plain binary dump of the flows, so that a run under valgrind does
 * not spend its instructions on gunzip and JSON. PROFILE_SKIP=1 prepares but does not run: the
 * baseline to subtract from a `valgrind --tool=callgrind` count of the same command, which leaves
 * the instructions of the timed `run` alone (bundle first: `npx esbuild bench/src/profile-core.ts
 * --bundle --platform=node --format=esm --outfile=/tmp/pc.mjs`, then `valgrind --tool=callgrind
 * node /tmp/pc.mjs run 1 binance`).
 */
import fs from 'node:fs';
import { diffBooks } from './adapters/adapter';
import { OursAdapter } from './adapters/ours';
import { dataFile } from './data/paths';
import type { Flow } from './flow/flow';
import { buildBinanceFlow } from './flow/flow-binance';
import { buildBitfinexFlow } from './flow/flow-bitfinex';

const CACHE = process.env.PROFILE_FLOW_CACHE ?? '/tmp/exchange-core-flows.bin';
const MAX_I64 = (1n << 63n) - 1n;

function i64(values: bigint[]): BigInt64Array {
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as bigint;
    if (v < 0n || v > MAX_I64) throw new RangeError(`profile-core: ${v} does not fit 64 bits`);
    out[i] = v;
  }
  return out;
}

/** Header (JSON) + typed columns, each column preceded by its byte length. */
function writeCache(flows: Flow[]): void {
  const parts: Buffer[] = [];
  const meta = flows.map((f) => ({
    name: f.name,
    source: f.source,
    priceDecimals: f.priceDecimals,
    qtyDecimals: f.qtyDecimals,
    length: f.length,
    orderCount: f.orderCount,
    users: f.users,
    counts: f.counts,
    finalBook: {
      bids: f.finalBook.bids.slice(0, 20).map(([p, q]) => [p.toString(), q.toString()]),
      asks: f.finalBook.asks.slice(0, 20).map(([p, q]) => [p.toString(), q.toString()]),
    },
  }));
  const head = Buffer.from(JSON.stringify(meta));
  const len = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  parts.push(len(head.length), head);
  for (const f of flows) {
    for (const col of [f.kind, f.side, f.orderId, f.user, i64(f.price), i64(f.qty)]) {
      const b = Buffer.from(col.buffer, col.byteOffset, col.byteLength);
      parts.push(len(b.length), b);
    }
  }
  fs.writeFileSync(CACHE, Buffer.concat(parts));
}

function readCache(): Flow[] {
  const buf = fs.readFileSync(CACHE);
  let at = 0;
  const next = (): Buffer => {
    const n = buf.readUInt32LE(at);
    const b = buf.subarray(at + 4, at + 4 + n);
    at += 4 + n;
    // Copy into a fresh, aligned ArrayBuffer (typed arrays need their element alignment).
    return Buffer.from(b);
  };
  type Meta = Omit<Flow, 'kind' | 'side' | 'orderId' | 'user' | 'price' | 'qty' | 'finalBook'> & {
    finalBook: { bids: [string, string][]; asks: [string, string][] };
  };
  const meta = JSON.parse(next().toString()) as Meta[];
  const ab = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  return meta.map((m) => {
    const kind = new Uint8Array(ab(next()));
    const side = new Uint8Array(ab(next()));
    const orderId = new Int32Array(ab(next()));
    const user = new Int32Array(ab(next()));
    const price = Array.from(new BigInt64Array(ab(next())));
    const qty = Array.from(new BigInt64Array(ab(next())));
    const big = (l: [string, string][]): [bigint, bigint][] => l.map(([p, q]) => [BigInt(p), BigInt(q)]);
    return { ...m, kind, side, orderId, user, price, qty, finalBook: { bids: big(m.finalBook.bids), asks: big(m.finalBook.asks) } };
  });
}

function buildFlows(): Flow[] {
  const flows: Flow[] = [];
  const b1 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240808.jsonl.gz');
  const b2 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240809.jsonl.gz');
  if (b1 === undefined || b2 === undefined) throw new Error('Binance capture not found under ../shared/data');
  flows.push(buildBinanceFlow('binance', [b1, b2]).flow);
  const f = dataFile('bitfinex-btcusd-raw-book-l3-nautilus/bitfinex_tBTCUSD_R0_book_events.csv.gz');
  if (f === undefined) throw new Error('Bitfinex L3 feed not found under ../shared/data');
  flows.push(buildBitfinexFlow('bitfinex', f).flow);
  return flows;
}

function main(): void {
  const [cmd = 'run', repsArg = '5', which = 'all'] = process.argv.slice(2);
  if (cmd === 'cache') {
    writeCache(buildFlows());
    console.log(`flows written to ${CACHE}`);
    return;
  }
  if (!fs.existsSync(CACHE)) writeCache(buildFlows());
  const reps = Number.parseInt(repsArg, 10);
  const skip = process.env.PROFILE_SKIP !== undefined;
  const flows = readCache().filter((f) => which === 'all' || f.name === which);
  for (const flow of flows) {
    const a = new OursAdapter();
    const perS: number[] = [];
    for (let r = 0; r < reps; r++) {
      a.prepare(flow);
      if (skip) continue;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const rejects = a.run(flow);
      const wallMs = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const cpuMs = (c.user + c.system) / 1000;
      perS.push((flow.length * 1000) / cpuMs);
      const diff = diffBooks(a.depth(20), flow.finalBook, 20);
      console.log(
        `${flow.name} run ${r}: ${flow.length} commands, ${cpuMs.toFixed(0)} ms CPU (${Math.round((flow.length * 1000) / cpuMs).toLocaleString('en')}/CPU-s), ` +
          `${wallMs.toFixed(0)} ms wall (${Math.round((flow.length * 1000) / wallMs).toLocaleString('en')}/s); rejects ${rejects.size}; book ${diff ?? 'ok'}`,
      );
    }
    if (perS.length > 0) {
      const sorted = [...perS].sort((x, y) => x - y);
      console.log(`${flow.name}: median ${Math.round(sorted[sorted.length >> 1] as number).toLocaleString('en')} commands/CPU-s`);
    }
  }
}

main();
