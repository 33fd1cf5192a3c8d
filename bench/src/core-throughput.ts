/**
 * Benchmark 1: core throughput on real order flow. The Binance BTCUSDT depth capture and the
 * Bitfinex tBTCUSD L3 feed are rebuilt into order commands (src/flow), then replayed through our
 * engine and through nodejs-order-book in the same process, alternating, several repetitions each.
 * Prints commands/s (median) for both, the ratio ours/peer and the ratio to the 1M commands/s target.
 */
import path from 'node:path';
import { diffBooks, type FlowAdapter } from './adapters/adapter';
import { OursAdapter } from './adapters/ours';
import { PeerAdapter } from './adapters/peer';
import { dataFile } from './data/paths';
import { buildBinanceFlow } from './flow/flow-binance';
import { buildBitfinexFlow } from './flow/flow-bitfinex';
import type { Flow } from './flow/flow';
import { fmtInt, fmtRatio, heading, maybeGc, median, table } from './report';

/** Stated target for our engine (commands per second). */
export const TARGET_CMDS_PER_S = 1_000_000;

/** Result of one flow: commands/s medians. */
export interface ThroughputResult {
  flow: string;
  commands: number;
  oursPerS: number;
  peerPerS: number;
}

function loadFlows(): Flow[] {
  const flows: Flow[] = [];
  const b1 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240808.jsonl.gz');
  const b2 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240809.jsonl.gz');
  if (b1 !== undefined && b2 !== undefined) {
    const { flow, loadStats } = buildBinanceFlow('Binance BTCUSDT depth+trades', [b1, b2]);
    console.log(
      `  ${flow.name}: ${path.basename(b1)} + ${path.basename(b2)}: ${loadStats.diffsApplied} diffs (${loadStats.gaps} gaps), ` +
        `${loadStats.trades} trades -> ${fmtInt(flow.length)} commands (${flow.counts.place} place, ${flow.counts.cancel} cancel, ` +
        `${flow.counts.market} market), price 10^-${flow.priceDecimals}, qty 10^-${flow.qtyDecimals}`,
    );
    flows.push(flow);
  } else {
    console.log('  Binance capture not found under ../shared/data: skipped');
  }
  const f = dataFile('bitfinex-btcusd-raw-book-l3-nautilus/bitfinex_tBTCUSD_R0_book_events.csv.gz');
  if (f !== undefined) {
    const { flow, rows, skipped } = buildBitfinexFlow('Bitfinex tBTCUSD L3', f);
    console.log(
      `  ${flow.name}: ${path.basename(f)}: ${rows} rows (${skipped} no-ops skipped) -> ${fmtInt(flow.length)} commands ` +
        `(${flow.counts.place} place, ${flow.counts.cancel} cancel), price 10^-${flow.priceDecimals}, qty 10^-${flow.qtyDecimals}`,
    );
    flows.push(flow);
  } else {
    console.log('  Bitfinex L3 feed not found under ../shared/data: skipped');
  }
  return flows;
}

function timeRun(a: FlowAdapter, flow: Flow): { perS: number; rejects: Map<string, number> } {
  a.prepare(flow);
  maybeGc();
  const t0 = performance.now();
  const rejects = a.run(flow);
  const ms = performance.now() - t0;
  return { perS: (flow.length * 1000) / ms, rejects };
}

function fmtRejects(m: Map<string, number>): string {
  return m.size === 0 ? 'none' : [...m].map(([k, v]) => `${k}: ${v}`).join(', ');
}

/** Run the benchmark; `reps` timed repetitions per engine and flow after one warm-up run each. */
export function runCoreThroughput(reps = 5): ThroughputResult[] {
  heading('1. Core throughput on real order flow (ours vs nodejs-order-book, same run)');
  const flows = loadFlows();
  if (flows.length === 0) {
    console.log('  skipped: no data (../shared/data missing)');
    return [];
  }
  const results: ThroughputResult[] = [];
  for (const flow of flows) {
    const ours = new OursAdapter();
    const peer = new PeerAdapter();
    const rates = new Map<FlowAdapter, number[]>([
      [ours, []],
      [peer, []],
    ]);
    // Warm-up (JIT), also the correctness check: both books must end as the flow's simulation says.
    for (const a of [ours, peer]) {
      const { rejects } = timeRun(a, flow);
      const diff = diffBooks(a.depth(20), flow.finalBook, 20);
      console.log(`  [${flow.name}] ${a.name}: rejections ${fmtRejects(rejects)}; top 20 levels ${diff === null ? 'match the simulation' : `DIFFER: ${diff}`}`);
    }
    for (let r = 0; r < reps; r++) {
      const order = r % 2 === 0 ? [ours, peer] : [peer, ours];
      for (const a of order) rates.get(a)?.push(timeRun(a, flow).perS);
    }
    const o = median(rates.get(ours) as number[]);
    const p = median(rates.get(peer) as number[]);
    results.push({ flow: flow.name, commands: flow.length, oursPerS: o, peerPerS: p });
  }
  console.log(`\n  median of ${reps} runs each (after one warm-up), commands/s:`);
  table([
    ['flow', 'commands', 'ours cmd/s', 'peer cmd/s', 'ours/peer', 'ours/target(1M)'],
    ...results.map((r) => [
      r.flow,
      fmtInt(r.commands),
      fmtInt(r.oursPerS),
      fmtInt(r.peerPerS),
      fmtRatio(r.oursPerS / r.peerPerS),
      fmtRatio(r.oursPerS / TARGET_CMDS_PER_S),
    ]),
  ]);
  return results;
}
